//! The active-set trace of the last step, in sentences ([`contact_core::Trace::describe`]),
//! and the log of rewinds to a first activation.

use bevy_egui::egui::{self, RichText};

use super::data::{PanelData, Tab};
use crate::app::lab::num;

pub struct TracePanel<'a, 'w, 's> {
    pub data: &'a mut PanelData<'w, 's>,
}

impl TracePanel<'_, '_, '_> {
    pub fn ui(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            let tab = &mut self.data.state.trace_tab;
            ui.selectable_value(tab, Tab::Trace, RichText::new("Active-set trace (last step)").heading());
            // The rewinds of the run up to the instant shown (after a scrub, not its future).
            let t = self.data.lab.as_deref().map_or(f64::INFINITY, |l| l.time());
            let n = self.data.events.count_until(t);
            ui.selectable_value(tab, Tab::Events, RichText::new(format!("Rewinds ({n})")).heading());
        });
        ui.separator();
        match self.data.state.trace_tab {
            Tab::Trace => self.trace(ui),
            Tab::Events => self.events(ui),
        }
    }

    fn trace(&mut self, ui: &mut egui::Ui) {
        let Some(lab) = self.data.lab.as_deref() else { return };
        let Some(report) = &lab.report else {
            ui.label(RichText::new("No step yet. Press → to take one step and read what the algorithm did.").weak());
            return;
        };
        ui.label(
            RichText::new(format!(
                "step {} → t = {:.5} s, h = {} s · {} {}{}",
                lab.world.steps,
                report.t,
                num(report.h),
                report.solves,
                // Time-stepping solves a velocity problem, not eq. (6).
                if report.traces.iter().any(|t| t.time_step.is_some()) {
                    "velocity problem(s), impulses P"
                } else {
                    "solve(s) of eq. (6)"
                },
                if report.events.is_empty() { String::new() } else { format!(" · {} rewind(s)", report.events.len()) }
            ))
            .small()
            .color(egui::Color32::from_gray(180)),
        );
        egui::ScrollArea::vertical().id_salt("trace").auto_shrink([false, false]).show(ui, |ui| {
            for (i, trace) in report.traces.iter().enumerate() {
                if report.traces.len() > 1 {
                    ui.label(
                        RichText::new(format!("sub-step {}", i + 1))
                            .strong()
                            .color(egui::Color32::from_rgb(150, 200, 255)),
                    );
                }
                for line in trace.describe(&lab.constraint_names) {
                    ui.label(colored(&line));
                }
                if let Some(ev) = report.events.get(i) {
                    ui.label(
                        RichText::new(format!("⟲ {}", describe_event(ev, &lab.constraint_names)))
                            .color(egui::Color32::from_rgb(255, 255, 255))
                            .background_color(egui::Color32::from_rgb(60, 50, 80)),
                    );
                }
            }
        });
    }

    fn events(&mut self, ui: &mut egui::Ui) {
        let Some(lab) = self.data.lab.as_deref() else { return };
        let log = &self.data.events;
        if log.events.is_empty() {
            ui.label(
                RichText::new(if lab.world.settings.events.enabled {
                    "No rewind yet. When a step ends with an inactive inequality violated, the step is rewound to the first activation, the impact is resolved, and it shows here."
                } else {
                    "Events are off (Controls): the algorithms run bare, as in the paper."
                })
                .weak(),
            );
            return;
        }
        if log.total > log.events.len() {
            ui.label(RichText::new(format!("the last {} of {}", log.events.len(), log.total)).small().weak());
        }
        egui::ScrollArea::vertical().id_salt("rewinds").auto_shrink([false, false]).stick_to_bottom(true).show(
            ui,
            |ui| {
                // Those after the instant shown are the stored run's future: dimmed.
                let t = lab.time();
                for ev in &log.events {
                    let text = RichText::new(describe_event(ev, &lab.constraint_names)).monospace();
                    ui.label(if ev.t > t + 1e-12 { text.weak().italics() } else { text });
                }
            },
        );
    }
}

/// `t = 0.4519 s: ball1:cushion activated, approaching at 1.2 m/s → impulse 0.3 N·s (simultaneous)`,
/// with the friction impulses; or Painlevé's impact without collision.
pub fn describe_event(ev: &contact_core::Event, names: &[String]) -> String {
    let name = |k: &usize| names.get(*k).cloned().unwrap_or_else(|| format!("#{k}"));
    let which: Vec<String> = ev.constraints.iter().map(name).collect();
    let speeds: Vec<String> = ev.approach_speed.iter().map(|(k, v)| format!("{} {:.3} m/s", name(k), v)).collect();
    let imp: Vec<String> =
        ev.impulse.iter().filter(|(_, p)| *p != 0.0).map(|(k, p)| format!("{} {}", name(k), num(*p))).collect();
    if !ev.without_collision.is_empty() {
        // Painlevé: no contact closed, but no force was consistent.
        let fr: Vec<String> = ev.friction.iter().map(|(k, p)| format!("{} {}", name(k), num(*p))).collect();
        return format!(
            "t = {:.5} s: impact without collision: {} slid with no consistent force (Painlevé's paradox); \
             impulses [N·s] {}; friction impulses {}; energy lost {} J",
            ev.t,
            which.join(", "),
            imp.join(", "),
            fr.join(", "),
            num(ev.energy_lost)
        );
    }
    let mut s = format!("t = {:.5} s: rewound {} s into the step; {} activated", ev.t, num(ev.dt), which.join(", "));
    if !speeds.is_empty() {
        s += &format!("; approaching: {}", speeds.join(", "));
    }
    if !imp.is_empty() {
        s += &format!("; impulses [N·s] ({}): {}", ev.mode.label(), imp.join(", "));
        if !ev.friction.is_empty() {
            let fr: Vec<String> = ev.friction.iter().map(|(k, p)| format!("{} {}", name(k), num(*p))).collect();
            s += &format!("; friction impulses (Coulomb, |P_t| ≤ μ P_n): {}", fr.join(", "));
        }
        s += &format!("; energy lost {} J", num(ev.energy_lost));
    }
    s
}

/// Colours the arrows of a trace line: into `F⁺` green, out of it red.
fn colored(line: &str) -> RichText {
    let base = RichText::new(line);
    if line.contains("→ handled") {
        base.color(egui::Color32::from_rgb(120, 220, 150))
    } else if line.contains("→ released") {
        base.color(egui::Color32::from_rgb(255, 140, 120))
    } else if line.starts_with("no consistent contact force") || line.contains("→ slips") {
        base.color(egui::Color32::from_rgb(255, 190, 60))
    } else if line.starts_with("iteration") {
        base.color(egui::Color32::from_gray(230))
    } else if line.ends_with(':') {
        base.strong()
    } else {
        base.color(egui::Color32::from_gray(200))
    }
}
