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
//! Two things make it cheap on a pile:
//! * **warm start**: `C` starts from the inequalities handled at the previous
//!   step (kept by key, [`crate::contacts`]); on a settled pile it is already the
//!   answer, and one round on each island (one factorization of its `A_CC`)
//!   confirms it; with the polish below, each solve factors `A_CC` twice. The
//!   first round accepts it with a slack on the free rows, `a_N ≥ −tol.active/τ²`
//!   ([`SolveContext::warm_slack`]): a hyperstatic pile's previous set misses
//!   rows by round-off-sized tendencies at every step, which are not worth ~80
//!   pivots;
//! * **islands**: the candidates `K` are split wherever `A_ij = 0`; an island is
//!   a connected component of the rows linked by a non-zero `A_ij`, directly or
//!   through other rows ([`crate::schur::SchurGraph::islands`]), and is an
//!   independent problem: an island that has converged is not solved again
//!   while another still pivots.
//!
//! Each block round factors `A_CC` with the sparse envelope Cholesky of
//! [`crate::schur`], regularized by a tiny relative `ε = 1e-10` on the diagonal
//! that keeps dependent rows solvable. The answer is then polished, at every
//! solve: eq. (6) re-solved exactly (no `ε`) on the final clamped set, a second
//! factorization (all the clamped rows at once, equalities included), kept
//! when it is still complementary and its residual is at round-off.
//!
//! The same pivoting solves the impulse problem of an impact
//! ([`crate::impulse`]), with velocities in place of accelerations.

use crate::active_set::{ActiveSet, ActiveSetSolver, SolveContext};
use crate::choice::Algorithm;
use crate::kkt::KktSolution;
use crate::lcp::solve_lcp;
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
        let graph = p.graph(&cand);
        let b = p.rhs(&cand, &p.accelerations(&[]));
        // Warm start: the inequalities handled at the previous step.
        let warm: Vec<bool> = cand.iter().enumerate().map(|(i, &k)| i >= neq && set.handled[k]).collect();
        let lcp = solve_lcp(&graph, &b, neq, &warm, ctx.tol.tendency, ctx.warm_slack);
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
        // keep that answer when it is still complementary.
        let clamped: Vec<usize> = cand.iter().enumerate().filter(|(i, _)| lcp.clamped[*i]).map(|(_, &k)| k).collect();
        let exact = p.solve(&clamped);
        let complementary = cand.iter().enumerate().all(|(i, &k)| {
            if i < neq {
                true
            } else if lcp.clamped[i] {
                exact.lambda[k] >= 0.0
            } else {
                p.tendency(k, &exact.qdd) >= -ctx.tol.tendency.max(ctx.warm_slack)
            }
        });
        if complementary && exact.residual <= 1e-9 * (1.0 + exact.qdd.iter().fold(0.0, |m: f64, v| m.max(v.abs()))) {
            lambda = exact.lambda;
        }
        let qdd = p.accelerations(&lambda);
        let residual = clamped.iter().map(|&k| p.tendency(k, &qdd).abs()).fold(0.0, f64::max);
        KktSolution { qdd, lambda, residual, dependent: Vec::new() }
    }
}
