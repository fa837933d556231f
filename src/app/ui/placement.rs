//! Where things drawn over the world may go: the labels, the legend, the
//! magnifier's inset and the presenter's banner each pick the place that
//! covers the fewest bodies on screen.

use bevy_egui::egui::{Pos2, Rect};

/// How many of the bodies on screen (centre, radius in points) a rectangle
/// touches.
pub fn bodies_under(r: Rect, discs: &[(Pos2, f32)]) -> usize {
    discs.iter().filter(|(c, rad)| r.expand(rad.max(3.0)).contains(*c)).count()
}
