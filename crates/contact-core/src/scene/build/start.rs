//! The checks that need positions: every body's point finite at the start, no
//! two round bodies overlapping, every constraint met at the start (`g_k ≥ 0`
//! for inequalities, eq. 7; `g_k = 0` for equalities, eq. 2).

use nalgebra::Vector2;

use super::bodies::{Bodies, BodyInfo};
use super::ctx::{Ctx, Result};
use crate::body::BodyKind;
use crate::constraint::ConstraintKind;
use crate::model::{Model, State};

/// A body that starts deeper than this (length units, [`crate::units::Units`]) inside
/// another or through a wall, or a constraint violated by more, is refused.
pub(super) const START_DEPTH: f64 = 1e-9;

/// Every body's point and its velocity are finite at the start. Finite numbers
/// can still overflow: a bead far along a steep curve, the far rows of a pile
/// with a huge spacing.
pub(super) fn check_points(cx: &Ctx, b: &Bodies) -> Result<()> {
    for (body, info) in b.bodies.iter().zip(&b.info) {
        let k = body.kinematics(&b.q, &b.qd);
        let finite = |v: Vector2<f64>| v.iter().all(|x| x.is_finite());
        if finite(k.p) && finite(k.v) {
            continue;
        }
        let path = &info.path;
        let field = match (&body.kind, finite(k.p)) {
            (BodyKind::Bead(_), true) => format!("{path}.u_dot"),
            (BodyKind::Bead(_), false) => format!("{path}.u"),
            _ if path == "ball_pile" => "ball_pile.spacing".to_string(),
            _ => format!("{path}.position"),
        };
        return Err(cx.err(
            &field,
            format!(
                "body `{}` would start at ({:?}, {:?}) with velocity ({:?}, {:?}): numbers too large",
                body.name, k.p.x, k.p.y, k.v.x, k.v.y
            ),
        ));
    }
    Ok(())
}

/// Round bodies (radius > 0) must not overlap at the start; two fixed ones may.
pub(super) fn check_overlaps(cx: &Ctx, model: &Model, info: &[BodyInfo], state: &State, allowed: f64) -> Result<()> {
    let round: Vec<usize> = (0..model.bodies.len()).filter(|&i| model.bodies[i].radius > 0.0).collect();
    let pos: Vec<Vector2<f64>> = round.iter().map(|&i| model.position(i, state)).collect();
    for (x, &i) in round.iter().enumerate() {
        for (y, &j) in round.iter().enumerate().skip(x + 1) {
            let (a, b) = (&model.bodies[i], &model.bodies[j]);
            if !a.is_dynamic() && !b.is_dynamic() {
                continue;
            }
            let dist = (pos[x] - pos[y]).norm();
            let depth = a.radius + b.radius - dist;
            if depth > allowed {
                let path = if info[j].path == "ball_pile" { "ball_pile".to_string() } else { info[j].path.clone() };
                let field =
                    if cx.locator.contains(&format!("{path}.position")) { format!("{path}.position") } else { path };
                return Err(cx.err(
                    &field,
                    format!(
                        "bodies `{}` and `{}` overlap at the start by {depth:.3e} m (centres {dist:.6} m apart, radii {} + {})",
                        a.name, b.name, a.radius, b.radius
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// Inequalities must hold at the start (`g ≥ 0`) and equalities be met (`g = 0`),
/// with `g` a finite number.
pub(super) fn check_start(cx: &Ctx, model: &Model, paths: &[String], state: &State, allowed: f64) -> Result<()> {
    let g = model.constraint_values(&state.q);
    for (k, c) in model.constraints.iter().enumerate() {
        let path = &paths[k];
        let on = || {
            let names: Vec<String> = c.bodies().iter().map(|&b| format!("`{}`", model.bodies[b].name)).collect();
            format!("`{}` on {}", c.name, names.join(" and "))
        };
        if !g[k].is_finite() {
            return Err(cx.err(path, format!("{} is g = {} at the start: numbers too large", on(), g[k])));
        }
        let bad = match c.kind {
            ConstraintKind::Inequality => g[k] < -allowed,
            ConstraintKind::Equality => g[k].abs() > allowed,
        };
        if !bad {
            continue;
        }
        let (field, what) = match c.kind {
            ConstraintKind::Equality if cx.locator.contains(&format!("{path}.length")) => {
                (format!("{path}.length"), "the length does not match the bodies' distance at the start")
            }
            ConstraintKind::Equality => (path.clone(), "the bodies do not meet it at the start"),
            ConstraintKind::Inequality => (path.clone(), "a body starts on its wrong side"),
        };
        return Err(cx.err(&field, format!("{} is violated at the start: g = {:.3e} ({what})", on(), g[k])));
    }
    Ok(())
}
