//! Bodies and the generalized coordinates they contribute.
//!
//! Constraints are written on points of bodies: a body's own point (a
//! particle, a ball, a bead, an anchor, the centroid of a body that turns) or
//! a point fixed on it at `r̄` in its frame. They only need the point's
//! kinematics:
//!
//! ```text
//! p = p(q_b)            position of the point
//! P = ∂p/∂q_b           2 × k Jacobian over the body's k coordinates
//! ṗ = P q̇_b             velocity
//! p̈ = P q̈_b + Ṗ q̇_b     acceleration; Ṗ q̇_b is `bias` below
//! ```
//!
//! | body     | coordinates | point at `r̄`        | `P`              | `Ṗ q̇`        | mass matrix block |
//! |----------|-------------|---------------------|------------------|--------------|-------------------|
//! | particle | (x, y)      | (x, y) + r̄          | I₂               | 0            | m I₂              |
//! | bead     | u           | c(u) + r̄            | c'(u)            | c''(u) u̇²    | m \|c'(u)\|²      |
//! | rigid    | (x, y, θ)   | (x, y) + R(θ) r̄     | [I₂ \| R'(θ) r̄] | −θ̇² R(θ) r̄   | diag(m, m, I)     |
//! | fixed    | none        | position + r̄        | —                | 0            | —                 |
//! | fixed shape | none     | position + R(α) r̄   | —                | 0            | —                 |
//!
//! For a body that turns, `R'(θ) r̄ = ⊥(R(θ) r̄)` (the quarter turn
//! counterclockwise), so a force `F` at the point gives the torque
//! `(R r̄) × F` on θ; its point is its centroid, where gravity acts, and
//! `I` is its inertia about it.

use nalgebra::Vector2;
use serde::{Deserialize, Serialize};

use crate::curve::Curve;
use crate::shapes::Shape;

/// What kind of body, and therefore which generalized coordinates it has.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum BodyKind {
    /// A particle or a ball moving freely in the plane: coordinates (x, y).
    Particle,
    /// A bead threaded on a curve: one coordinate u.
    Bead(Curve),
    /// A body that never moves (an anchor, a fixed ball): no coordinates.
    Fixed { position: (f64, f64) },
    /// A body that turns: coordinates (x, y, θ) of its centroid and its
    /// angle (counterclockwise, radians), `inertia` about the centroid in
    /// kg·m², and its shape around the centroid (walls hold it by its
    /// corners, a disc by its radius).
    Rigid { inertia: f64, shape: Shape },
    /// A shape that never moves (a step, a ramp, a post): no coordinates;
    /// its centroid at `position`, turned by `angle`.
    FixedShape { position: (f64, f64), angle: f64, shape: Shape },
}

/// One body of the model.
#[derive(Clone, Debug, PartialEq)]
pub struct Body {
    pub name: String,
    pub kind: BodyKind,
    /// Mass in kg (ignored for fixed bodies).
    pub mass: f64,
    /// Radius in m (0 for a particle or bead).
    pub radius: f64,
    /// Constant external force in N.
    pub force: Vector2<f64>,
    /// Linear damping rate γ in 1/s: the force is `−m γ ṗ` (the billiard cloth).
    pub damping: f64,
    /// The force a user applies (the mouse spring), in N; zero unless written.
    pub user_force: Vector2<f64>,
    /// The torque about the centroid of a body that turns that the user's
    /// forces apply away from it (a spring grabbed at a corner), in N·m.
    pub user_torque: f64,
    /// Index of the body's first coordinate in `q`.
    pub offset: usize,
}

impl Body {
    /// Number of generalized coordinates the body owns.
    pub fn dofs(&self) -> usize {
        match self.kind {
            BodyKind::Particle => 2,
            BodyKind::Bead(_) => 1,
            BodyKind::Fixed { .. } | BodyKind::FixedShape { .. } => 0,
            BodyKind::Rigid { .. } => 3,
        }
    }

    /// Names of the body's coordinates, as used in CSV headers (`BODY.COORD`).
    pub fn coord_names(&self) -> &'static [&'static str] {
        match self.kind {
            BodyKind::Particle => &["x", "y"],
            BodyKind::Bead(_) => &["u"],
            BodyKind::Fixed { .. } | BodyKind::FixedShape { .. } => &[],
            BodyKind::Rigid { .. } => &["x", "y", "theta"],
        }
    }

    /// The body's angle and angular velocity (0 for a body that does not turn).
    pub fn angle(&self, q: &[f64], qd: &[f64]) -> (f64, f64) {
        match self.kind {
            BodyKind::Rigid { .. } => (q[self.offset + 2], qd[self.offset + 2]),
            BodyKind::FixedShape { angle, .. } => (angle, 0.0),
            _ => (0.0, 0.0),
        }
    }

    /// The body's shape, if it has one (a body that turns, a fixed shape).
    pub fn shape(&self) -> Option<&Shape> {
        match &self.kind {
            BodyKind::Rigid { shape, .. } | BodyKind::FixedShape { shape, .. } => Some(shape),
            _ => None,
        }
    }

    /// How far the body's material reaches from its point: the farthest
    /// corner of a shape, a round body's radius (0 for a particle or a bead).
    pub fn reach(&self) -> f64 {
        match self.shape() {
            Some(Shape::Disc { radius }) => *radius,
            Some(shape) => shape.corners().iter().map(|c| c.norm()).fold(self.radius, f64::max),
            None => self.radius,
        }
    }

    /// A bound on the speed of any material point of the body: `|v| + |ω| R`
    /// with `R` its [`Body::reach`] (a corner of a turning box moves at
    /// `|ω| R` even when its centroid is still).
    pub fn sweep_speed(&self, q: &[f64], qd: &[f64]) -> f64 {
        let (_, omega) = self.angle(q, qd);
        self.kinematics(q, qd).v.norm() + omega.abs() * self.reach()
    }

    /// The index of the body's angle in `q`, if it turns.
    pub fn angle_column(&self) -> Option<usize> {
        matches!(self.kind, BodyKind::Rigid { .. }).then_some(self.offset + 2)
    }

    /// Whether a user's force or torque acts on the body (a mouse spring).
    pub fn is_pushed(&self) -> bool {
        self.user_force.x != 0.0 || self.user_force.y != 0.0 || self.user_torque != 0.0
    }

    /// Whether the body has coordinates at all.
    pub fn is_dynamic(&self) -> bool {
        self.dofs() > 0
    }

    /// The point kinematics of the body's own point at `(q, q̇)`.
    pub fn kinematics(&self, q: &[f64], qd: &[f64]) -> PointKin {
        self.kinematics_at(Vector2::zeros(), q, qd)
    }

    /// The kinematics of the point fixed on the body at `at`, in the body's
    /// frame (see the module docs; a body that does not turn carries it along).
    pub fn kinematics_at(&self, at: Vector2<f64>, q: &[f64], qd: &[f64]) -> PointKin {
        let o = self.offset;
        let none = (0, Vector2::zeros());
        match &self.kind {
            BodyKind::Particle => PointKin {
                p: Vector2::new(q[o], q[o + 1]) + at,
                v: Vector2::new(qd[o], qd[o + 1]),
                cols: [(o, Vector2::new(1.0, 0.0)), (o + 1, Vector2::new(0.0, 1.0)), none],
                ncols: 2,
                bias: Vector2::zeros(),
            },
            BodyKind::Bead(c) => {
                let (u, ud) = (q[o], qd[o]);
                let t = c.d1(u);
                PointKin {
                    p: c.point(u) + at,
                    v: t * ud,
                    cols: [(o, t), none, none],
                    ncols: 1,
                    bias: c.d2(u) * ud * ud,
                }
            }
            BodyKind::Fixed { position } => PointKin {
                p: Vector2::new(position.0, position.1) + at,
                v: Vector2::zeros(),
                cols: [none, none, none],
                ncols: 0,
                bias: Vector2::zeros(),
            },
            BodyKind::FixedShape { position, angle, .. } => PointKin {
                p: Vector2::new(position.0, position.1) + turned(*angle, at),
                v: Vector2::zeros(),
                cols: [none, none, none],
                ncols: 0,
                bias: Vector2::zeros(),
            },
            BodyKind::Rigid { .. } => {
                let (theta, omega) = (q[o + 2], qd[o + 2]);
                // R(θ) r̄ and R'(θ) r̄ = ⊥(R(θ) r̄).
                let r = turned(theta, at);
                let turn = Vector2::new(-r.y, r.x);
                PointKin {
                    p: Vector2::new(q[o], q[o + 1]) + r,
                    v: Vector2::new(qd[o], qd[o + 1]) + turn * omega,
                    cols: [(o, Vector2::new(1.0, 0.0)), (o + 1, Vector2::new(0.0, 1.0)), (o + 2, turn)],
                    // The centroid does not move with θ: its rows keep two columns.
                    ncols: if at == Vector2::zeros() { 2 } else { 3 },
                    bias: -r * (omega * omega),
                }
            }
        }
    }

    /// The points walls hold the body by, in its frame: the corners of a box
    /// or a polygon; its own point for every other body (with its radius).
    pub fn wall_points(&self) -> Vec<Vector2<f64>> {
        match self.shape() {
            Some(shape) if !shape.corners().is_empty() => shape.corners(),
            _ => vec![Vector2::zeros()],
        }
    }

    /// Diagonal of the body's mass matrix block (M is diagonal for every body kind here).
    pub fn mass_diag(&self, q: &[f64]) -> [f64; 3] {
        match &self.kind {
            BodyKind::Particle => [self.mass, self.mass, 0.0],
            BodyKind::Bead(c) => [self.mass * c.d1(q[self.offset]).norm_squared(), 0.0, 0.0],
            BodyKind::Fixed { .. } | BodyKind::FixedShape { .. } => [0.0; 3],
            BodyKind::Rigid { inertia, .. } => [self.mass, self.mass, *inertia],
        }
    }
}

/// `R(θ) v`: `v` turned by `θ` counterclockwise (a body's frame to the world).
pub fn turned(theta: f64, v: Vector2<f64>) -> Vector2<f64> {
    let (s, c) = theta.sin_cos();
    Vector2::new(c * v.x - s * v.y, s * v.x + c * v.y)
}

/// Kinematics of a body's point: `p`, `ṗ`, the Jacobian columns `∂p/∂q_i` and `Ṗ q̇`.
#[derive(Clone, Copy, Debug)]
pub struct PointKin {
    pub p: Vector2<f64>,
    pub v: Vector2<f64>,
    /// `(i, ∂p/∂q_i)` for the first `ncols` entries.
    pub cols: [(usize, Vector2<f64>); 3],
    pub ncols: usize,
    /// `Ṗ q̇`, the part of the acceleration that does not depend on `q̈`.
    pub bias: Vector2<f64>,
}

impl PointKin {
    /// The Jacobian columns actually used.
    pub fn columns(&self) -> &[(usize, Vector2<f64>)] {
        &self.cols[..self.ncols]
    }
}
