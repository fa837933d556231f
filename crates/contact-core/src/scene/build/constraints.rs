//! Constraints written in the file: equalities `g_k(q) = 0` (eq. 2: rods) and
//! inequalities `g_k(q) ≥ 0` (eq. 7: half-planes, contacts, ropes, bead bounds),
//! on bodies named in the file.

use std::collections::HashMap;

use super::bodies::Bodies;
use super::ctx::{Ctx, Result, line_of};
use nalgebra::Vector2;

use crate::body::{BodyKind, turned};
use crate::constraint::{Constraint, ConstraintKind, Geometry};
use crate::scene::schema::ConstraintSpec;

/// The constraints being built, each with the path of the text it comes from.
#[derive(Default)]
pub(super) struct Constraints {
    pub(super) list: Vec<Constraint>,
    pub(super) paths: Vec<String>,
    by_name: HashMap<String, usize>,
}

impl Constraints {
    pub(super) fn push(&mut self, cx: &Ctx, path: &str, name_path: &str, c: Constraint) -> Result<()> {
        cx.name(name_path, &c.name)?;
        if let Some(&first) = self.by_name.get(&c.name) {
            let at = line_of(cx, &self.paths[first]);
            return Err(cx.err(name_path, format!("constraint name `{}` is used twice (first{at})", c.name)));
        }
        self.by_name.insert(c.name.clone(), self.list.len());
        self.list.push(c);
        self.paths.push(path.to_string());
        Ok(())
    }
}

fn inequality(name: String, geometry: Geometry, restitution: Option<f64>) -> Constraint {
    Constraint { name, kind: ConstraintKind::Inequality, geometry, restitution, friction: 0.0, rolling: 0.0 }
}

/// Where the point of body `i` at `at` (its frame) is at the start.
fn start_point(b: &Bodies, i: usize, at: Vector2<f64>) -> Vector2<f64> {
    b.bodies[i].kinematics_at(at, &b.q, &b.qd).p
}

/// The point of body `i`'s frame that is at `p` at the start.
fn in_frame(b: &Bodies, i: usize, p: Vector2<f64>) -> Vector2<f64> {
    let body = &b.bodies[i];
    let d = p - start_point(b, i, Vector2::zeros());
    match body.kind {
        BodyKind::Rigid { .. } => turned(-b.q[body.offset + 2], d),
        _ => d,
    }
}

/// A constraint written in the file.
pub(super) fn add_constraint(
    cx: &Ctx,
    b: &Bodies,
    out: &mut Constraints,
    path: &str,
    spec: &ConstraintSpec,
) -> Result<()> {
    let f = |field: &str| format!("{path}.{field}");
    let e = cx.restitution(&f("restitution"), spec.restitution())?;
    let mu = cx.friction(&f("friction"), spec.friction())?;
    let mu_r = cx.rolling(&f("rolling"), spec.rolling(), mu)?;
    // Two distinct bodies, not both fixed.
    let pair = |a: &str, c: &str| -> Result<(usize, usize)> {
        let (ia, ic) = (b.find(cx, &f("a"), a)?, b.find(cx, &f("b"), c)?);
        if ia == ic {
            return Err(cx.err(&f("b"), format!("`a` and `b` are the same body `{a}`")));
        }
        if !b.bodies[ia].is_dynamic() && !b.bodies[ic].is_dynamic() {
            return Err(cx.err(&f("b"), format!("`{a}` and `{c}` are both fixed: the constraint could never act")));
        }
        Ok((ia, ic))
    };
    let length = |given: Option<f64>, (ia, at_a): (usize, Vector2<f64>), (ic, at_c): (usize, Vector2<f64>)| match given
    {
        Some(l) => cx.positive(&f("length"), l, "length"),
        None => {
            let l = (start_point(b, ia, at_a) - start_point(b, ic, at_c)).norm();
            if l > 0.0 { Ok(l) } else { Err(cx.err(&f("length"), "the bodies start at the same point: give `length`")) }
        }
    };
    let c = match spec {
        ConstraintSpec::HalfPlane { name, body, normal, offset, at, .. } => {
            let ib = b.find(cx, &f("body"), body)?;
            if !b.bodies[ib].is_dynamic() {
                return Err(cx.err(&f("body"), format!("body `{body}` is fixed: a half-plane on it could never act")));
            }
            let n = cx.finite2(&f("normal"), *normal)?;
            if n.norm() == 0.0 {
                return Err(cx.err(&f("normal"), "the normal must not be (0, 0)"));
            }
            let offset = cx.finite(&f("offset"), *offset)?;
            let at = cx.finite2(&f("at"), *at)?;
            Constraint {
                friction: mu,
                rolling: mu_r,
                ..inequality(name.clone(), Geometry::HalfPlane { body: ib, normal: n, offset, at }, e)
            }
        }
        ConstraintSpec::Contact { name, a, b: bname, .. } => {
            let (ia, ic) = pair(a, bname)?;
            let name = name.clone().unwrap_or_else(|| format!("{a}-{bname}"));
            Constraint { friction: mu, rolling: mu_r, ..inequality(name, Geometry::Contact { a: ia, b: ic }, e) }
        }
        ConstraintSpec::Rod { name, a, b: bname, length: given, at_a, at_b } => {
            let (ia, ic) = pair(a, bname)?;
            let (at_a, at_b) = (cx.finite2(&f("at_a"), *at_a)?, cx.finite2(&f("at_b"), *at_b)?);
            let length = length(*given, (ia, at_a), (ic, at_b))?;
            Constraint {
                name: name.clone(),
                kind: ConstraintKind::Equality,
                geometry: Geometry::Distance { a: ia, b: ic, length, at_a, at_b },
                restitution: None,
                friction: 0.0,
                rolling: 0.0,
            }
        }
        ConstraintSpec::Rope { name, a, b: bname, length: given, at_a, at_b, .. } => {
            let (ia, ic) = pair(a, bname)?;
            let (at_a, at_b) = (cx.finite2(&f("at_a"), *at_a)?, cx.finite2(&f("at_b"), *at_b)?);
            let length = length(*given, (ia, at_a), (ic, at_b))?;
            inequality(name.clone(), Geometry::Distance { a: ia, b: ic, length, at_a, at_b }, e)
        }
        ConstraintSpec::Pin { name, a, b: bname, at } => {
            // Two rows, x and y, each its own constraint.
            let (ia, ic) = pair(a, bname)?;
            let at_a = cx.finite2(&f("at"), *at)?;
            let at_b = in_frame(b, ic, start_point(b, ia, at_a));
            for (axis, coord) in ["x", "y"].iter().enumerate() {
                let geometry = Geometry::Pin { a: ia, b: ic, at_a, at_b, axis };
                let c = Constraint {
                    name: format!("{name}:{coord}"),
                    kind: ConstraintKind::Equality,
                    geometry,
                    restitution: None,
                    friction: 0.0,
                    rolling: 0.0,
                };
                out.push(cx, path, &f("name"), c)?;
            }
            return Ok(());
        }
        ConstraintSpec::BeadBound { name, body, min, max, .. } => {
            let ib = b.find(cx, &f("body"), body)?;
            if !matches!(b.bodies[ib].kind, BodyKind::Bead(_)) {
                return Err(
                    cx.err(&f("body"), format!("body `{body}` is not a bead: bound a particle with a HalfPlane"))
                );
            }
            let (value, upper) = match (min, max) {
                (Some(v), None) => (cx.finite(&f("min"), *v)?, false),
                (None, Some(v)) => (cx.finite(&f("max"), *v)?, true),
                (Some(_), Some(_)) => {
                    return Err(cx.err(&f("max"), "give `min` or `max`, not both (write one BeadBound per end)"));
                }
                (None, None) => return Err(cx.err(path, "missing field `min` or `max`")),
            };
            inequality(name.clone(), Geometry::CoordBound { body: ib, coord: 0, value, upper }, e)
        }
    };
    let name_path = if cx.locator.contains(&f("name")) { f("name") } else { path.to_string() };
    out.push(cx, path, &name_path, c)
}
