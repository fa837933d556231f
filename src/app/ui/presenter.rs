//! Presenter mode (F5, `--present`): for a class in front of a projector. The
//! whole interface is drawn half again as large; the panels shrink to the
//! scene, the algorithm switcher and one plot (the scene's first); and a banner
//! over the world view names the algorithm in its colour and the handled set
//! `E ∪ F⁺` of the last step, large enough to read from the back of the room.

use bevy_egui::egui::{self, RichText};

use super::data::PanelData;
use super::placement::{self, bodies_under};
use crate::app::lab::ViewTransform;
use crate::app::lab::palette::algorithm_color;

/// How much larger everything is drawn in presenter mode.
pub const ZOOM: f32 = 1.5;

/// The banner's margin from the world view's corner, in points.
pub const MARGIN: egui::Vec2 = egui::vec2(14.0, 36.0);

/// The banner at the world view's top-left corner, or its top-right one when
/// that covers fewer bodies (`view`: the world → screen map in points);
/// returns where it is (the labels on the world keep clear of it).
pub fn banner(ctx: &egui::Context, data: &PanelData, world: egui::Rect, view: &ViewTransform) -> Option<egui::Rect> {
    let lab = data.lab.as_deref()?;
    // Its size as last drawn (a first frame: about the usual one).
    let size = data.state.banner.map_or(egui::vec2(300.0, 110.0), |r| r.size());
    let discs = placement::discs(&lab.world, view, |b| lab.position(b));
    let left = world.min + MARGIN;
    let right = egui::pos2(world.max.x - size.x - MARGIN.x, world.min.y + MARGIN.y);
    let under = |at: egui::Pos2| bodies_under(egui::Rect::from_min_size(at, size), &discs);
    let at = if right.x > left.x && under(right) < under(left) { right } else { left };
    let algorithm = lab.world.settings.algorithm;
    let handled: Vec<&str> = lab.report.as_ref().map_or(Vec::new(), |r| {
        (0..r.handled.len())
            .filter(|&k| r.handled[k])
            .filter_map(|k| lab.constraint_names.get(k).map(String::as_str))
            .collect()
    });
    let set = match handled.len() {
        0 if lab.report.is_none() => "no step yet".to_string(),
        0 => "E ∪ F⁺ = ∅".to_string(),
        // A big set: its size, on one line, so the banner leaves the scene in
        // view (a 10-row pyramid holds 173; the table lists them).
        n if n > 8 => format!("E ∪ F⁺: {n} rows"),
        _ => format!("E ∪ F⁺ = {{{}}}", handled.join(", ")),
    };
    let shown = egui::Area::new(egui::Id::new("presenter-banner"))
        .fixed_pos(at)
        .interactable(false)
        .order(egui::Order::Foreground)
        .show(ctx, |ui| {
            egui::Frame::new()
                .fill(egui::Color32::from_black_alpha(170))
                .corner_radius(6.0)
                .inner_margin(egui::Margin::symmetric(14, 8))
                .show(ui, |ui| {
                    // Within the world view: a long set wraps, it never runs over the panels.
                    ui.set_max_width((world.width() - 60.0).max(200.0));
                    ui.label(RichText::new(algorithm.label()).size(34.0).strong().color(algorithm_color(algorithm)));
                    let set = RichText::new(set).size(22.0).monospace().color(egui::Color32::from_gray(235));
                    ui.add(egui::Label::new(set).wrap_mode(egui::TextWrapMode::Wrap));
                    ui.label(
                        RichText::new(format!("t = {:.3} s", lab.time()))
                            .size(16.0)
                            .color(egui::Color32::from_gray(180)),
                    );
                });
        });
    Some(shown.response.rect)
}
