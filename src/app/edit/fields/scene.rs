//! The scene's own fields (its name, gravity, duration, the solver's most
//! used settings) and the solver's other numbers: shown on the inspector
//! when nothing is selected.

use contact_core::scene::schema::SceneFile;

use super::{Field, SceneDoc, Typed, mu, num, opt, rolling, text};

/// The scene's own fields (the solver's most used among them).
pub fn scene_fields(doc: &SceneDoc) -> Vec<Field> {
    let f = &doc.file;
    vec![
        text("name", &f.name),
        text("description", &f.description),
        num("gravity.x", f.gravity.0),
        num("gravity.y", f.gravity.1),
        num("duration", f.duration),
        num("solver.dt", f.solver.dt),
        num("solver.tau", f.solver.tau),
        num("solver.restitution", f.solver.restitution),
        opt("ball_pair_restitution", f.ball_pair_restitution, "blank: the solver's"),
        mu("pair_friction", f.pair_friction),
        rolling("pair_rolling", f.pair_rolling),
        opt("solver.start_tolerance", f.solver.start_tolerance, "blank: 1e-9 length units"),
    ]
}

/// The solver's fields that are numbers, beyond those of [`scene_fields`].
pub fn solver_fields(doc: &SceneDoc) -> Vec<Field> {
    let sv = &doc.file.solver;
    vec![
        num("solver.units.length", sv.units.length),
        num("solver.units.time", sv.units.time),
        opt("solver.active_tolerance", sv.active_tolerance, "blank: 1e-6 length units"),
        opt("solver.tendency_tolerance", sv.tendency_tolerance, "blank: 1e-9 acceleration units"),
        opt("solver.min_impact_speed", sv.min_impact_speed, "blank: 1e-3 speed units"),
        Field { label: "solver.max_events_per_step", value: sv.max_events_per_step.to_string(), hint: "" },
        num("solver.sleep.time", sv.sleep.time),
        opt("solver.sleep.speed", sv.sleep.speed, "blank: 1e-3 speed units"),
    ]
}

/// Sets the scene's own field `label` (not its name) to `v`.
pub(super) fn set(f: &mut SceneFile, label: &str, v: &Typed) -> Result<(), String> {
    match label {
        "description" => f.description = v.t.to_string(),
        "gravity.x" => f.gravity.0 = v.number()?,
        "gravity.y" => f.gravity.1 = v.number()?,
        "duration" => f.duration = v.number()?,
        "solver.dt" => f.solver.dt = v.number()?,
        "solver.tau" => f.solver.tau = v.number()?,
        "solver.restitution" => f.solver.restitution = v.number()?,
        "ball_pair_restitution" => f.ball_pair_restitution = v.optional()?,
        "pair_friction" => f.pair_friction = v.mu()?,
        "pair_rolling" => f.pair_rolling = v.mu()?,
        "solver.start_tolerance" => f.solver.start_tolerance = v.optional()?,
        "solver.units.length" => f.solver.units.length = v.number()?,
        "solver.units.time" => f.solver.units.time = v.number()?,
        "solver.active_tolerance" => f.solver.active_tolerance = v.optional()?,
        "solver.tendency_tolerance" => f.solver.tendency_tolerance = v.optional()?,
        "solver.min_impact_speed" => f.solver.min_impact_speed = v.optional()?,
        "solver.max_events_per_step" => {
            f.solver.max_events_per_step =
                v.t.parse().map_err(|_| format!("field `{}`: `{}` is not a whole number", v.path, v.text))?
        }
        "solver.sleep.time" => f.solver.sleep.time = v.number()?,
        "solver.sleep.speed" => f.solver.sleep.speed = v.optional()?,
        _ => return Err(v.bad()),
    }
    Ok(())
}
