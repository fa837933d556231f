//! Planar parametric curves that carry a bead.
//!
//! A bead on a curve has one generalized coordinate `u` and sits at `c(u)`.
//! Its velocity is `c'(u) u̇`, its acceleration `c'(u) ü + c''(u) u̇²`, so with a
//! force `F` the Lagrange equation (1) of the paper reads
//!
//! ```text
//! m |c'(u)|² ü = c'(u)·F − m (c'(u)·c''(u)) u̇²
//! ```
//!
//! The mass "matrix" `m |c'|²` depends on `u` and the second term is the quadratic
//! velocity force that [`crate::Model`] folds into `f`.

use nalgebra::Vector2;
use serde::{Deserialize, Serialize};

/// A planar curve `c(u)`, with its first two derivatives.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Curve {
    /// `c(u) = a + u (b − a)`: `u = 0` at `a`, `u = 1` at `b`.
    Segment { a: (f64, f64), b: (f64, f64) },
    /// `c(u) = center + radius (cos u, sin u)`: `u` is the polar angle in radians
    /// (a bead at the bottom of a circle is at `u = −π/2`).
    CircleArc { center: (f64, f64), radius: f64 },
    /// `c(u) = vertex + (u, k u²)`: `u` is the horizontal offset from the vertex.
    Parabola { vertex: (f64, f64), k: f64 },
    /// The tautochrone `c(u) = origin + r (u + sin u, 1 − cos u)`, `u ∈ [−π, π]`,
    /// lowest at `u = 0`, cusps at `u = ±π`.
    Cycloid { origin: (f64, f64), r: f64 },
}

impl Curve {
    /// The point `c(u)`.
    pub fn point(&self, u: f64) -> Vector2<f64> {
        match *self {
            Curve::Segment { a, b } => v(a) + (v(b) - v(a)) * u,
            Curve::CircleArc { center, radius } => v(center) + radius * Vector2::new(u.cos(), u.sin()),
            Curve::Parabola { vertex, k } => v(vertex) + Vector2::new(u, k * u * u),
            Curve::Cycloid { origin, r } => v(origin) + r * Vector2::new(u + u.sin(), 1.0 - u.cos()),
        }
    }

    /// The tangent `c'(u)`.
    pub fn d1(&self, u: f64) -> Vector2<f64> {
        match *self {
            Curve::Segment { a, b } => v(b) - v(a),
            Curve::CircleArc { radius, .. } => radius * Vector2::new(-u.sin(), u.cos()),
            Curve::Parabola { k, .. } => Vector2::new(1.0, 2.0 * k * u),
            Curve::Cycloid { r, .. } => r * Vector2::new(1.0 + u.cos(), u.sin()),
        }
    }

    /// The second derivative `c''(u)`.
    pub fn d2(&self, u: f64) -> Vector2<f64> {
        match *self {
            Curve::Segment { .. } => Vector2::zeros(),
            Curve::CircleArc { radius, .. } => -radius * Vector2::new(u.cos(), u.sin()),
            Curve::Parabola { k, .. } => Vector2::new(0.0, 2.0 * k),
            Curve::Cycloid { r, .. } => r * Vector2::new(-u.sin(), u.cos()),
        }
    }

    /// A short human name of the curve family (the tests' messages).
    #[cfg(test)]
    fn family(&self) -> &'static str {
        match self {
            Curve::Segment { .. } => "segment",
            Curve::CircleArc { .. } => "circle arc",
            Curve::Parabola { .. } => "parabola",
            Curve::Cycloid { .. } => "cycloid",
        }
    }
}

fn v(p: (f64, f64)) -> Vector2<f64> {
    Vector2::new(p.0, p.1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each analytic derivative agrees with a central difference of the one below.
    #[test]
    fn derivatives_match_finite_differences() {
        let curves = [
            Curve::Segment { a: (0.0, 1.0), b: (2.0, -1.0) },
            Curve::CircleArc { center: (0.5, 0.5), radius: 1.5 },
            Curve::Parabola { vertex: (0.0, -1.0), k: 0.7 },
            Curve::Cycloid { origin: (0.0, 0.0), r: 0.4 },
        ];
        let e = 1e-6;
        for c in &curves {
            for &u in &[-1.3, -0.2, 0.0, 0.4, 2.1] {
                let d1 = (c.point(u + e) - c.point(u - e)) / (2.0 * e);
                let d2 = (c.d1(u + e) - c.d1(u - e)) / (2.0 * e);
                assert!((d1 - c.d1(u)).norm() < 1e-7, "{} c' at {u}", c.family());
                assert!((d2 - c.d2(u)).norm() < 1e-7, "{} c'' at {u}", c.family());
            }
        }
    }
}
