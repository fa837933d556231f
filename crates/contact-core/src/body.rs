//! Bodies and the generalized coordinates they contribute.
//!
//! Every body is a point `p(q)` in the plane (a particle, a ball, a bead, or a
//! fixed anchor). Constraints are written on these points, so they only need the
//! point's kinematics:
//!
//! ```text
//! p = p(q_b)            position of the body's point
//! P = ∂p/∂q_b           2 × k Jacobian over the body's k coordinates
//! ṗ = P q̇_b             velocity
//! p̈ = P q̈_b + Ṗ q̇_b     acceleration; Ṗ q̇_b is `bias` below
//! ```
//!
//! | body     | coordinates | `P`        | `Ṗ q̇`       | mass matrix block |
//! |----------|-------------|------------|-------------|-------------------|
//! | particle | (x, y)      | I₂         | 0           | m I₂              |
//! | bead     | u           | c'(u)      | c''(u) u̇²   | m \|c'(u)\|²      |
//! | fixed    | none        | —          | 0           | —                 |

use nalgebra::Vector2;
use serde::{Deserialize, Serialize};

use crate::curve::Curve;

/// What kind of body, and therefore which generalized coordinates it has.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum BodyKind {
    /// A particle or a ball moving freely in the plane: coordinates (x, y).
    Particle,
    /// A bead threaded on a curve: one coordinate u.
    Bead(Curve),
    /// A body that never moves (an anchor, a fixed ball): no coordinates.
    Fixed { position: (f64, f64) },
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
    /// Index of the body's first coordinate in `q`.
    pub offset: usize,
}

impl Body {
    /// Number of generalized coordinates the body owns.
    pub fn dofs(&self) -> usize {
        match self.kind {
            BodyKind::Particle => 2,
            BodyKind::Bead(_) => 1,
            BodyKind::Fixed { .. } => 0,
        }
    }

    /// Names of the body's coordinates, as used in CSV headers (`BODY.COORD`).
    pub fn coord_names(&self) -> &'static [&'static str] {
        match self.kind {
            BodyKind::Particle => &["x", "y"],
            BodyKind::Bead(_) => &["u"],
            BodyKind::Fixed { .. } => &[],
        }
    }

    /// Whether the body has coordinates at all.
    pub fn is_dynamic(&self) -> bool {
        self.dofs() > 0
    }

    /// The point kinematics of the body at `(q, q̇)`.
    pub fn kinematics(&self, q: &[f64], qd: &[f64]) -> PointKin {
        let o = self.offset;
        match &self.kind {
            BodyKind::Particle => PointKin {
                p: Vector2::new(q[o], q[o + 1]),
                v: Vector2::new(qd[o], qd[o + 1]),
                cols: [(o, Vector2::new(1.0, 0.0)), (o + 1, Vector2::new(0.0, 1.0))],
                ncols: 2,
                bias: Vector2::zeros(),
            },
            BodyKind::Bead(c) => {
                let (u, ud) = (q[o], qd[o]);
                let t = c.d1(u);
                PointKin {
                    p: c.point(u),
                    v: t * ud,
                    cols: [(o, t), (o, Vector2::zeros())],
                    ncols: 1,
                    bias: c.d2(u) * ud * ud,
                }
            }
            BodyKind::Fixed { position } => PointKin {
                p: Vector2::new(position.0, position.1),
                v: Vector2::zeros(),
                cols: [(0, Vector2::zeros()), (0, Vector2::zeros())],
                ncols: 0,
                bias: Vector2::zeros(),
            },
        }
    }

    /// Diagonal of the body's mass matrix block (M is diagonal for every body kind here).
    pub fn mass_diag(&self, q: &[f64]) -> [f64; 2] {
        match &self.kind {
            BodyKind::Particle => [self.mass, self.mass],
            BodyKind::Bead(c) => [self.mass * c.d1(q[self.offset]).norm_squared(), 0.0],
            BodyKind::Fixed { .. } => [0.0, 0.0],
        }
    }
}

/// Kinematics of a body's point: `p`, `ṗ`, the Jacobian columns `∂p/∂q_i` and `Ṗ q̇`.
#[derive(Clone, Copy, Debug)]
pub struct PointKin {
    pub p: Vector2<f64>,
    pub v: Vector2<f64>,
    /// `(i, ∂p/∂q_i)` for the first `ncols` entries.
    pub cols: [(usize, Vector2<f64>); 2],
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
