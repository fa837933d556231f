//! The scene file as written: what serde reads from RON, before any check.
//!
//! Every field is documented here and in `docs/scenes.md`. Units are SI (m, kg,
//! s, N). Points and vectors are pairs `(x, y)`; `y` points up. Optional fields
//! may be written bare (`restitution: 0.9`) or as `Some(0.9)`.

use serde::{Deserialize, Serialize};

use crate::choice::Algorithm;
use crate::curve::Curve;
use crate::impulse::ImpulseMode;
use crate::settings::{Integrator, Scheme, Settings};
use crate::units::Units;

pub type Vec2 = (f64, f64);

/// The whole file: `Scene(name: …, bodies: […], …)`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Scene", deny_unknown_fields)]
pub struct SceneFile {
    /// Shown in the app's title and the CLI summary.
    pub name: String,
    /// A paragraph saying what to look at.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// Uniform gravity in m/s², e.g. `(0, -9.81)`. Default `(0, 0)`.
    #[serde(default)]
    pub gravity: Vec2,
    /// The bodies, in order: their coordinates appear in `q` in this order.
    #[serde(default)]
    pub bodies: Vec<BodySpec>,
    /// Constraints written one by one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub constraints: Vec<ConstraintSpec>,
    /// Walls that every ball must stay on the allowed side of: one half-plane
    /// constraint per wall and per ball, named `WALL:BALL`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub walls: Vec<WallSpec>,
    /// Generate a contact for every pair of balls (fixed balls included, but not
    /// two fixed ones), named `A-B`.
    #[serde(default, skip_serializing_if = "is_false")]
    pub ball_pairs: bool,
    /// Restitution of the generated ball–ball contacts (default: the solver's).
    #[serde(default)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ball_pair_restitution: Option<f64>,
    /// Coulomb's `μ` of the generated contacts between bodies (`ball_pairs`;
    /// default 0, frictionless). Walls state their own.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub pair_friction: f64,
    /// Rolling resistance `μ_r` of the generated contacts between round
    /// bodies (default 0: they roll freely; needs `pair_friction > 0`): a
    /// torque up to `μ_r R*` times the normal force, `R* = r_a r_b / (r_a +
    /// r_b)`. Solved by time-stepping only.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub pair_rolling: f64,
    /// A generated heap of balls (the scale scene).
    #[serde(default)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ball_pile: Option<BallPileSpec>,
    /// Solver settings; every field has a default.
    #[serde(default, skip_serializing_if = "SolverSpec::is_default")]
    pub solver: SolverSpec,
    /// The rectangle the app shows first (default: around the bodies).
    #[serde(default)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub view: Option<ViewSpec>,
    /// The region where the phenomenon happens: presenter mode (F5), reset (R)
    /// and "Fit view" (F) frame it (default: the view, grown to every body).
    #[serde(default)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub focus: Option<ViewSpec>,
    /// How the app opens the scene: paused or playing, at what speed, with what
    /// plot window (default: playing in real time, a 2 s window).
    #[serde(default)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub opening: Option<OpeningSpec>,
    /// Plots the app opens with.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub plots: Vec<PlotSpec>,
    /// Simulated seconds for `contact-lab run` when `--duration` is not given.
    #[serde(default = "default_duration", skip_serializing_if = "is_default_duration")]
    pub duration: f64,
    /// The app opens with the cue tool armed (a drag back from a ball shoots it).
    #[serde(default, skip_serializing_if = "is_false")]
    pub cue: bool,
}

fn default_duration() -> f64 {
    5.0
}

// What a saved file leaves out: a field at its default (exactly: `-0.0` is
// written, so the start loads back bit for bit).
fn is_default_duration(v: &f64) -> bool {
    v.to_bits() == default_duration().to_bits()
}

fn is_zero(v: &f64) -> bool {
    v.to_bits() == 0
}

fn is_zero2(v: &Vec2) -> bool {
    is_zero(&v.0) && is_zero(&v.1)
}

fn is_false(v: &bool) -> bool {
    !v
}

/// A body. Balls take part in the generated contacts (`walls`, `ball_pairs`);
/// particles do not.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum BodySpec {
    /// A point moving freely in the plane; coordinates `x`, `y`.
    Particle {
        name: String,
        position: Vec2,
        #[serde(default, skip_serializing_if = "is_zero2")]
        velocity: Vec2,
        mass: f64,
        /// Default 0.
        #[serde(default, skip_serializing_if = "is_zero")]
        radius: f64,
        /// Constant force in N.
        #[serde(default, skip_serializing_if = "is_zero2")]
        force: Vec2,
        /// Linear damping rate γ in 1/s: force `−m γ v`.
        #[serde(default, skip_serializing_if = "is_zero")]
        damping: f64,
    },
    /// A round body moving freely in the plane; coordinates `x`, `y`.
    Ball {
        name: String,
        position: Vec2,
        #[serde(default, skip_serializing_if = "is_zero2")]
        velocity: Vec2,
        mass: f64,
        radius: f64,
        #[serde(default, skip_serializing_if = "is_zero2")]
        force: Vec2,
        #[serde(default, skip_serializing_if = "is_zero")]
        damping: f64,
    },
    /// A bead threaded on a curve; one coordinate `u` (the curve's parameter).
    Bead {
        name: String,
        curve: Curve,
        u: f64,
        #[serde(default, skip_serializing_if = "is_zero")]
        u_dot: f64,
        mass: f64,
        #[serde(default, skip_serializing_if = "is_zero")]
        radius: f64,
        #[serde(default, skip_serializing_if = "is_zero2")]
        force: Vec2,
        #[serde(default, skip_serializing_if = "is_zero")]
        damping: f64,
    },
    /// A fixed point (to hang strings and rods from); no coordinates.
    Anchor { name: String, position: Vec2 },
    /// A fixed round obstacle; a ball for `ball_pairs`; no coordinates.
    FixedBall { name: String, position: Vec2, radius: f64 },
    /// A box that turns, `size` (width, height) centred on `position`;
    /// coordinates `x`, `y`, `theta` (the fields every body that turns has:
    /// [`RigidSpec`]).
    Box {
        name: String,
        position: Vec2,
        #[serde(default, skip_serializing_if = "is_zero")]
        angle: f64,
        #[serde(default, skip_serializing_if = "is_zero2")]
        velocity: Vec2,
        #[serde(default, skip_serializing_if = "is_zero")]
        angular_velocity: f64,
        #[serde(default, skip_serializing_if = "is_zero")]
        mass: f64,
        #[serde(default, skip_serializing_if = "is_false")]
        fixed: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        inertia: Option<f64>,
        #[serde(default, skip_serializing_if = "is_zero2")]
        force: Vec2,
        #[serde(default, skip_serializing_if = "is_zero")]
        damping: f64,
        size: Vec2,
    },
    /// A convex polygon that turns, `vertices` counterclockwise in its frame
    /// (at `angle` 0, relative to `position`); its point is the polygon's
    /// centroid. Coordinates `x`, `y`, `theta`.
    Polygon {
        name: String,
        position: Vec2,
        #[serde(default, skip_serializing_if = "is_zero")]
        angle: f64,
        #[serde(default, skip_serializing_if = "is_zero2")]
        velocity: Vec2,
        #[serde(default, skip_serializing_if = "is_zero")]
        angular_velocity: f64,
        #[serde(default, skip_serializing_if = "is_zero")]
        mass: f64,
        #[serde(default, skip_serializing_if = "is_false")]
        fixed: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        inertia: Option<f64>,
        #[serde(default, skip_serializing_if = "is_zero2")]
        force: Vec2,
        #[serde(default, skip_serializing_if = "is_zero")]
        damping: f64,
        vertices: Vec<Vec2>,
    },
    /// A disc that turns (a ball with an angle); coordinates `x`, `y`, `theta`.
    /// Walls and `ball_pairs` take it as a ball.
    Disc {
        name: String,
        position: Vec2,
        #[serde(default, skip_serializing_if = "is_zero")]
        angle: f64,
        #[serde(default, skip_serializing_if = "is_zero2")]
        velocity: Vec2,
        #[serde(default, skip_serializing_if = "is_zero")]
        angular_velocity: f64,
        #[serde(default, skip_serializing_if = "is_zero")]
        mass: f64,
        #[serde(default, skip_serializing_if = "is_false")]
        fixed: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        inertia: Option<f64>,
        #[serde(default, skip_serializing_if = "is_zero2")]
        force: Vec2,
        #[serde(default, skip_serializing_if = "is_zero")]
        damping: f64,
        radius: f64,
    },
}

/// What every body that turns has: its name, its centroid's `position` and
/// `velocity`, its `angle` (radians, counterclockwise) and `angular_velocity`
/// (rad/s), its `mass`, a constant `force` at the centroid and a linear
/// `damping`. Its inertia comes from its shape at uniform density unless
/// `inertia` (kg·m², about the centroid) is given. With `fixed: true` the
/// shape never moves (a step, a ramp): it has no coordinates and needs no
/// mass, and nothing but `name`, `position`, `angle` and the shape applies.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RigidSpec<'a> {
    pub name: &'a str,
    pub position: Vec2,
    pub angle: f64,
    pub velocity: Vec2,
    pub angular_velocity: f64,
    pub mass: f64,
    /// A shape that never moves: no coordinates, no mass.
    pub fixed: bool,
    pub inertia: Option<f64>,
    pub force: Vec2,
    pub damping: f64,
}

impl BodySpec {
    /// A body that turns with the shape `shape`, at rest at `position`
    /// (angle 0, no force, no damping, inertia from the shape): what an edit
    /// tool makes.
    pub fn at_rest(name: String, position: Vec2, mass: f64, shape: crate::shapes::Shape) -> BodySpec {
        use crate::shapes::Shape;
        // The variant with every field of a body that turns at rest, and its shape's.
        macro_rules! resting {
            ($variant:ident, $field:ident: $value:expr) => {
                BodySpec::$variant {
                    name,
                    position,
                    angle: 0.0,
                    velocity: (0.0, 0.0),
                    angular_velocity: 0.0,
                    mass,
                    fixed: false,
                    inertia: None,
                    force: (0.0, 0.0),
                    damping: 0.0,
                    $field: $value,
                }
            };
        }
        match shape {
            Shape::Box { size } => resting!(Box, size: size),
            Shape::Disc { radius } => resting!(Disc, radius: radius),
            Shape::Polygon { vertices } => resting!(Polygon, vertices: vertices.iter().map(|v| (v.x, v.y)).collect()),
        }
    }

    /// The fields of a body that turns, and its shape as written; `None` for
    /// the other bodies.
    pub fn rigid(&self) -> Option<(RigidSpec<'_>, crate::shapes::Shape)> {
        use crate::shapes::Shape;
        let (spec, shape) = match self {
            BodySpec::Box {
                name,
                position,
                angle,
                velocity,
                angular_velocity,
                mass,
                fixed,
                inertia,
                force,
                damping,
                size,
            } => {
                let b = (
                    name,
                    *position,
                    *angle,
                    *velocity,
                    *angular_velocity,
                    (*mass, *fixed),
                    *inertia,
                    *force,
                    *damping,
                );
                (b, Shape::Box { size: *size })
            }
            BodySpec::Polygon {
                name,
                position,
                angle,
                velocity,
                angular_velocity,
                mass,
                fixed,
                inertia,
                force,
                damping,
                vertices,
            } => {
                let b = (
                    name,
                    *position,
                    *angle,
                    *velocity,
                    *angular_velocity,
                    (*mass, *fixed),
                    *inertia,
                    *force,
                    *damping,
                );
                let vertices = vertices.iter().map(|&(x, y)| nalgebra::Vector2::new(x, y)).collect();
                (b, Shape::Polygon { vertices })
            }
            BodySpec::Disc {
                name,
                position,
                angle,
                velocity,
                angular_velocity,
                mass,
                fixed,
                inertia,
                force,
                damping,
                radius,
            } => {
                let b = (
                    name,
                    *position,
                    *angle,
                    *velocity,
                    *angular_velocity,
                    (*mass, *fixed),
                    *inertia,
                    *force,
                    *damping,
                );
                (b, Shape::Disc { radius: *radius })
            }
            _ => return None,
        };
        let (name, position, angle, velocity, angular_velocity, (mass, fixed), inertia, force, damping) = spec;
        let spec =
            RigidSpec { name, position, angle, velocity, angular_velocity, mass, fixed, inertia, force, damping };
        Some((spec, shape))
    }
}

/// A constraint written explicitly. `restitution` overrides the solver's `e`
/// for impacts on this constraint.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum ConstraintSpec {
    /// `n·p − offset − r|n| ≥ 0`: body `body` (of radius `r`) stays on the side
    /// `normal` points to. `normal` need not be unit. Also written `Wall(…)`.
    #[serde(alias = "Wall")]
    HalfPlane {
        name: String,
        body: String,
        normal: Vec2,
        #[serde(default, skip_serializing_if = "is_zero")]
        offset: f64,
        /// The point of `body` it holds, in the body's frame (default its own point).
        #[serde(default, skip_serializing_if = "is_zero2")]
        at: Vec2,
        #[serde(default)]
        #[serde(skip_serializing_if = "Option::is_none")]
        restitution: Option<f64>,
        /// Coulomb's `μ` (default 0, frictionless).
        #[serde(default, skip_serializing_if = "is_zero")]
        friction: f64,
        /// Rolling resistance `μ_r` (default 0; needs `friction > 0` and a
        /// round body that turns): a torque up to `μ_r R*` times the push.
        #[serde(default, skip_serializing_if = "is_zero")]
        rolling: f64,
    },
    /// Non-penetration of two bodies: `|p_a − p_b| − r_a − r_b ≥ 0`.
    /// Default name `A-B`.
    Contact {
        #[serde(default)]
        #[serde(skip_serializing_if = "Option::is_none")]
        name: Option<String>,
        a: String,
        b: String,
        #[serde(default)]
        #[serde(skip_serializing_if = "Option::is_none")]
        restitution: Option<f64>,
        /// Coulomb's `μ` (default 0, frictionless).
        #[serde(default, skip_serializing_if = "is_zero")]
        friction: f64,
        /// Rolling resistance `μ_r` (default 0; needs `friction > 0` and a
        /// round body that turns): a torque up to `μ_r R*` times the push.
        #[serde(default, skip_serializing_if = "is_zero")]
        rolling: f64,
    },
    /// A massless rod (equality): `|p_a − p_b| = length`. Default length: the
    /// distance at the start.
    Rod {
        name: String,
        a: String,
        b: String,
        #[serde(default)]
        #[serde(skip_serializing_if = "Option::is_none")]
        length: Option<f64>,
        /// The points of `a` and `b` it joins, in their frames (default their own points).
        #[serde(default, skip_serializing_if = "is_zero2")]
        at_a: Vec2,
        #[serde(default, skip_serializing_if = "is_zero2")]
        at_b: Vec2,
    },
    /// A string that can go slack (inequality): `|p_a − p_b| ≤ length`.
    /// Default length: the distance at the start. Also written `String(…)`.
    #[serde(alias = "String")]
    Rope {
        name: String,
        a: String,
        b: String,
        #[serde(default)]
        #[serde(skip_serializing_if = "Option::is_none")]
        length: Option<f64>,
        #[serde(default)]
        #[serde(skip_serializing_if = "Option::is_none")]
        restitution: Option<f64>,
        #[serde(default, skip_serializing_if = "is_zero2")]
        at_a: Vec2,
        #[serde(default, skip_serializing_if = "is_zero2")]
        at_b: Vec2,
    },
    /// A pin joint (two equalities): the point `at` of `a` (in its frame)
    /// stays on the point of `b` it starts on; `b` may be an anchor.
    Pin { name: String, a: String, b: String, at: Vec2 },
    /// An end stop on a bead's parameter: `u ≥ min` or `u ≤ max` (give one).
    BeadBound {
        name: String,
        body: String,
        #[serde(default)]
        #[serde(skip_serializing_if = "Option::is_none")]
        min: Option<f64>,
        #[serde(default)]
        #[serde(skip_serializing_if = "Option::is_none")]
        max: Option<f64>,
        #[serde(default)]
        #[serde(skip_serializing_if = "Option::is_none")]
        restitution: Option<f64>,
    },
}

impl ConstraintSpec {
    pub fn restitution(&self) -> Option<f64> {
        match self {
            ConstraintSpec::HalfPlane { restitution, .. }
            | ConstraintSpec::Contact { restitution, .. }
            | ConstraintSpec::Rope { restitution, .. }
            | ConstraintSpec::BeadBound { restitution, .. } => *restitution,
            ConstraintSpec::Rod { .. } | ConstraintSpec::Pin { .. } => None,
        }
    }

    /// Coulomb's `μ` of a contact (0 for rows that are not contacts).
    pub fn friction(&self) -> f64 {
        match self {
            ConstraintSpec::HalfPlane { friction, .. } | ConstraintSpec::Contact { friction, .. } => *friction,
            _ => 0.0,
        }
    }

    /// Rolling resistance `μ_r` of a contact (0 for rows that are not contacts).
    pub fn rolling(&self) -> f64 {
        match self {
            ConstraintSpec::HalfPlane { rolling, .. } | ConstraintSpec::Contact { rolling, .. } => *rolling,
            _ => 0.0,
        }
    }
}

/// A wall applied to every ball: `n·p − offset − r|n| ≥ 0`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WallSpec {
    pub name: String,
    pub normal: Vec2,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub offset: f64,
    #[serde(default)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub restitution: Option<f64>,
    /// Coulomb's `μ` between the wall and what touches it (default 0, smooth).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub friction: f64,
    /// Rolling resistance `μ_r` of a disc on the wall (default 0: it rolls
    /// freely; needs `friction > 0`): a torque up to `μ_r r` times the
    /// normal force. Solved by time-stepping only.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub rolling: f64,
}

/// `count` balls named `PREFIX1…PREFIXN`, on a grid: row by row from `first`
/// (the centre of the bottom-left ball), `columns` per row, `spacing` apart,
/// every other row shifted right by `stagger` so the heap does not stack in
/// perfect columns. Rows go up (+y) without limit. With `turning: true` the
/// balls are discs that turn (`x`, `y`, `θ`, `I = m r²/2`, as `Disc`), so
/// friction can set them spinning (the heap scene).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BallPileSpec {
    /// Number of balls (`contact-lab run --balls N` overrides it).
    pub count: usize,
    #[serde(default = "default_prefix")]
    pub prefix: String,
    pub radius: f64,
    pub mass: f64,
    #[serde(default)]
    pub damping: f64,
    pub first: Vec2,
    pub columns: usize,
    /// Centre-to-centre distance, at least `2 radius`.
    pub spacing: f64,
    #[serde(default)]
    pub stagger: f64,
    /// Initial velocity of every ball.
    #[serde(default)]
    pub velocity: Vec2,
    /// Discs that turn instead of balls that do not (default false).
    #[serde(default, skip_serializing_if = "is_false")]
    pub turning: bool,
}

fn default_prefix() -> String {
    "ball".into()
}

/// Solver settings. Defaults are those of [`Settings::default`]; a saved
/// file writes only the fields that differ.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SolverSpec {
    /// `Platt`, `PlattImproved`, `Right` or `Exact`.
    pub algorithm: Algorithm,
    /// `EventDriven` (the paper's, default) or `TimeStepping` (Moreau–Jean:
    /// one velocity problem a step, for piles; the algorithm is then Exact).
    pub scheme: Scheme,
    /// Time step `h` in s.
    pub dt: f64,
    /// Baumgarte's time constant τ of eq. (5), in s.
    pub tau: f64,
    /// `SemiImplicitEuler` or `ConstantAcceleration`.
    pub integrator: Integrator,
    /// The scene's yardstick (default 1 m, 1 s): the thresholds not set
    /// here are their defaults in these units.
    pub units: Units,
    /// An inequality is active when `g ≤ active_tolerance` (m; default 1e-6 length units).
    #[serde(deserialize_with = "some_f64")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub active_tolerance: Option<f64>,
    /// A violation tendency is `J q̈ − d < −tendency_tolerance` (m/s²; default
    /// 1e-9 acceleration units).
    #[serde(deserialize_with = "some_f64")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tendency_tolerance: Option<f64>,
    /// Rewind to first activations and resolve impacts.
    pub events: bool,
    /// Default restitution coefficient `e` of impacts, in [0, 1].
    pub restitution: f64,
    /// `Simultaneous` or `Sequential`.
    pub impulses: ImpulseMode,
    /// Zeno guard: at most this many events in one step.
    pub max_events_per_step: usize,
    /// Below this approach speed (m/s; default 1e-3 speed units) an impact is plastic.
    #[serde(deserialize_with = "some_f64")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_impact_speed: Option<f64>,
    /// Sleeping islands: `(enabled: true)`, with `speed` and `time` optional.
    pub sleep: SleepSpec,
    /// How far a constraint may be violated (or two balls overlap) at the
    /// start, in m (default 1e-9 length units). A scene saved from a run
    /// ("edit from here") states the run's penetrations at that instant.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(deserialize_with = "some_f64")]
    pub start_tolerance: Option<f64>,
}

impl SolverSpec {
    pub fn is_default(&self) -> bool {
        *self == SolverSpec::default()
    }
}

impl Serialize for SolverSpec {
    /// The fields that differ from [`SolverSpec::default`], in the order above.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let d = SolverSpec::default();
        let mut out = s.serialize_struct("SolverSpec", 15)?;
        macro_rules! fields {
            ($($f:ident),*) => {$(
                if self.$f != d.$f {
                    out.serialize_field(stringify!($f), &self.$f)?;
                } else {
                    out.skip_field(stringify!($f))?;
                }
            )*};
        }
        fields!(
            algorithm,
            scheme,
            dt,
            tau,
            integrator,
            units,
            active_tolerance,
            tendency_tolerance,
            events,
            restitution,
            impulses,
            max_events_per_step,
            min_impact_speed,
            sleep,
            start_tolerance
        );
        out.end()
    }
}

/// The `sleep` field of the `solver` block ([`crate::sleep`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SleepSpec {
    pub enabled: bool,
    /// A body slower than this is still (m/s; default 1e-3 speed units).
    #[serde(deserialize_with = "some_f64")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub speed: Option<f64>,
    /// An island still this long sleeps (s; default 0.5).
    pub time: f64,
}

impl Default for SleepSpec {
    fn default() -> Self {
        let s = crate::sleep::SleepSettings::default();
        SleepSpec { enabled: s.enabled, speed: None, time: s.time }
    }
}

/// A number written plainly (`1e-6`, not `Some(1e-6)`) for an optional field.
fn some_f64<'de, D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Option<f64>, D::Error> {
    f64::deserialize(d).map(Some)
}

impl Default for SolverSpec {
    fn default() -> Self {
        let s = Settings::default();
        SolverSpec {
            algorithm: s.algorithm,
            scheme: s.scheme,
            dt: 1e-3,
            tau: s.tau,
            integrator: s.integrator,
            units: s.units,
            active_tolerance: None,
            tendency_tolerance: None,
            events: s.events.enabled,
            restitution: s.events.restitution,
            impulses: s.events.impulses,
            max_events_per_step: s.events.max_per_step,
            min_impact_speed: None,
            sleep: SleepSpec::default(),
            start_tolerance: None,
        }
    }
}

/// The rectangle shown at start, in m.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ViewSpec {
    pub min: Vec2,
    pub max: Vec2,
}

/// How the app opens a scene (or a tour step): `opening: (paused: true,
/// speed: 0.05, plot_window: 0.02)`. Every field is optional.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OpeningSpec {
    /// Open paused at t = 0 (default: playing).
    #[serde(default, skip_serializing_if = "is_false")]
    pub paused: bool,
    /// Speed of the clock relative to real time, 0.01 to 4: 0.05 is a 20×
    /// slow motion (default 1).
    #[serde(default)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub speed: Option<f64>,
    /// Pause by itself when the simulated time reaches this many seconds.
    #[serde(default)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pause_at: Option<f64>,
    /// Seconds of simulated time the plots show (default 2).
    #[serde(default)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plot_window: Option<f64>,
}

/// One plot: a title and the series drawn in it (see `docs/scenes.md`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlotSpec {
    pub title: String,
    pub series: Vec<String>,
}
