//! The scene: a picker over `assets/scenes/`, opening any file, the scene's
//! description, a load error when the file is broken, and the constant forces.

use std::path::PathBuf;

use bevy_egui::egui::{self, RichText};

use super::data::PanelData;
use crate::app::lab::{ConstraintState, palette};

pub struct ScenePanel<'a, 'w, 's> {
    pub data: &'a mut PanelData<'w, 's>,
    pub open: &'a mut Option<PathBuf>,
}

/// The scene's name and what it shows, at the top of the left panel: the
/// first thing a student reads (issue 37: it sat collapsed at the bottom).
pub fn description(ui: &mut egui::Ui, data: &PanelData) {
    let Some(lab) = data.lab.as_deref() else { return };
    ui.label(RichText::new(&lab.scene.name).heading());
    if !lab.scene.description.is_empty() {
        ui.label(RichText::new(&lab.scene.description).color(egui::Color32::from_gray(200)));
    }
    ui.add_space(6.0);
}

impl ScenePanel<'_, '_, '_> {
    pub fn ui(&mut self, ui: &mut egui::Ui) {
        egui::CollapsingHeader::new(RichText::new("Scene").heading()).default_open(true).show(ui, |ui| {
            self.picker(ui);
            if let Some(err) = self.data.files.error.clone() {
                egui::Frame::new()
                    .fill(egui::Color32::from_rgb(70, 24, 28))
                    .stroke(egui::Stroke::new(1.0, palette::egui(palette::state_rgb(ConstraintState::Violated))))
                    .inner_margin(egui::Margin::same(6))
                    .corner_radius(4.0)
                    .show(ui, |ui| {
                        let running = self.data.lab.as_deref().map(|l| l.scene.name.as_str());
                        let title = crate::app::scene::not_loaded(running, self.data.files.instead);
                        ui.label(RichText::new(title.trim_end_matches(':')).strong());
                        ui.label(RichText::new(err).monospace().color(egui::Color32::from_rgb(255, 190, 190)));
                    });
            }
            if let Some(lab) = self.data.lab.as_deref() {
                ui.add_space(4.0);
                if let Some(p) = &lab.scene.path {
                    ui.label(RichText::new(p.display().to_string()).small().weak())
                        .on_hover_text("saved changes to this file are reloaded live");
                }
                let m = &lab.world.model;
                ui.label(
                    RichText::new(format!(
                        "{} bodies · {} coordinates · {} constraints",
                        m.bodies.len(),
                        m.ndofs(),
                        m.constraints.len()
                    ))
                    .small(),
                );
            }
            self.forces(ui);
        });
    }

    fn picker(&mut self, ui: &mut egui::Ui) {
        let files = &mut *self.data.files;
        let current = self.data.lab.as_deref().and_then(|l| l.scene.path.clone());
        let name = |p: &PathBuf| p.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
        ui.horizontal(|ui| {
            ui.label("scene");
            let shown = current.as_ref().map(name).unwrap_or_else(|| "—".into());
            let r = egui::ComboBox::from_id_salt("scene-picker")
                .selected_text(shown)
                .width(190.0)
                .height(f32::INFINITY)
                .show_ui(ui, |ui| {
                    for p in files.listing.clone() {
                        if ui.selectable_label(current.as_ref() == Some(&p), name(&p)).clicked() {
                            *self.open = Some(p);
                        }
                    }
                });
            if r.response.clicked() {
                files.refresh_listing();
            }
            if ui.small_button("⟳").on_hover_text("read the file again").clicked()
                && let Some(p) = current.clone()
            {
                *self.open = Some(p);
            }
        });
        ui.horizontal(|ui| {
            let edit = egui::TextEdit::singleline(&mut self.data.state.open_path)
                .hint_text("any scene file: /path/to/scene.ron")
                .desired_width((ui.available_width() - 80.0).max(60.0));
            let r = ui.add(edit);
            let enter = r.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            if (ui.button("Open").clicked() || enter) && !self.data.state.open_path.trim().is_empty() {
                *self.open = Some(PathBuf::from(self.data.state.open_path.trim()));
            }
        });
    }

    fn forces(&mut self, ui: &mut egui::Ui) {
        let Some(lab) = self.data.lab.as_deref_mut() else { return };
        let bodies: Vec<usize> = (0..lab.world.model.bodies.len())
            .filter(|&i| {
                let b = &lab.world.model.bodies[i];
                b.is_dynamic() && (b.force.x != 0.0 || b.force.y != 0.0)
            })
            .take(4)
            .collect();
        if bodies.is_empty() {
            return;
        }
        ui.add_space(4.0);
        ui.label(RichText::new("Constant force f (drag the blue arrow's tip)").strong());
        for i in bodies {
            let b = &mut lab.world.model.bodies[i];
            ui.horizontal(|ui| {
                ui.label(&b.name);
                ui.add(egui::DragValue::new(&mut b.force.x).speed(0.02).prefix("fx ").suffix(" N"));
                ui.add(egui::DragValue::new(&mut b.force.y).speed(0.02).prefix("fy ").suffix(" N"));
            });
        }
        let wedge =
            lab.world.model.constraint_index("g1").is_some() && lab.world.model.constraint_index("g2").is_some();
        if !wedge {
            return;
        }
        ui.horizontal(|ui| {
            ui.label(RichText::new("paper:").small());
            let first = (0..lab.world.model.bodies.len()).find(|&i| lab.world.model.bodies[i].is_dynamic());
            if let Some(i) = first {
                if ui.small_button("f = (2, −1) §3").clicked() {
                    lab.world.model.bodies[i].force = nalgebra::Vector2::new(2.0, -1.0);
                }
                if ui.small_button("f = (−1, −2) §4.1").clicked() {
                    lab.world.model.bodies[i].force = nalgebra::Vector2::new(-1.0, -2.0);
                }
            }
        });
    }
}
