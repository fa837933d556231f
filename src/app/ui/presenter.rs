//! Presenter mode (F5, `--present`): for a class in front of a projector. The
//! whole interface is drawn half again as large; the panels shrink to the
//! scene, the algorithm switcher and one plot (the scene's first); and a banner
//! over the world view names the method (the algorithm, or Time-stepping) in its colour and the handled set
//! `E ∪ F⁺` of the last step, large enough to read from the back of the room.

use bevy_egui::egui::{self, RichText};

use super::data::PanelData;
use super::placement::{self, bodies_under};
use crate::app::lab::ViewTransform;
use crate::app::lab::names::seen_name;
use crate::app::lab::palette::method_color;

/// How much larger everything is drawn in presenter mode.
pub const ZOOM: f32 = 1.5;

/// The handled rows the banner names; more are counted.
const BANNER_ROWS: usize = 4;
/// The banner's text sizes (points, before presenter mode's zoom).
const ALGORITHM_SIZE: f32 = 28.0;
const SET_SIZE: f32 = 18.0;

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
    // The method: the algorithm, or Time-stepping (whose solver is Exact's,
    // but whose step is not the paper's).
    let method = contact_core::Method::of(&lab.world.settings);
    let handled: Vec<String> = lab.report.as_ref().map_or(Vec::new(), |r| {
        (0..r.handled.len())
            .filter(|&k| r.handled[k])
            .map(|k| seen_name(&lab.world, &lab.constraint_names, &lab.body_names, k))
            .collect()
    });
    // Named by what a person sees; more than four, or more than a line
    // beside the algorithm: their number, so the banner stays a strip over
    // the top of the view (the table lists them). The fit frames the scene
    // below it.
    let width = (0.75 * world.width()).max(240.0);
    let wide = |text: &str, size: f32| {
        ctx.layer_painter(egui::LayerId::background())
            .layout_no_wrap(text.to_string(), egui::FontId::proportional(size), egui::Color32::WHITE)
            .size()
            .x
    };
    let named = format!("E ∪ F⁺ = {{{}}}", handled.join(", "));
    let set = match handled.len() {
        0 if lab.report.is_none() => "no step yet".to_string(),
        0 => "E ∪ F⁺ = ∅".to_string(),
        n if n > BANNER_ROWS || wide(method.label(), ALGORITHM_SIZE) + wide(&named, SET_SIZE) > width - 40.0 => {
            format!("E ∪ F⁺: {n} rows")
        }
        _ => named,
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
                    // A strip along the top: the fit frames the scene below
                    // it, so the lower it is, the larger the scene.
                    ui.set_max_width(width);
                    ui.horizontal_wrapped(|ui| {
                        ui.label(
                            RichText::new(method.label()).size(ALGORITHM_SIZE).strong().color(method_color(method)),
                        );
                        let set = RichText::new(set).size(SET_SIZE).color(egui::Color32::from_gray(235));
                        ui.add(egui::Label::new(set).wrap_mode(egui::TextWrapMode::Wrap));
                    });
                });
        });
    Some(shown.response.rect)
}
