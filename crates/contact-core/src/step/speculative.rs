//! Which inequalities a solve of eq. (6) holds, and the `d_k` of those it holds
//! speculatively (after Catto's speculative contacts).
//!
//! An inequality is active (see [`crate::active_set`]) when it is violated
//! beyond the tolerance, or touches without separating,
//!
//! ```text
//! g_k < −tol   or   (g_k ≤ tol  and  J_k q̇ ≤ v_tol)
//! ```
//!
//! and its `d_k` is then Baumgarte's eq. (5). A *speculative* one moves slowly
//! and either touches and approaches, or is near enough to close within the
//! step (`speculative`). It enters the solve with the `d_k` that lands it
//! on `g⁺`, a little short of contact, at the end of the step instead of
//! Baumgarte's: with semi-implicit Euler ([`crate::settings::Integrator`])
//! `g⁺ ≈ g + h v + h² (J q̈ + ½ J̇q̇)`, so
//!
//! ```text
//! d_k = −(g_k − g⁺ + h J_k q̇)/h² − ½ J̇_k q̇,   g⁺ = tol/2 from apart, clamp(g, 0, tol/2) touching
//! ```
//!
//! and the normal velocity after the step is about zero: a plastic landing,
//! found by the solver rather than by an event and a rewind ([`crate::events`]).
//! The rows the event search holds (a separating row that dips back within the
//! first sample) land the same way (`landing`).

use crate::choice::Algorithm;
use crate::constraint::{ConstraintKind, RowEval};
use crate::kkt::ContactProblem;
use crate::settings::{Integrator, Settings};
use crate::units::RESTING_SPEED;

/// Approaches slower than this many `min_impact_speed` are speculative contacts.
const SPECULATIVE_SPEED: f64 = 10.0;
/// The contact acceleration a speculative band allows for (acceleration units).
const SPECULATIVE_ACCELERATION: f64 = 100.0;

/// `active[k]` for every row of `problem`, assembled at a state with velocities
/// `qd`: an inequality violated, or touching and not separating (see
/// [`crate::active_set`]), or speculative ([`speculative`]). A speculative row's
/// `d_k` becomes the landing one of the module docs: it lands on `g⁺` at the end
/// of the step, and then its normal velocity is `−(g − tol/2)/h`, about zero.
///
/// `h` is what is left of the step (the speculative test's reach); the
/// landing `d_k` lands over `horizon(h, step)` ([`horizon`]), which is `h`
/// unless that is a tiny remainder after an event.
pub(crate) fn active_flags(
    settings: &Settings,
    qd: &[f64],
    problem: &mut ContactProblem,
    h: f64,
    step: f64,
) -> Vec<bool> {
    let over = horizon(h, step);
    let tol = settings.tol;
    let free = if settings.events.enabled { problem.accelerations(&[]) } else { Vec::new() };
    (0..problem.rows.len())
        .map(|k| {
            if problem.kinds[k] != ConstraintKind::Inequality {
                return false;
            }
            let r = &problem.rows[k];
            let v = r.row.dot(qd);
            let a_free = if free.is_empty() { 0.0 } else { r.row.dot(&free) + r.jd_qd };
            if r.g >= -tol.active && speculative(settings, r.g, v, a_free, h) {
                // Aim a little short of contact (half a tolerance from apart;
                // a touching one is held where it is, at most half a
                // tolerance out): the prediction is linear in h, and the
                // curvature it leaves out must not end the step inside.
                let target = if r.g > tol.active { 0.5 * tol.active } else { r.g.clamp(0.0, 0.5 * tol.active) };
                let gap = r.g - target + over * v;
                problem.d[k] = -gap / (over * over) - 0.5 * r.jd_qd;
                return true;
            }
            r.g < -tol.active || (r.g <= tol.active && v <= tol.separating)
        })
        .collect()
}

/// A speculative contact (after Catto's speculative contacts): an inequality
/// with gap `g ≥ 0`, normal velocity `v` and free gap acceleration `a_free`
/// that moves slowly (`−v ≤ 10 · min_impact_speed`, 1 cm/s by default) and
/// either touches and approaches (`v < −1e-9`: Baumgarte's correction would let
/// it sink by about `v τ`; this one stops it within the step), or is near
/// enough to close within the step
/// `h` under the free acceleration plus the one contact forces may add
/// (bounded by `A = 100 m/s²`, about ten g):
///
/// ```text
/// g + h min(v, 0) + h² (min(a_free, 0) − A) < tol
/// ```
///
/// It enters the solve with the `d_k` that keeps `g ≥ 0` at the end of the
/// step, and the solver, not an event and a rewind, stops it if it closes: a
/// plastic landing (a rebound slower than one step's flight cannot be resolved
/// anyway). Neighbours in a pile a micrometre apart, pushed together by the
/// contact forces of the step, no longer cross and rewind every step (apart
/// rows for Exact only: Right cannot release them). Faster
/// approaches stay events with restitution ([`crate::events`]). Only with
/// events on, the semi-implicit Euler step, and for Right and Exact: the
/// paper's bare algorithms and Platt's persistent `F⁺` see Baumgarte alone.
pub(crate) fn speculative(settings: &Settings, g: f64, v: f64, a_free: f64, h: f64) -> bool {
    let (tol, ev) = (settings.tol, &settings.events);
    // The constant-acceleration flight cannot both land and stop within a
    // step (it would leave at −v): it keeps events.
    let landing = settings.integrator == Integrator::SemiImplicitEuler;
    // Platt's algorithms keep their F⁺ and Baumgarte's d as the paper has them.
    let ours = matches!(settings.algorithm, Algorithm::Right | Algorithm::Exact);
    if !ev.enabled || !landing || !ours || h <= 0.0 || -v > SPECULATIVE_SPEED * ev.min_impact_speed {
        return false;
    }
    if g <= tol.active {
        v < -settings.units.speed(RESTING_SPEED)
    } else if settings.algorithm == Algorithm::Right {
        // Add-only, Right would hold an apart row it added with λ < 0, pulling
        // two balls together: on a pile of 100 the energy grew without bound.
        false
    } else {
        g + h * v.min(0.0) + h * h * (a_free.min(0.0) - settings.units.acceleration(SPECULATIVE_ACCELERATION))
            < tol.active
    }
}

/// The least landing horizon, as a share of the step (issue 38, part 4).
const LEAST_HORIZON: f64 = 1.0 / 8.0;

/// Over how long a landing row (held, or speculative) is landed when `h` of
/// a step of `step` is left: `h`, but at least [`LEAST_HORIZON`] of the step.
/// Landed within a tiny remainder `r` after an event, a row's target grew as
/// `gap/r²`: on a 300-ball landing `|b|` reached 2.5e6 m/s², and 188 of its
/// first 1000 steps had a handled row off by more than 1e-6 m/s² (a solve
/// accurate relative to its data). Over at least `step/8` the target is at
/// most 64 times a whole step's; the row then ends the remainder short of
/// its landing, never past it: its gap is `(g − target)(1 − s²) + r v (1 − s)`
/// above the target (`s = r/horizon ≤ 1`), and a speculative row approaches
/// slower than 1 cm/s, so it sinks by at most `v step/32`, 0.3 µm at
/// h = 1 ms, inside the half tolerance it aims short of contact.
pub(crate) fn horizon(h: f64, step: f64) -> f64 {
    h.max(LEAST_HORIZON * step)
}

/// The `d_k` that lands a held row (see [`crate::world::World::step`]) where it is (at
/// most half the active tolerance out) at the end of a step of `h`, instead of
/// Baumgarte's: with `gap = g − target + h v`, semi-implicit Euler needs
/// `J q̈ = −gap/h² − ½ J̇q̇`, the constant-acceleration flight `−2 gap/h² − J̇q̇`.
///
/// A row already inside (`g < 0`, within the active tolerance) is lifted at
/// the speed that would take it to the surface in a whole step (`step`),
/// `|g|/step`, so by `|g| h/step` within `h`: lifted by all of `|g|` within
/// `h` it would leave at `|g|/h`, and after an event `h` is the rest of the
/// step, down to nanoseconds: on a 300-ball landing a 1e-9 m dip left a ball
/// at 1900 m/s and the kinetic energy went from 68 J to 1e6 J in one step.
/// Over a whole step (`h = step`) it lands on the surface, as it always did.
pub(crate) fn landing(settings: &Settings, qd: &[f64], r: &RowEval, h: f64, step: f64) -> f64 {
    let lifted = if step > 0.0 { (h / step).min(1.0) } else { 1.0 };
    let target = if r.g < 0.0 { r.g * (1.0 - lifted) } else { r.g.min(0.5 * settings.tol.active) };
    let gap = r.g - target + h * r.row.dot(qd);
    match settings.integrator {
        Integrator::SemiImplicitEuler => -gap / (h * h) - 0.5 * r.jd_qd,
        Integrator::ConstantAcceleration => -2.0 * gap / (h * h) - r.jd_qd,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::constraint::SparseRow;

    /// A particle resting 0.5 µm inside a floor (`g = y`), held for the rest of
    /// a step: it leaves with the speed that lifts it over a whole step
    /// (`|g|/step`, 0.5 mm/s), whatever is left of the step; over a whole step
    /// it lands on the surface. (It left at `|g|/h` before: 500 m/s for 1 ns.)
    #[test]
    fn a_held_row_inside_is_lifted_no_faster_than_over_a_whole_step() {
        let settings = Settings::default();
        let (g, step) = (-0.5e-6, 1e-3);
        let r = RowEval { g, row: SparseRow::from_entries(&[(1, 1.0)]), jd_qd: 0.0 };
        let qd = [0.0, 0.0];
        for h in [1e-9, 1e-6, 1e-4, step] {
            let d = landing(&settings, &qd, &r, h, step);
            // Semi-implicit Euler with J q̈ = d: the speed after h, then the end.
            let v = h * d;
            let end = g + h * v;
            assert!((v - (-g) / step).abs() < 1e-12, "h = {h}: leaves at {v} m/s");
            if h == step {
                assert!(end.abs() < 1e-15, "a whole step lands on the surface: {end}");
            }
        }
    }

    /// Issue 38, part 4: a row approaching at 1 cm/s half a tolerance out,
    /// landed in the remainder `r` of a step after an event: over
    /// `horizon(r, step)` its target stays within 64 times a whole step's
    /// (it grew as `1/r²`: 1e13 m/s² at r = 1 ns), and at the remainder's end
    /// (semi-implicit Euler) it is short of its landing, never inside; from
    /// an eighth of a step on, it lands exactly as before.
    #[test]
    fn a_landing_in_a_tiny_remainder_is_bounded_and_never_ends_inside() {
        let settings = Settings::default();
        let step = 1e-3;
        let target = 0.5 * settings.tol.active;
        let r = RowEval { g: target, row: SparseRow::from_entries(&[(1, 1.0)]), jd_qd: 0.0 };
        let qd = [0.0, -0.01];
        let whole = landing(&settings, &qd, &r, step, step).abs();
        for rem in [1e-9, 1e-6, 1e-5, step / 8.0, step / 2.0, step] {
            let d = landing(&settings, &qd, &r, horizon(rem, step), step);
            assert!(d.abs() <= 64.0 * whole * (1.0 + 1e-12), "r = {rem}: d = {d}, a whole step's {whole}");
            let v = qd[1] + rem * d;
            let end = r.g + rem * v;
            assert!(end >= 0.0, "r = {rem}: ends {:e} m inside", -end);
            if rem >= step / 8.0 {
                assert!((end - target).abs() < 1e-15, "r = {rem}: lands on its target: {end}");
            }
        }
    }
}
