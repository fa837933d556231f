//! The KKT system of eq. (6), solved through its Schur complement.
//!
//! With the handled set `S = E ∪ F⁺`, eq. (6) is
//!
//! ```text
//! [ M    −J_Sᵀ ] [ q̈   ]   [  f   ]        M q̈ = f + J_Sᵀ λ_S
//! [ −J_S   0   ] [ λ_S ] = [ −d_S ]   ⇔    J_S q̈ = d_S
//! ```
//!
//! `M` is diagonal here, so we eliminate `q̈ = M⁻¹ (f + J_Sᵀ λ_S)`:
//!
//! ```text
//! A_SS λ_S = b_S,   A = J M⁻¹ Jᵀ  (|S| × |S|),   b = d − J M⁻¹ f
//! ```
//!
//! and `a = J q̈ − d = A λ − b` is the *violation tendency*: constraint `k` tends to
//! be violated when `a_k < 0`, i.e. `J_k q̈ < d_k` (section 4.1). `d` is Baumgarte's
//! eq. (5). `A` is sparse and may be singular (dependent rows): [`crate::schur`]
//! keeps it sparse and drops dependent rows.
//!
//! **Hyperstatic sets.** When rows of `S` depend on each other (a box between
//! two walls, a face on a face, a pyramid of boxes), `q̈` is unique but `λ_S`
//! is not: any `λ_S + ν` with `J_Sᵀ ν = 0` gives the same force. Dropping the
//! dependent rows ([`GrowingKkt::solve`], the basic solution) puts the load
//! on the rows that are left, in pushing and pulling pairs of kN, and a
//! nearly dependent row taken in puts `1/pivot` into them; the paper's
//! algorithms, which read the sign of `λ` and hold what they took, then
//! release rows that should hold or push a pyramid apart.
//! [`GrowingKkt::solve_least`] gives the least `λ` instead, in the metric
//! `D = diag(A_SS)`:
//!
//! ```text
//! μ        the basic solution on rows kept only if their pivot ≥ 1e-7 A_kk
//! λ₀ = 0,  λ_{j+1} = λ_j + (A_SS + ε D)⁻¹ A_SS (μ − λ_j)    (ε = 1e-8, three rounds)
//! ```
//!
//! `A_SS μ` is the force of `μ`, consistent by construction; iterated
//! Tikhonov takes the least `λ` with that force. Along an eigenvector of
//! `D⁻¹ A_SS` of eigenvalue `σ` the error shrinks by `ε/(σ + ε)` a round:
//! `λ` is the least to 1e-9 where `σ ≥ 1e-5`, zero in the self-balanced
//! directions (`σ = 0`), and damped in the nearly dependent ones. (A basis
//! kept at 1e-4 held the pyramid as well but left a random pile's nearly
//! parallel rows unenforced: 0.2 mm of penetration.) Only sets with a
//! dependent row or a pivot below 1e-7 `A_kk` take it: every other
//! solve keeps its bits, and the exact solver never does (its λ comes from
//! the complementarity problem).

use crate::constraint::SparseRow;
use crate::constraint::{ConstraintKind, RowEval};
use crate::model::{Model, State};
use crate::rolling::rolling_row;
use crate::schur::{Envelope, PIVOT_TOL, SchurGraph};
use crate::tangent::tangent_row;

/// Everything eq. (6) needs at one state, for every constraint of the model.
#[derive(Clone, Debug)]
pub struct ContactProblem {
    /// Diagonal of `M⁻¹` (0 for a coordinate whose mass vanishes, e.g. a cycloid's cusp).
    pub minv: Vec<f64>,
    /// Generalized forces `f` of eq. (1).
    pub f: Vec<f64>,
    /// `g_k`, `J_k`, `J̇_k q̇` for every constraint.
    pub rows: Vec<RowEval>,
    /// Baumgarte's `d_k`, eq. (5).
    pub d: Vec<f64>,
    pub kinds: Vec<ConstraintKind>,
    /// Coulomb's `μ_k` of each constraint (0: frictionless), times the
    /// length of its normal ([`crate::constraint::Constraint::normal_length`]):
    /// the cone `|λ_t| ≤ mu_k λ_k` in the rows' own units.
    pub mu: Vec<f64>,
    /// The tangential row of each contact with `μ_k > 0` ([`crate::tangent`];
    /// its `g` is the slip `v_t`), `None` for the others.
    pub tangents: Vec<Option<RowEval>>,
    /// Rolling resistance `μ_r` of each contact, times the length of its
    /// normal, as `mu` (0: it rolls freely): `|P_m| ≤ mu_r_k P_k`.
    pub mu_r: Vec<f64>,
    /// The rolling row of each contact with `μ_r > 0` whose bodies turn
    /// ([`crate::rolling`]; its `g` is the rolling speed `u_m`), `None`
    /// for the others.
    pub rolling: Vec<Option<RowEval>>,
    /// What is left of the step: a contact that may stick aims at no slip
    /// at its end ([`crate::friction`]); infinite outside a step.
    pub h: f64,
}

/// One solution of eq. (6) for a given handled set.
#[derive(Clone, Debug, Default)]
pub struct KktSolution {
    /// `q̈`, length `n`.
    pub qdd: Vec<f64>,
    /// `λ_k` for every constraint (0 outside the handled set).
    pub lambda: Vec<f64>,
    /// `max |J_S q̈ − d_S|`: 0 up to round-off unless the handled rows conflict.
    pub residual: f64,
    /// Handled rows found dependent on the others (their `λ` is 0).
    pub dependent: Vec<usize>,
    /// `λ_t` of each contact's tangential row, the friction force (empty
    /// when no row has friction; [`crate::friction`]).
    pub friction: Vec<f64>,
    /// Contacts that slide with no consistent force (Painlevé's paradox;
    /// [`crate::friction`]): the step must take an impulse first.
    pub inconsistent: Vec<usize>,
}

/// A coordinate whose mass is at most this fraction of the heaviest one's is massless.
const MASSLESS: f64 = 1e-12;

impl ContactProblem {
    /// Assembles the problem at `state` with Baumgarte time constant `tau`.
    pub fn new(model: &Model, state: &State, tau: f64) -> Self {
        // A coordinate lighter than 1e-12 of the heaviest is massless (a fixed
        // body, a bead at a cycloid's cusp): it takes no impulse and no force.
        let mass = model.mass_diag(&state.q);
        let massless = MASSLESS * mass.iter().fold(0.0_f64, |m, x| m.max(*x));
        let minv = mass.iter().map(|m| if *m > massless { 1.0 / m } else { 0.0 }).collect();
        let f = model.forces(&state.q, &state.qd);
        let rows = model.eval_constraints(&state.q, &state.qd);
        let d = rows.iter().map(|r| r.baumgarte_d(&state.qd, tau)).collect();
        let kinds = model.constraints.iter().map(|c| c.kind).collect();
        // The cone on forces: the normal row's λ is a force of λ|n̄| (issue 36).
        let mu: Vec<f64> = model.constraints.iter().map(|c| c.friction * c.normal_length()).collect();
        let tangents = model
            .constraints
            .iter()
            .map(|c| (c.friction > 0.0).then(|| tangent_row(c, &model.bodies, &state.q, &state.qd)).flatten())
            .collect();
        let rolling: Vec<Option<RowEval>> =
            model.constraints.iter().map(|c| rolling_row(c, &model.bodies, &state.qd)).collect();
        let mu_r = model
            .constraints
            .iter()
            .zip(&rolling)
            .map(|(c, r)| if r.is_some() { c.rolling * c.normal_length() } else { 0.0 })
            .collect();
        ContactProblem { minv, f, rows, d, kinds, mu, tangents, mu_r, rolling, h: f64::INFINITY }
    }

    pub fn ndofs(&self) -> usize {
        self.f.len()
    }

    pub fn nconstraints(&self) -> usize {
        self.rows.len()
    }

    /// Indices of the equality constraints (`E`).
    pub fn equalities(&self) -> Vec<usize> {
        (0..self.kinds.len()).filter(|&k| self.kinds[k] == ConstraintKind::Equality).collect()
    }

    /// `q̈ = M⁻¹ (f + Σ_k λ_k J_kᵀ)`.
    pub fn accelerations(&self, lambda: &[f64]) -> Vec<f64> {
        let mut force = self.f.clone();
        for (k, l) in lambda.iter().enumerate() {
            if *l != 0.0 {
                for (i, v) in self.rows[k].row.entries() {
                    force[*i] += l * v;
                }
            }
        }
        force.iter().zip(&self.minv).map(|(f, w)| f * w).collect()
    }

    /// Whether any candidate row has friction.
    pub fn has_friction(&self, set: &[usize]) -> bool {
        set.iter().any(|&k| self.tangents[k].is_some())
    }

    /// `q̈ = M⁻¹ (f + Σ_k λ_k J_kᵀ + Σ_k λ_{t,k} J_{t,k}ᵀ)`: with the friction
    /// forces `λ_t` along the tangential rows.
    pub fn accelerations_with_friction(&self, lambda: &[f64], friction: &[f64]) -> Vec<f64> {
        let mut qdd = self.accelerations(lambda);
        for (k, l) in friction.iter().enumerate() {
            if let (Some(t), true) = (&self.tangents[k], *l != 0.0) {
                for (i, v) in t.row.entries() {
                    qdd[*i] += l * v * self.minv[*i];
                }
            }
        }
        qdd
    }

    /// `½ q̇ᵀ M q̇` with this problem's `M⁻¹` (coordinates without mass left out).
    pub fn kinetic(&self, qd: &[f64]) -> f64 {
        kinetic_energy(&self.minv, qd)
    }

    /// `M⁻¹ Jᵀ p`: the change of `q̇` that impulses `p` (one per constraint) make.
    pub fn velocity_change(&self, p: &[f64]) -> Vec<f64> {
        let mut dv = vec![0.0; self.ndofs()];
        for (k, pk) in p.iter().enumerate() {
            for (i, v) in self.rows[k].row.entries() {
                dv[*i] += pk * v * self.minv[*i];
            }
        }
        dv
    }

    /// The violation tendency `a_k = J_k q̈ − d_k` (negative: tends to violate).
    pub fn tendency(&self, k: usize, qdd: &[f64]) -> f64 {
        self.rows[k].row.dot(qdd) - self.d[k]
    }

    /// `b_k = d_k − J_k M⁻¹ f` for each `k` of `set`, with `free = M⁻¹ f`.
    pub fn rhs(&self, set: &[usize], free: &[f64]) -> Vec<f64> {
        set.iter().map(|&k| self.d[k] - self.rows[k].row.dot(free)).collect()
    }

    /// The sparse `A = J M⁻¹ Jᵀ` among the rows `set` (local index `i` is `set[i]`).
    pub fn graph(&self, set: &[usize]) -> SchurGraph {
        let rows: Vec<&SparseRow> = set.iter().map(|&k| &self.rows[k].row).collect();
        SchurGraph::new(&rows, &self.minv)
    }

    /// Solves eq. (6) with the handled set `set` (it should contain every equality).
    /// The rows are factored in reverse Cuthill–McKee order ([`SchurGraph::rcm`]).
    pub fn solve(&self, set: &[usize]) -> KktSolution {
        self.factored(set).solve()
    }

    /// [`Self::solve`] with the least `λ` on a hyperstatic set (module docs).
    pub fn solve_least(&self, set: &[usize]) -> KktSolution {
        self.factored(set).solve_least()
    }

    fn factored(&self, set: &[usize]) -> GrowingKkt<'_> {
        let mut kkt = GrowingKkt::new(self, set);
        let all: Vec<usize> = (0..set.len()).collect();
        for i in kkt.graph.ordering(&all) {
            kkt.add(set[i]);
        }
        kkt
    }
}

/// Eq. (6) for a handled set that only grows (Algorithm 3 adds, never removes):
/// the Cholesky factor `A_SS = L Lᵀ` ([`Envelope`]) is extended by one row per
/// added constraint instead of refactored at every iteration.
///
/// A new row `k` gives `y = L⁻¹ A_Sk` and the pivot `A_kk − |y|²`, the part of
/// `J_k` (in the `M⁻¹` metric) outside the span of the rows already taken. When
/// it is below `PIVOT_TOL · A_kk` the row depends on them: it keeps `λ_k = 0`
/// and is reported in `dependent` (its residual still counts).
pub struct GrowingKkt<'a> {
    problem: &'a ContactProblem,
    /// The rows that may be added; local index `i` is `candidates[i]`.
    candidates: Vec<usize>,
    /// Local index of each constraint (`usize::MAX`: not a candidate).
    local: Vec<usize>,
    graph: SchurGraph,
    factor: Envelope,
    /// `b_i = d_i − J_i M⁻¹ f` of every candidate.
    b: Vec<f64>,
    dependent: Vec<usize>,
    /// Relative pivot below which a row counts as dependent.
    pivot_tol: f64,
}

impl<'a> GrowingKkt<'a> {
    /// A factor that may grow over the rows `candidates`.
    pub fn new(problem: &'a ContactProblem, candidates: &[usize]) -> Self {
        let mut local = vec![usize::MAX; problem.nconstraints()];
        for (i, &k) in candidates.iter().enumerate() {
            local[k] = i;
        }
        let free = problem.accelerations(&[]);
        GrowingKkt {
            problem,
            candidates: candidates.to_vec(),
            local,
            graph: problem.graph(candidates),
            factor: Envelope::new(candidates.len(), 0.0),
            b: problem.rhs(candidates, &free),
            dependent: Vec::new(),
            pivot_tol: PIVOT_TOL,
        }
    }

    /// Refuses rows whose pivot is below `tol · A_kk` (default [`PIVOT_TOL`]).
    pub fn with_pivot_tol(mut self, tol: f64) -> Self {
        self.pivot_tol = tol;
        self
    }

    /// Adds constraint `k` (one of the candidates) to the handled set.
    pub fn add(&mut self, k: usize) {
        let i = self.local[k];
        assert!(i != usize::MAX, "constraint {k} is not a candidate of this factor");
        if !self.factor.contains(i) && !self.factor.push(&self.graph, i, self.pivot_tol) {
            self.dependent.push(k);
        }
    }

    /// Solves eq. (6) for the rows added so far.
    pub fn solve(&self) -> KktSolution {
        let b: Vec<f64> = self.factor.order.iter().map(|&i| self.b[i]).collect();
        let x = self.factor.solve(&b);
        let mut lambda = vec![0.0; self.problem.nconstraints()];
        for (p, &i) in self.factor.order.iter().enumerate() {
            lambda[self.candidates[i]] = x[p];
        }
        let qdd = self.problem.accelerations(&lambda);
        let residual = self
            .factor
            .order
            .iter()
            .map(|&i| self.candidates[i])
            .chain(self.dependent.iter().copied())
            .map(|k| self.problem.tendency(k, &qdd).abs())
            .fold(0.0, f64::max);
        let mut dependent = self.dependent.clone();
        dependent.sort_unstable();
        KktSolution { qdd, lambda, residual, dependent, ..Default::default() }
    }

    /// [`Self::solve`], with the least `λ` when the rows added so far depend
    /// on each other or nearly (see the module docs).
    pub fn solve_least(&self) -> KktSolution {
        let basic = self.solve();
        if self.dependent.is_empty() && self.factor.least_pivot() >= LEAST_BELOW {
            return basic;
        }
        // Every row of S, numbered 0.. in the restricted graph.
        let mut set: Vec<usize> = self.factor.order.clone();
        set.extend(self.dependent.iter().map(|&k| self.local[k]));
        set.sort_unstable();
        let g = self.graph.restrict(&set);
        let order = g.ordering(&(0..set.len()).collect::<Vec<_>>());
        // μ: the basic solution on rows kept well apart (pivot ≥ LEAST_BELOW):
        // a nearly dependent row taken in would put its 1/pivot into μ.
        let mut basis = Envelope::new(set.len(), 0.0);
        for &i in &order {
            basis.push(&g, i, LEAST_BELOW);
        }
        let b: Vec<f64> = basis.order.iter().map(|&i| self.b[set[i]]).collect();
        let mut mu = vec![0.0; set.len()];
        for (p, x) in basis.solve(&b).into_iter().enumerate() {
            mu[basis.order[p]] = x;
        }
        // The least λ with the force of μ: iterated Tikhonov on A λ = A μ.
        let x = g.least_with_force(&mu, LEAST_SHIFT, 3);
        let mut lambda = vec![0.0; self.problem.nconstraints()];
        for (l, &i) in set.iter().enumerate() {
            lambda[self.candidates[i]] = x[l];
        }
        let qdd = self.problem.accelerations(&lambda);
        let residual = set.iter().map(|&i| self.problem.tendency(self.candidates[i], &qdd).abs()).fold(0.0, f64::max);
        KktSolution { qdd, lambda, residual, dependent: basic.dependent, ..Default::default() }
    }
}

/// A set takes the least `λ` when a row was dependent or its pivot was below
/// this fraction of `A_kk` (module docs).
const LEAST_BELOW: f64 = 1e-7;

/// The relative regularization `ε` of the least-`λ` rounds (module docs).
const LEAST_SHIFT: f64 = 1e-8;

/// `½ q̇ᵀ M q̇` from the diagonal `M⁻¹` (fixed coordinates, `M⁻¹ = 0`, left out).
pub fn kinetic_energy(minv: &[f64], qd: &[f64]) -> f64 {
    qd.iter().zip(minv).filter(|(_, w)| **w > 0.0).map(|(v, w)| 0.5 * v * v / w).sum()
}

#[cfg(test)]
mod tests {
    use approx::assert_relative_eq;

    use crate::testing::wedge;

    /// Eq. (11): both wedge constraints handled, f = (2, −1): q̈ = (0, 0), λ = (−2, −1),
    /// for any mass.
    #[test]
    fn papers_eq_11() {
        for m in [0.5, 1.0, 2.0, 3.0, 10.0] {
            let (model, state) = wedge(m, (2.0, -1.0));
            let p = super::ContactProblem::new(&model, &state, 0.01);
            let s = p.solve(&[0, 1]);
            assert_relative_eq!(s.qdd[0], 0.0, epsilon = 1e-12);
            assert_relative_eq!(s.qdd[1], 0.0, epsilon = 1e-12);
            assert_relative_eq!(s.lambda[0], -2.0, epsilon = 1e-12);
            assert_relative_eq!(s.lambda[1], -1.0, epsilon = 1e-12);
            assert!(s.residual < 1e-12);
        }
    }

    /// Eq. (13): only g2 handled, f = (2, −1): q̈ = (2/m, 0), λ2 = 1.
    #[test]
    fn papers_eq_13() {
        for m in [0.5, 1.0, 2.0, 3.0, 10.0] {
            let (model, state) = wedge(m, (2.0, -1.0));
            let s = super::ContactProblem::new(&model, &state, 0.01).solve(&[1]);
            assert_relative_eq!(s.qdd[0], 2.0 / m, epsilon = 1e-12);
            assert_relative_eq!(s.qdd[1], 0.0, epsilon = 1e-12);
            assert_relative_eq!(s.lambda[1], 1.0, epsilon = 1e-12);
            assert_eq!(s.lambda[0], 0.0);
        }
    }

    /// Eq. (15): only g2 handled, f = (−1, −2): q̈ = (−1/m, 0), λ2 = 2.
    #[test]
    fn papers_eq_15() {
        for m in [0.5, 1.0, 2.0, 3.0, 10.0] {
            let (model, state) = wedge(m, (-1.0, -2.0));
            let s = super::ContactProblem::new(&model, &state, 0.01).solve(&[1]);
            assert_relative_eq!(s.qdd[0], -1.0 / m, epsilon = 1e-12);
            assert_relative_eq!(s.qdd[1], 0.0, epsilon = 1e-12);
            assert_relative_eq!(s.lambda[1], 2.0, epsilon = 1e-12);
        }
    }

    /// A handled row repeated three times: finite λ, no NaN, the motion is the same
    /// as with the row once, and the residual says the system is consistent.
    #[test]
    fn redundant_rows_give_a_finite_answer() {
        let (mut model, state) = wedge(2.0, (2.0, -1.0));
        let g2 = model.constraints[1].clone();
        model.constraints.push(g2.clone());
        model.constraints.push(g2);
        let p = super::ContactProblem::new(&model, &state, 0.01);
        let s = p.solve(&[1, 2, 3]);
        assert!(s.lambda.iter().chain(&s.qdd).all(|v| v.is_finite()));
        assert_eq!(s.dependent.len(), 2);
        assert_relative_eq!(s.qdd[0], 1.0, epsilon = 1e-12);
        assert_relative_eq!(s.qdd[1], 0.0, epsilon = 1e-12);
        assert_relative_eq!(s.lambda[1] + s.lambda[2] + s.lambda[3], 1.0, epsilon = 1e-12);
        assert!(s.residual < 1e-12);
    }

    /// Growing the handled set row by row gives the answer of a fresh solve,
    /// redundant rows included.
    #[test]
    fn growing_matches_a_fresh_solve() {
        let (mut model, state) = wedge(2.0, (-1.0, -2.0));
        let g2 = model.constraints[1].clone();
        model.constraints.push(g2);
        let p = super::ContactProblem::new(&model, &state, 0.01);
        let mut grow = super::GrowingKkt::new(&p, &[0, 1, 2]);
        for (k, set) in [(1, vec![1]), (2, vec![1, 2]), (0, vec![0, 1, 2])] {
            grow.add(k);
            let (a, b) = (grow.solve(), p.solve(&set));
            for i in 0..2 {
                assert_relative_eq!(a.qdd[i], b.qdd[i], epsilon = 1e-12);
            }
            assert_relative_eq!(a.lambda[1] + a.lambda[2], b.lambda[1] + b.lambda[2], epsilon = 1e-12);
            assert!(a.residual < 1e-12);
        }
        assert_eq!(grow.solve().dependent, vec![2]);
    }
}
