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

/// Everything that decides how a step is computed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    pub algorithm: Algorithm,
    /// Baumgarte's time constant τ of eq. (5), in seconds.
    pub tau: f64,
    pub tol: Tolerances,
    pub integrator: Integrator,
    pub events: EventSettings,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            algorithm: Algorithm::Right,
            tau: 0.01,
            tol: Tolerances::default(),
            integrator: Integrator::default(),
            events: EventSettings::default(),
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
