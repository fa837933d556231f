//! The input log: a session in the lab — a spring dragged, a force set, the
//! algorithm and τ switched, a timeline restore and a new branch — replayed by
//! the core alone from the scene file ends in the same bits.

use bevy::math::DVec2;
use bevy::prelude::*;
use contact_core::input::InputLog;
use contact_core::scene::Scene;
use contact_core::{Algorithm, Input, World};
use contact_lab::app::drag;
use contact_lab::app::inputs::{Inputs, InputsPlugin};
use contact_lab::app::lab::{Drags, Grab, Lab, LabAction, PhysicsSet, Spring};
use contact_lab::app::timeline::Timeline;

use crate::common::*;

/// The core alone replays `log` from `scene` for the lab's steps, to the
/// lab's bits; the replayed world.
fn replays(scene: &Scene, log: &InputLog, lab: &Lab) -> World {
    let mut world = scene.world.clone();
    log.replay(&mut world, scene.dt, lab.world.steps, |_, _| {});
    assert_eq!(world.steps, lab.world.steps);
    assert_eq!(world.state_hash(), lab.world.state_hash(), "the replay parts from the session");
    world
}

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
    let world = replays(&scene, &log, app.world().resource::<Lab>());
    assert_eq!(world.settings.algorithm, Algorithm::Exact);
}

/// The Algorithm panel's "every contact" fields on the heap: `μ_r` set to 0
/// mid-pour reaches every generated row from the next step, is logged (the
/// core alone replays the run to the same bits), and a reset keeps it and
/// says so; Shift+R brings the file's back.
#[test]
fn every_contacts_mu_r_set_live_is_logged_kept_on_reset_and_replays() {
    let scene = scene("heap.ron");
    let mut app = headless(&scene);
    app.add_plugins(InputsPlugin);
    run_until(&mut app, 300, |_, _| {});
    app.world_mut().write_message(LabAction::SetContacts { mu: 0.5, rolling: 0.0 });
    run_until(&mut app, 450, |_, _| {});
    {
        let lab = app.world().resource::<Lab>();
        let c = lab.world.model.contact_coefficients().expect("the heap's contacts come by proximity");
        assert_eq!(c, c.every(0.5, 0.0));
        assert!(lab.world.model.constraints.iter().all(|r| r.rolling == 0.0 && r.friction == 0.5));
        let log = app.world().resource::<Inputs>().log.clone();
        // Logged with the step it applies from (the frame's fixed step runs before its actions).
        let at = log.entries.iter().find(|(_, i)| matches!(i, Input::Contacts(c) if c.pair == (0.5, 0.0)));
        assert!(at.is_some_and(|(s, _)| (300..=301).contains(s)), "{:?}", log.entries);
        replays(&scene, &log, lab);
    }
    app.world_mut().write_message(LabAction::Reset);
    app.update();
    let lab = app.world().resource::<Lab>();
    assert_eq!(lab.world.model.contact_coefficients().map(|c| c.pair), Some((0.5, 0.0)), "a reset keeps μ_r = 0");
    let said = app.world().resource::<contact_lab::app::lab::Status>().text.clone();
    assert!(said.contains("μ_r = 0"), "{said}");
    app.world_mut().write_message(LabAction::ResetAll);
    app.update();
    let lab = app.world().resource::<Lab>();
    assert_eq!(lab.world.model.contact_coefficients().map(|c| c.pair), Some((0.5, 0.3)), "Shift+R: the file's");
}

/// The same fields on a scene whose contacts were written out row by row
/// (the 30-ball pile: 525 fixed rows, no generator), as a student sets μ =
/// 0.3 on the pile: every contact row takes μ, none takes μ_r (its balls
/// do not turn, so none can roll, and the event-driven scheme stays
/// available), the run goes on, and the logged change replays to the same
/// bits.
#[test]
fn every_contacts_mu_set_live_reaches_a_piles_fixed_rows_and_replays() {
    let scene = scene("ball-pile.ron");
    assert!(scene.world.model.contacts.is_none(), "the pile's rows are fixed");
    let mut app = headless(&scene);
    app.add_plugins(InputsPlugin);
    run_until(&mut app, 200, |_, _| {});
    app.world_mut().write_message(LabAction::SetContacts { mu: 0.3, rolling: 0.2 });
    run_until(&mut app, 400, |_, _| {});
    let lab = app.world().resource::<Lab>();
    let c = lab.world.model.contact_coefficients().expect("the pile's contact rows");
    assert_eq!(c.rows.len(), 525);
    assert!(c.rows.iter().all(|r| *r == (0.3, 0.0)), "{:?}", &c.rows[..4]);
    assert!(!lab.world.model.has_rolling());
    assert!(lab.world.steps >= 400);
    replays(&scene, &app.world().resource::<Inputs>().log, lab);
}
