//! The angle of repose drawn where it is measured: over a heap of round
//! bodies, each flank's least-squares line and the angle, as the first plot
//! reads it ([`contact_core::heap`]), in a scene whose plots ask for the
//! series `repose_angle` (the heap scene). A student compares the line with
//! the heap's surface and reads the number off the view.

use bevy::math::DVec2;
use bevy_egui::egui::{self, Align2, Color32, Pos2, Stroke};
use contact_core::World;
use contact_core::scene::PlotPreset;

/// The lines' and the label's colour: light, apart from the discs' palette.
const COLOR: Color32 = Color32::from_rgb(120, 230, 255);

/// Whether the scene's plots ask for the angle of repose.
pub fn wanted(plots: &[PlotPreset]) -> bool {
    plots.iter().any(|p| p.series.iter().any(|s| s == "repose_angle"))
}

/// Paints the flanks' lines and the angle over the heap of `world`, once
/// every grain rests in it (while it pours, the first plot follows the
/// angle: a label over the falling stream hid its grains); `scr`: world to
/// screen points. Returns where the label went, for the labels after it to
/// keep clear.
pub fn paint(p: &egui::Painter, world: &World, scr: &dyn Fn(DVec2) -> Pos2) -> Option<egui::Rect> {
    let heap = contact_core::heap::heap(&world.model, &world.state).filter(|h| h.apart == 0)?;
    let stroke = Stroke::new(2.0, COLOR);
    let mut top = Pos2::new(f32::INFINITY, f32::INFINITY);
    for f in &heap.flanks {
        let (peak, foot) = (scr(DVec2::new(f.peak.0, f.peak.1)), scr(DVec2::new(f.foot.0, f.foot.1)));
        p.extend(egui::Shape::dashed_line(&[peak, foot], stroke, 8.0, 5.0));
        if peak.y < top.y {
            top = peak;
        }
    }
    let flanks: Vec<String> = heap.flanks.iter().map(|f| format!("{:.1}°", f.angle)).collect();
    let text = format!("angle of repose {:.1}°  (flanks {})", heap.angle, flanks.join(", "));
    super::label::label(p, top - egui::vec2(0.0, 14.0), Align2::CENTER_BOTTOM, &text, 15.0, COLOR)
}
