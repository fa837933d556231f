//! Disc against polygon: the feature of the polygon nearest to the disc's
//! centre, which a contact row is written on.
//!
//! For a convex polygon and a centre `c` outside it, the nearest point is on
//! the edge `k` whose line `c` is farthest outside of when `c` projects
//! onto that edge between its ends; otherwise it is a corner. So a disc of
//! radius `r` touches
//!
//! ```text
//! an edge:   g = n_k·(c − v_k) − r ≥ 0        (CornerEdge, with the centre as the corner)
//! a corner:  g = |c − v_j| − r ≥ 0            (PointClearance: no direction but c − v_j)
//! ```
//!
//! The two agree where they meet (the corner's normal is the edge's there),
//! so a disc rolling over a corner passes from one row to the other with `g`
//! and `J` continuous. A centre inside the polygon (deep overlap) takes the
//! edge it is nearest to, so the row pushes it out the short way.

use nalgebra::Vector2;

use super::polygon::outermost_edge;

/// The polygon's feature nearest a disc's centre, and the gap to it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum DiscFeature {
    /// Edge `k`; `gap`: the centre's distance outside its line minus the radius.
    Edge { edge: usize, gap: f64 },
    /// Corner `k`; `gap`: the centre's distance to it minus the radius.
    Corner { corner: usize, gap: f64 },
}

impl DiscFeature {
    pub fn gap(&self) -> f64 {
        match *self {
            DiscFeature::Edge { gap, .. } | DiscFeature::Corner { gap, .. } => gap,
        }
    }
}

/// The feature of the convex polygon `corners` (world, counterclockwise)
/// nearest the centre `c` of a disc of radius `r`.
pub fn disc_feature(corners: &[Vector2<f64>], c: Vector2<f64>, r: f64) -> Option<DiscFeature> {
    let (edge, (_, outside, along, len)) = outermost_edge(corners, c)?;
    if outside <= 0.0 || (0.0..=len).contains(&along) {
        return Some(DiscFeature::Edge { edge, gap: outside - r });
    }
    let (corner, d) =
        corners.iter().enumerate().map(|(k, v)| (k, (c - v).norm())).min_by(|x, y| x.1.total_cmp(&y.1))?;
    Some(DiscFeature::Corner { corner, gap: d - r })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit_square() -> Vec<Vector2<f64>> {
        [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)].iter().map(|&(x, y)| Vector2::new(x, y)).collect()
    }

    /// Above the top edge: the edge; beyond a corner: the corner, with the
    /// Euclidean gap; the two gaps agree on the boundary between them.
    #[test]
    fn the_nearest_feature_is_an_edge_or_a_corner() {
        let sq = unit_square();
        let Some(DiscFeature::Edge { edge: 2, gap }) = disc_feature(&sq, Vector2::new(0.5, 1.3), 0.1) else {
            panic!("the top edge")
        };
        assert!((gap - 0.2).abs() < 1e-15);
        let Some(DiscFeature::Corner { corner, gap }) = disc_feature(&sq, Vector2::new(1.3, 1.4), 0.1) else {
            panic!("a corner")
        };
        assert_eq!(corner, 2);
        assert!((gap - (0.5 - 0.1)).abs() < 1e-15);
        let edge = disc_feature(&sq, Vector2::new(1.0 - 1e-12, 1.2), 0.1).unwrap();
        let corner = disc_feature(&sq, Vector2::new(1.0 + 1e-12, 1.2), 0.1).unwrap();
        assert!(
            matches!(edge, DiscFeature::Edge { edge: 2, .. })
                && matches!(corner, DiscFeature::Corner { corner: 2, .. })
        );
        assert!((edge.gap() - corner.gap()).abs() < 1e-11);
    }

    /// A centre inside takes the nearest edge, with a negative gap.
    #[test]
    fn a_centre_inside_takes_the_nearest_edge() {
        let Some(DiscFeature::Edge { edge: 1, gap }) = disc_feature(&unit_square(), Vector2::new(0.9, 0.5), 0.2) else {
            panic!("the right edge")
        };
        assert!((gap + 0.3).abs() < 1e-15);
    }
}
