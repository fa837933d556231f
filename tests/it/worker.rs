//! Steps on a worker thread: a session whose every step runs off the drawing
//! thread (springs dragged, a cue shot, a force, an algorithm switch, compare
//! lanes) ends in the same bits, step by step, as the same session stepped on
//! the drawing thread, and its input log replays to it; a jump cancels the
//! step in flight.

use std::collections::BTreeMap;

use bevy::math::DVec2;
use bevy::prelude::*;
use contact_core::Algorithm;
use contact_lab::app::compare::{Compare, CompareAction, ComparePlugin};
use contact_lab::app::cue::apply_shot;
use contact_lab::app::drag;
use contact_lab::app::inputs::{Inputs, InputsPlugin};
use contact_lab::app::lab::{Coords, Drags, Grab, Lab, LabAction, LabBody, PhysicsSet, Spring, Status, StepInFlight};
use contact_lab::app::physics::{MAX_BATCH, StepWorker, WorkerMode};

use crate::common::*;

fn lab_app(file: &str, mode: WorkerMode) -> App {
    let scene = scene(file);
    let mut app = headless(&scene);
    app.add_plugins((InputsPlugin, ComparePlugin { start: false }))
        .add_systems(FixedUpdate, drag::apply_springs.in_set(PhysicsSet::Forces));
    *app.world_mut().resource_mut::<StepWorker>() = StepWorker { mode, block: true, ..default() };
    app
}

/// The lab's state is, bit for bit, the scene's start stepped by the core
/// alone as many times as the lab has stepped.
fn assert_same_as_the_core_alone(app: &App, scene: &contact_core::scene::Scene) {
    let lab = app.world().resource::<Lab>();
    let mut alone = scene.world.clone();
    for _ in 0..lab.world.steps {
        alone.step(scene.dt);
    }
    assert_eq!(lab.world.state_hash(), alone.state_hash(), "after {} steps", lab.world.steps);
}

/// A session on the billiard; returns the lab's `q` and `t` (as bits) after every step.
/// `lead`: how many steps the lab is ahead of what it shows when an input is
/// given (1 on the worker: the step in flight took its inputs at its launch),
/// so that both runs give each input to the same step.
fn session(app: &mut App, lead: u64) -> BTreeMap<u64, Vec<u64>> {
    let mut hashes = BTreeMap::new();
    let spring = Spring::new(0, DVec2::new(0.3, 0.4));
    let mut shot = false;
    let mut forked = false;
    run_until(app, 500, |app, _| {
        let lab = app.world().resource::<Lab>();
        // `q` and `t` (on the worker, `q̇` already holds a shot gathered for the step in flight).
        let q: Vec<u64> = lab.world.state.q.iter().chain([&lab.world.state.t]).map(|v| v.to_bits()).collect();
        hashes.insert(lab.world.steps, q);
        // Compare lanes fork from the state shown (a step in flight is taken again).
        let shown = lab.world.steps;
        if shown >= 150 && !forked {
            forked = true;
            app.world_mut().write_message(CompareAction::Toggle);
        }
        let s = shown + lead;
        app.world_mut().resource_mut::<Drags>().grab = (200..300).contains(&s).then_some(Grab::Body(spring));
        if s == 320 {
            app.world_mut().write_message(LabAction::SetAlgorithm(Algorithm::Platt));
        }
        if s >= 350 && !shot {
            // A cue shot on the entity, as the cue tool gives it.
            shot = true;
            let mut q = app.world_mut().query::<(&LabBody, &mut Coords)>();
            for (b, mut c) in q.iter_mut(app.world_mut()) {
                if b.index == 4 {
                    apply_shot(&mut c, DVec2::new(-1.5, 0.7));
                }
            }
        }
        if s == 420 {
            app.world_mut().resource_mut::<Lab>().world.model.bodies[2].force = nalgebra::Vector2::new(0.4, -0.2);
        }
    });
    hashes
}

#[test]
fn a_session_on_the_worker_equals_the_session_on_the_drawing_thread() {
    let mut here = lab_app("billiard-corner.ron", WorkerMode::Never);
    let mut there = lab_app("billiard-corner.ron", WorkerMode::Always);
    let a = session(&mut here, 0);
    let b = session(&mut there, 1);
    assert_eq!(a.len(), b.len());
    for (step, hash) in &a {
        assert_eq!(Some(hash), b.get(step), "the lab's state after step {step}");
    }
    let lanes = |app: &App| -> Vec<(contact_core::Method, u64, u64)> {
        let c = app.world().resource::<Compare>();
        c.lanes.iter().map(|l| (l.lane.method(), l.lane.world.steps, l.lane.world.state_hash())).collect()
    };
    assert_eq!(lanes(&here).len(), 4, "compare mode forked four lanes (the other three algorithms, time-stepping)");
    assert_eq!(lanes(&here), lanes(&there), "the lanes, stepped beside the lab on the worker");
    assert!(lanes(&there).iter().all(|l| l.1 == 500), "the lanes kept up with the lab");
    let log = |app: &App| app.world().resource::<Inputs>().log.entries.clone();
    assert_eq!(log(&here), log(&there), "the input log");
    assert!(
        log(&there).iter().any(|(_, i)| matches!(i, contact_core::Input::Velocity { body: 4, .. })),
        "the shot is logged"
    );

    // The worker's session replays from its log, in the core alone.
    let scene = scene("billiard-corner.ron");
    let mut world = scene.world.clone();
    app_log_replay(&there, &mut world, scene.dt);
    assert_eq!(world.state_hash(), there.world().resource::<Lab>().world.state_hash());
}

fn app_log_replay(app: &App, world: &mut contact_core::World, dt: f64) {
    let log = app.world().resource::<Inputs>().log.clone();
    let steps = app.world().resource::<Lab>().world.steps;
    log.replay(world, dt, steps, |_, _| {});
}

#[test]
fn a_reset_cancels_the_step_in_flight() {
    let mut app = lab_app("wedge.ron", WorkerMode::Always);
    run_until(&mut app, 40, |_, _| {});
    assert!(app.world().resource::<StepInFlight>().in_flight(), "step 41 is in flight between updates");
    app.world_mut().write_message(LabAction::Reset);
    app.world_mut().write_message(LabAction::SetPaused(true));
    app.update();
    let lab = app.world().resource::<Lab>();
    assert_eq!(lab.world.steps, 0, "the step in flight was dropped, not installed over the reset");
    assert_eq!(lab.world.state_hash(), scene("wedge.ron").world.state_hash());
    assert!(!app.world().resource::<StepInFlight>().in_flight());
}

/// A worker that dies without answering (a panic in the core) pauses the
/// clock and says so, instead of launching the same step again forever.
#[test]
fn a_panicking_step_pauses_the_clock_and_says_so() {
    let mut app = lab_app("wedge.ron", WorkerMode::Always);
    run_until(&mut app, 40, |_, _| {});
    let before = app.world().resource::<Lab>().world.state_hash();
    {
        let mut in_flight = app.world_mut().resource_mut::<StepInFlight>();
        in_flight.cancel();
        // The part the physics installs, dying as a panicking core would.
        in_flight.launch("lab", || -> u8 { panic!("a core panic, on purpose (this test)") });
    }
    app.update();
    assert!(app.world().resource::<Time<Virtual>>().is_paused(), "the clock is paused");
    let status = app.world().resource::<Status>();
    assert!(status.error && status.text.contains("stopped in the core"), "{}", status.text);
    assert_eq!(app.world().resource::<Lab>().world.state_hash(), before, "the state before the step is kept");
    for _ in 0..5 {
        app.update();
    }
    assert!(!app.world().resource::<StepInFlight>().in_flight(), "no step is launched while paused");
}

/// Without waiting: each frame installs what is done and launches the next;
/// the run ends where the core alone does.
#[test]
fn a_worker_that_is_not_waited_for_reaches_the_same_state() {
    let scene = scene("newtons-cradle.ron");
    let mut app = lab_app("newtons-cradle.ron", WorkerMode::Always);
    app.world_mut().resource_mut::<StepWorker>().block = false;
    let mut updates = 0;
    while steps(&app) < 300 {
        app.update();
        updates += 1;
        assert!(updates < 1_000_000, "the lab does not step");
    }
    // The last update may have launched step 301: the state shown is the one compared.
    assert_same_as_the_core_alone(&app, &scene);
}

/// A frame that owes several steps launches them as one batch on the worker
/// (issue 26, item 5): the ball pile with 8 steps owed a frame ends in the
/// bits of the core stepped alone, and the plots got a sample for every
/// step, as one step a frame gives them.
#[test]
fn a_batch_of_steps_on_the_worker_is_the_same_steps_one_at_a_time() {
    let scene = scene("ball-pile.ron");
    let mut app = lab_app("ball-pile.ron", WorkerMode::Always);
    app.insert_resource(bevy::time::TimeUpdateStrategy::ManualDuration(std::time::Duration::from_secs_f64(
        8.0 * scene.dt,
    )));
    let (mut most, mut guard) = (0, 0);
    while steps(&app) < 400 {
        let before = steps(&app);
        app.update();
        most = most.max(steps(&app) - before);
        guard += 1;
        assert!(guard < 400, "the lab does not step");
    }
    assert!(most > 1, "one update installed {most} steps at most: no batch");
    assert_same_as_the_core_alone(&app, &scene);
    let lab = app.world().resource::<Lab>();
    let history = app.world().resource::<contact_lab::app::history::History>();
    // The first sample is the scene's start.
    assert_eq!(history.t.len() as u64, 1 + lab.world.steps / history.stride, "a plot sample for every step");
}

/// A frame slower than [`MAX_BATCH`] ticks (a software renderer's 100 ms
/// frame owes 100 steps of 1 ms) gets all its steps: the worker is owed up
/// to two frames' ticks, not 64, so a pile whose steps keep up does not lose
/// a third of its clock at every frame (issue 47: 0.69× real time under
/// Xvfb with the cap, 0.81× without); the steps are still the core's own.
#[test]
fn a_frame_slower_than_a_batch_gets_all_its_steps() {
    let scene = scene("ball-pile.ron");
    let mut app = lab_app("ball-pile.ron", WorkerMode::Always);
    let ticks = MAX_BATCH + 36;
    app.insert_resource(bevy::time::TimeUpdateStrategy::ManualDuration(std::time::Duration::from_secs_f64(
        ticks as f64 * scene.dt,
    )));
    // The first updates start the clock and the worker.
    for _ in 0..3 {
        app.update();
    }
    let before = steps(&app);
    let frames = 8;
    for _ in 0..frames {
        app.update();
    }
    let stepped = steps(&app) - before;
    assert!(
        stepped >= (frames * ticks as u64) * 9 / 10,
        "{stepped} steps in {frames} frames of {ticks} ticks (at most {MAX_BATCH} a frame would be {})",
        frames * MAX_BATCH as u64
    );
    assert_same_as_the_core_alone(&app, &scene);
}

/// The physics thread (issue 26, item 5): a worker not waited for steps on
/// between frames as the clock owes, and each frame installs what it
/// finished without a new launch; an algorithm switch stops it at a step
/// boundary, where the input log records the switch, and the log replays
/// the run bit for bit.
#[test]
fn a_paced_worker_steps_between_frames_and_its_log_replays_the_run() {
    let mut scene = scene("ball-pile.ron");
    let mut app = lab_app("ball-pile.ron", WorkerMode::Always);
    // The pile's landing as it was measured, under the paper's event-driven
    // scheme, where Platt can be chosen (it opens under time-stepping, whose
    // cheap steps would run past the switch in one batch).
    scene.world.settings.scheme = contact_core::Scheme::EventDriven;
    app.world_mut().resource_mut::<Lab>().world.settings.scheme = contact_core::Scheme::EventDriven;
    app.world_mut().resource_mut::<StepWorker>().block = false;
    app.insert_resource(bevy::time::TimeUpdateStrategy::ManualDuration(std::time::Duration::from_secs_f64(
        4.0 * scene.dt,
    )));
    // Updates that installed steps of the flight in the air before them (a
    // batch of fixed length is installed when it ends, and a new flight launched).
    let (mut carried, mut switched, mut guard) = (0, false, 0);
    let since = |app: &App| app.world().resource::<StepInFlight>().since;
    while steps(&app) < 300 {
        let (before, flight) = (steps(&app), since(&app));
        app.update();
        std::thread::sleep(std::time::Duration::from_millis(2));
        if steps(&app) > before && flight.is_some() && since(&app) == flight {
            carried += 1;
        }
        if steps(&app) >= 150 && !switched {
            switched = true;
            app.world_mut().write_message(LabAction::SetAlgorithm(Algorithm::Platt));
        }
        guard += 1;
        assert!(guard < 100_000, "the lab does not step");
    }
    assert!(carried > 10, "{carried} updates installed steps from a worker that went on");
    // The switch applied at a step boundary and the log has it.
    let lab = app.world().resource::<Lab>();
    assert_eq!(lab.world.settings.algorithm, Algorithm::Platt);
    let log = app.world().resource::<Inputs>().log.clone();
    assert!(log.entries.iter().any(|(k, _)| (150..300).contains(k)), "the switch is logged: {:?}", log.entries);
    let mut world = scene.world.clone();
    log.replay(&mut world, scene.dt, lab.world.steps, |_, _| {});
    assert_eq!(world.state_hash(), lab.world.state_hash(), "the replay after {} steps", lab.world.steps);
}
