//! Building a headless lab and reading it back.

use std::path::{Path, PathBuf};
use std::time::Duration;

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use contact_core::scene::{Overrides, Scene};
use contact_lab::app::control::ControlPlugin;
use contact_lab::app::history::HistoryPlugin;
use contact_lab::app::lab::{self, ConstraintStatus, Coords, Lab, LabBody, LabConstraint, LabPlugin, PointMotion};
use contact_lab::app::physics::{PhysicsPlugin, StepWorker, WorkerMode};
use contact_lab::app::timeline::TimelinePlugin;

pub fn scenes_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("assets").join("scenes")
}

/// A scene of `assets/scenes/`, read by the core alone.
pub fn scene(file: &str) -> Scene {
    contact_core::scene::load(&scenes_dir().join(file), &Overrides::default()).unwrap_or_else(|e| panic!("{e}"))
}

/// The lab's shared vocabulary and simulation plugins on `MinimalPlugins`, the
/// clock advancing `h` per update, every step on the test's thread.
pub fn headless(scene: &Scene) -> App {
    let mut app = App::new();
    app.add_plugins(MinimalPlugins).add_plugins((
        LabPlugin,
        PhysicsPlugin,
        ControlPlugin,
        HistoryPlugin,
        TimelinePlugin,
    ));
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(scene.dt)));
    // Every step on this thread, whatever it costs: one update, one step (the
    // worker's path has its own tests, `worker.rs`).
    app.world_mut().resource_mut::<StepWorker>().mode = WorkerMode::Never;
    // Playing from the first update, whatever the scene's opening says (a
    // scene opened paused is tested where it opens: tour.rs).
    let mut scene = scene.clone();
    scene.opening = contact_core::scene::Opening::default();
    lab::install_scene(app.world_mut(), scene, None);
    app
}

pub fn steps(app: &App) -> u64 {
    app.world().resource::<Lab>().world.steps
}

/// Updates until the lab has taken `n` steps in total, calling `each` after
/// every update with the number of steps taken in it.
pub fn run_until(app: &mut App, n: u64, mut each: impl FnMut(&mut App, u64)) {
    let mut guard = 0;
    while steps(app) < n {
        let before = steps(app);
        app.update();
        let taken = steps(app) - before;
        assert!(taken <= 1, "one update advanced {taken} steps: the manual clock should give one");
        each(app, taken);
        guard += 1;
        assert!(guard < n * 2 + 20, "the lab does not step");
    }
}

/// The body components, by body index.
pub fn bodies(app: &mut App) -> Vec<(Coords, PointMotion)> {
    let mut q = app.world_mut().query::<(&LabBody, &Coords, &PointMotion)>();
    let mut v: Vec<(usize, Coords, PointMotion)> = q.iter(app.world()).map(|(b, c, m)| (b.index, *c, *m)).collect();
    v.sort_by_key(|x| x.0);
    v.into_iter().map(|(_, c, m)| (c, m)).collect()
}

/// The constraint components, by constraint index.
pub fn constraints(app: &mut App) -> Vec<ConstraintStatus> {
    let mut q = app.world_mut().query::<(&LabConstraint, &ConstraintStatus)>();
    let mut v: Vec<(usize, ConstraintStatus)> = q.iter(app.world()).map(|(c, s)| (c.index, *s)).collect();
    v.sort_by_key(|x| x.0);
    v.into_iter().map(|(_, s)| s).collect()
}

/// The coordinates of every body as bits, in `q` order (the trajectory's fingerprint).
pub fn q_bits(app: &mut App) -> Vec<u64> {
    bodies(app)
        .iter()
        .flat_map(|(c, _)| c.q()[..].iter().chain(c.qd()).map(|x| x.to_bits()).collect::<Vec<_>>())
        .collect()
}

/// Asserts that the components hold exactly the core world's state and report.
pub fn assert_matches_core(
    app: &mut App,
    core: &contact_core::World,
    report: Option<&contact_core::StepReport>,
    what: &str,
) {
    let bodies = bodies(app);
    assert_eq!(bodies.len(), core.model.bodies.len());
    for (i, (c, m)) in bodies.iter().enumerate() {
        let b = &core.model.bodies[i];
        for j in 0..b.dofs() {
            let (q, qd) = (core.state.q[b.offset + j], core.state.qd[b.offset + j]);
            assert_eq!(
                c.q[j].to_bits(),
                q.to_bits(),
                "{what}: {}.q[{j}] = {} in the app, {} in the core",
                b.name,
                c.q[j],
                q
            );
            assert_eq!(
                c.qd[j].to_bits(),
                qd.to_bits(),
                "{what}: {}.q̇[{j}] = {} in the app, {} in the core",
                b.name,
                c.qd[j],
                qd
            );
        }
        let p = core.model.position(i, &core.state);
        assert_eq!(
            (m.current.x.to_bits(), m.current.y.to_bits()),
            (p.x.to_bits(), p.y.to_bits()),
            "{what}: point of {}",
            b.name
        );
    }
    if let Some(r) = report {
        for (k, s) in constraints(app).iter().enumerate() {
            let name = &core.model.constraints[k].name;
            assert_eq!(s.g.to_bits(), r.g[k].to_bits(), "{what}: g of {name}");
            assert_eq!(s.lambda.to_bits(), r.lambda[k].to_bits(), "{what}: λ of {name}");
            assert_eq!(s.tendency.to_bits(), r.tendency[k].to_bits(), "{what}: J q̈ − d of {name}");
            assert_eq!(s.handled, r.handled[k], "{what}: handled {name}");
        }
    }
}
