//! Small models built in code: the paper's examples, for tests and benchmarks.
//! (The app and the CLI read the same systems from `assets/scenes/`.)

use nalgebra::Vector2;

use crate::body::{Body, BodyKind};
use crate::constraint::{Constraint, ConstraintKind, Geometry};
use crate::model::{Model, State};

pub use crate::lcg::Lcg;

/// A body with no force, no damping, placed at `offset` later by [`Model::new`].
pub fn body(name: &str, kind: BodyKind, mass: f64, radius: f64) -> Body {
    Body {
        name: name.into(),
        kind,
        mass,
        radius,
        force: Vector2::zeros(),
        damping: 0.0,
        user_force: Vector2::zeros(),
        user_torque: 0.0,
        offset: 0,
    }
}

/// A half-plane inequality `n·p − c − r|n| ≥ 0` on body `b`.
pub fn half_plane(name: &str, b: usize, n: (f64, f64), c: f64) -> Constraint {
    Constraint {
        name: name.into(),
        kind: ConstraintKind::Inequality,
        geometry: Geometry::HalfPlane { body: b, normal: Vector2::new(n.0, n.1), offset: c, at: Vector2::zeros() },
        restitution: None,
        friction: 0.0,
        rolling: 0.0,
    }
}

/// Figure 1: a particle of mass `m` at the apex of the wedge `g1 = x − y ≥ 0`,
/// `g2 = y ≥ 0`, under the constant force `f`.
pub fn wedge(m: f64, f: (f64, f64)) -> (Model, State) {
    let mut p = body("particle", BodyKind::Particle, m, 0.0);
    p.force = Vector2::new(f.0, f.1);
    let model = Model::new(
        vec![p],
        vec![half_plane("g1", 0, (1.0, -1.0), 0.0), half_plane("g2", 0, (0.0, 1.0), 0.0)],
        Vector2::zeros(),
    );
    (model, State { q: vec![0.0, 0.0], qd: vec![0.0, 0.0], t: 0.0 })
}

/// GUIDE §2: a unit mass in the corner of a floor (normal (0, 1)) and a slanted
/// wall (normal (0.6, 0.8)), under gravity and a push (0.3·9.81, 0).
pub fn sticky_corner() -> (Model, State) {
    let mut p = body("block", BodyKind::Particle, 1.0, 0.0);
    p.force = Vector2::new(0.3 * 9.81, 0.0);
    let model = Model::new(
        vec![p],
        vec![half_plane("floor", 0, (0.0, 1.0), 0.0), half_plane("wall", 0, (0.6, 0.8), 0.0)],
        Vector2::new(0.0, -9.81),
    );
    (model, State { q: vec![0.0, 0.0], qd: vec![0.0, 0.0], t: 0.0 })
}
