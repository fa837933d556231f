//! The exact reference: the contact problem as a linear complementarity problem,
//! solved by principal pivoting in the style of Baraff 1994 (Dantzig's method).
//!
//! With the candidates `K = E ∪ {active inequalities}` and the Schur form of
//! eq. (6) (see [`crate::kkt`]), `a = A λ − b = J q̈ − d` must satisfy
//!
//! ```text
//! equalities:    a_k = 0,                 λ_k free
//! inequalities:  a_k ≥ 0,  λ_k ≥ 0,  λ_k a_k = 0
//! ```
//!
//! It is the optimality system of the strictly convex problem
//! `min ½ (q̈ − M⁻¹f)ᵀ M (q̈ − M⁻¹f)` subject to `J_E q̈ = d_E`, `J_F q̈ ≥ d_F`,
//! so `q̈` is unique even when dependent rows make `λ` not unique.
//!
//! Pivoting keeps a clamped set `C` (`a_C = 0`) and a free set `N` (`λ_N = 0,
//! a_N ≥ 0`). Each inequality `d` with `a_d < 0` is driven to zero along
//!
//! ```text
//! Δλ_d = 1,   Δλ_C = −A_CC⁻¹ A_Cd,   Δa = A Δλ
//! ```
//!
//! by the largest step `s` that keeps `λ_C ≥ 0` and `a_N ≥ 0` (the ratio test). The
//! blocking index changes side (`C → N` when its `λ` reaches 0, `N → C` when its
//! `a` reaches 0) and the drive resumes, until `a_d = 0` and `d` joins `C`. Unlike
//! Algorithm 3 it removes indices, so it ends with `λ ≥ 0` for every inequality.
//! A tiny `ε I` (relative `1e-10`) is added to `A` so that it is positive definite
//! even with dependent rows: each drive then terminates, and `a` is off by `ε λ`.
//!
//! The same pivoting, [`solve_lcp`], solves the impulse problem of an impact
//! ([`crate::impulse`]), with velocities in place of accelerations.

use crate::algorithm::{ActiveSet, ActiveSetSolver, Algorithm, SolveContext};
use crate::kkt::KktSolution;
use nalgebra::{Cholesky, DMatrix, DVector, Dyn};

use crate::linalg::{PIVOT_TOL, solve_psd};
use crate::trace::{Change, Iteration, Reason, Trace};

/// Relative regularization of `A` (see the module docs).
const REGULARIZATION: f64 = 1e-10;

/// One event of the pivoting, in local indices.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Pivot {
    /// `d` reached `a_d = 0` and joined `C`; `a` is the value it was driven from.
    Clamped { index: usize, a: f64 },
    /// `j ∈ C` had its `λ` fall to 0 and left for `N`.
    Released { index: usize },
    /// `j ∈ N` had its `a` rise to 0 and joined `C`.
    Touched { index: usize },
}

/// The solution of an LCP with the pivots taken.
#[derive(Clone, Debug)]
pub struct Lcp {
    pub lambda: Vec<f64>,
    /// `a = A λ − b` (with the regularized `A`).
    pub a: Vec<f64>,
    pub clamped: Vec<bool>,
    /// `(pivot, λ after it, clamped set after it)` for each pivot.
    pub pivots: Vec<(Pivot, Vec<f64>, Vec<bool>, Vec<f64>)>,
    /// Stopped by the pivot cap or by infeasible constraints.
    pub capped: bool,
}

/// Solves `a = A λ − b`, `a_i = 0` for `i < neq` (λ free), and for `i ≥ neq`
/// `a_i ≥ 0, λ_i ≥ 0, λ_i a_i = 0`. `A` is `m × m` row-major, symmetric PSD.
pub fn solve_lcp(a_mat: &[f64], b: &[f64], neq: usize, tol: f64) -> Lcp {
    let m = b.len();
    let mut a_reg = a_mat.to_vec();
    let eps = REGULARIZATION * (0..m).map(|i| a_mat[i * m + i]).fold(0.0, f64::max).max(1e-300);
    for i in 0..m {
        a_reg[i * m + i] += eps;
    }
    let mut lp = Pivoting {
        a: &a_reg,
        m,
        lambda: vec![0.0; m],
        acc: b.iter().map(|v| -v).collect(),
        clamped: vec![false; m],
        free: vec![false; m],
        order: Vec::new(),
        factor: None,
    };
    if neq > 0 {
        // Equalities first: λ_E solves A_EE λ_E = b_E.
        for i in 0..neq {
            lp.clamp(i);
        }
        let x = lp.solve_clamped(&b[..neq]);
        lp.lambda[..neq].copy_from_slice(&x);
        lp.update_acc(b);
    }
    let mut pivots = Vec::new();
    let mut capped = false;
    let max_pivots = 20 * m + 20;
    'outer: loop {
        // The most violated unclamped inequality.
        let next =
            (neq..m).filter(|&i| !lp.clamped[i] && lp.acc[i] < -tol).min_by(|&i, &j| lp.acc[i].total_cmp(&lp.acc[j]));
        let Some(d) = next else { break };
        let a_start = lp.acc[d];
        loop {
            if pivots.len() >= max_pivots {
                capped = true;
                break 'outer;
            }
            let Some((s, j, dl, da)) = lp.ratio_test(d, neq) else {
                // Nothing blocks and a_d cannot rise: the constraints are infeasible.
                capped = true;
                break 'outer;
            };
            for i in 0..m {
                lp.lambda[i] += s * dl[i];
                lp.acc[i] += s * da[i];
            }
            let pivot = if j == d {
                lp.clamp(d);
                lp.acc[d] = 0.0;
                Pivot::Clamped { index: d, a: a_start }
            } else if lp.clamped[j] {
                lp.release(j);
                lp.lambda[j] = 0.0;
                Pivot::Released { index: j }
            } else {
                lp.clamp(j);
                lp.acc[j] = 0.0;
                Pivot::Touched { index: j }
            };
            pivots.push((pivot, lp.lambda.clone(), lp.clamped.clone(), lp.acc.clone()));
            if j == d {
                break;
            }
        }
    }
    for i in neq..m {
        // Round-off may leave a tiny negative λ on an inequality: it is 0.
        lp.lambda[i] = lp.lambda[i].max(0.0);
    }
    Lcp { lambda: lp.lambda, a: lp.acc, clamped: lp.clamped, pivots, capped }
}

/// The exact complementarity solver.
pub struct Exact;

impl ActiveSetSolver for Exact {
    fn algorithm(&self) -> Algorithm {
        Algorithm::Exact
    }

    fn solve(&self, ctx: &SolveContext, set: &mut ActiveSet, trace: &mut Trace) -> KktSolution {
        let p = ctx.problem;
        let mut cand = p.equalities();
        let neq = cand.len();
        cand.extend((0..ctx.active.len()).filter(|&k| ctx.active[k]));
        let (a_mat, b) = p.schur(&cand);
        let lcp = solve_lcp(&a_mat, &b, neq, ctx.tol.tendency);
        trace.capped = lcp.capped;
        // Each pivot is one linear solve: one trace iteration.
        for (pivot, lambda, clamped, acc) in &lcp.pivots {
            let mut it = Iteration {
                handled: (0..cand.len()).filter(|&i| clamped[i]).map(|i| cand[i]).collect(),
                lambda: (0..cand.len()).filter(|&i| clamped[i]).map(|i| (cand[i], lambda[i])).collect(),
                tendency: (0..cand.len()).map(|i| (cand[i], acc[i])).collect(),
                ..Default::default()
            };
            match *pivot {
                Pivot::Clamped { index, a } => {
                    it.added.push(Change { constraint: cand[index], reason: Reason::Tendency { a } })
                }
                Pivot::Touched { index } => {
                    it.added.push(Change { constraint: cand[index], reason: Reason::Touching { a: 0.0 } })
                }
                Pivot::Released { index } => {
                    it.removed.push(Change { constraint: cand[index], reason: Reason::Blocked { lambda: 0.0 } })
                }
            }
            trace.iterations.push(it);
        }
        let mut lambda = vec![0.0; p.nconstraints()];
        for (i, &k) in cand.iter().enumerate() {
            lambda[k] = lcp.lambda[i];
            set.handled[k] = i >= neq && lcp.clamped[i];
        }
        set.initialized = true;
        // Polish: the regularization leaves `a_C` off by `ε λ`, which ill-conditioned
        // rows amplify in `q̈`. Re-solve eq. (6) exactly on the final clamped set and
        // keep that answer when it is still complementary.
        let clamped: Vec<usize> = cand.iter().enumerate().filter(|(i, _)| lcp.clamped[*i]).map(|(_, &k)| k).collect();
        let exact = p.solve(&clamped);
        let complementary = cand.iter().enumerate().all(|(i, &k)| {
            if i < neq {
                true
            } else if lcp.clamped[i] {
                exact.lambda[k] >= 0.0
            } else {
                p.tendency(k, &exact.qdd) >= -ctx.tol.tendency
            }
        });
        if complementary && exact.residual <= 1e-9 * (1.0 + exact.qdd.iter().fold(0.0, |m: f64, v| m.max(v.abs()))) {
            lambda = exact.lambda;
        }
        let qdd = p.accelerations(&lambda);
        if trace.iterations.is_empty() {
            // No pivot: the equalities alone (or nothing) were solved once.
            trace.iterations.push(Iteration {
                handled: cand[..neq].to_vec(),
                lambda: cand[..neq].iter().map(|&k| (k, lambda[k])).collect(),
                tendency: cand.iter().map(|&k| (k, p.tendency(k, &qdd))).collect(),
                ..Default::default()
            });
        }
        let residual = cand
            .iter()
            .enumerate()
            .filter(|(i, _)| lcp.clamped[*i])
            .map(|(_, &k)| p.tendency(k, &qdd).abs())
            .fold(0.0, f64::max);
        KktSolution { qdd, lambda, residual, dependent: Vec::new() }
    }
}

/// The pivoting state over the candidate list (local indices).
struct Pivoting<'a> {
    /// `A + εI`, row-major `m × m`.
    a: &'a [f64],
    m: usize,
    lambda: Vec<f64>,
    /// `a = A λ − b`.
    acc: Vec<f64>,
    clamped: Vec<bool>,
    free: Vec<bool>,
    /// The clamped indices in the order of `factor`.
    order: Vec<usize>,
    /// Cholesky factor of `A_CC` (in `order`), updated as indices come and go:
    /// O(|C|²) a pivot instead of O(|C|³). `None` when it must be rebuilt.
    factor: Option<Cholesky<f64, Dyn>>,
}

impl Pivoting<'_> {
    /// Moves `j` into the clamped set, extending the factor when its pivot is sound.
    fn clamp(&mut self, j: usize) {
        self.clamped[j] = true;
        self.free[j] = false;
        let m = self.m;
        let col =
            DVector::from_iterator(self.order.len() + 1, self.order.iter().chain([&j]).map(|&i| self.a[i * m + j]));
        let k = self.order.len();
        self.factor = match self.factor.take() {
            // nalgebra's insert_column takes the square root unchecked: check the new
            // pivot, the Schur complement a_jj − ‖L⁻¹ a_Cj‖², first.
            Some(f) => {
                let y = f.l_dirty().solve_lower_triangular(&col.rows(0, k)).filter(|y| y.iter().all(|v| v.is_finite()));
                match y {
                    Some(y) if col[k] - y.norm_squared() > 1e-13 * col[k] => Some(f.insert_column(k, col)),
                    _ => None,
                }
            }
            None if k == 0 && col[0] > 0.0 => Cholesky::new(DMatrix::from_element(1, 1, col[0])),
            None => None,
        };
        self.order.push(j);
    }

    /// Moves `j` out of the clamped set, shrinking the factor.
    fn release(&mut self, j: usize) {
        self.clamped[j] = false;
        self.free[j] = true;
        let p = self.order.iter().position(|&i| i == j).expect("released index was clamped");
        self.order.remove(p);
        self.factor = self.factor.take().map(|f| f.remove_column(p));
    }

    /// Solves `A_CC x = rhs` (`rhs` and `x` in `order`), rebuilding the factor if needed.
    fn solve_clamped(&mut self, rhs: &[f64]) -> Vec<f64> {
        if self.order.is_empty() {
            return Vec::new();
        }
        if self.factor.is_none() {
            let n = self.order.len();
            self.factor = Cholesky::new(DMatrix::from_row_slice(n, n, &self.sub(&self.order)));
        }
        match &self.factor {
            Some(f) => f.solve(&DVector::from_column_slice(rhs)).iter().copied().collect(),
            None => solve_psd(&self.sub(&self.order), rhs, PIVOT_TOL).x,
        }
    }

    fn sub(&self, idx: &[usize]) -> Vec<f64> {
        let mut s = Vec::with_capacity(idx.len() * idx.len());
        for &i in idx {
            for &j in idx {
                s.push(self.a[i * self.m + j]);
            }
        }
        s
    }

    fn update_acc(&mut self, b: &[f64]) {
        for i in 0..self.m {
            self.acc[i] = (0..self.m).map(|j| self.a[i * self.m + j] * self.lambda[j]).sum::<f64>() - b[i];
        }
    }

    /// The direction that drives `a_d` up while keeping `a_C = 0`, and the largest
    /// step along it: `(s, blocking index, Δλ, Δa)`.
    fn ratio_test(&mut self, d: usize, neq: usize) -> Option<(f64, usize, Vec<f64>, Vec<f64>)> {
        let m = self.m;
        let c = self.order.clone();
        let rhs: Vec<f64> = c.iter().map(|&i| -self.a[i * m + d]).collect();
        let x = self.solve_clamped(&rhs);
        let mut dl = vec![0.0; m];
        dl[d] = 1.0;
        for (xi, &i) in x.iter().zip(&c) {
            dl[i] = *xi;
        }
        // Δa = A Δλ, with Δλ non-zero on C ∪ {d} only.
        let support: Vec<usize> = c.iter().copied().chain([d]).collect();
        let da: Vec<f64> = (0..m).map(|i| support.iter().map(|&j| self.a[i * m + j] * dl[j]).sum()).collect();
        let tiny = 1e-14;
        let mut best: Option<(f64, usize)> = None;
        let mut consider = |s: f64, i: usize| {
            if best.is_none_or(|(bs, _)| s < bs) {
                best = Some((s.max(0.0), i));
            }
        };
        if da[d] > tiny {
            consider(-self.acc[d] / da[d], d);
        }
        for &i in &c {
            if i >= neq && dl[i] < -tiny {
                consider(-self.lambda[i] / dl[i], i);
            }
        }
        for i in (0..m).filter(|&i| self.free[i]) {
            if da[i] < -tiny {
                consider(-self.acc[i] / da[i], i);
            }
        }
        best.map(|(s, j)| (s, j, dl, da))
    }
}
