//! What the app adds around `World::step`: the headless lab (gather, the step,
//! writeback, the input log, history and the timeline's snapshot ring, on
//! Bevy's fixed schedules) against the core's step alone, on the same scene
//! and the same steps, in the dev profile the app runs in (`scripts/lab`). A
//! measurement to read, not a test:
//!
//! ```text
//! cargo run --example step_cost -- assets/scenes/billiard-corner.ron 5000
//! cargo run --example step_cost -- assets/scenes/ball-pile.ron 1000 100
//! ```
//!
//! The third argument, a ball count for a `ball_pile` scene, adds a run of the
//! headless app on the wall clock, as the window runs it: frames at 60 Hz,
//! steps on the worker when they are dear (the physics thread of
//! [`contact_lab::app::physics::pace`]), from the scene's start until it has
//! taken as many steps as the core alone did (issue 26, item 5: the app
//! should reach 90 % of the core's steps per second).

use std::time::{Duration, Instant};

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use contact_core::scene::{Overrides, load};
use contact_lab::app::control::ControlPlugin;
use contact_lab::app::history::HistoryPlugin;
use contact_lab::app::inputs::InputsPlugin;
use contact_lab::app::lab::{self, Lab, LabPlugin};
use contact_lab::app::physics::{PhysicsBudget, PhysicsPlugin, StepWorker, WorkerMode};
use contact_lab::app::timeline::TimelinePlugin;

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().unwrap_or_else(|| "assets/scenes/billiard-corner.ron".into());
    let steps: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(5000);
    let balls: Option<usize> = args.next().and_then(|s| s.parse().ok());
    let overrides = Overrides { balls, ..Default::default() };
    let scene = load(std::path::Path::new(&path), &overrides).unwrap_or_else(|e| panic!("{e}"));

    let mut world = scene.world.clone();
    let start = Instant::now();
    for _ in 0..steps {
        world.step(scene.dt);
    }
    let core = start.elapsed();

    let per = |d: Duration| d.as_secs_f64() * 1e6 / steps as f64;
    println!("{path}: {steps} steps; core {:.1} µs a step", per(core));
    if balls.is_some() {
        let app = wall_clock(&scene, steps);
        println!(
            "  headless app on the wall clock (60 Hz frames, the worker): {:.1} µs a step, {:.0} % of the core's \
             steps per second",
            per(app),
            100.0 * core.as_secs_f64() / app.as_secs_f64()
        );
        return;
    }
    // One step an update (a frame's schedules around every step), then ten (the
    // fixed schedules' share).
    for per_update in [1u32, 10] {
        let mut app = lab_app(&scene);
        let frame = Duration::from_secs_f64(scene.dt * per_update as f64);
        app.insert_resource(TimeUpdateStrategy::ManualDuration(frame));
        app.world_mut().resource_mut::<PhysicsBudget>().budget = Duration::from_secs(3600);
        // Every step on the drawing thread, whatever it costs: that is the cost measured.
        app.world_mut().resource_mut::<StepWorker>().mode = WorkerMode::Never;
        app.update();
        let first = app.world().resource::<Lab>().world.steps;
        let start = Instant::now();
        while app.world().resource::<Lab>().world.steps < first + steps {
            app.update();
        }
        let lab = start.elapsed();
        println!(
            "  headless app, {per_update} step(s) an update: {:.1} µs a step, {:.2}× the core's",
            per(lab),
            lab.as_secs_f64() / core.as_secs_f64()
        );
    }
}

/// The headless lab playing `scene` at 1× from its start.
fn lab_app(scene: &contact_core::scene::Scene) -> App {
    let mut app = App::new();
    app.add_plugins(MinimalPlugins).add_plugins((
        LabPlugin,
        PhysicsPlugin,
        ControlPlugin,
        InputsPlugin,
        HistoryPlugin,
        TimelinePlugin,
    ));
    // Playing at 1× from the first update, whatever the scene's opening says.
    let mut playing = scene.clone();
    playing.opening = contact_core::scene::Opening::default();
    lab::install_scene(app.world_mut(), playing, None);
    app
}

/// The wall time the headless app takes for `steps` steps of `scene` on the
/// wall clock: a frame every 1/60 s at most, the worker's choice as in the window.
fn wall_clock(scene: &contact_core::scene::Scene, steps: u64) -> Duration {
    let mut app = lab_app(scene);
    app.insert_resource(TimeUpdateStrategy::Automatic);
    let frame = Duration::from_secs_f64(1.0 / 60.0);
    let start = Instant::now();
    while app.world().resource::<Lab>().world.steps < steps {
        let t = Instant::now();
        app.update();
        std::thread::sleep(frame.saturating_sub(t.elapsed()));
    }
    start.elapsed()
}
