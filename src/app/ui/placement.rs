//! Where things drawn over the world may go: the labels, the legend, the
//! magnifier's inset and the presenter's banner each pick the place that
//! covers the fewest bodies on screen.

use bevy::math::DVec2;
use bevy_egui::egui::{Pos2, Rect};

use crate::app::lab::ViewTransform;

/// The bodies on screen, `(centre, radius)` in points, with body `b` at
/// `at(b)` (m) through `view` (in points).
pub fn discs(world: &contact_core::World, view: &ViewTransform, at: impl Fn(usize) -> DVec2) -> Vec<(Pos2, f32)> {
    (0..world.model.bodies.len())
        .map(|b| {
            let s = view.to_screen(at(b));
            // A box or a polygon by the disc inside it.
            let body = &world.model.bodies[b];
            (Pos2::new(s.x, s.y), (body.shape().map_or(body.radius, |sh| sh.inradius()) * view.ppm) as f32)
        })
        .collect()
}

/// How many of the bodies on screen (centre, radius in points) a rectangle
/// touches.
pub fn bodies_under(r: Rect, discs: &[(Pos2, f32)]) -> usize {
    discs.iter().filter(|(c, rad)| r.expand(rad.max(3.0)).contains(*c)).count()
}
