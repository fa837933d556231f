//! The exact reference: the contact problem as a linear complementarity problem,
//! solved by the pivoting of [`crate::lcp`], warm-started from the previous
//! step's handled set and split into independent islands.
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
//! [`solve_lcp`] keeps a clamped set `C` (`a_C = 0`, the handled set `E ∪ F⁺`)
//! and a free set `N` (`λ_N = 0`), and moves indices between them until the
//! solution is complementary (block principal pivoting, with Dantzig's pivoting
//! as the fallback that always ends, and alone on a small cold problem; see
//! [`crate::lcp`]). Each of its rounds is one iteration of the step's
//! [`Trace`]: indices that joined `C` show a violation tendency, those that
//! left a negative multiplier.
//!
//! **The contract.** Every Exact answer satisfies, island by island,
//!
//! ```text
//! λ_k ≥ −ε_λ,   a_k ≥ −ε_a   (inequalities),   |a_k| ≤ ε_a   (equalities),   |λ_k a_k| ≤ ε_c
//! ε_a = 1e-9 (min(‖A‖ ‖λ‖, 10³ ‖b‖) + ‖b‖),   ε_λ = ε_a / ‖A‖,   ε_c = ε_a ‖λ‖ + ε_λ ‖a‖
//! ```
//!
//! ([`crate::lcp::CONTRACT`], `‖A‖` the largest row sum of `|A_ij|`): relative
//! to the problem's own data, `A` and `b`, independent of `τ`, `h` and the
//! units; the answer's own `‖λ‖` counts only up to `10³ ‖b‖/‖A‖`
//! ([`crate::lcp::SELF_STRESS`]), so a huge `λ` cannot widen the tolerance
//! that judges it. It is
//! checked after every solve, in every build ([`crate::lcp::contract_ratio`],
//! `O(nnz(A))`); an answer that misses it stops the step like a capped
//! pivoting ([`crate::lcp::Stop::Contract`], the step's status `Unsolved`).
//! The oracle tests measure the worst ratio over their sweep of `τ`, `h` and
//! masses. No relaxed mode: until issue 26 a warm start was accepted with
//! free rows sinking by up to `tol.active / τ²` (0.01 m/s² at the defaults,
//! more than `g` at τ = 0.3 ms); that slack is gone.
//!
//! **Targets that conflict.** Baumgarte's targets (eq. 5) on dependent rows
//! can ask for what no force gives: a box overlapping two opposite walls by
//! 0.5 nm has each wall's row ask to push it out. No `λ ≥ 0` exists; the
//! regularized pivoting answered with a self-stress of 2e4 N (6e4 N with
//! friction, which then held the box in the air) that the contract,
//! relative to that `λ`, accepted (issue 36, finding 7). Now such an answer
//! misses the contract, and [`crate::lcp::least_squares`] takes off the
//! part of the targets that no force meets (`b_N`, with `A_SS b_N = 0`:
//! the least-squares answer on the rows held or violated), solves again on
//! the rest, and the trace names the rows ([`Trace::conflict`]). With
//! friction ([`crate::friction`]) the same is done on the island's normal
//! rows before Coulomb's problem is solved: a squeeze that pushes on
//! nothing holds nothing up.
//!
//! Two things make it cheap on a pile:
//! * **warm start**: `C` starts from the inequalities handled at the previous
//!   step (kept by key, [`crate::contacts`]); on a settled pile it is often
//!   the answer, and one round on each island (one factorization of its
//!   `A_CC`) confirms it. A hyperstatic pile has many equivalent handled sets,
//!   and Baumgarte's `d` moves between them from step to step: pivots find
//!   the next (tens a step on a settled 30-ball pile). Past a budget, the
//!   interior point of [`crate::ipm`] finishes an island ([`crate::lcp`]);
//! * **islands**: the candidates `K` are split wherever `A_ij = 0`; an island is
//!   a connected component of the rows linked by a non-zero `A_ij`, directly or
//!   through other rows ([`crate::schur::SchurGraph::islands`]), and is an
//!   independent problem: an island that has converged is not solved again
//!   while another still pivots.
//!
//! Each block round factors `A_CC` with the sparse envelope Cholesky of
//! [`crate::schur`], regularized by a tiny relative `ε = 1e-10` on each row's
//! diagonal that keeps dependent rows solvable, and the island's answer is
//! refined on its final set ([`crate::lcp`]). The answer is then polished, at
//! every solve: eq. (6) re-solved exactly (no `ε`) on the final clamped set,
//! another factorization (all the clamped rows at once, equalities
//! included), kept when `λ_C ≥ 0` and it meets the contract.
//!
//! The same pivoting solves the impulse problem of an impact
//! ([`crate::impulse`]), with velocities in place of accelerations.

use crate::active_set::{ActiveSet, ActiveSetSolver, SolveContext};
use crate::choice::Algorithm;
use crate::friction::{self, SLIDING};
use crate::kkt::KktSolution;
use crate::lcp::{Cap, Stop, contract_ratio, least_squares, solve_lcp};
use crate::trace::{Change, Iteration, Reason, Trace};

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
        // Warm start: the inequalities handled at the previous step.
        let warm: Vec<bool> = cand.iter().enumerate().map(|(i, &k)| i >= neq && set.handled[k]).collect();
        if p.has_friction(&cand) {
            let sliding = SLIDING * ctx.tol.separating;
            let (sol, handled) = friction::solve(p, &cand, neq, &warm, sliding, trace);
            set.handled.iter_mut().for_each(|h| *h = false);
            for (i, &k) in cand.iter().enumerate() {
                set.handled[k] = i >= neq && handled[i];
            }
            set.initialized = true;
            return sol;
        }
        let graph = p.graph(&cand);
        let b = p.rhs(&cand, &p.accelerations(&[]));
        let lcp = solve_lcp(&graph, &b, neq, &warm, 0.0);
        trace.capped = lcp.capped;
        for round in &lcp.rounds {
            trace.iterations.push(Iteration {
                handled: round.clamped.iter().map(|&i| cand[i]).collect(),
                lambda: if round.lambda.is_empty() {
                    Vec::new()
                } else {
                    round.clamped.iter().map(|&i| (cand[i], round.lambda[i])).collect()
                },
                tendency: round.a.iter().enumerate().map(|(i, a)| (cand[i], *a)).collect(),
                added: round
                    .entered
                    .iter()
                    .map(|&(i, a)| Change { constraint: cand[i], reason: Reason::Tendency { a } })
                    .collect(),
                removed: round
                    .left
                    .iter()
                    .map(|&(i, lambda)| Change {
                        constraint: cand[i],
                        reason: Reason::NonPositiveMultiplier { lambda },
                    })
                    .collect(),
            });
        }
        set.handled.iter_mut().for_each(|h| *h = false);
        let mut lambda = vec![0.0; p.nconstraints()];
        for (i, &k) in cand.iter().enumerate() {
            lambda[k] = lcp.lambda[i];
            set.handled[k] = i >= neq && lcp.clamped[i];
        }
        set.initialized = true;
        // Polish: the regularization leaves `a_C` off by `ε λ`, which ill-conditioned
        // rows amplify in `q̈`. Re-solve eq. (6) exactly on the final clamped set and
        // keep that answer when it is still complementary: `λ_C ≥ 0` and the contract.
        let clamped: Vec<usize> = cand.iter().enumerate().filter(|(i, _)| lcp.clamped[*i]).map(|(_, &k)| k).collect();
        let exact = p.solve(&clamped);
        let local = |lambda: &[f64]| cand.iter().map(|&k| lambda[k]).collect::<Vec<f64>>();
        let polished = contract_ratio(&graph, &b, neq, &local(&exact.lambda));
        let nonnegative = cand.iter().enumerate().all(|(i, &k)| i < neq || !lcp.clamped[i] || exact.lambda[k] >= 0.0);
        let keep = nonnegative && polished <= 1.0;
        // The contract, checked on the answer given (see the module docs).
        let mut ratio = if keep {
            lambda = exact.lambda;
            polished
        } else {
            contract_ratio(&graph, &b, neq, &local(&lambda))
        };
        // Targets that conflict (a box overlapping two opposite walls): the
        // part no force meets is taken off, with no self-stress
        // (lcp::least_squares).
        if ratio > 1.0
            && trace.capped.is_none()
            && let Some(c) = least_squares(&graph, &b, neq, &local(&lambda), &lcp.clamped)
        {
            for (i, &k) in cand.iter().enumerate() {
                lambda[k] = c.lcp.lambda[i];
                set.handled[k] = i >= neq && c.lcp.clamped[i];
            }
            trace.conflict = c.rows.iter().map(|&i| cand[i]).collect();
            trace.conflict_miss = c.worst;
            ratio = 0.0;
        }
        if trace.capped.is_none() && ratio > 1.0 {
            trace.capped = Some(Cap { rows: cand.len(), pivots: 0, why: Stop::Contract(ratio) });
        }
        let qdd = p.accelerations(&lambda);
        let residual = clamped.iter().map(|&k| p.tendency(k, &qdd).abs()).fold(0.0, f64::max);
        KktSolution { qdd, lambda, residual, ..Default::default() }
    }
}
