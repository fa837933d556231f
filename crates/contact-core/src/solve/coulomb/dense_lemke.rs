//! Lemke's complementary pivoting on a dense tableau ([`lemke`]), with `q`
//! moved by a deterministic hair ([`perturbed`]): [`super`]'s complete
//! method on islands small enough for a dense matrix
//! ([`crate::sparse_lemke`] is the same walk on a sparse basis).

use super::*;

/// Lemke's relative perturbation of `q` ([`lemke`]).
pub const PERTURB: f64 = 1e-11;
/// Lemke's pivot tolerance, relative to the entering column's largest entry.
pub const PIVOT_TOL: f64 = 1e-9;
/// Lemke's pivots, per unknown (an answer takes about 1.05 n on a heap of
/// 140 discs, at most 1.35 n; the cap was 50 n, 33 s where it was reached).
pub const LEMKE_PIVOTS: usize = 5;

/// `q` moved by a deterministic hair (`by` of its largest entry,
/// times a number in `[0.5, 1)` from a fixed [`Lcg`]): the ties of a
/// degenerate pile (rows at zero, statuses at the cone's edge) that
/// round-off would break at random are broken once. The caller solves the
/// statuses found exactly.
pub fn perturbed(q: &[f64], by: f64) -> Vec<f64> {
    let qs = q.iter().map(|x| x.abs()).fold(0.0, f64::max);
    let mut rng = Lcg::new(12345);
    q.iter().map(|x| x + by * qs * (0.5 + 0.5 * rng.next())).collect()
}

/// How Lemke's method ended without an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LemkeEnd {
    /// On a ray: no answer exists (for the matrices here, Painlevé).
    Ray,
    /// At its pivot cap (`5 n + 100`): a numerical failure.
    Cap,
}

/// Lemke's complementary pivoting for `w = M z + q ≥ 0`, `z ≥ 0`, `zᵀ w = 0`
/// (covering vector `1`).
pub fn lemke(m: &DMatrix<f64>, q: &[f64]) -> Result<Vec<f64>, LemkeEnd> {
    let n = q.len();
    if q.iter().all(|&x| x >= 0.0) {
        return Ok(vec![0.0; n]);
    }
    let qp = perturbed(q, PERTURB);
    // Tableau [I | −M | −1 | q]; variables w_0..n, z_0..n, z₀ = 2n.
    let cols = 2 * n + 2;
    let mut t = DMatrix::zeros(n, cols);
    for i in 0..n {
        t[(i, i)] = 1.0;
        for j in 0..n {
            t[(i, n + j)] = -m[(i, j)];
        }
        t[(i, 2 * n)] = -1.0;
        t[(i, 2 * n + 1)] = qp[i];
    }
    let mut basis: Vec<usize> = (0..n).collect();
    let pivot = |t: &mut DMatrix<f64>, r: usize, c: usize| {
        let p = t[(r, c)];
        for j in 0..cols {
            t[(r, j)] /= p;
        }
        for i in 0..n {
            if i != r {
                let f = t[(i, c)];
                if f != 0.0 {
                    for j in 0..cols {
                        t[(i, j)] -= f * t[(r, j)];
                    }
                }
            }
        }
    };
    let r0 = (0..n).min_by(|&a, &b| q[a].total_cmp(&q[b])).ok_or(LemkeEnd::Cap)?;
    pivot(&mut t, r0, 2 * n);
    let mut leaving = basis[r0];
    basis[r0] = 2 * n;
    let scale = q.iter().map(|x| x.abs()).fold(0.0, f64::max).max(1.0);
    for _ in 0..(LEMKE_PIVOTS * n + 100) {
        let entering = if leaving < n { leaving + n } else { leaving - n };
        // Ratio test, lexicographic (ties broken by the rows of B⁻¹, the w
        // columns of the tableau, divided by the pivot): no cycling on the
        // degenerate problems of hyperstatic contacts. z₀ leaves first on a tie.
        let mut best: Option<(usize, f64)> = None;
        // A pivot below PIVOT_TOL of its column's largest is round-off.
        let tiny = PIVOT_TOL * (0..n).map(|i| t[(i, entering)].abs()).fold(0.0, f64::max);
        for i in 0..n {
            let c = t[(i, entering)];
            if c <= tiny {
                continue;
            }
            let ratio = t[(i, 2 * n + 1)] / c;
            let better = match best {
                None => true,
                Some((bi, br)) => {
                    if ratio < br - 1e-12 * scale {
                        true
                    } else if ratio > br + 1e-12 * scale {
                        false
                    } else if basis[i] == 2 * n || basis[bi] == 2 * n {
                        basis[i] == 2 * n
                    } else {
                        let cb = t[(bi, entering)];
                        let mut smaller = false;
                        for j in 0..n {
                            let (a, b) = (t[(i, j)] / c, t[(bi, j)] / cb);
                            if (a - b).abs() > 1e-14 {
                                smaller = a < b;
                                break;
                            }
                        }
                        smaller
                    }
                }
            };
            if better {
                best = Some((i, ratio));
            }
        }
        let (r, _) = best.ok_or(LemkeEnd::Ray)?;
        pivot(&mut t, r, entering);
        leaving = basis[r];
        basis[r] = entering;
        if leaving == 2 * n {
            let mut z = vec![0.0; n];
            for (i, &v) in basis.iter().enumerate() {
                if (n..2 * n).contains(&v) {
                    z[v - n] = t[(i, 2 * n + 1)].max(0.0);
                }
            }
            return Ok(z);
        }
    }
    Err(LemkeEnd::Cap)
}
