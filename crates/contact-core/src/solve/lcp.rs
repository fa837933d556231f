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
//!
//! **Files.** This one holds the entry points, the islands and the interior
//! point's finish; `lcp/pivoting.rs` the block and Dantzig pivoting,
//! `lcp/proximal.rs` the start from a previous answer and the finish of an
//! answer, `lcp/contract.rs` the contract and the conflicting targets.

use rayon::prelude::*;

use crate::ipm;
use crate::schur::{Envelope, PIVOT_TOL, SchurGraph};

mod contract;
mod pivoting;
mod proximal;

pub use contract::{
    CONTRACT, Conflict, SELF_STRESS, contract_ratio, contract_ratio_above, island_ratios, least_squares,
};

/// Above this many rows the rounds keep their moves but not `λ` and `a`, and
/// only the last round its clamped set: a pile of a thousand balls would
/// otherwise store megabytes a step that nobody reads. The trace of a step
/// shows as much ([`crate::trace::Trace::DETAIL`] is this number).
pub const DETAIL: usize = 256;

/// Relative regularization of `A` (see the module docs).
const REGULARIZATION: f64 = 1e-10;

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
