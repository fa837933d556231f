//! The edit panel ([`crate::app::edit`]): the tools, snapping, the defaults of
//! new bodies, undo and redo, the inspector of the selected body, and Save as.
//!
//! The inspector shows every field the scene format has for the body's kind.
//! A value is applied when its field loses focus or Enter is pressed, through
//! the same check a scene file gets: a value that is not a number, or that the
//! file would refuse, is named and refused, and the document stays as it was.

use bevy_egui::egui::{self, RichText};
use contact_core::scene::SceneDoc;
use contact_core::scene::schema::BodySpec;

use super::data::PanelData;
use crate::app::edit::{BeadCurve, EditAction, Tool};
use crate::app::lab::palette;

pub struct EditPanel<'a, 'w, 's> {
    pub data: &'a mut PanelData<'w, 's>,
    pub actions: &'a mut Vec<EditAction>,
}

/// One field of the inspector: its label, the file's field name, its text.
struct Field {
    label: &'static str,
    value: String,
}

impl EditPanel<'_, '_, '_> {
    pub fn ui(&mut self, ui: &mut egui::Ui) {
        let ed = &mut self.data.editor;
        ui.label(RichText::new("Tools").strong());
        egui::Grid::new("edit-tools").num_columns(2).spacing([6.0, 4.0]).show(ui, |ui| {
            for (i, tool) in Tool::ALL.into_iter().enumerate() {
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
        if ed.tool == Tool::Bead {
            ui.horizontal(|ui| {
                ui.label("curve");
                for c in BeadCurve::ALL {
                    ui.selectable_value(&mut ed.bead_curve, c, c.label());
                }
            });
        }
        if ed.tool == Tool::Rack {
            ui.horizontal(|ui| {
                ui.label("rack rows");
                ui.add(egui::DragValue::new(&mut ed.rack_rows).range(1..=8));
                let n = ed.rack_rows * (ed.rack_rows + 1) / 2;
                ui.label(RichText::new(format!("{n} balls")).weak());
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
        let ed = &mut self.data.editor;
        ui.label(RichText::new("Save as").strong());
        ui.add(egui::TextEdit::singleline(&mut ed.save_path).desired_width(f32::INFINITY));
        if ui
            .button("💾 Save and open")
            .on_hover_text("write the scene file (it loads back bit for bit) and open it like any scene")
            .clicked()
        {
            self.actions.push(EditAction::SaveAs(ed.save_path.clone().into()));
        }
    }

    /// The selected body's fields; bodies listed to pick from when none is selected.
    fn inspector(&mut self, ui: &mut egui::Ui) {
        let ed = &mut self.data.editor;
        let Some(doc) = ed.doc.clone() else { return };
        let Some(name) = ed.selected.clone() else {
            ui.label(RichText::new("Bodies").strong());
            egui::ScrollArea::vertical().max_height(160.0).id_salt("edit-bodies").show(ui, |ui| {
                for n in doc.body_names() {
                    if ui.selectable_label(false, &n).clicked() {
                        ed.selected = Some(n);
                    }
                }
            });
            return;
        };
        let Some(spec) = doc.body(&name) else {
            ed.selected = None;
            return;
        };
        ui.horizontal(|ui| {
            ui.label(RichText::new(format!("{name} ({})", kind(spec))).strong());
            if ui.small_button("🗑 Delete").on_hover_text("Delete: the body and its constraints").clicked() {
                self.actions.push(EditAction::DeleteSelected);
            }
        });
        let fields = fields_of(spec);
        let key = |label: &str| egui::Id::new(("edit-field", name.as_str(), label));
        egui::Grid::new("edit-inspector").num_columns(2).spacing([8.0, 3.0]).show(ui, |ui| {
            for field in &fields {
                ui.label(field.label);
                // The text being typed lives in egui's memory until applied.
                let id = key(field.label);
                let mut text: String = ui.data_mut(|d| d.get_temp(id)).unwrap_or_else(|| field.value.clone());
                let r = ui.add(egui::TextEdit::singleline(&mut text).desired_width(120.0));
                let commit = r.lost_focus() && text != field.value;
                if r.has_focus() || commit {
                    ui.data_mut(|d| d.insert_temp(id, text.clone()));
                } else {
                    ui.data_mut(|d| d.remove::<String>(id));
                }
                if commit {
                    ui.data_mut(|d| d.remove::<String>(id));
                    match with_field(&doc, &name, field.label, &text) {
                        Ok(next) => {
                            if field.label == "name" {
                                ed.selected = Some(text.trim().to_string());
                            }
                            self.actions.push(EditAction::Replace(Box::new(next)));
                        }
                        Err(e) => ed.error = Some(e),
                    }
                }
                ui.end_row();
            }
        });
    }
}

fn kind(b: &BodySpec) -> &'static str {
    match b {
        BodySpec::Particle { .. } => "particle",
        BodySpec::Ball { .. } => "ball",
        BodySpec::Bead { .. } => "bead",
        BodySpec::Anchor { .. } => "anchor",
        BodySpec::FixedBall { .. } => "fixed ball",
    }
}

/// Every field the scene format has for the body, as text (numbers in the
/// shortest form that reads back to the same value).
fn fields_of(b: &BodySpec) -> Vec<Field> {
    let f = |label, v: f64| Field { label, value: format!("{v}") };
    let name = |n: &String| Field { label: "name", value: n.clone() };
    match b {
        BodySpec::Particle { name: n, position, velocity, mass, radius, force, damping }
        | BodySpec::Ball { name: n, position, velocity, mass, radius, force, damping } => vec![
            name(n),
            f("position.x", position.0),
            f("position.y", position.1),
            f("velocity.x", velocity.0),
            f("velocity.y", velocity.1),
            f("mass", *mass),
            f("radius", *radius),
            f("force.x", force.0),
            f("force.y", force.1),
            f("damping", *damping),
        ],
        BodySpec::Bead { name: n, u, u_dot, mass, radius, force, damping, .. } => vec![
            name(n),
            f("u", *u),
            f("u_dot", *u_dot),
            f("mass", *mass),
            f("radius", *radius),
            f("force.x", force.0),
            f("force.y", force.1),
            f("damping", *damping),
        ],
        BodySpec::Anchor { name: n, position } => {
            vec![name(n), f("position.x", position.0), f("position.y", position.1)]
        }
        BodySpec::FixedBall { name: n, position, radius } => {
            vec![name(n), f("position.x", position.0), f("position.y", position.1), f("radius", *radius)]
        }
    }
}

/// The document with field `label` of body `body` set from `text`; a value
/// that is not a number is refused here (the rest by the file's checks).
fn with_field(doc: &SceneDoc, body: &str, label: &str, text: &str) -> Result<SceneDoc, String> {
    let mut next = doc.clone();
    let index = doc.body_names().iter().position(|n| n == body).ok_or("the body is gone")?;
    let path = format!("bodies[{index}].{label}");
    if label == "name" {
        let new = text.trim();
        if new.is_empty() {
            return Err(format!("field `{path}`: a body needs a name"));
        }
        next.rename_body(body, new);
        return Ok(next);
    }
    let v: f64 = text.trim().parse().map_err(|_| format!("field `{path}`: `{text}` is not a number"))?;
    let spec = next.body_mut(body).ok_or("the body is gone")?;
    let slot: Option<&mut f64> = match (spec, label) {
        (
            BodySpec::Particle { position, .. }
            | BodySpec::Ball { position, .. }
            | BodySpec::Anchor { position, .. }
            | BodySpec::FixedBall { position, .. },
            "position.x" | "position.y",
        ) => Some(if label.ends_with('x') { &mut position.0 } else { &mut position.1 }),
        (BodySpec::Particle { velocity, .. } | BodySpec::Ball { velocity, .. }, "velocity.x" | "velocity.y") => {
            Some(if label.ends_with('x') { &mut velocity.0 } else { &mut velocity.1 })
        }
        (
            BodySpec::Particle { force, .. } | BodySpec::Ball { force, .. } | BodySpec::Bead { force, .. },
            "force.x" | "force.y",
        ) => Some(if label.ends_with('x') { &mut force.0 } else { &mut force.1 }),
        (BodySpec::Particle { mass, .. } | BodySpec::Ball { mass, .. } | BodySpec::Bead { mass, .. }, "mass") => {
            Some(mass)
        }
        (
            BodySpec::Particle { radius, .. }
            | BodySpec::Ball { radius, .. }
            | BodySpec::Bead { radius, .. }
            | BodySpec::FixedBall { radius, .. },
            "radius",
        ) => Some(radius),
        (
            BodySpec::Particle { damping, .. } | BodySpec::Ball { damping, .. } | BodySpec::Bead { damping, .. },
            "damping",
        ) => Some(damping),
        (BodySpec::Bead { u, .. }, "u") => Some(u),
        (BodySpec::Bead { u_dot, .. }, "u_dot") => Some(u_dot),
        _ => None,
    };
    *slot.ok_or(format!("field `{path}`: not a field of this body"))? = v;
    Ok(next)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc() -> SceneDoc {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/scenes/billiard-corner.ron");
        SceneDoc::load(&path).unwrap()
    }

    #[test]
    fn a_value_that_is_not_a_number_is_refused_with_the_field_named() {
        let e = with_field(&doc(), "b3", "mass", "heavy").unwrap_err();
        assert_eq!(e, "field `bodies[2].mass`: `heavy` is not a number");
    }

    #[test]
    fn a_number_the_file_would_refuse_is_refused_by_the_file_s_check() {
        let next = with_field(&doc(), "b3", "radius", "-0.1").unwrap();
        let e = next.check("edited").unwrap_err();
        assert_eq!(e.field.as_deref(), Some("bodies[2].radius"), "{e}");
    }

    #[test]
    fn every_field_shown_can_be_set_and_reads_back() {
        let d = doc();
        for field in fields_of(&d.file.bodies[10]) {
            if field.label == "name" {
                continue;
            }
            let next = with_field(&d, "cue", field.label, "0.25").unwrap();
            let back = fields_of(next.body("cue").unwrap());
            let v = back.iter().find(|f| f.label == field.label).unwrap();
            assert_eq!(v.value, "0.25", "{}", field.label);
        }
        let renamed = with_field(&d, "cue", "name", "white").unwrap();
        assert!(renamed.body_names().contains(&"white".to_string()));
        renamed.check("renamed").unwrap();
    }
}
