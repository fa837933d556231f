//! The active-set algorithms: Platt (Algorithm 1), Platt improved (Algorithm 2),
//! the "right" algorithm (Algorithm 3) and our exact reference ([`crate::exact`]).
//!
//! All four share one trait, [`ActiveSetSolver`]. The state they carry between
//! steps — the handled set `F⁺` — lives in [`ActiveSet`], owned by the world, so
//! switching algorithm between two steps loses nothing: Platt continues from the
//! `F⁺` the previous algorithm left.
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

use crate::ConstraintKind;
use crate::kkt::{ContactProblem, GrowingKkt, KktSolution};
use crate::trace::{Change, Iteration, Reason, Trace};

/// Which algorithm decides the handled set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum Algorithm {
    /// Platt 1992, Algorithm 1: `F⁺` kept across steps; drop `λ ≤ 0`, add `g < 0`.
    Platt,
    /// Algorithm 2: as Platt, but add on a violation tendency `J q̈ < d`.
    PlattImproved,
    /// Algorithm 3: `F⁺` emptied each step, grown until no active constraint tends to violate.
    #[default]
    Right,
    /// Our reference: the exact complementarity solution (principal pivoting).
    Exact,
}

impl Algorithm {
    pub const ALL: [Algorithm; 4] = [Algorithm::Platt, Algorithm::PlattImproved, Algorithm::Right, Algorithm::Exact];

    /// The name shown to people.
    pub fn label(self) -> &'static str {
        match self {
            Algorithm::Platt => "Platt",
            Algorithm::PlattImproved => "Platt improved",
            Algorithm::Right => "Right",
            Algorithm::Exact => "Exact (LCP)",
        }
    }

    /// The name on the command line.
    pub fn cli_name(self) -> &'static str {
        match self {
            Algorithm::Platt => "platt",
            Algorithm::PlattImproved => "platt-improved",
            Algorithm::Right => "right",
            Algorithm::Exact => "exact",
        }
    }

    /// The implementation.
    pub fn solver(self) -> &'static dyn ActiveSetSolver {
        match self {
            Algorithm::Platt => &Platt,
            Algorithm::PlattImproved => &PlattImproved,
            Algorithm::Right => &Right,
            Algorithm::Exact => &crate::exact::Exact,
        }
    }
}

/// The handled set `F⁺`, persistent across steps.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ActiveSet {
    /// `handled[k]` for every constraint (equalities are always handled).
    pub handled: Vec<bool>,
    /// False until an algorithm that keeps `F⁺` has initialised it.
    pub initialized: bool,
}

impl ActiveSet {
    pub fn new(nconstraints: usize) -> Self {
        ActiveSet { handled: vec![false; nconstraints], initialized: false }
    }

    /// `E ∪ F⁺` as an index list.
    pub fn indices(&self, problem: &ContactProblem) -> Vec<usize> {
        (0..self.handled.len())
            .filter(|&k| self.handled[k] || problem.kinds[k] == crate::ConstraintKind::Equality)
            .collect()
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
        Tolerances { active: 1e-6, tendency: 1e-9, separating: 1e-3 }
    }
}

/// What an algorithm sees at the start of a step.
pub struct SolveContext<'a> {
    pub problem: &'a ContactProblem,
    /// `active[k]`: inequality `k` touches and does not separate (false for equalities).
    pub active: &'a [bool],
    pub tol: Tolerances,
    /// Exact keeps the previous step's handled set as it is when no row outside
    /// it tends to violate by more than this (m/s²; 0 in a bare problem). The
    /// world sets `tol.active / τ²`: the pull Baumgarte's eq. (5) puts on a
    /// penetration of the active tolerance. In a hyperstatic pile (more touching
    /// contacts than degrees of freedom) the previous set misses some rows by
    /// round-off-sized tendencies at every step; chasing them cost ~80 pivots a
    /// step. A row that tends to sink more than that, or is past the active
    /// tolerance, is handled as before.
    pub warm_slack: f64,
}

impl SolveContext<'_> {
    /// Solves eq. (6) for `set` and records the iteration in `trace`.
    pub fn solve_traced(&self, set: &[usize], trace: &mut Trace) -> KktSolution {
        let sol = self.problem.solve(set);
        self.record(set, &sol, trace);
        sol
    }

    /// Records one solve of eq. (6) for `set` in `trace` (the lists of λ and
    /// tendencies only for problems small enough to read: see [`Trace::DETAIL`]).
    fn record(&self, set: &[usize], sol: &KktSolution, trace: &mut Trace) {
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
    fn tending_to_violate(&self, set: &ActiveSet, qdd: &[f64]) -> Vec<Change> {
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

/// Lines 3–6 of Algorithms 1 and 2: release handled inequalities with `λ_k ≤ 0`.
fn release_non_positive(ctx: &SolveContext, sol: &KktSolution, set: &mut ActiveSet, trace: &mut Trace) {
    for k in 0..set.handled.len() {
        if set.handled[k] && ctx.problem.kinds[k] == crate::ConstraintKind::Inequality && sol.lambda[k] <= 0.0 {
            set.handled[k] = false;
            trace
                .after_step
                .push(Change { constraint: k, reason: Reason::NonPositiveMultiplier { lambda: sol.lambda[k] } });
        }
    }
}

/// Algorithm 1 (Platt 1992).
pub struct Platt;

impl ActiveSetSolver for Platt {
    fn algorithm(&self) -> Algorithm {
        Algorithm::Platt
    }

    fn solve(&self, ctx: &SolveContext, set: &mut ActiveSet, trace: &mut Trace) -> KktSolution {
        if !set.initialized {
            // "At the beginning of the animation, Platt populates F⁺ with all the active constraints."
            for k in 0..ctx.active.len() {
                if ctx.active[k] {
                    set.handled[k] = true;
                    trace
                        .initial
                        .push(Change { constraint: k, reason: Reason::ActiveAtStart { g: ctx.problem.rows[k].g } });
                }
            }
            set.initialized = true;
        }
        ctx.solve_traced(&set.indices(ctx.problem), trace)
    }

    fn after_step(
        &self,
        ctx: &SolveContext,
        sol: &KktSolution,
        g_after: &[f64],
        set: &mut ActiveSet,
        trace: &mut Trace,
    ) {
        let was = set.handled.clone();
        release_non_positive(ctx, sol, set, trace);
        for k in 0..set.handled.len() {
            if !was[k] && ctx.problem.kinds[k] == crate::ConstraintKind::Inequality && g_after[k] < 0.0 {
                set.handled[k] = true;
                trace.after_step.push(Change { constraint: k, reason: Reason::Violated { g: g_after[k] } });
            }
        }
    }
}

/// Algorithm 2 (Platt improved, section 4.1).
pub struct PlattImproved;

impl ActiveSetSolver for PlattImproved {
    fn algorithm(&self) -> Algorithm {
        Algorithm::PlattImproved
    }

    fn solve(&self, ctx: &SolveContext, set: &mut ActiveSet, trace: &mut Trace) -> KktSolution {
        if !set.initialized {
            // "At the beginning of the animation, we solve equation (1) to get q̈ and we then
            // populate F⁺ with the active constraints that fulfill the violation tendency condition."
            // Equalities stay handled, so "eq. (1)" is eq. (6) with E alone.
            let free = ctx.solve_traced(&ctx.problem.equalities(), trace);
            let added = ctx.tending_to_violate(set, &free.qdd);
            for c in &added {
                set.handled[c.constraint] = true;
            }
            if let Some(it) = trace.iterations.last_mut() {
                it.added = added;
            }
            set.initialized = true;
        }
        ctx.solve_traced(&set.indices(ctx.problem), trace)
    }

    fn after_step(
        &self,
        ctx: &SolveContext,
        sol: &KktSolution,
        g_after: &[f64],
        set: &mut ActiveSet,
        trace: &mut Trace,
    ) {
        let was = set.handled.clone();
        release_non_positive(ctx, sol, set, trace);
        // Line 8, "if J_k q̈ < d_k": with q̈ and d_k of the step just taken. We test the
        // inequalities active or violated at the end of the step, those the next step meets.
        for k in 0..set.handled.len() {
            if was[k] || ctx.problem.kinds[k] != crate::ConstraintKind::Inequality || g_after[k] > ctx.tol.active {
                continue;
            }
            let a = ctx.problem.tendency(k, &sol.qdd);
            if a < -ctx.tol.tendency {
                set.handled[k] = true;
                trace.after_step.push(Change { constraint: k, reason: Reason::Tendency { a } });
            }
        }
    }
}

/// Right's growing factor refuses a row whose part outside the rows already
/// handled is below 1e-4 of its norm (pivot `< 1e-8 A_kk`). Add-only, Right
/// cannot drop a nearly dependent row later: in a hyperstatic pile, accepting
/// one gave multipliers of 1e8 N and blew the pile up.
const RIGHT_PIVOT_TOL: f64 = 1e-8;

/// Algorithm 3, the "right" algorithm (section 4.2).
pub struct Right;

impl ActiveSetSolver for Right {
    fn algorithm(&self) -> Algorithm {
        Algorithm::Right
    }

    fn solve(&self, ctx: &SolveContext, set: &mut ActiveSet, trace: &mut Trace) -> KktSolution {
        // "At the beginning of each time step ... F⁺ is emptied."
        set.handled.iter_mut().for_each(|h| *h = false);
        set.initialized = true;
        // F⁺ only grows: extend the factor of A_SS rather than refactor it.
        let candidates: Vec<usize> = (0..ctx.active.len())
            .filter(|&k| ctx.active[k] || ctx.problem.kinds[k] == ConstraintKind::Equality)
            .collect();
        let mut kkt = GrowingKkt::new(ctx.problem, &candidates).with_pivot_tol(RIGHT_PIVOT_TOL);
        for k in ctx.problem.equalities() {
            kkt.add(k);
        }
        loop {
            let sol = kkt.solve();
            ctx.record(&set.indices(ctx.problem), &sol, trace);
            // "For any inequality constraint g_k that fulfills the condition, we insert k in F⁺."
            let added = ctx.tending_to_violate(set, &sol.qdd);
            if added.is_empty() {
                return sol;
            }
            for c in &added {
                set.handled[c.constraint] = true;
                kkt.add(c.constraint);
            }
            // Add-only: the loop ends after at most (number of active constraints + 1) solves.
            if let Some(it) = trace.iterations.last_mut() {
                it.added = added;
            }
        }
    }
}
