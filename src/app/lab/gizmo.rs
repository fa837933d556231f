//! Drawing helpers in world units shared by every feature that draws: arrows,
//! dashes, curves, the grid's step.

use bevy::math::DVec2;
use bevy::prelude::*;
use contact_core::Curve;

/// `curve` from `u` = `span.0` to `span.1`, as a strip of `n` segments.
pub fn curve_strip(g: &mut Gizmos, curve: &Curve, span: (f64, f64), n: usize, color: Color) {
    let pts = (0..=n).map(|i| {
        let p = curve.point(span.0 + (span.1 - span.0) * i as f64 / n as f64);
        Vec2::new(p.x as f32, p.y as f32)
    });
    g.linestrip_2d(pts, color);
}

/// A world point as the `f32` vector gizmos take (scenes are metres wide).
pub fn f(p: DVec2) -> Vec2 {
    Vec2::new(p.x as f32, p.y as f32)
}

/// Draws an arrow from `from` along `vec` (world units) with a head of `head` metres.
pub fn arrow(g: &mut Gizmos, from: DVec2, vec: DVec2, head: f64, color: Color) {
    let len = vec.length();
    if len < 1e-12 {
        return;
    }
    let to = from + vec;
    let dir = vec / len;
    let head = head.min(len * 0.5);
    let side = DVec2::new(-dir.y, dir.x) * head * 0.45;
    let base = to - dir * head;
    g.line_2d(f(from), f(to), color);
    g.line_2d(f(to), f(base + side), color);
    g.line_2d(f(to), f(base - side), color);
}

/// [`arrow`] two pixels wide with a dark outline around it (`px`: a pixel
/// in world units): it reads on any body's colour, the yellow block's and
/// the yellow ladder's included (issue 37).
pub fn outlined_arrow(g: &mut Gizmos, from: DVec2, vec: DVec2, head: f64, px: f64, color: Color) {
    if vec.length() < 1e-12 {
        return;
    }
    let outline = Color::srgb(0.06, 0.06, 0.08);
    for (dx, dy) in
        [(-2.0, 0.0), (2.0, 0.0), (0.0, -2.0), (0.0, 2.0), (-1.5, -1.5), (1.5, 1.5), (-1.5, 1.5), (1.5, -1.5)]
    {
        arrow(g, from + DVec2::new(dx, dy) * px, vec, head, outline);
    }
    for (dx, dy) in [(0.0, 0.0), (0.5, 0.5), (-0.5, -0.5)] {
        arrow(g, from + DVec2::new(dx, dy) * px, vec, head, color);
    }
}

/// A dashed segment from `a` to `b`: dashes of `dash`, gaps of `gap` (m).
pub fn dashed(g: &mut Gizmos, a: DVec2, b: DVec2, dash: f64, gap: f64, color: Color) {
    let len = (b - a).length();
    if len < 1e-12 {
        return;
    }
    let dir = (b - a) / len;
    let mut s = 0.0;
    while s < len {
        let e = (s + dash).min(len);
        g.line_2d(f(a + dir * s), f(a + dir * e), color);
        s += dash + gap;
    }
}

/// A grid step of 1, 2 or 5 × 10ᵏ m that is at least `min_px` apart on screen.
pub fn grid_step(ppm: f64, min_px: f64) -> f64 {
    let raw = min_px / ppm;
    let k = raw.log10().floor();
    let base = 10f64.powf(k);
    for m in [1.0, 2.0, 5.0, 10.0] {
        if base * m >= raw {
            return base * m;
        }
    }
    base * 10.0
}
