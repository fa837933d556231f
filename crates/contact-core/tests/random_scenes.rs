//! Property tests over random scenes (issue 9, item 3).
//!
//! **Scenes.** [`scenes`] writes scene files (RON, read by `scene::parse`, so the
//! loader's checks run on every one): 1–40 balls on a jittered grid in a box
//! (floor, two walls, sometimes a ceiling) and 0–2 slanted walls placed at, or a
//! little beyond, the ball they would touch first; masses log-uniform in
//! [1e-3, 1e3] kg, radii 2–9 cm, fixed balls, balls touching the floor at the
//! start, velocities up to 2 m/s a component, contacts between every pair of
//! balls (mostly); rods and ropes (taut or slack) between moving bodies or to
//! anchors; 0–2 beads on segments, circles, parabolas and cycloids with end
//! stops; constant forces (up to 14 m/s² per unit mass), damping, gravity (down,
//! none, or any up to 18 m/s²); `h` log-uniform in [1e-4, 1e-2] s and `τ/h` in
//! [1, 30]; `e` in [0, 1] for the scene and its walls; both integrators, both
//! impulse modes, events on (mostly) or off; the algorithm switched at random
//! steps; the app's mouse spring (`F = m (ω² (target − p) − 2ζω v)`, ω = 2π·1.5,
//! ζ = 0.7) on random bodies for random step ranges; 100–400 steps.
//!
//! Two things are left out because the model, not the code, breaks there: a
//! body between two links (a chain: in its straight configurations eq. (6) asks
//! for unbounded forces, the crack of a whip, and the energy jumps ×30 in one
//! step), and a bead reaching a cycloid's cusp (no mass there: stops keep it off).
//!
//! **Properties**, checked at every step end:
//!
//! 1. No panic; `q`, `q̇` always finite (after a `Diverged` step too), `g` and `λ`
//!    finite after an `Ok` one. No impact adds kinetic energy beyond round-off
//!    (`1e-9` of the kinetic energy around it), in every scene, either impulse
//!    mode, any `e`; no impulse exceeds `1e3 Σ m |ṗ|`. `Diverged` is a failure when `τ ≥ 1.25 h`, events
//!    are on, the step is semi-implicit Euler and only Right and Exact have run.
//!    (The constant-acceleration flight grows every oscillation by
//!    `1 + ½ h²ω²` a step: a 1 g bead on a 3.8 m rod to an 8 kg ball, h = 3.4 ms,
//!    oscillates at `hω ≈ 0.5` and its `u̇` grew ×1.06 a step to 1e4 /s.) Baumgarte's eq. (5) with
//!    semi-implicit Euler is a linear recurrence on `(g, h ġ)` whose determinant is
//!    `1 − 2h/τ`, stable only for `h/τ < 2√2 − 2 ≈ 0.83` (a pendulum's rod at `τ = h`
//!    grows ×1.6 a step, [`baumgarte_with_semi_implicit_euler_needs_tau_above_1_21_h`]).
//!    Without events an impact is stopped by Baumgarte's forces, `m v / τ`, which
//!    are not moderate (a 374 kg bead stopped through a 1.5 g ball wedged between
//!    its rod and a wall: 2e4 N on the ball, and the run diverges); with them, the
//!    forces are moderate by construction. Platt's algorithms let bodies sink
//!    through floors by design (the paper's point), as deep as the run is long.
//! 2. With Right or Exact, events on and `τ ≥ 2h`, an inequality that starts a
//!    step within its allowance ends it within: `g ≥ −allowance`. Why `τ ≥ 2h`: the
//!    recurrence above has a negative eigenvalue for `h/τ > 1/2`, so Baumgarte
//!    overshoots a penetration into the other side. The allowance:
//!    * `tol.active (1 + h²/τ²)`: Exact keeps last step's handled set while no free
//!      row tends to violate by more than `tol.active/τ²` (its warm slack);
//!    * for curved rows (ball contacts, ropes) the curvature error of the step's
//!      straight path, `max(h² |J̇q̇|, |Δ_t|²/ℓ)` (`Δ_t` the relative displacement
//!      across the line of the two points, `ℓ` their distance), which Baumgarte
//!      balances at `τ²/h²` times that (twice the equilibrium of `−½ h² J̇q̇` a step);
//!      a running maximum decaying with time constant `4τ` (the recovery is
//!      critically damped, slower than `e^{−t/τ}` at first);
//!    * on steps with events, and for a row touching and separating at a step's
//!      start (not held), the bend of the row's path over the step, `h² |a|`,
//!      with `|a| = |J_k q̈| + |J̇_k q̇|` the row's own largest normal
//!      acceleration, free or solved, at the step's ends.
//!
//!    A row violated at the start but within its allowance is Baumgarte's alone,
//!    which only slows its approach (for `τ ≥ 2h`): it may go on by `h |J q̇|` and
//!    the step's curvature error. A row past its allowance at the start (after a
//!    Platt phase) is checked again once Baumgarte has brought it back. Springs
//!    need no special case: they are forces like any other.
//! 3. With no damping, springs or constant forces (gravity only), the energy
//!    `E = ½ q̇ᵀ M q̇ + potential` never exceeds `E(0)` by more than `1e-9 E_s`
//!    (round-off; `E_s = KE(0) + Σ m |g| L`, `L` the size of the scene) plus, with
//!    rods or beads on curved tracks, `10 s⁻¹ · h · E_s`: semi-implicit Euler keeps a
//!    modified energy `O(h)` away from `E` where the mass matrix or the constraints
//!    bend (measured: at most `7.6 s⁻¹ · h · E_s` over 3000 scenes with
//!    Moreau's law, simultaneous `e > 0` included, in 1192 steps with a gain; the
//!    scenes without rods or curved tracks gained nothing above `E(0)`). In free fall
//!    it loses `½ m h² g²` a step, it cannot gain. Checked while only Right and
//!    Exact have run, with semi-implicit Euler (constant-acceleration flight is not
//!    symplectic: on any oscillation its step has determinant `1 + ½ h²ω² > 1`),
//!    `τ ≥ 1.25 h`, events on (without them an impact sinks about `v τ` and
//!    Baumgarte's pull-back, a spring whose energy `E` does not count, gives it
//!    back: a 1 kg ball wedged between a wall and a rope to a 374 kg bead gained
//!    6 J). Both impulse modes and every `e` (no impact adds energy: see
//!    `impulse.rs`).
//!
//! **Fixed findings**, each with its regression test below (none is ignored;
//! `CONTACT_LAB_RANDOM_STRICT=1` runs property 2 without the `h² |a|` bend of
//! the step's path on steps with events or a row separating at the start):
//! * events.rs/world.rs: a row touching and separating at a sub-step's start
//!   that comes back within the first of `first_activation`'s 32 samples is
//!   held active, also from round-off below the surface
//!   ([`a_hop_from_round_off_below_the_floor_lands_on_it`]); a new hold takes
//!   precedence over a rewind to another row, and holds are cleared after an
//!   event ([`a_held_hop_rewound_to_another_impact_is_not_launched`]);
//! * events.rs: a speculative landing's path dips up to `|v| h / 4` below the
//!   surface; when an event elsewhere cuts the step there, the landing row gets
//!   an event of its own where it reaches the surface
//!   ([`a_speculative_landing_cut_by_an_event_ends_inside`]);
//! * impulse.rs (Moreau's law): opposing touching rows made Newton's targets
//!   infeasible ([`a_pinned_bead_hit_elastically_crosses_its_stops`]), and
//!   speculative rows took a simultaneous impact's restitution
//!   ([`a_simultaneous_impact_launches_a_heavy_neighbour`]). The generator pins
//!   beads again (two stops at the start, a stop and a link), and property 3
//!   covers simultaneous impacts with `e > 0`.
//!
//! **Budget.** `CONTACT_LAB_RANDOM_CASES` scenes per property (default
//! [`DEFAULT_CASES`], about 25 s each in the dev profile on one core), from a
//! fixed seed so CI is reproducible; failures are kept in
//! `random_scenes.proptest-regressions` and replayed first. The long run, 3000
//! scenes per property on the default configuration mix (simultaneous and
//! sequential, every `e`), about 9 min each:
//!
//! ```text
//! CONTACT_LAB_RANDOM_CASES=3000 cargo test -p contact-core --test random_scenes
//! ```

use std::collections::HashMap;
use std::f64::consts::{PI, TAU};
use std::fmt::Write as _;

use contact_core::constraint::RowEval;
use contact_core::scene::{self, Overrides};
use contact_core::{
    Algorithm, BodyKind, Constraint, ConstraintKind, ContactProblem, Curve, Geometry, Integrator, StepReport,
    StepStatus, World,
};
use nalgebra::Vector2;
use proptest::prelude::*;
use proptest::sample::Index;
use proptest::test_runner::RngSeed;

/// Scenes per property without `CONTACT_LAB_RANDOM_CASES`.
const DEFAULT_CASES: u32 = 300;
/// Centre-to-centre distance of the ball grid (m).
const SPACING: f64 = 0.25;
/// Largest jitter of a ball about its grid point (m).
const JITTER: f64 = 0.03;
/// Radii of balls (m): two of the largest plus twice the jitter fit in `SPACING`.
const RADII: std::ops::Range<f64> = 0.02..0.09;
/// Margin between the outer grid points and the box walls (m).
const MARGIN: f64 = 0.25;
/// End stops of a bead on a cycloid, inside its cusps at `u = ±π`.
const CUSP_STOP: f64 = 2.8;
/// The mouse spring of the app.
const SPRING_OMEGA: f64 = 2.0 * PI * 1.5;
const SPRING_ZETA: f64 = 0.7;
/// Baumgarte with semi-implicit Euler is stable for `τ > h / (2√2 − 2) ≈ 1.21 h`.
const STABLE_TAU_OVER_H: f64 = 1.25;
/// Above this `τ/h`, Baumgarte's recovery does not overshoot (property 2).
const MONOTONE_TAU_OVER_H: f64 = 2.0;
/// No impulse of an impact may exceed this many times `Σ m |ṗ|` (property 1).
const ABSURD_IMPULSE: f64 = 1e3;
/// Relative round-off allowed on the energy.
const ROUND_OFF: f64 = 1e-9;
/// Energy rate allowed per unit `h` with rods or curved tracks (1/s).
const SYMPLECTIC_RATE: f64 = 10.0;

// ---------------------------------------------------------------------------
// Scenes
// ---------------------------------------------------------------------------

#[derive(Clone, Debug)]
struct Ball {
    fixed: bool,
    mass: f64,
    radius: f64,
    jitter: (f64, f64),
    velocity: (f64, f64),
    /// The constant force per unit mass (m/s²).
    accel: (f64, f64),
    damping: f64,
    /// In the bottom row, starts touching the floor.
    on_floor: bool,
}

/// A slanted wall: `|n| = scale`, `gap` beyond the ball it would touch first.
#[derive(Clone, Debug)]
struct Slant {
    angle: f64,
    scale: f64,
    gap: f64,
}

#[derive(Clone, Debug)]
enum LinkKind {
    Rod,
    /// A rope `1 + slack` times the start distance.
    Rope {
        slack: f64,
    },
}

/// A link from a moving body `a` to any other body `b`.
#[derive(Clone, Debug)]
struct Link {
    kind: LinkKind,
    a: Index,
    b: Index,
}

#[derive(Clone, Debug)]
enum CurveSpec {
    Segment { dx: f64, dy: f64 },
    Circle { radius: f64 },
    Parabola { k: f64 },
    Cycloid { r: f64 },
}

#[derive(Clone, Debug)]
struct Bead {
    curve: CurveSpec,
    /// Where on the curve, as a fraction of its range of `u`.
    at: f64,
    u_dot: f64,
    mass: f64,
    accel: (f64, f64),
    damping: f64,
    /// End stops this far below and above the start `u`.
    lower: Option<f64>,
    upper: Option<f64>,
}

#[derive(Clone, Debug)]
struct Spring {
    body: Index,
    start: Index,
    /// Fraction of the run it lasts.
    length: f64,
    /// Target, as fractions of the box.
    target: (f64, f64),
}

#[derive(Clone, Debug)]
struct Solver {
    h: f64,
    tau_over_h: f64,
    restitution: f64,
    wall_restitution: Option<f64>,
    sequential: bool,
    constant_acceleration: bool,
    events: bool,
    algorithm: Algorithm,
    /// The algorithm switched to before a step.
    switches: Vec<(Index, Algorithm)>,
}

#[derive(Clone, Debug)]
struct RandomScene {
    columns: usize,
    balls: Vec<Ball>,
    ceiling: bool,
    slants: Vec<Slant>,
    anchors: Vec<(f64, f64)>,
    links: Vec<Link>,
    beads: Vec<Bead>,
    gravity: (f64, f64),
    ball_pairs: bool,
    solver: Solver,
    springs: Vec<Spring>,
    steps: usize,
}

fn log_uniform(lo: f64, hi: f64) -> impl Strategy<Value = f64> {
    (lo.log10()..hi.log10()).prop_map(|e| 10f64.powf(e))
}

/// `(0, 0)` or a vector in the square of half-side `r`.
fn vec2(r: f64) -> impl Strategy<Value = (f64, f64)> {
    prop_oneof![Just((0.0, 0.0)), (-r..r, -r..r)]
}

/// A constant acceleration, none in a conservative scene.
fn accel(conservative: bool) -> BoxedStrategy<(f64, f64)> {
    if conservative { Just((0.0, 0.0)).boxed() } else { vec2(10.0).boxed() }
}

/// A damping rate, none in a conservative scene.
fn damping(conservative: bool) -> BoxedStrategy<f64> {
    if conservative { Just(0.0).boxed() } else { prop_oneof![Just(0.0), 0.0..3.0].boxed() }
}

fn algorithm() -> impl Strategy<Value = Algorithm> {
    prop::sample::select(Algorithm::ALL.to_vec())
}

fn ball(conservative: bool) -> impl Strategy<Value = Ball> {
    (
        prop::bool::weighted(0.15),
        log_uniform(1e-3, 1e3),
        RADII,
        (-JITTER..JITTER, -JITTER..JITTER),
        vec2(2.0),
        accel(conservative),
        damping(conservative),
        prop::bool::weighted(0.3),
    )
        .prop_map(|(fixed, mass, radius, jitter, velocity, accel, damping, on_floor)| Ball {
            fixed,
            mass,
            radius,
            jitter,
            velocity,
            accel,
            damping,
            on_floor,
        })
}

fn bead(conservative: bool) -> impl Strategy<Value = Bead> {
    let curve = prop_oneof![
        (-1.0..1.0, -1.0..1.0).prop_map(|(dx, dy)| CurveSpec::Segment { dx, dy }),
        (0.2..1.0).prop_map(|radius| CurveSpec::Circle { radius }),
        (-2.0..2.0).prop_map(|k| CurveSpec::Parabola { k }),
        (0.1..0.5).prop_map(|r| CurveSpec::Cycloid { r }),
    ];
    let stop = || prop_oneof![Just(None), Just(Some(0.0)), (0.0..1.0).prop_map(Some)];
    (curve, 0.0..1.0, -2.0..2.0, log_uniform(1e-3, 1e3), accel(conservative), damping(conservative), stop(), stop())
        .prop_map(|(curve, at, u_dot, mass, accel, damping, lower, upper)| Bead {
            curve,
            at,
            u_dot,
            mass,
            accel,
            damping,
            lower,
            upper,
        })
}

/// Solver settings; conservative scenes favour the semi-implicit Euler step,
/// the only one property 3 applies to.
fn solver(conservative: bool) -> impl Strategy<Value = Solver> {
    let restitution = || prop_oneof![Just(0.0), Just(1.0), 0.0..=1.0];
    (
        log_uniform(1e-4, 1e-2),
        log_uniform(1.0, 30.0),
        restitution(),
        prop_oneof![Just(None), restitution().prop_map(Some)],
        any::<bool>(),
        prop::bool::weighted(if conservative { 0.2 } else { 0.5 }),
        prop::bool::weighted(0.8),
        algorithm(),
        prop::collection::vec((any::<Index>(), algorithm()), 0..4),
    )
        .prop_map(
            |(
                h,
                tau_over_h,
                restitution,
                wall_restitution,
                sequential,
                constant_acceleration,
                events,
                algorithm,
                switches,
            )| {
                Solver {
                    h,
                    tau_over_h,
                    restitution,
                    wall_restitution,
                    sequential,
                    constant_acceleration,
                    events,
                    algorithm,
                    switches,
                }
            },
        )
}

/// Random scenes; `conservative`: gravity is the only force.
fn scenes(conservative: bool) -> impl Strategy<Value = RandomScene> {
    let link = (
        prop_oneof![Just(LinkKind::Rod), prop_oneof![Just(0.0), 0.0..0.5].prop_map(|slack| LinkKind::Rope { slack })],
        any::<Index>(),
        any::<Index>(),
    )
        .prop_map(|(kind, a, b)| Link { kind, a, b });
    let spring = (any::<Index>(), any::<Index>(), 0.0..1.0, (0.0..1.0, 0.0..1.0))
        .prop_map(|(body, start, length, target)| Spring { body, start, length, target });
    let springs = if conservative { Just(Vec::new()).boxed() } else { prop::collection::vec(spring, 0..4).boxed() };
    let slant = (0.0..TAU, 0.5..2.0, prop_oneof![Just(0.0), 0.0..0.1]).prop_map(|(angle, scale, gap)| Slant {
        angle,
        scale,
        gap,
    });
    (
        (1usize..=8, prop::collection::vec(ball(conservative), 1..=40), any::<bool>()),
        prop::collection::vec(slant, 0..3),
        prop::collection::vec((0.0..1.0, 0.0..1.0), 0..3),
        prop::collection::vec(link, 0..6),
        prop::collection::vec(bead(conservative), 0..3),
        prop_oneof![Just((0.0, -9.81)), Just((0.0, 0.0)), (-10.0..10.0, -15.0..5.0)],
        prop::bool::weighted(0.8),
        solver(conservative),
        springs,
        100usize..400,
    )
        .prop_map(
            |(
                (columns, balls, ceiling),
                slants,
                anchors,
                links,
                beads,
                gravity,
                ball_pairs,
                solver,
                springs,
                steps,
            )| {
                RandomScene {
                    columns,
                    balls,
                    ceiling,
                    slants,
                    anchors,
                    links,
                    beads,
                    gravity,
                    ball_pairs,
                    solver,
                    springs,
                    steps,
                }
            },
        )
}

impl CurveSpec {
    /// The curve placed at `o`, and the range of `u` a bead starts in.
    fn at(&self, o: Vector2<f64>) -> (Curve, f64, f64) {
        let o2 = (o.x, o.y);
        match *self {
            CurveSpec::Segment { dx, dy } => (Curve::Segment { a: o2, b: (o.x + dx, o.y + dy + 0.1) }, 0.0, 1.0),
            CurveSpec::Circle { radius } => (Curve::CircleArc { center: o2, radius }, -PI, PI),
            CurveSpec::Parabola { k } => (Curve::Parabola { vertex: o2, k }, -1.0, 1.0),
            CurveSpec::Cycloid { r } => (Curve::Cycloid { origin: o2, r }, -2.5, 2.5),
        }
    }
}

/// A curve as a scene file writes it.
fn curve_ron(c: &Curve) -> String {
    match *c {
        Curve::Segment { a, b } => format!("Segment(a: ({:?}, {:?}), b: ({:?}, {:?}))", a.0, a.1, b.0, b.1),
        Curve::CircleArc { center, radius } => {
            format!("CircleArc(center: ({:?}, {:?}), radius: {radius:?})", center.0, center.1)
        }
        Curve::Parabola { vertex, k } => format!("Parabola(vertex: ({:?}, {:?}), k: {k:?})", vertex.0, vertex.1),
        Curve::Cycloid { origin, r } => format!("Cycloid(origin: ({:?}, {:?}), r: {r:?})", origin.0, origin.1),
    }
}

/// A body of the scene file, for links.
struct Named {
    name: String,
    dynamic: bool,
    position: Vector2<f64>,
}

impl RandomScene {
    /// Width and height of the box.
    fn size(&self) -> (f64, f64) {
        let rows = self.balls.len().div_ceil(self.columns);
        (2.0 * MARGIN + (self.columns - 1) as f64 * SPACING, 2.0 * MARGIN + (rows - 1) as f64 * SPACING + 0.5)
    }

    fn ball_position(&self, i: usize) -> Vector2<f64> {
        let b = &self.balls[i];
        let (row, col) = (i / self.columns, i % self.columns);
        let x = MARGIN + col as f64 * SPACING + b.jitter.0;
        let y = if row == 0 && b.on_floor { b.radius } else { MARGIN + row as f64 * SPACING + b.jitter.1 };
        Vector2::new(x, y)
    }

    /// The scene file.
    fn ron(&self) -> String {
        let (w, h) = self.size();
        let mut bodies = Vec::<Named>::new();
        let mut constraints = Vec::new();
        let mut out = String::new();
        let line = |out: &mut String, text: String| writeln!(out, "        {text},").expect("writing to a String");
        writeln!(
            out,
            "Scene(\n    name: \"random\",\n    gravity: ({:?}, {:?}),\n    bodies: [",
            self.gravity.0, self.gravity.1
        )
        .expect("writing to a String");
        for (i, b) in self.balls.iter().enumerate() {
            let p = self.ball_position(i);
            let (name, text) = if b.fixed {
                let name = format!("f{i}");
                let text =
                    format!("FixedBall(name: {name:?}, position: ({:?}, {:?}), radius: {:?})", p.x, p.y, b.radius);
                (name, text)
            } else {
                let name = format!("b{i}");
                let text = format!(
                    "Ball(name: {name:?}, position: ({:?}, {:?}), velocity: ({:?}, {:?}), mass: {:?}, radius: {:?}, force: ({:?}, {:?}), damping: {:?})",
                    p.x,
                    p.y,
                    b.velocity.0,
                    b.velocity.1,
                    b.mass,
                    b.radius,
                    b.mass * b.accel.0,
                    b.mass * b.accel.1,
                    b.damping
                );
                (name, text)
            };
            line(&mut out, text);
            bodies.push(Named { name, dynamic: !b.fixed, position: p });
        }
        for (j, d) in self.beads.iter().enumerate() {
            let (curve, lo, hi) = d.curve.at(Vector2::new(w + 1.0 + 2.5 * j as f64, 1.0));
            let u = lo + d.at * (hi - lo);
            let name = format!("d{j}");
            line(
                &mut out,
                format!(
                    "Bead(name: {name:?}, curve: {}, u: {u:?}, u_dot: {:?}, mass: {:?}, force: ({:?}, {:?}), damping: {:?})",
                    curve_ron(&curve),
                    d.u_dot,
                    d.mass,
                    d.mass * d.accel.0,
                    d.mass * d.accel.1,
                    d.damping
                ),
            );
            let (lower, upper) = match d.curve {
                CurveSpec::Cycloid { .. } => (
                    Some((u - d.lower.unwrap_or(1.0)).max(-CUSP_STOP)),
                    Some((u + d.upper.unwrap_or(1.0)).min(CUSP_STOP)),
                ),
                _ => (d.lower.map(|s| u - s), d.upper.map(|s| u + s)),
            };
            if let Some(min) = lower {
                constraints.push(format!("BeadBound(name: \"{name}lo\", body: {name:?}, min: {min:?})"));
            }
            if let Some(max) = upper {
                constraints.push(format!("BeadBound(name: \"{name}hi\", body: {name:?}, max: {max:?})"));
            }
            bodies.push(Named { name, dynamic: true, position: curve.point(u) });
        }
        for (j, a) in self.anchors.iter().enumerate() {
            let (name, p) = (format!("a{j}"), Vector2::new(a.0 * w, a.1 * h));
            line(&mut out, format!("Anchor(name: {name:?}, position: ({:?}, {:?}))", p.x, p.y));
            bodies.push(Named { name, dynamic: false, position: p });
        }
        let dynamic: Vec<&Named> = bodies.iter().filter(|b| b.dynamic).collect();
        let mut linked: Vec<&str> = Vec::new();
        for (l, link) in self.links.iter().enumerate().filter(|_| !dynamic.is_empty()) {
            let (a, b) = (link.a.get(&dynamic), link.b.get(&bodies));
            let length = (a.position - b.position).norm();
            // One link per moving body (no chains, see the module docs).
            let free = |n: &Named| !linked.contains(&n.name.as_str());
            if a.name == b.name || length < 1e-6 || !free(a) || !free(b) {
                continue;
            }
            linked.push(&a.name);
            if b.dynamic {
                linked.push(&b.name);
            }
            constraints.push(match link.kind {
                LinkKind::Rod => format!("Rod(name: \"l{l}\", a: {:?}, b: {:?})", a.name, b.name),
                LinkKind::Rope { slack } => format!(
                    "Rope(name: \"l{l}\", a: {:?}, b: {:?}, length: {:?})",
                    a.name,
                    b.name,
                    length * (1.0 + slack)
                ),
            });
        }
        out.push_str("    ],\n    constraints: [\n");
        for c in constraints {
            line(&mut out, c);
        }
        out.push_str("    ],\n    walls: [\n");
        let e = self.solver.wall_restitution.map(|e| format!(", restitution: {e:?}")).unwrap_or_default();
        let mut walls = vec![((0.0, 1.0), 0.0), ((1.0, 0.0), 0.0), ((-1.0, 0.0), -w)];
        if self.ceiling {
            walls.push(((0.0, -1.0), -h));
        }
        for slant in &self.slants {
            let n = Vector2::new(slant.angle.cos(), slant.angle.sin()) * slant.scale;
            let first = (0..self.balls.len())
                .filter(|&i| !self.balls[i].fixed)
                .map(|i| n.dot(&self.ball_position(i)) - self.balls[i].radius * n.norm())
                .fold(f64::INFINITY, f64::min);
            if first.is_finite() {
                walls.push(((n.x, n.y), first - slant.gap * n.norm()));
            }
        }
        for (i, (n, offset)) in walls.iter().enumerate() {
            line(&mut out, format!("(name: \"w{i}\", normal: ({:?}, {:?}), offset: {offset:?}{e})", n.0, n.1));
        }
        let s = &self.solver;
        write!(
            out,
            "    ],\n    ball_pairs: {},\n    solver: (algorithm: {:?}, dt: {:?}, tau: {:?}, restitution: {:?}, integrator: {:?}, events: {}, impulses: {}),\n)\n",
            self.ball_pairs,
            s.algorithm,
            s.h,
            s.h * s.tau_over_h,
            s.restitution,
            if s.constant_acceleration { Integrator::ConstantAcceleration } else { Integrator::SemiImplicitEuler },
            s.events,
            if s.sequential { "Sequential" } else { "Simultaneous" },
        )
        .expect("writing to a String");
        out
    }
}

// ---------------------------------------------------------------------------
// Running a scene
// ---------------------------------------------------------------------------

/// `CONTACT_LAB_RANDOM_STRICT` is set: no allowance for the known issues.
fn strict() -> bool {
    std::env::var_os("CONTACT_LAB_RANDOM_STRICT").is_some()
}

fn energy(w: &World) -> f64 {
    w.model.kinetic_energy(&w.state) + w.model.potential_energy(&w.state)
}

fn finite(v: &[f64]) -> bool {
    v.iter().all(|x| x.is_finite())
}

/// Whether `g` is linear in `q` (a half-plane on a particle, a bound on a bead's
/// `u`): then a step's straight path has no curvature error.
fn flat(w: &World, c: &Constraint) -> bool {
    match c.geometry {
        Geometry::CoordBound { .. } => true,
        Geometry::HalfPlane { body, .. } => w.model.bodies[body].kind == BodyKind::Particle,
        Geometry::Contact { .. }
        | Geometry::Distance { .. }
        | Geometry::Pin { .. }
        | Geometry::CornerEdge { .. }
        | Geometry::CornerDisc { .. } => false,
    }
}

/// The curvature error of one step on a curved row, `max(h² |J̇q̇|, |Δ_t|²/ℓ)`.
fn curvature_error(w: &World, c: &Constraint, before: &[Vector2<f64>], row: &RowEval, h: f64) -> f64 {
    let at = |b: usize| w.model.position(b, &w.state);
    let turning = h * h * row.jd_qd.abs();
    let [a, b] = c.bodies()[..] else { return turning };
    let (delta, line) = ((at(a) - before[a]) - (at(b) - before[b]), at(a) - at(b));
    let l = line.norm();
    if l < 1e-9 {
        return f64::INFINITY;
    }
    let along = delta.dot(&line) / l;
    turning.max((delta.norm_squared() - along * along).max(0.0) / l)
}

/// Where a row stands at a step boundary: `(g, J q̇)`.
type RowStart = HashMap<String, (f64, f64)>;

fn row_starts(w: &World, rows: &[RowEval]) -> RowStart {
    w.model.constraints.iter().zip(rows).map(|(c, r)| (c.name.clone(), (r.g, r.row.dot(&w.state.qd)))).collect()
}

/// Property 2 across a run: the allowance of each row.
struct Sinking {
    h: f64,
    tau: f64,
    /// Running maximum of the curvature error of each curved row.
    drift: HashMap<String, f64>,
    start: RowStart,
    /// Each row's largest normal acceleration `|J_k q̈| + |J̇_k q̇|`, free or
    /// solved, at the last step's end.
    accel: HashMap<String, f64>,
}

impl Sinking {
    fn new(w: &World, h: f64) -> Self {
        let problem = ContactProblem::new(&w.model, &w.state, w.settings.tau);
        let accel = row_accelerations(w, &problem, &[]);
        Sinking { h, tau: w.settings.tau, drift: HashMap::new(), start: row_starts(w, &problem.rows), accel }
    }

    /// Checks the step just taken (when `checked`) and moves on to the next.
    fn step(&mut self, w: &World, r: &StepReport, before: &[Vector2<f64>], checked: bool) -> Result<(), String> {
        let (h, tau, tol) = (self.h, self.tau, w.settings.tol);
        let problem = ContactProblem::new(&w.model, &w.state, tau);
        let accel = row_accelerations(w, &problem, &r.qdd);
        let decay = (-h / (4.0 * tau)).exp();
        let mut failure = None;
        for (k, c) in w.model.constraints.iter().enumerate().filter(|(_, c)| c.kind == ConstraintKind::Inequality) {
            let row = &problem.rows[k];
            let mut allowance = tol.active * (1.0 + (h / tau).powi(2));
            let mut error = 0.0;
            if !flat(w, c) {
                error = curvature_error(w, c, before, row, h);
                let d = self.drift.entry(c.name.clone()).or_insert(0.0);
                *d = (*d * decay).max(error);
                allowance += (tau / h).powi(2) * *d;
            }
            let (g0, v0) = self.start.get(&c.name).copied().unwrap_or((tol.active, 0.0));
            if !checked || g0 < -allowance || failure.is_some() {
                continue;
            }
            // Violated at the start (within its allowance), the row is Baumgarte's
            // alone, which only slows its approach: it may go on by `h |v|`.
            if g0 < -tol.active {
                allowance = allowance.max(-g0 + h * (-v0).max(0.0) + error);
            }
            // The row's path bends by `h² |a|` (module docs), with `|a|` its
            // largest normal acceleration, free or solved, at the step's ends.
            let a = accel[&c.name].max(self.accel.get(&c.name).copied().unwrap_or(0.0));
            let known = if strict() {
                0.0
            } else if !r.events.is_empty() || (g0.abs() <= tol.active && v0 > tol.separating) {
                h * h * a
            } else {
                0.0
            };
            if row.g < -allowance - known {
                failure = Some(format!(
                    "`{}` ends at g = {:.3e}, past −{allowance:.3e} − {known:.3e} (start g = {g0:.3e}, J q̇ = {v0:.3e}; {} events)",
                    c.name,
                    row.g,
                    r.events.len()
                ));
            }
        }
        self.start = row_starts(w, &problem.rows);
        self.accel = accel;
        failure.map_or(Ok(()), Err)
    }
}

/// `|J_k q̈| + |J̇_k q̇|` of every row, the larger of the free `q̈` and `solved`.
fn row_accelerations(w: &World, problem: &ContactProblem, solved: &[f64]) -> HashMap<String, f64> {
    let free = problem.accelerations(&[]);
    let along = |row: &RowEval, qdd: &[f64]| if qdd.is_empty() { 0.0 } else { row.row.dot(qdd).abs() };
    w.model
        .constraints
        .iter()
        .zip(&problem.rows)
        .map(|(c, row)| (c.name.clone(), along(row, &free).max(along(row, solved)) + row.jd_qd.abs()))
        .collect()
}

/// The bodies under a mouse spring at a step: `(body, from, to, target)`.
fn springs(scene: &RandomScene, w: &World) -> Vec<(usize, usize, usize, Vector2<f64>)> {
    let dynamic: Vec<usize> = (0..w.model.bodies.len()).filter(|&b| w.model.bodies[b].is_dynamic()).collect();
    let (bw, bh) = scene.size();
    if dynamic.is_empty() {
        return Vec::new();
    }
    scene
        .springs
        .iter()
        .map(|s| {
            let from = s.start.index(scene.steps);
            let to = from + (s.length * scene.steps as f64) as usize;
            (*s.body.get(&dynamic), from, to, Vector2::new(s.target.0 * bw, s.target.1 * bh))
        })
        .collect()
}

/// Writes the mouse springs active at `step` into the bodies' `user_force`.
fn pull(w: &mut World, springs: &[(usize, usize, usize, Vector2<f64>)], step: usize) {
    for b in &mut w.model.bodies {
        b.user_force = Vector2::zeros();
    }
    for &(b, from, to, target) in springs {
        if !(from..to).contains(&step) {
            continue;
        }
        let (p, v) = (w.model.position(b, &w.state), w.model.velocity(b, &w.state));
        let m = w.model.bodies[b].mass;
        w.model.bodies[b].user_force +=
            m * (SPRING_OMEGA * SPRING_OMEGA * (target - p) - 2.0 * SPRING_ZETA * SPRING_OMEGA * v);
    }
}

/// `Σ m |ṗ|` over the moving bodies (plus 1 N·s, so a scene at rest has a scale).
fn momentum(w: &World) -> f64 {
    let moving = (0..w.model.bodies.len()).filter(|&b| w.model.bodies[b].is_dynamic());
    1.0 + moving.map(|b| w.model.bodies[b].mass * w.model.velocity(b, &w.state).norm()).sum::<f64>()
}

/// The energy allowed above `E(0)` (property 3), `None` when it does not apply.
fn energy_allowance(scene: &RandomScene, w: &World) -> Option<f64> {
    let s = &scene.solver;
    let in_scope = s.events && !s.constant_acceleration && s.tau_over_h >= STABLE_TAU_OVER_H;
    if !in_scope {
        return None;
    }
    let (bw, bh) = scene.size();
    let extent = bw + bh + 3.0 * scene.beads.len() as f64;
    let dynamic = w.model.bodies.iter().filter(|b| b.is_dynamic());
    let scale =
        w.model.kinetic_energy(&w.state) + dynamic.map(|b| b.mass * w.model.gravity.norm() * extent).sum::<f64>();
    let bent = w.model.constraints.iter().any(|c| c.kind == ConstraintKind::Equality)
        || w.model
            .bodies
            .iter()
            .any(|b| matches!(b.kind, BodyKind::Bead(ref c) if !matches!(c, Curve::Segment { .. })));
    Some(scale * (ROUND_OFF + if bent { SYMPLECTIC_RATE * s.h } else { 0.0 }))
}

/// Runs `scene` and checks properties 1 and 2, and 3 when `conservative`.
fn check(scene: &RandomScene, conservative: bool) -> Result<(), TestCaseError> {
    let text = scene.ron();
    let mut w = scene::parse(&text, "random", &Overrides::default())
        .map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?
        .world;
    let (h, steps) = (scene.solver.h, scene.steps);
    let mut switches: Vec<(usize, Algorithm)> =
        scene.solver.switches.iter().map(|(i, a)| (i.index(steps), *a)).collect();
    switches.sort_by_key(|s| s.0);
    let springs = springs(scene, &w);
    let allowance = if conservative { energy_allowance(scene, &w) } else { None };
    let e0 = energy(&w);
    let mut sinking = Sinking::new(&w, h);
    // Only Right and Exact so far: Platt's algorithms sink by design, and what
    // they leave is not the subject of properties 1 and 3.
    let mut ours = true;
    for step in 0..steps {
        for &(_, a) in switches.iter().filter(|s| s.0 == step) {
            w.settings.algorithm = a;
        }
        pull(&mut w, &springs, step);
        let before: Vec<Vector2<f64>> = (0..w.model.bodies.len()).map(|b| w.model.position(b, &w.state)).collect();
        let momentum = momentum(&w);
        let algorithm = w.settings.algorithm;
        ours &= matches!(algorithm, Algorithm::Right | Algorithm::Exact);
        let kinetic = w.model.kinetic_energy(&w.state);
        let r = w.step(h);
        // Property 1: impulses of the size of the momenta, impacts that never add energy.
        let absurd = r.events.iter().flat_map(|e| &e.impulse).find(|(_, p)| p.abs() > ABSURD_IMPULSE * momentum);
        prop_assert!(absurd.is_none(), "step {step}: impulse {absurd:?} past {ABSURD_IMPULSE} Σ m|ṗ|\n{text}");
        let scale =
            kinetic + w.model.kinetic_energy(&w.state) + r.events.iter().map(|e| e.energy_lost.abs()).sum::<f64>();
        for e in &r.events {
            prop_assert!(
                e.energy_lost >= -ROUND_OFF * scale,
                "step {step}: an impact at t = {} created {:.3e} J (of {scale:.3e} J)\n{text}",
                e.t,
                -e.energy_lost
            );
        }
        // Property 1.
        prop_assert!(finite(&w.state.q) && finite(&w.state.qd), "step {step}: a non-finite state\n{text}");
        match &r.status {
            StepStatus::Ok => {
                prop_assert!(finite(&r.g) && finite(&r.lambda), "step {step}: a non-finite report\n{text}")
            }
            StepStatus::Diverged { cause, .. } => prop_assert!(
                !ours
                    || !scene.solver.events
                    || scene.solver.tau_over_h < STABLE_TAU_OVER_H
                    || scene.solver.constant_acceleration,
                "step {step} ({algorithm:?}) diverged: {cause}\n{text}"
            ),
            // Exact's contract: every solve ends complementary.
            StepStatus::Unsolved { cause } => {
                prop_assert!(false, "step {step} ({algorithm:?}) unsolved: {cause}\n{text}")
            }
        }
        // Property 2.
        let checked = w.settings.events.enabled
            && matches!(algorithm, Algorithm::Right | Algorithm::Exact)
            && scene.solver.tau_over_h >= MONOTONE_TAU_OVER_H;
        if let Err(e) = sinking.step(&w, &r, &before, checked) {
            return Err(TestCaseError::fail(format!("step {step} ({algorithm:?}): {e}\n{text}")));
        }
        // Property 3.
        if let Some(allowed) = allowance.filter(|_| ours) {
            let gain = energy(&w) - e0;
            prop_assert!(gain <= allowed, "step {step} ({algorithm:?}): E − E(0) = {gain:.6e} > {allowed:.3e}\n{text}");
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------

fn config() -> ProptestConfig {
    let cases = std::env::var("CONTACT_LAB_RANDOM_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(DEFAULT_CASES);
    // A fixed seed: the same scenes on every run, so CI cannot flake.
    ProptestConfig { cases, rng_seed: RngSeed::Fixed(20070308), ..ProptestConfig::default() }
}

proptest! {
    #![proptest_config(config())]

    /// Properties 1 and 2 on scenes with every kind of force.
    #[test]
    fn random_scenes_stay_finite_and_out_of_contact(scene in scenes(false)) {
        check(&scene, false)?;
    }

    /// Properties 1–3 on scenes with gravity as the only force.
    #[test]
    fn conservative_random_scenes_do_not_gain_energy(scene in scenes(true)) {
        check(&scene, true)?;
    }
}

// ---------------------------------------------------------------------------
// Regressions: the failures found, as plain tests
// ---------------------------------------------------------------------------

fn world(text: &str) -> World {
    scene::parse(text, "regression", &Overrides::default()).expect("a valid scene").world
}

/// `g` of constraint `name` now.
fn g(w: &World, name: &str) -> f64 {
    let k = w.model.constraint_index(name).expect("a constraint of the scene");
    w.model.constraint_values(&w.state.q)[k]
}

/// Baumgarte's eq. (5) stepped by semi-implicit Euler is the recurrence
/// `g⁺ = (1 − r²) g + (1 − 2r) hġ`, `hġ⁺ = −r² g + (1 − 2r) hġ` (`r = h/τ`), stable
/// only for `r < 2√2 − 2`: a 1 m pendulum's rod at `τ = h` diverges (eigenvalue
/// −1.618), at `τ = 1.25 h` it holds. Caught as `Diverged` steps of Exact in
/// random scenes with `τ/h` in [1.01, 1.12]; property 1 counts them from 1.25 on.
/// The warning and the divergence cause now say so ([`Integrator::min_tau_over_h`]).
#[test]
fn baumgarte_with_semi_implicit_euler_needs_tau_above_1_21_h() {
    let pendulum = |tau: f64| {
        format!(
            r#"Scene(name: "pendulum", gravity: (0, -9.81),
                bodies: [Ball(name: "bob", position: (1, 1), mass: 1, radius: 0.02), Anchor(name: "pivot", position: (0, 1))],
                constraints: [Rod(name: "rod", a: "bob", b: "pivot")],
                solver: (algorithm: Right, dt: 0.01, tau: {tau:?}))"#
        )
    };
    let mut unstable = world(&pendulum(0.01));
    let diverged = (0..300).any(|_| matches!(unstable.step(0.01).status, StepStatus::Diverged { .. }));
    assert!(diverged, "τ = h: the rod's length should run away");
    let mut stable = world(&pendulum(0.0125));
    for step in 0..3000 {
        assert_eq!(stable.step(0.01).status, StepStatus::Ok, "τ = 1.25 h, step {step}");
        assert!(g(&stable, "rod").abs() < 0.01, "τ = 1.25 h, step {step}: rod off by {:e}", g(&stable, "rod"));
    }
}

/// A ball on the floor leaving at 2 mm/s (just above the separating tolerance)
/// under g, h = 10 ms: on the semi-implicit path `g(s) = s (v − s g)` it is back
/// at `s = v/g = 0.2 ms`, before the first of `first_activation`'s 32 samples
/// (0.31 ms), which took it for "never left": no event, and the step ended
/// 0.96 mm below the floor. Caught by property 2 as `floor:b1 at g = −9.5e-4` (a
/// rope's impulse had lifted a 742 kg ball by 2 mm/s) and a dozen other shapes;
/// fixed in eba231f (such a row is held active and landed).
#[test]
fn a_hop_shorter_than_a_sample_lands_on_the_floor() {
    for algorithm in ["Right", "Exact"] {
        let mut w = world(&hop(algorithm, "0.1"));
        w.step(0.01);
        assert!(g(&w, "floor:ball") >= -1e-6, "{algorithm}: g = {:e}", g(&w, "floor:ball"));
    }
}

/// The ball of [`a_hop_shorter_than_a_sample_lands_on_the_floor`] at `y`.
fn hop(algorithm: &str, y: &str) -> String {
    format!(
        r#"Scene(name: "hop", gravity: (0, -9.81),
            bodies: [Ball(name: "ball", position: (0, {y}), velocity: (0, 0.002), mass: 1, radius: 0.1)],
            walls: [(name: "floor", normal: (0, 1))],
            solver: (algorithm: {algorithm}, dt: 0.01))"#
    )
}

/// The same hop from 1e-14 m below the floor (touching: Baumgarte leaves resting
/// rows at such round-off) still ends 0.96 mm inside: eba231f holds a row only
/// when `g ≥ 0` at the start. Caught by property 2 after eba231f as
/// `w0:b0 at g = −5.4e-4` (start g = −5.2e-14, three events). Fixed: a row
/// within the active tolerance below can be held (events.rs).
#[test]
fn a_hop_from_round_off_below_the_floor_lands_on_it() {
    let mut w = world(&hop("Right", "0.09999999999999"));
    w.step(0.01);
    assert!(g(&w, "floor:ball") >= -1e-6, "g = {:e}", g(&w, "floor:ball"));
}

/// The hop with a second ball hitting a wall (e = 1, sequential impulses) 9.9 ms
/// into the step: the hop is held (eba231f), but the step is rewound to the wall's
/// impact, where the ball is 0.95 mm inside the floor; the held row's landing `d`
/// then takes it back to the floor in the 0.1 ms left: it leaves at 9.4 m/s, and
/// the energy goes from 60.8 J to 105.1 J. Found while checking eba231f.
/// Fixed: a new hold takes precedence over the rewind, and holds are cleared
/// after an event (events.rs, world.rs).
#[test]
fn a_held_hop_rewound_to_another_impact_is_not_launched() {
    let mut w = world(
        r#"Scene(name: "hop and hit", gravity: (0, -9.81),
            bodies: [
                Ball(name: "ball", position: (0, 0.1), velocity: (0, 0.002), mass: 1, radius: 0.1),
                Ball(name: "fast", position: (2.199, 1.0), velocity: (-10, 0), mass: 1, radius: 0.1),
            ],
            constraints: [
                HalfPlane(name: "floor", body: "ball", normal: (0, 1)),
                HalfPlane(name: "wall", body: "fast", normal: (1, 0), offset: 2.0, restitution: 1.0),
            ],
            solver: (algorithm: Right, dt: 0.01, restitution: 0, impulses: Sequential))"#,
    );
    let e0 = energy(&w);
    w.step(0.01);
    assert!(energy(&w) <= e0 * (1.0 + 1e-9), "E: {e0} J → {} J", energy(&w));
}

/// world.rs: `slow` lands speculatively (4.4 mm/s from g = tol/2, Exact): its `d`
/// puts it back at tol/2 at the end of the 9 ms step, on a path 4.6 µm below the
/// floor after 1.2 ms, when `fast` hits its wall: the step is cut there, and
/// `slow` ends 1.6 µm below. Caught by property 2 as `s0:b9 at g = −4.07e-6`
/// after a speculative landing of the step before. Fixed: when the cut would
/// leave a held row inside by more than half the active tolerance, the event is
/// where it reaches the floor, and the impact stops it there (events.rs).
#[test]
fn a_speculative_landing_cut_by_an_event_ends_inside() {
    let mut w = world(
        r#"Scene(name: "dip", gravity: (0, -9.81),
            bodies: [
                Ball(name: "slow", position: (0.5, 0.1000005), velocity: (0, -0.0044), mass: 1, radius: 0.1),
                Ball(name: "fast", position: (2.012, 1.0), velocity: (-10, 0), mass: 1, radius: 0.1),
            ],
            constraints: [
                HalfPlane(name: "floor", body: "slow", normal: (0, 1)),
                HalfPlane(name: "wall", body: "fast", normal: (1, 0), offset: 1.9),
            ],
            solver: (algorithm: Exact, dt: 0.009, restitution: 0))"#,
    );
    let r = w.step(0.009);
    let (floor, wall) = (w.model.constraint_index("floor"), w.model.constraint_index("wall"));
    let hit = |k| r.events.iter().any(|e| Some(e.constraints[0]) == k);
    assert!(hit(wall), "the wall's impact cuts the step: {:?}", r.events);
    assert!(hit(floor), "the floor's dip is an event of its own, before the wall's: {:?}", r.events);
    assert!(g(&w, "floor") >= -1e-6, "g = {:e}", g(&w, "floor"));
}

/// impulse.rs: a bead between two stops at the same `u`, moving at 1.5 /s, e = 1:
/// the simultaneous impulse problem asks `u̇⁺ ≥ 1.5` of one stop and `u̇⁺ ≤ 0` of the
/// other. No answer exists (only e = 0 has one): the pivoting returns 7.6e7 N·s
/// on both rows and the bead ends 5 mm past a stop, every step. Caught by
/// property 2 (`d0lo at g = −5.06e-3`, step 0); a bead at a stop on a taut rope
/// is the same. The generator pins no bead until it is fixed.
#[test]
fn a_pinned_bead_hit_elastically_crosses_its_stops() {
    let mut w = world(
        r#"Scene(name: "pinned",
            bodies: [Bead(name: "bead", curve: Segment(a: (0, 0), b: (0, 0.1)), u: 0, u_dot: 1.5218013806327448, mass: 1)],
            constraints: [BeadBound(name: "lo", body: "bead", min: 0), BeadBound(name: "hi", body: "bead", max: 0)],
            solver: (algorithm: Right, dt: 0.01, tau: 0.06, restitution: 1.0))"#,
    );
    for step in 0..10 {
        w.step(0.01);
        for stop in ["lo", "hi"] {
            assert!(g(&w, stop) >= -1e-6, "step {step}: `{stop}` at g = {:e}", g(&w, stop));
        }
    }
}

/// impulse.rs: an 873 kg ball falls on three 1 kg balls in a corner (sequential
/// impulses, e = 0). The sweep transmits a fraction of the heavy ball's momentum
/// per pick and stops after `1000 m` picks with the chain still closing at
/// 0.2–0.5 m/s; Baumgarte then lets the chain sink up to 1.25 mm in the rest of
/// the step (the simultaneous mode holds it). Caught by property 2 as
/// `left:b0 at g = −5.1e-4`, step 45. Fixed: a capped sweep is finished by the
/// plastic problem (impulse.rs).
#[test]
fn sequential_impulses_leave_a_heavy_ball_sinking() {
    let mut w = world(
        r#"Scene(name: "stack", gravity: (0, -9.81),
            bodies: [
                Ball(name: "b0", position: (0.25, 0.25), mass: 1, radius: 0.02),
                Ball(name: "b1", position: (0.25, 0.5), mass: 1, radius: 0.02),
                Ball(name: "b2", position: (0.25, 0.75), mass: 1, radius: 0.02),
                Ball(name: "b3", position: (0.25, 1.0), mass: 872.7863524476604, radius: 0.02),
            ],
            walls: [
                (name: "floor", normal: (0, 1)),
                (name: "left", normal: (1, 0)),
                (name: "right", normal: (-1, 0), offset: -0.5),
                (name: "s0", normal: (-0.34212874143578237, 0.3646202466725724), offset: -0.0043771236908024865),
            ],
            ball_pairs: true,
            solver: (algorithm: Right, dt: 0.01, tau: 0.02384542267038133, restitution: 0, impulses: Sequential))"#,
    );
    for step in 0..100 {
        let r = w.step(0.01);
        let deepest = w.model.constraints.iter().zip(&r.g).min_by(|a, b| a.1.total_cmp(b.1)).expect("rows");
        assert!(*deepest.1 >= -2e-6, "step {step}: `{}` at g = {:e}", deepest.0.name, deepest.1);
    }
}

/// impulse.rs: a 10 g ball hits a wall at 10 m/s (e = 1) with a 100 kg ball
/// resting right behind it. At the impact, 0.2 ms into the 1 ms step, they are
/// 2 mm apart, inside the speculative band (`tol + 2 h_rem v` = 16 mm): their
/// contact joins the impulse problem, may close by at most its gap in the rest of
/// the step, and the wall's `v⁺ ≥ 10 m/s` then pushes the heavy ball off at
/// 7.5 m/s: the energy goes from 0.5 J to 2813 J. Physically the light ball
/// bounces off the wall and then meets the heavy one (which takes 2 mm/s).
/// Caught by property 3 as a ×6 energy jump in one impact (25 kJ → 149 kJ,
/// an 866 kg ball launched at 16 m/s by a light ball wedged among three).
#[test]
fn a_simultaneous_impact_launches_a_heavy_neighbour() {
    let mut w = world(
        r#"Scene(name: "launch",
            bodies: [
                Ball(name: "light", position: (0.052, 0.5), velocity: (-10, 0), mass: 0.01, radius: 0.05),
                Ball(name: "heavy", position: (0.152, 0.5), mass: 100, radius: 0.05),
            ],
            walls: [(name: "left", normal: (1, 0))],
            ball_pairs: true,
            solver: (algorithm: Right, dt: 1e-3, restitution: 1.0))"#,
    );
    let e0 = energy(&w);
    w.step(1e-3);
    assert!(energy(&w) <= e0 * (1.0 + 1e-9), "E: {e0} J → {} J", energy(&w));
}
