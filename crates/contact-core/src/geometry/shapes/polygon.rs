//! Convex polygons, counterclockwise: edges, the checks a body's polygon
//! passes, and the edge a point is in front of.
//!
//! Edge `k` runs from `v_k` to `v_{k+1}` (cyclic); its outward unit normal is
//! `n_k = (t_y, −t_x)` with `t` its unit direction (counterclockwise order
//! puts the inside on the left), and a point `p` is `n_k·(p − v_k)` outside
//! its line, `t·(p − v_k)` along it.

use nalgebra::Vector2;

/// `a × b`, the z component.
pub(crate) fn cross(a: Vector2<f64>, b: Vector2<f64>) -> f64 {
    a.x * b.y - a.y * b.x
}

/// Each edge `(v_i, v_{i+1})`, the last closing the polygon.
pub(crate) fn edges(v: &[Vector2<f64>]) -> impl Iterator<Item = (Vector2<f64>, Vector2<f64>)> + '_ {
    (0..v.len()).map(move |i| (v[i], v[(i + 1) % v.len()]))
}

/// A polygon a body can have: at least three finite vertices, each corner
/// turning left (convex, counterclockwise, no two vertices on one line with
/// a third, no repeated vertex).
pub(super) fn check_polygon(v: &[Vector2<f64>]) -> Result<(), String> {
    if v.len() < 3 {
        return Err(format!("vertices: a polygon needs at least three, not {}", v.len()));
    }
    if let Some(i) = v.iter().position(|p| !p.x.is_finite() || !p.y.is_finite()) {
        return Err(format!("vertices[{i}] is not a finite point"));
    }
    let area: f64 = edges(v).map(|(a, b)| cross(a, b)).sum();
    if area <= 0.0 {
        return Err("vertices must go counterclockwise (they go clockwise, or enclose no area)".into());
    }
    let n = v.len();
    let scale = v.iter().map(|p| p.norm()).fold(0.0, f64::max);
    for i in 0..n {
        let (a, b, c) = (v[(i + n - 1) % n], v[i], v[(i + 1) % n]);
        // The turn at b, relative to its edges' lengths: zero on a straight line.
        let turn = cross(b - a, c - b);
        if turn <= 1e-12 * scale * scale {
            // Six decimals, round-off as 0 (not −0.0000000000000000409).
            let shown = |x: f64| {
                let x = if x.abs() < 1e-9 * scale { 0.0 } else { x };
                let s = format!("{x:.6}");
                s.trim_end_matches('0').trim_end_matches('.').to_string()
            };
            return Err(format!(
                "vertices[{i}] = ({}, {}): the polygon is not convex there (each corner must turn left)",
                shown(b.x),
                shown(b.y)
            ));
        }
    }
    Ok(())
}

/// Edge `k` of a polygon seen from a point `p`: `(outward unit normal, how
/// far p is outside its line, how far along it p is, its length)`.
pub type EdgeFrame = (Vector2<f64>, f64, f64, f64);

/// Edge `k` of `corners` seen from `p` (`EdgeFrame`).
pub fn edge_frame(corners: &[Vector2<f64>], k: usize, p: Vector2<f64>) -> EdgeFrame {
    let (v0, v1) = (corners[k], corners[(k + 1) % corners.len()]);
    let len = (v1 - v0).norm();
    let t = (v1 - v0) / len;
    let n = Vector2::new(t.y, -t.x);
    (n, n.dot(&(p - v0)), t.dot(&(p - v0)), len)
}

/// The edge of the convex polygon `corners` that `p` is farthest outside
/// of (for a point inside, the edge it is nearest to): its index and
/// [`edge_frame`].
pub(crate) fn outermost_edge(corners: &[Vector2<f64>], p: Vector2<f64>) -> Option<(usize, EdgeFrame)> {
    (0..corners.len()).map(|k| (k, edge_frame(corners, k, p))).max_by(|x, y| x.1.1.total_cmp(&y.1.1))
}
