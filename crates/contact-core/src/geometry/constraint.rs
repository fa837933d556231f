//! Constraints `g_k(q)` on the bodies' points, their Jacobian rows and `J̇_k q̇`.
//!
//! For each constraint we need what eq. (4)–(5) of the paper use:
//!
//! ```text
//! g_k(q)                           value (= 0 for equalities, ≥ 0 for inequalities)
//! J_k = ∂g_k/∂q                    1 × n row, sparse: it touches at most 6 coordinates
//! J̇_k q̇ = Σ ∂²g_k/∂qi∂qj q̇i q̇j     the velocity term of eq. (4)
//! ```
//!
//! Geometries, with `p_a`, `p_b` the body points (a body's own, or the point
//! fixed on it at `at` in its frame, [`Body::kinematics_at`]), `r_a`, `r_b`
//! their radii:
//!
//! * half-plane `g = n·p_a − c − r_a |n|`: `J = nᵀ P_a`, `J̇q̇ = n·(Ṗ_a q̇)`.
//!   `n` need not be unit: the wedge's `g1 = x − y` is `n = (1, −1), c = 0`.
//! * distance-like, with `δ = p_a − p_b`, `ℓ = |δ|`, `ν = δ/ℓ`:
//!   `ℓ̈ = ν·δ̈ + (|δ̇|² − (ν·δ̇)²)/ℓ`, so `J = νᵀ P_a − νᵀ P_b` and
//!   `J̇q̇ = ν·(Ṗ_a q̇ − Ṗ_b q̇) + (|δ̇|² − (ν·δ̇)²)/ℓ`.
//!   - ball contact `g = ℓ − r_a − r_b ≥ 0`;
//!   - a polygon's corner against a disc `g = ℓ − r_b ≥ 0` (`p_a` the corner);
//!   - rod `g = ℓ − L = 0`; string (taut rope) `g = L − ℓ ≥ 0` (signs flipped).
//! * coordinate bound on coordinate `i`: `g = q_i − u0 ≥ 0` or `g = u1 − q_i ≥ 0`.
//! * corner against an edge (two shapes that turn): the corner `p_a` (a
//!   point of body `a`) stays on the outer side of the line of an edge of
//!   body `b`, `g = n·(p_a − x_b) − c ≥ 0` with `n = R(θ_b) n̄` the edge's
//!   outward unit normal turned with `b`, `c` its offset in `b`'s frame (a
//!   disc's centre against an edge: `g = n·(p_a − x_b) − c − r_a`):
//!   `J = nᵀ P_a − nᵀ P_b + ((⊥n)·(p_a − x_b)) e_θb`, and
//!   `J̇q̇ = n·(Ṗ_a q̇) + 2 ω_b (⊥n)·(ṗ_a − ẋ_b) − ω_b² n·(p_a − x_b)`: the edge's
//!   turning normal (eq. 4's second-derivative terms).
//! * pin joint, two equality rows, `g = e·(p_a − p_b) = 0` for `e` each axis:
//!   `J = eᵀ (P_a − P_b)`, `J̇q̇ = e·(Ṗ_a q̇ − Ṗ_b q̇)` (a distance of length 0
//!   would have no direction).

use nalgebra::Vector2;

use crate::body::{Body, PointKin};
use crate::shapes::outermost_edge;

/// Equality (`g = 0`, eq. 2) or inequality (`g ≥ 0`, eq. 7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ConstraintKind {
    Equality,
    Inequality,
}

impl ConstraintKind {
    /// How far `g` is outside what the constraint allows: `|g|` for an
    /// equality, `max(0, −g)` (the penetration) for an inequality.
    pub fn violation(self, g: f64) -> f64 {
        match self {
            ConstraintKind::Equality => g.abs(),
            ConstraintKind::Inequality => (-g).max(0.0),
        }
    }
}

/// The geometric meaning of a constraint.
#[derive(Clone, Debug, PartialEq)]
pub enum Geometry {
    /// `n·p − c − r|n| ≥ 0` for the point of body `body` at `at` (its frame).
    HalfPlane { body: usize, normal: Vector2<f64>, offset: f64, at: Vector2<f64> },
    /// Non-penetration of two round bodies: `|p_a − p_b| − r_a − r_b ≥ 0`.
    Contact { a: usize, b: usize },
    /// A rod (`|p_a − p_b| = L`, equality) or a string (`|p_a − p_b| ≤ L`,
    /// inequality) between the points of `a` at `at_a` and of `b` at `at_b`.
    Distance { a: usize, b: usize, length: f64, at_a: Vector2<f64>, at_b: Vector2<f64> },
    /// `q_{coord} ≥ value` (`upper = false`) or `q_{coord} ≤ value` (`upper = true`)
    /// for the coordinate of index `coord` within body `body`.
    CoordBound { body: usize, coord: usize, value: f64, upper: bool },
    /// The corner of body `a` at `at` (its frame) against the edge of body
    /// `b` with outward unit normal `normal` and offset `offset` (`b`'s frame):
    /// `n·(p_a − x_b) − offset ≥ 0` with `n` turned with `b`.
    ///
    /// `ends`: where the edge starts and ends along its tangent `t = ⊥n`
    /// (`b`'s frame, `t·v₀` and `t·v₁`, round-off included; `None`: the
    /// whole line). Past an end the point is beside the edge, not over it,
    /// and the line holds nothing (issue 36: a box 3 mm clear of a table's
    /// end took an impulse from its top's line):
    ///
    /// * a polygon's corner outside `b` is against the outline of `b`, by
    ///   the edge of `b` it is farthest outside of, `φ = max_k n_k·(p_a −
    ///   v_k) > 0`, wherever that is not its own edge (past an end, or round
    ///   a sharp corner of `b`, where the line's negative side leaves `b`): a
    ///   corner coming round `b`'s corner through the next side meets that
    ///   side, with its normal. Over its own edge (above its line, between
    ///   its ends) `φ` is that line, and inside `b` the line is kept;
    /// * a disc's centre is against the end, `|c − v_end| − r_a`, as the
    ///   corner row of that end is ([`crate::shapes`]: the two agree there).
    CornerEdge { a: usize, at: Vector2<f64>, b: usize, normal: Vector2<f64>, offset: f64, ends: Option<(f64, f64)> },
    /// The corner of body `a` at `at` (its frame) against the round body
    /// `disc`: `|p_a − p_disc| − r_disc ≥ 0` (a disc on a polygon's corner).
    CornerDisc { a: usize, at: Vector2<f64>, disc: usize },
    /// One row of a pin joint: `e_axis·(p_a − p_b) = 0`, the points of `a`
    /// at `at_a` and of `b` at `at_b` (axis 0: x, 1: y).
    Pin { a: usize, b: usize, at_a: Vector2<f64>, at_b: Vector2<f64>, axis: usize },
}

/// One constraint of the model.
#[derive(Clone, Debug, PartialEq)]
pub struct Constraint {
    pub name: String,
    pub kind: ConstraintKind,
    pub geometry: Geometry,
    /// Restitution for impacts on this constraint; `None` takes the scene's.
    pub restitution: Option<f64>,
    /// Coulomb's coefficient `μ` of a contact ([`crate::friction`]); 0 is
    /// frictionless (the paper's setting), the only value for rows that are
    /// not contacts.
    pub friction: f64,
    /// Rolling resistance `μ_r` of a contact that has friction, between
    /// bodies of which one at least is a disc that turns
    /// ([`crate::rolling::rolling_row`]): the torque it takes is at most
    /// `μ_r R* λ`, `R*` the contact's rolling radius. 0: they roll freely
    /// (the default); solved by time-stepping only.
    pub rolling: f64,
}

impl Constraint {
    /// The bodies the constraint acts on (one or two).
    pub fn bodies(&self) -> Vec<usize> {
        match self.geometry {
            Geometry::HalfPlane { body, .. } | Geometry::CoordBound { body, .. } => vec![body],
            Geometry::Contact { a, b }
            | Geometry::Distance { a, b, .. }
            | Geometry::Pin { a, b, .. }
            | Geometry::CornerEdge { a, b, .. } => vec![a, b],
            Geometry::CornerDisc { a, disc, .. } => vec![a, disc],
        }
    }

    /// `|∂g/∂p|`, the length of the normal the row is written with: a
    /// half-plane takes its `n̄` as written (the paper's wedge `g1 = x − y`
    /// has `|n̄| = √2`), so its `λ` is a force of `λ |n̄|` newtons; every other
    /// contact row has a unit normal. The Coulomb cone is on forces,
    /// `|λ_t| ≤ μ |n̄| λ` ([`crate::friction`]), so how a normal is written
    /// never changes `μ`.
    pub fn normal_length(&self) -> f64 {
        match self.geometry {
            Geometry::HalfPlane { normal, .. } => normal.norm(),
            _ => 1.0,
        }
    }

    pub fn is_inequality(&self) -> bool {
        self.kind == ConstraintKind::Inequality
    }

    /// Evaluates `g`, `J_k` and `J̇_k q̇` at `(q, q̇)`.
    pub fn eval(&self, bodies: &[Body], q: &[f64], qd: &[f64]) -> RowEval {
        match self.geometry {
            Geometry::HalfPlane { body, normal, offset, at } => {
                let b = &bodies[body];
                let k = b.kinematics_at(at, q, qd);
                let mut row = SparseRow::default();
                row.add_point(&k, normal);
                RowEval { g: normal.dot(&k.p) - offset - b.radius * normal.norm(), row, jd_qd: normal.dot(&k.bias) }
            }
            Geometry::Contact { a, b } => {
                let r = bodies[a].radius + bodies[b].radius;
                let (ka, kb) = (bodies[a].kinematics(q, qd), bodies[b].kinematics(q, qd));
                distance_row(&ka, &kb, 1.0, -r)
            }
            Geometry::Distance { a, b, length, at_a, at_b } => {
                let (ka, kb) = (bodies[a].kinematics_at(at_a, q, qd), bodies[b].kinematics_at(at_b, q, qd));
                match self.kind {
                    ConstraintKind::Equality => distance_row(&ka, &kb, 1.0, -length),
                    ConstraintKind::Inequality => distance_row(&ka, &kb, -1.0, length),
                }
            }
            Geometry::CornerEdge { a, at, b, normal, offset, ends } => {
                let ka = bodies[a].kinematics_at(at, q, qd);
                let r = bodies[a].radius;
                // Past an end (see `ends`): a disc against that end; a
                // corner against the outline of `b`, by the edge it is
                // farthest outside of.
                let (normal, offset) = match beyond_edge(bodies, ka.p, b, normal, offset, ends, r, q, qd) {
                    Some(Beyond::End(end)) => {
                        let kb = bodies[b].kinematics_at(end, q, qd);
                        return distance_row(&ka, &kb, 1.0, -r);
                    }
                    Some(Beyond::Edge { normal, offset }) => (normal, offset),
                    None => (normal, offset),
                };
                line_row(bodies, &ka, b, normal, offset + r, q, qd)
            }
            Geometry::CornerDisc { a, at, disc } => {
                let (ka, kb) = (bodies[a].kinematics_at(at, q, qd), bodies[disc].kinematics(q, qd));
                distance_row(&ka, &kb, 1.0, -bodies[disc].radius)
            }
            Geometry::Pin { a, b, at_a, at_b, axis } => {
                let (ka, kb) = (bodies[a].kinematics_at(at_a, q, qd), bodies[b].kinematics_at(at_b, q, qd));
                let e = if axis == 0 { Vector2::new(1.0, 0.0) } else { Vector2::new(0.0, 1.0) };
                let mut row = SparseRow::default();
                row.add_point(&ka, e);
                row.add_point(&kb, -e);
                RowEval { g: e.dot(&(ka.p - kb.p)), row, jd_qd: e.dot(&(ka.bias - kb.bias)) }
            }
            Geometry::CoordBound { body, coord, value, upper } => {
                let i = bodies[body].offset + coord;
                let s = if upper { -1.0 } else { 1.0 };
                let mut row = SparseRow::default();
                row.push(i, s);
                RowEval { g: s * (q[i] - value), row, jd_qd: 0.0 }
            }
        }
    }
}

/// `g = sign · |p_a − p_b| + shift` for the points of `ka` and `kb`, with its
/// row and `J̇q̇` (see module docs).
/// Closer than this (m) a disc's centre is at an edge's end: its row keeps
/// the edge's normal, the direction to the end being lost in round-off.
pub(crate) const COINCIDENT: f64 = 1e-9;

/// What a corner row's point is against once it is past its edge's end
/// ([`Geometry::CornerEdge`]'s `ends`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Beyond {
    /// A disc's centre: the end, in `b`'s frame.
    End(Vector2<f64>),
    /// A polygon's corner: the edge of `b` it is farthest outside of (`b`'s
    /// frame), `φ = max_k n_k·(p − v_k)`, positive outside `b`, negative
    /// inside.
    Edge { normal: Vector2<f64>, offset: f64 },
}

/// Within this (m) of the outline's `φ`, a corner's own edge stands for
/// it: a corner pressing into a face on the line of another (two boxes side
/// by side on a floor) keeps its face.
const OWN_EDGE: f64 = 1e-6;

/// What the point `pa` (world) of a body of radius `r` is against instead
/// of its edge's line, if anything ([`Geometry::CornerEdge`]): a disc's
/// centre past an end, that end; a polygon's corner that is farther outside
/// another edge of `b` than its own (past an end, or round a sharp corner
/// of `b`), that edge ([`outermost_edge`], the outline's `φ`).
#[allow(clippy::too_many_arguments)]
pub(crate) fn beyond_edge(
    bodies: &[Body],
    pa: Vector2<f64>,
    b: usize,
    normal: Vector2<f64>,
    offset: f64,
    ends: Option<(f64, f64)>,
    r: f64,
    q: &[f64],
    qd: &[f64],
) -> Option<Beyond> {
    let (s0, s1) = ends?;
    // The point in `b`'s frame.
    let local = crate::body::turned(-bodies[b].angle(q, qd).0, pa - bodies[b].kinematics(q, qd).p);
    if r > 0.0 {
        let t = Vector2::new(-normal.y, normal.x);
        let along = t.dot(&local);
        let end = if along > s1 {
            s1
        } else if along < s0 {
            s0
        } else {
            return None;
        };
        let at_end = normal * offset + t * end;
        return ((local - at_end).norm() > COINCIDENT).then_some(Beyond::End(at_end));
    }
    let corners = bodies[b].shape()?.corners();
    let (k, (n, phi, _, _)) = outermost_edge(&corners, local)?;
    // Outside `b` only: inside it the corner is pushed out by its own edge,
    // as ever (a wedge's toe pressing into a ramp's face at the floor).
    (phi > 0.0 && normal.dot(&local) - offset < phi - OWN_EDGE)
        .then_some(Beyond::Edge { normal: n, offset: n.dot(&corners[k]) + OWN_EDGE })
}

/// `g = m·(p_a − x_b) − c` for the point of `ka` against a line of body `b`
/// with unit normal `m` (`b`'s frame, turned with it) and offset `c`:
/// `J = m·(P_a − P_b)` with the angle column `⊥m·d`, and
/// `J̇ q̇ = m·(Ṗ_a q̇ − Ṗ_b q̇) + 2ω ⊥m·ḋ − ω² m·d`.
fn line_row(bodies: &[Body], ka: &PointKin, b: usize, normal: Vector2<f64>, c: f64, q: &[f64], qd: &[f64]) -> RowEval {
    let kb = bodies[b].kinematics(q, qd);
    let (theta, omega) = bodies[b].angle(q, qd);
    let n = crate::body::turned(theta, normal);
    let perp = Vector2::new(-n.y, n.x);
    let (d, dv) = (ka.p - kb.p, ka.v - kb.v);
    let mut row = SparseRow::default();
    row.add_point(ka, n);
    row.add_point(&kb, -n);
    if let Some(col) = bodies[b].angle_column() {
        row.push(col, perp.dot(&d));
    }
    let jd_qd = n.dot(&(ka.bias - kb.bias)) + 2.0 * omega * perp.dot(&dv) - omega * omega * n.dot(&d);
    RowEval { g: n.dot(&d) - c, row, jd_qd }
}

fn distance_row(ka: &PointKin, kb: &PointKin, sign: f64, shift: f64) -> RowEval {
    let delta = ka.p - kb.p;
    let delta_dot = ka.v - kb.v;
    let len = delta.norm();
    // Coincident points have no direction: pick one and drop the curvature term,
    // so the row stays finite (the solver copes with whatever follows).
    let (nu, curvature) = if len > 1e-12 {
        let nu = delta / len;
        let along = nu.dot(&delta_dot);
        (nu, (delta_dot.norm_squared() - along * along) / len)
    } else {
        (Vector2::new(0.0, 1.0), 0.0)
    };
    let mut row = SparseRow::default();
    row.add_point(ka, nu * sign);
    row.add_point(kb, -nu * sign);
    RowEval { g: sign * len + shift, row, jd_qd: sign * (nu.dot(&(ka.bias - kb.bias)) + curvature) }
}

/// A Jacobian row with at most six non-zero entries `(column, value)` (two
/// points of bodies that turn).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SparseRow {
    entries: [(usize, f64); 6],
    len: usize,
}

impl SparseRow {
    /// A row from its `(column, value)` entries (at most six distinct columns).
    pub fn from_entries(entries: &[(usize, f64)]) -> Self {
        let mut r = SparseRow::default();
        for &(c, v) in entries {
            r.push(c, v);
        }
        r
    }

    /// Adds `value` at `column` (merging with an existing entry of the same column).
    pub fn push(&mut self, column: usize, value: f64) {
        if let Some(e) = self.entries[..self.len].iter_mut().find(|e| e.0 == column) {
            e.1 += value;
        } else {
            self.entries[self.len] = (column, value);
            self.len += 1;
        }
    }

    /// Adds `wᵀ P` for a point whose Jacobian columns are in `k`.
    fn add_point(&mut self, k: &PointKin, w: Vector2<f64>) {
        for (i, col) in k.columns() {
            self.push(*i, w.dot(col));
        }
    }

    pub fn entries(&self) -> &[(usize, f64)] {
        &self.entries[..self.len]
    }

    /// `J_k x` for a dense vector `x`.
    pub fn dot(&self, x: &[f64]) -> f64 {
        self.entries().iter().map(|(i, v)| v * x[*i]).sum()
    }

    /// `J_k W J_lᵀ` for a diagonal `W` (the entries of `A = J M⁻¹ Jᵀ`).
    pub fn weighted_dot(&self, other: &SparseRow, w: &[f64]) -> f64 {
        let mut s = 0.0;
        for (i, a) in self.entries() {
            for (j, b) in other.entries() {
                if i == j {
                    s += a * b * w[*i];
                }
            }
        }
        s
    }
}

/// A constraint evaluated at one state.
#[derive(Clone, Copy, Debug, Default)]
pub struct RowEval {
    /// `g_k(q)`.
    pub g: f64,
    /// `J_k = ∂g_k/∂q`.
    pub row: SparseRow,
    /// `J̇_k q̇`.
    pub jd_qd: f64,
}

impl RowEval {
    /// Baumgarte's right-hand side, eq. (5): `d_k = −J̇_k q̇ − (2/τ) J_k q̇ − g_k/τ²`.
    pub fn baumgarte_d(&self, qd: &[f64], tau: f64) -> f64 {
        -self.jd_qd - 2.0 / tau * self.row.dot(qd) - self.g / (tau * tau)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::body::BodyKind;
    use crate::curve::Curve;

    fn body(kind: BodyKind, radius: f64, offset: usize) -> Body {
        Body {
            name: "b".into(),
            kind,
            mass: 1.0,
            radius,
            force: Vector2::zeros(),
            damping: 0.0,
            user_force: Vector2::zeros(),
            user_torque: 0.0,
            offset,
        }
    }

    /// `J` is the gradient of `g` and `J̇q̇` the second time derivative of `g`
    /// at constant `q̈ = 0`, both checked by finite differences along a trajectory.
    #[test]
    fn rows_and_velocity_terms_match_finite_differences() {
        let bodies = vec![
            body(BodyKind::Particle, 0.1, 0),
            body(BodyKind::Bead(Curve::Cycloid { origin: (0.0, 0.0), r: 0.5 }), 0.05, 2),
            body(BodyKind::Fixed { position: (1.0, 2.0) }, 0.2, 0),
        ];
        let geoms = [
            (
                ConstraintKind::Inequality,
                Geometry::HalfPlane { body: 1, normal: Vector2::new(0.3, -1.2), offset: 0.1, at: Vector2::zeros() },
            ),
            (ConstraintKind::Inequality, Geometry::Contact { a: 0, b: 1 }),
            (ConstraintKind::Inequality, Geometry::Contact { a: 1, b: 2 }),
            (
                ConstraintKind::Equality,
                Geometry::Distance { a: 0, b: 2, length: 1.0, at_a: Vector2::zeros(), at_b: Vector2::zeros() },
            ),
            (
                ConstraintKind::Inequality,
                Geometry::Distance { a: 1, b: 0, length: 1.0, at_a: Vector2::zeros(), at_b: Vector2::zeros() },
            ),
            (ConstraintKind::Inequality, Geometry::CoordBound { body: 1, coord: 0, value: 0.2, upper: true }),
        ];
        let q0 = [0.3, -0.4, 0.7];
        let qd = [0.8, 0.5, -1.1];
        // Trajectory with q̈ = 0: q(t) = q0 + t q̇.
        let at = |t: f64| -> Vec<f64> { q0.iter().zip(&qd).map(|(a, b)| a + t * b).collect() };
        let e = 1e-4;
        for (kind, geometry) in geoms {
            let c = Constraint { name: "c".into(), kind, geometry, restitution: None, friction: 0.0, rolling: 0.0 };
            let ev = c.eval(&bodies, &q0, &qd);
            let g = |t: f64| c.eval(&bodies, &at(t), &qd).g;
            let gdot = (g(e) - g(-e)) / (2.0 * e);
            let gddot = (g(e) - 2.0 * g(0.0) + g(-e)) / (e * e);
            assert!((gdot - ev.row.dot(&qd)).abs() < 1e-6, "{:?}: J q̇", c.geometry);
            assert!((gddot - ev.jd_qd).abs() < 1e-4, "{:?}: J̇ q̇ {gddot} vs {}", c.geometry, ev.jd_qd);
        }
    }

    /// The same on points fixed on bodies that turn: half-planes, rods and
    /// pins at `at`, and a corner against an edge whose normal turns with its
    /// body (eq. 4's terms with θ̇²), for two velocities each.
    #[test]
    fn rows_on_bodies_that_turn_match_finite_differences() {
        let rigid = |offset: usize| {
            let shape = crate::shapes::Shape::Box { size: (0.6, 0.2) };
            body(BodyKind::Rigid { inertia: 0.5, shape }, 0.0, offset)
        };
        let bodies = vec![rigid(0), rigid(3), body(BodyKind::Fixed { position: (0.2, -0.3) }, 0.0, 0)];
        let (ra, rb) = (Vector2::new(0.3, -0.1), Vector2::new(-0.25, 0.1));
        let geoms = [
            (
                ConstraintKind::Inequality,
                Geometry::HalfPlane { body: 0, normal: Vector2::new(0.3, -1.2), offset: 0.1, at: ra },
            ),
            (ConstraintKind::Equality, Geometry::Distance { a: 0, b: 1, length: 1.0, at_a: ra, at_b: rb }),
            (ConstraintKind::Equality, Geometry::Pin { a: 0, b: 1, at_a: ra, at_b: rb, axis: 0 }),
            (ConstraintKind::Equality, Geometry::Pin { a: 0, b: 2, at_a: ra, at_b: Vector2::zeros(), axis: 1 }),
            (
                ConstraintKind::Inequality,
                Geometry::CornerEdge { a: 0, at: ra, b: 1, normal: Vector2::new(0.6, 0.8), offset: 0.1, ends: None },
            ),
            (
                ConstraintKind::Inequality,
                Geometry::CornerEdge { a: 1, at: rb, b: 0, normal: Vector2::new(0.0, 1.0), offset: 0.1, ends: None },
            ),
        ];
        let q0 = [0.3, -0.4, 0.7, 1.1, 0.2, -2.0];
        for qd in [[0.8, 0.5, -1.1, -0.3, 0.9, 2.5], [-0.2, 0.1, 3.0, 0.4, -0.7, -1.3]] {
            let at = |t: f64| -> Vec<f64> { q0.iter().zip(&qd).map(|(a, b)| a + t * b).collect() };
            let e = 1e-4;
            for (kind, geometry) in &geoms {
                let c = Constraint {
                    name: "c".into(),
                    kind: *kind,
                    geometry: geometry.clone(),
                    restitution: None,
                    friction: 0.0,
                    rolling: 0.0,
                };
                let ev = c.eval(&bodies, &q0, &qd);
                let g = |t: f64| c.eval(&bodies, &at(t), &qd).g;
                let gdot = (g(e) - g(-e)) / (2.0 * e);
                let gddot = (g(e) - 2.0 * g(0.0) + g(-e)) / (e * e);
                assert!((gdot - ev.row.dot(&qd)).abs() < 1e-6, "{:?}: J q̇ {gdot} vs {}", c.geometry, ev.row.dot(&qd));
                assert!((gddot - ev.jd_qd).abs() < 1e-4, "{:?}: J̇ q̇ {gddot} vs {}", c.geometry, ev.jd_qd);
            }
        }
    }

    #[test]
    fn wedge_rows_are_the_papers_eq_10() {
        let bodies = vec![body(BodyKind::Particle, 0.0, 0)];
        let g1 = Constraint {
            name: "g1".into(),
            kind: ConstraintKind::Inequality,
            geometry: Geometry::HalfPlane {
                body: 0,
                normal: Vector2::new(1.0, -1.0),
                offset: 0.0,
                at: Vector2::zeros(),
            },
            restitution: None,
            friction: 0.0,
            rolling: 0.0,
        };
        let ev = g1.eval(&bodies, &[0.5, 0.2], &[0.0, 0.0]);
        assert_eq!(ev.row.entries(), &[(0, 1.0), (1, -1.0)]);
        assert!((ev.g - 0.3).abs() < 1e-15);
    }
}
