//! The edit panel ([`crate::app::edit`]): the tools, snapping, the defaults of
//! new bodies, undo and redo, the inspector, and Save as.
//!
//! The inspector shows every field the scene format has for the selected
//! body, wall or constraint, and with nothing selected the scene's own (the
//! solver, the view, the plots) and lists to pick from; the fields themselves
//! are [`crate::app::edit::fields`]. A value is applied when its field loses
//! focus or Enter is pressed, through the same check a scene file gets: a
//! value that is not a number, or that the file would refuse, is named and
//! refused, and the document stays as it was.
//!
//! The scene's "algorithm" is the one in force (the toolbar's, keys 1–4):
//! choosing another here switches the lab too, and Save writes it. The
//! question asked before unsaved edits are dropped ([`leave_dialog`]) is here too.

use bevy_egui::egui::{self, RichText};
use contact_core::impulse::ImpulseMode;
use contact_core::scene::document::constraint_name;
use contact_core::scene::schema::{PlotSpec, ViewSpec};
use contact_core::scene::{Item, SceneDoc};
use contact_core::settings::Integrator;
use contact_core::{Algorithm, Scheme};

use super::data::PanelData;
use crate::app::edit::fields::{Field, fields_of, fixed_of, scene_fields, solver_fields, with_field, with_fixed};
use crate::app::edit::{BeadCurve, EditAction, Editor, LeaveChoice, Refusal, Tool};
use crate::app::lab::{LabAction, palette};

pub struct EditPanel<'a, 'w, 's> {
    pub data: &'a mut PanelData<'w, 's>,
    pub actions: &'a mut Vec<EditAction>,
    /// The algorithm chosen in the inspector switches the lab's too.
    pub lab_actions: &'a mut Vec<LabAction>,
}

impl EditPanel<'_, '_, '_> {
    pub fn ui(&mut self, ui: &mut egui::Ui) {
        let ed = &mut self.data.editor;
        ui.label(RichText::new("Tools").strong());
        egui::Grid::new("edit-tools").num_columns(2).spacing([6.0, 4.0]).show(ui, |ui| {
            for (i, tool) in Tool::all().enumerate() {
                ui.selectable_value(&mut ed.tool, tool, tool.label()).on_hover_text(tool.hint());
                if i % 2 == 1 {
                    ui.end_row();
                }
            }
        });
        ui.label(RichText::new(ed.tool.hint()).small().weak());
        ui.horizontal(|ui| {
            ui.checkbox(&mut ed.snap_grid, "snap to grid");
            ui.add(egui::DragValue::new(&mut ed.grid).range(0.001..=1.0).speed(0.005).suffix(" m"));
        });
        ui.checkbox(&mut ed.snap_contact, "snap a ball to touch its neighbour");
        ui.horizontal(|ui| {
            ui.label("new: radius");
            ui.add(egui::DragValue::new(&mut ed.radius).range(0.001..=1.0).speed(0.002).suffix(" m"));
            ui.label("mass");
            ui.add(egui::DragValue::new(&mut ed.mass).range(1e-4..=1e4).speed(0.01).suffix(" kg"));
        });
        if ed.tool == Tool::BEAD {
            ui.horizontal(|ui| {
                ui.label("curve");
                for c in BeadCurve::ALL {
                    ui.selectable_value(&mut ed.bead_curve, c, c.label());
                }
            });
        }
        if ed.tool == Tool::RACK {
            ui.horizontal(|ui| {
                ui.label("rack rows");
                ui.add(egui::DragValue::new(&mut ed.rack_rows).range(1..=8));
                let n = ed.rack_rows * (ed.rack_rows + 1) / 2;
                ui.label(RichText::new(format!("{n} balls")).weak());
            });
            ui.horizontal(|ui| {
                ui.label("gap");
                ui.add(egui::DragValue::new(&mut ed.rack_gap).range(0.0..=1.0).speed(0.001).suffix(" m"))
                    .on_hover_text("between neighbours; 0: touching");
            });
        }
        if let Some(doc) = &ed.doc {
            let mut pairs = doc.file.ball_pairs;
            if ui
                .checkbox(&mut pairs, "balls collide with each other")
                .on_hover_text("the scene's `ball_pairs`: a contact for every pair of balls")
                .changed()
            {
                let mut next = doc.clone();
                next.file.ball_pairs = pairs;
                self.actions.push(EditAction::Replace(Box::new(next)));
            }
        }
        ui.horizontal(|ui| {
            if ui.add_enabled(ed.edits.can_undo(), egui::Button::new("↶ Undo")).on_hover_text("Ctrl+Z").clicked() {
                self.actions.push(EditAction::Undo);
            }
            if ui.add_enabled(ed.edits.can_redo(), egui::Button::new("↷ Redo")).on_hover_text("Ctrl+Y").clicked() {
                self.actions.push(EditAction::Redo);
            }
        });
        if let Some(e) = &ed.error {
            ui.label(RichText::new(format!("Refused: {e}")).color(palette::egui(palette::WARN)));
        }
        ui.separator();
        self.inspector(ui);
        ui.separator();
        if ui
            .button("💾 Save as…")
            .on_hover_text(
                "Ctrl+S: choose a file name, then the scene is written with the solver settings in force (the algorithm, \
                 τ, h; it loads back bit for bit) and opens like any scene",
            )
            .clicked()
        {
            self.actions.push(EditAction::Save);
        }
    }

    /// The selected item's fields; with nothing selected, the scene's own
    /// fields and the lists of bodies, walls and constraints to pick from.
    fn inspector(&mut self, ui: &mut egui::Ui) {
        let ed = &mut self.data.editor;
        let Some(doc) = ed.doc.clone() else { return };
        let Some(item) = ed.selected.clone() else {
            ui.label(RichText::new("Scene").strong());
            // The algorithm in force (the toolbar's): the one Save writes.
            let in_force = self.data.lab.as_deref().map_or(doc.file.solver.algorithm, |l| l.world.settings.algorithm);
            let algorithm = choice(
                ui,
                "algorithm",
                in_force,
                &Algorithm::ALL,
                Algorithm::label,
                "the algorithm in force (the toolbar's, keys 1–4): Save writes it",
            );
            if algorithm != in_force {
                self.lab_actions.push(LabAction::SetAlgorithm(algorithm));
                if algorithm != doc.file.solver.algorithm {
                    let mut next = doc.clone();
                    next.file.solver.algorithm = algorithm;
                    self.actions.push(EditAction::Replace(Box::new(next)));
                }
            }
            // The scheme in force, beside it (issue 47, item 13: the solver's
            // fields had no switch for it; the Algorithm panel's is hidden
            // while editing). Time-stepping's solver is Exact.
            let in_force = self.data.lab.as_deref().map_or(doc.file.solver.scheme, |l| l.world.settings.scheme);
            let scheme = choice(
                ui,
                "scheme",
                in_force,
                &Scheme::ALL,
                Scheme::label,
                "event-driven: the paper's rewinds, where the algorithm applies; time-stepping: one velocity problem \
                 a step (Moreau–Jean), under Exact. Save writes it",
            );
            if scheme != in_force {
                self.lab_actions.push(LabAction::SetScheme(scheme));
                if scheme != doc.file.solver.scheme {
                    let mut next = doc.clone();
                    next.file.solver.scheme = scheme;
                    if scheme == Scheme::TimeStepping {
                        next.file.solver.algorithm = Algorithm::Exact;
                    }
                    self.actions.push(EditAction::Replace(Box::new(next)));
                }
            }
            self.fields(ui, &doc, None, &scene_fields(&doc));
            self.solver(ui, &doc);
            self.view_and_plots(ui, &doc);
            self.lists(ui, &doc);
            return;
        };
        let Some((kind, fields)) = fields_of(&doc, &item) else {
            ed.selected = None;
            return;
        };
        ui.horizontal(|ui| {
            ui.label(RichText::new(format!("{} ({kind})", item.name())).strong());
            let hint = match item {
                Item::Body(_) => "Delete: the body and its constraints",
                _ => "Delete",
            };
            if ui.small_button("🗑 Delete").on_hover_text(hint).clicked() {
                self.actions.push(EditAction::DeleteSelected);
            }
            if ui.small_button("✕").on_hover_text("select nothing: the scene's fields").clicked() {
                self.data.editor.selected = None;
            }
        });
        // A body that turns may be fixed: a step, a ramp, a post.
        if let Item::Body(name) = &item
            && let Some(mut fixed) = fixed_of(&doc, name)
            && ui
                .checkbox(&mut fixed, "fixed: never moves")
                .on_hover_text("`fixed: true`: a shape with no coordinates (its motion, force and damping are cleared)")
                .changed()
            && let Some(next) = with_fixed(&doc, name, fixed)
        {
            self.actions.push(EditAction::Replace(Box::new(next)));
        }
        self.fields(ui, &doc, Some(&item), &fields);
    }

    /// A grid of text fields, each applied when it loses focus or on Enter.
    fn fields(&mut self, ui: &mut egui::Ui, doc: &SceneDoc, item: Option<&Item>, fields: &[Field]) {
        let ed = &mut self.data.editor;
        let owner = item.map_or("scene", Item::name).to_string();
        let key = |label: &str| egui::Id::new(("edit-field", owner.as_str(), label.to_string()));
        egui::Grid::new(("edit-inspector", owner.as_str())).num_columns(2).spacing([8.0, 3.0]).show(ui, |ui| {
            for field in fields {
                ui.label(field.label);
                if let Some(text) = committed(ui, key(field.label), &field.value, 150.0, field.hint) {
                    match with_field(doc, item, field.label, &text) {
                        Ok(next) => {
                            if field.label == "name"
                                && let Some(item) = item
                            {
                                ed.selected = Some(renamed(item, text.trim()));
                            }
                            self.actions.push(EditAction::Replace(Box::new(next)));
                        }
                        Err(e) => ed.error = Some(Refusal::of_field(field.label, e)),
                    }
                }
                ui.end_row();
            }
        });
    }

    /// The solver block's other fields: switches as widgets, numbers as fields.
    fn solver(&mut self, ui: &mut egui::Ui, doc: &SceneDoc) {
        egui::CollapsingHeader::new("Solver: every field").id_salt("edit-solver").show(ui, |ui| {
            let mut next = doc.clone();
            let sv = &mut next.file.solver;
            ui.checkbox(&mut sv.events, "events: rewind to first activations, impulses")
                .on_hover_text("`solver.events`");
            ui.horizontal(|ui| {
                ui.label("impulses");
                for m in [ImpulseMode::Simultaneous, ImpulseMode::Sequential] {
                    ui.selectable_value(&mut sv.impulses, m, m.label());
                }
            });
            ui.horizontal(|ui| {
                ui.label("integrator");
                ui.selectable_value(&mut sv.integrator, Integrator::SemiImplicitEuler, "semi-implicit Euler");
                ui.selectable_value(&mut sv.integrator, Integrator::ConstantAcceleration, "constant acc.");
            });
            ui.checkbox(&mut sv.sleep.enabled, "sleeping islands").on_hover_text("`solver.sleep.enabled`");
            ui.checkbox(&mut next.file.cue, "cue tool armed when the scene opens").on_hover_text("`cue`");
            if next != *doc {
                self.actions.push(EditAction::Replace(Box::new(next)));
            }
            self.fields(ui, doc, None, &solver_fields(doc));
        });
    }

    /// The view the scene opens with, and its plots (a title and the series,
    /// comma-separated; an unknown series is refused with its place named).
    fn view_and_plots(&mut self, ui: &mut egui::Ui, doc: &SceneDoc) {
        egui::CollapsingHeader::new("View and plots").id_salt("edit-view-plots").show(ui, |ui| {
            ui.horizontal_wrapped(|ui| {
                let shown = match &doc.file.view {
                    Some(v) => format!("({:.3}, {:.3}) to ({:.3}, {:.3}) m", v.min.0, v.min.1, v.max.0, v.max.1),
                    None => "around the bodies".into(),
                };
                ui.label(format!("view: {shown}"));
                if ui.small_button("use the view on screen").clicked() {
                    let (min, max) = self.data.view.visible();
                    let mut next = doc.clone();
                    next.file.view = Some(ViewSpec { min: (min.x, min.y), max: (max.x, max.y) });
                    self.actions.push(EditAction::Replace(Box::new(next)));
                }
                if doc.file.view.is_some() && ui.small_button("✕").on_hover_text("around the bodies").clicked() {
                    let mut next = doc.clone();
                    next.file.view = None;
                    self.actions.push(EditAction::Replace(Box::new(next)));
                }
            });
            let mut next = doc.clone();
            let mut changed = false;
            for (i, plot) in doc.file.plots.iter().enumerate() {
                ui.horizontal(|ui| {
                    let id = |part: &str| egui::Id::new(("edit-plot", i, part.to_string()));
                    if let Some(t) = committed(ui, id("title"), &plot.title, 110.0, "title") {
                        next.file.plots[i].title = t;
                        changed = true;
                    }
                    let series = plot.series.join(", ");
                    if let Some(t) = committed(ui, id("series"), &series, 150.0, "series, comma-separated") {
                        next.file.plots[i].series =
                            t.split(',').map(str::trim).filter(|x| !x.is_empty()).map(String::from).collect();
                        changed = true;
                    }
                    if ui.small_button("🗑").on_hover_text("remove this plot").clicked() {
                        next.file.plots[i].series.clear();
                        changed = true;
                    }
                });
            }
            if ui.small_button("+ plot").on_hover_text("a plot of the kinetic energy, to change").clicked() {
                next.file
                    .plots
                    .push(PlotSpec { title: "Kinetic energy".into(), series: vec!["kinetic_energy".into()] });
                changed = true;
            }
            if changed {
                // A plot with no series left goes.
                next.file.plots.retain(|p| !p.series.is_empty());
                self.actions.push(EditAction::Replace(Box::new(next)));
            }
        });
    }

    /// The bodies, walls and constraints, a click selects one.
    fn lists(&mut self, ui: &mut egui::Ui, doc: &SceneDoc) {
        let ed = &mut self.data.editor;
        let groups: [(&str, Vec<Item>); 3] = [
            ("Bodies", doc.body_names().into_iter().map(Item::Body).collect()),
            ("Walls", doc.file.walls.iter().map(|w| Item::Wall(w.name.clone())).collect()),
            ("Constraints", doc.file.constraints.iter().map(|c| Item::Constraint(constraint_name(c))).collect()),
        ];
        for (title, items) in groups {
            if items.is_empty() {
                continue;
            }
            egui::CollapsingHeader::new(format!("{title} ({})", items.len()))
                .id_salt(("edit-list", title))
                .default_open(items.len() <= 12)
                .show(ui, |ui| {
                    egui::ScrollArea::vertical().max_height(140.0).id_salt(("edit-list-scroll", title)).show(
                        ui,
                        |ui| {
                            for item in items {
                                if ui.selectable_label(false, item.name()).clicked() {
                                    ed.selected = Some(item);
                                }
                            }
                        },
                    );
                });
        }
    }
}

/// "Unsaved edits in NAME: Save… / Discard / Cancel", while something that
/// would drop them waits ([`crate::app::edit::leave`]); Escape or a click
/// beside it cancels. True while it is shown.
pub fn leave_dialog(ctx: &egui::Context, editor: &Editor, actions: &mut Vec<EditAction>) -> bool {
    let Some(leave) = &editor.leaving else { return false };
    let name = editor.doc.as_ref().map_or(String::new(), |d| d.file.name.clone());
    let quit = *leave == crate::app::edit::Leave::Quit;
    let r = egui::Modal::new(egui::Id::new("unsaved-edits")).show(ctx, |ui| {
        ui.set_max_width(420.0);
        ui.heading(format!("Unsaved edits in {name}"));
        ui.label(format!("{} drops them.", leave.doing()));
        if quit {
            ui.label(RichText::new("Ctrl+Q again quits without saving.").small().weak());
        }
        ui.add_space(6.0);
        let mut choice = None;
        ui.horizontal(|ui| {
            if ui.button("💾 Save…").on_hover_text("choose a file, save, then go on").clicked() {
                choice = Some(LeaveChoice::Save);
            }
            let discard = if quit { "Discard and quit" } else { "Discard" };
            if ui.button(discard).on_hover_text("drop the edits and go on").clicked() {
                choice = Some(LeaveChoice::Discard);
            }
            if ui.button("Cancel").on_hover_text("keep editing (Escape)").clicked() {
                choice = Some(LeaveChoice::Cancel);
            }
        });
        choice
    });
    let choice = r.inner.or_else(|| r.should_close().then_some(LeaveChoice::Cancel));
    if let Some(c) = choice {
        actions.push(EditAction::Answer(c));
    }
    true
}

/// A text field applied when it loses focus or on Enter: the text being
/// typed lives in egui's memory (under `id`) until then. The text to apply,
/// when it changed.
fn committed(ui: &mut egui::Ui, id: egui::Id, value: &str, width: f32, hint: &str) -> Option<String> {
    let mut text: String = ui.data_mut(|d| d.get_temp(id)).unwrap_or_else(|| value.to_string());
    let mut r = ui.add(egui::TextEdit::singleline(&mut text).desired_width(width).hint_text(hint));
    if !hint.is_empty() {
        r = r.on_hover_text(hint);
    }
    let commit = r.lost_focus() && text != value;
    if r.has_focus() && !commit {
        ui.data_mut(|d| d.insert_temp(id, text.clone()));
    } else {
        ui.data_mut(|d| d.remove::<String>(id));
    }
    commit.then_some(text)
}

/// `item` under its new name.
fn renamed(item: &Item, new: &str) -> Item {
    match item {
        Item::Body(_) => Item::Body(new.into()),
        Item::Wall(_) => Item::Wall(new.into()),
        Item::Constraint(_) => Item::Constraint(new.into()),
    }
}

/// A drop-down of `all` named by `label`, from `current`: the value picked.
fn choice<T: Copy + PartialEq>(
    ui: &mut egui::Ui,
    name: &str,
    current: T,
    all: &[T],
    label: fn(T) -> &'static str,
    hover: &str,
) -> T {
    let mut picked = current;
    egui::ComboBox::from_label(name)
        .selected_text(label(picked))
        .show_ui(ui, |ui| {
            for &x in all {
                ui.selectable_value(&mut picked, x, label(x));
            }
        })
        .response
        .on_hover_text(hover);
    picked
}
