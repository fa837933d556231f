//! The toolbar: scene, play/pause/step/reset, speed, time and the algorithm at a glance.

use bevy_egui::egui::{self, RichText};

use super::data::PanelData;
use crate::app::clip::ClipAction;
use crate::app::compare::CompareAction;
use crate::app::edit::EditAction;
use crate::app::lab::LabAction;
use crate::app::lab::palette;
use crate::app::tour::TourAction;

/// The toolbar's width (logical px) below which its run group is made
/// narrower (`Toolbar::left`).
const NARROW: f32 = 1400.0;
/// The same in presenter mode (its text 1.5× larger), below which the
/// toolbar drops the app's name, the word "speed" and "reset all".
const PRESENT_NARROW: f32 = 1000.0;

pub struct Toolbar<'a, 'w, 's> {
    pub data: &'a mut PanelData<'w, 's>,
    pub actions: &'a mut Vec<LabAction>,
    pub tour: &'a mut Vec<TourAction>,
    pub compare: &'a mut Vec<CompareAction>,
    pub clip: &'a mut Vec<ClipAction>,
    pub edit: &'a mut Vec<EditAction>,
    /// A scene file picked from the scene menu.
    pub open: &'a mut Option<std::path::PathBuf>,
}

impl Toolbar<'_, '_, '_> {
    /// The scene's name, a click from every scene file (`assets/scenes`) and
    /// from a new scene of one's own.
    fn scene_menu(&mut self, ui: &mut egui::Ui) {
        let name = self.data.lab.as_deref().map_or("—".to_string(), |l| l.scene.name.clone());
        let current = self.data.lab.as_deref().and_then(|l| l.scene.path.clone());
        let r = ui.menu_button(RichText::new(format!("{name} ▾")).size(16.0).strong(), |ui| {
            ui.label(RichText::new("Scenes").strong());
            egui::ScrollArea::vertical().max_height(ui.ctx().content_rect().height() * 0.7).show(ui, |ui| {
                for p in self.data.files.listing.clone() {
                    let file = p.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
                    if ui.selectable_label(current.as_ref() == Some(&p), file).clicked() {
                        *self.open = Some(p);
                        ui.close();
                    }
                }
            });
            ui.separator();
            if ui.button("✚ New scene with a floor").on_hover_text("edit mode on a floor and nothing else").clicked()
            {
                self.edit.push(EditAction::New { floor: true });
                ui.close();
            }
            if ui.button("✚ New empty scene").on_hover_text("edit mode on an empty world").clicked() {
                self.edit.push(EditAction::New { floor: false });
                ui.close();
            }
        });
        if r.response.on_hover_text("every scene file, and a new scene").clicked() {
            self.data.files.refresh_listing();
        }
    }

    /// ⏺ to record a clip, ⏹ with the simulated seconds taken while recording,
    /// a counter while it encodes.
    fn clip_button(&mut self, ui: &mut egui::Ui) {
        let clip = &self.data.clip;
        if let Some(enc) = &clip.encoding {
            let done = enc.done.load(std::sync::atomic::Ordering::Relaxed);
            ui.label(RichText::new(format!("encoding {done}/{}", enc.total)).small());
            ui.add(egui::Spinner::new().size(12.0));
            return;
        }
        let (text, tip) = if clip.recording {
            (
                RichText::new(format!("⏹ {:.2} s", clip.recorded())).color(egui::Color32::from_rgb(255, 90, 90)),
                "V: stop and write the clip (GIF)",
            )
        } else {
            (
                RichText::new("⏺ Clip"),
                "V: record the world view as an animated GIF, 30 frames per simulated second whatever the \
                 machine's speed; V again stops",
            )
        };
        if ui.add(egui::Button::new(text).selected(clip.recording)).on_hover_text(tip).clicked() {
            self.clip.push(ClipAction::Toggle);
        }
    }

    /// Two groups: the run (scene, transport, speed, time) from the left, the
    /// modes (algorithm, fit, compare, cue, tour, screenshot) from the right.
    /// When both do not fit on one row (a narrow window, presenter mode's
    /// larger text), the right group takes a second row; the left one wraps.
    /// Nothing is ever drawn over something else.
    pub fn ui(&mut self, ui: &mut egui::Ui) {
        let id = ui.id().with("toolbar-right-width");
        let right_width: f32 = ui.ctx().data(|d| d.get_temp(id)).unwrap_or(0.0);
        let full = ui.available_width();
        let spacing = ui.spacing().item_spacing.x;
        let mut one_row = false;
        ui.horizontal_wrapped(|ui| {
            self.left(ui, full, right_width + 3.0 * spacing);
            let left_width = ui.min_rect().width();
            if ui.min_rect().height() < 40.0 && left_width + right_width + 3.0 * spacing <= full {
                one_row = true;
                let used = self.right_group(ui);
                ui.ctx().data_mut(|d| d.insert_temp(id, used));
            }
        });
        if !one_row {
            ui.horizontal(|ui| {
                let used = self.right_group(ui);
                ui.ctx().data_mut(|d| d.insert_temp(id, used));
            });
        }
    }

    /// The right group laid out from the right edge; returns its width.
    /// Where even its buttons do not fit the row (presenter mode's larger
    /// text on an 800 px screen), it wraps to a second row instead of
    /// running past the window's left edge.
    fn right_group(&mut self, ui: &mut egui::Ui) -> f32 {
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center).with_main_wrap(true), |ui| {
            let row = ui.available_width();
            self.right(ui, row);
            let drawn = ui.min_rect();
            ui.ctx().data_mut(|d| d.insert_temp(egui::Id::new(RIGHT_GROUP_LEFT), drawn.left()));
            drawn.width()
        })
        .inner
    }

    /// `full`: the toolbar's width; `right`: the modes' group's, with its
    /// spacing (what the run's group leaves room for on a shared row).
    fn left(&mut self, ui: &mut egui::Ui, full: f32, right: f32) {
        // A clip holding the clock for a frame is not a pause.
        let paused = self.data.virt.is_paused() && !self.data.clip.holding;
        // Below this width the run's group does not fit on one row beside the
        // pace (1280 px: the step in flight wrapped to a row of its own, a
        // third toolbar row over the view): a shorter slider, and the step
        // number in the time's tooltip.
        let width = ui.available_width();
        let narrow = width < NARROW;
        // Presenter mode's larger text on a projector's 1280 px: the name,
        // the word "speed" and "reset all" (Shift+R) give their place (the
        // time took a row of its own, a third toolbar row over the view).
        let compact = self.data.state.present && width < PRESENT_NARROW;
        if !compact {
            ui.label(RichText::new("contact-lab").strong().size(17.0).color(egui::Color32::from_rgb(150, 200, 255)));
        }
        self.scene_menu(ui);
        ui.separator();
        let play = if paused { "▶ Play" } else { "⏸ Pause" };
        if ui
            .add(egui::Button::new(RichText::new(play).strong()).min_size(egui::vec2(84.0, 0.0)))
            .on_hover_text("Space")
            .clicked()
        {
            self.actions.push(LabAction::TogglePause);
        }
        if ui.button("⏮ Back").on_hover_text("← : restore the previous stored step").clicked() {
            self.actions.push(LabAction::StepBack);
        }
        if ui.button("Step ⏭").on_hover_text("→ : one step of h, then pause").clicked() {
            self.actions.push(LabAction::StepOnce);
        }
        if ui
            .button("⟲ Reset")
            .on_hover_text(
                "R: back to t = 0, paused (Space plays the opening); keeps the algorithm, the speed, dragged forces",
            )
            .clicked()
        {
            self.actions.push(LabAction::Reset);
        }
        if !compact
            && ui
                .button("⟲ all")
                .on_hover_text("Shift+R: reset all, the scene as its file has it (forces, algorithm, speed, view)")
                .clicked()
        {
            self.actions.push(LabAction::ResetAll);
        }
        // The speed, in presenter mode too: the paper's phenomena last
        // milliseconds, shown in slow motion.
        ui.separator();
        if !compact {
            ui.label("speed");
        }
        let mut speed = self.data.settings.speed;
        if self.data.state.present {
            // Presenter mode: the speed and its presets, no slider (one row at 1.5×).
            ui.label(RichText::new(format!("{speed:.2}×")).monospace());
        } else {
            if narrow {
                ui.spacing_mut().slider_width = 56.0;
            }
            let r = ui.add(
                egui::Slider::new(&mut speed, 0.01..=4.0)
                    .logarithmic(true)
                    .custom_formatter(|v, _| format!("{v:.2}×"))
                    .clamping(egui::SliderClamping::Always),
            );
            if r.changed() {
                self.data.settings.speed = speed;
            }
        }
        for s in [0.02, 0.1, 1.0] {
            let tip = if s < 1.0 { format!("{:.0}× slow motion", 1.0 / s) } else { "real time".into() };
            if ui.small_button(format!("{s}×")).on_hover_text(tip).clicked() {
                self.data.settings.speed = s;
            }
        }
        ui.separator();
        if let Some(lab) = &self.data.lab {
            let t = lab.time();
            let step = format!("step {}", lab.world.steps);
            // Never cut in two by the row's end ("t =" above "0.0000 s").
            let time = ui.add(egui::Label::new(RichText::new(format!("t = {t:.4} s")).monospace().size(15.0)).extend());
            if narrow {
                time.on_hover_text(step);
            } else {
                ui.label(RichText::new(step).monospace().color(egui::Color32::from_gray(170)));
            }
            let behind = self.data.budget.behind();
            let color = if behind { palette::egui(palette::WARN) } else { egui::Color32::from_gray(150) };
            // A step on a worker that has taken long enough to notice.
            let flight = self.data.in_flight.age().map(|a| a.as_secs_f64()).filter(|s| *s > 0.1);
            // One slot of fixed width for the pace or the step in flight: the
            // indicator coming and going wrapped the toolbar and the whole UI
            // jumped a line (issue 47, item 14).
            let slot = egui::vec2(if narrow { 124.0 } else { 150.0 }, ui.spacing().interact_size.y);
            // Presenter mode shows no pace: the slot is kept for the step in
            // flight where it fits without moving anything (beside the modes
            // where they share the row, on the row's own where they have one
            // below), held empty meanwhile; elsewhere it is left out and a
            // step in flight wraps nothing (the status bar says the run is
            // slow).
            let present = self.data.state.present;
            let used = ui.min_rect().width() + ui.spacing().item_spacing.x + slot.x;
            let shared = ui.min_rect().width() + right <= full;
            if present && used + if shared { right } else { 0.0 } > full {
                return;
            }
            ui.allocate_ui_with_layout(slot, egui::Layout::left_to_right(egui::Align::Center), |ui| {
                ui.set_min_width(slot.x);
                if let Some(secs) = flight {
                    ui.add(egui::Spinner::new().size(12.0));
                    ui.label(RichText::new(format!("step {} … {secs:.1} s", lab.world.steps + 1)).small().color(color))
                        .on_hover_text(
                            "This step runs on a worker thread; the window shows the last finished step and stays \
                             responsive. What you change now applies from the next step.",
                        );
                } else if !present {
                    ui.label(
                        RichText::new(format!("{:.3}× real time", self.data.state.rate.value)).small().color(color),
                    )
                    .on_hover_text("simulated seconds per wall-clock second, over the last half second");
                }
            });
        }
    }

    /// `row`: the group's width. The method's name and PAUSED come last
    /// and only where they fit (the view's banner says both).
    fn right(&mut self, ui: &mut egui::Ui, row: f32) {
        let paused = self.data.virt.is_paused() && !self.data.clip.holding;
        self.clip_button(ui);
        let editing = self.data.editor.on;
        if ui
            .add(egui::Button::new("✎ Edit").selected(editing))
            .on_hover_text("E: edit the scene's start with the mouse (tools, inspector, undo, Save as); E again leaves")
            .clicked()
        {
            self.edit.push(EditAction::Toggle);
        }
        if ui
            .button("✎ from here")
            .on_hover_text("edit a new scene whose start is the state on screen (after a break, after a drag)")
            .clicked()
        {
            self.edit.push(EditAction::FromHere);
        }
        let folder = self.data.output.0.display().to_string();
        if ui
            .button("📁")
            .on_hover_text(format!("screenshots and clips go to {folder}: choose another folder"))
            .clicked()
        {
            self.data.state.ask_folder = true;
        }
        if ui.button("📷").on_hover_text(format!("F12: save a screenshot (PNG) in {folder}")).clicked() {
            self.actions.push(LabAction::Screenshot);
        }
        let tour = if self.data.tour.open { "🎓 Tour ✓" } else { "🎓 Tour" };
        if ui.button(tour).on_hover_text("T: the guided tour of the paper, step by step").clicked() {
            self.tour.push(TourAction::Toggle);
        }
        if let Some(cue) = self.data.cue.as_deref_mut() {
            let armed = cue.armed;
            let button = egui::Button::new("🎱 Cue").selected(armed);
            if ui
                .add(button)
                .on_hover_text("K: drag back from a ball to aim, release to shoot (or Shift+drag)")
                .clicked()
            {
                cue.armed = !armed;
            }
        }
        let on = self.data.compare.on;
        let compare = egui::Button::new("⇶ Compare").selected(on);
        if ui
            .add(compare)
            .on_hover_text("C: fork the state shown into one lane per method (each algorithm, and time-stepping) and watch them part")
            .clicked()
        {
            self.compare.push(CompareAction::Toggle);
        }
        if ui.button("Fit view").on_hover_text("F").clicked() {
            self.actions.push(LabAction::FitView);
        }
        if let Some(lab) = &self.data.lab {
            let a = contact_core::Method::of(&lab.world.settings);
            let method = RichText::new(a.label()).strong().color(palette::method_color(a)).size(16.0);
            if fits(ui, row, &method) {
                ui.label(method);
                let pause = RichText::new("PAUSED").strong().color(egui::Color32::from_rgb(240, 170, 40));
                if paused && fits(ui, row, &pause) {
                    ui.label(pause);
                }
            }
        }
    }
}

/// The egui memory key of the modes' group's left edge (px) as last drawn:
/// the layout sweep checks it is inside the window.
pub const RIGHT_GROUP_LEFT: &str = "toolbar-right-group-left";

/// Whether `text` fits on the group's row (`row` wide) after what `ui` holds.
fn fits(ui: &egui::Ui, row: f32, text: &RichText) -> bool {
    let galley = egui::WidgetText::from(text.clone()).into_galley(
        ui,
        Some(egui::TextWrapMode::Extend),
        f32::INFINITY,
        egui::TextStyle::Body,
    );
    ui.min_rect().width() + ui.spacing().item_spacing.x + galley.size().x <= row
}
