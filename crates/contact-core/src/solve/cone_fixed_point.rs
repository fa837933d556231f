//! Coulomb friction at the velocity level as a fixed point of frictionless
//! problems on the cone's edges (De Saxcé's bipotential; Acary, Cadoux,
//! Lemaréchal & Malick 2011), exact in the plane: time-stepping's solver for
//! islands with friction ([`crate::timestep`]).
//!
//! A contact with normal row `n`, tangential row `t` and coefficient `μ`
//! (in the rows' own units, [`crate::kkt::ContactProblem::mu`]) has, in the
//! plane, a cone with two edges. Its impulse is `P = π⁺ e⁺ + π⁻ e⁻` along
//! the edge rows
//!
//! ```text
//! r⁺ = n + μ t,   r⁻ = n − μ t          (P_n = π⁺ + π⁻,  P_t = μ (π⁺ − π⁻))
//! ```
//!
//! and `π± ≥ 0` is exactly `|P_t| ≤ μ P_n`. With `u_n = n·v⁺ + c` (the
//! target `c` of [`crate::timestep`]) and `u_t = t·v⁺`, Coulomb's law is the
//! complementarity problem on the edges with De Saxcé's shift `s = μ |u_t|`:
//!
//! ```text
//! 0 ≤ π± ⊥ w± = r±·v⁺ + c + s = u_n ± μ u_t + μ |u_t| ≥ 0        (1)
//! ```
//!
//! (sliding with `u_t > 0`: `w⁺ = u_n + 2μ u_t > 0` so `π⁺ = 0` and `P_t =
//! −μ P_n`, against the slip, with `w⁻ = u_n`, `π⁻ u_n = 0`; sticking: both
//! edges held, `u_t = 0`, `u_n = 0`; apart: `π = 0`, `u_n ≥ μ|u_t| ∓ μ u_t ≥
//! 0`). For a **fixed** shift `s`, (1) is the frictionless problem of
//! [`crate::lcp`] on the edge rows, `a = A π − b` with `A = R M⁻¹ Rᵀ`
//! symmetric positive semi-definite and `b = −(R v_free + c + s)`: the
//! optimality conditions of the strictly convex
//! `min ½‖v − v_free‖²_M  s.t.  r±·v + c + s ≥ 0`, so `v⁺(s)` is unique
//! (Anitescu's convex relaxation when `s = 0`). Coulomb's answer is a fixed
//! point of
//!
//! ```text
//! s ↦ G(s) = μ |t · v⁺(s)|                                          (2)
//! ```
//!
//! which exists (Brouwer: `G` is continuous and bounded on a box), and every
//! fixed point is an answer. Each evaluation of `G` is one sparse,
//! warm-started frictionless solve ([`crate::lcp::solve_lcp_from`] from the
//! last iterate's `π`: on a pile that keeps its set, one proximal round on
//! one factorization), so the cost follows the non-zeros; there is no dense
//! `A` and no enumeration. The iteration on `s` is accelerated by Anderson's
//! method (Walker & Ni 2011; depth [`DEPTH`]): the plain iteration contracts
//! at about `3μ²` for a disc that slides, and diverges past `μ ≈ 0.58`.
//!
//! **Rolling resistance** ([`crate::rolling`]): a contact with a rolling
//! row `m` and `μ_r` has the box cone's four edges `n ± μ t ± μ_r m` and the
//! shift `G = μ |t·v⁺| + μ_r |m·v⁺|` ([`crate::cone_edges`]); the iteration
//! is the same. What follows a stall there is Newton's method on the held
//! edges ([`status_newton`], at any size) and Lemke's method on
//! Anitescu–Potra's problem, after [`LEMKE_AFTER_ROLLING`] evaluations; the
//! rescues below work on two edges a contact and are not tried.
//!
//! **Where it stalls.** `G` is piecewise affine. On a pile the iteration
//! can stop improving: at a status on the edge between stick and slip (a
//! contact whose slip follows its own shift one for one, `G(s) − s`
//! constant at 4e-9 m/s on a 30-ball pile), or circling among pieces (a
//! 100-ball pile at μ = 0.3 from t = 0.39 s, the residual between 2e3 and
//! 2e4 times the contract for 60 evaluations; Newton's step on `G − Id` is
//! no cure there, its Jacobian is singular on the contacts that follow
//! their shift and the step lands 1e7 times further off). Then, up to
//! [`RESCUES`] times a solve ([`LARGE_RESCUES`] on an island past
//! [`RESCUE_EDGES`] edges):
//!
//! 1. **The statuses the iterate holds, made exact** (`polish`): the
//!    equations of those statuses on the held edges, their least-norm
//!    correction from the iterate (the statically indeterminate spread it
//!    chose is kept), the statuses of that answer in turn, up to
//!    [`POLISH_ROUNDS`] times.
//! 2. **Gauss–Seidel over the contacts** ([`crate::nsgs`]: each contact's
//!    own Coulomb law in closed form), in chunks of [`CHUNK`] sweeps, each
//!    followed by one round of (1) put back into the cones and kept where
//!    it comes nearer the contract (projected Gauss–Seidel with subspace
//!    minimization, Silcowitz, Niebe & Erleben 2010), up to [`SWEEP_WORK`]
//!    non-zeros visited. The sweeps settle the statuses where the fixed
//!    point circles; the exact corrections give the last digits the sweeps
//!    take thousands of rounds for. The fixed point then goes on from there.
//!
//! The frictionless solve stopping short (its interior point on nearly
//! parallel edges, `n ± 0.1 t`) goes to the same rescues.
//!
//! **Where the statuses stand still.** Before any stall, the iteration often
//! reaches the statuses of the answer and then only closes in on it, a
//! factor of 2–3 an evaluation (a 300-ball pile at μ = 0.3 settling: the
//! statuses the same from the 7th evaluation, the ratio to the contract
//! 1.7e4 there, 76 at the 12th, where Lemke's method took over). When two
//! evaluations in a row hold the same statuses (on all but at most
//! [`STILL_CHANGES`] rows), `polish` solves their equations at once
//! ([`STILL_ROUNDS`] rounds), and its answer is taken where it meets the
//! contract; otherwise the iteration goes on. On that pile's first 0.55 s
//! (release, paired runs) the mean step went from 102–107 ms to 74–84 ms,
//! the worst from 3.1–3.3 s to 0.74–0.93 s, the 99th percentile from
//! 1.2–1.3 s to 0.65 s (280 and 320 balls alike); on the 100-ball pile's
//! first 2 s, from 11.1 to 8.1 ms (worst 255 to 150 ms). On the big island
//! it still fails in about two tries of three: the least-norm correction
//! spreads a hyperstatic pile's impulses with negative entries.
//! On an island of more than [`NEWTON_EDGES`] edges, those equations are
//! solved instead by Newton's method on Alart–Curnier's statuses
//! ([`crate::status_newton`]): sparse, its proximal steps keep the
//! iterate's spread (no negative entries where a nonnegative spread is
//! near), and it takes the statuses the answer asks in turn (on the 300
//! balls the mean step went from 47 to 24–27 ms). It is tried once more,
//! from the iterate, before Lemke's method (a few milliseconds against
//! Lemke's 0.2–1.4 s): over the 300-ball pile's first 0.6 s, mean 340 →
//! 185 ms and worst 27 → 7.8 s; 100 balls over 2 s, 5.6 → 4.8 ms.
//!
//! **The complete method.** Coulomb's problem at the velocity level with the
//! plane's two-edged cone has an answer wherever some velocity meets every
//! row's target (Anitescu & Potra 1997: the problem's matrix is
//! copositive-plus, and a feasible problem of that kind has an answer), and
//! Lemke's method on Anitescu–Potra's complementarity problem finds one.
//! Targets `c ≥ 0` are met by `v = 0`. A row asked to push out (`c < 0`: a
//! row left inside within the contract, up to 1e-10 m by default
//! ([`crate::timestep::INSIDE`]), or a rebound) can ask what no velocity
//! gives on a hyperstatic pile, and there the walk ends on a true ray: a
//! 300-ball pile at μ = 0.3 (t = 0.864 s, 543 rows, 30 of them inside by up
//! to 1.3e-11 m) ended a step `Unsolved` so, every walk on a ray whatever its
//! hair or covering vector. Where a walk ends on a ray and a target is
//! negative, it is walked again with each row only kept from going deeper
//! (`max(c, 0)`), and that answer is held to the true contract. An island of
//! at most [`COMPLETE_ROWS`] rows goes at its first stall to the complete
//! dense solve ([`crate::coulomb::Problem::solve`]: pivoting from the
//! iterate's statuses, Lemke's method with `q` perturbed by a hair and its
//! statuses then solved exactly, the enumeration where small). A larger
//! island goes at its first stall, or after [`LEMKE_AFTER`] evaluations, to
//! Newton's method on its statuses and then to Lemke's method on a sparse
//! basis ([`crate::anitescu_potra`], [`crate::sparse_lemke`]: a few hundred
//! milliseconds on the 800 edges of a 300-ball pile, where the rescues took
//! seconds), and only where that misses to the rescues, then (up to
//! [`LAST_RESORT_ROWS`] rows) to the dense solve. Each answer, whatever found
//! it, is held to the contract below before it is taken. Lemke's method
//! terminates in exact arithmetic; in floating point, on a hyperstatic heap,
//! round-off can outweigh the perturbation that breaks its ties and it can
//! end on a false ray: it is tried again with larger perturbations, and where
//! all of it misses, the step says so.
//!
//! **The contract** is the frictionless one ([`crate::lcp::CONTRACT`]) on
//! (1) with `s` taken from the answer's own `v⁺` (not the iterate's): the
//! edge impulses `π± ≥ −ε_π` (the cone), `w± ≥ −ε_a` (no penetration),
//! `|π± w±| ≤ ε_c` (normal complementarity, zero slip where it sticks,
//! `|P_t| = μ P_n` against the slip where it slides), with tolerances from
//! the island's own data. It is the stopping test; an iteration that has
//! not met it after [`MAX_ITERATIONS`] evaluations stops with its ratio
//! ([`crate::lcp::Stop::FixedPoint`]), and the caller says so: nothing
//! loose passes as an answer.
//!
//! Equalities (rods, pins) and contacts without friction are one row each,
//! as in the frictionless problem.
//!
//! **Islands.** Time-stepping calls [`solve_islands`]: rows that share no
//! moving coordinate are separate problems, each with its own fixed point,
//! stall and rescues, solved on every core and gathered in order (the
//! answer does not depend on the thread count).
//!
//! **Files.** This one holds the fixed point, its islands and the walk's
//! call; `cone_fixed_point/rescues.rs` the rescues (`polish`, the sweeps)
//! and the dense complete solve.

use nalgebra::{DMatrix, DVector};
use rayon::prelude::*;

use crate::anderson::Anderson;
use crate::anitescu_potra;
pub use crate::cone_edges::Rows;
use crate::cone_edges::{Edge, edges, velocity};
use crate::constraint::SparseRow;
use crate::coulomb::{DENSE_ROWS, FrictionContact, LemkeEnd, Mode, Problem, dense_a};
use crate::lcp::{self, Cap, Stop, solve_lcp_from, solve_lcp_from_step};
use crate::nsgs::{self, Pair};
use crate::schur::SchurGraph;
use crate::status_newton;
use crate::union_find::UnionFind;

mod rescues;

use rescues::{Exact, Sweep, polish};

/// Evaluations of `G` before the fixed point gives up.
pub const MAX_ITERATIONS: usize = 60;
/// Anderson's memory: the last `DEPTH` differences of iterates.
pub const DEPTH: usize = 6;
/// Iterations without the residual halving that make a stall.
pub const STALL: usize = 4;
/// Stalls a solve rescues (`polish`, then [`nsgs`] with corrections).
pub const RESCUES: usize = 6;
/// Stalls a solve rescues on an island past [`RESCUE_EDGES`] edges. There
/// a rescue costs a second or two (`polish` is dense, the cube of the held
/// edges, and it follows each chunk of sweeps), and a solve that misses
/// goes back to the step, which solves again with the crossed rows'
/// targets corrected (another problem). On 290-, 300- and 310-ball piles at
/// μ = 0.3 over their first 2 s, the rescues ran in five solves (islands
/// of 1090–1270 edges, after Lemke's walks missed): three met the contract
/// after their first rescue, the other two spent all six (1.1–1.9 s each,
/// 8.7 and 10.8 s a solve) and missed. With one, those runs end on the
/// same states, bit for bit (the 290 balls' worst step 20.7 → 7.2 s).
pub const LARGE_RESCUES: usize = 1;
/// Edges past which an island has [`LARGE_RESCUES`] rescues.
pub const RESCUE_EDGES: usize = 1024;
/// The work of one run of [`nsgs`], in non-zeros of `A` visited: its sweeps
/// are this over the non-zeros of one sweep.
pub const SWEEP_WORK: usize = 40_000_000;
/// The sweeps of one rescue at most, whatever the island's size: a small
/// island that has not met the contract in this many will not (a box
/// struck into a corner with rebound targets that no velocity meets, solved
/// 24 times by the restitution's bisection, took minutes at 1.3 million).
pub const MAX_SWEEPS: usize = 16_384;
/// Sweeps of [`nsgs`] between two exact corrections by `polish`.
pub const CHUNK: usize = 256;
/// Rounds of `polish`: statuses taken from its last answer.
pub const POLISH_ROUNDS: usize = 10;
/// Rounds of `polish` where the fixed point's statuses stand still
/// (module docs): on the 300-ball pile at μ = 0.3, 2 rounds gave a mean step
/// of 77–94 ms, 1 round 115 ms, 4 rounds 143 ms (96–107 ms without; a run's
/// hardest steps vary with its path).
pub const STILL_ROUNDS: usize = 2;
/// Statuses that may change between two evaluations that still count as
/// standing still: on the same pile (280, 300, 320 balls), 3 against 0 took
/// the worst step from 1.3–1.4 s to 0.76 s and the mean 2–6 % lower.
pub const STILL_CHANGES: usize = 3;
/// Edges up to which `polish` is tried where the statuses stand still: its
/// dense `B Bᵀ` costs the cube of the held edges (3–40 ms on the 300-ball
/// pile's 600–800 held edges). Past [`NEWTON_EDGES`], Newton's method on
/// the statuses ([`status_newton`]) takes its place there.
pub const STILL_EDGES: usize = 2000;
/// A held edge whose gap, relative to the largest, passes this after a
/// round of `polish` lets go.
pub const CONTRACT_GAP: f64 = 1e-9;
/// Rows (normal and tangential) up to which the complete dense solve
/// (`Exact`) is the last resort: its pivoting and Lemke's method on a
/// dense tableau cost the cube of this (a few milliseconds), where on a
/// 390-edge pile they took up to a minute and missed the contract anyway.
pub const COMPLETE_ROWS: usize = 96;
/// Rows up to which the complete dense solve is the last resort once the
/// rescues are spent: Lemke's method on a heap of 140 discs (560 unknowns)
/// takes 0.2–1.4 s, where the step would otherwise stop.
pub const LAST_RESORT_ROWS: usize = 400;
/// An edge's warm start below this part of its contact's `P_n` is the
/// round-off of `(P_n ± P_t/μ)/2` on an edge the last step left at 0.
pub const WARM_ROUND_OFF: f64 = 1e-12;
/// Edges past which, where the fixed point's statuses stand still, Newton's
/// method on the statuses ([`status_newton`], sparse) takes the place of
/// the dense `polish`.
pub const NEWTON_EDGES: usize = 128;

/// How long [`solve`] keeps at a problem that may have no answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Patience {
    /// Every method in turn (module docs): the step has no other answer.
    Full,
    /// Up to the complete method's first walk, not the rescues after it:
    /// for Newton's rebound targets, which can ask what no velocity gives
    /// on a hyperstatic set, and whose miss the caller meets with the
    /// plastic targets, which always have an answer. (Without the walk,
    /// Newton's targets missed on 46 of 60 steps of a 300-ball pile at
    /// μ = 0.3 where they missed on 15 with it, and the steps took longer.)
    Quick,
}

/// A start of [`solve`] per normal row: the last step's `P_n`, `P_t` and
/// `P_m` (0 where none).
#[derive(Clone, Copy)]
pub struct Impulses<'a> {
    pub normal: &'a [f64],
    pub tangent: &'a [f64],
    pub roll: &'a [f64],
}

/// The answer of [`solve`], per normal row.
#[derive(Clone, Debug)]
pub struct Answer {
    /// `v⁺`.
    pub qd: Vec<f64>,
    /// `P_n` (`π⁺ + π⁻` on a contact with friction).
    pub normal: Vec<f64>,
    /// `P_t = μ (π⁺ − π⁻)` (0 without friction).
    pub tangent: Vec<f64>,
    /// `P_m`, the rolling row's impulse (0 without rolling resistance).
    pub roll: Vec<f64>,
    /// Rows the last solve held (an edge of it clamped with `π > 0`).
    pub held: Vec<bool>,
    /// Evaluations of `G` (frictionless solves).
    pub iterations: usize,
    /// Islands of the edge problem.
    pub islands: usize,
    /// Where the solve or the fixed point stopped short (`None`: the
    /// contract holds).
    pub capped: Option<Cap>,
}

/// Solves (1) for `v⁺ = v_free + M⁻¹ Σ π_e r_eᵀ` with targets `c` (per
/// normal row), from `warm` (the last step's `P_n`, `P_t`, `P_m`, 0 where
/// none) and the shift `slip0` (`μ |u_t| + μ_r |u_m|` at the step's start,
/// per normal row);
/// `floor`: the contract's least tolerance on a speed
/// ([`crate::lcp::contract_ratio_above`]).
#[allow(clippy::too_many_arguments)]
pub fn solve(
    rows: &Rows,
    minv: &[f64],
    vfree: &[f64],
    c: &[f64],
    warm: &Impulses,
    slip0: &[f64],
    floor: f64,
    patience: Patience,
) -> Answer {
    let n = rows.normal.len();
    // With rolling resistance (four edges a contact) the two-edge statuses
    // that `polish`, the sweeps and the dense complete solve work on do not
    // exist: the fixed point, Newton's method on the held edges at any size,
    // then Lemke's method on Anitescu–Potra's problem.
    let rolls = rows.rolls();
    let (edge, sparse, contacts) = edges(rows);
    let refs: Vec<&SparseRow> = sparse.iter().collect();
    let graph = SchurGraph::new(&refs, minv);
    let neq = rows.neq;
    // The edges' start: `π± = (P_n ± P_t/μ)/2`, clipped to the cone, and
    // an edge the last step left at 0 back at 0, not at the round-off of
    // that difference (4e-19 on a standing box pyramid at μ = 0.2): held
    // from there, the proximal round took it to −1e-8 and out, and the
    // island was factored again, nearly every step.
    let mut pi: Vec<f64> = edge
        .iter()
        .map(|e| {
            let pn = warm.normal[e.row];
            if e.sign == 0.0 {
                return pn;
            }
            let p = e.share(pn, warm.tangent[e.row], warm.roll[e.row]);
            if p > (WARM_ROUND_OFF * pn).max(0.0) { p } else { 0.0 }
        })
        .collect();
    let base: Vec<f64> = sparse.iter().zip(&edge).map(|(r, e)| r.dot(vfree) + c[e.row]).collect();
    let mut s: Vec<f64> = contacts.iter().map(|&i| slip0[i].max(0.0)).collect();
    let mut slot = vec![usize::MAX; n];
    for (j, &i) in contacts.iter().enumerate() {
        slot[i] = j;
    }
    let rhs = |s: &[f64]| -> Vec<f64> {
        base.iter().zip(&edge).map(|(b, e)| -(b + if e.sign == 0.0 { 0.0 } else { s[slot[e.row]] })).collect()
    };
    let velocity = |pi: &[f64]| velocity(&sparse, minv, vfree, pi);
    let shift = |v: &[f64]| -> Vec<f64> { contacts.iter().map(|&i| rows.shift(i, v)).collect() };
    // The contract on (1) with the answer's own shift, and whether it holds.
    let ratio_of = |p: &[f64]| lcp::contract_ratio_above(&graph, &rhs(&shift(&velocity(p))), neq, p, floor);
    let meets = |p: &[f64]| ratio_of(p) <= 1.0;
    let done = |p: Vec<f64>, iterations: usize| {
        let v = velocity(&p);
        let held_edge: Vec<bool> = p.iter().map(|x| *x > 0.0).collect();
        finish(n, &graph, &edge, &p, &held_edge, v, iterations, None)
    };
    // The statuses of the last evaluation, and the last ones `polish` tried.
    let (mut still, mut polished): (Option<Vec<u8>>, Option<Vec<u8>>) = (None, None);
    let mut anderson = Anderson::new(DEPTH, STALL);
    let mut gauss_seidel: Option<Sweep> = None;
    let mut rescues = 0;
    let most_rescues = if edge.len() > RESCUE_EDGES { LARGE_RESCUES } else { RESCUES };
    let mut lemke_tried = false;
    let mut iterations = 0;
    let mut nearest = f64::INFINITY;
    loop {
        iterations += 1;
        // The first solve starts from the last step's answer (see
        // `solve_lcp_from_step`), the others from this step's last.
        let lcp = if iterations == 1 { solve_lcp_from_step } else { solve_lcp_from }(&graph, &rhs(&s), neq, &pi, 0.0);
        pi = lcp.lambda;
        let v = velocity(&pi);
        let g = shift(&v);
        // The contract on (1) with the answer's own shift.
        let ratio = if lcp.capped.is_some() {
            f64::INFINITY
        } else {
            lcp::contract_ratio_above(&graph, &rhs(&g), neq, &pi, floor)
        };
        if ratio <= 1.0 {
            return finish(n, &graph, &edge, &pi, &lcp.clamped, v, iterations, None);
        }
        nearest = nearest.min(ratio);
        // The statuses the iterate holds have (nearly) not changed since the
        // last evaluation: their equations solved at once (module docs), once
        // per set of statuses.
        if edge.len() <= STILL_EDGES {
            let now = held_edges(n, neq, &edge, &pi, &lcp.clamped);
            if lcp.capped.is_none()
                && still.as_ref().is_some_and(|last| changes(last, &now) <= STILL_CHANGES)
                && polished.as_ref() != Some(&now)
            {
                polished = Some(now.clone());
                if rolls || edge.len() > NEWTON_EDGES {
                    if let Some(p) = status_newton::solve(rows, &edge, &sparse, minv, vfree, c, &pi, ratio_of) {
                        return done(p, iterations);
                    }
                } else if let Some(p) =
                    polish(rows, &sparse, &edge, minv, vfree, c, &pi, STILL_ROUNDS, meets).filter(|p| meets(p))
                {
                    return done(p, iterations);
                }
            }
            still = Some(now);
        }
        if contacts.is_empty() {
            return finish(n, &graph, &edge, &pi, &lcp.clamped, v, iterations, lcp.capped);
        }
        // Stalled (the residual has not halved for a while), or the
        // frictionless solve stopped short: the rescues, each answer held
        // to the contract.
        let stalled = lcp.capped.is_some() || anderson.stalled + 1 >= STALL;
        // A small island: the complete dense solve at the first stall
        // (pivoting, Lemke's method, the enumeration of every status, which
        // also proves where none holds), its cost bounded by its size.
        let complete = |limit: usize| {
            let exact = Exact::new(rows, minv, vfree, c, &contacts, limit)?;
            exact.solve(statuses(neq, &slot, &edge, &pi, &lcp.clamped), &edge).filter(|p| meets(p))
        };
        // The iterate, with why it stopped short.
        let give_up = || {
            let why = lcp.capped.or(Some(Cap { rows: edge.len(), pivots: iterations, why: Stop::FixedPoint(nearest) }));
            finish(n, &graph, &edge, &pi, &lcp.clamped, v, iterations, why)
        };
        if !rolls && (stalled || iterations >= MAX_ITERATIONS) && Exact::fits(rows, &contacts, COMPLETE_ROWS) {
            if let Some(p) = complete(COMPLETE_ROWS) {
                return done(p, iterations + 1);
            }
            return give_up();
        }
        // A larger island: Lemke's method on a sparse basis at the first
        // stall, Newton's method on the iterate's statuses first.
        let patient = if rolls { LEMKE_AFTER_ROLLING } else { LEMKE_AFTER };
        if (stalled || iterations >= patient) && !lemke_tried {
            lemke_tried = true;
            if (rolls || edge.len() > NEWTON_EDGES)
                && lcp.capped.is_none()
                && let Some(p) = status_newton::solve(rows, &edge, &sparse, minv, vfree, c, &pi, ratio_of)
            {
                return done(p, iterations);
            }
            if let Some(p) = sparse_lemke(rows, &sparse, &edge, minv, vfree, c, &ratio_of) {
                return done(p, iterations + 1);
            }
            if patience == Patience::Quick {
                return give_up();
            }
        }
        if !rolls && stalled && rescues < most_rescues {
            rescues += 1;
            // The statuses the iterate holds, made exact.
            if lcp.capped.is_none()
                && let Some(p) =
                    polish(rows, &sparse, &edge, minv, vfree, c, &pi, POLISH_ROUNDS, meets).filter(|p| meets(p))
            {
                return done(p, iterations);
            }
            // Gauss–Seidel over the contacts, each chunk of sweeps followed
            // by the exact solve of the statuses it reached, put back into
            // the cones, kept where it comes nearer the contract (projected
            // Gauss–Seidel with subspace minimization: Silcowitz, Niebe &
            // Erleben 2010).
            let gs = &*gauss_seidel.get_or_insert_with(|| Sweep::new(rows, minv, vfree, c, &contacts));
            let mut start = gs.impulses(&edge, &pi);
            let mut swept = 0;
            while swept < gs.max_sweeps {
                let got = nsgs::solve(&gs.graph, &gs.b, neq, &gs.pairs, &start, CHUNK, |l| meets(&gs.edges(&edge, l)));
                swept += got.sweeps;
                let mut next = gs.edges(&edge, &got.lambda);
                if got.done {
                    return done(next, iterations);
                }
                if let Some(mut q) = polish(rows, &sparse, &edge, minv, vfree, c, &next, 1, meets) {
                    q.iter_mut().zip(&edge).for_each(|(x, e)| {
                        if e.row >= neq {
                            *x = x.max(0.0);
                        }
                    });
                    if meets(&q) {
                        return done(q, iterations);
                    }
                    if ratio_of(&q) < ratio_of(&next) {
                        next = q;
                    }
                }
                start = gs.impulses(&edge, &next);
            }
            pi = gs.edges(&edge, &start);
            s = shift(&velocity(&pi));
            anderson = Anderson::new(DEPTH, STALL);
            continue;
        }
        if iterations >= MAX_ITERATIONS || lcp.capped.is_some() || (stalled && (rolls || rescues >= most_rescues)) {
            // The rescues spent: the complete dense solve where the island
            // is not too large for it.
            if let Some(p) = (!rolls).then(|| complete(LAST_RESORT_ROWS)).flatten() {
                return done(p, iterations + 1);
            }
            return give_up();
        }
        s = anderson.next(&s, &g).into_iter().map(|x| x.max(0.0)).collect();
    }
}

/// [`solve`] island by island, on every core: the rows fall into islands
/// that share no moving coordinate (a ball on the floor and one on the
/// wall, across the room), each its own problem with its own fixed point,
/// stall and rescues (one island that circles no longer holds the others
/// to its evaluations, nor sends them to Lemke's method with it). Each
/// island is solved on its own coordinates, numbered in their order, and
/// the answers are gathered in the islands' order: the result does not
/// depend on the number of threads.
#[allow(clippy::too_many_arguments)]
pub fn solve_islands(
    rows: &Rows,
    minv: &[f64],
    vfree: &[f64],
    c: &[f64],
    warm: &Impulses,
    slip0: &[f64],
    floor: f64,
    patience: Patience,
) -> Answer {
    let parts = islands(rows, minv);
    if parts.len() <= 1 {
        return solve(rows, minv, vfree, c, warm, slip0, floor, patience);
    }
    let one = |part: &Vec<usize>| {
        // The island's coordinates, in their order, and its rows on them.
        let mut cols: Vec<usize> = part
            .iter()
            .flat_map(|&i| {
                let t = rows.tangent[i].map_or(&[][..], |(t, _)| t.entries());
                let m = rows.roll[i].map_or(&[][..], |(m, _)| m.entries());
                rows.normal[i].entries().iter().chain(t).chain(m).map(|(c, _)| *c)
            })
            .collect();
        cols.sort_unstable();
        cols.dedup();
        let local = |r: &SparseRow| {
            let e: Vec<(usize, f64)> =
                r.entries().iter().map(|(c, v)| (cols.binary_search(c).expect("a column of the island"), *v)).collect();
            SparseRow::from_entries(&e)
        };
        let normal: Vec<SparseRow> = part.iter().map(|&i| local(rows.normal[i])).collect();
        let tangent: Vec<Option<(SparseRow, f64)>> =
            part.iter().map(|&i| rows.tangent[i].map(|(t, mu)| (local(t), mu))).collect();
        let roll: Vec<Option<(SparseRow, f64)>> =
            part.iter().map(|&i| rows.roll[i].map(|(m, mu_r)| (local(m), mu_r))).collect();
        let sub = Rows {
            normal: normal.iter().collect(),
            tangent: tangent.iter().map(|t| t.as_ref().map(|(t, mu)| (t, *mu))).collect(),
            roll: roll.iter().map(|m| m.as_ref().map(|(m, mu_r)| (m, *mu_r))).collect(),
            neq: part.iter().take_while(|&&i| i < rows.neq).count(),
        };
        let pick = |x: &[f64], at: &[usize]| -> Vec<f64> { at.iter().map(|&i| x[i]).collect() };
        let (normal, tangent, roll) = (pick(warm.normal, part), pick(warm.tangent, part), pick(warm.roll, part));
        let answer = solve(
            &sub,
            &pick(minv, &cols),
            &pick(vfree, &cols),
            &pick(c, part),
            &Impulses { normal: &normal, tangent: &tangent, roll: &roll },
            &pick(slip0, part),
            floor,
            patience,
        );
        (cols, answer)
    };
    let n = rows.normal.len();
    // Threads only where the islands are worth waking them for.
    let solved: Vec<(Vec<usize>, Answer)> =
        if n >= PARALLEL_ROWS { parts.par_iter().map(one).collect() } else { parts.iter().map(one).collect() };
    let mut all = Answer {
        qd: vfree.to_vec(),
        normal: vec![0.0; n],
        tangent: vec![0.0; n],
        roll: vec![0.0; n],
        held: vec![false; n],
        iterations: 0,
        islands: 0,
        capped: None,
    };
    for (part, (cols, answer)) in parts.iter().zip(solved) {
        for (l, &d) in cols.iter().enumerate() {
            all.qd[d] = answer.qd[l];
        }
        for (l, &i) in part.iter().enumerate() {
            all.normal[i] = answer.normal[l];
            all.tangent[i] = answer.tangent[l];
            all.roll[i] = answer.roll[l];
            all.held[i] = answer.held[l];
        }
        all.iterations = all.iterations.max(answer.iterations);
        all.islands += answer.islands;
        all.capped = answer.capped.or(all.capped);
    }
    all
}

/// Rows from which [`solve_islands`] solves its islands on several threads
/// (below, one after the other: the same answer, without waking threads
/// for a few contacts, a step's share bisection solving up to 25 times).
pub const PARALLEL_ROWS: usize = 64;

/// The rows of `rows` in islands that share no moving coordinate (its
/// normal and tangential rows), each in increasing order, the islands in
/// order of their first row.
fn islands(rows: &Rows, minv: &[f64]) -> Vec<Vec<usize>> {
    let n = rows.normal.len();
    let mut sets = UnionFind::new(n);
    let mut owner = vec![usize::MAX; minv.len()];
    for i in 0..n {
        let t = rows.tangent[i].map_or(&[][..], |(t, _)| t.entries());
        let m = rows.roll[i].map_or(&[][..], |(m, _)| m.entries());
        for (c, _) in rows.normal[i].entries().iter().chain(t).chain(m) {
            if minv[*c] == 0.0 {
                continue;
            }
            if owner[*c] == usize::MAX {
                owner[*c] = i;
            } else {
                sets.join(owner[*c], i);
            }
        }
    }
    let mut slot = vec![usize::MAX; n];
    let mut parts: Vec<Vec<usize>> = Vec::new();
    for i in 0..n {
        let r = sets.root(i);
        if slot[r] == usize::MAX {
            slot[r] = parts.len();
            parts.push(Vec::new());
        }
        parts[slot[r]].push(i);
    }
    parts
}

/// Lemke's method on Anitescu–Potra's problem of the island, sparse
/// ([`crate::anitescu_potra`]), as edge impulses held to the contract (its
/// statuses made exact by `polish` where round-off leaves it just short).
#[allow(clippy::too_many_arguments)]
fn sparse_lemke(
    rows: &Rows,
    sparse: &[SparseRow],
    edge: &[Edge],
    minv: &[f64],
    vfree: &[f64],
    c: &[f64],
    ratio: &impl Fn(&[f64]) -> f64,
) -> Option<Vec<f64>> {
    let meets = |p: &[f64]| ratio(p) <= 1.0;
    let problem = anitescu_potra::Problem::new(rows, minv, vfree, c)?;
    let answer = match problem.solve() {
        Ok(answer) => answer,
        // Rows asked to push out (`c < 0`: rows left inside, rebounds) can
        // ask what no velocity gives on a hyperstatic set, and then the
        // problem has no answer and the walk ends on a true ray (module
        // docs); with each row only kept from going deeper (`max(c, 0)`,
        // which `v = 0` meets) it has one. That answer, held to the true
        // contract below.
        Err(LemkeEnd::Ray) if c.iter().any(|x| *x < 0.0) => {
            let deeper: Vec<f64> = c.iter().map(|x| x.max(0.0)).collect();
            anitescu_potra::Problem::new(rows, minv, vfree, &deeper)?.solve().ok()?
        }
        Err(_) => return None,
    };
    let p = edge_impulses(edge, |row| (answer.normal[row], answer.tangent[row], answer.roll[row]));
    // With rolling resistance `polish` does not apply: the walk's answer or none.
    let met = meets(&p);
    if met || rows.rolls() {
        return met.then_some(p);
    }
    polish(rows, sparse, edge, minv, vfree, c, &p, POLISH_ROUNDS, meets).filter(|p| meets(p))
}

/// Evaluations of `G` after which an island past [`COMPLETE_ROWS`] goes to
/// Lemke's method on a sparse basis even if it has not stalled: on a
/// 300-ball pile a frictionless solve of 800 edges costs about 5 ms, Lemke's
/// method 0.15–0.3 s.
pub const LEMKE_AFTER: usize = 12;

/// [`LEMKE_AFTER`] on an island with rolling resistance, where the fixed
/// point takes longer and Lemke's walk on its larger problem (seven
/// unknowns a contact) costs more: on the 90-disc heap (`μ = 0.5`, `μ_r =
/// 0.3`) pouring, of 104 walks over its first 1.3 s 78 came at the 12th
/// evaluation, not at a stall, most with the iterate 1.5–40 times off the
/// contract; with 20, a mean step of 5.2 ms against 6.5 ms (30: 6.0 ms).
pub const LEMKE_AFTER_ROLLING: usize = 20;

/// How many rows hold other statuses in `a` than in `b`.
fn changes(a: &[u8], b: &[u8]) -> usize {
    a.iter().zip(b).filter(|(x, y)| x != y).count()
}

/// The statuses the edges hold, per normal row: a bit for each of its
/// edges held (`π > 0` and clamped), in their order; an equality is always
/// held. Without rolling resistance these are [`statuses`] (off `0`, on
/// `1`, stick `3`, slip along `−t` `1`, along `+t` `2`).
fn held_edges(n: usize, neq: usize, edge: &[Edge], pi: &[f64], held: &[bool]) -> Vec<u8> {
    let mut mask = vec![0u8; n];
    let mut first = vec![usize::MAX; n];
    for (k, ((e, p), h)) in edge.iter().zip(pi).zip(held).enumerate() {
        if first[e.row] == usize::MAX {
            first[e.row] = k;
        }
        if e.row < neq || (*h && *p > 0.0) {
            mask[e.row] |= 1 << (k - first[e.row]);
        }
    }
    mask
}

/// The statuses the edges hold (off, on, stick: both edges, slip: one),
/// per normal row of two edges at most ([`held_edges`] read as
/// [`crate::coulomb::Mode`]s); `slot[i]` is `usize::MAX` on a row without
/// friction.
fn statuses(neq: usize, slot: &[usize], edge: &[Edge], pi: &[f64], held: &[bool]) -> Vec<Mode> {
    held_edges(slot.len(), neq, edge, pi, held)
        .into_iter()
        .enumerate()
        .map(|(i, mask)| match (i < neq, slot[i] != usize::MAX, mask) {
            (true, _, _) => Mode::On,
            (false, false, 0) => Mode::Off,
            (false, false, _) => Mode::On,
            (false, true, 3) => Mode::Stick,
            // The `+` edge (bit 0) pushes along `+t`: the slip is along `−t`.
            (false, true, 1) => Mode::Slip(-1.0),
            (false, true, 2) => Mode::Slip(1.0),
            (false, true, _) => Mode::Off,
        })
        .collect()
}

/// Edge impulses `π± = (P_n ± P_t/μ)/2` from `(P_n, P_t, P_m)` of each
/// normal row (`P_n` on a row without friction; [`Edge::share`] with
/// rolling resistance), clipped into the cone: `|P_t| ≤ μ P_n (1 + ε)` to
/// round-off gives an edge at `−ε`.
fn edge_impulses(edge: &[Edge], of: impl Fn(usize) -> (f64, f64, f64)) -> Vec<f64> {
    edge.iter()
        .map(|e| {
            let (pn, pt, pm) = of(e.row);
            if e.sign == 0.0 { pn } else { e.share(pn, pt, pm).max(0.0) }
        })
        .collect()
}

/// The answer per normal row from the edges' impulses `pi`.
#[allow(clippy::too_many_arguments)]
fn finish(
    n: usize,
    graph: &SchurGraph,
    edge: &[Edge],
    pi: &[f64],
    held_edge: &[bool],
    qd: Vec<f64>,
    iterations: usize,
    capped: Option<Cap>,
) -> Answer {
    let mut normal = vec![0.0; n];
    let mut tangent = vec![0.0; n];
    let mut roll = vec![0.0; n];
    let mut held = vec![false; n];
    for ((e, p), h) in edge.iter().zip(pi).zip(held_edge) {
        normal[e.row] += p;
        if e.sign != 0.0 {
            tangent[e.row] += e.sign * e.mu * p;
        }
        if e.roll != 0.0 {
            roll[e.row] += e.roll * e.mu_r * p;
        }
        held[e.row] |= *h && *p > 0.0;
    }
    let islands = graph.islands().into_iter().max().map_or(0, |i| i + 1);
    Answer { qd, normal, tangent, roll, held, iterations, islands, capped }
}
