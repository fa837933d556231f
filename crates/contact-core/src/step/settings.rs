//! Everything that decides how a step is computed ([`Settings`]): the algorithm
//! that chooses `F⁺`, Baumgarte's `τ` of eq. (5), the tolerances, how the state
//! advances with `q̈` held over a step ([`Integrator`]), and how impacts are
//! handled ([`EventSettings`]). Plain data, read by every phase of the step
//! ([`crate::world`], [`crate::events`]) and written by scene files.
//!
//! A step of length `h` with `q̈` held constant advances `(q, q̇)` by
//!
//! ```text
//! semi-implicit Euler:     q̇⁺ = q̇ + h q̈,   q⁺ = q + h q̇⁺
//! constant acceleration:   q̇⁺ = q̇ + h q̈,   q⁺ = q + h q̇ + ½ h² q̈
//! ```

use serde::{Deserialize, Serialize};

use crate::active_set::Tolerances;
use crate::choice::Algorithm;
use crate::impulse::ImpulseMode;
use crate::model::State;
use crate::sleep::SleepSettings;
use crate::units::Units;

/// How a step advances `(q, q̇)` with `q̈` held constant over it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Integrator {
    /// Semi-implicit (symplectic) Euler: `q̇⁺ = q̇ + h q̈`, `q⁺ = q + h q̇⁺`.
    /// The default: it keeps the energy of oscillations bounded, and it is the
    /// usual choice of the papers this lab follows.
    #[default]
    SemiImplicitEuler,
    /// The exact flight under a constant `q̈`: `q⁺ = q + h q̇ + ½ h² q̈`,
    /// `q̇⁺ = q̇ + h q̈`. Exact for free fall, so impact times match the analytic ones.
    ConstantAcceleration,
}

/// `2√2 − 2`: the largest `h/τ` for which Baumgarte's eq. (5) is stable under
/// semi-implicit Euler (see [`Integrator::min_tau_over_h`]).
pub const SEMI_IMPLICIT_EULER_MAX_H_OVER_TAU: f64 = 2.0 * std::f64::consts::SQRT_2 - 2.0;

impl Integrator {
    /// The smallest stable `τ/h` of Baumgarte's eq. (5) with this integrator.
    ///
    /// On a handled row whose `g` is linear in `q` (`J̇ q̇ = 0`), eq. (5) makes
    /// the row's acceleration `g̈ = −(2/τ) ġ − g/τ²`. With `r = h/τ` and the
    /// state `(g, hġ)`, one step is linear:
    ///
    /// ```text
    /// semi-implicit Euler     [ 1 − r²     1 − 2r ]      constant acceleration   [ 1 − r²/2   1 − r  ]
    ///                         [ −r²        1 − 2r ]                              [ −r²        1 − 2r ]
    /// trace 2 − 2r − r², det 1 − 2r                  trace 2 − 2r − r²/2, det 1 − 2r + r²/2
    /// ```
    ///
    /// Both eigenvalues lie inside the unit circle iff (Jury) `|det| < 1`,
    /// `1 − trace + det > 0` and `1 + trace + det > 0`. The first two hold for
    /// `0 < r < 1` (resp. `r < 4`); the third is `4 − 4r − r² > 0`, i.e.
    /// `r < 2√2 − 2 ≈ 0.828`, for semi-implicit Euler and `4 − 4r > 0`, `r < 1`,
    /// for the constant-acceleration step. So `τ > h / (2√2 − 2) ≈ 1.207 h`
    /// and `τ > h` respectively: a 1 m pendulum's rod at `h = 10 ms` diverges
    /// at `τ/h = 1.19` and holds at `1.21` (tested).
    pub fn min_tau_over_h(self) -> f64 {
        match self {
            Integrator::SemiImplicitEuler => 1.0 / SEMI_IMPLICIT_EULER_MAX_H_OVER_TAU,
            Integrator::ConstantAcceleration => 1.0,
        }
    }

    /// How the user names it.
    pub fn label(self) -> &'static str {
        match self {
            Integrator::SemiImplicitEuler => "semi-implicit Euler",
            Integrator::ConstantAcceleration => "the constant-acceleration step",
        }
    }

    /// Why `τ` is unstable with step `h`, and what to use: `None` when it is
    /// stable (`τ > min_tau_over_h · h`).
    pub fn tau_warning(self, tau: f64, h: f64) -> Option<String> {
        let bound = self.min_tau_over_h() * h;
        if tau > bound * (1.0 + 1e-12) {
            return None;
        }
        let rule = match self {
            Integrator::SemiImplicitEuler => "τ > h/(2√2 − 2) ≈ 1.207 h",
            Integrator::ConstantAcceleration => "τ > h",
        };
        Some(format!(
            "τ = {tau:e} s is at or below {bound:.4e} s, the stable bound of Baumgarte's eq. (5) for h = {h:e} s \
             under {} ({rule}): its correction grows every step and the run diverges; use τ ≥ {:.2e} s \
             (τ ≈ 10 h is the usual choice)",
            self.label(),
            (1.25 * self.min_tau_over_h()).max(1.25) * h
        ))
    }
}

impl Integrator {
    /// The state reached after `s` seconds with `q̈` held constant.
    pub fn advance(self, state: &State, qdd: &[f64], s: f64) -> State {
        let qd: Vec<f64> = state.qd.iter().zip(qdd).map(|(v, a)| v + s * a).collect();
        let q = match self {
            Integrator::SemiImplicitEuler => state.q.iter().zip(&qd).map(|(x, v)| x + s * v).collect(),
            Integrator::ConstantAcceleration => {
                state.q.iter().zip(&state.qd).zip(qdd).map(|((x, v), a)| x + s * v + 0.5 * s * s * a).collect()
            }
        };
        State { q, qd, t: state.t + s }
    }
}

/// How a step handles contact: the paper's events, or Moreau–Jean's capture.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Scheme {
    /// The paper's: accelerations by eq. (6) with the chosen algorithm, a
    /// rewind to every first activation, Moreau's impact there ([`crate::events`]).
    #[default]
    EventDriven,
    /// Moreau–Jean: one velocity-level problem a step, solved exactly
    /// ([`crate::timestep`]); the paper's algorithms, which live at the
    /// acceleration level, do not apply: Exact is the solver.
    TimeStepping,
}

impl Scheme {
    pub const ALL: [Scheme; 2] = [Scheme::EventDriven, Scheme::TimeStepping];

    /// How the user names it.
    pub fn label(self) -> &'static str {
        match self {
            Scheme::EventDriven => "event-driven",
            Scheme::TimeStepping => "time-stepping",
        }
    }

    /// The name on the command line and in scene files' `scheme:`.
    pub fn parse(s: &str) -> Option<Scheme> {
        match s {
            "event-driven" | "events" | "event" => Some(Scheme::EventDriven),
            "time-stepping" | "moreau-jean" | "timestepping" => Some(Scheme::TimeStepping),
            _ => None,
        }
    }
}

/// Everything that decides how a step is computed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    pub algorithm: Algorithm,
    /// Event-driven (the paper's) or time-stepping (Moreau–Jean).
    #[serde(default)]
    pub scheme: Scheme,
    /// Baumgarte's time constant τ of eq. (5), in seconds.
    pub tau: f64,
    pub tol: Tolerances,
    pub integrator: Integrator,
    pub events: EventSettings,
    /// The scene's yardstick: every threshold of the step is stated in it.
    #[serde(default)]
    pub units: Units,
    /// Sleeping islands ([`crate::sleep`]; off by default).
    #[serde(default)]
    pub sleep: SleepSettings,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            algorithm: Algorithm::Right,
            scheme: Scheme::EventDriven,
            tau: 0.01,
            tol: Tolerances::default(),
            integrator: Integrator::default(),
            events: EventSettings::default(),
            units: Units::default(),
            sleep: SleepSettings::default(),
        }
    }
}

/// How events are handled.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct EventSettings {
    /// Rewind to first activations (off: the paper's bare algorithms).
    pub enabled: bool,
    /// Default restitution coefficient `e` (a constraint may override it).
    pub restitution: f64,
    pub impulses: ImpulseMode,
    /// Zeno guard: events allowed in one step.
    pub max_per_step: usize,
    /// Below this approach speed (m/s) an impact is plastic.
    pub min_impact_speed: f64,
}

impl Default for EventSettings {
    fn default() -> Self {
        EventSettings {
            enabled: true,
            restitution: 0.5,
            impulses: ImpulseMode::Simultaneous,
            max_per_step: 64,
            min_impact_speed: 1e-3,
        }
    }
}
