//! The scene's yardstick ([`Units`]): the length and time every
//! threshold of a step is stated in (issue 15, item 5). A leaf: the modules
//! that compare against a threshold import it, and it imports none of them.

use serde::{Deserialize, Serialize};

/// Below this approach speed (speed units) a touching contact rests:
/// Baumgarte keeps it (it could sink by `v τ`, 1e-11 m at most in SI units).
pub(crate) const RESTING_SPEED: f64 = 1e-9;

/// The scale of a scene (`solver.units` of a scene file): the length and time
/// every threshold of the step is measured in, so that a scene scaled in
/// length and time runs the same trajectory in scaled units. The default is
/// 1 m, 1 s, where the thresholds are the numbers the docs give (a
/// separating speed of 1 mm/s, ...). A scene of 1 mm balls states
/// `units: (length: 1e-3, time: 0.0316)`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Units {
    /// m.
    pub length: f64,
    /// s.
    pub time: f64,
}

impl Default for Units {
    fn default() -> Self {
        Units { length: 1.0, time: 1.0 }
    }
}

impl Units {
    /// `x` lengths, in m.
    pub fn length(&self, x: f64) -> f64 {
        x * self.length
    }
    /// `x` times, in s.
    pub fn time(&self, x: f64) -> f64 {
        x * self.time
    }
    /// `x` speeds, in m/s.
    pub fn speed(&self, x: f64) -> f64 {
        x * (self.length / self.time)
    }
    /// `x` accelerations, in m/s².
    pub fn acceleration(&self, x: f64) -> f64 {
        x * (self.length / (self.time * self.time))
    }
}
