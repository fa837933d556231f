//! The egui panels. Each panel is a plain struct borrowing what it shows, with
//! `ui(&mut self, ui)` (egui_demo_lib style); one system lays them out:
//!
//! ```text
//! ┌──────────────────────── toolbar ────────────────────────┐
//! │ algorithm │                                 │  plots    │
//! │ controls  │         the world               │           │
//! │ scene     │                                 │           │
//! ├───────────┴──────── timeline ───────────────┴───────────┤
//! │ constraint table            │ active-set trace / events │
//! └──────────────────────── status ─────────────────────────┘
//! ```
//!
//! Whatever the panels leave is the world view ([`ViewTransform::rect`](crate::app::lab::ViewTransform::rect)); labels
//! on the world are painted there by [`overlay`].

pub mod algorithm;
pub mod compare_panel;
pub mod controls;
pub mod data;
pub mod decimate;
pub mod editor;
pub mod file_dialog;
pub mod grid;
pub mod heap_angle;
pub mod label;
pub mod magnifier;
pub mod overlay;
pub mod placement;
pub mod plots;
pub mod presenter;
pub mod scene_panel;
pub mod shortcut_keys;
pub mod table;
pub mod timeline_bar;
pub mod toolbar;
pub mod tour_panel;
pub mod trace;

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::clip::ClipAction;
use super::compare::CompareAction;
use super::edit::{EditAction, Saved};
use super::lab::{ConstraintState, InputClaims, InstallScene, LabAction, Opened, Status, is_ball, palette};
use super::physics::slow::{self, Remedy, Slowness};
use super::scene::OpenScene;
use super::tour::TourAction;
pub use data::{PanelData, UiState};
use plots::PlotsPanel;

pub struct UiPlugin {
    /// Start in presenter mode.
    pub present: bool,
}

impl Plugin for UiPlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(UiState { present: self.present, ..default() })
            .init_resource::<file_dialog::FileDialogs>()
            .add_systems(Update, open_plot_window)
            .add_systems(EguiPrimaryContextPass, (layout, file_dialog::file_dialog).chain());
    }
}

/// A scene opened: the plots show its window (its `opening.plot_window`, or
/// 2 s), following the present.
fn open_plot_window(mut opened: MessageReader<Opened>, mut ui: ResMut<UiState>) {
    if let Some(Opened(o)) = opened.read().last() {
        ui.plots.window = match o.plot_window {
            Some(w) if w.is_infinite() => data::Window::All,
            w => data::Window::Seconds(w.unwrap_or(2.0)),
        };
        ui.plots.follow = true;
    }
}

/// DejaVu has the paper's symbols (∪, ⁺, q̈, →, ≤) that egui's default fonts lack.
const DEJAVU_SANS: &[u8] = include_bytes!("../../../assets/fonts/DejaVuSans.ttf");
const DEJAVU_MONO: &[u8] = include_bytes!("../../../assets/fonts/DejaVuSansMono.ttf");

fn style(ctx: &egui::Context) {
    use egui::{FontFamily, FontId, TextStyle};
    let mut fonts = egui::FontDefinitions::default();
    fonts.font_data.insert("dejavu-sans".into(), std::sync::Arc::new(egui::FontData::from_static(DEJAVU_SANS)));
    fonts.font_data.insert("dejavu-mono".into(), std::sync::Arc::new(egui::FontData::from_static(DEJAVU_MONO)));
    // DejaVu first; egui's own fonts stay as fallbacks (the icon glyphs of the buttons).
    fonts.families.entry(FontFamily::Proportional).or_default().insert(0, "dejavu-sans".into());
    fonts.families.entry(FontFamily::Monospace).or_default().insert(0, "dejavu-mono".into());
    fonts.families.entry(FontFamily::Monospace).or_default().push("dejavu-sans".into());
    ctx.set_fonts(fonts);
    ctx.all_styles_mut(|s| {
        s.text_styles = [
            (TextStyle::Heading, FontId::new(17.0, FontFamily::Proportional)),
            (TextStyle::Body, FontId::new(13.5, FontFamily::Proportional)),
            (TextStyle::Button, FontId::new(13.5, FontFamily::Proportional)),
            (TextStyle::Small, FontId::new(11.5, FontFamily::Proportional)),
            (TextStyle::Monospace, FontId::new(12.5, FontFamily::Monospace)),
        ]
        .into();
        s.spacing.item_spacing = egui::vec2(7.0, 5.0);
        s.spacing.button_padding = egui::vec2(7.0, 3.0);
        s.spacing.slider_width = 150.0;
    });
    ctx.set_visuals(egui::Visuals::dark());
}

#[allow(clippy::too_many_arguments)]
fn layout(
    mut contexts: EguiContexts,
    mut data: PanelData,
    mut claims: ResMut<InputClaims>,
    mut actions: MessageWriter<LabAction>,
    mut open: MessageWriter<OpenScene>,
    mut tour_actions: MessageWriter<TourAction>,
    mut compare_actions: MessageWriter<CompareAction>,
    mut clip_actions: MessageWriter<ClipAction>,
    mut edit_actions: MessageWriter<EditAction>,
    mut saved: MessageReader<Saved>,
    mut install: MessageWriter<InstallScene>,
) -> Result {
    let ctx = contexts.ctx_mut()?.clone();
    if !data.state.styled {
        style(&ctx);
        data.state.styled = true;
    }
    if ctx.input(|i| i.key_pressed(egui::Key::F5)) && !ctx.egui_wants_keyboard_input() {
        data.state.present = !data.state.present;
    }
    let present = data.state.present;
    let zoom = if present { presenter::ZOOM } else { 1.0 };
    if ctx.zoom_factor() != zoom {
        ctx.set_zoom_factor(zoom);
    }
    if let Some(lab) = &data.lab {
        let (real, sim) = (data.real.elapsed_secs_f64(), lab.time());
        data.state.rate.update(real, sim);
    }
    let mut out = Vec::<LabAction>::new();
    let mut tour_out = Vec::<TourAction>::new();
    let mut compare_out = Vec::<CompareAction>::new();
    let mut clip_out = Vec::<ClipAction>::new();
    let mut edit_out = Vec::<EditAction>::new();
    let mut open_req = None::<std::path::PathBuf>;
    let mut remedy = None::<Remedy>;
    let mut root = egui::Ui::new(
        ctx.clone(),
        "lab-root".into(),
        egui::UiBuilder::new().layer_id(egui::LayerId::background()).max_rect(ctx.viewport_rect()),
    );
    // The panels are not filled: the window is cleared to their colour
    // (`palette::PANEL`) and the world is drawn only in the free rectangle, so
    // a software renderer does not shade egui's fill over half the window
    // every frame (issue 37: the billiard, 1600x900, llvmpipe, 10.4-10.9 ->
    // 11.8-13.1 frames/s with `view`'s viewport).
    let panel_frame = egui::Frame::new().inner_margin(egui::Margin::symmetric(10, 8));

    egui::Panel::top("toolbar").frame(panel_frame.inner_margin(egui::Margin::symmetric(10, 6))).show(&mut root, |ui| {
        toolbar::Toolbar {
            data: &mut data,
            actions: &mut out,
            tour: &mut tour_out,
            compare: &mut compare_out,
            clip: &mut clip_out,
            edit: &mut edit_out,
            open: &mut open_req,
        }
        .ui(ui);
    });
    if !present {
        egui::Panel::bottom("status").frame(panel_frame.inner_margin(egui::Margin::symmetric(10, 3))).show(
            &mut root,
            |ui| {
                let slow = data.budget.behind().then(|| slowness(&data)).flatten();
                if let Some(r) = status_line(ui, &data.status, data.real.elapsed_secs_f64(), slow.as_ref()) {
                    remedy = Some(r);
                }
            },
        );
    }
    // Presenter mode has panels of its own (their sizes are remembered apart), narrower.
    // In presenter mode the scene comes first: the side panels take at most a
    // fifth (switcher) and a quarter (plot) of the window's width.
    let width = ctx.content_rect().width();
    let compare = data.compare.on;
    let (plots_id, plots_w, left_id, left_w) = if present && (data.editor.on || data.tour.open) {
        // Editing in front of an audience, or the tour: the tools, the
        // inspector and the tour's text need room at the large font.
        ("plots-present", (0.25 * width).min(330.0), "left-present-edit", (0.3 * width).min(340.0))
    } else if present {
        ("plots-present", (0.25 * width).min(330.0), "left-present", (0.2 * width).min(215.0))
    } else if data.tour.open {
        let (plots, left) = roomy(width, 470.0, 360.0, 0.25);
        ("plots", plots, "left-tour", left)
    } else if compare {
        // Compare mode adds its table above the world: the side panels give
        // up width so the lanes keep room (issue 47: at 1280x720 the wedge's
        // view was a strip 40 px high and a third of the width).
        ("plots-compare", (0.25 * width).min(470.0), "left-compare", (0.2 * width).min(318.0))
    } else {
        let (plots, left) = roomy(width, 470.0, 318.0, 0.225);
        ("plots", plots, "left", left)
    };
    // Content never widens a panel past a third of the window (a long handled
    // set, a wide row), nor in presenter or compare mode past its share: the
    // scene first.
    let (plots_max, left_max) = if present || (compare && !data.tour.open) {
        (plots_w, left_w)
    } else {
        ((width / 3.0).max(plots_w), (width / 3.0).max(left_w))
    };
    egui::Panel::right(plots_id)
        .resizable(true)
        .default_size(plots_w)
        .min_size(200.0)
        .max_size(plots_max)
        .frame(panel_frame)
        .show(&mut root, |ui| {
            if let Some(lab) = data.lab.as_deref() {
                PlotsPanel {
                    lab,
                    history: &mut data.history,
                    state: &mut data.state.plots,
                    timeline: &data.timeline,
                    compare: &mut data.compare,
                    only_first: present,
                }
                .ui(ui);
            }
        });
    // Presenter mode: the scene, the algorithm switcher, one plot and the timeline.
    // Compare mode folds the constraint table and the trace (they describe
    // the lab's lane alone; the compare table above the world reads every
    // lane): the lanes keep their height (issue 47: 157 px at 1280x720).
    if present || compare {
        egui::Panel::bottom(if present { "timeline-present" } else { "timeline-compare" }).frame(panel_frame).show(
            &mut root,
            |ui| {
                timeline_bar::TimelineBar { data: &mut data, actions: &mut out, compare: &mut compare_out }.ui(ui);
            },
        );
    } else {
        egui::Panel::bottom("inspector").resizable(true).default_size(262.0).min_size(120.0).frame(panel_frame).show(
            &mut root,
            |ui| {
                // The panel's own width (a row that overflows would widen the Ui's max_rect).
                let (x0, x1) = (ui.max_rect().min.x, ui.max_rect().max.x);
                timeline_bar::TimelineBar { data: &mut data, actions: &mut out, compare: &mut compare_out }.ui(ui);
                ui.separator();
                let mut avail = ui.available_rect_before_wrap();
                avail.min.x = x0;
                avail.max.x = x1;
                let split = (avail.width() * 0.6).max(420.0).min(avail.width() - 280.0);
                let left = egui::Rect::from_min_size(avail.min, egui::vec2(split - 8.0, avail.height()));
                let right = egui::Rect::from_min_max(
                    egui::pos2(avail.min.x + split + 8.0, avail.min.y),
                    egui::pos2(avail.max.x - 4.0, avail.max.y),
                );
                ui.scope_builder(egui::UiBuilder::new().max_rect(left), |ui| {
                    // Narrower than its columns (a small window): it scrolls
                    // sideways inside its half instead of running under the trace.
                    ui.set_clip_rect(left.intersect(ui.clip_rect()));
                    egui::ScrollArea::horizontal()
                        .id_salt("constraint-table-h")
                        .auto_shrink([false, false])
                        .show(ui, |ui| table::ConstraintTable { data: &mut data }.ui(ui));
                });
                ui.painter().vline(
                    avail.min.x + split,
                    avail.y_range(),
                    egui::Stroke::new(1.0, egui::Color32::from_gray(60)),
                );
                ui.scope_builder(egui::UiBuilder::new().max_rect(right), |ui| {
                    trace::TracePanel { data: &mut data }.ui(ui);
                });
                ui.allocate_rect(avail, egui::Sense::hover());
            },
        );
    }
    egui::Panel::left(left_id)
        .resizable(true)
        .default_size(left_w)
        .min_size(180.0)
        .max_size(left_max)
        .frame(panel_frame)
        .show(&mut root, |ui| {
            egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| {
                if data.editor.on {
                    ui.heading("✎ Edit");
                    editor::EditPanel { data: &mut data, actions: &mut edit_out, lab_actions: &mut out }.ui(ui);
                    return;
                }
                // The tour, docked: it never covers the world it describes.
                if data.tour.open {
                    tour_panel::TourPanel { data: &mut data, actions: &mut tour_out }.docked(ui);
                    ui.separator();
                }
                if !present && !data.tour.open {
                    scene_panel::description(ui, &data);
                }
                algorithm::AlgorithmSwitcher { data: &mut data, actions: &mut out }.ui(ui);
                if present || data.tour.open {
                    return;
                }
                ui.add_space(6.0);
                controls::Controls { data: &mut data }.ui(ui);
                ui.add_space(6.0);
                scene_panel::ScenePanel { data: &mut data, open: &mut open_req }.ui(ui);
            });
        });

    // Compare's panel above the world, never over it.
    compare_panel::ComparePanel { data: &mut data, actions: &mut compare_out }
        .show(&mut root, panel_frame.inner_margin(egui::Margin::symmetric(10, 4)));
    // What is left is the world.
    let rest = root.available_rect_before_wrap();
    // Presenter mode has no status bar: a fresh message (where F12's
    // screenshot went, a clip, a refusal) shows a few seconds at the foot of
    // the view (issue 47, item 12: F12 there said nothing).
    if present {
        toast(&ctx, &data.status, data.real.elapsed_secs_f64(), rest);
    }
    // The view is in logical pixels, egui in points (`zoom` of them per pixel in presenter mode).
    let rect = Rect::new(rest.min.x * zoom, rest.min.y * zoom, rest.max.x * zoom, rest.max.y * zoom);
    if data.view.rect != rect || !data.view.rect_known {
        data.view.set_rect(rect);
    }
    let in_points = data.view.in_points(zoom);
    overlay::Overlay { data: &mut data, view: &in_points, rect: rest }.paint(&ctx);
    if present {
        data.state.banner = presenter::banner(&ctx, &data, rest, &in_points);
    } else {
        data.state.banner = None;
    }
    // The scene's box is framed below the presenter's banner when a body
    // would be under it (the scenes' focus boxes leave the banner room where
    // they can). Its size with its margins from the corner (`presenter::banner`).
    let banner = data
        .state
        .banner
        .map_or(Vec2::ZERO, |b| Vec2::new(b.width() + 2.0 * presenter::MARGIN.x, b.max.y - rest.min.y) * zoom);
    data.view.set_banner(banner);
    // What covers the world view besides the overlay's own, for `--check-view`.
    let px = |r: egui::Rect| Rect::new(r.min.x * zoom, r.min.y * zoom, r.max.x * zoom, r.max.y * zoom);
    if let Some(r) = data.state.banner.filter(|r| r.intersects(rest)) {
        data.on_screen.overlays.push(("the presenter's banner".to_string(), px(r)));
    }

    // Unsaved edits about to be dropped: asked first, over everything.
    let asking = editor::leave_dialog(&ctx, &data.editor, &mut edit_out);

    // The world view has the pointer unless a window (the tour) or a popup is over it.
    let over_window = |p| ctx.layer_id_at(p).is_some_and(|l| l.order != egui::Order::Background);
    let pointer_in_view = ctx.pointer_latest_pos().is_some_and(|p| rest.contains(p) && !over_window(p));
    claims.pointer = asking || !pointer_in_view || ctx.egui_is_using_pointer() || ctx.any_popup_open();
    claims.keyboard = ctx.egui_wants_keyboard_input();

    for a in out {
        actions.write(a);
    }
    for a in tour_out {
        tour_actions.write(a);
    }
    for a in compare_out {
        compare_actions.write(a);
    }
    for a in clip_out {
        clip_actions.write(a);
    }
    for a in edit_out {
        edit_actions.write(a);
    }
    // A saved scene opens like any file (the picker, hot reload, tours).
    for Saved(p) in saved.read() {
        open.write(OpenScene(p.clone()));
    }
    if let Some(p) = open_req {
        open.write(OpenScene(p));
    }
    if let Some(r) = remedy {
        apply_remedy(r, &mut data, &mut actions, &mut install);
    }
    Ok(())
}

/// Why the run is slower than real time (`None`: no step yet).
fn slowness(data: &PanelData) -> Option<Slowness> {
    let lab = data.lab.as_deref()?;
    let report = lab.report.as_ref()?;
    // A reload with fewer balls only where the file's bodies are balls.
    let world = &lab.world;
    let balls =
        (0..world.model.bodies.len()).filter(|&b| world.model.bodies[b].is_dynamic()).all(|b| is_ball(world, b));
    let frames = 1.0 / data.real.delta_secs_f64().max(1e-3);
    let speed = data.settings.speed;
    let measured =
        slow::Measured { mean: data.worker.mean, last: data.worker.last, frames, pace: data.state.rate.value };
    Some(slow::diagnose(world, report, &measured, lab.scene.path.is_some() && balls, speed))
}

/// Does what the status bar's button offered: one click.
fn apply_remedy(
    r: Remedy,
    data: &mut PanelData,
    actions: &mut MessageWriter<LabAction>,
    install: &mut MessageWriter<InstallScene>,
) {
    let now = data.real.elapsed_secs_f64();
    let Some(lab) = data.lab.as_deref_mut() else { return };
    match r {
        Remedy::Exact => {
            actions.write(LabAction::SetAlgorithm(contact_core::Algorithm::Exact));
        }
        Remedy::TimeStepping => {
            actions.write(LabAction::SetScheme(contact_core::Scheme::TimeStepping));
        }
        Remedy::StepMs(ms) => {
            // What the controls' "step h" slider does.
            data.settings.set_h(f64::from(ms) * 1e-3);
            data.status.say(now, format!("Steps of h = {ms} ms now (the controls' \"step h\" slider)"));
        }
        Remedy::Sleep => {
            lab.world.settings.sleep.enabled = true;
            data.status.say(now, "Still islands now sleep (the controls' \"sleep\" box)");
        }
        Remedy::Balls(n) => {
            let Some(path) = lab.scene.path.clone() else { return };
            match slow::with_balls(&path, n) {
                Ok(scene) => {
                    install.write(InstallScene {
                        scene: Box::new(scene),
                        path: Some(path),
                        keep_algorithm: true,
                        open: true,
                    });
                    data.status
                        .say(now, format!("Reloaded with {n} balls (the file has its own count; R keeps these)"));
                }
                Err(e) => data.status.warn(now, format!("Not reloaded with {n} balls: {e}")),
            }
        }
    }
}

/// Seconds a message shows in presenter mode's [`toast`].
const TOAST: f64 = 5.0;

/// The status's message at the foot of `view` while it is fresh (presenter
/// mode, which has no status bar).
fn toast(ctx: &egui::Context, status: &Status, now: f64, view: egui::Rect) {
    if status.text.is_empty() || now - status.at > TOAST {
        return;
    }
    let color = if status.error {
        palette::egui(palette::state_rgb(ConstraintState::Violated))
    } else {
        egui::Color32::from_gray(235)
    };
    egui::Area::new(egui::Id::new("presenter-toast"))
        .order(egui::Order::Foreground)
        .interactable(false)
        .pivot(egui::Align2::CENTER_BOTTOM)
        .fixed_pos(egui::pos2(view.center().x, view.max.y - 12.0))
        .show(ctx, |ui| {
            egui::Frame::new()
                .fill(egui::Color32::from_black_alpha(220))
                .corner_radius(6.0)
                .inner_margin(egui::Margin::symmetric(12, 6))
                .show(ui, |ui| {
                    ui.set_max_width(view.width() - 40.0);
                    ui.label(egui::RichText::new(&status.text).color(color));
                });
        });
}

/// The status line: why the lab is slow and what helps (a button a remedy),
/// the last message, the key hints. Returns the remedy clicked.
fn status_line(ui: &mut egui::Ui, status: &Status, now: f64, slow: Option<&Slowness>) -> Option<Remedy> {
    let fresh = now - status.at < 8.0;
    let color = if status.error {
        palette::egui(palette::state_rgb(ConstraintState::Violated))
    } else if fresh {
        egui::Color32::from_gray(225)
    } else {
        egui::Color32::from_gray(150)
    };
    // One row, whatever it says (a second row for the slowness made the whole
    // UI jump a line while the scene played behind, and the view with it).
    // Slower than real time, the cause and its remedies come first. The
    // message then takes what it needs up to two thirds of what is left, the
    // key hints the rest; each is cut short (full text on hover) rather than
    // drawn over the other.
    const HINTS: &str = "Space play/pause · → step · ← back · R reset · 1–4 algorithm · T tour · F fit · E edit · V clip · F12 screenshot · \
                         Ctrl+S save · Ctrl+Q quit · drag a body: spring (right-click/P pins) · K/Shift+drag a ball: cue shot · \
                         drag space: pan · wheel: zoom";
    let mut clicked = None;
    let warn = palette::egui(palette::WARN);
    // Behind, an old message, or one that says how the clock runs ("Playing in
    // real time"), would say otherwise: the slowness's cause stands for it.
    let text = match slow {
        Some(slow) if !fresh || status.clock => egui::RichText::new(&slow.cause).color(warn),
        _ => egui::RichText::new(&status.text).color(color),
    };
    let height = ui.spacing().interact_size.y;
    ui.horizontal(|ui| {
        if let Some(slow) = slow {
            let pace = format!("⚠ slower than real time: {:.2}×", slow.pace);
            ui.label(egui::RichText::new(pace).strong().color(warn)).on_hover_text(format!(
                "The steps owed this frame took longer than the physics budget: steps were dropped so that the \
                 window stays responsive. {}",
                slow.cause
            ));
            for r in &slow.remedies {
                if ui.button(r.label()).on_hover_text(r.why()).clicked() {
                    clicked = Some(*r);
                }
            }
        }
        // A stop that time-stepping would not make: its one click, before the message.
        if status.offer_time_stepping {
            let r = Remedy::TimeStepping;
            if ui.button(r.label()).on_hover_text(r.why()).clicked() {
                clicked = Some(r);
            }
        }
        let wanted = egui::WidgetText::from(text.clone())
            .into_galley(ui, Some(egui::TextWrapMode::Extend), f32::INFINITY, egui::TextStyle::Body)
            .size()
            .x
            + 12.0;
        ui.allocate_ui_with_layout(
            egui::vec2(wanted.min(ui.available_width() * 0.67), height),
            egui::Layout::left_to_right(egui::Align::Center),
            |ui| {
                // The whole message is in the tooltip (and the log) when it does not fit.
                ui.add(egui::Label::new(text).truncate());
            },
        );
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            ui.add(
                egui::Label::new(egui::RichText::new(HINTS).small().color(egui::Color32::from_gray(140))).truncate(),
            );
        });
    });
    clicked
}

/// The side panels' widths in normal and tour mode: `plots` and `left` px
/// while they leave the view at least 38 % of the `width` (the default
/// 1440-px window, and 1280 px), else at most a third and `share` of it
/// (the left panel's text may widen it to a third): a 1024x768 screen's
/// view had 130 of 921 px, now 310; a 1280x720 screen's 1152-px window
/// about 410, was 364.
fn roomy(width: f32, plots: f32, left: f32, share: f32) -> (f32, f32) {
    if width - plots - left >= 0.38 * width {
        (plots, left)
    } else {
        ((0.33 * width).min(plots), (share * width).min(left))
    }
}
