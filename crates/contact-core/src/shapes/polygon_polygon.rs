//! Polygon against polygon: which corners of each are on which edge of the
//! other, the rows [`crate::constraint::Geometry::CornerEdge`] writes
//! `g = n·(p_a − x_b) − c ≥ 0` on.
//!
//! Two convex polygons touch corner against edge: each corner of one that
//! is within `margin` of the line of the edge it is in front of (the edge
//! whose outer side it is farthest on), and over that edge (between its
//! ends, give or take `margin`), is a row. A face on a face is then its two
//! end corners, one from each polygon or both from one: two rows, and they
//! stay two while the faces are within `margin` of parallel (no flicker
//! between one and two rows). A corner of the second polygon that sits on a
//! corner of the first is left out, the first's row holding it (two
//! stacked boxes of one width: two rows, not four).

use nalgebra::Vector2;

use super::polygon::outermost_edge;

/// A corner of one polygon against an edge of the other.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CornerOnEdge {
    /// `false`: a corner of the first polygon on an edge of the second;
    /// `true`: the other way round.
    pub second: bool,
    pub corner: usize,
    pub edge: usize,
}

/// The corner-against-edge contacts of two convex polygons, their corners
/// given in the world (counterclockwise), within `margin`; `reach`: the
/// polygons' size, for the tolerance of coincident corners.
pub fn corners_on_edges(first: &[Vector2<f64>], second: &[Vector2<f64>], margin: f64, reach: f64) -> Vec<CornerOnEdge> {
    let tol = 1e-9 * reach;
    let mut out = Vec::new();
    for (is_second, corners, edges, other) in [(false, first, second, None), (true, second, first, Some(first))] {
        for (corner, p) in corners.iter().enumerate() {
            if other.is_some_and(|o: &[Vector2<f64>]| o.iter().any(|q| (q - p).norm() <= tol)) {
                continue;
            }
            if let Some(edge) = facing_edge(edges, *p, margin) {
                out.push(CornerOnEdge { second: is_second, corner, edge });
            }
        }
    }
    out
}

/// The edge of `corners` that `p` is in front of, if `p` is within `margin`
/// of its line and over it.
fn facing_edge(corners: &[Vector2<f64>], p: Vector2<f64>, margin: f64) -> Option<usize> {
    let (k, (_, gap, along, len)) = outermost_edge(corners, p)?;
    (gap <= margin && along >= -margin && along <= len + margin).then_some(k)
}

/// The edge of the convex polygon `corners` that the point `p` is in front
/// of: the one whose line it is farthest outside of.
pub fn in_front_of(corners: &[Vector2<f64>], p: Vector2<f64>) -> Option<usize> {
    outermost_edge(corners, p).map(|(k, _)| k)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square(cx: f64, cy: f64, half: f64) -> Vec<Vector2<f64>> {
        [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
            .iter()
            .map(|&(x, y)| Vector2::new(cx + half * x, cy + half * y))
            .collect()
    }

    /// A small square resting on a wide one: its two bottom corners on the
    /// wide one's top edge (edge 2), nothing the other way.
    #[test]
    fn a_face_on_a_face_is_two_corner_rows() {
        let (bottom, top) = (square(0.0, 0.0, 1.0), square(0.2, 1.5 + 1e-4, 0.5));
        let rows = corners_on_edges(&top, &bottom, 1e-3, 2.0);
        assert_eq!(
            rows,
            vec![CornerOnEdge { second: false, corner: 0, edge: 2 }, CornerOnEdge { second: false, corner: 1, edge: 2 }]
        );
        assert!(corners_on_edges(&top, &bottom, 1e-5, 2.0).is_empty(), "a gap above the margin is no row");
    }

    /// Tilting the top square by less than the margin allows keeps both rows.
    #[test]
    fn nearly_parallel_faces_keep_both_rows() {
        let bottom = square(0.0, 0.0, 1.0);
        for tilt in [1e-6, 1e-4, 5e-4] {
            let top: Vec<Vector2<f64>> =
                square(0.0, 1.5, 0.5).iter().map(|p| Vector2::new(p.x, p.y + 1e-5 + tilt * (p.x + 0.5))).collect();
            assert_eq!(corners_on_edges(&top, &bottom, 1e-3, 2.0).len(), 2, "tilt {tilt}");
        }
    }
}
