//! Linear complementarity problems, solved island by island by block principal
//! pivoting (Júdice & Pires 1994), with Dantzig's principal pivoting (Baraff
//! 1994) as the fallback that always ends, and alone on a small cold problem.
//!
//! For the sparse symmetric positive semi-definite `A` of a [`SchurGraph`] (an
//! `A = J M⁻¹ Jᵀ`, see [`crate::kkt`]), a right-hand side `b` and `neq` leading
//! equalities, find `λ` with `a = A λ − b` and
//!
//! ```text
//! equalities   (i < neq):  a_i = 0,                 λ_i free
//! inequalities (i ≥ neq):  a_i ≥ 0,  λ_i ≥ 0,  λ_i a_i = 0
//! ```
//!
//! Two problems of a step have this form: the contact forces of eq. (6), with
//! `a = J q̈ − d` ([`crate::exact`]), and the impulses of an impact, with
//! velocities in place of accelerations ([`crate::impulse`]).
//!
//! Pivoting keeps a clamped set `C` (`a_C = 0`, the handled set `E ∪ F⁺`) and a
//! free set `N` (`λ_N = 0`). Each round solves the clamped rows,
//!
//! ```text
//! A_CC λ_C = b_C,   λ_N = 0,   a_N = A_NC λ_C − b_N
//! ```
//!
//! and looks for infeasible indices: `i ∈ C` with `λ_i < 0` and `i ∈ N` with
//! `a_i < 0`. None: the solution is complementary. Otherwise every infeasible
//! index changes side at once (a block move) while their number decreases; when
//! it stops decreasing for three rounds, one index at a time moves (Murty's
//! rule on the last one). A tiny relative `ε = 1e-10` on each row's diagonal,
//! `A_ii (1 + ε)`, keeps dependent rows solvable (relative to the row, not to
//! the largest `A_ii`: masses spanning decades share one problem).
//!
//! The path depends on the start and the size (`m` rows in all; an island is
//! large above 128 rows, `LARGE_ISLAND`):
//!
//! * an island of at most 128 rows: block moves from the warm (or predicted)
//!   set, at most 40 rounds; when they fail, or cold with `m ≤ 128` (straight
//!   from `C = E`), `C` is shrunk to `λ_C ≥ 0` and Dantzig's principal
//!   pivoting (Baraff 1994) takes over, one index at a time with a ratio test
//!   that keeps `λ_C ≥ 0` and `a_N ≥ 0` all along, which always ends; past
//!   its budget of `64 + m/2` pivots (`BUDGET_PIVOTS`) the interior point
//!   finishes it;
//! * a large island: at most 3 block rounds from the warm or predicted set
//!   (`LARGE_ROUNDS`; warm, they also stop when `λ` explodes: dependent rows
//!   clamped together, 1e7 where the answer is 10), then the interior point;
//!   from a previous answer whose proximal rounds failed, the interior point
//!   straight away (there the block rounds settled 0 of 1344 islands on the
//!   1000-ball landing, 0 of 853 on 300 balls, 14 of 5354 on the heap).
//!
//! **The interior point** ([`crate::ipm`]): Mehrotra's primal–dual method on
//! the island, each iteration one numeric factorization of `A + D` on the
//! island's fixed pattern (faer's sparse Cholesky, analysed once); 15–17
//! iterations, 1.1–1.8 ms on a landing pile's 600-row islands, whatever the
//! degeneracy, where pivoting took hundreds of pivots or block rounds (a
//! 300-ball pile's slowest steps, 1000–1600 rounds each). Then a crossover:
//! the rows it holds (`λ_i A_ii > a_i`) solved as a clamped set, kept when
//! complementary; otherwise its own answer stands, within the contract, and
//! is not refined (a hyperstatic pile's held rows are no basis: on the
//! 1000-ball landing 2 of 1078 such sets became one, and the refinement's
//! step was taken back on 1067, two envelope factorizations each). Every
//! limit counts pivots and rounds, not time, so a replay takes the same path.
//!
//! Every round and every pivot asks `a_i ≥ −tol` of the free rows, `tol` a
//! tenth of the contract's `ε_a` ([`CONTRACT`]: relative to the island's
//! `‖A‖ ‖λ‖ + ‖b‖`, whatever `τ`, `h` or the units), or a caller's absolute
//! floor. A warm start is a starting point, never a tolerance.
//!
//! **From a previous answer** ([`solve_lcp_from`], a time step's start): each
//! island first takes the rows held at `λ⁰` with `λ⁰` itself, corrected by
//! two proximal-point steps on one factorization (`Work::proximal`), and
//! keeps that when it is complementary. A hyperstatic pile at rest has many
//! answers `λ`; the interior point's is positive on every row it holds, and
//! stays so while the load barely changes, where a set's basic answer (what
//! block pivoting solves) has negative entries: the settled 300-ball pile
//! went from the interior point every step to one round (17.9 → 1.9 ms a
//! step, 27 Nov 2026). A thousand balls at rest hold more contacts than
//! coordinates, and their gaps' round-off puts `b_C` off the range of
//! `A_CC` by more than a tenth of the contract: a large island's rounds
//! regularize more (`ρ = 1e-6`), hold within half the contract, and go on
//! while they move few rows (`Work::proximal`; 28 → 5.6 ms a step, 29 Nov
//! 2026).
//!
//! **The finish.** Each island's final clamped set is made a basis when it
//! can be (`Work::basis`: the rows that depend on the others left out, the
//! rest solved exactly, kept when complementary), which is what the next
//! step's warm start needs: a hyperstatic pile's dependent set, whose `b_C`
//! drifts off the range of its singular `A_CC`, sent the next regularized
//! solve to `λ` 1e3 times the answer. Otherwise the answer is refined on its
//! set (`Work::refine`): the regularization leaves `a_C` off by
//! `ε A_ii λ_i`, which two proximal-point steps remove (kept only when they
//! lower the residual and keep `λ_C ≥ 0`), and `a` is then taken with the
//! true `A`.
//!
//! A cold problem of more than 128 rows (an impact on a landing pile, ~850
//! rows, `A` singular on the clamped set: the pile is hyperstatic) starts from
//! a predicted clamped set instead of `E` alone: sweeps of projected
//! Gauss–Seidel on `(A + εI) λ = b` from `λ = 0`, `λ_i > 0` clamped (Morales,
//! Nocedal & Smelyanskiy 2008; Silcowitz, Niebe & Erleben 2010 do the same).
//! A sweep carries an impulse about one contact further, so the sweeps go on
//! (30 to 500) until the predicted set has been still for 10 sweeps (at most
//! one row in 500 changing side).
//!
//! The problem is split wherever `A_ij = 0`: an island is a connected
//! component of the rows linked by a non-zero `A_ij = J_i M⁻¹ J_jᵀ`, directly
//! or through other rows ([`SchurGraph::islands`]): two rows that share only a
//! fixed body, or meet on a ball at right angles, fall apart. Islands are
//! solved each on its own (on every core past [`DETAIL`] rows, `apart`,
//! each island numbered in its rows' order so that its arithmetic, and the
//! answer, do not depend on the thread count): an island that has
//! converged is not solved again while another still pivots. A warm start (`C` given) that is already
//! the answer takes one round on each island, one factorization of its `A_CC`.
//! Each block or shrink round factors the island's `A_CC` anew with the sparse
//! envelope Cholesky of [`crate::schur`]; a Dantzig pivot adds a row at the
//! factor's end or takes one out by a rank-one update ([`Envelope::remove`]).

use rayon::prelude::*;

use crate::ipm;
use crate::schur::{Envelope, PIVOT_TOL, SchurGraph};

/// Above this many rows the rounds keep their moves but not `λ` and `a`, and
/// only the last round its clamped set: a pile of a thousand balls would
/// otherwise store megabytes a step that nobody reads. The trace of a step
/// shows as much ([`crate::trace::Trace::DETAIL`] is this number).
pub const DETAIL: usize = 256;

/// Relative regularization of `A` (see the module docs).
const REGULARIZATION: f64 = 1e-10;
/// Refinement steps of an island's final answer (`Work::refine`).
const REFINE: usize = 2;
/// Rounds of block moves allowed without progress before single moves.
const BLOCK_TRIES: usize = 3;

/// One round of the pivoting: the clamped set it solved and the moves after it
/// (local indices).
#[derive(Clone, Debug, Default)]
pub struct Round {
    /// `C` for this round's solve.
    pub clamped: Vec<usize>,
    /// `(i, a_i)`: free indices with `a_i < 0` that joined `C`.
    pub entered: Vec<(usize, f64)>,
    /// `(i, λ_i)`: clamped inequalities with `λ_i < 0` that left `C`.
    pub left: Vec<(usize, f64)>,
    /// `λ` and `a` after the solve (empty above [`DETAIL`] rows).
    pub lambda: Vec<f64>,
    pub a: Vec<f64>,
}

/// The solution of an LCP with the rounds taken.
#[derive(Clone, Debug)]
pub struct Lcp {
    pub lambda: Vec<f64>,
    /// `a = A λ − b` (with the regularized `A`).
    pub a: Vec<f64>,
    pub clamped: Vec<bool>,
    pub rounds: Vec<Round>,
    /// Stopped without a complementary answer: at the pivot cap, or on
    /// constraints that cannot all hold (`None`: the answer is complementary).
    pub capped: Option<Cap>,
}

/// Where and why a solve stopped short ([`Lcp::capped`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cap {
    /// The rows of the island it stopped on.
    pub rows: usize,
    /// The pivots it took there.
    pub pivots: usize,
    pub why: Stop,
}

/// Why a solve stopped short.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Stop {
    /// Dantzig's pivots reached their cap (`PIVOTS_PER_ROW` a row).
    Pivots,
    /// A row could not be driven to `a = 0`: nothing blocks and `a` cannot rise.
    Infeasible,
    /// The interior point that finishes an island past its pivot budget did
    /// not converge in this many iterations ([`crate::ipm::MAX_ITER`]).
    Interior(usize),
    /// The answer misses the contract ([`contract_ratio`]) by this factor.
    Contract(f64),
    /// With friction: neither pivoting nor Lemke's method found a
    /// complementary answer on an island with no sliding contact; the step
    /// took the island's frictionless answer ([`crate::friction`]).
    Friction,
    /// The problem couples this many pairs of rows through a shared
    /// coordinate, past what a step factors ([`MAX_COUPLING`]): not solved.
    TooLarge(usize),
    /// With friction at the velocity level: the fixed point of
    /// [`crate::cone_fixed_point`] did not meet its contract in
    /// [`Cap::pivots`] evaluations; the least ratio it reached.
    FixedPoint(f64),
}

/// The most pairs of rows sharing a coordinate (`Σ_d n_d²`, `n_d` the rows
/// on coordinate `d`) a velocity problem is solved with: a 1000-ball pile
/// has 7e4, a 210-box pyramid 1e5. A step of a second on a pyramid of boxes
/// sweeps every corner past every edge (85,000 rows, 3e8 pairs): its
/// factorization would take minutes and gigabytes, so the step says so.
pub const MAX_COUPLING: usize = 20_000_000;

impl Cap {
    /// What happened, in a sentence (the trace, the step's status).
    pub fn sentence(&self) -> String {
        let (rows, pivots) = (self.rows, self.pivots);
        match self.why {
            Stop::Pivots => format!(
                "the exact solver stopped at its cap of {pivots} pivots on an island of {rows} rows: no complementary \
                 answer"
            ),
            Stop::Infeasible => format!(
                "the exact solver found constraints that cannot all hold on an island of {rows} rows (after {pivots} \
                 pivots): no complementary answer"
            ),
            Stop::Interior(iterations) => format!(
                "the exact solver's interior point did not converge in {iterations} iterations on an island of \
                 {rows} rows (after {pivots} pivots): no complementary answer"
            ),
            Stop::Contract(ratio) => format!(
                "the exact answer on {rows} rows misses its contract (λ ≥ −ε_λ, a ≥ −ε_a, |λ a| ≤ ε_c) by a factor \
                 of {ratio:.1}"
            ),
            Stop::TooLarge(pairs) => format!(
                "the problem's {rows} rows share coordinates in {pairs} pairs, past the {MAX_COUPLING} a step \
                 factors (a step far longer than the scene's motions sweeps every body past every other): the step \
                 was not solved"
            ),
            Stop::FixedPoint(ratio) => format!(
                "Coulomb's fixed point on {rows} cone edges did not meet its contract in {pivots} frictionless \
                 solves (the nearest missed it by a factor of {ratio:.1})"
            ),
            Stop::Friction => format!(
                "no answer with Coulomb friction on an island of {rows} contacts (Lemke's method ended on a ray): \
                 the step took its frictionless answer"
            ),
        }
    }
}

/// The contract's relative accuracy: every answer has `λ_i ≥ −ε_λ` and
/// `a_i ≥ −ε_a` on the inequalities, `|a_i| ≤ ε_a` on the equalities and
/// `|λ_i a_i| ≤ ε_c`, with, on each island,
///
/// ```text
/// ε_a = CONTRACT (min(‖A‖ ‖λ‖, SELF_STRESS ‖b‖) + ‖b‖),   ε_λ = ε_a / ‖A‖,   ε_c = ε_a ‖λ‖ + ε_λ ‖a‖
/// ```
///
/// (`‖A‖` the largest row sum of `|A_ij|`, the others largest entries): a
/// multiple of the machine's `ε = 2.2e-16` (4.5e6 ε) of the island's own
/// scale, whatever `τ`, `h` or the units. The pivoting works to a tenth of it.
///
/// The scale is the data's, `A` and `b`: the answer's own `‖λ‖` counts only
/// up to [`SELF_STRESS`] `‖b‖ / ‖A‖`. Targets that no `λ ≥ 0` meets (a box
/// overlapping two opposite walls, each row asked to push it out) solved
/// through the regularization give a self-stress `λ ~ ‖b‖ / (ε ‖A‖)`, 1e10
/// times the data, whose `a_i ≈ −b_i` a tolerance `1e-9 ‖A‖ ‖λ‖` accepted
/// (issue 36, finding 7): they miss this contract, and [`crate::exact`]
/// reports them as conflicting targets.
pub const CONTRACT: f64 = 1e-9;

/// How far past `‖b‖` the answer's `‖A‖ ‖λ‖` may scale the contract
/// ([`CONTRACT`]): 10³, a mass ratio of a thousand across one island.
/// Beyond, the tolerance stays `1e-6 ‖b‖`, which an answer solved to the
/// machine's precision still meets up to a ratio of 1e9.
pub const SELF_STRESS: f64 = 1e3;

/// How far `λ` is from the contract ([`CONTRACT`]), as a multiple of its
/// tolerances (at most 1: it holds), island by island.
pub fn contract_ratio(graph: &SchurGraph, b: &[f64], neq: usize, lambda: &[f64]) -> f64 {
    contract_ratio_above(graph, b, neq, lambda, 0.0)
}

/// [`contract_ratio`] with `ε_a` at least `floor` (an absolute speed, the
/// caller's units): a problem whose data are all round-off (a disc wedged
/// at rest in a corner, `b` at 1e-13 m/s) is held to its own round-off
/// otherwise, which no answer meets.
pub fn contract_ratio_above(graph: &SchurGraph, b: &[f64], neq: usize, lambda: &[f64], floor: f64) -> f64 {
    ratios(graph, b, neq, lambda, floor).1.into_iter().fold(0.0, f64::max)
}

/// [`contract_ratio`] island by island: each row's island
/// ([`SchurGraph::islands`]) and each island's ratio.
pub fn island_ratios(graph: &SchurGraph, b: &[f64], neq: usize, lambda: &[f64]) -> (Vec<usize>, Vec<f64>) {
    ratios(graph, b, neq, lambda, 0.0)
}

fn ratios(graph: &SchurGraph, b: &[f64], neq: usize, lambda: &[f64], floor: f64) -> (Vec<usize>, Vec<f64>) {
    let a: Vec<f64> = graph.mul(lambda).iter().zip(b).map(|(x, y)| x - y).collect();
    let island = graph.islands();
    let n = island.iter().map(|i| i + 1).max().unwrap_or(0);
    // Per island: ‖A‖, ‖b‖, ‖λ‖, ‖a‖.
    let mut norms = vec![[0.0_f64; 4]; n];
    for i in 0..b.len() {
        let row = graph.diag[i].abs() + graph.adj[i].iter().map(|(_, v)| v.abs()).sum::<f64>();
        let x = &mut norms[island[i]];
        for (k, v) in [row, b[i].abs(), lambda[i].abs(), a[i].abs()].into_iter().enumerate() {
            x[k] = x[k].max(v);
        }
    }
    let mut worst = vec![0.0_f64; n];
    for i in 0..b.len() {
        let [an, bn, ln, aa] = norms[island[i]];
        let ea = (CONTRACT * ((an * ln).min(SELF_STRESS * bn) + bn)).max(floor).max(f64::MIN_POSITIVE);
        let el = ea / an.max(f64::MIN_POSITIVE);
        let ec = ea * ln + el * aa;
        let r = if i < neq {
            a[i].abs() / ea
        } else {
            (-lambda[i] / el).max(-a[i] / ea).max((lambda[i] * a[i]).abs() / ec.max(f64::MIN_POSITIVE))
        };
        let w = &mut worst[island[i]];
        *w = w.max(if r.is_nan() { f64::INFINITY } else { r });
    }
    (island, worst)
}

/// Targets that no `λ ≥ 0` meets, taken off where no force meets them
/// ([`least_squares`]).
#[derive(Clone, Debug)]
pub struct Conflict {
    /// The answer on the targets that can be met.
    pub lcp: Lcp,
    /// Those targets: `b` less the part no force meets.
    pub targets: Vec<f64>,
    /// The rows whose targets moved (local indices), and by how much at most.
    pub rows: Vec<usize>,
    pub worst: f64,
}

/// Rounds and relative shift of the least-`λ` iteration
/// ([`SchurGraph::least_with_force`]), as [`crate::kkt`]'s.
const LEAST_ROUNDS: usize = 3;
const LEAST_SHIFT: f64 = 1e-8;
/// Below this fraction of the largest target, a target met is round-off.
const ROUND_OFF: f64 = 1e-12;

/// Conflicting targets (issue 36, finding 7). When the answer `lambda`
/// (clamped on `clamped`) misses the contract ([`CONTRACT`]) because the
/// targets `b` of the rows it holds or violates, `S`, have a part off the
/// range of `A_SS` (a box overlapping two opposite walls: each row asks to
/// push it out, and no force does both), the regularized solve has put
/// `b_N / ε` into a self-stress that pushes on nothing. That part is taken
/// off: `b_N = b_S − A_SS x` with `x` the least-squares answer of
/// `A_SS x = b_S` (the regularized solve, then the least `λ` with its force,
/// [`SchurGraph::least_with_force`]: in the metric `diag(A)`), so
/// `A_SS b_N = 0`: no force could have met any of it. The problem is solved
/// again on the targets that are left, and that answer returned when it
/// meets the contract on them (`None`: the answer holds, or what it misses
/// is not a conflict of targets).
pub fn least_squares(graph: &SchurGraph, b: &[f64], neq: usize, lambda: &[f64], clamped: &[bool]) -> Option<Conflict> {
    if contract_ratio(graph, b, neq, lambda) <= 1.0 {
        return None;
    }
    let force = graph.mul(lambda);
    let floor = CONTRACT * b.iter().fold(0.0_f64, |m, x| m.max(x.abs()));
    let set: Vec<usize> = (0..b.len()).filter(|&i| i < neq || clamped[i] || force[i] - b[i] < -floor).collect();
    if set.is_empty() {
        return None;
    }
    let g = graph.restrict(&set);
    let bs: Vec<f64> = set.iter().map(|&i| b[i]).collect();
    let x = g.least_with_force(&g.solve_regularized(&bs, REGULARIZATION), LEAST_SHIFT, LEAST_ROUNDS);
    // What a force meets, to the round-off of `b` (a symmetric squeeze
    // meets nothing: 1e-19 where `b` is 5e-6 is 0).
    let noise = ROUND_OFF * bs.iter().fold(0.0_f64, |m, x| m.max(x.abs()));
    let met = g.mul(&x);
    let mut targets = b.to_vec();
    for (l, &i) in set.iter().enumerate() {
        targets[i] = if met[l].abs() > noise { met[l] } else { 0.0 };
    }
    let warm: Vec<bool> = (0..b.len()).map(|i| i >= neq && set.contains(&i)).collect();
    let lcp = solve_lcp(graph, &targets, neq, &warm, 0.0);
    if lcp.capped.is_some() || contract_ratio(graph, &targets, neq, &lcp.lambda) > 1.0 {
        return None;
    }
    let miss: Vec<f64> = set.iter().map(|&i| (targets[i] - b[i]).abs()).collect();
    let worst = miss.iter().copied().fold(0.0, f64::max);
    let rows = set.iter().zip(&miss).filter(|(_, m)| **m > 1e-3 * worst).map(|(&i, _)| i).collect();
    Some(Conflict { lcp, targets, rows, worst })
}

/// Dantzig's pivots on an island of `m` rows: at most `PIVOTS_PER_ROW m + 20`.
const PIVOTS_PER_ROW: usize = 20;
/// Dantzig's pivots on an island of `m` rows before the interior point
/// finishes it: `BUDGET_PIVOTS + m / BUDGET_ROWS_PER_PIVOT`. Counted, not
/// timed, so a replay takes the same path bit for bit.
const BUDGET_PIVOTS: usize = 64;
const BUDGET_ROWS_PER_PIVOT: usize = 2;

/// Solves `a = A λ − b`, `a_i = 0` for `i < neq` (λ free), and for `i ≥ neq`
/// `a_i ≥ 0, λ_i ≥ 0, λ_i a_i = 0`, for the sparse symmetric PSD `A` of `graph`.
/// `warm[i]`: start with inequality `i` clamped.
/// A warm (or, above 128 rows, predicted) start is accepted as it is
/// when no clamped `λ` is negative and no free `a_i` is below `−tol`, with
/// `tol` the larger of the one given (an absolute floor, 0 for none) and a
/// tenth of the contract's `ε_a` on the island ([`CONTRACT`]).
pub fn solve_lcp(graph: &SchurGraph, b: &[f64], neq: usize, warm: &[bool], tol: f64) -> Lcp {
    solve(graph, b, neq, warm, None, tol, PREDICT_ROWS, Limits::default())
}

/// [`solve_lcp`] from a previous answer `λ⁰` (a time step's impulses, the
/// rows it held `λ⁰_i > 0`): on each island, first the rows held at `λ⁰`
/// corrected by proximal-point steps (`Work::proximal`), kept when that is
/// complementary; otherwise the rows held are the warm set of [`solve_lcp`].
pub fn solve_lcp_from(graph: &SchurGraph, b: &[f64], neq: usize, start: &[f64], tol: f64) -> Lcp {
    solve_from(graph, b, neq, start, tol, Limits::default())
}

fn solve_from(graph: &SchurGraph, b: &[f64], neq: usize, start: &[f64], tol: f64, limits: Limits) -> Lcp {
    let warm: Vec<bool> = start.iter().map(|l| *l > 0.0).collect();
    let start = warm.iter().any(|w| *w).then_some(start);
    solve(graph, b, neq, &warm, start, tol, PREDICT_ROWS, limits)
}

/// [`solve_lcp_from`] where `λ⁰` is the last time step's answer, which may be
/// the interior point's own (positive on rows it does not hold, a hair above
/// 0): on a large island whose proximal rounds from `λ⁰` fail, they are tried
/// once more from `λ⁰` with its rows below `THIN` of the island's largest
/// impulse set to 0 (not held), before the interior point runs again. Without
/// it a heap of 90 discs whose last landing step ended on the interior
/// point's answer held every row in each resting step's warm set, whose
/// proximal rounds then failed, and the interior point ran at every step
/// (2.7 ms a step at rest, against 1.1–1.2 ms with it). Only the first solve
/// of a step: within the friction fixed point, whose starts are its own last
/// evaluation, the same retry sent a 300-ball pile at μ = 0.35 through a
/// 34 s step.
pub fn solve_lcp_from_step(graph: &SchurGraph, b: &[f64], neq: usize, start: &[f64], tol: f64) -> Lcp {
    solve_from(graph, b, neq, start, tol, Limits { thin: true, ..Limits::default() })
}

/// The rows of a last step's answer taken as not held, relative to the
/// island's largest impulse ([`solve_lcp_from_step`]).
const THIN: f64 = 1e-6;

/// How far a solve goes on an island: Dantzig's pivots' cap where it stops
/// short, and the budget past which the interior point finishes it (`None`:
/// the defaults, `PIVOTS_PER_ROW` and `BUDGET_PIVOTS`; tests lower them);
/// whether a failed start is tried again thinned ([`solve_lcp_from_step`]).
#[derive(Clone, Copy, Debug, Default)]
struct Limits {
    cap: Option<usize>,
    budget: Option<usize>,
    thin: bool,
}

/// [`solve_lcp`], predicting the clamped set of cold problems above
/// `predict_rows`, with Dantzig's pivots limited by `limits` on an island.
#[allow(clippy::too_many_arguments)]
fn solve(
    graph: &SchurGraph,
    b: &[f64],
    neq: usize,
    warm: &[bool],
    start: Option<&[f64]>,
    tol: f64,
    predict_rows: usize,
    limits: Limits,
) -> Lcp {
    let m = b.len();
    let eps = REGULARIZATION;
    let island = graph.islands();
    let nislands = island.iter().map(|i| i + 1).max().unwrap_or(0);
    let mut members: Vec<Vec<usize>> = vec![Vec::new(); nislands];
    for i in 0..m {
        members[island[i]].push(i);
    }
    // Each island's rows in an order that keeps the factor's envelope narrow.
    let members: Vec<Vec<usize>> = members.iter().map(|idx| graph.ordering(idx)).collect();
    let mut lp = Lcp {
        lambda: vec![0.0; m],
        a: b.iter().map(|v| -v).collect(),
        clamped: (0..m).map(|i| i < neq || warm.get(i).copied().unwrap_or(false)).collect(),
        rounds: Vec::new(),
        capped: None,
    };
    let mut cold = !warm.iter().any(|w| *w);
    let warm_given = !cold;
    if cold && m > predict_rows {
        // A large cold problem (an impact on a landing pile): a few projected
        // Gauss–Seidel sweeps predict the clamped set, block pivoting finishes.
        let predicted = predict(graph, b, neq, eps);
        for (c, l) in lp.clamped.iter_mut().zip(&predicted).skip(neq) {
            *c = *l > 0.0;
        }
        cold = false;
    }
    if nislands > 1 && m > DETAIL {
        apart(graph, b, neq, &members, &mut lp, start, tol, limits, cold, warm_given);
    } else {
        let mut work = Work {
            graph,
            b,
            neq,
            eps,
            tol,
            norms: (0.0, 0.0),
            da: vec![0.0; m],
            limits,
            detail: m <= DETAIL,
            interior_stands: false,
        };
        for idx in &members {
            work.solve_island(&mut lp, idx, start, cold, warm_given);
        }
    }
    for i in neq..m {
        // Round-off may leave a tiny negative λ on an inequality: it is 0. A
        // NaN stays one (`f64::max` would make it 0): the step's finiteness
        // check must see it.
        if lp.lambda[i] < 0.0 {
            lp.lambda[i] = 0.0;
        }
    }
    if let Some(last) = lp.rounds.last_mut().filter(|_| m > DETAIL) {
        last.clamped = (0..m).filter(|&i| lp.clamped[i]).collect();
    }
    lp
}

/// The islands `members` (each in its factor's order) solved apart, on
/// every core: each island's rows numbered `0..k` in their original order
/// (so its arithmetic is the one [`Work::solve_island`] does on the whole
/// problem: the same sums in the same order, the same factor order), its
/// answer put back, its rounds and any cap gathered in the islands' order.
/// The answer does not depend on the number of threads.
#[allow(clippy::too_many_arguments)]
fn apart(
    graph: &SchurGraph,
    b: &[f64],
    neq: usize,
    members: &[Vec<usize>],
    lp: &mut Lcp,
    start: Option<&[f64]>,
    tol: f64,
    limits: Limits,
    cold: bool,
    warm_given: bool,
) {
    // Each row's number within its island, rows in their original order.
    let mut local = vec![0usize; b.len()];
    let sorted: Vec<Vec<usize>> = members
        .iter()
        .map(|idx| {
            let mut set = idx.clone();
            set.sort_unstable();
            for (l, &i) in set.iter().enumerate() {
                local[i] = l;
            }
            set
        })
        .collect();
    let whole = &*lp;
    let solved: Vec<Lcp> = members
        .par_iter()
        .zip(&sorted)
        .with_min_len(8)
        .map(|(idx, set)| {
            let sub = SchurGraph {
                diag: set.iter().map(|&i| graph.diag[i]).collect(),
                adj: set.iter().map(|&i| graph.adj[i].iter().map(|(j, v)| (local[*j], *v)).collect()).collect(),
            };
            let pick = |x: &[f64]| -> Vec<f64> { set.iter().map(|&i| x[i]).collect() };
            let sb = pick(b);
            let sstart = start.map(pick);
            let mut part = Lcp {
                lambda: pick(&whole.lambda),
                a: pick(&whole.a),
                clamped: set.iter().map(|&i| whole.clamped[i]).collect(),
                rounds: Vec::new(),
                capped: None,
            };
            let k = set.len();
            let sneq = set.iter().take_while(|&&i| i < neq).count();
            let mut work = Work {
                graph: &sub,
                b: &sb,
                neq: sneq,
                eps: REGULARIZATION,
                tol,
                norms: (0.0, 0.0),
                da: vec![0.0; k],
                limits,
                detail: false,
                interior_stands: false,
            };
            let order: Vec<usize> = idx.iter().map(|&i| local[i]).collect();
            work.solve_island(&mut part, &order, sstart.as_deref(), cold, warm_given);
            part
        })
        .collect();
    for (set, part) in sorted.iter().zip(solved) {
        for (l, &i) in set.iter().enumerate() {
            lp.lambda[i] = part.lambda[l];
            lp.a[i] = part.a[l];
            lp.clamped[i] = part.clamped[l];
        }
        let global =
            |moves: Vec<(usize, f64)>| -> Vec<(usize, f64)> { moves.into_iter().map(|(l, v)| (set[l], v)).collect() };
        for r in part.rounds {
            lp.rounds.push(Round { entered: global(r.entered), left: global(r.left), ..r });
        }
        if part.capped.is_some() {
            lp.capped = part.capped;
        }
    }
}

/// Rounds of block moves tried on an island before falling back to single pivots.
const BLOCK_ROUNDS: usize = 40;
/// The same on a large island (more than `LARGE_ISLAND` rows), warm or
/// predicted, before the interior point finishes it. Its block moves find a
/// set near the answer when one is (a settled pile: one round); past that
/// they clamp dependent rows together, and each round is a factorization of
/// the island. The interior point on faer's Cholesky takes 15–17 iterations
/// there, 1.1–1.8 ms on 600 rows. A 300-ball pile's first 1.5 s (release,
/// median / worst a step): 40 block rounds then Dantzig's pivoting to its
/// budget, 25 / 205 ms (1000–1600 rounds in its slowest steps); 3 block
/// rounds then the interior point, 13 / 312 ms; 1 round, 64 / 311 ms.
const LARGE_ROUNDS: usize = 3;
/// A settling island's block moves stop when `λ` grows this many times past
/// the warm round's: dependent rows were clamped together.
const EXPLOSION: f64 = 1e3;

/// Rounds of proximal steps from a previous answer ([`solve_lcp_from`]), each
/// one factorization, before the warm set's block rounds take over.
const PROXIMAL_ROUNDS: usize = 4;
/// A proximal round that moves more than one in this many of its clamped rows
/// gives up at once ([`Work::proximal`]): a 1000-ball column still
/// compressing sent 1100–1400 of 2250 negative in the first round, and its
/// block moves oscillated through all 4 rounds (91.6 → 59.6 ms a step at
/// t = 1.2 s); a settling 290-ball pile moves fewer, and converges. One in 8
/// was too few for it (2.3 → 10.6 ms a step).
const PROXIMAL_MOVES: usize = 3;
/// On a large island, the proximal rounds go on past [`PROXIMAL_ROUNDS`], up
/// to this many, while each moves at most one in [`PROXIMAL_LATE_MOVES`] of
/// its clamped rows: a 1000-ball pile at rest needs 5–7 rounds of a few
/// rows each to shed the contacts its gaps' round-off leaves open.
const PROXIMAL_LATE_ROUNDS: usize = 16;
const PROXIMAL_LATE_MOVES: usize = 64;
/// A large island's proximal steps regularize with `ρ A_ii` instead of
/// `ε A_ii` ([`REGULARIZATION`]), and take up to [`PROXIMAL_STEPS`] of them
/// on the factor: a pile of a thousand balls at rest holds 2280 contacts on
/// 2000 coordinates, and its targets (gaps of 1e-12 m over a step) leave
/// `b_C` off the range of `A_CC` by 5e-9 m/s, which `1/ε` turned into
/// impulses 10 times the answer's and hundreds of rows negative, every step.
const PROXIMAL_REGULARIZATION: f64 = 1e-6;
const PROXIMAL_STEPS: usize = 4;
/// A large island's proximal answer holds where `|a_C|` is within this
/// many times the solver's tolerance (a tenth of the contract): that same
/// 5e-9 m/s is 1.5 of it, and only shedding the right contacts (the
/// rounds) brings it to 1e-10.
const PROXIMAL_HOLD: f64 = 5.0;
/// Above this many rows a cold problem starts from a predicted clamped set.
const PREDICT_ROWS: usize = 128;
/// Above this many rows an island is large: a few block rounds, then the
/// interior point (see the module docs).
const LARGE_ISLAND: usize = 128;
/// Projected Gauss–Seidel sweeps of the prediction: at least the first, at
/// most the second; in between it stops when the predicted clamped set has
/// not changed for [`PREDICT_STILL`] sweeps.
const PREDICT_SWEEPS: (usize, usize) = (30, 500);
const PREDICT_STILL: usize = 10;
/// A sweep is still when at most one row in this many changed side.
const PREDICT_QUIET: usize = 500;

/// The clamped rows of an island.
fn clamped_count(lp: &Lcp, idx: &[usize]) -> usize {
    idx.iter().filter(|&&i| lp.clamped[i]).count()
}

/// Projected Gauss–Seidel on `(A + εI) λ = b`, `λ_i ≥ 0` for `i ≥ neq`, from
/// `λ = 0`, `O(nnz(A))` a sweep. A sweep carries an impulse one contact
/// further, so a tall stack needs about as many sweeps as it has layers (a
/// 1000-ball column, 125): the sweeps go on while the set `λ_i > 0` changes
/// ([`PREDICT_SWEEPS`]).
fn predict(graph: &SchurGraph, b: &[f64], neq: usize, eps: f64) -> Vec<f64> {
    let m = b.len();
    let mut lambda = vec![0.0; m];
    let mut still = 0;
    for sweep in 0..PREDICT_SWEEPS.1 {
        let mut flips = 0;
        for i in 0..m {
            let d = graph.diag[i] * (1.0 + eps);
            if d <= 0.0 {
                continue;
            }
            let r = b[i] - graph.adj[i].iter().map(|(j, v)| v * lambda[*j]).sum::<f64>();
            let l = r / d;
            let next = if i >= neq { l.max(0.0) } else { l };
            flips += usize::from((next > 0.0) != (lambda[i] > 0.0));
            lambda[i] = next;
        }
        // A few rows flipping back and forth do not keep it going.
        still = if flips * PREDICT_QUIET > m { 0 } else { still + 1 };
        if sweep + 1 >= PREDICT_SWEEPS.0 && still >= PREDICT_STILL {
            break;
        }
    }
    lambda
}

/// What the pivoting of one LCP shares across islands.
struct Work<'a> {
    graph: &'a SchurGraph,
    b: &'a [f64],
    neq: usize,
    eps: f64,
    /// The tolerance's absolute floor on `a_N` (see [`solve_lcp`]).
    tol: f64,
    /// `(‖A‖, ‖b‖)` on the island being solved (set by [`Work::island`]).
    norms: (f64, f64),
    /// Scratch for `Δa`.
    da: Vec<f64>,
    limits: Limits,
    /// The trace keeps each round's `λ`, `a` and `C` (at most [`DETAIL`]
    /// rows in the whole problem).
    detail: bool,
    /// The island's answer is the interior point's own, its crossover not
    /// complementary ([`Work::interior`]): not refined.
    interior_stands: bool,
}

impl Work<'_> {
    /// One island `idx` (in its factor's order): from `start` by proximal
    /// steps; else, a large island given a start straight to the interior
    /// point, any other block moves from the warm or predicted set (a large
    /// warm one stopped when `λ` explodes), then the interior point (large)
    /// or Dantzig's pivoting (small); refined where the solve has not
    /// stopped short and the answer is not the interior point's own.
    fn solve_island(&mut self, lp: &mut Lcp, idx: &[usize], start: Option<&[f64]>, cold: bool, warm_given: bool) {
        self.island(idx);
        self.interior_stands = false;
        if let Some(start) = start
            && self.proximal(lp, idx, start)
        {
            return;
        }
        let large = idx.len() > LARGE_ISLAND;
        if large
            && self.limits.thin
            && let Some(start) = start
            && self.thinned(lp, idx, start)
        {
            return;
        }
        // A large island whose proximal rounds from the last answer failed
        // goes straight to the interior point: the block rounds from the warm
        // set then settled 0 of 1344 such islands on the 1000-ball landing,
        // 0 of 853 on 300 balls, 14 of 5354 on the heap, three envelope
        // factorizations each.
        if cold || (large && start.is_some()) || !self.block(lp, idx, large && warm_given) {
            if large {
                // Block rounds from the warm or predicted set did not settle
                // it, or the proximal rounds from the last answer failed: the
                // interior point (see the module docs).
                self.interior(lp, idx, 0, false);
            } else {
                // Shrink C until every λ_C ≥ 0 (a feasible start), then pivot
                // one index at a time, which always ends (or the budget).
                self.shrink(lp, idx);
                self.dantzig(lp, idx);
            }
        }
        if lp.capped.is_none() && !self.interior_stands {
            self.refine(lp, idx);
        }
    }

    /// [`Work::proximal`] from `start` without its rows below [`THIN`] of the
    /// island's largest (not held), where it has any such row above 0
    /// ([`solve_lcp_from_step`]); `C` back at `start`'s rows where it fails.
    fn thinned(&mut self, lp: &mut Lcp, idx: &[usize], start: &[f64]) -> bool {
        let cut = THIN * idx.iter().map(|&i| start[i]).fold(0.0, f64::max);
        if !idx.iter().any(|&i| i >= self.neq && start[i] > 0.0 && start[i] <= cut) {
            return false;
        }
        let mut thin = start.to_vec();
        for &i in idx {
            if i >= self.neq && thin[i] <= cut {
                thin[i] = 0.0;
            }
            lp.clamped[i] = i < self.neq || thin[i] > 0.0;
        }
        if self.proximal(lp, idx, &thin) {
            return true;
        }
        for &i in idx {
            lp.clamped[i] = i < self.neq || start[i] > 0.0;
        }
        false
    }

    /// Takes the island's norms for [`Work::tol`].
    fn island(&mut self, idx: &[usize]) {
        let g = self.graph;
        let an = idx
            .iter()
            .map(|&i| g.diag[i].abs() + g.adj[i].iter().map(|(_, v)| v.abs()).sum::<f64>())
            .fold(0.0, f64::max);
        self.norms = (an, idx.iter().map(|&i| self.b[i].abs()).fold(0.0, f64::max));
    }

    /// The tolerance on a free row's `a_i` at the current `λ`: a tenth of the
    /// contract's `ε_a` ([`CONTRACT`]), or the floor given.
    fn tol(&self, lp: &Lcp, idx: &[usize]) -> f64 {
        let lmax = idx.iter().map(|&i| lp.lambda[i].abs()).fold(0.0, f64::max);
        let (an, bn) = self.norms;
        self.tol.max(0.1 * CONTRACT * (an * lmax + bn))
    }

    /// Factors `A_CC + εI` on the island's clamped rows, in the island's order. Rows
    /// that cannot be factored (a zero row) leave `C`.
    fn factor(&self, lp: &mut Lcp, idx: &[usize]) -> Envelope {
        self.factor_with(lp, idx, self.eps)
    }

    /// [`Work::factor`] regularized by `eps A_ii`.
    fn factor_with(&self, lp: &mut Lcp, idx: &[usize], eps: f64) -> Envelope {
        let mut f = Envelope::new(lp.lambda.len(), eps);
        self.push_clamped(&mut f, lp, idx);
        f
    }

    /// Appends the clamped rows of `idx` to `f` in order; a row that depends
    /// on those taken is unclamped.
    fn push_clamped(&self, f: &mut Envelope, lp: &mut Lcp, idx: &[usize]) {
        for &i in idx {
            if lp.clamped[i] && !f.push(self.graph, i, 0.0) {
                lp.clamped[i] = false;
            }
        }
    }

    /// `λ_C = A_CC⁻¹ b_C`, `λ_N = 0`, `a = A λ − b` on the island.
    fn solve_clamped(&self, lp: &mut Lcp, idx: &[usize]) {
        let f = self.factor(lp, idx);
        let x = f.solve(&f.order.iter().map(|&i| self.b[i]).collect::<Vec<_>>());
        for &i in idx {
            lp.lambda[i] = 0.0;
        }
        for (p, &i) in f.order.iter().enumerate() {
            lp.lambda[i] = x[p];
        }
        let g = self.graph;
        for &i in idx {
            lp.a[i] = g.diag[i] * (1.0 + self.eps) * lp.lambda[i]
                + g.adj[i].iter().map(|(j, v)| v * lp.lambda[*j]).sum::<f64>()
                - self.b[i];
        }
    }

    /// One proximal-point step on the clamped rows factored in `f`
    /// (`A_CC (1 + ε)`): `λ_C ← λ_C + (A_CC (1 + ε))⁻¹ (b_C − A_C λ)`, the
    /// residual taken with the true `A`.
    fn correct(&self, f: &Envelope, lambda: &mut [f64]) {
        let r: Vec<f64> = f.order.iter().map(|&i| self.b[i] - self.graph.row(i, lambda)).collect();
        let dx = f.solve(&r);
        for (p, &i) in f.order.iter().enumerate() {
            lambda[i] += dx[p];
        }
    }

    /// From a previous answer `λ⁰` on its rows held (`C`, the warm set):
    /// `λ_C ← λ_C + (A_CC (1 + ε))⁻¹ (b_C − A_C λ)` twice from `λ⁰_C`, one
    /// factorization. For a singular, consistent `A_CC` (a hyperstatic pile
    /// at rest: `b_C` is `J_C` times a velocity, less gaps at round-off) this
    /// goes to the answer nearest `λ⁰`, so an interior `λ⁰` (the interior
    /// point's, positive on every held row) stays positive while the pile
    /// barely moves, where the basic answer of a set (pivoting's) has
    /// negative entries on a hyperstatic set's noise. Kept when complementary
    /// (`λ_C ≥ 0`, `|a_C| ≤ tol`, `a_N ≥ −tol`). Otherwise the rows with
    /// `λ_i < 0` leave `C` (at `λ_i = 0`), those with `a_i < −tol` join it,
    /// and the same steps go on from there, at most [`PROXIMAL_ROUNDS`]
    /// times (a pile creeping: a contact opens or closes). When that does not
    /// end, or `C` cannot hold (`|a_C| > tol` at `λ_C ≥ 0`), `λ` is left at 0
    /// on the island, `C` at the warm set, and false is returned.
    ///
    /// A large island (more than [`LARGE_ISLAND`] rows) whose `b_C` is off
    /// the range of a singular `A_CC` (a pile at rest, its gaps' round-off)
    /// takes up to [`PROXIMAL_STEPS`] steps regularized by
    /// [`PROXIMAL_REGULARIZATION`], holds within [`PROXIMAL_HOLD`] times
    /// `tol`, and goes on for up to [`PROXIMAL_LATE_ROUNDS`] rounds while
    /// they move few rows: the settled 1000-ball pile went from the interior
    /// point every step (28 ms) to one or two factorizations (a median of
    /// 6.4 ms, release, 29 Nov 2026).
    fn proximal(&mut self, lp: &mut Lcp, idx: &[usize], start: &[f64]) -> bool {
        let g = self.graph;
        let large = idx.len() > LARGE_ISLAND;
        let (rho, steps, hold, rounds) = if large {
            (PROXIMAL_REGULARIZATION, PROXIMAL_STEPS, PROXIMAL_HOLD, PROXIMAL_LATE_ROUNDS)
        } else {
            (self.eps, REFINE, 1.0, PROXIMAL_ROUNDS)
        };
        for &i in idx {
            lp.lambda[i] = if lp.clamped[i] { start[i] } else { 0.0 };
        }
        let worst_clamped =
            |lp: &Lcp| idx.iter().filter(|&&i| lp.clamped[i]).map(|&i| lp.a[i].abs()).fold(0.0, f64::max);
        // The last round's factor and its rows (the clamped set it left):
        // the next factors again only from the first row of `idx` whose
        // side changed (a row depends only on those before it, so this is
        // bit for bit a fresh factorization; a standing 55-box pyramid at
        // μ = 0.3 sheds an edge at −1e-8 in two steps of three).
        let mut last: Option<(Envelope, Vec<bool>)> = None;
        for round in 0..rounds {
            let f = match last.take() {
                None => self.factor_with(lp, idx, rho),
                Some((mut f, had)) => {
                    let k = idx.iter().zip(&had).position(|(&i, h)| lp.clamped[i] != *h).unwrap_or(idx.len());
                    f.truncate(had[..k].iter().filter(|h| **h).count());
                    self.push_clamped(&mut f, lp, &idx[k..]);
                    f
                }
            };
            // The island's sides the factor holds, in `idx`'s order.
            let had: Vec<bool> = idx.iter().map(|&i| lp.clamped[i]).collect();
            for &i in idx {
                if !lp.clamped[i] {
                    lp.lambda[i] = 0.0;
                }
            }
            // The steps `REFINE` at least, then while `|a_C|` is over half
            // the tolerance.
            let mut tol = 0.0;
            for k in 0..steps {
                self.correct(&f, &mut lp.lambda);
                if k + 1 >= REFINE {
                    for &i in idx {
                        lp.a[i] = g.row(i, &lp.lambda) - self.b[i];
                    }
                    tol = self.tol(lp, idx);
                    if worst_clamped(lp) <= 0.5 * tol {
                        break;
                    }
                }
            }
            let scale = idx.iter().map(|&i| lp.lambda[i].abs()).fold(0.0, f64::max);
            let clamped = self.clamped_list(lp);
            let (mut entered, mut left, mut holds) = (Vec::new(), Vec::new(), true);
            for &i in idx {
                let (l, a) = (lp.lambda[i], lp.a[i]);
                if i < self.neq {
                    holds &= a.abs() <= hold * tol;
                } else if lp.clamped[i] {
                    if l < -1e-12 * scale {
                        left.push((i, l));
                    } else {
                        holds &= a.abs() <= hold * tol;
                    }
                } else if a < -tol {
                    entered.push((i, a));
                }
            }
            // Rows by the third changing side (a column still compressing,
            // far from the last impulses): block moves from here oscillate,
            // and each round is a factorization; the warm set's path takes it.
            let moves = entered.len() + left.len();
            let most = if round < PROXIMAL_ROUNDS { PROXIMAL_MOVES } else { PROXIMAL_LATE_MOVES };
            if !holds || moves * most > clamped_count(lp, idx) {
                break;
            }
            let done = moves == 0;
            for &(i, _) in &left {
                lp.clamped[i] = false;
                lp.lambda[i] = 0.0;
            }
            for &(i, _) in &entered {
                lp.clamped[i] = true;
            }
            self.record(lp, entered, left, clamped);
            if done {
                return true;
            }
            last = Some((f, had));
        }
        for &i in idx {
            lp.lambda[i] = 0.0;
            lp.a[i] = -self.b[i];
            lp.clamped[i] = i < self.neq || start[i] > 0.0;
        }
        false
    }

    /// Refines an island's answer on its final clamped set: the regularized
    /// factor `A_CC (1 + ε)` solves for the residual of the true `A`,
    ///
    /// ```text
    /// λ_C ← λ_C + (A_CC (1 + ε))⁻¹ (b_C − A_C λ)      (twice)
    /// ```
    ///
    /// (a proximal-point step: each shrinks `a_C` by a factor of about `ε`
    /// relative to the row's scale, and for a singular, consistent `A_CC` it
    /// converges to an exact solution). Without it a row's `a_C` stays off by
    /// `ε A_ii λ_i`, which masses spanning decades turn into 1e-9 m/s² on a
    /// light ball. `a` is then taken with the true `A`.
    fn refine(&self, lp: &mut Lcp, idx: &[usize]) {
        let g = self.graph;
        if self.basis(lp, idx) {
            return;
        }
        let f = self.factor(lp, idx);
        let residual = |l: &[f64]| f.order.iter().map(|&i| (self.b[i] - g.row(i, l)).abs()).fold(0.0, f64::max);
        let mut worst = residual(&lp.lambda);
        for _ in 0..REFINE {
            let before: Vec<f64> = f.order.iter().map(|&i| lp.lambda[i]).collect();
            self.correct(&f, &mut lp.lambda);
            // A clamped set that is not consistent (`b_C` off the range of a
            // singular `A_CC` by round-off) sends the step along the null
            // space: kept only when it lowers the residual and keeps `λ_C ≥ 0`.
            let after = residual(&lp.lambda);
            if after.partial_cmp(&worst) != Some(std::cmp::Ordering::Less)
                || f.order.iter().any(|&i| i >= self.neq && lp.lambda[i] < 0.0)
            {
                for (p, &i) in f.order.iter().enumerate() {
                    lp.lambda[i] = before[p];
                }
                break;
            }
            worst = after;
        }
        for &i in idx {
            lp.a[i] = g.row(i, &lp.lambda) - self.b[i];
        }
    }

    /// The crossover to a basis: the clamped rows factored exactly (no `ε`),
    /// each row whose pivot falls below [`PIVOT_TOL`] of its `A_ii` left out
    /// (it depends on the rows before it: a hyperstatic pile's extra
    /// contacts), and `A_BB λ_B = b_B` solved on the independent rows `B`
    /// that are left. Kept, with `C = B`, when it is complementary to the
    /// tolerance (the rows left out included: `b_C` is then consistent). A
    /// basis is what the next step's warm start needs: a dependent clamped set
    /// whose `b_C` drifts off the range of `A_CC` sends the regularized solve
    /// to `λ` 1e3 times the answer.
    fn basis(&self, lp: &mut Lcp, idx: &[usize]) -> bool {
        let g = self.graph;
        let mut f = Envelope::new(lp.lambda.len(), 0.0);
        for &i in idx {
            if lp.clamped[i] {
                f.push(g, i, PIVOT_TOL);
            }
        }
        let x = f.solve(&f.order.iter().map(|&i| self.b[i]).collect::<Vec<_>>());
        if f.order.iter().zip(&x).any(|(&i, &l)| i >= self.neq && l < 0.0) {
            return false;
        }
        let saved: Vec<f64> = idx.iter().map(|&i| lp.lambda[i]).collect();
        for &i in idx {
            lp.lambda[i] = 0.0;
        }
        for (p, &i) in f.order.iter().enumerate() {
            lp.lambda[i] = x[p];
        }
        let tol = self.tol(lp, idx);
        let ok = idx.iter().all(|&i| {
            let a = g.row(i, &lp.lambda) - self.b[i];
            if f.contains(i) {
                true
            } else if i < self.neq || lp.clamped[i] {
                a.abs() <= tol
            } else {
                a >= -tol
            }
        });
        if !ok {
            for (&i, &l) in idx.iter().zip(&saved) {
                lp.lambda[i] = l;
            }
            return false;
        }
        for &i in idx {
            lp.clamped[i] = i < self.neq || f.contains(i);
            lp.a[i] = g.row(i, &lp.lambda) - self.b[i];
        }
        true
    }

    /// `C` for the trace (only for problems small enough to read, see [`DETAIL`];
    /// the last round gets the final set in [`solve_lcp`]).
    fn clamped_list(&self, lp: &Lcp) -> Vec<usize> {
        if !self.detail {
            return Vec::new();
        }
        (0..lp.lambda.len()).filter(|&i| lp.clamped[i]).collect()
    }

    fn record(&self, lp: &mut Lcp, entered: Vec<(usize, f64)>, left: Vec<(usize, f64)>, clamped: Vec<usize>) {
        let detail = self.detail;
        lp.rounds.push(Round {
            clamped,
            entered,
            left,
            lambda: if detail { lp.lambda.clone() } else { Vec::new() },
            a: if detail { lp.a.clone() } else { Vec::new() },
        });
    }

    /// Block principal pivoting on one island (see the module docs). False when
    /// it did not converge within [`BLOCK_ROUNDS`], or, with `guard`, as soon
    /// as `λ` grows [`EXPLOSION`] times past the warm round's.
    fn block(&mut self, lp: &mut Lcp, idx: &[usize], guard: bool) -> bool {
        let rounds = if idx.len() > LARGE_ISLAND { LARGE_ROUNDS } else { BLOCK_ROUNDS };
        let (mut best, mut tries) = (usize::MAX, BLOCK_TRIES);
        let mut first_scale = 0.0;
        for round in 0..rounds {
            self.solve_clamped(lp, idx);
            let tol = self.tol(lp, idx);
            let clamped = self.clamped_list(lp);
            let scale = idx.iter().map(|&i| lp.lambda[i].abs()).fold(0.0, f64::max);
            if round == 0 {
                first_scale = scale;
            } else if guard && scale > EXPLOSION * first_scale.max(f64::MIN_POSITIVE) {
                // Dependent rows entered together (a hyperstatic pile): no use going on.
                return false;
            }
            let infeasible: Vec<usize> = idx
                .iter()
                .copied()
                .filter(|&i| {
                    i >= self.neq && if lp.clamped[i] { lp.lambda[i] < -1e-12 * scale } else { lp.a[i] < -tol }
                })
                .collect();
            if infeasible.is_empty() {
                self.record(lp, Vec::new(), Vec::new(), clamped);
                return true;
            }
            let moves: Vec<usize> = if infeasible.len() < best {
                best = infeasible.len();
                tries = BLOCK_TRIES;
                infeasible
            } else if tries > 0 {
                tries -= 1;
                infeasible
            } else {
                vec![*infeasible.last().expect("not empty")]
            };
            let (mut entered, mut left) = (Vec::new(), Vec::new());
            for i in moves {
                if lp.clamped[i] {
                    left.push((i, lp.lambda[i]));
                } else {
                    entered.push((i, lp.a[i]));
                }
                lp.clamped[i] = !lp.clamped[i];
            }
            self.record(lp, entered, left, clamped);
        }
        false
    }

    /// Releases clamped inequalities with `λ < 0` until none is left: the start
    /// Dantzig's pivoting needs (`λ_C ≥ 0`, `a_C = 0`). `C` only shrinks, so it ends.
    fn shrink(&mut self, lp: &mut Lcp, idx: &[usize]) {
        loop {
            self.solve_clamped(lp, idx);
            let negative: Vec<usize> =
                idx.iter().copied().filter(|&i| i >= self.neq && lp.clamped[i] && lp.lambda[i] < 0.0).collect();
            if negative.is_empty() {
                return;
            }
            let clamped = self.clamped_list(lp);
            let left = negative.iter().map(|&i| (i, lp.lambda[i])).collect();
            for &i in &negative {
                lp.clamped[i] = false;
            }
            self.record(lp, Vec::new(), left, clamped);
        }
    }

    /// Finishes an island with the interior point ([`crate::ipm`]): a large
    /// island after its block rounds (from the method's own start), a small
    /// one past its pivot budget (`warm`: from where the pivots left it, `λ`
    /// and `a` shifted inside); `pivots` for a cap's report. Then a crossover:
    /// the rows it holds (`λ_i A_ii > a_i`) solved as a clamped set, kept when
    /// that is complementary; otherwise the interior point's answer stands
    /// (complementary to its tolerance, every `λ_i > 0`, `a_i ≈ s_i ≥ 0`).
    fn interior(&mut self, lp: &mut Lcp, idx: &[usize], pivots: usize, warm: bool) {
        let h = self.graph.restrict(idx);
        let b: Vec<f64> = idx.iter().map(|&i| self.b[i]).collect();
        let eq: Vec<bool> = idx.iter().map(|&i| i < self.neq).collect();
        let l0: Vec<f64> = idx.iter().map(|&i| lp.lambda[i]).collect();
        let a0: Vec<f64> = idx.iter().map(|&i| lp.a[i]).collect();
        let x = ipm::solve(&h, &b, &eq, self.eps, warm.then_some((&l0[..], &a0[..])));
        if !x.converged {
            lp.capped = Some(Cap { rows: idx.len(), pivots, why: Stop::Interior(x.iterations) });
            return;
        }
        for (l, &i) in idx.iter().enumerate() {
            lp.clamped[i] = eq[l] || x.lambda[l] * h.diag[l] > x.slack[l];
        }
        self.solve_clamped(lp, idx);
        let scale = idx.iter().map(|&i| lp.lambda[i].abs()).fold(0.0, f64::max);
        let tol = self.tol(lp, idx);
        let crossed = idx
            .iter()
            .all(|&i| i < self.neq || if lp.clamped[i] { lp.lambda[i] >= -1e-12 * scale } else { lp.a[i] >= -tol });
        if !crossed {
            self.interior_stands = true;
            let a = h.mul(&x.lambda);
            for (l, &i) in idx.iter().enumerate() {
                lp.lambda[i] = x.lambda[l];
                lp.a[i] = a[l] - b[l];
            }
        }
        let clamped = self.clamped_list(lp);
        self.record(lp, Vec::new(), Vec::new(), clamped);
    }

    /// Dantzig's principal pivoting (Baraff 1994) on one island, from a clamped
    /// set with `λ_C ≥ 0` (`E` alone on a small cold problem):
    /// each inequality `d` with `a_d < 0` is driven to zero along
    ///
    /// ```text
    /// Δλ_d = 1,   Δλ_C = −A_CC⁻¹ A_Cd,   Δa = A Δλ
    /// ```
    ///
    /// by the largest step that keeps `λ_C ≥ 0` and `a_N ≥ 0` (the ratio test);
    /// the blocking index changes side and the drive resumes until `a_d = 0`.
    /// Rows with `a_i ≥ −tol` are not driven.
    fn dantzig(&mut self, lp: &mut Lcp, idx: &[usize]) {
        self.solve_clamped(lp, idx);
        let max_pivots = self.limits.cap.unwrap_or(PIVOTS_PER_ROW * idx.len() + 20);
        let budget = self.limits.budget.unwrap_or(BUDGET_PIVOTS + idx.len() / BUDGET_ROWS_PER_PIVOT);
        let mut pivots = 0;
        let mut f = self.factor(lp, idx);
        loop {
            let tol = self.tol(lp, idx);
            let next = idx
                .iter()
                .copied()
                .filter(|&i| i >= self.neq && !lp.clamped[i] && lp.a[i] < -tol)
                .min_by(|&i, &j| lp.a[i].total_cmp(&lp.a[j]));
            let Some(d) = next else { return };
            let a_start = lp.a[d];
            loop {
                if pivots >= max_pivots {
                    lp.capped = Some(Cap { rows: idx.len(), pivots, why: Stop::Pivots });
                    return;
                }
                if pivots >= budget {
                    self.interior(lp, idx, pivots, true);
                    return;
                }
                pivots += 1;
                // Δλ on C ∪ {d}.
                let mut rhs = vec![0.0; f.len()];
                for (i, v) in &self.graph.adj[d] {
                    if let Some(p) = f.position(*i) {
                        rhs[p] = -v;
                    }
                }
                let x = f.solve(&rhs);
                let mut support: Vec<(usize, f64)> = f.order.iter().copied().zip(x).collect();
                support.push((d, 1.0));
                // Δa = A Δλ on the rows the support touches.
                let mut touched = Vec::new();
                for &(j, dl) in &support {
                    for &(i, v) in self.graph.adj[j].iter().chain([&(j, self.graph.diag[j] * (1.0 + self.eps))]) {
                        if self.da[i] == 0.0 {
                            touched.push(i);
                        }
                        self.da[i] += v * dl;
                    }
                }
                let tiny = 1e-14;
                let mut best: Option<(f64, usize)> = None;
                let mut consider = |s: f64, i: usize| {
                    if best.is_none_or(|(bs, _)| s < bs) {
                        best = Some((s.max(0.0), i));
                    }
                };
                if self.da[d] > tiny {
                    consider(-lp.a[d] / self.da[d], d);
                }
                for &(i, dl) in &support[..support.len() - 1] {
                    if i >= self.neq && dl < -tiny {
                        consider(-lp.lambda[i] / dl, i);
                    }
                }
                for &i in &touched {
                    if !lp.clamped[i] && i != d && i >= self.neq && self.da[i] < -tiny && lp.a[i] >= -tol {
                        consider(-lp.a[i] / self.da[i], i);
                    }
                }
                let Some((s, j)) = best else {
                    // Nothing blocks and a_d cannot rise: the constraints are infeasible.
                    for &i in &touched {
                        self.da[i] = 0.0;
                    }
                    lp.capped = Some(Cap { rows: idx.len(), pivots, why: Stop::Infeasible });
                    return;
                };
                for &(i, dl) in &support {
                    lp.lambda[i] += s * dl;
                }
                for &i in &touched {
                    lp.a[i] += s * self.da[i];
                    self.da[i] = 0.0;
                }
                // Each pivot is one solve with the clamped set after it.
                let entering = j == d || !lp.clamped[j];
                if entering {
                    lp.clamped[j] = true;
                    lp.a[j] = 0.0;
                    if !f.push(self.graph, j, 0.0) {
                        f = self.factor(lp, idx);
                    }
                } else {
                    lp.clamped[j] = false;
                    lp.lambda[j] = 0.0;
                    for i in f.remove(self.graph, j, 0.0) {
                        lp.clamped[i] = false;
                    }
                }
                let clamped = self.clamped_list(lp);
                if entering {
                    self.record(lp, vec![(j, if j == d { a_start } else { 0.0 })], Vec::new(), clamped);
                } else {
                    self.record(lp, Vec::new(), vec![(j, 0.0)], clamped);
                }
                if j == d {
                    break;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::constraint::SparseRow;

    /// A column of `n` unit discs on a floor under gravity, cold: the floor
    /// row and each contact row pushed (`b = 1`), every row coupled to the
    /// next through a shared coordinate.
    fn column(n: usize) -> (Vec<SparseRow>, Vec<f64>) {
        let mut rows = vec![SparseRow::from_entries(&[(1, 1.0)])];
        for i in 1..n {
            rows.push(SparseRow::from_entries(&[(2 * i + 1, 1.0), (2 * i - 1, -1.0)]));
        }
        (rows, vec![1.0; n])
    }

    /// Issue 26: a capped solve says where and at what cap (the step's status
    /// is made from it), and the same problem uncapped is complementary.
    #[test]
    fn a_capped_solve_says_where_it_stopped() {
        let (rows, b) = column(6);
        let refs: Vec<&SparseRow> = rows.iter().collect();
        let g = SchurGraph::new(&refs, &[1.0; 12]);
        let capped = solve(&g, &b, 0, &[], None, 1e-12, usize::MAX, Limits { cap: Some(2), ..Limits::default() });
        assert_eq!(capped.capped, Some(Cap { rows: 6, pivots: 2, why: Stop::Pivots }));
        assert!(capped.capped.unwrap().sentence().contains("cap of 2 pivots on an island of 6 rows"));
        let whole = solve(&g, &b, 0, &[], None, 1e-12, usize::MAX, Limits::default());
        assert_eq!(whole.capped, None);
        for i in 0..b.len() {
            assert!(whole.lambda[i] >= 0.0 && whole.a[i] >= -1e-9 && (whole.lambda[i] * whole.a[i]).abs() < 1e-9);
        }
    }

    /// An island of at most `LARGE_ISLAND` rows whose pivots run past their
    /// budget is finished by the interior point: the same `a` as pivoting to
    /// the end, within the contract, in fewer rounds.
    #[test]
    fn past_its_budget_a_small_island_is_finished_by_the_interior_point() {
        let (rows, _) = column(60);
        let refs: Vec<&SparseRow> = rows.iter().collect();
        let g = SchurGraph::new(&refs, &[1.0; 120]);
        let b: Vec<f64> = (0..60).map(|i| if i % 7 == 3 { -2.0 } else { 1.0 + (i % 3) as f64 }).collect();
        let whole =
            solve(&g, &b, 0, &[], None, 0.0, usize::MAX, Limits { budget: Some(usize::MAX), ..Limits::default() });
        let finished = solve(&g, &b, 0, &[], None, 0.0, usize::MAX, Limits { budget: Some(5), ..Limits::default() });
        assert!(whole.rounds.len() > 20, "{} rounds: the budget is passed", whole.rounds.len());
        for l in [&whole, &finished] {
            assert!(l.capped.is_none());
            assert!(contract_ratio(&g, &b, 0, &l.lambda) <= 1.0);
        }
        for i in 0..60 {
            assert!((whole.a[i] - finished.a[i]).abs() < 1e-9, "a_{i}: {} vs {}", whole.a[i], finished.a[i]);
        }
        assert!(finished.rounds.len() < whole.rounds.len(), "{} rounds", finished.rounds.len());
    }

    /// A triangular lattice of `cols × layers` unit discs on a floor (3 rows
    /// per disc, each disc resting on the two below): hyperstatic, `A`
    /// singular on the rows that hold. The rows and the number of coordinates.
    fn lattice(cols: usize, layers: usize) -> (Vec<SparseRow>, usize) {
        let ball = |i: usize, j: usize| 2 * (j * cols + i);
        let mut rows = Vec::new();
        for j in 0..layers {
            for i in 0..cols {
                let b = ball(i, j);
                if j == 0 {
                    rows.push(SparseRow::from_entries(&[(b + 1, 1.0)]));
                } else {
                    // Resting on the two below (or one at the rows' ends).
                    for k in [i.wrapping_sub(j % 2), i + 1 - j % 2] {
                        if k < cols {
                            let o = ball(k, j - 1);
                            let (dx, dy) = (if k <= i { 0.5 } else { -0.5 }, 0.866);
                            rows.push(SparseRow::from_entries(&[(b, dx), (b + 1, dy), (o, -dx), (o + 1, -dy)]));
                        }
                    }
                }
                if i + 1 < cols {
                    let o = ball(i + 1, j);
                    rows.push(SparseRow::from_entries(&[(b, -1.0), (o, 1.0)]));
                }
            }
        }
        (rows, 2 * cols * layers)
    }

    /// The 12 × 10 [`lattice`] with walls at both ends of every layer (it
    /// cannot splay, and every contact carries the weight above it), unit
    /// masses: its graph, rows and number of coordinates.
    fn walled_lattice() -> (SchurGraph, Vec<SparseRow>, usize) {
        let (mut rows, n) = lattice(12, 10);
        for j in 0..10 {
            rows.push(SparseRow::from_entries(&[(24 * j, 1.0)]));
            rows.push(SparseRow::from_entries(&[(24 * j + 22, -1.0)]));
        }
        let refs: Vec<&SparseRow> = rows.iter().collect();
        let g = SchurGraph::new(&refs, &vec![1.0; n]);
        (g, rows, n)
    }

    /// A hyperstatic pile's impact problem (a triangular lattice of 120 discs
    /// on a floor, 3 rows per disc, `A` singular on the clamped set), cold: the
    /// predicted start (block rounds, then the interior point) reaches a
    /// complementary answer with the same `a` as the interior point from
    /// nothing (`a = A λ − b` is unique for a PSD `A`, `λ` is not).
    #[test]
    fn a_predicted_start_reaches_the_same_answer_on_a_hyperstatic_pile() {
        let (rows, n) = lattice(12, 10);
        let refs: Vec<&SparseRow> = rows.iter().collect();
        let g = SchurGraph::new(&refs, &vec![1.0; n]);
        let m = rows.len();
        assert!(m > PREDICT_ROWS, "{m} rows");
        // Approach speeds, most rows hit (b > 0), some separating.
        let mut seed = 12345_u64;
        let b: Vec<f64> = (0..m)
            .map(|_| {
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                ((seed >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 0.5
            })
            .collect();
        let predicted = solve(&g, &b, 0, &[], None, 1e-12, PREDICT_ROWS, Limits::default());
        // Cold without a prediction: the interior point at once.
        let interior = solve(&g, &b, 0, &[], None, 1e-12, usize::MAX, Limits::default());
        for l in [&predicted, &interior] {
            assert!(l.capped.is_none());
            assert!(contract_ratio(&g, &b, 0, &l.lambda) <= 1.0);
            for i in 0..m {
                assert!(l.lambda[i] >= 0.0 && l.a[i] >= -1e-9 && (l.lambda[i] * l.a[i]).abs() < 1e-9, "row {i}");
            }
        }
        for i in 0..m {
            assert!((predicted.a[i] - interior.a[i]).abs() < 1e-9, "a_{i}: {} vs {}", predicted.a[i], interior.a[i]);
        }
    }

    /// Issue 38: a time step from the last step's impulses on a hyperstatic
    /// pile at rest. The lattice under gravity (`b = −J v_free`, a velocity's
    /// image, so consistent on any set), then a step later with the load a
    /// little changed: from the interior point's answer (positive on every
    /// row it holds) one proximal round on the rows held is the answer, with
    /// the same `a` as a cold solve, where the same rows as a warm set (their
    /// basic answer has negative entries: the pile's self-stress is noise)
    /// need more rounds.
    #[test]
    fn a_hyperstatic_pile_at_rest_is_solved_in_one_round_from_the_last_impulses() {
        let (g, rows, n) = walled_lattice();
        let m = rows.len();
        let load = |tilt: f64| -> Vec<f64> {
            // v_free: every disc falls at 1, pushed sideways by `tilt` row by row.
            let v: Vec<f64> = (0..n).map(|d| if d % 2 == 1 { -1.0 } else { tilt * ((d / 24) as f64 - 4.5) }).collect();
            rows.iter().map(|r| -r.dot(&v)).collect()
        };
        let b = load(0.0);
        let first = solve(&g, &b, 0, &[], None, 0.0, usize::MAX, Limits::default());
        assert!(first.capped.is_none());
        let held = first.lambda.iter().filter(|l| **l > 0.0).count();
        assert!(held > n / 2, "{held} rows hold {n} coordinates: hyperstatic");
        let b2 = load(1e-3);
        let from = solve_lcp_from(&g, &b2, 0, &first.lambda, 0.0);
        assert!(from.capped.is_none());
        assert_eq!(from.rounds.len(), 1, "one proximal round");
        assert!(contract_ratio(&g, &b2, 0, &from.lambda) <= 1.0);
        let cold = solve_lcp(&g, &b2, 0, &[], 0.0);
        for i in 0..m {
            assert!(from.lambda[i] >= 0.0);
            assert!((from.a[i] - cold.a[i]).abs() < 1e-9, "a_{i}: {} vs {}", from.a[i], cold.a[i]);
        }
        let flags: Vec<bool> = first.lambda.iter().map(|l| *l > 0.0).collect();
        let basic = solve_lcp(&g, &b2, 0, &flags, 0.0);
        assert!(basic.rounds.len() > 1, "the rows held as a set: {} round(s)", basic.rounds.len());
    }

    /// Issue 48: the same pile whose targets are off the range of its
    /// clamped rows (gaps' round-off, as on a 1000-ball pile at rest: no
    /// velocity meets every held row to the solver's tolerance of a tenth of
    /// the contract). From the last answer, the large island's proximal
    /// round holds it within the contract in one round, where a tolerance
    /// of a tenth sent it through block moves to the interior point (4
    /// rounds); what no velocity meets, it meets as well as a cold solve.
    #[test]
    fn a_pile_at_rest_with_targets_off_the_range_is_solved_from_the_last_impulses() {
        let (g, rows, n) = walled_lattice();
        let v: Vec<f64> = (0..n).map(|d| if d % 2 == 1 { -1.0 } else { 0.0 }).collect();
        let consistent: Vec<f64> = rows.iter().map(|r| -r.dot(&v)).collect();
        let first = solve(&g, &consistent, 0, &[], None, 0.0, usize::MAX, Limits::default());
        let mut seed = 11u64;
        for (noise, rounds) in [(1e-7, Some(1)), (1e-6, None)] {
            // Each row's target off by up to `noise` of the load (deterministic).
            let b: Vec<f64> = consistent
                .iter()
                .map(|x| {
                    seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    x + noise * (((seed >> 11) as f64 / (1u64 << 53) as f64) - 0.5)
                })
                .collect();
            let from = solve_lcp_from(&g, &b, 0, &first.lambda, 0.0);
            assert!(from.capped.is_none());
            assert!(from.lambda.iter().all(|l| *l >= 0.0));
            let ratio = contract_ratio(&g, &b, 0, &from.lambda);
            assert!(ratio <= 1.0, "noise {noise}: {ratio}");
            let cold = solve_lcp(&g, &b, 0, &[], 0.0);
            assert!(ratio <= contract_ratio(&g, &b, 0, &cold.lambda).max(0.1), "noise {noise}: {ratio}");
            if let Some(r) = rounds {
                assert_eq!(from.rounds.len(), r, "noise {noise}");
            }
        }
    }

    /// A large island warm from a set that is not quite the answer (a pile
    /// settling: a few rows must enter or leave) ends, by block moves or by
    /// Dantzig from the warm set, within the contract ([`CONTRACT`]).
    #[test]
    fn a_large_warm_island_a_few_rows_off_ends_within_the_contract() {
        let (g, vertical) = grid();
        let m = vertical.len();
        assert!(m > LARGE_ISLAND, "{m} rows");
        // Gravity down every column, sideways pushes in alternate directions.
        let b: Vec<f64> = (0..m).map(|i| if i % 2 == 0 { 9.81 } else { 0.5 - (i % 4) as f64 * 0.5 }).collect();
        let cold = solve_lcp(&g, &b, 0, &[], 0.0);
        assert!(cold.capped.is_none());
        // The next step: b moved a little, and a warm set with 6 rows flipped.
        let b2: Vec<f64> = b.iter().enumerate().map(|(i, v)| v + 0.05 * ((i % 7) as f64 - 3.0)).collect();
        let mut warm = cold.clamped.clone();
        for i in [3, 17, 40, 77, 120, 150] {
            warm[i] = !warm[i];
        }
        let l = solve_lcp(&g, &b2, 0, &warm, 0.0);
        assert!(l.capped.is_none());
        assert!(l.rounds.len() > 1, "the warm set was not the answer: pivots were needed");
        let ratio = contract_ratio(&g, &b2, 0, &l.lambda);
        assert!(ratio <= 1.0, "{ratio}");
        for i in 0..m {
            assert!(l.lambda[i] >= 0.0 && (l.clamped[i] || l.lambda[i] == 0.0), "λ_{i} = {}", l.lambda[i]);
        }
    }

    /// A grid of 12 × 10 discs (230 rows, a large island): each disc's
    /// vertical row on the floor or on the disc below, and a row to its
    /// right-hand neighbour; with whether each row is vertical.
    fn grid() -> (SchurGraph, Vec<bool>) {
        let (cols, layers) = (12, 10);
        let ball = |i: usize, j: usize| 2 * (j * cols + i);
        let (mut rows, mut vertical) = (Vec::new(), Vec::new());
        for j in 0..layers {
            for i in 0..cols {
                let k = ball(i, j);
                rows.push(if j == 0 {
                    SparseRow::from_entries(&[(k + 1, 1.0)])
                } else {
                    let o = ball(i, j - 1);
                    SparseRow::from_entries(&[(k, 0.1), (k + 1, 1.0), (o, -0.1), (o + 1, -1.0)])
                });
                vertical.push(true);
                if i + 1 < cols {
                    let o = ball(i + 1, j);
                    rows.push(SparseRow::from_entries(&[(k, -1.0), (o, 1.0)]));
                    vertical.push(false);
                }
            }
        }
        let refs: Vec<&SparseRow> = rows.iter().collect();
        (SchurGraph::new(&refs, &vec![10.0; 2 * cols * layers]), vertical)
    }

    /// The last step's answer as an interior point leaves it, a hair above 0
    /// on every row it does not hold: from it `solve_lcp_from` holds every
    /// row, 110 of 230 leave in the first proximal round, the rounds give up
    /// and the interior point runs again; `solve_lcp_from_step` tries them
    /// once more without those rows and keeps that answer (another path: not
    /// the same bits), exactly 0 where it holds no row, within the contract.
    #[test]
    fn a_step_started_from_an_interior_answer_drops_its_hairs() {
        // Pressed down, pulled apart sideways: the answer holds the vertical
        // rows and leaves the 110 side rows at 0.
        let (g, vertical) = grid();
        let b: Vec<f64> = vertical.iter().map(|v| if *v { 9.81 } else { -0.5 }).collect();
        let exact = solve_lcp(&g, &b, 0, &[], 0.0);
        assert!(exact.capped.is_none());
        let top = exact.lambda.iter().fold(0.0, |m: f64, l| m.max(*l));
        let free = exact.lambda.iter().filter(|l| **l == 0.0).count();
        assert!(free == 110 && b.len() > LARGE_ISLAND, "{free} rows free of {}", b.len());
        let hairy: Vec<f64> = exact.lambda.iter().map(|l| l + 1e-9 * top).collect();
        let from = solve_lcp_from(&g, &b, 0, &hairy, 0.0);
        let step = solve_lcp_from_step(&g, &b, 0, &hairy, 0.0);
        assert!(from.capped.is_none() && step.capped.is_none());
        assert!(from.lambda != step.lambda, "the thinned start was not taken");
        assert!(contract_ratio(&g, &b, 0, &step.lambda) <= 1.0);
        for (i, (l, x)) in step.lambda.iter().zip(&exact.lambda).enumerate() {
            assert!(if *x == 0.0 { *l == 0.0 } else { *l > 0.0 }, "row {i}: λ = {l} where the answer's is {x}");
        }
    }

    /// The contract's ratio: 0 at an exact answer, past 1 when a free row
    /// sinks by more than `ε_a`, whatever the units (`A` and `b` scaled).
    #[test]
    fn the_contract_is_relative_to_the_problem_s_scale() {
        let rows = [SparseRow::from_entries(&[(0, 1.0)]), SparseRow::from_entries(&[(0, 1.0), (1, 1.0)])];
        let refs: Vec<&SparseRow> = rows.iter().collect();
        for unit in [1e-6, 1.0, 1e6] {
            let g = SchurGraph::new(&refs, &[unit, unit]);
            // b = (1, 1) unit: λ = (1, 0) holds row 0 (a = 0) and leaves row 1 at a = 0.
            let b = [unit, unit];
            assert!(contract_ratio(&g, &b, 0, &[1.0, 0.0]) < 1e-6);
            // λ_0 off by 1e-8: both rows sink by 1e-8 unit, and
            // ε_a = 1e-9 (‖A‖ ‖λ‖ + ‖b‖) = 1e-9 (3 + 1) unit: 2.5 times it.
            let r = contract_ratio(&g, &b, 0, &[1.0 - 1e-8, 0.0]);
            assert!((r - 2.5).abs() < 1e-3, "unit {unit}: {r}");
        }
    }

    /// A warm start at the answer takes one round; a cold one takes more and
    /// lands on the same `λ`; a wrong warm start (a row that must leave) is mended.
    #[test]
    fn warm_starts_take_one_round_and_reach_the_same_answer() {
        // A chain of three contacts on four coordinates, pushed together.
        let rows = [
            SparseRow::from_entries(&[(0, 1.0), (1, -1.0)]),
            SparseRow::from_entries(&[(1, 1.0), (2, -1.0)]),
            SparseRow::from_entries(&[(2, 1.0), (3, -1.0)]),
        ];
        let refs: Vec<&SparseRow> = rows.iter().collect();
        let g = SchurGraph::new(&refs, &[1.0; 4]);
        let b = [1.0, -0.5, 2.0];
        let cold = solve_lcp(&g, &b, 0, &[], 1e-12);
        assert!(cold.capped.is_none());
        let warm = solve_lcp(&g, &b, 0, &cold.clamped, 1e-12);
        assert_eq!(warm.rounds.len(), 1);
        let wrong = solve_lcp(&g, &b, 0, &[true, true, true], 1e-12);
        for l in [&warm, &wrong] {
            for i in 0..3 {
                assert!((l.lambda[i] - cold.lambda[i]).abs() < 1e-9);
                assert!(l.lambda[i] >= 0.0 && l.a[i] >= -1e-9 && (l.lambda[i] * l.a[i]).abs() < 1e-9);
            }
        }
    }
}
