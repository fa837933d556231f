//! From the file as written ([`super::schema`]) to a checked [`Scene`].
//!
//! Order: bodies (explicit, then the ball pile), constraints (explicit, then one
//! per wall and ball, then one per ball pair), the model, then the checks that
//! need positions (overlaps, constraints violated at the start), the solver, the
//! view and the plots. Each failure points at the text of the field it is about.
//!
//! This file holds the entry point, [`build`], in that order; each part is a
//! module, the lower ones first (a module imports only those above it in this
//! list, and none imports this file):
//!
//! | module | holds |
//! |---|---|
//! | `ctx` | [`Ctx`]: where errors point, the checks of numbers and names |
//! | `bodies` | the bodies written in the file, their `q` and `q̇` |
//! | `rigid` | bodies that turn (`Box`, `Polygon`, `Disc`): `(x, y, θ)`, `M = diag(m, m, I)` |
//! | `pile` | the balls of a `ball_pile` |
//! | `constraints` | the constraints written in the file (eq. 2, eq. 7) |
//! | `generated` | one row per wall and ball and per ball pair, fixed or by proximity |
//! | `start` | the checks that need positions |
//! | `solver` | the solver's settings (τ of eq. 5, tolerances, events) |
//! | `view` | the view box and the plots |
//! | `ron_errors` | [`ron_error`]: what the RON parser rejects, with its field |

mod bodies;
mod constraints;
mod ctx;
mod generated;
mod pile;
mod rigid;
mod ron_errors;
mod solver;
mod start;
mod view;

pub use self::ctx::Ctx;
pub use self::ron_errors::ron_error;
pub(in crate::scene) use self::view::opening;

use self::bodies::{Bodies, add_body};
use self::constraints::{Constraints, add_constraint};
use self::ctx::Result;
use self::pile::add_pile;
use self::start::{check_overlaps, check_points, check_start};
use super::schema::SceneFile;
use super::{Overrides, Scene};
use crate::model::{Model, State};
use crate::world::World;

/// Builds and checks the scene.
pub fn build(file: SceneFile, ov: &Overrides, cx: &Ctx) -> Result<Scene> {
    let gravity = cx.finite2("gravity", file.gravity)?;

    // Bodies.
    let mut bodies = Bodies::default();
    for (i, spec) in file.bodies.iter().enumerate() {
        let path = format!("bodies[{i}]");
        match spec.rigid() {
            Some((fields, shape)) => rigid::add_rigid(cx, &mut bodies, &path, fields, shape)?,
            None => add_body(cx, &mut bodies, &path, spec)?,
        }
    }
    match (&file.ball_pile, ov.balls) {
        (Some(pile), balls) => add_pile(cx, &mut bodies, pile, balls.unwrap_or(pile.count))?,
        // Not in the text: the error points at the scene's start.
        (None, Some(_)) => {
            return Err(cx.err("ball_pile", "the number of balls was given, but this scene has no `ball_pile` block"));
        }
        (None, None) => {}
    }
    // A scene may have no body yet: the editor's "New empty scene" starts there.
    check_points(cx, &bodies)?;

    // Constraints: explicit, walls, ball pairs.
    let mut cons = Constraints::default();
    for (i, spec) in file.constraints.iter().enumerate() {
        add_constraint(cx, &bodies, &mut cons, &format!("constraints[{i}]"), spec)?;
    }
    // Walls and ball pairs: fixed rows, or rows by proximity when they would be
    // too many (see crate::contacts).
    let (generator, proximity) = generated::generator(cx, &file, &bodies, ov)?;
    if !proximity {
        generated::push_fixed_rows(cx, &generator, &bodies, &mut cons)?;
    }

    let Bodies { bodies: body_list, info, q, qd, .. } = bodies;
    let mut model = Model::new(body_list, cons.list, gravity);
    let state = State { q, qd, t: 0.0 };
    let mut paths = cons.paths;
    if proximity {
        model = generated::with_proximity_rows(model, generator, &state, &mut paths);
    }
    let units = file.solver.units;
    let allowed = file.solver.start_tolerance.unwrap_or(units.length(start::START_DEPTH));
    let allowed = cx.non_negative("solver.start_tolerance", allowed, "the tolerance")?;
    check_overlaps(cx, &model, &info, &state, allowed)?;
    check_start(cx, &model, &paths, &state, allowed)?;

    // Solver.
    let dt = cx.positive("solver.dt", file.solver.dt, "the time step dt")?;
    let settings = solver::settings(cx, &file.solver)?;
    let duration = cx.positive("duration", file.duration, "duration")?;

    // View and plots.
    let view = view::view_box(cx, &file.view, &model, &state)?;
    let plots = view::plots(cx, &file.plots, &model)?;
    let focus = file.focus.as_ref().map(|f| view::rect(cx, "focus", f)).transpose()?;
    let opening = view::opening(cx, "opening", file.opening.as_ref())?;

    Ok(Scene {
        name: file.name,
        description: file.description.trim().to_string(),
        world: World::new(model, state, settings),
        view,
        focus,
        opening,
        plots,
        dt,
        duration,
        cue: file.cue,
    })
}
