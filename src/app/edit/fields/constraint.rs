//! A written constraint's fields: a half-plane's line, a contact's, a rod's
//! or a rope's bodies and length, a pin's point, an end stop's bounds (a
//! bead's are edited from the bead too: [`super::bead`]).

use contact_core::scene::SceneDoc;
use contact_core::scene::schema::ConstraintSpec;

use super::{Field, SOLVERS_E, Typed, mu, num, opt, rolling, text};

/// Constraint `name`'s fields, and its kind.
pub(super) fn fields(doc: &SceneDoc, name: &str) -> Option<(&'static str, Vec<Field>)> {
    let e = SOLVERS_E;
    Some(match doc.constraint(name)? {
        ConstraintSpec::HalfPlane { body, normal, offset, restitution, friction, rolling: mu_r, .. } => (
            "half-plane",
            vec![
                text("name", name),
                text("body", body),
                num("normal.x", normal.0),
                num("normal.y", normal.1),
                num("offset", *offset),
                opt("restitution", *restitution, e),
                mu("friction", *friction),
                rolling("rolling", *mu_r),
            ],
        ),
        ConstraintSpec::Contact { a, b, restitution, friction, rolling: mu_r, .. } => (
            "contact",
            vec![
                text("name", name),
                text("a", a),
                text("b", b),
                opt("restitution", *restitution, e),
                mu("friction", *friction),
                rolling("rolling", *mu_r),
            ],
        ),
        ConstraintSpec::Rod { a, b, length, .. } => (
            "rod",
            vec![
                text("name", name),
                text("a", a),
                text("b", b),
                opt("length", *length, "blank: the distance at the start"),
            ],
        ),
        ConstraintSpec::Rope { a, b, length, restitution, .. } => (
            "rope",
            vec![
                text("name", name),
                text("a", a),
                text("b", b),
                opt("length", *length, "blank: the distance at the start"),
                opt("restitution", *restitution, e),
            ],
        ),
        ConstraintSpec::Pin { a, b, at, .. } => {
            ("pin", vec![text("name", name), text("a", a), text("b", b), num("at.x", at.0), num("at.y", at.1)])
        }
        ConstraintSpec::BeadBound { body, min, max, restitution, .. } => (
            "end stop",
            vec![
                text("name", name),
                text("body", body),
                opt("min", *min, "u ≥ min (give min or max)"),
                opt("max", *max, "u ≤ max (give min or max)"),
                opt("restitution", *restitution, e),
            ],
        ),
    })
}

/// Sets constraint `name`'s field `label` to `v`.
pub(super) fn set(next: &mut SceneDoc, name: &str, label: &str, v: &Typed) -> Result<(), String> {
    let t = v.t;
    let c = next.constraint_mut(name).ok_or("the constraint is gone")?;
    match (c, label) {
        (ConstraintSpec::Contact { a, .. } | ConstraintSpec::Rod { a, .. } | ConstraintSpec::Rope { a, .. }, "a") => {
            *a = t.to_string()
        }
        (ConstraintSpec::Contact { b, .. } | ConstraintSpec::Rod { b, .. } | ConstraintSpec::Rope { b, .. }, "b") => {
            *b = t.to_string()
        }
        (ConstraintSpec::HalfPlane { body, .. } | ConstraintSpec::BeadBound { body, .. }, "body") => {
            *body = t.to_string()
        }
        (ConstraintSpec::HalfPlane { normal, .. }, "normal.x") => normal.0 = v.number()?,
        (ConstraintSpec::HalfPlane { normal, .. }, "normal.y") => normal.1 = v.number()?,
        (ConstraintSpec::HalfPlane { offset, .. }, "offset") => *offset = v.number()?,
        (ConstraintSpec::Rod { length, .. } | ConstraintSpec::Rope { length, .. }, "length") => {
            *length = v.optional()?
        }
        (ConstraintSpec::BeadBound { min, .. }, "min") => *min = v.optional()?,
        (ConstraintSpec::BeadBound { max, .. }, "max") => *max = v.optional()?,
        (
            ConstraintSpec::HalfPlane { restitution, .. }
            | ConstraintSpec::Contact { restitution, .. }
            | ConstraintSpec::Rope { restitution, .. }
            | ConstraintSpec::BeadBound { restitution, .. },
            "restitution",
        ) => *restitution = v.optional()?,
        (ConstraintSpec::HalfPlane { friction, .. } | ConstraintSpec::Contact { friction, .. }, "friction") => {
            *friction = v.mu()?
        }
        (ConstraintSpec::HalfPlane { rolling, .. } | ConstraintSpec::Contact { rolling, .. }, "rolling") => {
            *rolling = v.mu()?
        }
        _ => return Err(v.bad()),
    }
    Ok(())
}
