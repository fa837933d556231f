//! Solver and clock settings: `h`, the fixed rate, Baumgarte's `τ` (eq. 5), the
//! restitution `e`, how simultaneous impulses are computed, events on/off, the
//! integrator; what to draw; the pinned springs.
//!
//! A value of `h` or `τ` known to be unstable ([`contact_core::World::stability_warnings`]:
//! `τ` at or below eq. (5)'s stable bound for the integrator, 1.207 h under
//! semi-implicit Euler and h under the constant-acceleration step, or a step in
//! which the fastest body moves past the smallest radius)
//! is not applied at once: the panel says why and waits for "Apply anyway".

use bevy_egui::egui::{self, RichText};
use contact_core::{ImpulseMode, Integrator};

use super::data::{PanelData, Pending, Setting};
use crate::app::lab::{StepSettings, is_dynamic, palette};

pub struct Controls<'a, 'w, 's> {
    pub data: &'a mut PanelData<'w, 's>,
}

impl Controls<'_, '_, '_> {
    pub fn ui(&mut self, ui: &mut egui::Ui) {
        egui::CollapsingHeader::new(RichText::new("Controls").heading()).default_open(true).show(ui, |ui| {
            self.clock(ui);
            // Between the h and τ sliders, so it shows next to the one just moved.
            self.stability(ui);
            ui.separator();
            self.solver(ui);
            ui.separator();
            self.drawing(ui);
            self.springs(ui);
        });
    }

    /// Applies `setting` now if it is safe, or holds it back with its warnings.
    fn propose(&mut self, setting: Setting) {
        let (h, tau) = (self.data.settings.h, self.data.lab.as_deref().map_or(0.0, |l| l.world.settings.tau));
        let (h, tau) = match setting {
            Setting::H(h) => (h, tau),
            Setting::Tau(tau) => (h, tau),
        };
        let warnings = self.data.lab.as_deref().map(|l| l.world.stability_warnings(tau, h)).unwrap_or_default();
        if warnings.is_empty() {
            self.apply(setting);
        } else {
            self.data.state.pending = Some(Pending { setting, warnings });
        }
    }

    fn apply(&mut self, setting: Setting) {
        self.data.state.pending = None;
        match setting {
            Setting::H(h) => self.data.settings.set_h(h),
            Setting::Tau(tau) => {
                if let Some(lab) = self.data.lab.as_deref_mut() {
                    lab.world.settings.tau = tau;
                }
            }
        }
    }

    /// The held-back value and its warnings, or the warnings of the settings in effect.
    fn stability(&mut self, ui: &mut egui::Ui) {
        let amber = palette::egui(palette::WARN);
        if let Some(p) = self.data.state.pending.clone() {
            let what = match p.setting {
                Setting::H(h) => format!("h = {:.2} ms", h * 1e3),
                Setting::Tau(t) => format!("τ = {:.1} ms", t * 1e3),
            };
            egui::Frame::group(ui.style()).stroke(egui::Stroke::new(1.0, amber)).show(ui, |ui| {
                ui.label(RichText::new(format!("⚠ {what} is not applied yet")).color(amber).strong());
                for w in &p.warnings {
                    ui.label(RichText::new(w).color(amber));
                }
                ui.horizontal(|ui| {
                    if ui.button("Apply anyway").clicked() {
                        self.apply(p.setting);
                    }
                    if ui.button("Keep the current value").clicked() {
                        self.data.state.pending = None;
                    }
                });
            });
            return;
        }
        let Some(lab) = self.data.lab.as_deref() else { return };
        for w in lab.world.stability_warnings(lab.world.settings.tau, self.data.settings.h) {
            ui.label(RichText::new(format!("⚠ {w}")).color(amber).small());
        }
    }

    fn clock(&mut self, ui: &mut egui::Ui) {
        let held = match self.data.state.pending {
            Some(Pending { setting: Setting::H(h), .. }) => Some(h),
            _ => None,
        };
        let mut proposed = None;
        let s = &mut *self.data.settings;
        egui::Grid::new("clock").num_columns(2).spacing([8.0, 4.0]).show(ui, |ui| {
            ui.label("step h").on_hover_text("simulated seconds per fixed step");
            let mut h = held.unwrap_or(s.h);
            if ui
                .add(
                    egui::Slider::new(&mut h, StepSettings::H_RANGE)
                        .logarithmic(true)
                        .custom_formatter(|v, _| format!("{:.2} ms", v * 1e3))
                        .clamping(egui::SliderClamping::Always),
                )
                .changed()
            {
                proposed = Some(Setting::H(h));
            }
            ui.end_row();
            ui.label("fixed rate").on_hover_text("fixed steps per second of (virtual) time");
            ui.horizontal(|ui| {
                let mut lock = s.lock_rate;
                if ui.checkbox(&mut lock, "= 1/h").on_hover_text("real time at 1× speed").changed() {
                    s.lock_rate = lock;
                    if lock {
                        s.rate_hz = 1.0 / s.h;
                    }
                }
                ui.add_enabled_ui(!s.lock_rate, |ui| {
                    let mut r = s.rate_hz;
                    if ui.add(egui::DragValue::new(&mut r).range(1.0..=20000.0).speed(5.0).suffix(" Hz")).changed() {
                        s.rate_hz = r;
                    }
                });
            });
            ui.end_row();
            ui.label("speed");
            let mut speed = s.speed;
            if ui
                .add(
                    egui::Slider::new(&mut speed, 0.01..=4.0)
                        .logarithmic(true)
                        .custom_formatter(|v, _| format!("{v:.2}×"))
                        .clamping(egui::SliderClamping::Always),
                )
                .changed()
            {
                s.speed = speed;
            }
            ui.end_row();
        });
        let sim_per_s = s.h * if s.lock_rate { 1.0 / s.h } else { s.rate_hz } * s.speed;
        ui.label(
            RichText::new(format!("→ {:.3} simulated s per real s (if the machine keeps up)", sim_per_s))
                .small()
                .weak(),
        );
        if let Some(setting) = proposed {
            self.propose(setting);
        }
    }

    fn solver(&mut self, ui: &mut egui::Ui) {
        let held = match self.data.state.pending {
            Some(Pending { setting: Setting::Tau(t), .. }) => Some(t),
            _ => None,
        };
        let mut proposed = None;
        let Some(lab) = self.data.lab.as_deref_mut() else { return };
        let st = &mut lab.world.settings;
        egui::Grid::new("solver").num_columns(2).spacing([8.0, 4.0]).show(ui, |ui| {
            ui.label("Baumgarte τ").on_hover_text("eq. (5): d = −J̇q̇ − (2/τ) J q̇ − g/τ²");
            let mut tau = held.unwrap_or(st.tau);
            if ui
                .add(
                    egui::Slider::new(&mut tau, 1e-3..=1.0)
                        .logarithmic(true)
                        .custom_formatter(|v, _| format!("{:.1} ms", v * 1e3))
                        .clamping(egui::SliderClamping::Always),
                )
                .changed()
            {
                proposed = Some(Setting::Tau(tau));
            }
            ui.end_row();
            ui.label("restitution e").on_hover_text("impacts: J q̇⁺ ≥ −e J q̇⁻ (constraints with their own e keep it)");
            ui.add(egui::Slider::new(&mut st.events.restitution, 0.0..=1.0).fixed_decimals(2));
            ui.end_row();
            ui.label("events").on_hover_text(
                "rewind to the first activation inside a step and resolve the impact (off: the paper's bare algorithms)",
            );
            ui.checkbox(&mut st.events.enabled, "rewind to first activation");
            ui.end_row();
            ui.label("sleep").on_hover_text(
                "an island of bodies still (slower than 1 mm/s) for 0.5 s is left out of the solve until something \
                 touches it, and wakes with its state bit for bit (Box2D's islands)",
            );
            ui.checkbox(&mut st.sleep.enabled, "let still islands sleep");
            ui.end_row();
            ui.label("impulses");
            ui.vertical(|ui| {
                ui.radio_value(&mut st.events.impulses, ImpulseMode::Simultaneous, "simultaneous")
                    .on_hover_text("Moreau's impact law over the contacts hit at the instant, one restitution per island (momentum shared, never energy gained)");
                ui.radio_value(&mut st.events.impulses, ImpulseMode::Sequential, "sequential (Newton's cradle)")
                    .on_hover_text("contact by contact, most approaching first: a cradle passes the velocity down the line");
            });
            ui.end_row();
            ui.label("integrator");
            egui::ComboBox::from_id_salt("integrator")
                .selected_text(match st.integrator {
                    Integrator::SemiImplicitEuler => "semi-implicit Euler",
                    Integrator::ConstantAcceleration => "constant acceleration",
                })
                .show_ui(ui, |ui| {
                    ui.selectable_value(&mut st.integrator, Integrator::SemiImplicitEuler, "semi-implicit Euler");
                    ui.selectable_value(&mut st.integrator, Integrator::ConstantAcceleration, "constant acceleration");
                });
            ui.end_row();
        });
        if let Some(setting) = proposed {
            self.propose(setting);
        }
    }

    fn drawing(&mut self, ui: &mut egui::Ui) {
        let d = &mut *self.data.draw;
        ui.horizontal_wrapped(|ui| {
            ui.label("show");
            ui.checkbox(&mut d.lambda_arrows, "λ arrows");
            ui.checkbox(&mut d.force_arrows, "forces f");
            ui.checkbox(&mut d.trails, "trails");
            ui.checkbox(&mut d.grid, "grid");
            ui.checkbox(&mut d.labels, "labels");
            ui.checkbox(&mut d.magnifier, "🔍 magnifier")
                .on_hover_text("an inset at a violation too small for the view (down to 1e-12 m), with its scale");
        });
        let Some(lab) = self.data.lab.as_deref() else { return };
        let dynamic: Vec<usize> = (0..lab.body_names.len()).filter(|&i| is_dynamic(&lab.world, i)).collect();
        ui.horizontal(|ui| {
            ui.label("view follows");
            let follow = &mut self.data.view.follow;
            let shown = follow.and_then(|b| lab.body_names.get(b)).map(String::as_str).unwrap_or("nothing");
            egui::ComboBox::from_id_salt("follow").selected_text(shown).show_ui(ui, |ui| {
                ui.selectable_value(follow, None, "nothing");
                for &i in dynamic.iter().take(40) {
                    ui.selectable_value(follow, Some(i), &lab.body_names[i]);
                }
            });
        });
    }

    fn springs(&mut self, ui: &mut egui::Ui) {
        let Some(lab) = self.data.lab.as_deref() else { return };
        let drags = &mut *self.data.drags;
        if drags.pins.is_empty() {
            return;
        }
        ui.separator();
        ui.label(RichText::new("Pinned springs").strong());
        let mut remove = None;
        for (i, s) in drags.pins.iter().enumerate() {
            ui.horizontal(|ui| {
                if ui.small_button("✖").on_hover_text("remove").clicked() {
                    remove = Some(i);
                }
                ui.label(format!(
                    "{} → ({:.3}, {:.3}) m · |F| = {:.3} N",
                    lab.body_names.get(s.body).map(String::as_str).unwrap_or("?"),
                    s.target.x,
                    s.target.y,
                    s.force.length()
                ));
            });
        }
        if let Some(i) = remove {
            drags.pins.remove(i);
        }
        if drags.pins.len() > 1 && ui.small_button("remove all").clicked() {
            drags.pins.clear();
        }
    }
}
