//! The app's fixed-step sync layer changes nothing: after every step the body and
//! constraint components hold, bit for bit, what the core alone computes; and a
//! switch of algorithm mid-run takes effect on the next step, without a reset.

use bevy::time::TimeUpdateStrategy;
use contact_core::Algorithm;
use contact_lab::app::lab::{Lab, LabAction, Status};
use contact_lab::app::physics::PhysicsBudget;
use std::time::Duration;

use crate::common::*;

fn compare_with_core(file: &str, n: u64) {
    let scene = scene(file);
    let mut app = headless(&scene);
    let mut core = scene.world.clone();
    let h = scene.dt;
    let mut last = None;
    run_until(&mut app, n, |app, taken| {
        for _ in 0..taken {
            last = Some(core.step(h));
        }
        assert_matches_core(app, &core, last.as_ref(), &format!("{file} step {}", core.steps));
    });
    assert_eq!(core.steps, n);
    assert!(app.world().resource::<Lab>().world.state == core.state);
}

#[test]
fn wedge_components_equal_the_core_bit_for_bit() {
    compare_with_core("wedge.ron", 300);
}

#[test]
fn billiard_components_equal_the_core_bit_for_bit() {
    // Events, impacts and 77 constraints.
    compare_with_core("billiard-corner.ron", 600);
}

#[test]
fn other_scenes_components_equal_the_core_bit_for_bit() {
    for file in ["newtons-cradle.ron", "bead-on-curve.ron", "sticky-corner.ron", "wedge-left.ron"] {
        compare_with_core(file, 150);
    }
}

/// Platt lets the wedge's particle sink below the floor (section 3 of the paper);
/// switching to Right mid-run (the presenter's key 3) holds it on the floor from
/// the next step, and the run is still the core's, step for step.
#[test]
fn switching_algorithm_mid_run() {
    let scene = scene("wedge.ron");
    let h = scene.dt;
    let mut app = headless(&scene);
    app.world_mut().write_message(LabAction::SetAlgorithm(Algorithm::Platt));
    app.update();
    assert_eq!(app.world().resource::<Lab>().world.settings.algorithm, Algorithm::Platt);
    let mut core = scene.world.clone();
    // Steps taken before the switch was applied ran the scene's algorithm.
    for _ in 0..steps(&app) {
        core.step(h);
    }
    core.settings.algorithm = Algorithm::Platt;
    let mut min_y = f64::INFINITY;
    run_until(&mut app, 200, |app, taken| {
        for _ in 0..taken {
            core.step(h);
        }
        assert_matches_core(app, &core, None, "under Platt");
        min_y = min_y.min(bodies(app)[0].1.current.y);
    });
    assert!(min_y < 0.0, "Platt should let the particle below y = 0 (min y = {min_y})");

    app.world_mut().write_message(LabAction::SetAlgorithm(Algorithm::Right));
    app.update();
    // The frame's fixed step ran before the switch: it was still Platt's.
    for _ in core.steps..steps(&app) {
        core.step(h);
    }
    core.settings.algorithm = Algorithm::Right;
    let t_switch = core.state.t;
    let mut last = None;
    run_until(&mut app, 500, |app, taken| {
        for _ in 0..taken {
            last = Some(core.step(h));
        }
        assert_matches_core(app, &core, last.as_ref(), "after the switch to Right");
    });
    let lab = app.world().resource::<Lab>();
    let report = lab.report.as_ref().unwrap();
    assert_eq!(report.algorithm, Algorithm::Right);
    assert!(lab.time() > t_switch, "no reset: time went on");
    let y = lab.position(0).y;
    assert!(y.abs() < 1e-6, "Right brings the particle back onto the floor (y = {y})");
    assert!(report.handled[1], "g2 is handled under Right");
}

/// A single step (→) while paused runs exactly one step of the core.
#[test]
fn single_step_while_paused() {
    let scene = scene("wedge.ron");
    let mut app = headless(&scene);
    app.world_mut().write_message(LabAction::SetPaused(true));
    app.update();
    let before = steps(&app);
    for _ in 0..5 {
        app.update();
    }
    assert_eq!(steps(&app), before, "paused: no step");
    app.world_mut().write_message(LabAction::StepOnce);
    app.update();
    assert_eq!(steps(&app), before + 1);
    let mut core = scene.world.clone();
    let mut r = None;
    for _ in 0..before + 1 {
        r = Some(core.step(scene.dt));
    }
    assert_matches_core(&mut app, &core, r.as_ref(), "after a single step");
    // Reset goes back to the start, settings kept.
    app.world_mut().write_message(LabAction::Reset);
    app.update();
    assert_eq!(steps(&app), 0);
    assert_matches_core(&mut app, &scene.world, None, "after a reset");
}

/// Past the frame's physics budget the rest of the frame's steps are dropped:
/// with no budget at all, every frame still takes its first step (the simulation
/// moves on), drops the backlog (no catch-up later) and reports it is behind.
#[test]
fn a_spent_budget_drops_the_backlog_but_keeps_one_step_per_frame() {
    let scene = scene("wedge.ron");
    let mut app = headless(&scene);
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(10.0 * scene.dt)));
    app.update();
    let before = steps(&app);
    assert!(before <= 10);
    let mut budget = app.world_mut().resource_mut::<PhysicsBudget>();
    (budget.budget, budget.share) = (Duration::ZERO, 0.0);
    for _ in 0..5 {
        app.update();
    }
    assert_eq!(steps(&app), before + 5, "one step per frame once the budget is spent");
    assert!(app.world().resource::<PhysicsBudget>().behind());
    // The dropped steps are not owed: given a budget again, a frame takes ten steps.
    app.world_mut().resource_mut::<PhysicsBudget>().budget = Duration::from_secs(3600);
    let before = steps(&app);
    app.update();
    assert_eq!(steps(&app), before + 10);
}

/// A diverging step in the app (τ far below h) is undone: the last good state
/// comes back, the clock pauses and the status bar gives the cause.
#[test]
fn a_diverging_step_restores_the_last_good_state_and_pauses() {
    let scene = scene("wedge.ron");
    let mut app = headless(&scene);
    app.update();
    app.world_mut().resource_mut::<Lab>().world.settings.tau = 1e-9;
    for _ in 0..200 {
        app.update();
        if app.world().resource::<bevy::prelude::Time<bevy::prelude::Virtual>>().is_paused() {
            break;
        }
    }
    assert!(app.world().resource::<bevy::prelude::Time<bevy::prelude::Virtual>>().is_paused(), "paused");
    let lab = app.world().resource::<Lab>();
    let speed = lab.world.state.qd.iter().fold(0.0_f64, |m, v| m.max(v.abs()));
    assert!(speed <= contact_core::world::DIVERGED_SPEED, "the state before the diverged step: {speed}");
    let status = app.world().resource::<Status>();
    assert!(
        status.error && status.text.contains("Diverged") && status.text.contains("the stable bound of Baumgarte"),
        "{}",
        status.text
    );
    // Paused: no further step.
    let steps_now = steps(&app);
    app.update();
    assert_eq!(steps(&app), steps_now);
}
