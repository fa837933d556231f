//! Bodies that turn, written in the file (`Box`, `Polygon`, `Disc`): the
//! coordinates `(x, y, θ)` of their centroid and angle, `M = diag(m, m, I)`
//! with `I` from the shape at uniform density ([`Shape::inertia_per_kg`])
//! unless `inertia` is given. Walls hold a box or a polygon by its corners
//! and a disc by its radius; `ball_pairs` takes discs as balls. A shape
//! written `fixed: true` is a [`BodyKind::FixedShape`]: no coordinates.

use super::bodies::{Bodies, BodyInfo, new_body};
use super::ctx::{Ctx, Result};
use crate::body::{BodyKind, turned};
use crate::scene::schema::RigidSpec;
use crate::shapes::Shape;

/// A body that turns, written at `path` with its fields `spec` and `shape`.
pub(super) fn add_rigid(cx: &Ctx, out: &mut Bodies, path: &str, spec: RigidSpec, shape: Shape) -> Result<()> {
    let f = |field: &str| format!("{path}.{field}");
    let p = cx.place(&f("position"), spec.position)?;
    let angle = cx.finite(&f("angle"), spec.angle)?;
    let field = match shape {
        Shape::Disc { .. } => "radius",
        Shape::Box { .. } => "size",
        Shape::Polygon { .. } => "vertices",
    };
    shape.check().map_err(|e| cx.err(&f(field), e))?;
    // The body's point is the shape's centroid: `position` plus the
    // centroid's place in the frame, turned by `angle`.
    let centre = p + turned(angle, shape.centroid());
    let shape = shape.centred();
    let radius = if let Shape::Disc { radius } = shape { radius } else { 0.0 };
    if spec.fixed {
        let moving = spec.velocity != (0.0, 0.0) || spec.angular_velocity != 0.0;
        if moving || spec.force != (0.0, 0.0) || spec.damping != 0.0 || spec.inertia.is_some() {
            return Err(cx.err(
                &f("fixed"),
                "a fixed shape never moves: give it no velocity, angular_velocity, force, damping or inertia",
            ));
        }
        let kind = BodyKind::FixedShape { position: (centre.x, centre.y), angle, shape };
        let body = new_body(spec.name, kind, 0.0, radius, nalgebra::Vector2::zeros(), 0.0);
        let info = BodyInfo { path: path.into(), walls: false, pairs: radius > 0.0 };
        return out.push(cx, &f("name"), body, info, &[], &[]);
    }
    let v = cx.finite2(&f("velocity"), spec.velocity)?;
    let omega = cx.finite(&f("angular_velocity"), spec.angular_velocity)?;
    cx.positive(&f("mass"), spec.mass, "mass")?;
    let force = cx.finite2(&f("force"), spec.force)?;
    cx.non_negative(&f("damping"), spec.damping, "damping")?;
    let inertia = match spec.inertia {
        Some(i) => cx.positive(&f("inertia"), i, "inertia")?,
        None => spec.mass * shape.inertia_per_kg(),
    };
    let body = new_body(spec.name, BodyKind::Rigid { inertia, shape }, spec.mass, radius, force, spec.damping);
    let info = BodyInfo { path: path.into(), walls: true, pairs: radius > 0.0 };
    out.push(cx, &f("name"), body, info, &[centre.x, centre.y, angle], &[v.x, v.y, omega])
}
