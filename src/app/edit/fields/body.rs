//! A body's fields: those of a ball or a particle, an anchor, a fixed ball,
//! a bead (its curve and end stops are [`super::bead`]'s), and a body that
//! turns (a box, a polygon, a disc), which the inspector also fixes or sets
//! free.

use contact_core::scene::SceneDoc;
use contact_core::scene::schema::BodySpec;

use super::{Field, Typed, bead, num, opt, text};

/// Body `name`'s fields (a bead's end stops among them), and its kind.
pub(super) fn fields(doc: &SceneDoc, name: &str) -> Option<(&'static str, Vec<Field>)> {
    let b = doc.body(name)?;
    let mut fields = body_fields(b);
    if matches!(b, BodySpec::Bead { .. }) {
        fields.extend(bead::stop_fields(doc, name));
    }
    Some((kind(b), fields))
}

/// Sets body `body`'s field `label` to `v`.
pub(super) fn set(next: &mut SceneDoc, body: &str, label: &str, v: &Typed) -> Result<(), String> {
    if bead::set(next, body, label, v)? {
        return Ok(());
    }
    let n = v.number()?;
    let spec = next.body_mut(body).ok_or("the body is gone")?;
    *body_slot(spec, label).ok_or_else(|| v.bad())? = n;
    Ok(())
}

fn kind(b: &BodySpec) -> &'static str {
    match b {
        BodySpec::Particle { .. } => "particle",
        BodySpec::Ball { .. } => "ball",
        BodySpec::Bead { .. } => "bead",
        BodySpec::Anchor { .. } => "anchor",
        BodySpec::FixedBall { .. } => "fixed ball",
        BodySpec::Box { .. } => "box",
        BodySpec::Polygon { .. } => "polygon",
        BodySpec::Disc { .. } => "disc",
    }
}

fn body_fields(b: &BodySpec) -> Vec<Field> {
    match b {
        BodySpec::Particle { name, position, velocity, mass, radius, force, damping }
        | BodySpec::Ball { name, position, velocity, mass, radius, force, damping } => vec![
            text("name", name),
            num("position.x", position.0),
            num("position.y", position.1),
            num("velocity.x", velocity.0),
            num("velocity.y", velocity.1),
            num("mass", *mass),
            num("radius", *radius),
            num("force.x", force.0),
            num("force.y", force.1),
            num("damping", *damping),
        ],
        BodySpec::Bead { name, curve, u, u_dot, mass, radius, force, damping } => vec![
            text("name", name),
            Field { label: "curve", value: bead::kind(curve).into(), hint: "segment, circle, parabola or cycloid" },
        ]
        .into_iter()
        .chain(bead::curve_fields(curve))
        .chain([
            num("u", *u),
            num("u_dot", *u_dot),
            num("mass", *mass),
            num("radius", *radius),
            num("force.x", force.0),
            num("force.y", force.1),
            num("damping", *damping),
        ])
        .collect(),
        BodySpec::Anchor { name, position } => {
            vec![text("name", name), num("position.x", position.0), num("position.y", position.1)]
        }
        BodySpec::FixedBall { name, position, radius } => {
            vec![
                text("name", name),
                num("position.x", position.0),
                num("position.y", position.1),
                num("radius", *radius),
            ]
        }
        BodySpec::Box { .. } | BodySpec::Polygon { .. } | BodySpec::Disc { .. } => rigid_fields(b),
    }
}

/// Whether the body that turns `name` is fixed (`None`: not a body that turns).
pub fn fixed_of(doc: &SceneDoc, name: &str) -> Option<bool> {
    match doc.body(name)? {
        BodySpec::Box { fixed, .. } | BodySpec::Polygon { fixed, .. } | BodySpec::Disc { fixed, .. } => Some(*fixed),
        _ => None,
    }
}

/// The document with the body that turns `name` fixed or set free. A fixed
/// shape never moves, so fixing one also zeroes its velocity, spin, force
/// and damping and drops a given inertia (the file refuses them on a fixed
/// shape), and its coordinates leave the plots (a plot left empty goes);
/// set free, it keeps its mass (1 kg if it had none).
pub fn with_fixed(doc: &SceneDoc, name: &str, fix: bool) -> Option<SceneDoc> {
    let mut next = doc.clone();
    match next.body_mut(name)? {
        BodySpec::Box { fixed, velocity, angular_velocity, force, damping, inertia, mass, .. }
        | BodySpec::Polygon { fixed, velocity, angular_velocity, force, damping, inertia, mass, .. }
        | BodySpec::Disc { fixed, velocity, angular_velocity, force, damping, inertia, mass, .. } => {
            *fixed = fix;
            if fix {
                (*velocity, *angular_velocity, *force, *damping, *inertia) = ((0.0, 0.0), 0.0, (0.0, 0.0), 0.0, None);
            } else if *mass <= 0.0 {
                *mass = 1.0;
            }
        }
        _ => return None,
    }
    if fix {
        let own = format!("{name}.");
        for plot in &mut next.file.plots {
            plot.series.retain(|series| !series.starts_with(&own));
        }
        next.file.plots.retain(|plot| !plot.series.is_empty());
    }
    Some(next)
}

/// The fields of a body that turns: those all have, then its shape's (a
/// polygon's vertices are edited in the file).
fn rigid_fields(b: &BodySpec) -> Vec<Field> {
    let Some((r, _)) = b.rigid() else { return Vec::new() };
    let mut fields = vec![
        text("name", r.name),
        num("position.x", r.position.0),
        num("position.y", r.position.1),
        num("angle", r.angle),
        num("velocity.x", r.velocity.0),
        num("velocity.y", r.velocity.1),
        num("angular_velocity", r.angular_velocity),
        num("mass", r.mass),
        opt("inertia", r.inertia, "blank: from the shape at uniform density"),
        num("force.x", r.force.0),
        num("force.y", r.force.1),
        num("damping", r.damping),
    ];
    match b {
        BodySpec::Box { size, .. } => fields.extend([num("size.x", size.0), num("size.y", size.1)]),
        BodySpec::Disc { radius, .. } => fields.push(num("radius", *radius)),
        _ => {}
    }
    fields
}

/// The number field `label` of a body.
fn body_slot<'a>(spec: &'a mut BodySpec, label: &str) -> Option<&'a mut f64> {
    let xy = |v: &'a mut (f64, f64)| if label.ends_with('x') { &mut v.0 } else { &mut v.1 };
    if matches!(spec, BodySpec::Box { .. } | BodySpec::Polygon { .. } | BodySpec::Disc { .. }) {
        return rigid_slot(spec, label).flatten();
    }
    match (spec, label) {
        (
            BodySpec::Particle { position, .. }
            | BodySpec::Ball { position, .. }
            | BodySpec::Anchor { position, .. }
            | BodySpec::FixedBall { position, .. },
            "position.x" | "position.y",
        ) => Some(xy(position)),
        (BodySpec::Particle { velocity, .. } | BodySpec::Ball { velocity, .. }, "velocity.x" | "velocity.y") => {
            Some(xy(velocity))
        }
        (
            BodySpec::Particle { force, .. } | BodySpec::Ball { force, .. } | BodySpec::Bead { force, .. },
            "force.x" | "force.y",
        ) => Some(xy(force)),
        (BodySpec::Particle { mass, .. } | BodySpec::Ball { mass, .. } | BodySpec::Bead { mass, .. }, "mass") => {
            Some(mass)
        }
        (
            BodySpec::Particle { radius, .. }
            | BodySpec::Ball { radius, .. }
            | BodySpec::Bead { radius, .. }
            | BodySpec::FixedBall { radius, .. },
            "radius",
        ) => Some(radius),
        (
            BodySpec::Particle { damping, .. } | BodySpec::Ball { damping, .. } | BodySpec::Bead { damping, .. },
            "damping",
        ) => Some(damping),
        (BodySpec::Bead { u, .. }, "u") => Some(u),
        (BodySpec::Bead { u_dot, .. }, "u_dot") => Some(u_dot),
        _ => None,
    }
}

/// A number field of a body that turns (`Some(None)`: one it does not have;
/// `None`: not a body that turns).
fn rigid_slot<'a>(spec: &'a mut BodySpec, label: &str) -> Option<Option<&'a mut f64>> {
    let xy = |v: &'a mut (f64, f64)| if label.ends_with('x') { &mut v.0 } else { &mut v.1 };
    let slot = match spec {
        BodySpec::Box { position, angle, velocity, angular_velocity, mass, force, damping, size, .. } => match label {
            "size.x" | "size.y" => Some(xy(size)),
            _ => common(label, position, angle, velocity, angular_velocity, mass, force, damping),
        },
        BodySpec::Disc { position, angle, velocity, angular_velocity, mass, force, damping, radius, .. } => match label
        {
            "radius" => Some(radius),
            _ => common(label, position, angle, velocity, angular_velocity, mass, force, damping),
        },
        BodySpec::Polygon { position, angle, velocity, angular_velocity, mass, force, damping, .. } => {
            common(label, position, angle, velocity, angular_velocity, mass, force, damping)
        }
        _ => return None,
    };
    Some(slot)
}

/// The fields every body that turns has, by label.
#[allow(clippy::too_many_arguments)]
fn common<'a>(
    label: &str,
    position: &'a mut (f64, f64),
    angle: &'a mut f64,
    velocity: &'a mut (f64, f64),
    angular_velocity: &'a mut f64,
    mass: &'a mut f64,
    force: &'a mut (f64, f64),
    damping: &'a mut f64,
) -> Option<&'a mut f64> {
    let xy = |v: &'a mut (f64, f64)| if label.ends_with('x') { &mut v.0 } else { &mut v.1 };
    match label {
        "position.x" | "position.y" => Some(xy(position)),
        "velocity.x" | "velocity.y" => Some(xy(velocity)),
        "force.x" | "force.y" => Some(xy(force)),
        "angle" => Some(angle),
        "angular_velocity" => Some(angular_velocity),
        "mass" => Some(mass),
        "damping" => Some(damping),
        _ => None,
    }
}
