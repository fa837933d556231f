//! What a series name means: the scene files' plot names
//! ([`contact_core::scene::series_names`]) resolved against a world —
//! `BODY.COORD`, `BODY.COORD.v`, `BODY.COORD.a`, `NAME.g`, `NAME.lambda`,
//! `NAME.handled`, `NAME.friction`, `NAME.slip`, `friction_work`, `max_violation`, `kinetic_energy`, `rotational_energy`, `total_energy`,
//! `user_work`, `handled`, `iterations`, `repose_angle` —
//! and the value each reads from a step. The history, compare mode's lanes and
//! the plots share it.

use contact_core::{StepReport, World};

/// What a series reads from a step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    Coord(usize),
    Velocity(usize),
    Acceleration(usize),
    G(usize),
    Lambda(usize),
    Handled(usize),
    /// `λ_t` of a contact with friction (N).
    Friction(usize),
    /// The slip `v_t` of a contact with friction (m/s), from the state.
    Slip(usize),
    /// The energy friction took out since the start (cumulative, like `UserWork`).
    FrictionWork,
    MaxViolation,
    KineticEnergy,
    /// The kinetic energy's part in turning bodies, `Σ ½ I θ̇²`.
    RotationalEnergy,
    /// `½ q̇ᵀ M q̇` plus the potential of gravity and the constant forces.
    TotalEnergy,
    /// The work the mouse springs have done since the start (cumulative: the
    /// recorder adds each step's [`StepReport::user_work`]).
    UserWork,
    HandledCount,
    Iterations,
    /// The angle of repose of the round bodies' heap (degrees; NaN without one).
    ReposeAngle,
    /// A constraint row that is not in the model now (contacts by proximity).
    Absent,
}

impl Source {
    /// Series a recorder adds up step by step (each step's share is the value).
    pub fn is_cumulative(self) -> bool {
        matches!(self, Source::UserWork | Source::FrictionWork)
    }

    /// The value after a step.
    pub fn value(self, world: &World, report: &StepReport) -> f64 {
        match self {
            Source::Coord(i) => world.state.q[i],
            Source::Velocity(i) => world.state.qd[i],
            Source::Acceleration(i) => report.qdd[i],
            Source::G(k) => report.g.get(k).copied().unwrap_or(f64::NAN),
            Source::Lambda(k) => report.lambda.get(k).copied().unwrap_or(f64::NAN),
            Source::Handled(k) => report.handled.get(k).map_or(f64::NAN, |h| f64::from(u8::from(*h))),
            Source::Friction(k) => report.friction.get(k).copied().unwrap_or(0.0),
            Source::Slip(k) => slip(world, k),
            // The step's share; a recorder adds them up.
            Source::FrictionWork => report.friction_work,
            Source::Absent => f64::NAN,
            Source::MaxViolation => report.max_violation,
            Source::KineticEnergy => report.kinetic_energy,
            Source::RotationalEnergy => world.model.rotational_energy(&world.state),
            Source::TotalEnergy => report.total_energy,
            // The step's share; a recorder adds them up (see `Source::UserWork`).
            Source::UserWork => report.user_work,
            Source::HandledCount => report.handled.iter().filter(|h| **h).count() as f64,
            Source::Iterations => report.solves as f64,
            Source::ReposeAngle => contact_core::heap::repose_angle(&world.model, &world.state).unwrap_or(f64::NAN),
        }
    }

    /// The unit, for axis labels and CSV headers.
    pub fn unit(self, world: &World, name: &str) -> &'static str {
        // A bead's `u` has no unit, an angle `theta` is in radians, the rest in metres.
        let of = |i: usize, u: [&'static str; 3]| {
            let is = |c: &str| name.ends_with(&format!(".{c}")) || name.contains(&format!(".{c}."));
            if is("u") || world.model.ndofs() <= i {
                ["", "1/s", "1/s²"]
            } else if is("theta") {
                ["rad", "rad/s", "rad/s²"]
            } else {
                u
            }
        };
        let metres = ["m", "m/s", "m/s²"];
        match self {
            Source::Coord(i) => of(i, metres)[0],
            Source::Velocity(i) => of(i, metres)[1],
            Source::Acceleration(i) => of(i, metres)[2],
            Source::G(_) | Source::MaxViolation | Source::Absent => "m",
            Source::Lambda(_) | Source::Friction(_) => "N",
            Source::Slip(_) => "m/s",
            Source::Handled(_) => "0/1",
            Source::KineticEnergy
            | Source::RotationalEnergy
            | Source::TotalEnergy
            | Source::UserWork
            | Source::FrictionWork => "J",
            Source::HandledCount => "rows",
            Source::Iterations => "solves",
            Source::ReposeAngle => "°",
        }
    }
}

/// The slip `v_t` of contact `k` now (NaN for a row that is not a contact).
pub fn slip(world: &World, k: usize) -> f64 {
    let (m, s) = (&world.model, &world.state);
    m.constraints
        .get(k)
        .and_then(|c| contact_core::tangent::tangent_row(c, &m.bodies, &s.q, &s.qd))
        .map_or(f64::NAN, |r| r.g)
}

/// Resolves a series name against a world.
pub fn resolve(world: &World, name: &str) -> Option<Source> {
    match name {
        "max_violation" => return Some(Source::MaxViolation),
        "kinetic_energy" => return Some(Source::KineticEnergy),
        "rotational_energy" => return Some(Source::RotationalEnergy),
        "total_energy" => return Some(Source::TotalEnergy),
        "user_work" => return Some(Source::UserWork),
        "handled" => return Some(Source::HandledCount),
        "iterations" => return Some(Source::Iterations),
        "friction_work" => return Some(Source::FrictionWork),
        "repose_angle" => return Some(Source::ReposeAngle),
        _ => {}
    }
    let labels = world.model.coord_labels();
    if let Some(i) = labels.iter().position(|l| l == name) {
        return Some(Source::Coord(i));
    }
    if let Some((base, suffix)) = name.rsplit_once('.') {
        if let Some(i) = labels.iter().position(|l| l == base) {
            return match suffix {
                "v" => Some(Source::Velocity(i)),
                "a" => Some(Source::Acceleration(i)),
                _ => None,
            };
        }
        if let Some(k) = world.model.constraint_index(base) {
            return match suffix {
                "g" => Some(Source::G(k)),
                "lambda" => Some(Source::Lambda(k)),
                "handled" => Some(Source::Handled(k)),
                "friction" => Some(Source::Friction(k)),
                "slip" => Some(Source::Slip(k)),
                _ => None,
            };
        }
    }
    None
}

/// A human title for a series name: `particle.y.a` → `ÿ particle (m/s²)`.
pub fn pretty(world: &World, name: &str) -> String {
    match resolve(world, name) {
        Some(s) => {
            let unit = s.unit(world, name);
            let base = match s {
                Source::Acceleration(_) => format!("{} (accel.)", name.trim_end_matches(".a")),
                Source::Velocity(_) => format!("{} (vel.)", name.trim_end_matches(".v")),
                Source::Lambda(_) => format!("λ {}", name.trim_end_matches(".lambda")),
                Source::G(_) => format!("g {}", name.trim_end_matches(".g")),
                Source::Handled(_) => format!("handled {}", name.trim_end_matches(".handled")),
                Source::Friction(_) => format!("λ_t {}", name.trim_end_matches(".friction")),
                Source::Slip(_) => format!("slip {}", name.trim_end_matches(".slip")),
                Source::FrictionWork => "dissipated by friction".into(),
                Source::MaxViolation => "max violation".into(),
                Source::KineticEnergy => "kinetic energy".into(),
                Source::RotationalEnergy => "of it, turning".into(),
                Source::TotalEnergy => "total energy".into(),
                Source::UserWork => "work of the mouse".into(),
                Source::HandledCount => "handled rows".into(),
                Source::ReposeAngle => "angle of repose".into(),
                // Time-stepping solves velocity problems, not eq. (6).
                Source::Iterations if world.settings.scheme == contact_core::Scheme::TimeStepping => {
                    "velocity problems".into()
                }
                Source::Iterations => "solves of eq. (6)".into(),
                Source::Coord(_) | Source::Absent => name.to_string(),
            };
            if unit.is_empty() { base } else { format!("{base} [{unit}]") }
        }
        None => name.to_string(),
    }
}
