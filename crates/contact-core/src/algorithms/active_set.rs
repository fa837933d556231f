//! What the active-set algorithms share: the trait they implement
//! ([`ActiveSetSolver`]), what they see at the start of a step ([`SolveContext`]:
//! eq. (6) assembled, the active rows, the [`Tolerances`]), and the handled set
//! `F⁺` they carry between steps ([`ActiveSet`]). The algorithms themselves are
//! in [`crate::algorithm`] (Algorithms 1–3) and [`crate::exact`].
//!
//! [`ActiveSet`] is owned by the world, so switching algorithm between two steps
//! loses nothing: Platt continues from the `F⁺` the previous algorithm left.
//!
//! Notation: `E` the equalities (always handled), `F` the inequalities, `F⁺ ⊆ F`
//! the handled ones; it shows a *violation tendency* when `a_k = J_k q̈ − d_k < 0`.
//! An inequality is *active* when it is violated beyond the tolerance
//! (`g_k < −tol`), or touches (`|g_k| ≤ tol`) without separating (`J_k q̇ ≤ v_tol`).
//! The paper says `g_k = 0`; the velocity condition is Baraff's (1994): the
//! acceleration-level problem concerns contacts with zero normal velocity. A
//! contact at `g = 0` that separates (after a bounce) leaves at once; handled,
//! Baumgarte's velocity term `−(2/τ) J_k q̇` in `d_k` would hold it back and pump
//! energy into tiny hops. Approaching touching contacts get an impulse first
//! ([`crate::events`]), so at solve time touching means resting.

use serde::{Deserialize, Serialize};

use crate::choice::Algorithm;
use crate::constraint::ConstraintKind;
use crate::kkt::{ContactProblem, KktSolution};
use crate::trace::{Change, Iteration, Reason, Trace};
use crate::units::Units;

/// The handled set `F⁺`, persistent across steps.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ActiveSet {
    /// `handled[k]` for every constraint (equalities are always handled).
    pub handled: Vec<bool>,
    /// False until an algorithm that keeps `F⁺` has initialised it.
    pub initialized: bool,
    /// Time-stepping only ([`crate::timestep`]): the last step's impulse `P_k`
    /// on every row it held, the next step's start (empty otherwise).
    pub impulse: Vec<f64>,
    /// Time-stepping only: the last step's friction impulse `P_t` on every
    /// contact with friction it held (empty otherwise).
    pub friction: Vec<f64>,
    /// Time-stepping only: the last step's rolling impulse `P_m` on every
    /// contact with rolling resistance it held (empty otherwise).
    pub rolling: Vec<f64>,
}

impl ActiveSet {
    pub fn new(nconstraints: usize) -> Self {
        ActiveSet {
            handled: vec![false; nconstraints],
            initialized: false,
            impulse: Vec::new(),
            friction: Vec::new(),
            rolling: Vec::new(),
        }
    }

    /// `E ∪ F⁺` as an index list.
    pub fn indices(&self, problem: &ContactProblem) -> Vec<usize> {
        (0..self.handled.len()).filter(|&k| self.handled[k] || problem.kinds[k] == ConstraintKind::Equality).collect()
    }
}

/// Tolerances shared by the algorithms.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Tolerances {
    /// An inequality is active when `g_k ≤ active` (m).
    pub active: f64,
    /// A violation tendency is `J_k q̈ − d_k < −tendency` (m/s²).
    pub tendency: f64,
    /// A touching inequality with `J_k q̇ > separating` (m/s) is separating, not active.
    pub separating: f64,
}

impl Default for Tolerances {
    fn default() -> Self {
        Tolerances::in_units(&Units::default())
    }
}

impl Tolerances {
    /// The default tolerances in the scene's `units`: 1e-6 lengths, 1e-9
    /// accelerations, 1e-3 speeds (1 µm, 1e-9 m/s², 1 mm/s in SI units).
    pub fn in_units(units: &Units) -> Self {
        Tolerances { active: units.length(1e-6), tendency: units.acceleration(1e-9), separating: units.speed(1e-3) }
    }
}

/// What an algorithm sees at the start of a step.
pub struct SolveContext<'a> {
    pub problem: &'a ContactProblem,
    /// `active[k]`: inequality `k` touches and does not separate (false for equalities).
    pub active: &'a [bool],
    pub tol: Tolerances,
}

impl SolveContext<'_> {
    /// Solves eq. (6) for `set` and records the iteration in `trace`.
    pub fn solve_traced(&self, set: &[usize], trace: &mut Trace) -> KktSolution {
        let sol = self.problem.solve_least(set);
        self.record(set, &sol, trace);
        sol
    }

    /// Records one solve of eq. (6) for `set` in `trace` (the lists of λ and
    /// tendencies only for problems small enough to read: see [`Trace::DETAIL`]).
    pub(crate) fn record(&self, set: &[usize], sol: &KktSolution, trace: &mut Trace) {
        let mut it = Iteration {
            handled: set.to_vec(),
            removed: sol.dependent.iter().map(|&k| Change { constraint: k, reason: Reason::Dependent }).collect(),
            ..Default::default()
        };
        if set.len() <= Trace::DETAIL {
            let mut in_set = vec![false; self.active.len()];
            set.iter().for_each(|&k| in_set[k] = true);
            it.lambda = set.iter().map(|&k| (k, sol.lambda[k])).collect();
            it.tendency = (0..self.active.len())
                .filter(|&k| self.active[k] || in_set[k])
                .map(|k| (k, self.problem.tendency(k, &sol.qdd)))
                .collect();
        }
        trace.iterations.push(it);
    }

    /// Active inequalities outside `set` whose tendency under `qdd` is a violation.
    pub(crate) fn tending_to_violate(&self, set: &ActiveSet, qdd: &[f64]) -> Vec<Change> {
        (0..self.active.len())
            .filter(|&k| self.active[k] && !set.handled[k])
            .filter_map(|k| {
                let a = self.problem.tendency(k, qdd);
                (a < -self.tol.tendency).then_some(Change { constraint: k, reason: Reason::Tendency { a } })
            })
            .collect()
    }
}

/// An algorithm that decides which inequalities are handled in eq. (6).
pub trait ActiveSetSolver: Sync {
    fn algorithm(&self) -> Algorithm;

    /// Chooses `F⁺` (updating `set`) and solves eq. (6) at the start of a step.
    fn solve(&self, ctx: &SolveContext, set: &mut ActiveSet, trace: &mut Trace) -> KktSolution;

    /// Updates `F⁺` for the next step from the values `g_after` at the end of the
    /// step (Algorithms 1–2, lines 3–9). The algorithms that rebuild `F⁺` at each
    /// step do nothing here.
    fn after_step(
        &self,
        _ctx: &SolveContext,
        _sol: &KktSolution,
        _g_after: &[f64],
        _set: &mut ActiveSet,
        _trace: &mut Trace,
    ) {
    }
}
