//! Where constraints touch and which forces they apply, for drawing and labels.
//!
//! A constraint `g_k(q) ≥ 0` with multiplier `λ_k` adds `J_kᵀ λ_k` to the
//! generalized forces (eq. 6: `M q̈ = f + Jᵀλ`). On body `b`'s point this is the
//! point force `λ_k ∂g_k/∂p_b`, which is what the arrows show:
//!
//! ```text
//! half-plane  g = n·p − c − r|n|    ∂g/∂p = n                (not normalised: g1 = x − y has n = (1, −1))
//! contact     g = |p_a − p_b| − r   ∂g/∂p_a = ν, ∂g/∂p_b = −ν,  ν = (p_a − p_b)/|p_a − p_b|
//! rod         g = |p_a − p_b| − L   as contact
//! string      g = L − |p_a − p_b|   signs flipped
//! pin         g = e·(p_a − p_b)     ∂g/∂p_a = e, ∂g/∂p_b = −e,  e the row's axis
//! corner      g = n·(p_a − x_b) − c ∂g/∂p_a = n, −n on b at the corner, n the edge's turned normal
//! ```
//!
//! A constraint on a point fixed on a body (`at` in its frame) acts there:
//! the body's point moved by where `at` is now.

use bevy::math::DVec2;
use contact_core::{BodyKind, Geometry, World};

/// A point force a constraint applies to one body.
#[derive(Clone, Copy, Debug)]
pub struct ConstraintForce {
    pub body: usize,
    /// Where to draw it (the contact point on the body's surface).
    pub at: DVec2,
    /// `λ ∂g/∂p`, in N.
    pub force: DVec2,
}

fn v(p: nalgebra::Vector2<f64>) -> DVec2 {
    DVec2::new(p.x, p.y)
}

/// Body `b`'s point, from the core's current state.
pub fn point(world: &World, b: usize) -> DVec2 {
    v(world.model.position(b, &world.state))
}

/// Where the point of body `b` at `at` (its frame) is, from `positions(b)`.
pub fn point_at(world: &World, b: usize, at: nalgebra::Vector2<f64>, positions: &dyn Fn(usize) -> DVec2) -> DVec2 {
    if at == nalgebra::Vector2::zeros() {
        return positions(b);
    }
    let body = &world.model.bodies[b];
    let (q, qd) = (&world.state.q, &world.state.qd);
    positions(b) + v(body.kinematics_at(at, q, qd).p - body.kinematics(q, qd).p)
}

/// The gradient directions `∂g_k/∂p` on the bodies of constraint `k` at `positions`
/// (body points, possibly interpolated), with the surface point where each acts.
pub fn gradients(world: &World, k: usize, positions: &dyn Fn(usize) -> DVec2) -> Vec<(usize, DVec2, DVec2)> {
    let model = &world.model;
    let c = &model.constraints[k];
    match c.geometry {
        Geometry::HalfPlane { body, normal, at, .. } => {
            let n = v(normal);
            let r = model.bodies[body].radius;
            let p = point_at(world, body, at, positions);
            vec![(body, p - n.normalize_or_zero() * r, n)]
        }
        Geometry::Contact { a, b } => {
            let (pa, pb) = (positions(a), positions(b));
            let nu = (pa - pb).normalize_or(DVec2::Y);
            let (ra, rb) = (model.bodies[a].radius, model.bodies[b].radius);
            vec![(a, pa - nu * ra, nu), (b, pb + nu * rb, -nu)]
        }
        Geometry::Distance { a, b, at_a, at_b, .. } => {
            let (pa, pb) = (point_at(world, a, at_a, positions), point_at(world, b, at_b, positions));
            let nu = (pa - pb).normalize_or(DVec2::Y);
            let s = if c.is_inequality() { -1.0 } else { 1.0 };
            vec![(a, pa, nu * s), (b, pb, -nu * s)]
        }
        Geometry::CornerEdge { a, at, b, normal, .. } => {
            // The edge's normal turned with `b`, at the corner, on both bodies.
            let (theta, _) = model.bodies[b].angle(&world.state.q, &world.state.qd);
            let n = DVec2::from_angle(theta).rotate(v(normal));
            // A disc's row is written at its centre; it touches a radius out.
            let p = point_at(world, a, at, positions) - n * model.bodies[a].radius;
            vec![(a, p, n), (b, p, -n)]
        }
        Geometry::CornerDisc { a, at, disc } => {
            let (p, centre) = (point_at(world, a, at, positions), positions(disc));
            let nu = (p - centre).normalize_or(DVec2::Y);
            vec![(a, p, nu), (disc, p, -nu)]
        }
        Geometry::Pin { a, b, at_a, at_b, axis } => {
            let e = if axis == 0 { DVec2::X } else { DVec2::Y };
            vec![(a, point_at(world, a, at_a, positions), e), (b, point_at(world, b, at_b, positions), -e)]
        }
        Geometry::CoordBound { body, coord, upper, .. } => {
            let s = if upper { -1.0 } else { 1.0 };
            let b = &model.bodies[body];
            let p = positions(body);
            match &b.kind {
                BodyKind::Particle => {
                    let dir = if coord == 0 { DVec2::X } else { DVec2::Y };
                    vec![(body, p, dir * s)]
                }
                BodyKind::Bead(curve) => {
                    // A bound on u acts along the tangent: the generalized force λ s on u
                    // is the point force λ s c'/|c'|² along the curve.
                    let u = world.state.q[b.offset];
                    let t = v(curve.d1(u));
                    let t2 = t.length_squared().max(1e-12);
                    vec![(body, p, t * (s / t2))]
                }
                BodyKind::Rigid { .. } if coord < 2 => {
                    let dir = if coord == 0 { DVec2::X } else { DVec2::Y };
                    vec![(body, p, dir * s)]
                }
                // A bound on θ is a torque, not a force at a point.
                BodyKind::Fixed { .. } | BodyKind::FixedShape { .. } | BodyKind::Rigid { .. } => vec![],
            }
        }
    }
}

/// The forces `λ_k ∂g_k/∂p` of constraint `k` with multiplier `lambda`.
pub fn constraint_forces(
    world: &World,
    k: usize,
    lambda: f64,
    positions: &dyn Fn(usize) -> DVec2,
) -> Vec<ConstraintForce> {
    gradients(world, k, positions)
        .into_iter()
        .filter(|(b, _, _)| !matches!(world.model.bodies[*b].kind, BodyKind::Fixed { .. }))
        .map(|(body, at, grad)| ConstraintForce { body, at, force: grad * lambda })
        .collect()
}

/// The friction forces `λ_t t` of contact `k` with tangential force
/// `friction` (`t = ⊥n` on the first body, `−t` on the other: the quarter
/// turn of each body's unit gradient; [`contact_core::tangent`]).
pub fn friction_forces(
    world: &World,
    k: usize,
    friction: f64,
    positions: &dyn Fn(usize) -> DVec2,
) -> Vec<ConstraintForce> {
    constraint_forces(world, k, 1.0, positions)
        .into_iter()
        .map(|cf| ConstraintForce { force: cf.force.normalize_or_zero().perp() * friction, ..cf })
        .collect()
}

/// A representative point of constraint `k` (for event flashes and labels).
pub fn anchor(world: &World, k: usize, positions: &dyn Fn(usize) -> DVec2) -> DVec2 {
    let g = gradients(world, k, positions);
    match g.as_slice() {
        [] => DVec2::ZERO,
        [(_, p, _)] => *p,
        [(_, a, _), (_, b, _), ..] => {
            if matches!(world.model.constraints[k].geometry, Geometry::Contact { .. }) {
                *a
            } else {
                (*a + *b) * 0.5
            }
        }
    }
}

/// A wall: every half-plane with the same `n` and `c` (one per ball in the scene
/// files' `walls`), drawn once as the line `n·x = c` with its forbidden side.
#[derive(Clone, Debug)]
pub struct Wall {
    pub name: String,
    /// Unit normal, pointing into the allowed side.
    pub normal: DVec2,
    /// The line is `normal·x = offset` (normalised).
    pub offset: f64,
    /// The constraints drawn on this wall.
    pub constraints: Vec<usize>,
}

/// Groups the half-planes (and the coordinate bounds of particles) into walls.
/// The walls of contacts by proximity are walls whether or not a body is
/// near them now (their rows exist only while one is: a scene with a box
/// in it lost its floor from the view while nothing touched it).
pub fn walls(world: &World) -> Vec<Wall> {
    let unit = |normal: nalgebra::Vector2<f64>, offset: f64| {
        let len = normal.norm().max(1e-300);
        (DVec2::new(normal.x, normal.y) / len, offset / len)
    };
    let mut out: Vec<Wall> = Vec::new();
    for w in world.model.contacts.iter().flat_map(|g| &g.walls) {
        let (normal, offset) = unit(w.normal, w.offset);
        out.push(Wall { name: w.name.clone(), normal, offset, constraints: Vec::new() });
    }
    for (k, c) in world.model.constraints.iter().enumerate() {
        let (n, off) = match c.geometry {
            Geometry::HalfPlane { normal, offset, .. } => unit(normal, offset),
            Geometry::CoordBound { body, coord, value, upper }
                if matches!(world.model.bodies[body].kind, BodyKind::Particle) =>
            {
                let e = if coord == 0 { DVec2::X } else { DVec2::Y };
                if upper { (-e, -value) } else { (e, value) }
            }
            _ => continue,
        };
        let name = c.name.split(':').next().unwrap_or(&c.name).to_string();
        if let Some(w) = out.iter_mut().find(|w| (w.normal - n).length() < 1e-9 && (w.offset - off).abs() < 1e-9) {
            w.constraints.push(k);
        } else {
            out.push(Wall { name, normal: n, offset: off, constraints: vec![k] });
        }
    }
    out
}

/// A reference force magnitude of the scene (N): the largest constant load on a
/// body (`|f + m g|`), used to scale every force arrow the same way.
pub fn reference_force(world: &World) -> f64 {
    let g = v(world.model.gravity);
    world
        .model
        .bodies
        .iter()
        .filter(|b| b.is_dynamic())
        .map(|b| (v(b.force) + g * b.mass).length().max(b.mass * 1.0))
        .fold(0.0, f64::max)
        .max(1e-6)
}

/// The corners of body `b` in the world, counterclockwise, with its point at
/// `centre` and its angle now: a box or a polygon (none for the other
/// bodies and for discs).
pub fn outline(world: &World, b: usize, centre: DVec2) -> Option<Vec<DVec2>> {
    let body = &world.model.bodies[b];
    let corners = body.shape()?.corners();
    if corners.is_empty() {
        return None;
    }
    let theta = body.angle(&world.state.q, &world.state.qd).0;
    Some(corners.iter().map(|r| centre + v(contact_core::body::turned(theta, *r))).collect())
}

/// The angle of body `b` (radians), if it has a shape (it turns, or it is
/// a fixed shape at an angle).
pub fn angle(world: &World, b: usize) -> Option<f64> {
    let body = &world.model.bodies[b];
    body.shape().map(|_| body.angle(&world.state.q, &world.state.qd).0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 47, item 3: a box and a ball (contacts by proximity) high above
    /// the floor, nothing near it. The floor has no row now, and is a wall
    /// anyway.
    #[test]
    fn a_wall_of_contacts_by_proximity_is_drawn_with_nothing_near_it() {
        let text = r#"Scene(name: "s", gravity: (0, -9.81),
            bodies: [Box(name: "box", position: (0, 0.9), size: (0.2, 0.1), mass: 1),
                     Ball(name: "ball", position: (0.5, 0.9), mass: 1, radius: 0.05)],
            walls: [(name: "floor", normal: (0, 2), offset: 0.2)], ball_pairs: true)"#;
        let world = contact_core::scene::parse(text, "s.ron", &Default::default()).unwrap().world;
        assert!(world.model.constraints.is_empty(), "no row while nothing is near the floor");
        let walls = walls(&world);
        assert_eq!(walls.len(), 1);
        assert_eq!(walls[0].name, "floor");
        assert!((walls[0].normal - DVec2::Y).length() < 1e-15 && (walls[0].offset - 0.1).abs() < 1e-15);
    }
}
