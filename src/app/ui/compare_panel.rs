//! The Compare panel, docked above the world view while compare mode is on
//! ([`crate::app::compare`]), so it never covers the scene (issue 37: as a
//! window it took the top half of the view): a legend (the lanes' colours are the algorithm
//! buttons', violet for time-stepping), one row per run with `‖q − q_Exact‖`
//! (Exact under the paper's event-driven scheme), the largest penetration since
//! the fork, the energy, the handled rows and the solves of the last step, and
//! the buttons to keep a lane, drop it, fork again or leave.

use bevy_egui::egui::{self, RichText};
use contact_core::{Algorithm, Method, World};

use super::data::PanelData;
use crate::app::compare::CompareAction;
use crate::app::lab::palette::method_color;

pub struct ComparePanel<'a, 'w, 's> {
    pub data: &'a mut PanelData<'w, 's>,
    pub actions: &'a mut Vec<CompareAction>,
}

/// One row of the readout.
struct Row {
    label: String,
    method: Method,
    distance: Option<f64>,
    penetration: f64,
    energy: f64,
    handled: usize,
    solves: usize,
    note: Option<String>,
}

fn energy(w: &World) -> f64 {
    w.model.kinetic_energy(&w.state) + w.model.potential_energy(&w.state)
}

impl ComparePanel<'_, '_, '_> {
    /// Docks the panel at the top of what `root` has left (the world view's
    /// column), when compare mode is on.
    pub fn show(&mut self, root: &mut egui::Ui, frame: egui::Frame) {
        if !self.data.compare.on {
            return;
        }
        egui::Panel::top("compare").resizable(false).frame(frame).show(root, |ui| self.ui(ui));
    }

    fn rows(&self) -> Vec<Row> {
        let Some(lab) = self.data.lab.as_deref() else { return Vec::new() };
        let compare = &*self.data.compare;
        let reference = Method::event_driven(Algorithm::Exact);
        let exact: Option<&World> = if Method::of(&lab.world.settings) == reference {
            Some(&lab.world)
        } else {
            compare.lane(reference).map(|l| &l.lane.world)
        };
        let distance = |w: &World| {
            exact.map(|e| w.state.q.iter().zip(&e.state.q).map(|(a, b)| (a - b) * (a - b)).sum::<f64>().sqrt())
        };
        let report = lab.report.as_ref();
        let mut rows = vec![Row {
            label: "lab".into(),
            method: Method::of(&lab.world.settings),
            distance: distance(&lab.world),
            penetration: compare.main_penetration,
            energy: energy(&lab.world),
            handled: report.map_or(0, |r| r.handled.iter().filter(|h| **h).count()),
            solves: report.map_or(0, |r| r.solves),
            note: None,
        }];
        // The paper's algorithms leave friction aside: their lanes say so.
        let friction = lab.world.model.has_friction();
        for l in &compare.lanes {
            let r = l.lane.report.as_ref();
            let frictionless = friction && l.lane.method().algorithm != Algorithm::Exact;
            rows.push(Row {
                label: format!("from {:.3} s{}", l.from, if frictionless { ", no μ" } else { "" }),
                method: l.lane.method(),
                distance: distance(&l.lane.world),
                penetration: l.lane.max_penetration,
                energy: l.lane.energy(),
                handled: r.map_or(0, |r| r.handled.iter().filter(|h| **h).count()),
                solves: r.map_or(0, |r| r.solves),
                note: l.lane.diverged.clone(),
            });
        }
        rows
    }

    fn ui(&mut self, ui: &mut egui::Ui) {
        // The table folds to the header line; folded at first in a short
        // window (below 800 px), where the scene needs the height.
        let id = egui::Id::new("compare-table-open");
        let tall = ui.ctx().content_rect().height() * ui.ctx().zoom_factor() >= 800.0;
        let mut open = ui.data(|d| d.get_temp::<bool>(id)).unwrap_or(tall);
        self.header(ui, &mut open);
        ui.data_mut(|d| d.insert_temp(id, open));
        let rows = self.rows();
        if open {
            // Wider than the view's column in a small window: it scrolls sideways.
            egui::ScrollArea::horizontal().show(ui, |ui| self.table(ui, &rows));
        }
        // A lane that diverged or stopped (an unsolved step: the heap's
        // rolling resistance under the paper's scheme) says why, once per
        // cause, the table folded or not: folded, its outlines would stand
        // still in the view with nothing to say why.
        let mut said: Vec<&str> = Vec::new();
        for r in &rows {
            let Some(why) = r.note.as_deref() else { continue };
            if said.contains(&why) {
                continue;
            }
            said.push(why);
            let lanes: Vec<&str> =
                rows.iter().filter(|o| o.note.as_deref() == Some(why)).map(|o| o.method.label()).collect();
            let text = format!("⚠ {} {why}", lanes.join(", "));
            ui.label(RichText::new(text).small().color(egui::Color32::from_rgb(240, 170, 40)));
        }
    }

    fn table(&mut self, ui: &mut egui::Ui, rows: &[Row]) {
        egui::Grid::new("compare-rows").num_columns(8).striped(true).spacing([10.0, 4.0]).show(ui, |ui| {
            for h in ["", "run", "‖q − q_Exact‖ [m]", "max penetration [m]", "energy [J]", "handled", "solves", ""]
            {
                ui.label(RichText::new(h).small().strong());
            }
            ui.end_row();
            for (i, r) in rows.iter().enumerate() {
                let color = method_color(r.method);
                ui.label(RichText::new("⬤").color(color));
                let run = format!("{} · {}", r.method.label(), r.label);
                ui.add(
                    egui::Label::new(RichText::new(run).strong().color(color)).wrap_mode(egui::TextWrapMode::Extend),
                );
                ui.label(RichText::new(r.distance.map_or("—".into(), |d| format!("{d:.3e}"))).monospace());
                let pen = RichText::new(format!("{:.3e}", r.penetration)).monospace();
                let pen = if r.penetration > 1e-6 { pen.color(egui::Color32::from_rgb(255, 110, 110)) } else { pen };
                ui.label(pen).on_hover_text(r.note.clone().unwrap_or_else(|| "largest since the fork".into()));
                ui.label(RichText::new(format!("{:.6}", r.energy)).monospace());
                ui.label(RichText::new(r.handled.to_string()).monospace());
                ui.label(RichText::new(r.solves.to_string()).monospace());
                if i > 0 {
                    ui.horizontal(|ui| {
                        if ui.small_button("Keep").on_hover_text("make this lane the lab's run and leave").clicked() {
                            self.actions.push(CompareAction::Keep(i - 1));
                        }
                        if ui.small_button("✖").on_hover_text("drop this lane").clicked() {
                            self.actions.push(CompareAction::Remove(i - 1));
                        }
                    });
                } else {
                    ui.label("");
                }
                ui.end_row();
            }
        });
    }

    /// The fold, the title (its hover explains the lanes), the algorithms to
    /// fork, and the buttons, on one line.
    fn header(&mut self, ui: &mut egui::Ui, open: &mut bool) {
        ui.horizontal_wrapped(|ui| {
            let fold = if *open { "▾" } else { "▸" };
            if ui.small_button(fold).on_hover_text("show or fold the runs' table").clicked() {
                *open = !*open;
            }
            ui.label(RichText::new("⇶ Compare").strong()).on_hover_text(
                "Lanes take the lab's steps on the same inputs (springs, forces, shots, settings but the algorithm). \
                 World view: lanes as outlines. Plots: the lab solid, lanes dashed, in their method's colour \
                 (hover a line for its name). Time-stepping is Moreau–Jean's scheme (one velocity problem a step, \
                 under Exact) beside the paper's event-driven one. Penetration: the largest since the fork.",
            );
            ui.separator();
            ui.label("fork");
            let compare = &mut *self.data.compare;
            for a in Method::ALL {
                let mut on = compare.chosen.is_empty() || compare.chosen.contains(&a);
                if ui.checkbox(&mut on, RichText::new(a.label()).color(method_color(a))).changed() {
                    if compare.chosen.is_empty() {
                        compare.chosen = Method::ALL.to_vec();
                    }
                    compare.chosen.retain(|x| *x != a);
                    if on {
                        compare.chosen.push(a);
                    }
                }
            }
            ui.separator();
            if ui.button("Fork here").on_hover_text("every chosen method from the state shown").clicked() {
                self.actions.push(CompareAction::Fork { from_start: false });
            }
            if ui.button("From the start").on_hover_text("reset, then fork the chosen methods").clicked() {
                self.actions.push(CompareAction::Fork { from_start: true });
            }
            if ui.button("Leave").on_hover_text("C: keep the lab's run, drop the lanes").clicked() {
                self.actions.push(CompareAction::Leave);
            }
        });
    }
}
