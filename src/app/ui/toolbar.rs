//! The toolbar: scene, play/pause/step/reset, speed, time and the algorithm at a glance.

use bevy_egui::egui::{self, RichText};
use contact_core::Algorithm;

use super::PanelData;
use crate::app::control::LabAction;

pub struct Toolbar<'a, 'w, 's> {
    pub data: &'a mut PanelData<'w, 's>,
    pub actions: &'a mut Vec<LabAction>,
    pub tour: &'a mut Vec<crate::app::tour::TourAction>,
    pub compare: &'a mut Vec<crate::app::compare::CompareAction>,
}

impl Toolbar<'_, '_, '_> {
    pub fn ui(&mut self, ui: &mut egui::Ui) {
        let paused = self.data.virt.is_paused();
        ui.horizontal(|ui| {
            ui.label(RichText::new("contact-lab").strong().size(17.0).color(egui::Color32::from_rgb(150, 200, 255)));
            if let Some(lab) = &self.data.lab {
                ui.label(RichText::new(&lab.scene.name).size(16.0).strong());
            }
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
            if ui.button("⟲ Reset").on_hover_text("R : back to the scene's start (settings kept)").clicked() {
                self.actions.push(LabAction::Reset);
            }
            // Presenter mode: no speed controls (a cleaner bar at 1.5× size).
            if !self.data.state.present {
                ui.separator();
                ui.label("speed");
                let mut speed = self.data.settings.speed;
                let r = ui.add(
                    egui::Slider::new(&mut speed, 0.01..=4.0)
                        .logarithmic(true)
                        .custom_formatter(|v, _| format!("{v:.2}×"))
                        .clamping(egui::SliderClamping::Always),
                );
                if r.changed() {
                    self.data.settings.speed = speed;
                }
                for s in [0.1, 1.0] {
                    if ui.small_button(format!("{s}×")).clicked() {
                        self.data.settings.speed = s;
                    }
                }
            }
            ui.separator();
            if let Some(lab) = &self.data.lab {
                let t = lab.time();
                ui.label(RichText::new(format!("t = {t:.4} s")).monospace().size(15.0));
                ui.label(
                    RichText::new(format!("step {}", lab.world.steps)).monospace().color(egui::Color32::from_gray(170)),
                );
                let behind = self.data.budget.behind();
                let color = if behind {
                    crate::app::palette::egui(crate::app::palette::WARN)
                } else {
                    egui::Color32::from_gray(150)
                };
                if !self.data.state.present {
                    ui.label(
                        RichText::new(format!("{:.3}× real time", self.data.state.rate.value)).small().color(color),
                    )
                    .on_hover_text("simulated seconds per wall-clock second, over the last half second");
                }
            }
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                if ui.button("📷").on_hover_text("F12: save a screenshot (PNG) in the current directory").clicked() {
                    self.actions.push(LabAction::Screenshot);
                }
                let tour = if self.data.tour.open { "🎓 Tour ✓" } else { "🎓 Tour" };
                if ui.button(tour).on_hover_text("T: the guided tour of the paper, step by step").clicked() {
                    self.tour.push(crate::app::tour::TourAction::Toggle);
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
                    .on_hover_text("C: fork the state shown into one lane per algorithm and watch them part")
                    .clicked()
                {
                    self.compare.push(crate::app::compare::CompareAction::Toggle);
                }
                if ui.button("Fit view").on_hover_text("F").clicked() {
                    self.actions.push(LabAction::FitView);
                }
                if let Some(lab) = &self.data.lab {
                    let a = lab.world.settings.algorithm;
                    ui.label(RichText::new(a.label()).strong().color(algorithm_color(a)).size(16.0));
                    if paused {
                        ui.label(RichText::new("PAUSED").strong().color(egui::Color32::from_rgb(240, 170, 40)));
                    }
                }
            });
        });
    }
}

/// A colour per algorithm ([`crate::app::palette::algorithm`]).
pub fn algorithm_color(a: Algorithm) -> egui::Color32 {
    crate::app::palette::egui(crate::app::palette::algorithm(a))
}
