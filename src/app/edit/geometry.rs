//! The geometry of edit mode's gestures: the bead tool's curves, where a
//! dragged bead lands on its curve, a wall's line, a point outside a polygon.

use bevy::math::DVec2;
use contact_core::Curve;

/// The curve the bead tool threads a bead on (the scene format's curves).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum BeadCurve {
    #[default]
    Segment,
    Circle,
    Parabola,
    Cycloid,
}

impl BeadCurve {
    pub const ALL: [BeadCurve; 4] = [BeadCurve::Segment, BeadCurve::Circle, BeadCurve::Parabola, BeadCurve::Cycloid];

    pub fn label(self) -> &'static str {
        match self {
            BeadCurve::Segment => "segment",
            BeadCurve::Circle => "circle",
            BeadCurve::Parabola => "parabola",
            BeadCurve::Cycloid => "cycloid",
        }
    }

    /// The kind of `curve`.
    pub fn of(curve: &Curve) -> BeadCurve {
        match curve {
            Curve::Segment { .. } => BeadCurve::Segment,
            Curve::CircleArc { .. } => BeadCurve::Circle,
            Curve::Parabola { .. } => BeadCurve::Parabola,
            Curve::Cycloid { .. } => BeadCurve::Cycloid,
        }
    }

    /// The kind whose [`BeadCurve::label`] is `label`.
    pub fn named(label: &str) -> Option<BeadCurve> {
        BeadCurve::ALL.into_iter().find(|k| k.label() == label)
    }
}

/// The bead dragged from `at` (where it starts) to `to`: the curve and its `u`.
/// Segment: from `at` to `to`. Circle: centred on `to`. Parabola and
/// cycloid: lowest at `to`, through `at` (the cycloid's size from the height).
pub fn bead_curve(kind: BeadCurve, at: DVec2, to: DVec2) -> (Curve, f64) {
    let p = |v: DVec2| (v.x, v.y);
    let d = at - to;
    match kind {
        BeadCurve::Segment => (Curve::Segment { a: p(at), b: p(to) }, 0.0),
        BeadCurve::Circle => (Curve::CircleArc { center: p(to), radius: d.length() }, d.y.atan2(d.x)),
        BeadCurve::Parabola => {
            let k = if d.x.abs() > 1e-9 { d.y / (d.x * d.x) } else { 1.0 };
            (Curve::Parabola { vertex: p(to), k }, d.x)
        }
        BeadCurve::Cycloid => {
            // Height 2r at the cusps: r from the start's height (or its offset).
            let r = (d.y.abs().max(d.x.abs() / std::f64::consts::PI) / 2.0).max(1e-3);
            // u + sin u = dx / r, solved by Newton within (−π, π).
            let target = (d.x / r).clamp(-std::f64::consts::PI, std::f64::consts::PI);
            let mut u = target / 2.0;
            for _ in 0..50 {
                let g = u + u.sin() - target;
                let dg = 1.0 + u.cos();
                if dg.abs() < 1e-12 {
                    break;
                }
                u = (u - g / dg).clamp(-3.1, 3.1);
            }
            (Curve::Cycloid { origin: p(to), r }, u)
        }
    }
}

/// The line `n·p = offset` of a wall or a half-plane, as a point on it and
/// its unit normal; `None` for a zero normal.
pub(super) fn wall_line(normal: (f64, f64), offset: f64) -> Option<(DVec2, DVec2)> {
    let n = DVec2::new(normal.0, normal.1);
    let len = n.length();
    (len > 0.0).then(|| (n * offset / (len * len), n / len))
}

/// How far `w` is outside the convex polygon `corners` (counterclockwise):
/// negative inside, the distance to the farthest edge's line outside.
pub(super) fn outside(corners: &[DVec2], w: DVec2) -> f64 {
    (0..corners.len())
        .map(|i| {
            let (a, b) = (corners[i], corners[(i + 1) % corners.len()]);
            // Counterclockwise: the inside is on the left, the outward normal on the right.
            (w - a).dot(-(b - a).perp().normalize_or_zero())
        })
        .fold(f64::NEG_INFINITY, f64::max)
}

/// The parameter of the point of `curve` nearest `p`: the segment's by
/// projection; the others' by sampling a window around the bead's `u` (a
/// turn of the circle or the cycloid, the parabola out to `p`), refined by
/// Newton's method on `(c(u) − p)·c'(u) = 0`.
pub(super) fn nearest_on(curve: &Curve, u: f64, p: DVec2) -> f64 {
    use std::f64::consts::PI;
    let (lo, hi) = match *curve {
        Curve::Segment { a, b } => {
            let (a, ab) = (DVec2::new(a.0, a.1), DVec2::new(b.0 - a.0, b.1 - a.1));
            return if ab.length_squared() > 0.0 { (p - a).dot(ab) / ab.length_squared() } else { u };
        }
        Curve::CircleArc { .. } | Curve::Cycloid { .. } => (u - PI, u + PI),
        Curve::Parabola { vertex, .. } => {
            let x = p.x - vertex.0;
            (u.min(x) - 1.0, u.max(x) + 1.0)
        }
    };
    let dist2 = |u: f64| {
        let c = curve.point(u);
        (c.x - p.x).powi(2) + (c.y - p.y).powi(2)
    };
    const N: usize = 512;
    let cell = (hi - lo) / N as f64;
    let mut best = (0..=N).map(|i| lo + i as f64 * cell).min_by(|a, b| dist2(*a).total_cmp(&dist2(*b))).unwrap_or(u);
    for _ in 0..30 {
        let (c, d1, d2) = (curve.point(best), curve.d1(best), curve.d2(best));
        let r = (c.x - p.x, c.y - p.y);
        let f = r.0 * d1.x + r.1 * d1.y;
        let df = d1.norm_squared() + r.0 * d2.x + r.1 * d2.y;
        if df <= 0.0 {
            break;
        }
        let step = (f / df).clamp(-cell, cell);
        best -= step;
        if step.abs() < 1e-15 {
            break;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use contact_core::scene::SceneDoc;
    use contact_core::scene::schema::BodySpec;

    use super::*;

    /// The bead tool's curves start the bead where the drag started (the
    /// cycloid: at the drag's horizontal offset, on the curve, lowest at the release).
    #[test]
    fn a_dragged_bead_starts_where_the_drag_started() {
        let (at, to) = (DVec2::new(0.3, 0.5), DVec2::new(0.9, 0.1));
        for kind in [BeadCurve::Segment, BeadCurve::Circle, BeadCurve::Parabola] {
            let (curve, u) = bead_curve(kind, at, to);
            let p = curve.point(u);
            assert!((DVec2::new(p.x, p.y) - at).length() < 1e-12, "{kind:?}: starts at {p:?}");
        }
        let (curve, u) = bead_curve(BeadCurve::Cycloid, at, to);
        let (low, p) = (curve.point(0.0), curve.point(u));
        assert!((DVec2::new(low.x, low.y) - to).length() < 1e-12, "lowest at the release");
        assert!((p.x - at.x).abs() < 1e-9 && u.abs() < std::f64::consts::PI, "at the start's x: {p:?}, u = {u}");
    }

    /// A dragged bead goes to the point of its curve nearest the pointer.
    #[test]
    fn a_dragged_bead_follows_its_curve_to_the_nearest_point() {
        let circle = Curve::CircleArc { center: (1.0, 2.0), radius: 0.5 };
        let u = nearest_on(&circle, 0.1, DVec2::new(1.0 + 3.0 * 0.6, 2.0 + 3.0 * 0.8));
        assert!((u - 0.8f64.atan2(0.6)).abs() < 1e-9, "{u}");
        let parabola = Curve::Parabola { vertex: (0.0, 0.0), k: 1.0 };
        // The nearest point to (0.5, 2) on y = x²: 2x³ + (1 − 2·2) x − 0.5 = 0.
        let u = nearest_on(&parabola, 0.0, DVec2::new(0.5, 2.0));
        assert!((2.0 * u.powi(3) - 3.0 * u - 0.5).abs() < 1e-9, "{u}");
        let segment = Curve::Segment { a: (0.0, 0.0), b: (2.0, 0.0) };
        assert!((nearest_on(&segment, 0.0, DVec2::new(1.0, 5.0)) - 0.5).abs() < 1e-12);
    }

    /// A bead placed by the tool makes a scene that loads (the file's checks).
    #[test]
    fn a_bead_from_the_tool_makes_a_scene_that_loads() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/scenes/bead-on-curve.ron");
        let mut doc = SceneDoc::load(&path).unwrap();
        for kind in BeadCurve::ALL {
            let (curve, u) = bead_curve(kind, DVec2::new(2.0, 2.5), DVec2::new(2.6, 2.0));
            let name = doc.fresh_name("bead");
            doc.file.bodies.push(BodySpec::Bead {
                name,
                curve,
                u,
                u_dot: 0.0,
                mass: 0.1,
                radius: 0.0,
                force: (0.0, 0.0),
                damping: 0.0,
            });
            doc.check("beads").unwrap_or_else(|e| panic!("{kind:?}: {e}"));
        }
    }
}
