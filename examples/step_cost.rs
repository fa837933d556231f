//! What the app adds around `World::step`: the headless lab (gather, the step,
//! writeback, the input log, history and the timeline's snapshot ring, on
//! Bevy's fixed schedules) against the core's step alone, on the same scene
//! and the same steps, in the dev profile the app runs in (`scripts/lab`). A
//! measurement to read, not a test:
//!
//! ```text
//! cargo run --example step_cost -- assets/scenes/billiard-corner.ron 5000
//! ```

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
    let scene = load(std::path::Path::new(&path), &Overrides::default()).unwrap_or_else(|e| panic!("{e}"));

    let mut world = scene.world.clone();
    let start = Instant::now();
    for _ in 0..steps {
        world.step(scene.dt);
    }
    let core = start.elapsed();

    let per = |d: Duration| d.as_secs_f64() * 1e6 / steps as f64;
    println!("{path}: {steps} steps; core {:.1} µs a step", per(core));
    // One step an update (a frame's schedules around every step), then ten (the
    // fixed schedules' share).
    for per_update in [1u32, 10] {
        let mut app = App::new();
        app.add_plugins(MinimalPlugins).add_plugins((
            LabPlugin,
            PhysicsPlugin,
            ControlPlugin,
            InputsPlugin,
            HistoryPlugin,
            TimelinePlugin,
        ));
        let frame = Duration::from_secs_f64(scene.dt * per_update as f64);
        app.insert_resource(TimeUpdateStrategy::ManualDuration(frame));
        // Playing at 1× from the first update, whatever the scene's opening says.
        let mut playing = scene.clone();
        playing.opening = contact_core::scene::Opening::default();
        lab::install_scene(app.world_mut(), playing, None);
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
