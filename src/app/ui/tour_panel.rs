//! The Tour panel, docked at the top of the left panel (it never covers the
//! world it describes): the tour's steps, the current step's text, what to
//! look at, and the buttons that load a step's scene and algorithm (see
//! [`crate::app::tour`]).

use bevy_egui::egui::{self, RichText};

use super::data::PanelData;
use crate::app::lab::ConstraintState;
use crate::app::lab::palette::{self, algorithm_color};
use crate::app::tour::{TourAction, running_step};

pub struct TourPanel<'a, 'w, 's> {
    pub data: &'a mut PanelData<'w, 's>,
    pub actions: &'a mut Vec<TourAction>,
}

impl TourPanel<'_, '_, '_> {
    /// The panel in the left column: a header with its close button, then the tour.
    pub fn docked(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            ui.heading("🎓 Tour");
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                if ui.small_button("✕").on_hover_text("T: close the tour").clicked() {
                    self.actions.push(TourAction::Toggle);
                }
            });
        });
        self.ui(ui);
    }

    fn ui(&mut self, ui: &mut egui::Ui) {
        let state = &self.data.tour;
        let Some(tour) = &state.tour else {
            ui.label(RichText::new("The tour file could not be read:").strong());
            let e = state.error.clone().unwrap_or_else(|| format!("{}: not read yet", state.path.display()));
            ui.label(RichText::new(e).monospace().color(palette::egui(palette::state_rgb(ConstraintState::Violated))));
            if ui.button("Read it again").clicked() {
                self.actions.push(TourAction::Reload);
            }
            return;
        };
        let running = running_step(state, self.data.lab.as_deref());
        let n = tour.steps.len();
        let cur = state.current.min(n - 1);
        // The tour's own description on its first step; on the others it is
        // the title's hover: its seven lines pushed the step's actions below
        // the fold at 1280x720 (issue 47, item 6).
        let title = ui.label(RichText::new(&tour.title).heading().strong());
        if !tour.description.is_empty() {
            if cur == 0 {
                ui.label(RichText::new(&tour.description).small().color(egui::Color32::from_gray(175)));
            } else {
                title.on_hover_text(&tour.description);
            }
        }
        ui.add_space(4.0);
        // The step first, its buttons right under its title: what to read and
        // where to go are above the fold; the list of steps comes after
        // (issue 37: the text and Next were below eleven titles).
        let step = &tour.steps[cur];
        // Wrapped: a row wider than the panel (presenter mode's larger text)
        // widened the panel's Ui, and every text under it ran past the
        // panel's edge, Next half hidden (issue 47, item 6).
        ui.horizontal_wrapped(|ui| {
            if ui.add_enabled(cur > 0, egui::Button::new("◀ Previous")).clicked() {
                self.actions.push(TourAction::Go(cur - 1));
            }
            let load = if running == Some(cur) { "⟲ Restart this step" } else { "▶ Load this step" };
            if ui
                .add(egui::Button::new(RichText::new(load).strong()))
                .on_hover_text(format!("Open {} with its algorithm", step.scene.display()))
                .clicked()
            {
                self.actions.push(TourAction::Go(cur));
            }
            if ui.add_enabled(cur + 1 < n, egui::Button::new("Next ▶")).clicked() {
                self.actions.push(TourAction::Go(cur + 1));
            }
            ui.label(RichText::new(format!("{}/{n}", cur + 1)).small().color(egui::Color32::from_gray(150)));
        });
        ui.horizontal_wrapped(|ui| {
            ui.label(RichText::new(&step.title).size(16.0).strong());
            if let Some(a) = step.algorithm {
                ui.label(RichText::new(a.label()).strong().color(algorithm_color(a)));
            }
        });
        ui.label(&step.text);
        if !step.look.is_empty() {
            ui.add_space(4.0);
            ui.label(RichText::new("What to look at").strong().color(egui::Color32::from_rgb(150, 200, 255)));
            for l in &step.look {
                ui.horizontal_wrapped(|ui| {
                    ui.label("•");
                    ui.label(l);
                });
            }
        }
        ui.add_space(6.0);
        // The steps, one per line: click to go there.
        egui::CollapsingHeader::new("All steps").default_open(false).show(ui, |ui| {
            for (i, s) in tour.steps.iter().enumerate() {
                let mut text = RichText::new(&s.title);
                if i == cur {
                    text = text.strong();
                }
                let label = if running == Some(i) { text.color(egui::Color32::from_rgb(140, 220, 160)) } else { text };
                if ui.selectable_label(i == cur, label).clicked() {
                    self.actions.push(TourAction::Go(i));
                }
            }
        });
    }
}
