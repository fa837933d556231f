//! Shapes of bodies that turn ([`crate::BodyKind::Rigid`]), in the body's
//! frame: a disc, a box, a convex polygon. A shape gives the body its mass
//! distribution (uniform density) and the points contacts are written on.
//!
//! | shape   | given                          | area `A`         | inertia about the centroid, per kg |
//! |---------|--------------------------------|------------------|------------------------------------|
//! | disc    | radius `r`                     | `π r²`           | `r²/2`                             |
//! | box     | size `(w, h)`, centred         | `w h`            | `(w² + h²)/12`                     |
//! | polygon | vertices `v_i`, counterclockwise | `½ Σ c_i`      | `Σ c_i (v_i·v_i + v_i·v_j + v_j·v_j) / (6 Σ c_i) − \|c\|²` |
//!
//! with `j = i + 1` (cyclic), `c_i = v_i × v_j`, and the polygon's centroid
//! `c = Σ c_i (v_i + v_j) / (3 Σ c_i)`: the body's point is its centroid, so
//! a polygon's vertices are taken relative to it ([`Shape::centred`]).

use nalgebra::Vector2;
use serde::{Deserialize, Serialize};

mod disc_polygon;
mod polygon;
mod polygon_polygon;

pub use disc_polygon::{DiscFeature, disc_feature};
pub use polygon::edge_frame;
pub(crate) use polygon::outermost_edge;
use polygon::{check_polygon, cross, edges};
pub use polygon_polygon::{CornerOnEdge, centre_of, corners_on_edges, in_front_of};

/// The shape of a body that turns, in its frame.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Shape {
    Disc {
        radius: f64,
    },
    /// A box of width `size.0` and height `size.1`, centred on the body's point.
    Box {
        size: (f64, f64),
    },
    /// A convex polygon, counterclockwise, at least three vertices.
    Polygon {
        vertices: Vec<Vector2<f64>>,
    },
}

impl Shape {
    /// Why the shape cannot be a body, in words naming the field, if it cannot.
    pub fn check(&self) -> Result<(), String> {
        let positive = |v: f64| v.is_finite() && v > 0.0;
        match self {
            Shape::Disc { radius } if !positive(*radius) => Err(format!("radius must be positive, not {radius}")),
            Shape::Box { size: (w, h) } if !positive(*w) || !positive(*h) => {
                Err(format!("size must be positive in both directions, not ({w}, {h})"))
            }
            Shape::Polygon { vertices } => check_polygon(vertices),
            _ => Ok(()),
        }
    }

    /// The area, in m².
    pub fn area(&self) -> f64 {
        match self {
            Shape::Disc { radius } => std::f64::consts::PI * radius * radius,
            Shape::Box { size: (w, h) } => w * h,
            Shape::Polygon { vertices } => 0.5 * edges(vertices).map(|(a, b)| cross(a, b)).sum::<f64>(),
        }
    }

    /// The centroid in the frame the shape is given in.
    pub fn centroid(&self) -> Vector2<f64> {
        match self {
            Shape::Disc { .. } | Shape::Box { .. } => Vector2::zeros(),
            Shape::Polygon { vertices } => {
                let twice: f64 = edges(vertices).map(|(a, b)| cross(a, b)).sum();
                edges(vertices).map(|(a, b)| (a + b) * cross(a, b)).sum::<Vector2<f64>>() / (3.0 * twice)
            }
        }
    }

    /// The moment of inertia about the centroid of one kilogram of the shape
    /// at uniform density, in m² (see the module docs).
    pub fn inertia_per_kg(&self) -> f64 {
        match self {
            Shape::Disc { radius } => 0.5 * radius * radius,
            Shape::Box { size: (w, h) } => (w * w + h * h) / 12.0,
            Shape::Polygon { vertices } => {
                let twice: f64 = edges(vertices).map(|(a, b)| cross(a, b)).sum();
                let about_origin: f64 =
                    edges(vertices).map(|(a, b)| cross(a, b) * (a.dot(&a) + a.dot(&b) + b.dot(&b))).sum::<f64>()
                        / (6.0 * twice);
                about_origin - self.centroid().norm_squared()
            }
        }
    }

    /// The same shape with its centroid at the origin of its frame.
    pub fn centred(&self) -> Shape {
        match self {
            Shape::Polygon { vertices } => {
                let c = self.centroid();
                Shape::Polygon { vertices: vertices.iter().map(|v| v - c).collect() }
            }
            other => other.clone(),
        }
    }

    /// The radius of the largest circle about the centroid inside the shape
    /// (its frame centred: [`Shape::centred`]).
    pub fn inradius(&self) -> f64 {
        match self {
            Shape::Disc { radius } => *radius,
            Shape::Box { size: (w, h) } => 0.5 * w.min(*h),
            Shape::Polygon { vertices } => {
                edges(vertices).map(|(a, b)| cross(a, b).abs() / (b - a).norm()).fold(f64::INFINITY, f64::min)
            }
        }
    }

    /// The corners, counterclockwise (none for a disc): the points a wall
    /// holds a box or a polygon by.
    pub fn corners(&self) -> Vec<Vector2<f64>> {
        match self {
            Shape::Disc { .. } => Vec::new(),
            Shape::Box { size: (w, h) } => {
                let (x, y) = (0.5 * w, 0.5 * h);
                vec![Vector2::new(-x, -y), Vector2::new(x, -y), Vector2::new(x, y), Vector2::new(-x, y)]
            }
            Shape::Polygon { vertices } => vertices.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;

    fn polygon(v: &[(f64, f64)]) -> Shape {
        Shape::Polygon { vertices: v.iter().map(|&(x, y)| Vector2::new(x, y)).collect() }
    }

    /// A box written as a polygon, off the origin, has the box's area and
    /// inertia, and its centroid where the box's centre is.
    #[test]
    fn a_box_as_a_polygon_is_the_box() {
        let (w, h) = (0.8, 0.3);
        let b = Shape::Box { size: (w, h) };
        let p = polygon(&[(1.0, 2.0), (1.0 + w, 2.0), (1.0 + w, 2.0 + h), (1.0, 2.0 + h)]);
        assert_relative_eq!(p.area(), b.area(), max_relative = 1e-14);
        assert_relative_eq!(p.centroid(), Vector2::new(1.0 + w / 2.0, 2.0 + h / 2.0), max_relative = 1e-14);
        assert_relative_eq!(p.inertia_per_kg(), (w * w + h * h) / 12.0, max_relative = 1e-12);
        assert_relative_eq!(p.centred().centroid().norm(), 0.0, epsilon = 1e-15);
        assert_eq!(b.corners().len(), 4);
    }

    /// A right triangle with legs a and b: centroid (a/3, b/3), inertia about
    /// it (a² + b²)/18 per kg.
    #[test]
    fn a_right_triangle_has_its_closed_forms() {
        let (a, b) = (0.6, 0.9);
        let t = polygon(&[(0.0, 0.0), (a, 0.0), (0.0, b)]);
        assert_relative_eq!(t.area(), a * b / 2.0, max_relative = 1e-14);
        assert_relative_eq!(t.centroid(), Vector2::new(a / 3.0, b / 3.0), max_relative = 1e-14);
        assert_relative_eq!(t.inertia_per_kg(), (a * a + b * b) / 18.0, max_relative = 1e-12);
        // About the centroid the nearest side is the hypotenuse, at a third of
        // the height to it, a b / (3 √(a² + b²)) (the legs are at a/3 and b/3).
        assert_relative_eq!(t.centred().inradius(), a * b / (3.0 * (a * a + b * b).sqrt()), max_relative = 1e-12);
    }

    /// A regular polygon of many sides tends to the disc it is inscribed in.
    #[test]
    fn a_regular_polygon_of_many_sides_is_nearly_a_disc() {
        let (r, n) = (0.25, 720);
        let v: Vec<(f64, f64)> = (0..n)
            .map(|i| {
                let a = std::f64::consts::TAU * i as f64 / n as f64;
                (r * a.cos(), r * a.sin())
            })
            .collect();
        let p = polygon(&v);
        let disc = Shape::Disc { radius: r };
        assert_relative_eq!(p.area(), disc.area(), max_relative = 1e-4);
        assert_relative_eq!(p.inertia_per_kg(), disc.inertia_per_kg(), max_relative = 1e-4);
    }

    /// What cannot be a body says what is wrong and where.
    #[test]
    fn bad_shapes_are_refused_with_the_field() {
        let err = |s: Shape| s.check().expect_err("refused");
        assert!(err(polygon(&[(0.0, 0.0), (1.0, 0.0)])).contains("at least three"));
        assert!(err(polygon(&[(0.0, 0.0), (0.0, 1.0), (1.0, 0.0)])).contains("counterclockwise"));
        let dart = polygon(&[(0.0, 0.0), (2.0, 0.0), (1.0, 0.3), (1.0, 2.0)]);
        assert!(err(dart).contains("vertices[2]"));
        let straight = polygon(&[(0.0, 0.0), (1.0, 0.0), (2.0, 0.0), (1.0, 1.0)]);
        assert!(err(straight).contains("vertices[1]"));
        assert!(err(Shape::Box { size: (0.0, 1.0) }).contains("size"));
        assert!(err(Shape::Disc { radius: -1.0 }).contains("radius"));
        assert!(polygon(&[(0.0, 0.0), (1.0, 0.0), (0.0, 1.0)]).check().is_ok());
    }
}
