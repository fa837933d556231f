//! The linear algebra of one status vector's system for [`super`]: a
//! rank-revealing elimination, and the point of its null space deepest
//! inside the status's inequalities (dense, small islands); the sparse
//! envelope Cholesky with Woodbury's update for the slips (large ones); and
//! the regularized dense solves with refinement.

use super::*;

/// A pivot below this fraction of the largest entry of a status's system
/// counts as zero ([`rank_revealing`]): that system is singular.
const RANK: f64 = 1e-10;

/// `K x = r` by Gaussian elimination with complete pivoting, `P K Q = L U`:
/// a solution `x₀` (the free unknowns 0, refined once) and a basis of the
/// null space of `K` (unit columns), its rank the pivots above [`RANK`]
/// of the largest entry. Where `r` is not in the range of `K`, `x₀` leaves
/// a residual (the contract then rejects it).
pub(super) fn rank_revealing(k: &DMatrix<f64>, r: &[f64]) -> (Vec<f64>, Vec<Vec<f64>>) {
    let n = r.len();
    let mut u: Vec<Vec<f64>> = (0..n).map(|i| (0..n).map(|j| k[(i, j)]).collect()).collect();
    let mut perm_r: Vec<usize> = (0..n).collect();
    let mut perm_c: Vec<usize> = (0..n).collect();
    let mut lower = vec![vec![0.0; n]; n];
    let largest = u.iter().flatten().fold(0.0_f64, |a, b| a.max(b.abs()));
    let mut rank = 0;
    while rank < n {
        let (mut pi, mut pj, mut best) = (rank, rank, 0.0);
        for (i, row) in u.iter().enumerate().skip(rank) {
            for (j, v) in row.iter().enumerate().skip(rank) {
                if v.abs() > best {
                    (pi, pj, best) = (i, j, v.abs());
                }
            }
        }
        if best <= RANK * largest || best == 0.0 {
            break;
        }
        u.swap(rank, pi);
        lower.swap(rank, pi);
        perm_r.swap(rank, pi);
        for row in &mut u {
            row.swap(rank, pj);
        }
        perm_c.swap(rank, pj);
        let (above, below) = u.split_at_mut(rank + 1);
        let pivot_row = &above[rank];
        for (i, row) in below.iter_mut().enumerate() {
            let f = row[rank] / pivot_row[rank];
            lower[rank + 1 + i][rank] = f;
            if f != 0.0 {
                for (x, p) in row[rank..].iter_mut().zip(&pivot_row[rank..]) {
                    *x -= f * p;
                }
            }
        }
        rank += 1;
    }
    // x with the free unknowns at `free`: U_BB x_B = (L⁻¹ P rhs)_B − U_BF free.
    let solve = |rhs: &[f64], free: &[f64]| -> Vec<f64> {
        let mut y: Vec<f64> = perm_r.iter().map(|&i| rhs[i]).collect();
        for i in 0..n {
            for j in 0..i.min(rank) {
                y[i] -= lower[i][j] * y[j];
            }
        }
        let mut xq = vec![0.0; n];
        xq[rank..].copy_from_slice(free);
        for i in (0..rank).rev() {
            let s: f64 = (i + 1..n).map(|j| u[i][j] * xq[j]).sum();
            xq[i] = (y[i] - s) / u[i][i];
        }
        let mut x = vec![0.0; n];
        for (p, &c) in perm_c.iter().enumerate() {
            x[c] = xq[p];
        }
        x
    };
    let zeros = vec![0.0; n - rank];
    let mut x = solve(r, &zeros);
    let residual: Vec<f64> = (0..n).map(|i| r[i] - (0..n).map(|j| k[(i, j)] * x[j]).sum::<f64>()).collect();
    for (xi, d) in x.iter_mut().zip(solve(&residual, &zeros)) {
        *xi += d;
    }
    let null = (0..n - rank)
        .map(|f| {
            let mut free = vec![0.0; n - rank];
            free[f] = 1.0;
            let mut col = solve(&vec![0.0; n], &free);
            let norm = col.iter().map(|v| v * v).sum::<f64>().sqrt();
            col.iter_mut().for_each(|v| *v /= norm);
            col
        })
        .collect();
    (x, null)
}

/// The `y ∈ ℝᵈ` deepest inside `g_i·y ≥ h_i` (every `i`): the largest
/// margin `τ ≤ cap` with `g_i·y − τ ≥ h_i`, by the simplex method on a
/// dense tableau (Bland's rule, so no cycling), from `y = 0`. `None` if the
/// simplex stops short (its cap of pivots, which Bland's rule should not
/// reach).
pub(super) fn deepest(g: &[Vec<f64>], h: &[f64], d: usize, cap: f64) -> Option<Vec<f64>> {
    let p = h.len();
    if p == 0 {
        return Some(vec![0.0; d]);
    }
    // Columns: y⁺ (d), y⁻ (d), u = cap − τ, the slacks s (p), then the
    // right-hand side. Row i: −g_i y⁺ + g_i y⁻ − u + s_i = −h_i − cap.
    let (u_col, cols) = (2 * d, 2 * d + 1 + p);
    let mut t = vec![vec![0.0; cols + 1]; p];
    for i in 0..p {
        for j in 0..d {
            t[i][j] = -g[i][j];
            t[i][d + j] = g[i][j];
        }
        t[i][u_col] = -1.0;
        t[i][u_col + 1 + i] = 1.0;
        t[i][cols] = -h[i] - cap;
    }
    let mut basis: Vec<usize> = (0..p).map(|i| u_col + 1 + i).collect();
    let pivot = |t: &mut Vec<Vec<f64>>, r: usize, c: usize| {
        let v = t[r][c];
        t[r].iter_mut().for_each(|x| *x /= v);
        let row = t[r].clone();
        for (i, ti) in t.iter_mut().enumerate() {
            let f = ti[c];
            if i != r && f != 0.0 {
                ti.iter_mut().zip(&row).for_each(|(x, y)| *x -= f * y);
            }
        }
    };
    // Feasible start: u enters where the right-hand side is lowest.
    let (r0, low) = (0..p).map(|i| (i, t[i][cols])).min_by(|a, b| a.1.total_cmp(&b.1))?;
    if low < 0.0 {
        pivot(&mut t, r0, u_col);
        basis[r0] = u_col;
    }
    // Minimize u (Bland: the first column that lowers it, the first row of the ratio test).
    const EPS: f64 = 1e-12;
    for _ in 0..50 * (p + cols) {
        let reduced = |j: usize| -> f64 {
            let cost = f64::from(u8::from(j == u_col));
            cost - (0..p).filter(|&i| basis[i] == u_col).map(|i| t[i][j]).sum::<f64>()
        };
        let Some(entering) = (0..cols).find(|&j| !basis.contains(&j) && reduced(j) < -EPS) else {
            let mut y = vec![0.0; d];
            for (i, &b) in basis.iter().enumerate() {
                if b < d {
                    y[b] += t[i][cols];
                } else if b < 2 * d {
                    y[b - d] -= t[i][cols];
                }
            }
            return Some(y);
        };
        let mut best: Option<(usize, f64)> = None;
        for i in 0..p {
            let c = t[i][entering];
            if c > EPS {
                let ratio = t[i][cols] / c;
                let better = match best {
                    None => true,
                    Some((bi, br)) => {
                        ratio < br - EPS * br.abs().max(1.0)
                            || (ratio <= br + EPS * br.abs().max(1.0) && basis[i] < basis[bi])
                    }
                };
                if better {
                    best = Some((i, ratio));
                }
            }
        }
        // u ≥ 0 bounds the objective: no ray (rounding aside).
        let (r, _) = best?;
        pivot(&mut t, r, entering);
        basis[r] = entering;
    }
    None
}

/// Slips beyond this many take the dense LU rather than the Woodbury update.
pub(super) const MAX_WOODBURY: usize = 24;

/// `K x = r` on the rows `R` of a symmetric `A`, `K = A_RR + U Vᵀ` with one
/// column `U_c = coef_c A_{R t_c}` and `V_c = e_{p_c}` per slip `(p_c, t_c,
/// coef_c)` (`p_c` the position of its normal in `R`): the sparse envelope
/// Cholesky ([`crate::schur`]) of `S = A_RR + ε diag(A_RR)` in reverse
/// Cuthill–McKee order, and the Sherman–Morrison–Woodbury formula
/// `K⁻¹ = S⁻¹ − S⁻¹U (I + Vᵀ S⁻¹ U)⁻¹ Vᵀ S⁻¹` for the slips, then two
/// rounds of refinement on `K` itself (as [`regularized_solve`]).
pub(super) fn sparse_solve(
    problem: &Problem,
    rows: &[usize],
    r: &DVector<f64>,
    slips: &[(usize, usize, f64)],
) -> Option<DVector<f64>> {
    let a = &problem.a;
    let n = rows.len();
    // Each row's non-zeros among `rows`, by their place there.
    let mut place = vec![usize::MAX; problem.m()];
    for (li, &i) in rows.iter().enumerate() {
        place[i] = li;
    }
    let g = SchurGraph {
        diag: rows.iter().map(|&i| a[(i, i)]).collect(),
        adj: rows
            .iter()
            .enumerate()
            .map(|(li, &i)| {
                let mut adj: Vec<(usize, f64)> = problem.nz[i]
                    .iter()
                    .filter(|&&(j, _)| place[j] != usize::MAX && place[j] != li)
                    .map(|&(j, v)| (place[j], v))
                    .collect();
                adj.sort_unstable_by_key(|&(lj, _)| lj);
                adj
            })
            .collect(),
    };
    if g.diag.iter().any(|d| *d <= 0.0) {
        return None;
    }
    let order = g.ordering(&(0..n).collect::<Vec<_>>());
    let mut env = Envelope::new(n, EPS);
    for &i in &order {
        if !env.push(&g, i, 0.0) {
            return None;
        }
    }
    let solve_s = |r: &[f64]| -> Vec<f64> {
        let by_position: Vec<f64> = order.iter().map(|&i| r[i]).collect();
        let mut x = vec![0.0; n];
        for (p, v) in env.solve(&by_position).into_iter().enumerate() {
            x[order[p]] = v;
        }
        x
    };
    // Woodbury: Y = S⁻¹ U and the capacitance I + Vᵀ Y.
    let k = slips.len();
    let u: Vec<Vec<f64>> = slips.iter().map(|&(_, t, c)| rows.iter().map(|&i| c * a[(i, t)]).collect()).collect();
    let y: Vec<Vec<f64>> = u.iter().map(|col| solve_s(col)).collect();
    let capacitance = DMatrix::from_fn(k, k, |i, j| f64::from(u8::from(i == j)) + y[j][slips[i].0]).lu();
    let solve_k = |r: &[f64]| -> Option<Vec<f64>> {
        let mut x = solve_s(r);
        if k > 0 {
            let vx = DVector::from_fn(k, |c, _| x[slips[c].0]);
            let z = capacitance.solve(&vx)?;
            for (c, yc) in y.iter().enumerate() {
                for (xi, yi) in x.iter_mut().zip(yc) {
                    *xi -= yi * z[c];
                }
            }
        }
        Some(x)
    };
    let mul_k = |x: &[f64]| -> Vec<f64> {
        let mut out = g.mul(x);
        for (c, &(p, _, _)) in slips.iter().enumerate() {
            for (o, ui) in out.iter_mut().zip(&u[c]) {
                *o += ui * x[p];
            }
        }
        out
    };
    let rv: Vec<f64> = r.iter().copied().collect();
    let mut x = solve_k(&rv)?;
    for _ in 0..2 {
        let kx = mul_k(&x);
        let res: Vec<f64> = rv.iter().zip(&kx).map(|(r, a)| r - a).collect();
        for (x, d) in x.iter_mut().zip(solve_k(&res)?) {
            *x += d;
        }
    }
    x.iter().all(|v| v.is_finite()).then(|| DVector::from_vec(x))
}

/// `K x = r` through `K + ε diag(|K|)` and two rounds of refinement (module docs).
pub(super) fn regularized_solve(k: &DMatrix<f64>, r: &DVector<f64>) -> Option<DVector<f64>> {
    let mut rhs = DMatrix::zeros(r.len(), 1);
    rhs.set_column(0, r);
    regularized_solve_many(k, &rhs).map(|x| x.column(0).into_owned())
}

pub(super) fn regularized_solve_many(k: &DMatrix<f64>, r: &DMatrix<f64>) -> Option<DMatrix<f64>> {
    let n = k.nrows();
    let scale = (0..n).map(|i| k[(i, i)].abs()).fold(0.0, f64::max).max(f64::MIN_POSITIVE);
    let mut reg = k.clone();
    for i in 0..n {
        reg[(i, i)] += EPS * k[(i, i)].abs().max(1e-6 * scale);
    }
    let lu = reg.lu();
    let mut x = lu.solve(r)?;
    for _ in 0..2 {
        let res = r - k * &x;
        x += lu.solve(&res)?;
    }
    x.iter().all(|v| v.is_finite()).then_some(x)
}
