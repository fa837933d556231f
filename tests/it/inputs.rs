//! The input log: a session in the lab — a spring dragged, a force set, the
//! algorithm and τ switched, a timeline restore and a new branch — replayed by
//! the core alone from the scene file ends in the same bits.

use bevy::math::DVec2;
use bevy::prelude::*;
use contact_core::{Algorithm, Input};
use contact_lab::app::drag;
use contact_lab::app::inputs::{Inputs, InputsPlugin};
use contact_lab::app::lab::{Drags, Grab, Lab, LabAction, PhysicsSet, Spring};
use contact_lab::app::timeline::Timeline;

use crate::common::*;

#[test]
fn a_session_replays_from_its_input_log() {
    let scene = scene("billiard-corner.ron");
    let mut app = headless(&scene);
    app.add_plugins(InputsPlugin).add_systems(FixedUpdate, drag::apply_springs.in_set(PhysicsSet::Forces));
    // A spring whose target moves, as under a dragging mouse.
    run_until(&mut app, 200, |app, _| {
        let s = steps(app) as f64;
        app.world_mut().resource_mut::<Drags>().grab =
            Some(Grab::Body(Spring::new(0, DVec2::new(0.2 + 1e-3 * s, 0.35))));
    });
    app.world_mut().resource_mut::<Drags>().grab = None;
    app.world_mut().resource_mut::<Lab>().world.model.bodies[1].force = nalgebra::Vector2::new(0.3, 0.1);
    run_until(&mut app, 400, |_, _| {});
    app.world_mut().write_message(LabAction::SetAlgorithm(Algorithm::Platt));
    app.world_mut().resource_mut::<Lab>().world.settings.tau = 0.02;
    run_until(&mut app, 550, |_, _| {});
    app.world_mut().resource_mut::<Lab>().world.model.bodies[3].force = nalgebra::Vector2::new(9.0, 9.0);
    run_until(&mut app, 600, |_, _| {});
    // Back to step 500, a new branch under Exact with a pinned spring (the force
    // set at step 550 was not: the restored state has the one of step 500's time,
    // but the model keeps the force as it is now, and the log says so).
    app.world_mut().write_message(LabAction::SetPaused(true));
    app.update();
    let idx = app.world().resource::<Timeline>().snaps.iter().position(|s| s.steps == 500).expect("stored");
    app.world_mut().write_message(LabAction::Restore(idx));
    app.update();
    app.world_mut().write_message(LabAction::SetAlgorithm(Algorithm::Exact));
    app.world_mut().resource_mut::<Drags>().pins.push(Spring::new(2, DVec2::new(0.5, 0.5)));
    app.world_mut().write_message(LabAction::SetPaused(false));
    run_until(&mut app, 800, |_, _| {});

    let log = app.world().resource::<Inputs>().log.clone();
    // The old branch's force (step 550) is gone; the new branch logged its inputs at 500.
    assert!(log.entries.iter().all(|(s, _)| *s <= 500), "{:?}", log.entries.iter().map(|e| e.0).collect::<Vec<_>>());
    assert!(log.entries.iter().any(|(s, i)| *s == 500 && matches!(i, Input::Springs(v) if v.len() == 1)));
    assert!(
        log.entries
            .iter()
            .any(|(s, i)| *s == 500 && matches!(i, Input::Settings(x) if x.algorithm == Algorithm::Exact))
    );
    let lab = app.world().resource::<Lab>();
    let mut world = scene.world.clone();
    log.replay(&mut world, scene.dt, lab.world.steps, |_, _| {});
    assert_eq!(world.steps, lab.world.steps);
    assert_eq!(world.state_hash(), lab.world.state_hash(), "the replay parts from the session");
    assert_eq!(world.settings.algorithm, Algorithm::Exact);
}
