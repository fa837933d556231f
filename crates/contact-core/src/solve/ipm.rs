//! A primal–dual interior-point method for one island of the complementarity
//! problem of [`crate::lcp`]: the bounded finish of the pivoting.
//!
//! The problem is the one [`crate::lcp`] states, `a = A λ − b` with
//!
//! ```text
//! equalities   (i ∈ E):  a_i = 0,                 λ_i free
//! inequalities (i ∈ I):  a_i ≥ 0,  λ_i ≥ 0,  λ_i a_i = 0
//! ```
//!
//! for a symmetric positive semi-definite `A = J M⁻¹ Jᵀ` (eq. (6)'s Schur
//! form): the optimality system of Gauss's principle of least constraint,
//! `min ½ ‖q̈ − M⁻¹f‖²_M` subject to `J q̈ ≥ d`, or of Moreau's impact law as a
//! projection (velocities for accelerations). It is a monotone LCP, and
//! Mehrotra's predictor–corrector (Wright 1997, ch. 8 and 11) solves it with
//! the slack `s = a_I` kept apart, from any start with `λ_I, s > 0`:
//!
//! ```text
//! residual      r = A λ − b − s                  (s = 0 on E)
//! Newton step   (A + D) Δλ = −r − s + (σμ − Δλ_aff Δs_aff) / λ    on I,   −r on E
//!               Δs = −s + (σμ − Δλ_aff Δs_aff) / λ − D Δλ,          D = diag(s / λ) on I
//! ```
//!
//! with `μ = λ·s / |I|`, the predictor's `σ = 0` and no second-order term,
//! then `σ = (μ_aff / μ)³`. One factorization of `A + D` serves both solves.
//! `D > 0` makes `A + D` positive definite on the inequalities even where `A` is
//! singular (a hyperstatic pile); the equalities get the pivoting's own tiny
//! `ε` on the diagonal, and the residual is always taken with the true `A`, so
//! the iterates converge to the problem's answer, not the regularized one.
//!
//! The pattern of `A + D` is the island's, whatever the iterate: faer's
//! sparse Cholesky analyses it once (AMD ordering) and
//! [`crate::fixed_llt`] factors each iteration's values into it (the
//! permutation and each row's reach made once too: faer's factor to the
//! bit). An iteration costs one numeric
//! factorization and two solves, and the iterations are few whatever the degeneracy (the
//! pivoting's cost grows with the number of rows that change side): that is
//! the bound. It stops when the residual and every `λ_i s_i` are below
//! [`TOL`] of the problem's scale (`‖A‖ ‖λ‖ + ‖b‖`), or after [`MAX_ITER`].

use faer::linalg::solvers::Solve;
use faer::sparse::linalg::solvers::{Llt, SymbolicLlt};
use faer::sparse::{SparseColMat, Triplet};
use faer::{Mat, Side};

use crate::fixed_llt::FixedLlt;
use crate::schur::SchurGraph;

/// Relative accuracy the iterations stop at (of `‖A‖∞ ‖λ‖∞ + ‖b‖∞`).
pub const TOL: f64 = 1e-13;
/// Iterations at most (a converging solve takes 10–30).
pub const MAX_ITER: usize = 80;
/// A warm start's shift inside, as a fraction of the problem's scale.
const SHIFT: f64 = 1e-2;
/// Fraction of the way to the boundary a step goes, at least.
const STEP_TO_BOUNDARY: f64 = 0.995;

/// The interior point's answer on an island (local indices).
#[derive(Clone, Debug)]
pub struct Interior {
    pub lambda: Vec<f64>,
    /// `s = a_I` (0 on equalities).
    pub slack: Vec<f64>,
    pub iterations: usize,
    /// Reached [`TOL`]; false: stopped at [`MAX_ITER`] or on a failed factorization.
    pub converged: bool,
}

/// Solves the island's LCP, `h` its graph in local indices, `eq[i]` for its
/// equalities, `eps` the relative diagonal shift of the equalities in the
/// Newton matrix (`A_ii (1 + ε)`; the residual keeps the true `A`). `start`: a
/// `(λ, a)` to start near (their positive parts, shifted inside by a
/// hundredth of the scale), or none.
pub fn solve(h: &SchurGraph, b: &[f64], eq: &[bool], eps: f64, start: Option<(&[f64], &[f64])>) -> Interior {
    let n = b.len();
    let amax = h.diag.iter().fold(0.0_f64, |x, y| x.max(*y)).max(f64::MIN_POSITIVE);
    let bmax = b.iter().fold(0.0_f64, |x, y| x.max(y.abs()));
    let nin = eq.iter().filter(|e| !**e).count();
    if bmax == 0.0 {
        // λ = 0 is an answer: a = 0 everywhere.
        return Interior { lambda: vec![0.0; n], slack: vec![0.0; n], iterations: 0, converged: true };
    }
    // A start inside, on the problem's scale: λ ~ b / A, s ~ b.
    let (l0, s0) = (bmax / amax, bmax);
    let (mut lambda, mut slack): (Vec<f64>, Vec<f64>) = match start {
        Some((l, a)) => (0..n)
            .map(|i| if eq[i] { (l[i], 0.0) } else { (l[i].max(0.0) + SHIFT * l0, a[i].max(0.0) + SHIFT * s0) })
            .unzip(),
        None => (0..n).map(|i| if eq[i] { (0.0, 0.0) } else { (l0, s0) }).unzip(),
    };
    let Some(mut newton) = Newton::new(h) else {
        return Interior { lambda, slack, iterations: 0, converged: false };
    };
    let mut diag = vec![0.0; n];
    let mut d = vec![0.0; n];
    let mut iterations = 0;
    loop {
        let a = h.mul(&lambda);
        let r: Vec<f64> = (0..n).map(|i| a[i] - b[i] - slack[i]).collect();
        let lmax = lambda.iter().fold(0.0_f64, |x, y| x.max(y.abs()));
        let scale = amax * lmax + bmax;
        let rmax = r.iter().fold(0.0_f64, |x, y| x.max(y.abs()));
        let cmax = (0..n).filter(|&i| !eq[i]).map(|i| lambda[i] * slack[i]).fold(0.0_f64, f64::max);
        if rmax <= TOL * scale && cmax <= TOL * scale * lmax.max(bmax / amax) {
            return Interior { lambda, slack, iterations, converged: true };
        }
        if iterations == MAX_ITER || !lambda.iter().chain(&slack).all(|v| v.is_finite()) {
            return Interior { lambda, slack, iterations, converged: false };
        }
        iterations += 1;
        let mu = if nin == 0 { 0.0 } else { (0..n).map(|i| lambda[i] * slack[i]).sum::<f64>() / nin as f64 };
        for i in 0..n {
            d[i] = if eq[i] { eps * h.diag[i] } else { slack[i] / lambda[i] };
            diag[i] = h.diag[i] + d[i];
        }
        if !newton.factor(&diag) && !newton.regularized(&diag, &h.diag) {
            return Interior { lambda, slack, iterations, converged: false };
        };
        // Predictor (σ = 0).
        let rhs: Vec<f64> = (0..n).map(|i| if eq[i] { -r[i] } else { -r[i] - slack[i] }).collect();
        let dl_aff = newton.solve(&rhs);
        let ds_aff: Vec<f64> = (0..n).map(|i| if eq[i] { 0.0 } else { -slack[i] - d[i] * dl_aff[i] }).collect();
        let alpha_aff = step(&lambda, &slack, &dl_aff, &ds_aff, eq, 1.0);
        let mu_aff = if nin == 0 {
            0.0
        } else {
            (0..n)
                .filter(|&i| !eq[i])
                .map(|i| (lambda[i] + alpha_aff * dl_aff[i]) * (slack[i] + alpha_aff * ds_aff[i]))
                .sum::<f64>()
                / nin as f64
        };
        let sigma = if mu > 0.0 { (mu_aff / mu).clamp(0.0, 1.0).powi(3) } else { 0.0 };
        // Corrector: centring and the second-order term.
        let w: Vec<f64> =
            (0..n).map(|i| if eq[i] { 0.0 } else { (sigma * mu - dl_aff[i] * ds_aff[i]) / lambda[i] }).collect();
        let rhs: Vec<f64> = (0..n).map(|i| if eq[i] { -r[i] } else { -r[i] - slack[i] + w[i] }).collect();
        let dl = newton.solve(&rhs);
        let ds: Vec<f64> = (0..n).map(|i| if eq[i] { 0.0 } else { -slack[i] + w[i] - d[i] * dl[i] }).collect();
        let alpha = step(&lambda, &slack, &dl, &ds, eq, STEP_TO_BOUNDARY);
        for i in 0..n {
            lambda[i] += alpha * dl[i];
            if !eq[i] {
                slack[i] += alpha * ds[i];
                // Never on the boundary itself: D = s/λ must stay finite and positive.
                lambda[i] = lambda[i].max(f64::MIN_POSITIVE);
                slack[i] = slack[i].max(f64::MIN_POSITIVE);
            }
        }
    }
}

/// The Newton matrix `A + D` on the island's pattern, which the iterations
/// do not change: its lower triangle in compressed columns, where each
/// diagonal entry sits, and the symbolic analysis (AMD ordering, elimination
/// tree, supernodes) made once; where faer's factorization is simplicial, the
/// permutation and each row's reach too ([`FixedLlt`]).
struct Newton {
    a: SparseColMat<usize, f64>,
    diagonal: Vec<usize>,
    kind: Kind,
}

impl Drop for Newton {
    /// The analysis goes back for the next solve on the same pattern.
    fn drop(&mut self) {
        if let Kind::Fixed(fixed) = std::mem::replace(&mut self.kind, Kind::Done) {
            (*fixed).recycle();
        }
    }
}

/// How [`Newton`] factors: [`FixedLlt`] on faer's simplicial analysis, or
/// faer's own supernodal factorization (its last factor kept).
enum Kind {
    Fixed(Box<FixedLlt>),
    Faer(SymbolicLlt<usize>, Option<Llt<usize, f64>>),
    /// Recycled ([`Newton`]'s drop).
    Done,
}

impl Newton {
    fn new(h: &SchurGraph) -> Option<Self> {
        let n = h.len();
        let mut entries = Vec::with_capacity(n + h.adj.iter().map(Vec::len).sum::<usize>() / 2);
        for i in 0..n {
            entries.push(Triplet::new(i, i, h.diag[i]));
            entries.extend(h.adj[i].iter().filter(|(j, _)| *j < i).map(|&(j, v)| Triplet::new(i, j, v)));
        }
        let a = SparseColMat::<usize, f64>::try_new_from_triplets(n, n, &entries).ok()?;
        let (ptr, row) = (a.symbolic().col_ptr(), a.symbolic().row_idx());
        let diagonal = (0..n).map(|j| (ptr[j]..ptr[j + 1]).find(|&p| row[p] == j)).collect::<Option<Vec<_>>>()?;
        let kind = match FixedLlt::analysed(a.as_ref()) {
            Some(fixed) => Kind::Fixed(Box::new(fixed)),
            None => Kind::Faer(SymbolicLlt::try_new(a.symbolic(), Side::Lower).ok()?, None),
        };
        Some(Newton { a, diagonal, kind })
    }

    /// `A + D` with the diagonal `diag`, factored; false if it is not
    /// positive definite to the machine.
    fn factor(&mut self, diag: &[f64]) -> bool {
        let vals = self.a.val_mut();
        for (p, d) in self.diagonal.iter().zip(diag) {
            vals[*p] = *d;
        }
        match &mut self.kind {
            Kind::Fixed(fixed) => fixed.factor(self.a.val()),
            Kind::Done => false,
            Kind::Faer(symbolic, llt) => {
                *llt = Llt::try_new_with_symbolic(symbolic.clone(), self.a.as_ref(), Side::Lower).ok();
                llt.is_some()
            }
        }
    }

    /// `x` with `(A + D) x = rhs`, by the last factorization.
    fn solve(&self, rhs: &[f64]) -> Vec<f64> {
        match &self.kind {
            Kind::Fixed(fixed) => {
                let mut x = rhs.to_vec();
                fixed.solve(&mut x);
                x
            }
            Kind::Done => rhs.to_vec(),
            Kind::Faer(_, llt) => {
                let mut x = Mat::<f64>::from_fn(rhs.len(), 1, |i, _| rhs[i]);
                if let Some(llt) = llt {
                    llt.solve_in_place(x.as_mut());
                }
                (0..rhs.len()).map(|i| x[(i, 0)]).collect()
            }
        }
    }

    /// `A + D + δ diag(A)`, factored with the least `δ` of [`REGULARIZE`]
    /// that makes it positive definite to the machine: where `A + D` is not.
    /// Near the answer of a hyperstatic island `D = s/λ` goes to 0 on the
    /// rows it holds, and `A` is singular there: round-off made a pivot of
    /// a 136-row island negative at the 10th iteration of a 60-ball pile's
    /// landing, and the step was `Unsolved`. The regularized step is an
    /// inexact Newton step: the next iteration's residual is taken with the
    /// true `A`, so the answer and its tolerance are unchanged.
    fn regularized(&mut self, diag: &[f64], a: &[f64]) -> bool {
        REGULARIZE.iter().any(|delta| {
            let d: Vec<f64> = diag.iter().zip(a).map(|(d, a)| d + delta * a).collect();
            self.factor(&d)
        })
    }
}

/// The regularizations [`Newton::regularized`] tries, relative to each row's `A_ii`.
const REGULARIZE: [f64; 3] = [1e-12, 1e-9, 1e-6];

/// The largest `α ≤ 1` with `λ + α Δλ ≥ 0` and `s + α Δs ≥ 0` on the
/// inequalities, times `eta` when it stops short of 1.
fn step(lambda: &[f64], slack: &[f64], dl: &[f64], ds: &[f64], eq: &[bool], eta: f64) -> f64 {
    let mut alpha = f64::INFINITY;
    for i in 0..lambda.len() {
        if eq[i] {
            continue;
        }
        if dl[i] < 0.0 {
            alpha = alpha.min(-lambda[i] / dl[i]);
        }
        if ds[i] < 0.0 {
            alpha = alpha.min(-slack[i] / ds[i]);
        }
    }
    if alpha >= 1.0 { 1.0 } else { eta * alpha }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::constraint::SparseRow;

    fn graph(rows: &[SparseRow], ncoords: usize) -> SchurGraph {
        let refs: Vec<&SparseRow> = rows.iter().collect();
        SchurGraph::new(&refs, &vec![1.0; ncoords])
    }

    /// Complementary to the method's own tolerance: `λ > 0`, `a ≥ −tol`, `|λ a| ≤ tol ‖λ‖`.
    fn assert_complementary(h: &SchurGraph, b: &[f64], eq: &[bool], x: &Interior) {
        assert!(x.converged, "{} iterations", x.iterations);
        let a = h.mul(&x.lambda);
        let lmax = x.lambda.iter().fold(1.0_f64, |m, v| m.max(v.abs()));
        for i in 0..b.len() {
            let ai = a[i] - b[i];
            if eq[i] {
                assert!(ai.abs() < 1e-10, "a_{i} = {ai}");
            } else {
                assert!(
                    x.lambda[i] > 0.0 && ai > -1e-10 && (x.lambda[i] * ai).abs() < 1e-10 * lmax,
                    "row {i}: λ {} a {ai}",
                    x.lambda[i]
                );
            }
        }
    }

    /// A ball wedged in a V (two rows at ±45°) and a floor under it (a third,
    /// dependent row): `A` is singular, `λ` not unique, `a` is. Against the
    /// answer by hand: the floor alone carries nothing extra.
    #[test]
    fn a_hyperstatic_wedge_converges_to_the_unique_a() {
        let s = std::f64::consts::FRAC_1_SQRT_2;
        let rows = [
            SparseRow::from_entries(&[(0, s), (1, s)]),
            SparseRow::from_entries(&[(0, -s), (1, s)]),
            SparseRow::from_entries(&[(1, 1.0)]),
        ];
        let h = graph(&rows, 2);
        // Gravity 9.81 down: b_k = −J_k M⁻¹ f = 9.81 J_k,y.
        let b = [9.81 * s, 9.81 * s, 9.81];
        let eq = [false; 3];
        let x = solve(&h, &b, &eq, 0.0, None);
        assert_complementary(&h, &b, &eq, &x);
        // q̈ = M⁻¹ (f + Jᵀ λ) = 0: the ball is held.
        let qy = -9.81 + s * x.lambda[0] + s * x.lambda[1] + x.lambda[2];
        let qx = s * x.lambda[0] - s * x.lambda[1];
        assert!(qy.abs() < 1e-10 && qx.abs() < 1e-10, "q̈ = ({qx}, {qy})");
        assert!(x.iterations <= 30, "{} iterations", x.iterations);
    }

    /// A column of 40 discs, each row coupled to the next, some pulled apart:
    /// complementary, in a bounded number of iterations.
    #[test]
    fn a_column_with_rows_pulled_apart_is_complementary() {
        let n = 40;
        let mut rows = vec![SparseRow::from_entries(&[(1, 1.0)])];
        for i in 1..n {
            rows.push(SparseRow::from_entries(&[(2 * i + 1, 1.0), (2 * i - 1, -1.0)]));
        }
        let h = graph(&rows, 2 * n);
        let b: Vec<f64> = (0..n).map(|i| if i % 5 == 3 { -2.0 } else { 1.0 + (i % 3) as f64 }).collect();
        let eq = vec![false; n];
        let x = solve(&h, &b, &eq, 0.0, None);
        assert_complementary(&h, &b, &eq, &x);
        assert!(x.iterations <= 30, "{} iterations", x.iterations);
    }

    /// Equalities (a pendulum's rod, two dependent copies of it) beside an
    /// inequality: the equalities hold to round-off, the inequality is complementary.
    #[test]
    fn dependent_equalities_hold() {
        let rows = [
            SparseRow::from_entries(&[(0, 1.0)]),
            SparseRow::from_entries(&[(0, 1.0)]),
            SparseRow::from_entries(&[(0, 1.0), (1, 1.0)]),
        ];
        let h = graph(&rows, 2);
        let b = [3.0, 3.0, 1.0];
        let eq = [true, true, false];
        let x = solve(&h, &b, &eq, 1e-10, None);
        assert_complementary(&h, &b, &eq, &x);
    }
}
