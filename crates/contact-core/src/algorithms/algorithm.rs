//! The active-set algorithms of the paper: Platt (Algorithm 1), Platt improved
//! (Algorithm 2) and the "right" algorithm (Algorithm 3), and which
//! implementation each [`Algorithm`] stands for ([`Algorithm::solver`]; the
//! fourth, our exact reference, is [`crate::exact`]).
//!
//! All four share one trait, [`ActiveSetSolver`], and the handled set `F⁺` they
//! carry between steps, [`ActiveSet`] ([`crate::active_set`], with the notation:
//! active, violation tendency `a_k = J_k q̈ − d_k < 0`). Each solve is eq. (6)
//! with `E ∪ F⁺` handled ([`crate::kkt`]); the algorithms differ in how `F⁺`
//! changes:
//!
//! ```text
//! Platt (1):          F⁺ kept across steps, at first every active k;
//!                     after a step drop λ_k ≤ 0, add g_k < 0
//! Platt improved (2): F⁺ kept, at first the active k with J_k q̈ < d_k under eq. (1);
//!                     after a step drop λ_k ≤ 0, add J_k q̈ < d_k
//! Right (3):          F⁺ = ∅ each step; solve eq. (6), add every active k with
//!                     J_k q̈ < d_k, until none
//! ```
//!
//! [`Algorithm`], [`ActiveSet`], [`ActiveSetSolver`], [`SolveContext`] and
//! [`Tolerances`] are re-exported here, where earlier versions defined them.

pub use crate::active_set::{ActiveSet, ActiveSetSolver, SolveContext, Tolerances};
pub use crate::choice::Algorithm;
use crate::constraint::ConstraintKind;
use crate::exact::Exact;
use crate::kkt::{GrowingKkt, KktSolution};
use crate::trace::{Change, Reason, Trace};

impl Algorithm {
    /// The implementation.
    pub fn solver(self) -> &'static dyn ActiveSetSolver {
        match self {
            Algorithm::Platt => &Platt,
            Algorithm::PlattImproved => &PlattImproved,
            Algorithm::Right => &Right,
            Algorithm::Exact => &Exact,
        }
    }
}

/// Lines 3–6 of Algorithms 1 and 2: release handled inequalities with `λ_k ≤ 0`.
fn release_non_positive(ctx: &SolveContext, sol: &KktSolution, set: &mut ActiveSet, trace: &mut Trace) {
    for k in 0..set.handled.len() {
        if set.handled[k] && ctx.problem.kinds[k] == ConstraintKind::Inequality && sol.lambda[k] <= 0.0 {
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
            if !was[k] && ctx.problem.kinds[k] == ConstraintKind::Inequality && g_after[k] < 0.0 {
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
            if was[k] || ctx.problem.kinds[k] != ConstraintKind::Inequality || g_after[k] > ctx.tol.active {
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
            let sol = kkt.solve_least();
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
