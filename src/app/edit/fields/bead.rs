//! A bead's own fields: its curve (the kind, then its numbers: `curve.a.x`,
//! `curve.radius`, …) and its end stops (`stop.min`, `stop.max`: the
//! `BeadBound`s that name it, edited from the bead).

use contact_core::Curve;
use contact_core::scene::document::constraint_name;
use contact_core::scene::schema::{BodySpec, ConstraintSpec};
use contact_core::scene::{Item, SceneDoc};

use super::super::BeadCurve;
use super::{Field, Typed, num, opt};

/// The label of `curve`'s kind (a [`BeadCurve::label`]).
pub(super) fn kind(curve: &Curve) -> &'static str {
    BeadCurve::of(curve).label()
}

/// Bead `name`'s end stops, as fields.
pub(super) fn stop_fields(doc: &SceneDoc, name: &str) -> [Field; 2] {
    let (min, max) = bead_stops(doc, name);
    [opt("stop.min", min, "blank: no end stop below"), opt("stop.max", max, "blank: no end stop above")]
}

/// Sets `label` of body `body` if it is a bead's own: an end stop (`stop.…`),
/// the curve's kind or one of its numbers. False for a field every body has.
pub(super) fn set(next: &mut SceneDoc, body: &str, label: &str, v: &Typed) -> Result<bool, String> {
    if let Some(low) = label.strip_prefix("stop.").map(|s| s == "min") {
        set_bead_stop(next, body, low, v.optional()?);
        return Ok(true);
    }
    if let Some(BodySpec::Bead { curve, .. }) = next.body_mut(body) {
        if label == "curve" {
            *curve = curve_of_kind(curve, v.t).ok_or_else(|| {
                format!("field `{}`: `{}` is not a curve (segment, circle, parabola or cycloid)", v.path, v.text)
            })?;
            return Ok(true);
        }
        if label.starts_with("curve.") {
            let n = v.number()?;
            *curve_slot(curve, label).ok_or_else(|| v.bad())? = n;
            return Ok(true);
        }
    }
    Ok(false)
}

/// A bead's curve's numbers (`curve.a.x`, `curve.radius`, …).
pub(super) fn curve_fields(c: &Curve) -> Vec<Field> {
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
