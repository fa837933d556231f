//! The tangential row of a contact, for Coulomb friction ([`crate::friction`]).
//!
//! A contact row `g_k ≥ 0` pushes along its normal `n` (unit, pointing from
//! body `b` to body `a`, the way `g_k` grows when `a` moves). Friction acts
//! along the tangent `t = ⊥n = (−n_y, n_x)` at the contact point `c`, on the
//! *material* points of `a` and `b` that are at `c` now:
//!
//! ```text
//! v_t = t·(ṗ_a(c) − ṗ_b(c)) = J_t q̇,      J_t = tᵀ (P_a(c) − P_b(c))
//! v̇_t = J_t q̈ + J̇_t q̇,                    J̇_t q̇ = t·(Ṗ_a q̇ − Ṗ_b q̇)(c) + ṫ·(ṗ_a(c) − ṗ_b(c))
//! ```
//!
//! with `ṫ = ⊥ṅ` the turning of the normal, plus `ω_a n·(ċ − ṗ_a(c)) −
//! ω_b n·(ċ − ṗ_b(c))` as the material points at `c` change while `c` moves
//! (0 for a disc rolling on a floor). `v_t` is the *slip*: 0 while the
//! contact sticks (a disc rolling without slipping has `v_t = 0` at its
//! lowest point). A force `λ_t` along the row is `λ_t J_tᵀ` on `q`, the same
//! way `λ_n J_nᵀ` is for the normal row (eq. 6).
//!
//! | geometry | normal `n` | contact point `c` | `ṅ` |
//! |---|---|---|---|
//! | half-plane, point of `a` at `p` with radius `r` | `n̄/\|n̄\|` | `p − r n` | 0 |
//! | two round bodies | `ν = (p_a − p_b)/ℓ` | `p_b + r_b ν + ½ g ν` (midway between the surfaces) | `(δ̇ − ν(ν·δ̇))/ℓ` |
//! | corner (or disc centre, radius `r_a`) of `a` on an edge of `b` | `R(θ_b) n̄` | `p_a − r_a n` | `ω_b ⊥n` |
//! | corner of `a` on disc `b` | `ν = (p_a − p_b)/ℓ` | `p_a` | `(δ̇ − ν(ν·δ̇))/ℓ` |
//!
//! Ropes, rods, pins and coordinate bounds have no tangent (no friction).
//!
//! Which `μ` a row has is the scene's: walls, half-planes and contacts
//! state theirs, generated contacts between bodies take `pair_friction`
//! ([`crate::scene`]).

use nalgebra::Vector2;

use crate::body::{Body, BodyKind, PointKin, turned};
use crate::constraint::{Beyond, Constraint, Geometry, RowEval, SparseRow, beyond_edge};

/// Where a contact touches and which way it pushes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactFrame {
    /// The contact point `c`, world frame.
    pub point: Vector2<f64>,
    /// The unit normal `n`, from body `b` to body `a`.
    pub normal: Vector2<f64>,
    /// `ṅ`, how fast the normal turns.
    pub normal_rate: Vector2<f64>,
    /// `ċ`, how fast the contact point moves.
    pub point_rate: Vector2<f64>,
    pub a: usize,
    /// The other body; `None` for a wall (a half-plane).
    pub b: Option<usize>,
}

impl ContactFrame {
    /// The tangent `t = ⊥n` along which friction acts.
    pub fn tangent(&self) -> Vector2<f64> {
        perp(self.normal)
    }
}

/// The quarter turn counterclockwise.
fn perp(v: Vector2<f64>) -> Vector2<f64> {
    Vector2::new(-v.y, v.x)
}

/// `ν = δ/ℓ` and `ν̇ = (δ̇ − ν(ν·δ̇))/ℓ` of two points (a fixed direction when
/// they coincide).
fn direction(ka: &PointKin, kb: &PointKin) -> (Vector2<f64>, Vector2<f64>, f64) {
    let (d, dv) = (ka.p - kb.p, ka.v - kb.v);
    let l = d.norm();
    if l > 1e-12 {
        let nu = d / l;
        (nu, (dv - nu * nu.dot(&dv)) / l, l)
    } else {
        (Vector2::new(0.0, 1.0), Vector2::zeros(), l)
    }
}

/// The frame of a contact row (see the module docs), `None` for rows that
/// are not contacts.
pub fn contact_frame(c: &Constraint, bodies: &[Body], q: &[f64], qd: &[f64]) -> Option<ContactFrame> {
    match c.geometry {
        Geometry::HalfPlane { body, normal, at, .. } => {
            let n = normal / normal.norm();
            let k = bodies[body].kinematics_at(at, q, qd);
            Some(ContactFrame {
                point: k.p - n * bodies[body].radius,
                normal: n,
                normal_rate: Vector2::zeros(),
                point_rate: k.v,
                a: body,
                b: None,
            })
        }
        Geometry::Contact { a, b } => {
            let (ka, kb) = (bodies[a].kinematics(q, qd), bodies[b].kinematics(q, qd));
            let (nu, rate, l) = direction(&ka, &kb);
            let (ra, rb) = (bodies[a].radius, bodies[b].radius);
            let reach = rb + 0.5 * (l - ra - rb);
            let point = kb.p + nu * reach;
            let point_rate = kb.v + rate * reach + nu * (0.5 * nu.dot(&(ka.v - kb.v)));
            Some(ContactFrame { point, normal: nu, normal_rate: rate, point_rate, a, b: Some(b) })
        }
        Geometry::CornerEdge { a, at, b, normal, offset, ends } => {
            let k = bodies[a].kinematics_at(at, q, qd);
            // Past an end: a disc against the end, as a corner on a disc of
            // radius 0; a corner against the edge of `b` it is farthest
            // outside of ([`Geometry::CornerEdge`]).
            let r = bodies[a].radius;
            let normal = match beyond_edge(bodies, k.p, b, normal, offset, ends, r, q, qd) {
                Some(Beyond::End(end)) => {
                    let kb = bodies[b].kinematics_at(end, q, qd);
                    let (nu, rate, _) = direction(&k, &kb);
                    return Some(ContactFrame {
                        point: k.p - nu * r,
                        normal: nu,
                        normal_rate: rate,
                        point_rate: k.v - rate * r,
                        a,
                        b: Some(b),
                    });
                }
                Some(Beyond::Edge { normal, .. }) => normal,
                None => normal,
            };
            let (theta, omega) = bodies[b].angle(q, qd);
            let n = turned(theta, normal);
            Some(ContactFrame {
                point: k.p - n * r,
                normal: n,
                normal_rate: perp(n) * omega,
                point_rate: k.v - perp(n) * (omega * r),
                a,
                b: Some(b),
            })
        }
        Geometry::CornerDisc { a, at, disc } => {
            let (ka, kb) = (bodies[a].kinematics_at(at, q, qd), bodies[disc].kinematics(q, qd));
            let (nu, rate, _) = direction(&ka, &kb);
            Some(ContactFrame { point: ka.p, normal: nu, normal_rate: rate, point_rate: ka.v, a, b: Some(disc) })
        }
        Geometry::Distance { .. } | Geometry::CoordBound { .. } | Geometry::Pin { .. } => None,
    }
}

/// The kinematics of the material point of `body` that is at the world
/// point `c` now.
pub fn material_point(body: &Body, c: Vector2<f64>, q: &[f64], qd: &[f64]) -> PointKin {
    let own = body.kinematics(q, qd).p;
    let at = match body.kind {
        BodyKind::Rigid { .. } | BodyKind::FixedShape { .. } => turned(-body.angle(q, qd).0, c - own),
        _ => c - own,
    };
    body.kinematics_at(at, q, qd)
}

/// The tangential row of contact `c` at `(q, q̇)`: `J_t`, `J̇_t q̇` (its `g`
/// is the slip `v_t = J_t q̇`, a velocity, not a distance). `None` for rows
/// that are not contacts.
pub fn tangent_row(c: &Constraint, bodies: &[Body], q: &[f64], qd: &[f64]) -> Option<RowEval> {
    let frame = contact_frame(c, bodies, q, qd)?;
    let t = frame.tangent();
    let t_rate = perp(frame.normal_rate);
    let ka = material_point(&bodies[frame.a], frame.point, q, qd);
    let mut row = SparseRow::default();
    for (i, col) in ka.columns() {
        row.push(*i, t.dot(col));
    }
    // The material points at `c` change as `c` moves: `ω ⊥(ċ − ṗ(c))` on
    // each body (module docs), whose tangential part is `ω n·(ċ − ṗ(c))`.
    let n = frame.normal;
    let spin = |body: usize, k: &PointKin| bodies[body].angle(q, qd).1 * n.dot(&(frame.point_rate - k.v));
    let (mut bias, mut v, mut moving) = (ka.bias, ka.v, spin(frame.a, &ka));
    if let Some(b) = frame.b {
        let kb = material_point(&bodies[b], frame.point, q, qd);
        for (i, col) in kb.columns() {
            row.push(*i, -t.dot(col));
        }
        bias -= kb.bias;
        v -= kb.v;
        moving -= spin(b, &kb);
    }
    Some(RowEval { g: t.dot(&v), row, jd_qd: t.dot(&bias) + t_rate.dot(&v) + moving })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::constraint::ConstraintKind;
    use crate::shapes::Shape;

    fn rigid(shape: Shape, offset: usize) -> Body {
        Body {
            name: "r".into(),
            radius: if let Shape::Disc { radius } = shape { radius } else { 0.0 },
            kind: BodyKind::Rigid { inertia: 0.3, shape },
            mass: 2.0,
            force: Vector2::zeros(),
            damping: 0.0,
            user_force: Vector2::zeros(),
            user_torque: 0.0,
            offset,
        }
    }

    fn contact(geometry: Geometry) -> Constraint {
        Constraint {
            name: "c".into(),
            kind: ConstraintKind::Inequality,
            geometry,
            restitution: None,
            friction: 0.5,
            rolling: 0.0,
        }
    }

    /// `J_t q̇` is the slip of the material points, and `J̇_t q̇` the rate of
    /// `J_t q̇` along a free motion (`q̈ = 0`), by finite differences: the row
    /// is the derivative of what it claims.
    #[test]
    fn the_tangent_row_is_the_slip_and_its_rate() {
        let bodies = vec![rigid(Shape::Disc { radius: 0.3 }, 0), rigid(Shape::Box { size: (0.8, 0.4) }, 3)];
        let cases = [
            Geometry::HalfPlane { body: 0, normal: Vector2::new(0.2, 1.0), offset: -1.0, at: Vector2::zeros() },
            Geometry::CornerEdge {
                a: 0,
                at: Vector2::zeros(),
                b: 1,
                normal: Vector2::new(0.0, 1.0),
                offset: 0.2,
                ends: None,
            },
            Geometry::CornerDisc { a: 1, at: Vector2::new(0.4, 0.2), disc: 0 },
            Geometry::Contact { a: 0, b: 1 },
        ];
        let q = [0.1, 0.9, 0.4, -0.2, 0.1, 0.7];
        let qd = [1.3, -0.4, 2.1, -0.5, 0.8, -1.7];
        for geometry in cases {
            let c = contact(geometry.clone());
            let r = tangent_row(&c, &bodies, &q, &qd).unwrap();
            assert!((r.row.dot(&qd) - r.g).abs() < 1e-12, "{geometry:?}: J_t q̇ is the slip");
            // d/dt (J_t(q) q̇) at q̈ = 0, central differences along q(s) = q + s q̇.
            let s = 1e-6;
            let at = |s: f64| {
                let qs: Vec<f64> = q.iter().zip(&qd).map(|(q, v)| q + s * v).collect();
                tangent_row(&c, &bodies, &qs, &qd).unwrap().row.dot(&qd)
            };
            let rate = (at(s) - at(-s)) / (2.0 * s);
            assert!((rate - r.jd_qd).abs() < 1e-6 * (1.0 + rate.abs()), "{geometry:?}: {rate} against {}", r.jd_qd);
        }
    }
}
