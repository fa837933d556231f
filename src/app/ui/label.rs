//! A label over the world view: text with a dark halo, pushed inside the
//! view where what it labels is near its edge ([`crate::app::ui::overlay`],
//! [`crate::app::ui::heap_angle`]).

use bevy_egui::egui::{self, Align2, Color32, FontId, Pos2};

/// Text with a dark halo so it reads over anything; where it went (`None`:
/// what it labels is off the view).
pub fn label(p: &egui::Painter, at: Pos2, anchor: Align2, text: &str, size: f32, color: Color32) -> Option<egui::Rect> {
    let font = FontId::proportional(size);
    let galley = p.layout_no_wrap(text.to_string(), font, color);
    let clip = p.clip_rect().shrink(2.0);
    // What it labels is off the view: no label (near the edge, it is pushed inside).
    if !clip.expand(24.0).contains(at) {
        return None;
    }
    let mut rect = anchor.anchor_size(at, galley.size()).expand2(egui::vec2(3.0, 1.0));
    let shift = egui::vec2(
        (clip.min.x - rect.min.x).max(0.0) + (clip.max.x - rect.max.x).min(0.0),
        (clip.min.y - rect.min.y).max(0.0) + (clip.max.y - rect.max.y).min(0.0),
    );
    rect = rect.translate(shift);
    p.rect_filled(rect, 3.0, Color32::from_black_alpha(150));
    p.galley(rect.min + egui::vec2(3.0, 1.0), galley, color);
    Some(rect)
}
