//! The visual check of `--check-view`: the scripted screenshot against the
//! view's own world → screen mapping ([`ViewTransform::to_screen`]). Each body
//! whose centre is in the world view, and not under a window, must show its
//! colour around its projected centre ([`MIN_SHARE`] of the pixels between
//! 0.35 r and 0.9 r); no such body may have an edge marker, and every body off the view
//! must have one (when markers are drawn, up to 12 bodies). While the view is
//! the scene's fit, untouched by hand, every body must be in it. A mapping that the camera, the meshes and the overlay do not
//! share (the presenter's 1.5× scale, a resize) fails it.

use bevy::math::DVec2;
use bevy::prelude::*;

use crate::app::lab::{Lab, OnScreen, ViewTransform, palette};

/// The share of the pixels between 0.35 r and 0.9 r of a body's projected
/// centre that must have its colour. The constraint lines, λ and force arrows
/// of a body at rest in a corner cross its centre and cover up to about two
/// thirds of that ring on a small body (a 6 px particle at the wedge's apex
/// measured 14 % in a disc of 0.8 r); a body drawn elsewhere leaves the
/// background there, 0 %.
pub const MIN_SHARE: f64 = 0.15;

/// One body as the check saw it.
#[derive(Clone, Debug, PartialEq)]
pub struct Seen {
    pub name: String,
    /// Projected centre, px (y down).
    pub at: Vec2,
    pub in_view: bool,
    pub covered: bool,
    pub marker: bool,
    /// The share of pixels around the centre with the body's colour.
    pub match_share: f64,
}

/// Checks `img` (RGB, the window's pixels, 1 px per logical px) against the
/// mapping; returns what it saw and the failures.
pub fn check(img: &image::RgbImage, lab: &Lab, view: &ViewTransform, on_screen: &OnScreen) -> (Vec<Seen>, Vec<String>) {
    let mut seen = Vec::new();
    let mut failures = Vec::new();
    let inner = Rect::from_corners(view.rect.min + Vec2::splat(2.0), view.rect.max - Vec2::splat(2.0));
    let markers_drawn = lab.world.model.bodies.len() <= 12;
    for (b, body) in lab.world.model.bodies.iter().enumerate() {
        if !body.is_dynamic() {
            continue;
        }
        let p = lab.position(b);
        let at = view.to_screen(DVec2::new(p.x, p.y));
        let in_view = inner.contains(at);
        let covered = on_screen.covered.get(b).copied().unwrap_or(false);
        let marker = on_screen.marker.get(b).copied().unwrap_or(false);
        // A body that turns: the circle inside its shape.
        let r = body.shape().map_or(body.radius, |shape| shape.inradius());
        let r_px = if r > 0.0 { (r * view.ppm) as f32 } else { 6.0 };
        let ring = ((0.35 * r_px).min(4.0), (0.9 * r_px).clamp(2.5, 12.0));
        let share = if in_view { colour_share(img, at, ring, palette::body_disc_rgb(&lab.world, b)) } else { 0.0 };
        if in_view && !covered && share < MIN_SHARE {
            failures.push(format!(
                "{}: in view at ({:.0}, {:.0}) px but only {:.0} % of the pixels around it have its colour",
                body.name,
                at.x,
                at.y,
                share * 100.0
            ));
        }
        if in_view && marker {
            failures.push(format!("{}: in view at ({:.0}, {:.0}) px but has an edge marker", body.name, at.x, at.y));
        }
        // A scene with a region of interest is fitted to it: a body inside it
        // must be in view, one that has left it may be off.
        let in_focus =
            lab.scene.focus.is_none_or(|f| p.x >= f.min.0 && p.x <= f.max.0 && p.y >= f.min.1 && p.y <= f.max.1);
        if !in_view && view.auto_fit && in_focus {
            failures.push(format!(
                "{}: at ({:.0}, {:.0}) px, off the view fitted to the scene (view rect {:?})",
                body.name, at.x, at.y, view.rect
            ));
        }
        if !view.rect.contains(at) && markers_drawn && !marker {
            failures
                .push(format!("{}: off the view at ({:.0}, {:.0}) px and has no edge marker", body.name, at.x, at.y));
        }
        seen.push(Seen { name: body.name.clone(), at, in_view, covered, marker, match_share: share });
    }
    // Nothing drawn over the world covers the box the view was fitted to
    // (the scene's focus): the legend, the banner, a window.
    if let Some(focus) = view.fitted_rect() {
        // (Its edge a few pixels in: a window's frame settles a frame late.)
        let inner = Rect::from_corners(focus.min + Vec2::splat(8.0), focus.max - Vec2::splat(8.0));
        for (what, r) in &on_screen.overlays {
            let overlap = r.intersect(inner);
            if !overlap.is_empty() {
                failures.push(format!(
                    "{what} covers the scene's focus: {:.0}×{:.0} px of it at ({:.0}, {:.0})",
                    overlap.width(),
                    overlap.height(),
                    overlap.min.x,
                    overlap.min.y
                ));
            }
        }
    }
    // The magnifier: in the view, over no panel, off the contact it shows
    // (it may go over the focus, whose empty part is the room left where the
    // focus fills the view).
    if let Some((frame, contact)) = on_screen.magnifier {
        let room = Rect::from_corners(view.rect.min - Vec2::splat(1.0), view.rect.max + Vec2::splat(1.0));
        if !(room.contains(frame.min) && room.contains(frame.max)) {
            failures.push(format!(
                "the magnifier ({:.0}, {:.0})–({:.0}, {:.0}) px goes past the world view {:?}, over a panel",
                frame.min.x, frame.min.y, frame.max.x, frame.max.y, view.rect
            ));
        }
        if frame.contains(contact) {
            failures
                .push(format!("the magnifier covers the contact it shows at ({:.0}, {:.0}) px", contact.x, contact.y));
        }
    }
    (seen, failures)
}

/// The share of pixels between `ring.0` and `ring.1` px of `at` whose colour is
/// within 40 per channel of `rgb`. A ring rather than a disc: the lines that
/// cross a body's centre (its constraints, its arrows) cover a smaller share of
/// it the farther from the centre.
fn colour_share(img: &image::RgbImage, at: Vec2, ring: (f32, f32), rgb: [u8; 3]) -> f64 {
    let (inner, radius) = ring;
    let (w, h) = (img.width() as i64, img.height() as i64);
    let (cx, cy) = (at.x.floor() as i64, at.y.floor() as i64);
    let r = radius.ceil() as i64;
    let (mut total, mut hits) = (0u32, 0u32);
    for y in cy - r..=cy + r {
        for x in cx - r..=cx + r {
            let (dx, dy) = ((x - cx) as f32, (y - cy) as f32);
            let d2 = dx * dx + dy * dy;
            if d2 > radius * radius || d2 < inner * inner || x < 0 || y < 0 || x >= w || y >= h {
                continue;
            }
            total += 1;
            let px = img.get_pixel(x as u32, y as u32).0;
            if px.iter().zip(rgb).all(|(a, b)| (*a as i32 - b as i32).abs() <= 40) {
                hits += 1;
            }
        }
    }
    if total == 0 { 0.0 } else { hits as f64 / total as f64 }
}
