//! The constraint table: name, kind, `g`, `J·q̈ − d`, `λ` (under time-stepping
//! the velocity problem's slack `J·v⁺ + g/h` and `P/h`), with friction `λ_t`
//! and whether the contact sticks or slides, state; sortable by any column; hovering a row highlights its bodies in the view, hovering a body
//! highlights its rows; the plot toggle adds the row's `g` and `λ` to the plots.

use bevy_egui::egui::{self, RichText};

use super::data::{Column, PanelData};
use crate::app::lab::names::seen_name;
use crate::app::lab::{ConstraintState, ConstraintStatus, FORCE_ROUND_OFF, force, geometry_label, num, palette};

pub struct ConstraintTable<'a, 'w, 's> {
    pub data: &'a mut PanelData<'w, 's>,
}

/// Column widths; the name's (index 1) is the least it gets: it takes the
/// width the panel has beyond the others, so whole names show. With
/// friction, `λ_t` takes the place of the kind (index 2; the kind is in the
/// name's tooltip) and the state says whether the contact sticks or slides.
/// The name takes what the others leave (its own at least): "box lower-left
/// on step" must read whole in a 600 px table (issue 37).
const WIDTHS: [f32; 8] = [26.0, 120.0, 64.0, 80.0, 82.0, 78.0, 110.0, 30.0];

/// The width of each column in a table `avail` wide.
fn widths(avail: f32, spacing: f32) -> [f32; 8] {
    let mut w = WIDTHS;
    let others: f32 = w.iter().enumerate().filter(|(i, _)| *i != 1).map(|(_, w)| w + spacing).sum();
    w[1] = (avail - others - spacing - 12.0).max(WIDTHS[1]);
    w
}

/// Radius of the dots in the name cell, one per dynamic body of the row.
const DOT: f32 = 4.0;

impl ConstraintTable<'_, '_, '_> {
    pub fn ui(&mut self, ui: &mut egui::Ui) {
        let Some(lab) = self.data.lab.as_deref() else { return };
        let n = lab.world.model.constraints.len();
        let mut status = vec![ConstraintStatus::default(); n];
        for (c, s) in &self.data.constraints {
            if c.index < n {
                status[c.index] = *s;
            }
        }
        let st = &mut self.data.state.table;
        let touching_only = *st.touching_only.get_or_insert(n > 24);
        ui.horizontal(|ui| {
            ui.heading("Constraints");
            let mut t = touching_only;
            if ui.checkbox(&mut t, "touching or handled only").changed() {
                st.touching_only = Some(t);
            }
        });
        let mut rows: Vec<usize> = (0..n)
            .filter(|&k| {
                !touching_only
                    || status[k].state != ConstraintState::Inactive
                    || self.data.highlight.constraint == Some(k)
            })
            .collect();
        let key = |k: &usize| -> f64 {
            let s = &status[*k];
            match st.sort {
                Column::G => s.g,
                Column::Tendency => s.tendency,
                Column::Lambda => s.lambda,
                Column::Friction => s.friction,
                Column::State => s.state as u8 as f64,
                _ => *k as f64,
            }
        };
        match st.sort {
            Column::Name => rows.sort_by(|a, b| lab.constraint_names[*a].cmp(&lab.constraint_names[*b])),
            Column::Kind => rows.sort_by_key(|k| geometry_label(&lab.world, *k)),
            _ => rows.sort_by(|a, b| key(a).total_cmp(&key(b))),
        }
        if st.descending {
            rows.reverse();
        }

        // Header.
        let friction = lab.world.model.has_friction();
        // Time-stepping solves velocities: its slack is J v⁺ + g/h, its λ the
        // step's mean force P/h (the report's own numbers, named as they are).
        let stepping = lab.world.settings.scheme == contact_core::Scheme::TimeStepping;
        // (column, its label, its width's index in `WIDTHS`), in the order shown.
        let mut headers = vec![
            (Column::Index, "#", 0),
            (Column::Name, "name", 1),
            (Column::State, "state", 6),
            (Column::Kind, "kind", 2),
            (Column::G, "g [m]", 3),
            (Column::Tendency, if stepping { "J·v⁺ + g/h" } else { "J·q̈ − d" }, 4),
            (Column::Lambda, if stepping { "P/h [N]" } else { "λ [N]" }, 5),
        ];
        if friction {
            headers[3] = (Column::Friction, "λ_t [N]", 2);
        }
        let w = widths(ui.available_width(), ui.spacing().item_spacing.x);
        ui.horizontal(|ui| {
            for &(col, label, i) in &headers {
                let col = &col;
                let arrow = if st.sort == *col { if st.descending { " ▼" } else { " ▲" } } else { "" };
                let b = egui::Button::new(RichText::new(format!("{label}{arrow}")).strong()).frame(false);
                let tip = match col {
                    Column::Tendency if stepping => {
                        "time-stepping's slack: J_k v⁺ + g_k/h ≥ 0, 0 where the row takes an impulse"
                    }
                    Column::Tendency => "violation tendency: J_k q̈ − d_k (< 0: tends to violate)",
                    Column::Lambda if stepping => "the impulse of the step over h: its mean force",
                    Column::Friction => "friction force λ_t along the contact's tangent (Exact only)",
                    Column::State if friction => {
                        "with friction: sticks (no slip, |λ_t| ≤ μ λ_n) or slides (|λ_t| = μ λ_n against the slip)"
                    }
                    _ => "sort",
                };
                if ui.add_sized([w[i], 18.0], b).on_hover_text(tip).clicked() {
                    if st.sort == *col {
                        st.descending = !st.descending;
                    } else {
                        st.sort = *col;
                        st.descending = false;
                    }
                }
            }
            ui.add_sized([w[7], 18.0], egui::Label::new(RichText::new("plot").strong()));
        });
        ui.separator();

        if rows.is_empty() && n > 0 {
            ui.label(
                egui::RichText::new(format!("No constraint is touching now: untick the box to see all {n}.")).weak(),
            );
        } else if n == 0 && lab.world.model.contacts.is_some() {
            // Contacts by proximity (a box with other bodies): rows come and go.
            ui.label(
                egui::RichText::new(
                    "Contacts come by proximity: a row appears\nwhen a body nears a wall or another body.",
                )
                .weak(),
            );
        }
        let hl_body = self.data.highlight.body;
        let mut hovered_row = None;
        let row_h = 19.0;
        let history = &mut self.data.history;
        let plots = &mut self.data.state.plots;
        egui::ScrollArea::vertical().id_salt("constraint-table").auto_shrink([false, false]).show_rows(
            ui,
            row_h,
            rows.len(),
            |ui, range| {
                for &k in &rows[range] {
                    let s = status[k];
                    let c = &lab.world.model.constraints[k];
                    let touches_hovered = hl_body.is_some_and(|b| c.bodies().contains(&b));
                    let (rect, resp) =
                        ui.allocate_exact_size(egui::vec2(ui.available_width(), row_h), egui::Sense::hover());
                    if resp.hovered() {
                        hovered_row = Some(k);
                    }
                    if touches_hovered || resp.hovered() || self.data.highlight.constraint == Some(k) {
                        ui.painter().rect_filled(rect, 2.0, egui::Color32::from_rgba_unmultiplied(255, 235, 80, 40));
                    }
                    let mut x = rect.min.x;
                    let name_x = x + w[0] + ui.spacing().item_spacing.x;
                    let mut cell = |ui: &mut egui::Ui, i: usize, text: RichText, indent: f32| {
                        let r = egui::Rect::from_min_size(
                            egui::pos2(x + 4.0 + indent, rect.min.y),
                            egui::vec2(w[i] - indent, row_h),
                        );
                        let shown = ui.put(r, egui::Label::new(text).truncate());
                        x += w[i] + ui.spacing().item_spacing.x;
                        shown
                    };
                    let dim = egui::Color32::from_gray(170);
                    cell(ui, 0, RichText::new(format!("{k}")).color(dim), 0.0);
                    // The name after a dot in the colour of each moving body it
                    // binds (the colour of its disc in the view); whole on hover.
                    let dynamic: Vec<usize> =
                        c.bodies().into_iter().filter(|&b| lab.world.model.bodies[b].is_dynamic()).collect();
                    for (j, &b) in dynamic.iter().enumerate() {
                        let centre = egui::pos2(name_x + 4.0 + DOT + j as f32 * (2.0 * DOT + 2.0), rect.center().y);
                        ui.painter().circle_filled(centre, DOT, palette::egui(palette::body_rgb(b)));
                    }
                    let indent = dynamic.len() as f32 * (2.0 * DOT + 2.0) + 2.0;
                    let names: Vec<&str> = dynamic.iter().map(|&b| lab.body_names[b].as_str()).collect();
                    // Named by what a person sees ("box's lower-left corner on
                    // floor"); the technical name in the tooltip.
                    let seen = seen_name(&lab.world, &lab.constraint_names, &lab.body_names, k);
                    // Compact in its cell ("box lower-left on step"), whole on hover.
                    let compact = seen.replace("'s ", " ").replace(" corner", "");
                    cell(ui, 1, RichText::new(&compact).strong(), indent).on_hover_text(format!(
                        "{seen}\n{} ({}; bodies: {}{})",
                        lab.constraint_names[k],
                        geometry_label(&lab.world, k),
                        names.join(", "),
                        if c.friction > 0.0 { format!("; μ = {}", c.friction) } else { String::new() }
                    ));
                    // The state beside the name: a narrow table scrolls the
                    // numbers out of sight, never whether it sticks or slides
                    // (issue 47, item 5: tour step 10's words were cut).
                    let state = format!("{}{}", s.state.label(), s.coulomb.label());
                    cell(ui, 6, RichText::new(state).color(palette::egui(palette::state_rgb(s.state))), 0.0);
                    if friction {
                        let text = if c.friction > 0.0 && s.handled { force(s.friction) } else { "—".into() };
                        cell(ui, 2, RichText::new(text).monospace().color(palette::egui(palette::FRICTION)), 0.0);
                    } else {
                        cell(ui, 2, RichText::new(geometry_label(&lab.world, k)).color(dim), 0.0);
                    }
                    cell(ui, 3, RichText::new(num(s.g)).monospace(), 0.0);
                    let tcol = if s.tendency < 0.0 {
                        egui::Color32::from_rgb(255, 170, 90)
                    } else {
                        egui::Color32::from_gray(210)
                    };
                    cell(ui, 4, RichText::new(num(s.tendency)).monospace().color(tcol), 0.0);
                    let lcol = if s.handled && s.lambda < -FORCE_ROUND_OFF && c.is_inequality() {
                        egui::Color32::from_rgb(255, 100, 110)
                    } else {
                        egui::Color32::from_gray(220)
                    };
                    cell(
                        ui,
                        5,
                        RichText::new(if s.handled { force(s.lambda) } else { "—".into() }).monospace().color(lcol),
                        0.0,
                    );
                    let name = lab.constraint_names[k].clone();
                    let mut on = plots.selected.contains(&name);
                    let r = egui::Rect::from_min_size(egui::pos2(x + 8.0, rect.min.y), egui::vec2(w[7], row_h));
                    if ui
                        .put(r, egui::Checkbox::without_text(&mut on))
                        .on_hover_text("plot g and λ of this constraint")
                        .changed()
                    {
                        if on {
                            history.want(&lab.world, &format!("{name}.g"));
                            history.want(&lab.world, &format!("{name}.lambda"));
                            plots.selected.push(name);
                        } else {
                            plots.selected.retain(|n| *n != name);
                        }
                    }
                }
            },
        );
        self.data.highlight.constraint = hovered_row;
    }
}
