//! Scene files through Bevy's asset system: opening one installs it; a broken
//! file (opened, or saved over the running one) shows its error while the
//! previous scene keeps running; fixing the file reloads it.

use std::path::Path;
use std::time::{Duration, Instant};

use bevy::asset::AssetPlugin;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use contact_core::scene::Overrides;
use contact_lab::app::control::ControlPlugin;
use contact_lab::app::history::HistoryPlugin;
use contact_lab::app::lab::{self, Lab, LabPlugin};
use contact_lab::app::physics::PhysicsPlugin;
use contact_lab::app::scene::{self as lab_scene, OpenScene, SceneFiles, ScenePlugin};
use contact_lab::app::timeline::TimelinePlugin;

use crate::common::*;

fn app_with_assets(dir: &Path, first: &Path) -> App {
    let mut app = App::new();
    lab_scene::register_sources(&mut app);
    app.add_plugins(MinimalPlugins)
        .add_plugins(AssetPlugin {
            file_path: dir.display().to_string(),
            watch_for_changes_override: Some(true),
            ..default()
        })
        .add_plugins((
            LabPlugin,
            PhysicsPlugin,
            ControlPlugin,
            HistoryPlugin,
            TimelinePlugin,
            ScenePlugin { assets: dir.to_path_buf(), overrides: Overrides::default() },
        ));
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(1)));
    let mut scene = contact_core::scene::load(first, &Overrides::default()).unwrap();
    // Playing from the first update (the wedge opens paused at t = 0).
    scene.opening = contact_core::scene::Opening::default();
    lab::install_scene(app.world_mut(), scene, Some(first.to_path_buf()));
    app
}

/// Updates (in real time, the loader and the watcher are threads) until `done`.
fn update_until(app: &mut App, what: &str, mut done: impl FnMut(&mut App) -> bool) {
    let start = Instant::now();
    while !done(app) {
        assert!(start.elapsed() < Duration::from_secs(20), "timed out waiting for {what}");
        app.update();
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn name(app: &App) -> String {
    app.world().resource::<Lab>().scene.name.clone()
}

fn error(app: &App) -> Option<String> {
    app.world().resource::<SceneFiles>().error.clone()
}

#[test]
fn broken_files_show_their_error_and_the_scene_keeps_running() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = std::fs::canonicalize(tmp.path()).unwrap();
    std::fs::create_dir(dir.join("scenes")).unwrap();
    let wedge_text = std::fs::read_to_string(scenes_dir().join("wedge.ron")).unwrap();
    let running = dir.join("scenes").join("lab.ron");
    std::fs::write(&running, &wedge_text).unwrap();
    std::fs::copy(scenes_dir().join("billiard-corner.ron"), dir.join("scenes").join("billiard.ron")).unwrap();
    // A file outside assets/, broken: a negative mass.
    let outside = tempfile::tempdir().unwrap();
    let broken = outside.path().join("broken.ron");
    std::fs::write(&broken, wedge_text.replace("mass: 2", "mass: -2")).unwrap();

    let mut app = app_with_assets(&dir, &running);
    // The running file's asset arrives (and is not installed twice).
    update_until(&mut app, "the first asset", |app| {
        let files = app.world().resource::<SceneFiles>();
        let assets = app.world().resource::<Assets<lab_scene::SceneAsset>>();
        files.handle.as_ref().is_some_and(|h| assets.contains(h.id()))
    });
    assert_eq!(name(&app), "Wedge");
    let generation = app.world().resource::<Lab>().generation;

    // Opening a broken file: its error, with file, line and field; the wedge runs on.
    app.world_mut().write_message(OpenScene(broken.clone()));
    update_until(&mut app, "the error of broken.ron", |app| error(app).is_some());
    let err = error(&app).unwrap();
    assert!(err.contains("broken.ron:") && err.contains("mass"), "the error names the file and the field: {err}");
    assert_eq!(name(&app), "Wedge");
    assert_eq!(app.world().resource::<Lab>().generation, generation, "the previous scene was not replaced");
    let before = steps(&app);
    for _ in 0..20 {
        app.update();
    }
    assert!(steps(&app) > before, "the previous scene keeps running");

    // Opening a good one installs it.
    app.world_mut().write_message(OpenScene(dir.join("scenes").join("billiard.ron")));
    update_until(&mut app, "the billiard", |app| name(app) == "Billiard corner");
    assert!(error(&app).is_none());

    // Back to lab.ron, then hot reload: saving a broken version shows the error…
    app.world_mut().write_message(OpenScene(running.clone()));
    update_until(&mut app, "lab.ron", |app| name(app) == "Wedge");
    std::thread::sleep(Duration::from_millis(400));
    std::fs::write(&running, wedge_text.replace("bodies: [", "bodies: [ oops")).unwrap();
    update_until(&mut app, "the watcher to see the broken save", |app| error(app).is_some());
    let err = error(&app).unwrap();
    assert!(err.contains("lab.ron:"), "{err}");
    assert_eq!(name(&app), "Wedge");
    // …and saving a fixed version reloads it.
    std::fs::write(&running, wedge_text.replace("name: \"Wedge\"", "name: \"Wedge, edited\"")).unwrap();
    update_until(&mut app, "the reload of the fixed file", |app| name(app) == "Wedge, edited");
    assert!(error(&app).is_none());
}
