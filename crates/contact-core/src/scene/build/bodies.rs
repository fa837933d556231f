//! Bodies: those written in the file, with their coordinates `q` and velocities
//! `q̇` in the order `Model::new` gives them (eq. 1, `M(q) q̈ = f`), and what the
//! builder remembers of each (its path, which generated contacts it takes part in).

use std::collections::HashMap;

use nalgebra::Vector2;

use super::ctx::{Ctx, Result, line_of};
use crate::body::{Body, BodyKind};
use crate::curve::Curve;
use crate::scene::schema::BodySpec;

/// What the builder remembers about each body besides the core [`Body`].
pub(super) struct BodyInfo {
    /// Path of the body in the file (`bodies[2]`, or `ball_pile` for generated ones).
    pub(super) path: String,
    /// Takes part in `walls` (a ball that moves, a body that turns).
    pub(super) walls: bool,
    /// Takes part in `ball_pairs` (a ball, moving or fixed).
    pub(super) pairs: bool,
}

/// The bodies being built, with their initial coordinates.
#[derive(Default)]
pub(super) struct Bodies {
    pub(super) bodies: Vec<Body>,
    pub(super) info: Vec<BodyInfo>,
    pub(super) q: Vec<f64>,
    pub(super) qd: Vec<f64>,
    by_name: HashMap<String, usize>,
}

impl Bodies {
    pub(super) fn push(
        &mut self,
        cx: &Ctx,
        name_path: &str,
        mut body: Body,
        info: BodyInfo,
        q: &[f64],
        qd: &[f64],
    ) -> Result<()> {
        cx.name(name_path, &body.name)?;
        // As `Model::new` will: the body's coordinates follow those pushed before.
        body.offset = self.q.len();
        if let Some(&first) = self.by_name.get(&body.name) {
            let at = line_of(cx, &format!("{}.name", self.info[first].path));
            return Err(cx.err(name_path, format!("body name `{}` is used twice (first{at})", body.name)));
        }
        self.by_name.insert(body.name.clone(), self.bodies.len());
        self.bodies.push(body);
        self.info.push(info);
        self.q.extend_from_slice(q);
        self.qd.extend_from_slice(qd);
        Ok(())
    }

    /// The index of the body named at `path`, or an error listing the names.
    pub(super) fn find(&self, cx: &Ctx, path: &str, name: &str) -> Result<usize> {
        self.by_name.get(name).copied().ok_or_else(|| {
            let mut known: Vec<&str> = self.bodies.iter().map(|b| b.name.as_str()).take(12).collect();
            if self.bodies.len() > known.len() {
                known.push("…");
            }
            cx.err(path, format!("unknown body `{name}` (bodies: {})", known.join(", ")))
        })
    }
}

pub(super) fn new_body(name: &str, kind: BodyKind, mass: f64, radius: f64, force: Vector2<f64>, damping: f64) -> Body {
    Body {
        name: name.to_string(),
        kind,
        mass,
        radius,
        force,
        damping,
        user_force: Vector2::zeros(),
        user_torque: 0.0,
        offset: 0,
    }
}

/// A body written in the file that does not turn.
pub(super) fn add_body(cx: &Ctx, out: &mut Bodies, path: &str, spec: &BodySpec) -> Result<()> {
    let f = |field: &str| format!("{path}.{field}");
    match spec {
        BodySpec::Particle { name, position, velocity, mass, radius, force, damping }
        | BodySpec::Ball { name, position, velocity, mass, radius, force, damping } => {
            let ball = matches!(spec, BodySpec::Ball { .. });
            let p = cx.place(&f("position"), *position)?;
            let v = cx.finite2(&f("velocity"), *velocity)?;
            cx.positive(&f("mass"), *mass, "mass")?;
            if ball {
                cx.positive(&f("radius"), *radius, "a ball's radius")?;
            } else {
                cx.non_negative(&f("radius"), *radius, "radius")?;
            }
            let force = cx.finite2(&f("force"), *force)?;
            cx.non_negative(&f("damping"), *damping, "damping")?;
            let body = new_body(name, BodyKind::Particle, *mass, *radius, force, *damping);
            let info = BodyInfo { path: path.into(), walls: ball, pairs: ball };
            out.push(cx, &f("name"), body, info, &[p.x, p.y], &[v.x, v.y])
        }
        BodySpec::Bead { name, curve, u, u_dot, mass, radius, force, damping } => {
            check_curve(cx, &f("curve"), curve)?;
            cx.finite(&f("u"), *u)?;
            cx.finite(&f("u_dot"), *u_dot)?;
            cx.positive(&f("mass"), *mass, "mass")?;
            cx.non_negative(&f("radius"), *radius, "radius")?;
            let force = cx.finite2(&f("force"), *force)?;
            cx.non_negative(&f("damping"), *damping, "damping")?;
            let body = new_body(name, BodyKind::Bead(curve.clone()), *mass, *radius, force, *damping);
            let info = BodyInfo { path: path.into(), walls: false, pairs: false };
            out.push(cx, &f("name"), body, info, &[*u], &[*u_dot])
        }
        BodySpec::Anchor { name, position } => {
            let p = cx.place(&f("position"), *position)?;
            let body = new_body(name, BodyKind::Fixed { position: (p.x, p.y) }, 0.0, 0.0, Vector2::zeros(), 0.0);
            out.push(cx, &f("name"), body, BodyInfo { path: path.into(), walls: false, pairs: false }, &[], &[])
        }
        BodySpec::FixedBall { name, position, radius } => {
            let p = cx.place(&f("position"), *position)?;
            cx.positive(&f("radius"), *radius, "a ball's radius")?;
            let body = new_body(name, BodyKind::Fixed { position: (p.x, p.y) }, 0.0, *radius, Vector2::zeros(), 0.0);
            out.push(cx, &f("name"), body, BodyInfo { path: path.into(), walls: false, pairs: true }, &[], &[])
        }
        // Bodies that turn are built by `rigid::add_rigid` (see `build`).
        BodySpec::Box { .. } | BodySpec::Polygon { .. } | BodySpec::Disc { .. } => {
            unreachable!("a body that turns is built by rigid::add_rigid")
        }
    }
}

fn check_curve(cx: &Ctx, path: &str, curve: &Curve) -> Result<()> {
    match *curve {
        Curve::Segment { a, b } => {
            let (a, b) = (cx.finite2(&format!("{path}.a"), a)?, cx.finite2(&format!("{path}.b"), b)?);
            if (a - b).norm() == 0.0 {
                return Err(cx.err(&format!("{path}.b"), "a segment needs two distinct ends"));
            }
        }
        Curve::CircleArc { center, radius } => {
            cx.finite2(&format!("{path}.center"), center)?;
            cx.positive(&format!("{path}.radius"), radius, "the circle's radius")?;
        }
        Curve::Parabola { vertex, k } => {
            cx.finite2(&format!("{path}.vertex"), vertex)?;
            cx.finite(&format!("{path}.k"), k)?;
        }
        Curve::Cycloid { origin, r } => {
            cx.finite2(&format!("{path}.origin"), origin)?;
            cx.positive(&format!("{path}.r"), r, "the cycloid's r")?;
        }
    }
    Ok(())
}
