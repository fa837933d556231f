//! Moreau–Jean time-stepping: one velocity-level problem a step, beside the
//! paper's event-driven scheme ([`crate::world`], [`crate::events`]).
//!
//! The event-driven step rewinds to every first activation and solves the
//! touching island at each: exact between few separated events, but on a
//! landing pile its cost has no bound (issue 38). Time-stepping captures the
//! events of a step instead of locating them (Moreau 1988, Jean 1999; Acary &
//! Brogliato 2008, the "work horse" of Siconos): with `h` the step,
//!
//! ```text
//! v_free = q̇ + h M⁻¹ f(q, q̇)
//! q̇⁺     = v_free + M⁻¹ Jᵀ P                      (J, g at the step's start)
//! 0 ≤ P_k ⊥ J_k q̇⁺ + c_k ≥ 0                       (inequalities within reach)
//!     J_k q̇⁺ + c_k = 0                            (equalities: rods, pins, beads)
//! q⁺     = q + h q̇⁺
//! ```
//!
//! with the target `c_k`:
//!
//! * `c_k = g_k / h`: the row may close its gap and no more, so it lands on
//!   the surface at the end of the step (`g(q⁺) ≥ g + h J q̇⁺ ≥ 0` where `g` is
//!   convex along the step: a disc on a disc or a wall, exact up to
//!   round-off); an equality is held at the position level the same way.
//!   There is no Baumgarte term: `|c_k|` is the gap over `h`, bounded by the
//!   contact margin over `h`.
//! * Newton's law where the free motion closes the row within the step
//!   (`g_k + h J_k v_free ≤ 0`) and it approached at the step's start faster
//!   than the impact speed (`J_k q̇ ≤ −min_impact_speed`): `c_k = min(e_k J_k q̇
//!   − h a_k, g_k / h)`, a rebound at `e_k` times **this step's own** approach speed,
//!   less what the step's free pull `a_k = J_k M⁻¹ f < 0` takes off over it
//!   (the previous step's velocities made the design study's prototype gain
//!   energy, 15 J to 19,920 J; leaving at `e |v|` for a whole step against
//!   gravity gains `m g h e |v|`, more than the bounce loses below `2 g h e /
//!   (1 − e²)`, 13 mm/s at h = 1 ms, e = 0.5). Slower rows are plastic: a resting stack does
//!   not micro-bounce, with no special case (Box2D bounces only above 1 m/s,
//!   rapier only on new contacts; our threshold is the scene's
//!   `min_impact_speed`, the event-driven scheme's own).
//!
//! **Exact per step.** Without friction this is the complementarity problem
//! `a = A P − b`, `A = J M⁻¹ Jᵀ`, `b = −(J v_free + c)`, solved by
//! [`crate::lcp::solve_lcp_from`] (from the last step's impulses: on a pile
//! at rest one proximal round on the rows it held, which keeps the interior
//! point's positive impulses on a hyperstatic set where pivoting's basic
//! answers have negative ones; else warm pivoting, an interior point past
//! its budget), the contract [`crate::lcp::CONTRACT`] checked after every
//! solve: `P ≥ −ε_P`, `a ≥ −ε_a`, `|P a| ≤ ε_c`, with
//! tolerances from the island's own `A` and `b`. Its primal,
//! `min ½‖q̇⁺ − v_free‖²_M` subject to `J q̇⁺ ≥ −c`, is strictly convex, so
//! `q̇⁺` is unique even where `P` is not (a hyperstatic pile). The work is
//! bounded by pivot and iteration counts, never by wall time: replay is bit
//! for bit. A solve that misses the contract is [`crate::world::StepStatus::Unsolved`].
//!
//! **Friction** is Coulomb's planar cone at the velocity level with the
//! targets `c_k`: `v_t⁺ = 0` and `|P_t| ≤ μ P_n`, or `P_t = −μ P_n
//! sign(v_t⁺)`, solved as a fixed point of frictionless problems on the
//! cone's edges ([`crate::cone_fixed_point`]: sparse, warm-started from the
//! last step's impulses and this step's slips), its contract checked after
//! every solve; a miss is [`crate::world::StepStatus::Unsolved`], never Ok.
//!
//! **No impulse creates energy.** Newton's law can: with friction (Kane's
//! example), and without (a rod flat on a floor, one end lifting at 1 m/s
//! and the other falling at 3 m/s, e = 1: the rebound of the falling end
//! drives the lifting end's row closed, whose impulse then works against
//! its own separating speed, +28.6 % in one step). So after the solve, where
//! a row rebounds and either energy grows, the step takes the largest share
//! of every row's restitution that makes neither grow (the regula falsi on
//! the energy a share creates, a handful of solves where the event-driven
//! impacts' bisection takes 30: `friction_impact::largest_share_falsi`):
//!
//! ```text
//! the impulse's:  ½‖q̇⁺‖²_M ≤ ½‖v_free‖²_M
//! the step's:     ½‖q̇⁺‖²_M − h fᵀq̇⁺ ≤ ½‖q̇‖²_M
//! ```
//!
//! The second is the step's change of mechanical energy: `q⁺ = q + h q̇⁺`
//! takes `h fᵀq̇⁺` from the applied forces' potential (gravity's exactly).
//! The first alone let a rebound in a pile lift its neighbours: they leave
//! upwards, and the potential they gain over the step is not in it (a
//! random pile of discs at e = 0.96: +4.9 mJ of 29.09 J in one step; the
//! 100-ball pile at e = 0.3, +2.3 µJ). The plastic law (`c ≥ 0`) never
//! makes either grow: with friction opposing the slip, `½‖q̇⁺‖² − h fᵀq̇⁺ −
//! ½‖q̇‖² = −½‖q̇⁺ − q̇‖² − Σ P_n c + Σ P_t u_t⁺ ≤ 0`.
//!
//! **Friction's work** is each tangential impulse on its row's mean speed
//! over the step, `−P_t J_t (v_free + q̇⁺)/2`: with the normal rows' shares
//! it sums to the change of kinetic energy exactly (the end speed alone
//! missed `½ P_t² A_tt` a step). Rolling resistance's rows ([`crate::rolling`],
//! solved with friction on the box cone) add theirs the same way, `−P_m J_m
//! (v_free + q̇⁺)/2`, to the same sum.
//!
//! **Where Newton's targets have no answer.** On a hyperstatic set they can
//! ask what no velocity gives (a box struck into a corner: four rebound
//! speeds for three coordinates); the plastic targets have one (with
//! friction, the rows left inside only kept from going deeper where
//! pushing them out is what has none: [`cone_fixed_point`]). A
//! solve with rebound targets therefore stops at the complete method's
//! first walk ([`cone_fixed_point::Patience::Quick`]), not after the
//! rescues that follow it, and the step takes the plastic answer; only
//! where that misses too are Newton's targets given every method. A round
//! solved again (below) keeps the share of the restitution the last one
//! took, and with friction starts from the last round's answer; so does
//! each solve of the share's search. A round is solved again for a row the
//! answer crossed past its linear gap (a turn), not for one it left inside
//! within its contract, unless the answer missed it: the row linearized
//! again at the step's midpoint, `g(q + h v) ≈ g + h J(q + h q̇⁺/2) v`,
//! whose error is O(h³) where the start's is O(h²), with the same target
//! `g / h ≥ 0`, so its impulse creates no energy (the plastic law's proof
//! above holds for any `J` the row and its impulse share). Pushing the
//! crossing out by a target below zero instead (what is left after
//! [`MIDPOINTS`] of these) makes the row's impulse work against its own
//! separating speed: a disc rolling across a box that rocks under it
//! gained up to 7.9e-7 J a step, 8e-6 J over 50 steps. Where a round's
//! correction left a crossing where it was ([`STUCK`]: a box's corner come
//! round the lower box's corner, measured at `q⁺` against its side face
//! while its row was linearized on the top face), the row is linearized
//! again at `q⁺`, `g(q + h v) ≈ g⁺ + h J⁺ (v − q̇⁺)` (its tangent too):
//! random stacks had 11 steps in 200,000 end 2e-8 to 2.9e-6 m inside, Ok.
//!
//! Before this, on the 300-ball pile at μ = 0.3, the rows an answer held
//! within friction's contract ended up to 4e-11 m inside, each such step
//! was solved again with Newton's targets, which failed each round after
//! the rescues (seconds each), and one step took 75 s for 12 solves: over
//! 0.6–0.66 s (release, from the same state) the mean step went from 8.0 s
//! to 2.4 s, the worst from 75 s to 16 s (from the drop to 0.8 s: 1.85 s to
//! 0.71 s, 152 s to 24 s), every step meeting its contract.
//!
//! **Rows within reach.** The contact generator keeps rows within
//! `4 h v_max` ([`crate::world`]); a row takes part when the fastest row's
//! speed (at the start or free, either way: a ball knocked by a neighbour
//! takes up to its speed) covers its gap within two steps. The rows left out
//! are checked after the solve: one that `q̇⁺` would close joins, and the
//! step is solved again (a ball knocked into a neighbour it was not
//! approaching), at most [`MAX_ROUNDS`] times.

use crate::cone_fixed_point::{self, Impulses, Patience};
use crate::constraint::{ConstraintKind, RowEval};
use crate::friction_impact::{crossing, gains, largest_share_falsi};
use crate::kkt::{ContactProblem, kinetic_energy};
use crate::lcp::{self, Cap, solve_lcp_from};
use crate::model::{Model, State};
use crate::settings::Settings;
use crate::tangent::tangent_row;

/// Solves of a step when rows left out would be closed by its answer, or
/// its true gaps crossed.
pub const MAX_ROUNDS: usize = 8;

/// A crossed gap that changed by less than this part of itself over a
/// round's correction is stuck: its row is linearized again at `q⁺`.
pub const STUCK: f64 = 1e-3;

/// Times a crossed row is linearized again at the step's midpoint before its
/// target is corrected instead (module docs).
pub const MIDPOINTS: usize = 3;

/// The least tolerance of friction's contract on a speed (speed units,
/// [`crate::units::Units`]): the resting speed, 1e-12 m over a step of 1
/// ms. Without it a body wedged at rest after an impact (a disc in a
/// corner, `b` at 1e-13 m/s; a rod between floor and wall at μ = 1.8 and
/// 1.6, met to 1.4e-10 m/s and no nearer) was held to its own round-off.
pub const SPEED_FLOOR: f64 = 1e-9;

/// A true gap at `q⁺` below `−CROSSED · tol.active` (1e-11 m by default)
/// and as far below its linear one `g + h J q̇⁺` (a turn's curvature, not
/// the solve's contract) has its row's target corrected and the step
/// solved again. A warm answer
/// on a large island may hold its rows to half the contract
/// ([`crate::lcp`]'s proximal rounds: 5e-9 m/s on a 1000-ball pile at
/// rest), 5e-12 m over a step of 1 ms: at 1e-12 m the settled pile was
/// solved two to four times a step for it (a median of 12 ms against 6.4).
pub const CROSSED: f64 = 1e-5;

/// How far inside (`INSIDE · tol.active`, 1e-10 m by default) an answer
/// that met its contract may leave a row for the next step to push out,
/// where its linear gap is there too: friction's contract on a landing
/// pile leaves rows up to 4e-11 m inside, and solving each such step again
/// took seconds a round; without a bound, 3.5e-10 m.
pub const INSIDE: f64 = 1e-4;

/// One step of Moreau–Jean: what [`crate::world::World`] reports.
#[derive(Clone, Debug)]
pub(crate) struct Outcome {
    /// The problem at the step's start (`J`, `g`, `M⁻¹`, `f`).
    pub problem: ContactProblem,
    /// The rows of the velocity problem (equalities first).
    pub rows: Vec<usize>,
    /// `P_k` for every constraint (0 outside `rows`), N·s.
    pub impulse: Vec<f64>,
    /// `P_t` of each contact with friction (empty without), N·s.
    pub friction: Vec<f64>,
    /// `P_m` of each contact with rolling resistance (empty without), N·s
    /// along its rolling row ([`crate::rolling`]).
    pub rolling: Vec<f64>,
    /// `J_k q̇⁺ + c_k` for every constraint (`c_k = g_k / h` outside `rows`).
    pub slack: Vec<f64>,
    /// Rows the solve held (its final clamped set, a basis where it found
    /// one): the next step's warm start. Every row with `P_k > 0` would be
    /// every row after an interior point, whose `P` is positive throughout.
    pub held: Vec<bool>,
    /// Rows with Newton's restitution this step.
    pub bounced: usize,
    /// Velocity problems solved (one, unless rows left out joined).
    pub solves: usize,
    /// Islands of the last one (rows linked through a body).
    pub islands: usize,
    /// The contract missed, or no answer with friction (the frictionless one was taken).
    pub capped: Option<Cap>,
    /// `−Σ P_t (v_t,free + v_t⁺)/2`, and the same over the rolling rows:
    /// what friction and rolling resistance took out, J.
    pub friction_work: f64,
    /// Every constraint's `g` at the step's end ([`Model::constraint_values`]).
    pub g: Vec<f64>,
}

/// The target `c_k` of row `k` (module docs) with `share` of its
/// restitution, and whether it rebounds.
#[allow(clippy::too_many_arguments)]
fn target(
    model: &Model,
    settings: &Settings,
    p: &ContactProblem,
    k: usize,
    qd: &[f64],
    vfree: &[f64],
    h: f64,
    share: f64,
) -> (f64, bool) {
    let r = &p.rows[k];
    let gap = r.g / h;
    if p.kinds[k] == ConstraintKind::Equality {
        return (gap, false);
    }
    let v = r.row.dot(qd);
    let vf = r.row.dot(vfree);
    let closes = r.g + h * vf <= 0.0;
    let fast = -v >= settings.events.min_impact_speed;
    let e = share * model.constraints[k].restitution.unwrap_or(settings.events.restitution);
    if !(closes && fast && e > 0.0) {
        return (gap, false);
    }
    // Newton at the step's start, then the step's free pull `a = (vf − v)/h`
    // where it pulls in: `J q̇⁺ ≥ −e v + h min(a, 0)`. Leaving at `−e v` for
    // the whole step, against gravity, would climb `h e |v| g` it did not
    // pay for: a ball bouncing slower than `2 g h e / (1 − e²)` (13 mm/s at
    // h = 1 ms, e = 0.5) gained energy at each bounce.
    let pull = (vf - v).min(0.0);
    let c = e * v - pull;
    if c < gap { (c, true) } else { (gap, false) }
}

/// Row `k`'s speed either way, at the start or free: an impulse of the step
/// may turn a separating row round.
fn speed(p: &ContactProblem, k: usize, qd: &[f64], vfree: &[f64]) -> f64 {
    let r = &p.rows[k].row;
    r.dot(qd).abs().max(r.dot(vfree).abs())
}

/// Solves of the restitution's share at most when Newton's law would
/// create energy (module docs), by the regula falsi
/// ([`largest_share_falsi`]): as many as the bisection it replaced took.
const SHARE_SOLVES: usize = 24;
/// The share's bracket is narrower than this when it stops (24 halvings).
const SHARE_WIDTH: f64 = 1.0 / (1u64 << 24) as f64;
/// The share kept is within this part of the energy the restitution adds
/// (the excess at the full share less the plastic one's) of creating some
/// when it stops: about what the bisection's 24 halvings left.
const SHARE_CLOSE: f64 = 1e-7;

/// One Moreau–Jean step of `h` from `state` (changed in place); `warm[k]`,
/// `warm_t[k]`, `warm_m[k]`: the impulse, friction impulse and rolling
/// impulse row `k` took last step where the solve held it, else 0.
pub(crate) fn step(
    model: &Model,
    settings: &Settings,
    state: &mut State,
    warm: &[f64],
    warm_t: &[f64],
    warm_m: &[f64],
    h: f64,
) -> Outcome {
    let mut problem = ContactProblem::new(model, state, settings.tau);
    let m = problem.nconstraints();
    let qd = state.qd.clone();
    let vfree: Vec<f64> = qd.iter().zip(&problem.f).zip(&problem.minv).map(|((v, f), w)| v + h * f * w).collect();
    let active = settings.tol.active;
    // Friction's contract counts speeds below this as round-off.
    let floor = settings.units.speed(SPEED_FLOOR);
    // Within reach: a gap the fastest row's speed covers in two steps (a
    // ball knocked by its neighbour takes up to its speed).
    let fastest = (0..m).map(|k| speed(&problem, k, &qd, &vfree)).fold(0.0, f64::max);
    let reach = active + 2.0 * h * fastest;
    let mut member: Vec<bool> = (0..m)
        .map(|k| {
            problem.kinds[k] == ConstraintKind::Equality
                || warm.get(k).is_some_and(|p| *p > 0.0)
                || problem.rows[k].g <= reach
        })
        .collect();
    // What each row's true gap at `q⁺` fell short of its linear one, over
    // `h` (a body that turns: module docs), added to its target.
    let mut curvature = vec![0.0; m];
    // Each row's crossed gap in the last round (NaN: none).
    let mut last_gap = vec![f64::NAN; m];
    // How many times each row was linearized again at the step's midpoint
    // ([`MIDPOINTS`] once it was at `q⁺`, a stuck crossing: it stays there).
    let mut midpoints = vec![0usize; m];
    let start_gap: Vec<f64> = problem.rows.iter().map(|r| r.g).collect();
    let targets_at = |problem: &ContactProblem, share: f64, curvature: &[f64]| -> Vec<(f64, bool)> {
        (0..m)
            .map(|k| {
                let (c, bounce) = target(model, settings, problem, k, &qd, &vfree, h, share);
                (c + curvature[k], bounce)
            })
            .collect()
    };
    let warm = Warm { normal: warm, tangent: warm_t, roll: warm_m, qd: &qd };
    // Energy, by two tests (module docs): the impulse's, `½‖q̇⁺‖²_M ≤
    // ½‖v_free‖²_M`, and the step's, `½‖q̇⁺‖²_M − h fᵀq̇⁺ ≤ ½‖q̇‖²_M` (the
    // applied forces' work along `q̇⁺` is what `q⁺ = q + h q̇⁺` takes from
    // their potential: gravity's, exactly).
    let (free, start) = (problem.kinetic(&vfree), problem.kinetic(&qd));
    // The masses and forces, apart from the rows (a round may linearize a
    // row again at `q⁺`: below).
    let (minv, force) = (problem.minv.clone(), problem.f.clone());
    let kinetic_of = |v: &[f64]| kinetic_energy(&minv, v);
    let work =
        |v: &[f64]| h * force.iter().zip(v).zip(&minv).filter(|(_, w)| **w > 0.0).map(|((f, v), _)| f * v).sum::<f64>();
    let makes_energy = |v: &[f64]| {
        let kinetic = kinetic_of(v);
        gains(free, kinetic) || gains(start, kinetic - work(v))
    };
    // What the share's search keeps to: the larger of the two tests'
    // excesses without their round-off margin (the share it takes keeps the
    // energy to the bit, not within the margin it was tested with).
    let energy_excess = |v: &[f64]| {
        let kinetic = kinetic_of(v);
        (kinetic - free).max(kinetic - work(v) - start)
    };
    let mut targets = targets_at(&problem, 1.0, &curvature);
    // The share of the restitution the step keeps: 1 (Newton's law), 0
    // where Newton's targets have no answer, or what the search found; a
    // round solved again for rows that crossed keeps it.
    let mut share = 1.0;
    // With friction, a round solved again starts from the last round's
    // answer (its targets differ on a few rows), not from the last step's.
    let mut previous = Neighbour(None);
    let (mut solves, mut rounds) = (0, 0);
    loop {
        rounds += 1;
        let rows: Vec<usize> = (0..m)
            .filter(|&k| member[k] && problem.kinds[k] == ConstraintKind::Equality)
            .chain((0..m).filter(|&k| member[k] && problem.kinds[k] == ConstraintKind::Inequality))
            .collect();
        let neq = rows.iter().filter(|&&k| problem.kinds[k] == ConstraintKind::Equality).count();
        let start = previous.as_warm().unwrap_or(warm);
        let restitution = rows.iter().any(|&k| targets[k].1);
        // Newton's rebound targets may have no answer on a hyperstatic set;
        // the plastic ones have one (module docs).
        let patience = if restitution { Patience::Quick } else { Patience::Full };
        solves += 1;
        let mut solved = solve_rows(&problem, &rows, neq, &targets, &vfree, &start, floor, patience);
        // No impulse creates energy: Newton's law can (Kane's example with
        // friction; without, a row the others' rebound drives closed works
        // against its own separating speed), so the largest share of the
        // restitution that does not, by the regula falsi (the plastic law never does
        // on rows that close their gap, `c ≥ 0`). Newton's targets on a
        // hyperstatic set can also ask what no velocity gives (a box struck
        // into a corner: four rebound speeds for three coordinates), where
        // the plastic targets can (`q̇⁺ = 0` meets `c ≥ 0`, and
        // Anitescu–Potra's problem has an answer; a row left inside, `c < 0`,
        // is only kept from going deeper where pushing it out has none): the
        // plastic answer, without a search (each share that fails costs a
        // failed solve).
        if restitution && solved.capped.is_some() {
            let plastic = targets_at(&problem, 0.0, &curvature);
            solves += 1;
            let answer = solve_rows(&problem, &rows, neq, &plastic, &vfree, &start, floor, Patience::Full);
            if answer.capped.is_none() {
                (solved, targets, share) = (answer, plastic, 0.0);
            } else if problem.has_friction(&rows) {
                // The plastic solve missed too: Newton's targets with every
                // method, their energy then checked below.
                solves += 1;
                let again = solve_rows(&problem, &rows, neq, &targets, &vfree, &start, floor, Patience::Full);
                if again.capped.is_none() {
                    solved = again;
                }
            }
        }
        if restitution && share > 0.0 && solved.capped.is_none() && makes_energy(&solved.qd) {
            let plastic = targets_at(&problem, 0.0, &curvature);
            solves += 1;
            // With friction, each solve of the search starts from the answer
            // solved last: they differ only in the rebound rows' targets.
            let first = solve_rows(&problem, &rows, neq, &plastic, &vfree, &start, floor, Patience::Full);
            let mut last = Neighbour::of(&first, &problem, &rows);
            let at_plastic = energy_excess(&first.qd);
            let at_full = energy_excess(&solved.qd);
            // Along the line between two answers' velocities.
            let between = |lo: &(Solved, Vec<(f64, bool)>, f64), hi: &(Solved, Vec<(f64, bool)>, f64)| {
                let (a, b) = (&lo.0.qd, &hi.0.qd);
                crossing(|t| energy_excess(&a.iter().zip(b).map(|(x, y)| x + t * (y - x)).collect::<Vec<f64>>()))
            };
            let full = share;
            (solved, targets, share) = largest_share_falsi(
                ((first, plastic, 0.0), at_plastic),
                ((solved, targets, full), at_full),
                SHARE_SOLVES,
                SHARE_WIDTH,
                SHARE_CLOSE * (at_full - at_plastic.min(0.0)),
                between,
                |part| {
                    let t = targets_at(&problem, part * full, &curvature);
                    let warm = last.as_warm().unwrap_or(start);
                    let s = solve_rows(&problem, &rows, neq, &t, &vfree, &warm, floor, Patience::Quick);
                    solves += 1;
                    if s.capped.is_none() {
                        last = Neighbour::of(&s, &problem, &rows);
                    }
                    s.capped.is_none().then(|| (energy_excess(&s.qd), (s, t, part * full)))
                },
            );
        }
        // Rows left out that the answer would close within the step join it.
        let joining: Vec<usize> = (0..m)
            .filter(|&k| !member[k])
            .filter(|&k| problem.rows[k].g + h * problem.rows[k].row.dot(&solved.qd) < -1e-6 * active)
            .collect();
        // Inequalities whose true gap at `q⁺` is crossed where the linear
        // one is not (a corner swept round by a turn): their targets ask
        // for the shortfall, and the step is solved again.
        // (Every row's `g` at `q⁺`: the step's end reports them.)
        let next: Vec<f64> = state.q.iter().zip(&solved.qd).map(|(x, v)| x + h * v).collect();
        let g_next = model.constraint_values(&next);
        // Where the answer met its contract, a row it left inside within
        // that contract (friction's: up to 4e-11 m on a 300-ball pile) is
        // the next step's target, up to `INSIDE`; past its linear gap (a
        // turn) it is crossed. An answer that missed is solved again with
        // those rows' targets corrected: another problem, another walk (on
        // the same pile, a plastic solve that missed 312 times, from the
        // last step's impulses or from rest alike, met it so).
        let met = solved.capped.is_none();
        let crossed: Vec<(usize, f64)> = (0..m)
            .filter(|&k| member[k] && problem.kinds[k] == ConstraintKind::Inequality)
            .map(|k| (k, g_next[k]))
            .filter(|&(k, g)| {
                let linear = problem.rows[k].g + h * problem.rows[k].row.dot(&solved.qd);
                let within = if met { linear.min(0.0).max(-INSIDE * active) } else { 0.0 };
                g < within - CROSSED * active
            })
            .collect();
        // The step's midpoint, where a crossed row is linearized again.
        let mid: Vec<f64> = if crossed.is_empty() {
            Vec::new()
        } else {
            state.q.iter().zip(&next).map(|(a, b)| 0.5 * (a + b)).collect()
        };
        for &(k, g) in &crossed {
            // A crossing the last round's correction did not move (a corner
            // come round the other body's corner, now against another face
            // than the one the row was linearized on): the row linearized
            // again at `q⁺`, `g(q + h v) ≈ g⁺ + h J⁺ (v − q̇⁺)`, its
            // correction dropped. Otherwise, the row linearized at the
            // step's midpoint, `g(q + h v) ≈ g + h J(q + h q̇⁺/2) v` (a turn's
            // curvature then crosses by O(h³), not O(h²)), with its target
            // `g / h` kept: a row and its impulse on the same `J` with a
            // target `c ≥ 0` create no energy (module docs). Past
            // [`MIDPOINTS`] of those, the correction grows.
            let stuck = (g - last_gap[k]).abs() <= STUCK * g.abs();
            last_gap[k] = g;
            let at = if stuck {
                &next
            } else if midpoints[k] < MIDPOINTS {
                &mid
            } else {
                curvature[k] += g / h;
                continue;
            };
            let c = &model.constraints[k];
            let r = c.eval(&model.bodies, at, &solved.qd);
            let gap = if stuck { r.g - h * r.row.dot(&solved.qd) } else { start_gap[k] };
            problem.rows[k] = RowEval { g: gap, ..r };
            if c.friction > 0.0 {
                problem.tangents[k] = tangent_row(c, &model.bodies, at, &solved.qd);
            }
            midpoints[k] = if stuck { MIDPOINTS } else { midpoints[k] + 1 };
            curvature[k] = 0.0;
        }
        if !crossed.is_empty() && rounds < MAX_ROUNDS {
            targets = targets_at(&problem, share, &curvature);
        }
        if (joining.is_empty() && crossed.is_empty()) || rounds >= MAX_ROUNDS {
            let slack: Vec<f64> = (0..m).map(|k| problem.rows[k].row.dot(&solved.qd) + targets[k].0).collect();
            // Friction's work over the step, on the mean of its velocities:
            // `½ q̇⁺ᵀMq̇⁺ − ½ v_freeᵀMv_free = Σ P_k J_k (v_free + q̇⁺)/2`
            // exactly, each row's share its impulse on its mean speed (the
            // end speed alone misses `½ P_t² A_tt`).
            let work_of = |p: &[f64], rows: &[Option<RowEval>]| {
                p.iter()
                    .zip(rows)
                    .filter_map(|(p, t)| t.as_ref().map(|t| -p * 0.5 * (t.row.dot(&vfree) + t.row.dot(&solved.qd))))
                    .sum::<f64>()
            };
            let friction_work =
                work_of(&solved.friction, &problem.tangents) + work_of(&solved.rolling, &problem.rolling);
            let bounced = rows.iter().filter(|&&k| targets[k].1 && solved.impulse[k] > 0.0).count();
            state.q = next;
            state.qd = solved.qd;
            state.t += h;
            return Outcome {
                problem,
                rows,
                impulse: solved.impulse,
                friction: solved.friction,
                rolling: solved.rolling,
                held: solved.held,
                slack,
                bounced,
                solves,
                islands: solved.islands,
                capped: solved.capped,
                friction_work,
                g: g_next,
            };
        }
        for k in joining {
            member[k] = true;
        }
        previous = Neighbour::of(&solved, &problem, &rows);
    }
}

/// `q̇⁺` and the impulses of one velocity problem on `rows`.
struct Solved {
    qd: Vec<f64>,
    impulse: Vec<f64>,
    held: Vec<bool>,
    friction: Vec<f64>,
    rolling: Vec<f64>,
    islands: usize,
    capped: Option<Cap>,
}

/// An answer of this step where the next solve with friction starts
/// (`None` without friction, or where it stopped short: the last step's
/// impulses are the start then).
struct Neighbour(Option<[Vec<f64>; 4]>);

impl Neighbour {
    fn of(solved: &Solved, problem: &ContactProblem, rows: &[usize]) -> Neighbour {
        if solved.capped.is_some() || !problem.has_friction(rows) {
            return Neighbour(None);
        }
        let held =
            |p: &[f64]| -> Vec<f64> { p.iter().zip(&solved.held).map(|(x, h)| if *h { *x } else { 0.0 }).collect() };
        Neighbour(Some([held(&solved.impulse), held(&solved.friction), held(&solved.rolling), solved.qd.clone()]))
    }

    fn as_warm(&self) -> Option<Warm<'_>> {
        self.0.as_ref().map(|[normal, tangent, roll, qd]| Warm { normal, tangent, roll, qd })
    }
}

/// The last step's impulses and the step's start velocity, where a solve starts.
#[derive(Clone, Copy)]
struct Warm<'a> {
    /// `P_k` of the rows the last step held.
    normal: &'a [f64],
    /// `P_t` of the contacts with friction the last step held.
    tangent: &'a [f64],
    /// `P_m` of the contacts with rolling resistance the last step held.
    roll: &'a [f64],
    /// `q̇` at the step's start.
    qd: &'a [f64],
}

/// The velocity problem on `rows` with `targets`, from `warm`; with
/// friction, `patience` says whether the caller meets a miss otherwise.
#[allow(clippy::too_many_arguments)]
fn solve_rows(
    problem: &ContactProblem,
    rows: &[usize],
    neq: usize,
    targets: &[(f64, bool)],
    vfree: &[f64],
    warm: &Warm,
    floor: f64,
    patience: Patience,
) -> Solved {
    let m = problem.nconstraints();
    let mut impulse = vec![0.0; m];
    let mut friction = if problem.tangents.iter().any(Option::is_some) { vec![0.0; m] } else { Vec::new() };
    let mut rolling = if problem.rolling.iter().any(Option::is_some) { vec![0.0; m] } else { Vec::new() };
    if rows.is_empty() {
        return Solved {
            qd: vfree.to_vec(),
            held: vec![false; m],
            impulse,
            friction,
            rolling,
            islands: 0,
            capped: None,
        };
    }
    // Rows that couple past what a step factors: not solved, and said.
    let mut on = vec![0usize; vfree.len()];
    for &k in rows {
        for (d, _) in problem.rows[k].row.entries() {
            on[*d] += 1;
        }
    }
    let pairs = on.iter().map(|n| n * n).sum::<usize>();
    if pairs > lcp::MAX_COUPLING {
        let capped = Some(Cap { rows: rows.len(), pivots: 0, why: lcp::Stop::TooLarge(pairs) });
        return Solved { qd: vfree.to_vec(), held: vec![false; m], impulse, friction, rolling, islands: 0, capped };
    }
    // With friction: Coulomb's cone at the velocity level as a fixed point
    // of frictionless problems on the cone's edges, its contract checked.
    if problem.has_friction(rows) {
        let edges = cone_fixed_point::Rows {
            normal: rows.iter().map(|&k| &problem.rows[k].row).collect(),
            tangent: rows.iter().map(|&k| problem.tangents[k].as_ref().map(|t| (&t.row, problem.mu[k]))).collect(),
            roll: rows.iter().map(|&k| problem.rolling[k].as_ref().map(|r| (&r.row, problem.mu_r[k]))).collect(),
            neq,
        };
        let local = |x: &[f64]| -> Vec<f64> { rows.iter().map(|&k| x.get(k).copied().unwrap_or(0.0)).collect() };
        let c: Vec<f64> = rows.iter().map(|&k| targets[k].0).collect();
        // The shift at the step's start, `μ |u_t| + μ_r |u_m|`.
        let slip0: Vec<f64> = (0..rows.len()).map(|i| edges.shift(i, warm.qd)).collect();
        let (normal, tangent, roll) = (local(warm.normal), local(warm.tangent), local(warm.roll));
        let answer = cone_fixed_point::solve_islands(
            &edges,
            &problem.minv,
            vfree,
            &c,
            &Impulses { normal: &normal, tangent: &tangent, roll: &roll },
            &slip0,
            floor,
            patience,
        );
        let mut held = vec![false; m];
        for (i, &k) in rows.iter().enumerate() {
            impulse[k] = answer.normal[i];
            friction[k] = answer.tangent[i];
            if !rolling.is_empty() {
                rolling[k] = answer.roll[i];
            }
            held[k] = answer.held[i];
        }
        let (islands, capped) = (answer.islands, answer.capped);
        return Solved { qd: answer.qd, impulse, held, friction, rolling, islands, capped };
    }
    let graph = problem.graph(rows);
    let b: Vec<f64> = rows.iter().map(|&k| -(problem.rows[k].row.dot(vfree) + targets[k].0)).collect();
    let warm_local: Vec<f64> = rows.iter().map(|&k| warm.normal.get(k).copied().unwrap_or(0.0)).collect();
    let lcp = solve_lcp_from(&graph, &b, neq, &warm_local, 0.0);
    let mut capped = lcp.capped;
    if capped.is_none() {
        let ratio = lcp::contract_ratio(&graph, &b, neq, &lcp.lambda);
        if ratio > 1.0 {
            capped = Some(Cap { rows: rows.len(), pivots: lcp.rounds.len(), why: lcp::Stop::Contract(ratio) });
        }
    }
    let mut held = vec![false; m];
    for (i, &k) in rows.iter().enumerate() {
        impulse[k] = lcp.lambda[i];
        held[k] = lcp.clamped[i] && lcp.lambda[i] > 0.0;
    }
    let dv = problem.velocity_change(&impulse);
    let qd: Vec<f64> = vfree.iter().zip(&dv).map(|(v, d)| v + d).collect();
    let islands = graph.islands().into_iter().max().map_or(0, |i| i + 1);
    Solved { qd, impulse, held, friction, rolling, islands, capped }
}
