//! Polygon against polygon: which corners of each are on which edge of the
//! other, the rows [`crate::constraint::Geometry::CornerEdge`] writes
//! `g = n·(p_a − x_b) − c ≥ 0` on.
//!
//! Two convex polygons touch corner against edge: each corner of one that
//! is within `margin` of the line of the edge it is in front of (the edge
//! whose outer side it is farthest on, ties going to an edge with the
//! corner's polygon on its outer side: [`in_front_of`]), and over that edge
//! (between its ends, give or take `margin`), is a row. A face on a face is then its two
//! end corners, one from each polygon or both from one: two rows, and they
//! stay two while the faces are within `margin` of parallel (no flicker
//! between one and two rows). A corner of the second polygon that sits on a
//! corner of the first is left out, the first's row holding it (two
//! stacked boxes of one width: two rows, not four). A corner round the
//! other polygon's corner, clearly outside both of its edges, is a row on
//! each: a corner turning fast within a step may meet either (issue 36).

use nalgebra::Vector2;

use super::polygon::edge_frame;

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
/// polygons' size, for the tolerance of coincident corners; `swept`: the
/// margin is a fast body's sweep (rows round corners too).
pub fn corners_on_edges(
    first: &[Vector2<f64>],
    second: &[Vector2<f64>],
    margin: f64,
    reach: f64,
    swept: bool,
) -> Vec<CornerOnEdge> {
    let tol = 1e-9 * reach;
    let mut out = Vec::new();
    for (is_second, corners, edges, other) in [(false, first, second, None), (true, second, first, Some(first))] {
        let centre = centre_of(corners);
        for (corner, p) in corners.iter().enumerate() {
            if other.is_some_and(|o: &[Vector2<f64>]| o.iter().any(|q| (q - p).norm() <= tol)) {
                continue;
            }
            if let Some(edge) = facing_edge(edges, centre, *p, margin) {
                out.push(CornerOnEdge { second: is_second, corner, edge });
                // Round a corner of the other polygon, outside both its
                // edges, when `margin` is a fast body's sweep: a row on each,
                // so a corner that turns fast round that corner within a
                // step meets the edge it reaches.
                for k in (0..edges.len()).filter(|&k| swept && k != edge) {
                    let (_, gap, along, len) = edge_frame(edges, k, *p);
                    if gap > 1e-3 * margin && gap <= margin && along >= -margin && along <= len + margin {
                        out.push(CornerOnEdge { second: is_second, corner, edge: k });
                    }
                }
            }
        }
    }
    out
}

/// The mean of a convex polygon's corners: a point inside it.
pub fn centre_of(corners: &[Vector2<f64>]) -> Vector2<f64> {
    corners.iter().sum::<Vector2<f64>>() / corners.len() as f64
}

/// The edge of `corners` that `p` is in front of, if `p` is within `margin`
/// of its line and over it.
fn facing_edge(corners: &[Vector2<f64>], centre: Vector2<f64>, p: Vector2<f64>, margin: f64) -> Option<usize> {
    let k = in_front_of(corners, centre, p, margin)?;
    let (_, gap, along, len) = edge_frame(corners, k, p);
    (gap <= margin && along >= -margin && along <= len + margin).then_some(k)
}

/// The edge of the polygon `corners` that `p`, a corner of a polygon of
/// centre `centre`, is in front of: the one whose line it is farthest
/// outside of; among edges within a thousandth of `margin` of that (a tie: two
/// shapes side by side on a floor have their bottom faces on one line, and a
/// corner pressing into the other's face is on that line too, a hair inside
/// the face), one that has the corner's polygon on its outer side (its
/// centre outside its line), so the face it presses is taken, not the bottom.
pub fn in_front_of(corners: &[Vector2<f64>], centre: Vector2<f64>, p: Vector2<f64>, margin: f64) -> Option<usize> {
    let outside: Vec<f64> = (0..corners.len()).map(|k| edge_frame(corners, k, p).1).collect();
    let best = outside.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let ties = |k: &usize| outside[*k] >= best - 1e-3 * margin;
    let facing = |k: &usize| edge_frame(corners, *k, centre).1 > 0.0;
    let pick = |keep: &dyn Fn(&usize) -> bool| {
        (0..corners.len()).filter(|k| ties(k) && keep(k)).max_by(|x, y| outside[*x].total_cmp(&outside[*y]))
    };
    pick(&facing).or_else(|| pick(&|_| true))
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
        let rows = corners_on_edges(&top, &bottom, 1e-3, 2.0, false);
        assert_eq!(
            rows,
            vec![
                CornerOnEdge { second: false, corner: 0, edge: 2 },
                CornerOnEdge { second: false, corner: 1, edge: 2 }
            ]
        );
        assert!(corners_on_edges(&top, &bottom, 1e-5, 2.0, false).is_empty(), "a gap above the margin is no row");
    }

    /// Tilting the top square by less than the margin allows keeps both rows.
    #[test]
    fn nearly_parallel_faces_keep_both_rows() {
        let bottom = square(0.0, 0.0, 1.0);
        for tilt in [1e-6, 1e-4, 5e-4] {
            let top: Vec<Vector2<f64>> =
                square(0.0, 1.5, 0.5).iter().map(|p| Vector2::new(p.x, p.y + 1e-5 + tilt * (p.x + 0.5))).collect();
            assert_eq!(corners_on_edges(&top, &bottom, 1e-3, 2.0, false).len(), 2, "tilt {tilt}");
        }
    }
}
