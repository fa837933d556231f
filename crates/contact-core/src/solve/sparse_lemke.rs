//! Lemke's method on a sparse complementarity problem, in revised form:
//! the complete method for Coulomb's problem at the velocity level on
//! islands too large for a dense tableau ([`crate::cone_fixed_point`]).
//!
//! The problem is `w = M z + q ≥ 0`, `z ≥ 0`, `zᵀ w = 0` with `M` sparse
//! (`m × m`). With a covering vector `d > 0` ([`SparseLcp::cover`], 1 by
//! default) and the artificial `z₀`, Lemke's method walks the
//! almost-complementary bases of
//!
//! ```text
//! I w − M z − d z₀ = q                                               (1)
//! ```
//!
//! from `z₀ = max(−q_i / d_i)` until `z₀` leaves the basis (an answer) or an
//! entering column has no positive entry (a ray). The walk follows the
//! answers of `w = M z + q + z₀ d` as `z₀` falls to 0; any `d > 0` keeps the
//! termination below, and which one is chosen sets how long the walk is
//! (the caller's, [`crate::anitescu_potra`]). For Anitescu–Potra's
//! problem of planar Coulomb friction at the velocity level (Anitescu &
//! Potra 1997, Stewart & Trinkle 1996: `M` copositive-plus on the contact
//! rows) it ends on an answer in exact arithmetic, with the lexicographic
//! rule for degenerate ratios: that is the termination this solver states.
//!
//! **Revised form.** The tableau of [`crate::coulomb::lemke`] is dense,
//! `O(m²)` a pivot. Here the basis `B` (the columns of (1) of the basic
//! variables; most are `w`'s unit columns) is factored by faer's sparse LU
//! every [`REFACTOR`] pivots, and the pivots between are kept as eta
//! vectors, `B_k = B_0 E_1 ⋯ E_k` with `E_j` the identity but for column
//! `r_j`, the entering column `d_j = B_{j−1}⁻¹ a_j`:
//!
//! ```text
//! B_k⁻¹ a = E_k⁻¹ ⋯ E_1⁻¹ (L U)⁻¹ a                       (FTRAN, each pivot)
//! e_iᵀ B_k⁻¹ = ((L U)⁻ᵀ E_1⁻ᵀ ⋯ E_k⁻ᵀ e_i)ᵀ                 (BTRAN, ties only)
//! ```
//!
//! (Dantzig & Orchard-Hays' product form). Only the basis's kernel is
//! factored (`Basis`: a position holding `w_i` covers row `i`, so `B =
//! [[I, C_W], [0, K]]` and only `K` is ordered and factored; on a 300-ball
//! pile at μ = 0.3 the mean step went from 90.7 to 73.1 ms, the ordering
//! and the LU of the whole basis having cost more than the pivots). A
//! pivot costs one sparse solve and `k` eta updates; the values of
//! the basic variables are updated by the ratio step and computed afresh,
//! `B⁻¹ q`, at each refactorization. The eta vectors are kept whole
//! (`Eta`): on a hyperstatic pile every entry of `d_j` is non-zero.
//!
//! **Degeneracy.** `q` is moved by a deterministic hair (1e-11 of its
//! largest entry, as the dense method does), so that the ties of a
//! hyperstatic pile are broken once and not by round-off; ratios equal to
//! well below that hair are ordered lexicographically by the rows of `B⁻¹`
//! (one BTRAN per tied row), `z₀` leaving first. A pivot below
//! [`PIVOT_TOL`] of its column's largest entry counts as zero. The walk's
//! last basis is then solved with the true `q`: those statuses are the
//! answer only where every basic value stays `≥ 0` to round-off
//! ([`END_FLOOR`]), clipped to 0, and held by the caller to its contract.
//!
//! On a 300-ball pile, round-off in the basis (up to 1e-8 of the basic
//! values between two factorizations) can outweigh that hair: a walk can
//! end on a last basis the true `q` leaves, on a false ray, or in a cycle,
//! caught where a basis comes back at a factorization (the walk's state
//! there is its basis and the variable that left, so it would repeat for
//! ever); the long ones are stopped at [`PIVOTS`]. The walk is then tried
//! again with a hair of 1e-8 ([`PERTURBATIONS`]). The caller holds the
//! answer to its own contract: a ray or the cap of pivots is a failure it
//! reports, never an answer.
//!
//! A warm start (the complementary basis of the last step's contacts, its
//! dependent rows dropped, covering vector `B_s 1`) was measured and left
//! out: on the settling 300-ball pile it took as many pivots as the cold
//! start (0.7–2 m pivots, none of 300 walks ended at its first
//! factorization). Which rows a hyperstatic pile's answer needs in its
//! basis is not which rows the last step's forces had: that is the next
//! thing to look at.

use std::hash::{Hash, Hasher};

use faer::Mat;
use faer::linalg::solvers::Solve;
use faer::sparse::linalg::solvers::{Lu, SymbolicLu};
use faer::sparse::{SparseColMat, Triplet};

pub use crate::coulomb::LemkeEnd;
use crate::coulomb::{PIVOT_TOL, perturbed};

/// Pivots between two factorizations of the basis.
pub const REFACTOR: usize = 48;
/// The perturbations of `q` tried, relative to its largest entry: where
/// round-off in the basis outweighs the smaller, it no longer breaks the
/// ties of a degenerate pile, and the walk can cycle or end on a false ray.
pub const PERTURBATIONS: [f64; 2] = [1e-11, 1e-8];
/// The least basic value, relative to the largest (or to `q`'s), that the
/// start's basis (every `w`) takes as an answer: round-off.
pub const START_FLOOR: f64 = 1e-9;
/// The same at a walk's end, where its last basis is solved with the true
/// `q` and the values clipped to 0: the caller holds the answer to its own
/// contract (and corrects the statuses' equations where it misses). On a
/// 300-ball pile at μ = 0.3, 2 of 60 walks ended on the answer's basis with
/// a basic value at −1.2e-8 of 9.0 (1.3e-9 relative) for the true `q`, and
/// were thrown away at 1e-9, then walked again with the larger hair to the
/// same end: a second of pivots each, then the rescues.
pub const END_FLOOR: f64 = 1e-6;
/// Pivots of one walk, per unknown (`6 m + 100`): a walk that cycles
/// without coming back to a basis at a factorization is stopped at this.
/// On a 300-ball pile at μ = 0.3 collapsing (t = 0.55–0.66 s) the walks
/// that end on an answer took 2–2.9 m pivots, and one in three met the
/// earlier cap of `3 m` before its end (then the walk with the larger hair,
/// then the rescues: seconds a solve, up to 13 solves a step); with `6 m`
/// those end at up to 5 m (28 states replayed: mean step 1091 → 758 ms,
/// worst 4.1 → 2.2 s; `10 m` gave the same).
pub const PIVOTS: usize = 6;

/// `w = M z + q` with `M` stored by columns: `cols[j]` lists `(i, M_ij)`.
#[derive(Clone, Debug, Default)]
pub struct SparseLcp {
    pub cols: Vec<Vec<(usize, f64)>>,
    pub q: Vec<f64>,
    /// The covering vector `d` of (1), every entry `> 0`.
    pub cover: Vec<f64>,
}

impl SparseLcp {
    /// An empty problem of `m` unknowns.
    pub fn new(m: usize) -> SparseLcp {
        SparseLcp { cols: vec![Vec::new(); m], q: vec![0.0; m], cover: vec![1.0; m] }
    }

    /// `M_ij += v`.
    pub fn add(&mut self, i: usize, j: usize, v: f64) {
        if v == 0.0 {
            return;
        }
        let col = &mut self.cols[j];
        match col.iter_mut().find(|(r, _)| *r == i) {
            Some((_, x)) => *x += v,
            None => col.push((i, v)),
        }
    }

    pub fn len(&self) -> usize {
        self.q.len()
    }

    pub fn is_empty(&self) -> bool {
        self.q.is_empty()
    }

    /// `w = M z + q`.
    pub fn w(&self, z: &[f64]) -> Vec<f64> {
        let mut w = self.q.clone();
        for (col, zj) in self.cols.iter().zip(z) {
            if *zj != 0.0 {
                for (i, v) in col {
                    w[*i] += v * zj;
                }
            }
        }
        w
    }
}

/// A variable of (1): `w_i` (`i < m`), `z_j` (`m + j`), `z₀` (`2m`).
type Var = usize;

/// The basis of (1): its factored part and the eta vectors since.
///
/// A position holding `w_i` is the unit column `e_i`: it covers row `i`.
/// With the covered rows and those positions first, `B = [[I, C_W], [0, K]]`,
/// `K` the z columns (and `z₀`'s) on the rows no `w` covers, square: only
/// `K` is ordered and factored.
struct Basis {
    m: usize,
    /// `K`'s factors (`None` where every position holds a `w`).
    lu: Option<Lu<usize, f64>>,
    /// Row `i`'s covering position, or `usize::MAX`.
    cover: Vec<usize>,
    /// `K`'s rows (uncovered rows of `B`) and columns (positions of z's).
    krows: Vec<usize>,
    zpos: Vec<usize>,
    /// The z positions' columns on the covered rows only (`C_W`): what
    /// FTRAN and BTRAN read of them (`K`'s part is in its factors).
    cols: Vec<Vec<(usize, f64)>>,
    /// The pivots since the factorization, in order.
    etas: Vec<Eta>,
}

/// A pivot at position `r` on the entering column `d` (in the basis
/// before it): `d_r`, and `d` with its `r`-th entry 0, whole. On a
/// hyperstatic pile `d = B⁻¹ a` has no zero entry (an impulse reaches every
/// contact), so a dense column holds half the bytes of index–value pairs and
/// its updates run on contiguous memory.
struct Eta {
    r: usize,
    pivot: f64,
    d: Vec<f64>,
}

impl Basis {
    /// Factors the basis whose position `p` holds `vars[p]`.
    fn factor(lcp: &SparseLcp, vars: &[Var]) -> Option<Basis> {
        let m = lcp.len();
        let mut cover = vec![usize::MAX; m];
        for (p, &v) in vars.iter().enumerate() {
            if v < m {
                cover[v] = p;
            }
        }
        let krows: Vec<usize> = (0..m).filter(|&i| cover[i] == usize::MAX).collect();
        let zpos: Vec<usize> = (0..m).filter(|&p| vars[p] >= m).collect();
        if krows.len() != zpos.len() {
            return None;
        }
        let mut at = vec![usize::MAX; m];
        for (k, &i) in krows.iter().enumerate() {
            at[i] = k;
        }
        // Each z column split once: its uncovered rows are `K`'s entries,
        // its covered rows `C_W`, kept for FTRAN and BTRAN.
        let mut entries = Vec::new();
        let cols: Vec<Vec<(usize, f64)>> = zpos
            .iter()
            .enumerate()
            .map(|(c, &p)| {
                let (in_k, covered): (Vec<_>, Vec<_>) =
                    column(lcp, vars[p]).into_iter().partition(|(i, _)| at[*i] != usize::MAX);
                entries.extend(in_k.into_iter().map(|(i, x)| Triplet::new(at[i], c, x)));
                covered
            })
            .collect();
        let k = zpos.len();
        let lu = if k == 0 {
            None
        } else {
            let kk = SparseColMat::<usize, f64>::try_new_from_triplets(k, k, &entries).ok()?;
            let symbolic = SymbolicLu::try_new(kk.symbolic()).ok()?;
            Some(Lu::try_new_with_symbolic(symbolic, kk.as_ref()).ok()?)
        };
        Some(Basis { m, lu, cover, krows, zpos, cols, etas: Vec::new() })
    }

    /// `B⁻¹ v` for a dense `v`.
    fn solve(&self, v: &[f64]) -> Vec<f64> {
        self.ftran(&v.iter().copied().enumerate().filter(|(_, x)| *x != 0.0).collect::<Vec<_>>())
    }

    /// `B⁻¹ a` (FTRAN): `K x_Z = a` on the uncovered rows, then each covered
    /// row's position `x_W = a − C_W x_Z`.
    fn ftran(&self, a: &[(usize, f64)]) -> Vec<f64> {
        let mut r = vec![0.0; self.m];
        for (i, v) in a {
            r[*i] += v;
        }
        let mut y = vec![0.0; self.m];
        if let Some(lu) = &self.lu {
            let mut x = Mat::<f64>::from_fn(self.krows.len(), 1, |k, _| r[self.krows[k]]);
            lu.solve_in_place(x.as_mut());
            for (c, (&p, col)) in self.zpos.iter().zip(&self.cols).enumerate() {
                let xc = x[(c, 0)];
                y[p] = xc;
                if xc != 0.0 {
                    for &(i, v) in col {
                        r[i] -= v * xc;
                    }
                }
            }
        }
        for (i, &p) in self.cover.iter().enumerate() {
            if p != usize::MAX {
                y[p] = r[i];
            }
        }
        for e in &self.etas {
            let yr = y[e.r] / e.pivot;
            if yr != 0.0 {
                // `d_i = 0` leaves `y_i` as it was (not `y_i − 0`, which
                // could turn a −0 into a +0): the same bits as the updates
                // of the non-zero entries alone.
                for (yi, di) in y.iter_mut().zip(&e.d) {
                    *yi = if *di != 0.0 { *yi - di * yr } else { *yi };
                }
            }
            y[e.r] = yr;
        }
        y
    }

    /// Row `i` of `B⁻¹` (BTRAN): `y_W = u_W` on the covered rows, then
    /// `Kᵀ y_Z = u_Z − C_Wᵀ y_W`.
    fn btran(&self, i: usize) -> Vec<f64> {
        let mut u = vec![0.0; self.m];
        u[i] = 1.0;
        for e in self.etas.iter().rev() {
            let s: f64 = e.d.iter().zip(&u).filter(|(dk, _)| **dk != 0.0).map(|(dk, uk)| uk * dk).sum();
            u[e.r] = (u[e.r] - s) / e.pivot;
        }
        let mut y = vec![0.0; self.m];
        for (row, &p) in self.cover.iter().enumerate() {
            if p != usize::MAX {
                y[row] = u[p];
            }
        }
        if let Some(lu) = &self.lu {
            let mut x = Mat::<f64>::from_fn(self.zpos.len(), 1, |c, _| {
                u[self.zpos[c]] - self.cols[c].iter().map(|(r, v)| v * y[*r]).sum::<f64>()
            });
            lu.solve_transpose_in_place(x.as_mut());
            for (k, &row) in self.krows.iter().enumerate() {
                y[row] = x[(k, 0)];
            }
        }
        y
    }

    /// Records the pivot at position `r` on the entering column `d = B⁻¹ a`
    /// (kept as it is, not copied: the walk is done with it).
    fn pivot(&mut self, r: usize, mut d: Vec<f64>) {
        let pivot = d[r];
        d[r] = 0.0;
        self.etas.push(Eta { r, pivot, d });
    }
}

/// The column of variable `v` in (1).
fn column(lcp: &SparseLcp, v: Var) -> Vec<(usize, f64)> {
    let m = lcp.len();
    if v < m {
        vec![(v, 1.0)]
    } else if v < 2 * m {
        lcp.cols[v - m].iter().map(|&(i, x)| (i, -x)).collect()
    } else {
        lcp.cover.iter().enumerate().map(|(i, d)| (i, -d)).collect()
    }
}

/// Lemke's method on `lcp` (module docs): `z`, or how it ended without one.
/// With each of [`PERTURBATIONS`] in turn, until a walk ends on an answer
/// for the true `q`.
pub fn lemke(lcp: &SparseLcp) -> Result<Vec<f64>, LemkeEnd> {
    let mut end = LemkeEnd::Cap;
    for by in PERTURBATIONS {
        match walk(lcp, by) {
            Ok(z) => return Ok(z),
            Err(e) => end = e,
        }
    }
    Err(end)
}

/// One walk of Lemke's method on `q` perturbed by `by`, its last basis
/// solved with the true `q`.
fn walk(lcp: &SparseLcp, by: f64) -> Result<Vec<f64>, LemkeEnd> {
    let m = lcp.len();
    let qs = lcp.q.iter().map(|x| x.abs()).fold(0.0, f64::max);
    let mut vars: Vec<Var> = (0..m).collect();
    let mut basis = Basis::factor(lcp, &vars).ok_or(LemkeEnd::Cap)?;
    // The basic values for the true `q`, and the answer where they hold.
    let answer = |basis: &Basis, vars: &[Var], floor: f64| -> Option<Vec<f64>> {
        let x = basis.solve(&lcp.q);
        let floor = -floor * x.iter().map(|v| v.abs()).fold(qs, f64::max);
        if !x.iter().all(|v| v.is_finite() && *v >= floor) {
            return None;
        }
        let mut z = vec![0.0; m];
        for (p, &v) in vars.iter().enumerate() {
            if (m..2 * m).contains(&v) {
                z[v - m] = x[p].max(0.0);
            }
        }
        Some(z)
    };
    if let Some(z) = answer(&basis, &vars, START_FLOOR) {
        return Ok(z);
    }
    let q = perturbed(&lcp.q, by);
    let tie = 1e-3 * by * qs;
    let z0 = 2 * m;
    let mut x = basis.solve(&q);
    if !x.iter().all(|v| v.is_finite()) {
        return Err(LemkeEnd::Cap);
    }
    // z₀ enters where `x_i / d_i` is least: then every basic value is `≥ 0`.
    let d0 = &lcp.cover;
    let r0 = (0..m).min_by(|&a, &b| (x[a] / d0[a]).total_cmp(&(x[b] / d0[b]))).ok_or(LemkeEnd::Cap)?;
    let theta = -x[r0] / d0[r0];
    x.iter_mut().zip(d0).for_each(|(xi, di)| *xi += theta * di);
    x[r0] = theta;
    basis.pivot(r0, d0.iter().map(|di| -di).collect());
    let mut leaving = vars[r0];
    vars[r0] = z0;
    let mut seen = std::collections::HashSet::new();
    for pivots in 0..(PIVOTS * m + 100) {
        if pivots > 0 && pivots % REFACTOR == 0 {
            // At a factorization the walk's state is its basis and the
            // variable that left: where they come back, it cycles.
            let mut h = std::collections::hash_map::DefaultHasher::new();
            (&vars, leaving).hash(&mut h);
            if !seen.insert(h.finish()) {
                return Err(LemkeEnd::Cap);
            }
            basis = Basis::factor(lcp, &vars).ok_or(LemkeEnd::Cap)?;
            x = basis.solve(&q);
            if !x.iter().all(|v| v.is_finite()) {
                return Err(LemkeEnd::Cap);
            }
        }
        let entering = if leaving < m { leaving + m } else { leaving - m };
        let d = basis.ftran(&column(lcp, entering));
        if !d.iter().all(|v| v.is_finite()) {
            return Err(LemkeEnd::Cap);
        }
        let tiny = PIVOT_TOL * d.iter().map(|v| v.abs()).fold(0.0, f64::max);
        // The ratio test: the smallest `x_i / d_i` over `d_i > 0`; ties
        // (ratios equal to well below the perturbation of `q`) by `z₀`
        // first, then lexicographically by the rows of `B⁻¹ / d_i`.
        let mut best: Option<(usize, f64)> = None;
        for i in 0..m {
            if d[i] > tiny {
                let ratio = x[i].max(0.0) / d[i];
                if best.is_none_or(|(_, br)| ratio < br) {
                    best = Some((i, ratio));
                }
            }
        }
        let (mut r, br) = best.ok_or(LemkeEnd::Ray)?;
        let ties: Vec<usize> = (0..m).filter(|&i| d[i] > tiny && x[i].max(0.0) / d[i] <= br + tie).collect();
        if ties.len() > 1 {
            r = match ties.iter().find(|&&i| vars[i] == z0) {
                Some(&i) => i,
                None => lexicographic(&basis, &ties, &d),
            };
        }
        let theta = x[r].max(0.0) / d[r];
        for i in 0..m {
            x[i] -= theta * d[i];
        }
        x[r] = theta;
        basis.pivot(r, d);
        leaving = vars[r];
        vars[r] = entering;
        if leaving == z0 {
            // The statuses found, solved with the true `q` on a fresh
            // factorization.
            let basis = Basis::factor(lcp, &vars).ok_or(LemkeEnd::Cap)?;
            return answer(&basis, &vars, END_FLOOR).ok_or(LemkeEnd::Cap);
        }
    }
    Err(LemkeEnd::Cap)
}

/// The tied row whose row of `B⁻¹`, over its `d_i`, is lexicographically
/// least.
fn lexicographic(basis: &Basis, ties: &[usize], d: &[f64]) -> usize {
    let rows: Vec<Vec<f64>> = ties.iter().map(|&i| basis.btran(i).into_iter().map(|v| v / d[i]).collect()).collect();
    let mut best = 0;
    for k in 1..ties.len() {
        for (a, b) in rows[k].iter().zip(&rows[best]) {
            if (a - b).abs() > 1e-14 * (a.abs().max(b.abs()).max(1.0)) {
                if a < b {
                    best = k;
                }
                break;
            }
        }
    }
    ties[best]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lcg::Lcg;
    use nalgebra::DMatrix;

    /// A random problem `M = G Gᵀ + I/10 + S` (positive definite plus
    /// skew): it has an answer, and Lemke's method ends on it.
    fn random(seed: u64, m: usize) -> (SparseLcp, DMatrix<f64>) {
        let mut rng = Lcg::new(seed);
        let g = DMatrix::from_fn(m, m / 2 + 1, |_, _| if rng.next() < 0.4 { rng.next() - 0.5 } else { 0.0 });
        let mut mm = &g * g.transpose() + DMatrix::identity(m, m) * 0.1;
        for i in 0..m {
            for j in 0..i {
                if rng.next() < 0.2 {
                    let s = rng.next() - 0.5;
                    mm[(i, j)] += s;
                    mm[(j, i)] -= s;
                }
            }
        }
        let mut lcp = SparseLcp::new(m);
        for i in 0..m {
            for j in 0..m {
                lcp.add(i, j, mm[(i, j)]);
            }
            lcp.q[i] = rng.next() - 0.6;
        }
        (lcp, mm)
    }

    #[test]
    fn agrees_with_the_dense_tableau() {
        for seed in 1..40 {
            let m = 4 + (seed as usize % 60);
            let (lcp, mm) = random(seed, m);
            let sparse = lemke(&lcp);
            let dense = crate::coulomb::lemke(&mm, &lcp.q);
            let z = sparse.unwrap_or_else(|e| panic!("seed {seed}, m = {m}: {e:?} (dense: {:?})", dense.is_ok()));
            // Positive definite: one answer, the dense tableau's.
            let zd = dense.expect("the dense tableau's answer");
            for (a, b) in z.iter().zip(&zd) {
                assert!((a - b).abs() <= 1e-8 * (1.0 + b.abs()), "seed {seed}: {a} against {b}");
            }
            let w = lcp.w(&z);
            let scale = lcp.q.iter().map(|x| x.abs()).fold(1.0, f64::max);
            for i in 0..m {
                assert!(z[i] >= 0.0 && w[i] >= -1e-8 * scale, "seed {seed}: z {} w {}", z[i], w[i]);
                assert!((z[i] * w[i]).abs() <= 1e-8 * scale * scale, "seed {seed}: z w = {}", z[i] * w[i]);
            }
        }
    }

    /// Any covering vector `d > 0` walks to the answer: the same problems
    /// with `d` drawn over four decades give the dense tableau's (`d = 1`)
    /// answer, unique where `M` is positive definite.
    #[test]
    fn any_positive_covering_vector_ends_on_the_answer() {
        let mut rng = Lcg::new(5);
        for seed in 1..40 {
            let m = 4 + (seed as usize % 60);
            let (mut lcp, mm) = random(seed, m);
            lcp.cover = (0..m).map(|_| 10f64.powf(rng.range(-2.0, 2.0))).collect();
            let z = lemke(&lcp).unwrap_or_else(|e| panic!("seed {seed}, m = {m}: {e:?}"));
            let zd = crate::coulomb::lemke(&mm, &lcp.q).expect("the dense tableau's answer");
            for (a, b) in z.iter().zip(&zd) {
                assert!((a - b).abs() <= 1e-8 * (1.0 + b.abs()), "seed {seed}: {a} against {b}");
            }
        }
    }

    #[test]
    fn a_problem_without_answer_ends_on_a_ray() {
        // w = −z − 1: no z ≥ 0 gives w ≥ 0.
        let mut lcp = SparseLcp::new(1);
        lcp.add(0, 0, -1.0);
        lcp.q[0] = -1.0;
        assert_eq!(lemke(&lcp), Err(LemkeEnd::Ray));
    }
}
