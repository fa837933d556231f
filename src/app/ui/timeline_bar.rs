//! The timeline scrubber: the stored history of snapshots as a bar, rewinds as
//! ticks; clicking or dragging restores that exact state (and pauses); playing
//! continues from there with the algorithm now selected. "Run from here with"
//! adds a compare-mode lane of another algorithm at the state shown.

use bevy_egui::egui::{self, RichText};

use super::data::PanelData;
use crate::app::compare::CompareAction;
use crate::app::lab::LabAction;
use crate::app::lab::palette::method_color;
use crate::app::timeline::SPAN_SECONDS;

pub struct TimelineBar<'a, 'w, 's> {
    pub data: &'a mut PanelData<'w, 's>,
    pub actions: &'a mut Vec<LabAction>,
    pub compare: &'a mut Vec<CompareAction>,
}

impl TimelineBar<'_, '_, '_> {
    pub fn ui(&mut self, ui: &mut egui::Ui) {
        let tl = &*self.data.timeline;
        let (t0, t1) = tl.range();
        let now = self.data.lab.as_deref().map(|l| l.time()).unwrap_or(0.0);
        ui.horizontal(|ui| {
            ui.label(RichText::new("Timeline").strong());
            if ui.small_button("⏮").on_hover_text("oldest stored state").clicked() && !tl.snaps.is_empty() {
                self.actions.push(LabAction::Restore(0));
            }
            if ui.small_button("◀").on_hover_text("← : previous stored step").clicked() {
                self.actions.push(LabAction::StepBack);
            }
            if ui.small_button("▶|").on_hover_text("→ : one step").clicked() {
                self.actions.push(LabAction::StepOnce);
            }
            if ui.small_button("⏭").on_hover_text("latest stored state").clicked() && !tl.snaps.is_empty() {
                self.actions.push(LabAction::Restore(tl.snaps.len() - 1));
            }
            // Narrow (presenter mode at 1280×720): the time alone, the store on hover.
            let narrow = ui.available_width() < 700.0;
            let stored = format!(
                "stored {t0:.2}–{t1:.2} s, {} states{}",
                tl.snaps.len(),
                if tl.stride > 1 { format!(" (every {} steps)", tl.stride) } else { String::new() }
            );
            let (text, width) = if narrow {
                (format!("t = {now:.4} s"), 110.0)
            } else {
                (format!("t = {now:.4} s · {stored}"), 290.0)
            };
            ui.add_sized(
                [width, 18.0],
                egui::Label::new(RichText::new(text).small().color(egui::Color32::from_gray(170))),
            )
            .on_hover_text(format!("{stored}; the ring keeps at least the last {SPAN_SECONDS:.0} s of snapshots"));
            ui.menu_button(if narrow { "Run from here ▾" } else { "Run from here with ▾" }, |ui| {
                for a in contact_core::Method::ALL {
                    let text = RichText::new(a.label()).color(method_color(a));
                    if ui.button(text).on_hover_text("a compare-mode lane from the state shown").clicked() {
                        self.compare.push(CompareAction::Branch(a));
                        ui.close();
                    }
                }
            });
            let w = ui.available_width() - 4.0;
            let (rect, resp) = ui.allocate_exact_size(egui::vec2(w.max(60.0), 20.0), egui::Sense::click_and_drag());
            let p = ui.painter_at(rect.expand(2.0));
            p.rect_filled(rect, 4.0, egui::Color32::from_rgb(44, 48, 58));
            let span = (t1 - t0).max(1e-9);
            let x_of = |t: f64| rect.min.x + ((t - t0) / span).clamp(0.0, 1.0) as f32 * rect.width();
            // The stored part up to the state shown.
            let filled = egui::Rect::from_min_max(rect.min, egui::pos2(x_of(now), rect.max.y));
            p.rect_filled(filled, 4.0, egui::Color32::from_rgb(60, 90, 130));
            // Rewinds to a first activation.
            for ev in &self.data.events.events {
                if ev.t >= t0 && ev.t <= t1 {
                    let x = x_of(ev.t);
                    p.line_segment(
                        [egui::pos2(x, rect.min.y + 3.0), egui::pos2(x, rect.max.y - 3.0)],
                        egui::Stroke::new(1.0, egui::Color32::from_rgb(255, 255, 255).gamma_multiply(0.7)),
                    );
                }
            }
            let xn = x_of(now);
            p.circle_filled(egui::pos2(xn, rect.center().y), 7.0, egui::Color32::from_rgb(150, 200, 255));
            if (resp.dragged() || resp.clicked())
                && !tl.snaps.is_empty()
                && let Some(pos) = resp.interact_pointer_pos()
            {
                let u = ((pos.x - rect.min.x) / rect.width()).clamp(0.0, 1.0) as f64;
                let t = t0 + u * span;
                if let Some(i) = tl.index_at(t)
                    && (Some(i) != tl.current() || tl.cursor.is_none())
                {
                    self.actions.push(LabAction::Restore(i));
                }
            }
            resp.on_hover_text(
                "drag to go back in time: restores that exact state (white ticks: rewinds to a first activation)",
            );
        });
    }
}
