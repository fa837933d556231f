//! The solver's settings: the algorithm, Baumgarte's τ of eq. (5), the
//! tolerances of "active" (`g_k ≤ tol`) and "violation tendency"
//! (`J_k q̈ < d_k`), the integrator, and the events (restitution `e`, the Zeno
//! guards).

use super::ctx::{Ctx, Result};
use crate::active_set::Tolerances;
use crate::choice::Algorithm;
use crate::scene::schema::SolverSpec;
use crate::settings::{EventSettings, Scheme, Settings};
use crate::sleep::SleepSettings;

/// The [`Settings`] of the `solver` block (its `dt` is the scene's, not the solver's).
pub(super) fn settings(cx: &Ctx, s: &SolverSpec) -> Result<Settings> {
    let tau = cx.positive("solver.tau", s.tau, "Baumgarte's tau")?;
    let units = s.units;
    for (field, value) in [("solver.units.length", units.length), ("solver.units.time", units.time)] {
        cx.positive(field, value, "a unit")?;
    }
    let tol = Tolerances::in_units(&units);
    let active = s.active_tolerance.unwrap_or(tol.active);
    let active = cx.non_negative("solver.active_tolerance", active, "the tolerance")?;
    // The root finder stops at 0 ≤ g ≤ G_TOL: a row it stops at must count as
    // touching, or no impact is ever resolved there and every one is plastic.
    let least = units.length(crate::events::G_TOL);
    if active < least {
        return Err(cx.err(
            "solver.active_tolerance",
            format!(
                "the tolerance must be at least {least:e}, where the root finder stops (0 ≤ g ≤ {least:e}): below it \
                 a contact found by the root finder is not touching and every impact would be plastic; got {active:e}"
            ),
        ));
    }
    let tendency = s.tendency_tolerance.unwrap_or(tol.tendency);
    let tendency = cx.non_negative("solver.tendency_tolerance", tendency, "the tolerance")?;
    let restitution = cx.restitution("solver.restitution", Some(s.restitution))?.unwrap_or(0.0);
    let min_impact_speed = s.min_impact_speed.unwrap_or(units.speed(EventSettings::default().min_impact_speed));
    let min_impact_speed = cx.non_negative("solver.min_impact_speed", min_impact_speed, "the speed")?;
    let sleep_speed = s.sleep.speed.unwrap_or(units.speed(SleepSettings::default().speed));
    let sleep = SleepSettings {
        enabled: s.sleep.enabled,
        speed: cx.non_negative("solver.sleep.speed", sleep_speed, "the speed")?,
        time: cx.non_negative("solver.sleep.time", s.sleep.time, "the time")?,
    };
    // Time-stepping solves a velocity problem exactly: the paper's
    // algorithms live at the acceleration level and do not apply.
    let algorithm = if s.scheme == Scheme::TimeStepping { Algorithm::Exact } else { s.algorithm };
    Ok(Settings {
        algorithm,
        scheme: s.scheme,
        tau,
        tol: Tolerances { active, tendency, ..tol },
        integrator: s.integrator,
        events: EventSettings {
            enabled: s.events,
            restitution,
            impulses: s.impulses,
            max_per_step: s.max_events_per_step,
            min_impact_speed,
        },
        units,
        sleep,
    })
}
