//! The algorithm switcher: the four ways of choosing the handled set `F⁺`,
//! effective from the next step without a reset (keys 1–4), and what the last
//! step's solution looks like (`F⁺`, smallest `λ`, residuals).

use bevy_egui::egui::{self, RichText};
use contact_core::{Algorithm, Scheme};

use super::data::PanelData;
use crate::app::lab::palette::algorithm_color;
use crate::app::lab::{LabAction, num};

pub struct AlgorithmSwitcher<'a, 'w, 's> {
    pub data: &'a mut PanelData<'w, 's>,
    pub actions: &'a mut Vec<LabAction>,
}

/// One line on what each algorithm does, in the paper's terms.
pub fn summary(a: Algorithm) -> &'static str {
    match a {
        Algorithm::Platt => "Alg. 1 · F⁺ kept across steps; after a step drop λ ≤ 0, add g < 0",
        Algorithm::PlattImproved => "Alg. 2 · as Platt, but add on a violation tendency J q̈ < d",
        Algorithm::Right => "Alg. 3 · F⁺ rebuilt every step: add active rows with J q̈ < d until none",
        Algorithm::Exact => {
            "Reference · the complementarity problem (LCP) to 1e-9 of its scale: pivoting, then an interior point"
        }
    }
}

impl AlgorithmSwitcher<'_, '_, '_> {
    pub fn ui(&mut self, ui: &mut egui::Ui) {
        let Some(lab) = self.data.lab.as_deref() else { return };
        let current = lab.world.settings.algorithm;
        let scheme = lab.world.settings.scheme;
        ui.heading("Algorithm");
        // The scheme first: under time-stepping only Exact applies. Wrapped:
        // in presenter mode's narrow panel a row wider than it pushed every
        // line below past the panel's edge, cut off.
        ui.horizontal_wrapped(|ui| {
            for s in Scheme::ALL {
                let hover = match s {
                    Scheme::EventDriven => {
                        "the paper's: accelerations by eq. (6), a rewind to every first activation, Moreau's impact \
                         there; exact between few events"
                    }
                    Scheme::TimeStepping => {
                        "Moreau–Jean: one velocity-level problem a step (v⁺ = v_free + M⁻¹JᵀP, 0 ≤ P ⊥ J v⁺ + g/h ≥ 0), \
                         solved exactly; impacts captured, not located: a bounded cost for piles"
                    }
                };
                if ui.selectable_label(s == scheme, s.label()).on_hover_text(hover).clicked() && s != scheme {
                    self.actions.push(LabAction::SetScheme(s));
                }
            }
        });
        let note = match scheme {
            Scheme::EventDriven => "switches on the next step, no reset · keys 1–4",
            Scheme::TimeStepping => {
                "time-stepping solves velocities, once a step: Exact is its solver; the paper's algorithms choose F⁺ \
                 for accelerations and need event-driven"
            }
        };
        ui.label(RichText::new(note).small().weak());
        ui.add_space(2.0);
        for (i, a) in Algorithm::ALL.into_iter().enumerate() {
            let offered = scheme == Scheme::EventDriven || a == Algorithm::Exact;
            let selected = a == current;
            let color = algorithm_color(a);
            let text = RichText::new(format!("{}  {}", i + 1, a.label())).strong().size(15.0).color(if selected {
                egui::Color32::BLACK
            } else {
                color
            });
            let button = egui::Button::new(text)
                .fill(if selected { color } else { egui::Color32::from_rgb(40, 44, 52) })
                .min_size(egui::vec2(ui.available_width(), 26.0));
            if ui.add_enabled(offered, button).on_hover_text(summary(a)).clicked() && !selected {
                self.actions.push(LabAction::SetAlgorithm(a));
            }
            if selected {
                ui.label(RichText::new(summary(a)).small().color(egui::Color32::from_gray(190)));
            }
        }
        // Friction is the exact solver's: the paper's algorithms are written
        // for frictionless rows and leave μ aside.
        if lab.world.model.has_friction() {
            let (text, color) = if current == Algorithm::Exact {
                ("friction (Coulomb, μ) is solved by Exact alone", egui::Color32::from_gray(190))
            } else {
                (
                    "this scene has friction: only Exact solves it; the paper's algorithms are frictionless and ignore μ",
                    egui::Color32::from_rgb(255, 190, 60),
                )
            };
            ui.label(RichText::new(text).small().color(color));
        }
        contact_fields(ui, &lab.world.model, self.actions);
        ui.add_space(4.0);
        let Some(report) = &lab.report else {
            ui.label(RichText::new("no step yet: press Space or →").weak());
            return;
        };
        if self.data.state.present {
            // Presenter mode, narrow: what the audience watches when Platt and
            // Right are switched, a label over its value — does it sink, does it stick.
            ui.label(RichText::new("max violation").small().weak());
            ui.label(RichText::new(format!("{} m", num(report.max_violation))).strong());
            ui.label(RichText::new("min λ over F⁺").small().weak());
            match report.min_lambda {
                Some(l) if l < 0.0 => ui.label(
                    RichText::new(format!("{} N (sticky)", num(l)))
                        .strong()
                        .color(egui::Color32::from_rgb(255, 100, 110)),
                ),
                Some(l) => ui.label(RichText::new(format!("{} N", num(l))).strong()),
                None => ui.label("—"),
            };
            return;
        }
        let handled: Vec<&str> = (0..report.handled.len())
            .filter(|&k| report.handled[k])
            .filter_map(|k| lab.constraint_names.get(k).map(String::as_str))
            .collect();
        egui::Grid::new("alg-summary").num_columns(2).spacing([10.0, 2.0]).show(ui, |ui| {
            ui.label("last step");
            ui.label(RichText::new(report.algorithm.label()).color(algorithm_color(report.algorithm)));
            ui.end_row();
            ui.label("handled E ∪ F⁺");
            let shown = if handled.len() > 6 {
                format!("{} rows", handled.len())
            } else if handled.is_empty() {
                "∅".to_string()
            } else {
                format!("{{{}}}", handled.join(", "))
            };
            // Cut to the panel (whole on hover): a long set never widens it.
            ui.add(egui::Label::new(RichText::new(&shown).monospace()).truncate()).on_hover_text(&shown);
            ui.end_row();
            ui.label("min λ over F⁺");
            match report.min_lambda {
                Some(l) if l < 0.0 => ui.label(
                    RichText::new(format!("{} N  (< 0: sticky)", num(l))).color(egui::Color32::from_rgb(255, 100, 110)),
                ),
                Some(l) => ui.label(format!("{} N", num(l))),
                None => ui.label("—"),
            };
            ui.end_row();
            ui.label("max violation");
            ui.label(format!("{} m", num(report.max_violation)));
            ui.end_row();
            ui.label("complementarity err.");
            ui.label(num(report.complementarity_error));
            ui.end_row();
            ui.label("KKT residual");
            ui.label(num(report.kkt_residual));
            ui.end_row();
            if scheme == Scheme::TimeStepping {
                ui.label("velocity solves");
                ui.label(format!("{} (impulses, no events)", report.solves));
            } else {
                ui.label("solves · events");
                ui.label(format!("{} · {}", report.solves, report.events.len()));
            }
            ui.end_row();
        });
    }
}

/// Every contact's `μ` and `μ_r`, live: set on every pair, every wall and
/// every contact row at once (a scene without contacts has none to set).
fn contact_fields(ui: &mut egui::Ui, model: &contact_core::Model, actions: &mut Vec<LabAction>) {
    let Some(c) = model.contact_coefficients() else { return };
    let (mut mu, mut rolling) = c.pair;
    let (least, most) = c.mu_range();
    let walls_differ = c.walls.iter().any(|w| *w != c.pair);
    ui.add_space(4.0);
    let mut changed = false;
    ui.horizontal_wrapped(|ui| {
        ui.label("every contact:");
        ui.label("μ").on_hover_text(
            "Coulomb's friction coefficient of every contact, between bodies and on the walls (0: smooth): \
             |P_t| ≤ μ P_n",
        );
        changed |= ui.add(egui::DragValue::new(&mut mu).speed(0.01).range(0.0..=2.0).max_decimals(3)).changed();
        ui.label("μ_r").on_hover_text(
            "rolling resistance of every contact between round bodies (0: they roll freely): a torque up to \
             μ_r R* P_n, R* = r_a r_b/(r_a + r_b), or r on a wall; needs μ > 0 and time-stepping",
        );
        changed |= ui
            .add_enabled(mu > 0.0, egui::DragValue::new(&mut rolling).speed(0.01).range(0.0..=1.0).max_decimals(3))
            .changed();
    });
    if walls_differ && c.walls.len() <= 8 {
        let walls: Vec<String> = c.walls.iter().map(|(m, r)| format!("{m}/{r}")).collect();
        ui.label(RichText::new(format!("walls μ/μ_r: {} (a change sets them too)", walls.join(", "))).small().weak());
    } else if least < most {
        ui.label(
            RichText::new(format!("contacts now μ from {least} to {most} (a change sets every one)")).small().weak(),
        );
    }
    if changed {
        actions.push(LabAction::SetContacts { mu, rolling });
    }
}
