//! No work lost (issue 37, deliver 5): a saved scene says the solver settings
//! in force (the algorithm, τ), not those it was opened with; Ctrl+S saves
//! outside edit mode too, or says how; quitting or loading another scene with
//! unsaved edits asks first, and "Discard" then goes on. The editor's actions
//! run through their system ([`EditActionsPlugin`]); the save dialog, which
//! needs a window, is stood in for by the `SaveAs` it sends.

use std::path::{Path, PathBuf};

use bevy::prelude::*;
use bevy::window::WindowCloseRequested;
use contact_core::Algorithm;
use contact_core::scene::Overrides;
use contact_core::scene::schema::BodySpec;
use contact_lab::app::control;
use contact_lab::app::edit::{EditAction, EditActionsPlugin, Editor, Leave, LeaveChoice, leave};
use contact_lab::app::lab::{self, Lab, LabAction, Status};
use contact_lab::app::tour::{TourAction, TourPlugin};

use crate::common::*;

/// `incline.ron` (two blocks on a slope, floor friction μ = 0.5831 and 0.2)
/// as the issue found it: a file that says `Right`, which ignores μ.
fn incline_under_right(dir: &Path) -> PathBuf {
    let text = std::fs::read_to_string(scenes_dir().join("incline.ron")).unwrap();
    assert!(text.contains("algorithm: Exact"), "incline.ron's solver block changed: update this test");
    let path = dir.join("incline-right.ron");
    std::fs::write(&path, text.replace("algorithm: Exact", "algorithm: Right")).unwrap();
    path
}

/// The headless lab running the scene of `file` (opened from it), with the
/// editor's actions and a scripted keyboard.
fn edit_app(file: &Path) -> App {
    let scene = contact_core::scene::load(file, &Overrides::default()).unwrap_or_else(|e| panic!("{e}"));
    let mut app = headless(&scene);
    app.add_plugins(EditActionsPlugin).init_resource::<ButtonInput<KeyCode>>();
    lab::install_scene(app.world_mut(), scene, Some(file.to_path_buf()));
    app.update();
    app
}

fn send(app: &mut App, action: EditAction) {
    app.world_mut().write_message(action);
    app.update();
}

/// One frame with `keys` pressed (and released after it).
fn keys(app: &mut App, keys: &[KeyCode]) {
    let mut input = app.world_mut().resource_mut::<ButtonInput<KeyCode>>();
    for &k in keys {
        input.press(k);
    }
    app.update();
    let mut input = app.world_mut().resource_mut::<ButtonInput<KeyCode>>();
    input.release_all();
    input.clear();
}

fn editor(app: &App) -> &Editor {
    app.world().resource::<Editor>()
}

fn status(app: &App) -> String {
    app.world().resource::<Status>().text.clone()
}

/// E, then an edit: a ball far from the blocks (the scene then has 3 bodies).
fn enter_and_edit(app: &mut App) {
    send(app, EditAction::Toggle);
    assert!(editor(app).on, "E enters edit mode: {}", status(app));
    assert!(!editor(app).unsaved(), "a file's scene opens in the editor with nothing unsaved");
    let mut doc = editor(app).doc.clone().expect("a document");
    doc.file.bodies.push(BodySpec::Ball {
        name: "extra".into(),
        position: (-0.3, 1.5),
        velocity: (0.0, 0.0),
        mass: 0.1,
        radius: 0.04,
        force: (0.0, 0.0),
        damping: 0.0,
    });
    send(app, EditAction::Replace(Box::new(doc)));
    app.update();
    assert!(editor(app).unsaved(), "an edit is unsaved: {}", status(app));
    assert_eq!(app.world().resource::<Lab>().world.model.bodies.len(), 3, "the edit is installed");
}

#[test]
fn save_writes_the_algorithm_and_tau_in_force_not_the_files() {
    let dir = tempfile::tempdir().unwrap();
    let file = incline_under_right(dir.path());
    let mut app = edit_app(&file);
    assert_eq!(app.world().resource::<Lab>().world.settings.algorithm, Algorithm::Right);
    // Run under Exact (key 4) with τ = 20 ms (the controls' slider).
    app.world_mut().write_message(LabAction::SetAlgorithm(Algorithm::Exact));
    app.update();
    app.world_mut().resource_mut::<Lab>().world.settings.tau = 0.02;
    app.update();
    // Edit mode shows what is in force: the inspector's "algorithm" is the toolbar's.
    send(&mut app, EditAction::Toggle);
    app.update();
    let doc = editor(&app).doc.clone().expect("a document");
    assert_eq!((doc.file.solver.algorithm, doc.file.solver.tau), (Algorithm::Exact, 0.02));
    let settings = &app.world().resource::<Lab>().world.settings;
    assert_eq!((settings.algorithm, settings.tau), (Algorithm::Exact, 0.02), "the edits run under what was in force");
    let out = dir.path().join("incline-saved.ron");
    send(&mut app, EditAction::SaveAs(out.clone()));
    assert!(status(&app).starts_with("Saved to"), "{}", status(&app));
    let back = contact_core::scene::load(&out, &Overrides::default()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(back.world.settings.algorithm, Algorithm::Exact, "the algorithm in force, not the file's Right");
    assert_eq!(back.world.settings.tau, 0.02, "τ in force");
    // The rest is the file's: the blocks and their friction.
    let original = contact_core::scene::load(&file, &Overrides::default()).unwrap();
    assert_eq!(back.world.model, original.world.model);
    assert_eq!(back.dt, original.dt);
    assert!(!editor(&app).unsaved());
}

#[test]
fn ctrl_s_outside_edit_mode_saves_the_scene_with_the_settings_in_force() {
    let dir = tempfile::tempdir().unwrap();
    let file = incline_under_right(dir.path());
    let mut app = edit_app(&file);
    app.world_mut().write_message(LabAction::SetAlgorithm(Algorithm::Exact));
    app.update();
    assert!(!editor(&app).on);
    keys(&mut app, &[KeyCode::ControlLeft, KeyCode::KeyS]);
    // The save dialog is asked for (the panels open it), on the scene's start with Exact.
    let ed = editor(&app);
    assert!(ed.save_requested, "Ctrl+S outside edit mode asks where to save: {}", status(&app));
    assert!(!ed.on, "and stays out of edit mode");
    assert_eq!(ed.doc.as_ref().map(|d| d.file.solver.algorithm), Some(Algorithm::Exact));
    assert_eq!(ed.source_file.as_deref(), Some(file.as_path()), "the dialog opens beside the scene's file");
    assert!(status(&app).contains("Exact"), "{}", status(&app));
    // What the dialog sends when a file is picked.
    app.world_mut().resource_mut::<Editor>().save_requested = false;
    let out = dir.path().join("incline-right-edited.ron");
    send(&mut app, EditAction::SaveAs(out.clone()));
    let back = contact_core::scene::load(&out, &Overrides::default()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(back.world.settings.algorithm, Algorithm::Exact);
    assert_eq!(back.world.model.bodies.len(), 2, "the scene's start as its file has it");
}

#[test]
fn ctrl_s_with_nothing_to_save_to_says_how() {
    // A scene installed with no file, and no edited document.
    let mut app = headless(&scene("wedge.ron"));
    app.add_plugins(EditActionsPlugin).init_resource::<ButtonInput<KeyCode>>();
    app.update();
    keys(&mut app, &[KeyCode::ControlRight, KeyCode::KeyS]);
    assert_eq!(status(&app), "Ctrl+S saves a scene: E edits it first");
    assert!(!editor(&app).save_requested);
}

#[test]
fn quitting_with_unsaved_edits_asks_first_and_discard_quits() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = edit_app(&incline_under_right(dir.path()));
    enter_and_edit(&mut app);
    app.world_mut().write_message(LabAction::Quit);
    app.update();
    assert_eq!(app.should_exit(), None, "Ctrl+Q with unsaved edits does not quit at once");
    assert_eq!(editor(&app).leaving, Some(Leave::Quit), "it asks");
    assert!(status(&app).starts_with("Unsaved edits in"), "{}", status(&app));
    // Cancel: nothing happens, the edits stay.
    send(&mut app, EditAction::Answer(LeaveChoice::Cancel));
    app.update();
    assert_eq!(app.should_exit(), None);
    assert_eq!(editor(&app).leaving, None);
    assert!(editor(&app).unsaved() && editor(&app).on);
    // Asked again, Discard quits.
    app.world_mut().write_message(LabAction::Quit);
    app.update();
    assert_eq!(editor(&app).leaving, Some(Leave::Quit));
    send(&mut app, EditAction::Answer(LeaveChoice::Discard));
    app.update();
    assert_eq!(app.should_exit(), Some(AppExit::Success), "Discard quits: {}", status(&app));
}

#[test]
fn a_second_ctrl_q_while_asked_quits() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = edit_app(&incline_under_right(dir.path()));
    enter_and_edit(&mut app);
    keys(&mut app, &[KeyCode::ControlLeft, KeyCode::KeyQ]);
    app.update();
    assert_eq!(app.should_exit(), None);
    assert_eq!(editor(&app).leaving, Some(Leave::Quit));
    keys(&mut app, &[KeyCode::ControlLeft, KeyCode::KeyQ]);
    app.update();
    assert_eq!(app.should_exit(), Some(AppExit::Success));
}

#[test]
fn the_window_close_button_asks_as_ctrl_q_does() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = edit_app(&incline_under_right(dir.path()));
    // What `app::run` adds (the window plugin's `close_when_requested` is off).
    app.add_message::<WindowCloseRequested>()
        .add_systems(Update, leave::close_requested.before(control::apply_actions));
    enter_and_edit(&mut app);
    let close = |app: &mut App| {
        app.world_mut().write_message(WindowCloseRequested { window: Entity::PLACEHOLDER });
        app.update();
        app.update();
    };
    close(&mut app);
    assert_eq!(app.should_exit(), None, "the close button with unsaved edits does not quit at once");
    assert_eq!(editor(&app).leaving, Some(Leave::Quit));
    close(&mut app);
    assert_eq!(app.should_exit(), Some(AppExit::Success), "a second click quits");
}

#[test]
fn saving_when_asked_saves_then_quits() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = edit_app(&incline_under_right(dir.path()));
    enter_and_edit(&mut app);
    app.world_mut().write_message(LabAction::Quit);
    app.update();
    send(&mut app, EditAction::Answer(LeaveChoice::Save));
    assert!(editor(&app).save_requested, "Save… opens the save dialog");
    assert_eq!(app.should_exit(), None, "nothing is dropped before the file is written");
    let out = dir.path().join("with-extra.ron");
    send(&mut app, EditAction::SaveAs(out.clone()));
    app.update();
    let back = contact_core::scene::load(&out, &Overrides::default()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(back.world.model.bodies.len(), 3, "the edit is in the file");
    assert_eq!(app.should_exit(), Some(AppExit::Success), "then it quits: {}", status(&app));
}

#[test]
fn a_tour_step_or_a_new_scene_waits_for_the_answer_and_reset_all_keeps_the_edits() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = edit_app(&incline_under_right(dir.path()));
    let tour = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets").join("tours").join("paper.ron");
    app.add_plugins(TourPlugin { path: tour, start: None });
    app.update();
    enter_and_edit(&mut app);
    let bodies = |app: &App| app.world().resource::<Lab>().world.model.bodies.len();
    // Shift+R installs the scene running, which is the edited one: nothing is lost, nothing asked.
    app.world_mut().write_message(LabAction::ResetAll);
    app.update();
    assert_eq!(editor(&app).leaving, None);
    assert!(editor(&app).unsaved(), "the edits stay in the editor");
    assert_eq!(bodies(&app), 3, "reset all reinstalls the edited scene");
    // A new scene asks; Cancel keeps the document.
    send(&mut app, EditAction::New { floor: true });
    assert_eq!(editor(&app).leaving, Some(Leave::New { floor: true }));
    assert_eq!(bodies(&app), 3);
    send(&mut app, EditAction::Answer(LeaveChoice::Cancel));
    assert!(editor(&app).unsaved());
    // A tour step asks; the edited scene keeps running until Discard.
    app.world_mut().write_message(TourAction::Go(0));
    app.update();
    app.update();
    assert_eq!(editor(&app).leaving, Some(Leave::Tour(0)));
    assert_eq!(bodies(&app), 3, "the step waits for the answer");
    send(&mut app, EditAction::Answer(LeaveChoice::Discard));
    app.update();
    app.update();
    let step = contact_core::scene::tour::load(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("assets").join("tours").join("paper.ron"),
    )
    .unwrap()
    .steps[0]
        .scene
        .clone();
    let running = app.world().resource::<Lab>().scene.path.clone();
    assert_eq!(running, Some(std::path::absolute(&step).unwrap()), "Discard goes to the step");
    assert!(!editor(&app).on && !editor(&app).unsaved());
    // Nothing unsaved now: New goes ahead at once.
    send(&mut app, EditAction::New { floor: false });
    assert_eq!(editor(&app).leaving, None);
    assert!(editor(&app).on);
}
