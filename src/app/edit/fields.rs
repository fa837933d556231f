//! The inspector's fields ([`crate::app::ui::editor`]): what each item of a
//! scene document shows, as text, and the document with one of them set.
//!
//! Labels are the scene file's field names (`position.x`, `curve.radius`,
//! `solver.dt`), so a refusal names the field as a file's would
//! (`bodies[2].mass`). A value that is not a number is refused here; the rest
//! by the file's own checks when the document is installed
//! ([`contact_core::scene::SceneDoc::check`]). Optional fields are blank when
//! unset; their hint says what blank means.

use contact_core::Curve;
use contact_core::scene::document::constraint_name;
use contact_core::scene::schema::{BodySpec, ConstraintSpec};
use contact_core::scene::{Item, SceneDoc};

use super::BeadCurve;

/// One field of the inspector: its label (the file's field name), its text,
/// and what a blank means for an optional one.
pub struct Field {
    pub label: &'static str,
    pub value: String,
    pub hint: &'static str,
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

fn num(label: &'static str, v: f64) -> Field {
    Field { label, value: short(v), hint: "" }
}

/// A number as the inspector shows it: six significant digits at most (a
/// box dragged to 0.7372881355932204 m shows 0.737288), -0 as 0. The file
/// keeps every digit: a field is written only when its text is changed.
pub fn short(v: f64) -> String {
    if v == 0.0 || !v.is_finite() {
        return if v == 0.0 { "0".into() } else { format!("{v}") };
    }
    let a = v.abs();
    let trim = |s: String| {
        if s.contains('.') { s.trim_end_matches('0').trim_end_matches('.').to_string() } else { s }
    };
    if (1e-3..1e6).contains(&a) {
        let decimals = (5 - a.log10().floor() as i32).max(0) as usize;
        trim(format!("{v:.decimals$}"))
    } else {
        let s = format!("{v:.5e}");
        let (m, e) = s.split_once('e').unwrap_or((&s, "0"));
        format!("{}e{e}", trim(m.to_string()))
    }
}

/// An optional number: blank when unset, `hint` says what blank means.
fn opt(label: &'static str, v: Option<f64>, hint: &'static str) -> Field {
    Field { label, value: v.map_or(String::new(), short), hint }
}

/// Coulomb's `μ`, blank when 0 (frictionless; only the Exact solver uses it).
fn mu(label: &'static str, v: f64) -> Field {
    Field {
        label,
        value: if v == 0.0 { String::new() } else { short(v) },
        hint: "blank: frictionless (Coulomb's μ; Exact only)",
    }
}

fn text(label: &'static str, v: &str) -> Field {
    Field { label, value: v.to_string(), hint: "" }
}

/// The scene's own fields (the solver's most used among them).
pub fn scene_fields(doc: &SceneDoc) -> Vec<Field> {
    let f = &doc.file;
    vec![
        text("name", &f.name),
        text("description", &f.description),
        num("gravity.x", f.gravity.0),
        num("gravity.y", f.gravity.1),
        num("duration", f.duration),
        num("solver.dt", f.solver.dt),
        num("solver.tau", f.solver.tau),
        num("solver.restitution", f.solver.restitution),
        opt("ball_pair_restitution", f.ball_pair_restitution, "blank: the solver's"),
        mu("pair_friction", f.pair_friction),
        opt("solver.start_tolerance", f.solver.start_tolerance, "blank: 1e-9 length units"),
    ]
}

/// The solver's fields that are numbers, beyond those of [`scene_fields`].
pub fn solver_fields(doc: &SceneDoc) -> Vec<Field> {
    let sv = &doc.file.solver;
    vec![
        num("solver.units.length", sv.units.length),
        num("solver.units.time", sv.units.time),
        opt("solver.active_tolerance", sv.active_tolerance, "blank: 1e-6 length units"),
        opt("solver.tendency_tolerance", sv.tendency_tolerance, "blank: 1e-9 acceleration units"),
        opt("solver.min_impact_speed", sv.min_impact_speed, "blank: 1e-3 speed units"),
        Field { label: "solver.max_events_per_step", value: sv.max_events_per_step.to_string(), hint: "" },
        num("solver.sleep.time", sv.sleep.time),
        opt("solver.sleep.speed", sv.sleep.speed, "blank: 1e-3 speed units"),
    ]
}

/// Every field the scene format has for `item`, as text (numbers in the
/// shortest form that reads back to the same value), and its kind.
pub fn fields_of(doc: &SceneDoc, item: &Item) -> Option<(&'static str, Vec<Field>)> {
    let e = "blank: the solver's e";
    Some(match item {
        Item::Body(name) => {
            let b = doc.body(name)?;
            let mut fields = body_fields(b);
            if matches!(b, BodySpec::Bead { .. }) {
                let (min, max) = bead_stops(doc, name);
                fields.push(opt("stop.min", min, "blank: no end stop below"));
                fields.push(opt("stop.max", max, "blank: no end stop above"));
            }
            (kind(b), fields)
        }
        Item::Wall(name) => {
            let w = doc.wall(name)?;
            let fields = vec![
                text("name", &w.name),
                num("normal.x", w.normal.0),
                num("normal.y", w.normal.1),
                num("offset", w.offset),
                opt("restitution", w.restitution, e),
                mu("friction", w.friction),
            ];
            ("wall", fields)
        }
        Item::Constraint(name) => match doc.constraint(name)? {
            ConstraintSpec::HalfPlane { body, normal, offset, restitution, friction, .. } => (
                "half-plane",
                vec![
                    text("name", name),
                    text("body", body),
                    num("normal.x", normal.0),
                    num("normal.y", normal.1),
                    num("offset", *offset),
                    opt("restitution", *restitution, e),
                    mu("friction", *friction),
                ],
            ),
            ConstraintSpec::Contact { a, b, restitution, friction, .. } => (
                "contact",
                vec![
                    text("name", name),
                    text("a", a),
                    text("b", b),
                    opt("restitution", *restitution, e),
                    mu("friction", *friction),
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
        },
    })
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
            Field {
                label: "curve",
                value: BeadCurve::of(curve).label().into(),
                hint: "segment, circle, parabola or cycloid",
            },
        ]
        .into_iter()
        .chain(curve_fields(curve))
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

/// A bead's curve's numbers (`curve.a.x`, `curve.radius`, …).
fn curve_fields(c: &Curve) -> Vec<Field> {
    match c {
        Curve::Segment { a, b } => {
            vec![num("curve.a.x", a.0), num("curve.a.y", a.1), num("curve.b.x", b.0), num("curve.b.y", b.1)]
        }
        Curve::CircleArc { center, radius } => {
            vec![num("curve.center.x", center.0), num("curve.center.y", center.1), num("curve.radius", *radius)]
        }
        Curve::Parabola { vertex, k } => {
            vec![num("curve.vertex.x", vertex.0), num("curve.vertex.y", vertex.1), num("curve.k", *k)]
        }
        Curve::Cycloid { origin, r } => {
            vec![num("curve.origin.x", origin.0), num("curve.origin.y", origin.1), num("curve.r", *r)]
        }
    }
}

/// The curve of kind `kind` (a [`BeadCurve::label`]) through about the same
/// place as `c`: its first point kept.
fn curve_of_kind(c: &Curve, kind: &str) -> Option<Curve> {
    let p = c.point(0.0);
    let at = (p.x, p.y);
    Some(match BeadCurve::named(kind)? {
        BeadCurve::Segment => Curve::Segment { a: at, b: (at.0 + 1.0, at.1) },
        BeadCurve::Circle => Curve::CircleArc { center: at, radius: 0.5 },
        BeadCurve::Parabola => Curve::Parabola { vertex: at, k: 1.0 },
        BeadCurve::Cycloid => Curve::Cycloid { origin: at, r: 0.5 },
    })
}

/// The number `label` (`curve.…`) of a curve.
fn curve_slot<'a>(c: &'a mut Curve, label: &str) -> Option<&'a mut f64> {
    let field = label.strip_prefix("curve.")?;
    let xy = |v: &'a mut (f64, f64)| if field.ends_with('x') { &mut v.0 } else { &mut v.1 };
    match (c, field) {
        (Curve::Segment { a, .. }, "a.x" | "a.y") => Some(xy(a)),
        (Curve::Segment { b, .. }, "b.x" | "b.y") => Some(xy(b)),
        (Curve::CircleArc { center, .. }, "center.x" | "center.y") => Some(xy(center)),
        (Curve::CircleArc { radius, .. }, "radius") => Some(radius),
        (Curve::Parabola { vertex, .. }, "vertex.x" | "vertex.y") => Some(xy(vertex)),
        (Curve::Parabola { k, .. }, "k") => Some(k),
        (Curve::Cycloid { origin, .. }, "origin.x" | "origin.y") => Some(xy(origin)),
        (Curve::Cycloid { r, .. }, "r") => Some(r),
        _ => None,
    }
}

/// The end stops of bead `bead`: the `min` and `max` of its `BeadBound`s.
fn bead_stops(doc: &SceneDoc, bead: &str) -> (Option<f64>, Option<f64>) {
    let mut out = (None, None);
    for c in &doc.file.constraints {
        if let ConstraintSpec::BeadBound { body, min, max, .. } = c
            && body == bead
        {
            out.0 = out.0.or(*min);
            out.1 = out.1.or(*max);
        }
    }
    out
}

/// Sets bead `bead`'s end stop below (`low`) or above to `v`: the `BeadBound`
/// that has it is changed, one is added (`BEAD_min`, `BEAD_max`), or, for
/// `None`, removed.
fn set_bead_stop(doc: &mut SceneDoc, bead: &str, low: bool, v: Option<f64>) {
    let at = doc.file.constraints.iter().position(|c| match c {
        ConstraintSpec::BeadBound { body, min, max, .. } => {
            body == bead && if low { min.is_some() } else { max.is_some() }
        }
        _ => false,
    });
    match (at, v) {
        (Some(k), None) => {
            // The stop goes (with its plots' series); a bound that held the
            // other side too keeps it.
            let name = constraint_name(&doc.file.constraints[k]);
            let mut empty = false;
            if let ConstraintSpec::BeadBound { min, max, .. } = &mut doc.file.constraints[k] {
                if low {
                    *min = None;
                } else {
                    *max = None;
                }
                empty = min.is_none() && max.is_none();
            }
            if empty {
                doc.remove(&Item::Constraint(name));
            }
        }
        (Some(k), Some(v)) => {
            if let ConstraintSpec::BeadBound { min, max, .. } = &mut doc.file.constraints[k] {
                *(if low { min } else { max }) = Some(v);
            }
        }
        (None, Some(v)) => {
            let name = doc.fresh_constraint_name(&format!("{bead}_{}", if low { "min" } else { "max" }));
            let (min, max) = if low { (Some(v), None) } else { (None, Some(v)) };
            doc.file.constraints.push(ConstraintSpec::BeadBound {
                name,
                body: bead.into(),
                min,
                max,
                restitution: None,
            });
        }
        (None, None) => {}
    }
}

/// The document with field `label` of `item` (the scene's own for `None`)
/// set from `text`; a value that is not a number is refused here, the rest
/// by the file's checks.
pub fn with_field(doc: &SceneDoc, item: Option<&Item>, label: &str, text: &str) -> Result<SceneDoc, String> {
    let mut next = doc.clone();
    let path = match item {
        None => label.to_string(),
        Some(item) => {
            let (list, index) = match item {
                Item::Body(n) => ("bodies", doc.body_names().iter().position(|b| b == n)),
                Item::Wall(n) => ("walls", doc.file.walls.iter().position(|w| w.name == *n)),
                Item::Constraint(n) => {
                    ("constraints", doc.file.constraints.iter().position(|c| constraint_name(c) == *n))
                }
            };
            format!("{list}[{}].{label}", index.ok_or("it is gone")?)
        }
    };
    let t = text.trim();
    let number = || t.parse::<f64>().map_err(|_| format!("field `{path}`: `{text}` is not a number"));
    let optional = || if t.is_empty() { Ok(None) } else { number().map(Some) };
    // Coulomb's μ: blank is 0 (frictionless).
    let mu = || optional().map(|v| v.unwrap_or(0.0));
    let bad = || format!("field `{path}`: not a field of this item");
    if label == "name" {
        if t.is_empty() {
            return Err(format!("field `{path}`: a name cannot be blank"));
        }
        match item {
            None => next.file.name = t.to_string(),
            Some(item) => next.rename(item, t),
        }
        return Ok(next);
    }
    match item {
        None => {
            let f = &mut next.file;
            match label {
                "description" => f.description = t.to_string(),
                "gravity.x" => f.gravity.0 = number()?,
                "gravity.y" => f.gravity.1 = number()?,
                "duration" => f.duration = number()?,
                "solver.dt" => f.solver.dt = number()?,
                "solver.tau" => f.solver.tau = number()?,
                "solver.restitution" => f.solver.restitution = number()?,
                "ball_pair_restitution" => f.ball_pair_restitution = optional()?,
                "pair_friction" => f.pair_friction = mu()?,
                "solver.start_tolerance" => f.solver.start_tolerance = optional()?,
                "solver.units.length" => f.solver.units.length = number()?,
                "solver.units.time" => f.solver.units.time = number()?,
                "solver.active_tolerance" => f.solver.active_tolerance = optional()?,
                "solver.tendency_tolerance" => f.solver.tendency_tolerance = optional()?,
                "solver.min_impact_speed" => f.solver.min_impact_speed = optional()?,
                "solver.max_events_per_step" => {
                    f.solver.max_events_per_step =
                        t.parse().map_err(|_| format!("field `{path}`: `{text}` is not a whole number"))?
                }
                "solver.sleep.time" => f.solver.sleep.time = number()?,
                "solver.sleep.speed" => f.solver.sleep.speed = optional()?,
                _ => return Err(bad()),
            }
        }
        Some(Item::Body(body)) => {
            if let Some(low) = label.strip_prefix("stop.").map(|s| s == "min") {
                set_bead_stop(&mut next, body, low, optional()?);
                return Ok(next);
            }
            if let Some(BodySpec::Bead { curve, .. }) = next.body_mut(body) {
                if label == "curve" {
                    *curve = curve_of_kind(curve, t).ok_or_else(|| {
                        format!("field `{path}`: `{text}` is not a curve (segment, circle, parabola or cycloid)")
                    })?;
                    return Ok(next);
                }
                if label.starts_with("curve.") {
                    let v = number()?;
                    *curve_slot(curve, label).ok_or_else(bad)? = v;
                    return Ok(next);
                }
            }
            let v = number()?;
            let spec = next.body_mut(body).ok_or("the body is gone")?;
            *body_slot(spec, label).ok_or_else(bad)? = v;
        }
        Some(Item::Wall(wall)) => {
            let w = next.wall_mut(wall).ok_or("the wall is gone")?;
            match label {
                "normal.x" => w.normal.0 = number()?,
                "normal.y" => w.normal.1 = number()?,
                "offset" => w.offset = number()?,
                "restitution" => w.restitution = optional()?,
                "friction" => w.friction = mu()?,
                _ => return Err(bad()),
            }
        }
        Some(Item::Constraint(name)) => {
            let c = next.constraint_mut(name).ok_or("the constraint is gone")?;
            match (c, label) {
                (
                    ConstraintSpec::Contact { a, .. } | ConstraintSpec::Rod { a, .. } | ConstraintSpec::Rope { a, .. },
                    "a",
                ) => *a = t.to_string(),
                (
                    ConstraintSpec::Contact { b, .. } | ConstraintSpec::Rod { b, .. } | ConstraintSpec::Rope { b, .. },
                    "b",
                ) => *b = t.to_string(),
                (ConstraintSpec::HalfPlane { body, .. } | ConstraintSpec::BeadBound { body, .. }, "body") => {
                    *body = t.to_string()
                }
                (ConstraintSpec::HalfPlane { normal, .. }, "normal.x") => normal.0 = number()?,
                (ConstraintSpec::HalfPlane { normal, .. }, "normal.y") => normal.1 = number()?,
                (ConstraintSpec::HalfPlane { offset, .. }, "offset") => *offset = number()?,
                (ConstraintSpec::Rod { length, .. } | ConstraintSpec::Rope { length, .. }, "length") => {
                    *length = optional()?
                }
                (ConstraintSpec::BeadBound { min, .. }, "min") => *min = optional()?,
                (ConstraintSpec::BeadBound { max, .. }, "max") => *max = optional()?,
                (
                    ConstraintSpec::HalfPlane { restitution, .. }
                    | ConstraintSpec::Contact { restitution, .. }
                    | ConstraintSpec::Rope { restitution, .. }
                    | ConstraintSpec::BeadBound { restitution, .. },
                    "restitution",
                ) => *restitution = optional()?,
                (ConstraintSpec::HalfPlane { friction, .. } | ConstraintSpec::Contact { friction, .. }, "friction") => {
                    *friction = mu()?
                }
                _ => return Err(bad()),
            }
        }
    }
    Ok(next)
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

/// The number field `label` of a body.
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

#[cfg(test)]
mod tests {
    use super::*;

    fn body(name: &str) -> Item {
        Item::Body(name.into())
    }

    fn doc() -> SceneDoc {
        scene("billiard-corner")
    }

    fn scene(name: &str) -> SceneDoc {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("assets/scenes/{name}.ron"));
        SceneDoc::load(&path).unwrap()
    }

    /// Every number field of every wall and constraint of the built-in
    /// scenes reads back as set (optional ones blank too).
    #[test]
    fn every_field_of_walls_and_constraints_can_be_set_and_reads_back() {
        let mut seen = 0;
        for name in ["billiard-corner", "bead-on-curve", "newtons-cradle", "sticky-corner", "wedge"] {
            let d = scene(name);
            let items = d
                .file
                .walls
                .iter()
                .map(|w| Item::Wall(w.name.clone()))
                .chain(d.file.constraints.iter().map(|c| Item::Constraint(constraint_name(c))));
            for item in items {
                for field in fields_of(&d, &item).unwrap().1 {
                    if ["name", "a", "b", "body"].contains(&field.label) {
                        continue;
                    }
                    let values: &[&str] = if field.hint.is_empty() { &["0.25"] } else { &["0.25", ""] };
                    for v in values {
                        let next = with_field(&d, Some(&item), field.label, v).unwrap();
                        let back = fields_of(&next, &item).unwrap().1;
                        let got = back.iter().find(|f| f.label == field.label).unwrap();
                        assert_eq!(got.value, *v, "{name}: {item:?}.{}", field.label);
                        seen += 1;
                    }
                }
            }
        }
        assert!(seen > 20, "{seen} fields");
    }

    #[test]
    fn a_wall_or_constraint_renamed_keeps_the_plots_that_name_it() {
        let d = scene("newtons-cradle");
        let s1 = Item::Constraint("s1".into());
        let next = with_field(&d, Some(&s1), "name", "left").unwrap();
        next.check("renamed").unwrap();
        assert!(next.file.plots.iter().any(|p| p.series.contains(&"left.lambda".to_string())));
        // Deleting it takes its series out of the plots: the scene still loads.
        let mut gone = next.clone();
        assert!(gone.remove(&Item::Constraint("left".into())));
        gone.check("deleted").unwrap();
        let d = doc();
        let wall = Item::Wall("cushion_left".into());
        with_field(&d, Some(&wall), "name", "rail").unwrap().check("renamed").unwrap();
    }

    #[test]
    fn a_bead_s_end_stops_are_edited_from_the_bead() {
        let d = scene("bead-on-curve");
        let bead = body("bead");
        let stops = |d: &SceneDoc| {
            let f = fields_of(d, &bead).unwrap().1;
            let v = |l: &str| f.iter().find(|x| x.label == l).unwrap().value.clone();
            (v("stop.min"), v("stop.max"))
        };
        assert_eq!(stops(&d), ("-2.6".into(), "1.2".into()));
        let moved = with_field(&d, Some(&bead), "stop.max", "1.5").unwrap();
        assert_eq!(stops(&moved), ("-2.6".into(), "1.5".into()));
        assert!(
            matches!(moved.constraint("stop_right"), Some(ConstraintSpec::BeadBound { max: Some(m), .. }) if *m == 1.5)
        );
        // Blank: the stop goes, with the plots' series that named it.
        let gone = with_field(&moved, Some(&bead), "stop.max", "").unwrap();
        assert!(gone.constraint("stop_right").is_none());
        gone.check("no right stop").unwrap();
        // And a new one comes back under a fresh name.
        let back = with_field(&gone, Some(&bead), "stop.max", "1.0").unwrap();
        assert!(back.constraint("bead_max").is_some());
        back.check("new stop").unwrap();
    }

    /// The scene's and the solver's number fields read back as set, and the
    /// scene loads with them (the solver's settings are those typed).
    #[test]
    fn every_scene_and_solver_field_can_be_set_and_reads_back() {
        let d = scene("wedge");
        let all = || scene_fields(&d).into_iter().chain(solver_fields(&d));
        for field in all() {
            if ["name", "description"].contains(&field.label) {
                continue;
            }
            let v = if field.label == "solver.max_events_per_step" { "12" } else { "0.25" };
            let next = with_field(&d, None, field.label, v).unwrap();
            let back: Vec<Field> = scene_fields(&next).into_iter().chain(solver_fields(&next)).collect();
            assert_eq!(back.iter().find(|f| f.label == field.label).unwrap().value, v, "{}", field.label);
        }
        let next = with_field(&d, None, "solver.max_events_per_step", "7").unwrap();
        assert_eq!(next.check("edited").unwrap().world.settings.events.max_per_step, 7);
        let e = with_field(&d, None, "solver.max_events_per_step", "7.5").unwrap_err();
        assert_eq!(e, "field `solver.max_events_per_step`: `7.5` is not a whole number");
    }

    /// A moving box fixed in the inspector loses its motion and becomes a
    /// shape that never moves; set free again it moves with its mass.
    #[test]
    fn a_box_is_fixed_and_set_free_in_the_inspector() {
        let d = scene("box-stack");
        let moving = with_field(&d, Some(&body("top")), "velocity.x", "1.5").unwrap();
        let fixed = with_fixed(&moving, "top", true).expect("a body that turns");
        assert_eq!(fixed_of(&fixed, "top"), Some(true));
        let loaded = fixed.check("fixed").unwrap_or_else(|e| panic!("{e}"));
        let top = loaded.world.model.bodies.iter().find(|b| b.name == "top").unwrap();
        assert!(matches!(top.kind, contact_core::BodyKind::FixedShape { .. }), "{:?}", top.kind);
        let free = with_fixed(&fixed, "top", false).unwrap();
        let loaded = free.check("free").unwrap_or_else(|e| panic!("{e}"));
        assert!(loaded.world.model.bodies.iter().any(|b| b.name == "top" && b.is_dynamic()));
        assert_eq!(with_fixed(&d, "floor", true), None, "not a body");
        assert_eq!(fixed_of(&scene("wedge"), "p"), None, "a particle is never a fixed shape");
    }

    /// A bead's curve: each kind's numbers read back as set, and a change of
    /// kind keeps a scene that loads.
    #[test]
    fn a_bead_s_curve_is_edited_in_the_inspector() {
        let d = scene("bead-on-curve");
        let bead = body("bead");
        for kind in ["segment", "circle", "parabola", "cycloid"] {
            let k = with_field(&d, Some(&bead), "curve", kind).unwrap();
            k.check(kind).unwrap_or_else(|e| panic!("{kind}: {e}"));
            for field in fields_of(&k, &bead).unwrap().1.iter().filter(|f| f.label.starts_with("curve.")) {
                let next = with_field(&k, Some(&bead), field.label, "0.75").unwrap();
                let back = fields_of(&next, &bead).unwrap().1;
                assert_eq!(
                    back.iter().find(|f| f.label == field.label).unwrap().value,
                    "0.75",
                    "{kind} {}",
                    field.label
                );
            }
        }
        let e = with_field(&d, Some(&bead), "curve", "spiral").unwrap_err();
        assert!(e.starts_with("field `bodies[0].curve`: `spiral` is not a curve"), "{e}");
    }

    #[test]
    fn the_scene_s_own_fields_are_named_when_refused() {
        let d = doc();
        let e = with_field(&d, None, "gravity.y", "down").unwrap_err();
        assert_eq!(e, "field `gravity.y`: `down` is not a number");
        let next = with_field(&d, None, "solver.dt", "-0.001").unwrap();
        let e = next.check("edited").unwrap_err();
        assert_eq!(e.field.as_deref(), Some("solver.dt"), "{e}");
        let next = with_field(&d, None, "gravity.y", "-9.81").unwrap();
        assert_eq!(next.check("edited").unwrap().world.model.gravity.y, -9.81);
    }

    #[test]
    fn a_value_that_is_not_a_number_is_refused_with_the_field_named() {
        let e = with_field(&doc(), Some(&body("b3")), "mass", "heavy").unwrap_err();
        assert_eq!(e, "field `bodies[2].mass`: `heavy` is not a number");
    }

    #[test]
    fn a_number_the_file_would_refuse_is_refused_by_the_file_s_check() {
        let next = with_field(&doc(), Some(&body("b3")), "radius", "-0.1").unwrap();
        let e = next.check("edited").unwrap_err();
        assert_eq!(e.field.as_deref(), Some("bodies[2].radius"), "{e}");
    }

    #[test]
    fn every_field_shown_can_be_set_and_reads_back() {
        let d = doc();
        let cue = body("cue");
        for field in fields_of(&d, &cue).unwrap().1 {
            if field.label == "name" {
                continue;
            }
            let next = with_field(&d, Some(&cue), field.label, "0.25").unwrap();
            let back = fields_of(&next, &cue).unwrap().1;
            let v = back.iter().find(|f| f.label == field.label).unwrap();
            assert_eq!(v.value, "0.25", "{}", field.label);
        }
        let renamed = with_field(&d, Some(&cue), "name", "white").unwrap();
        assert!(renamed.body_names().contains(&"white".to_string()));
        renamed.check("renamed").unwrap();
    }

    /// The inspector's numbers are short (issue 37: 16 digits after a drag).
    #[test]
    fn numbers_are_shown_to_six_significant_digits() {
        for (v, shown) in [
            (0.7372881355932204, "0.737288"),
            (-0.0, "0"),
            (2.0, "2"),
            (1e-9, "1e-9"),
            (9.81, "9.81"),
            (123456.789, "123457"),
            (-4.09e-17, "-4.09e-17"),
            (0.25, "0.25"),
        ] {
            assert_eq!(short(v), shown, "{v}");
        }
    }
}
