//! The cue shot, driven through its system with a scripted mouse: the velocity
//! its arrow shows is the one the ball gets, the shot is an input of the log
//! like any other (the core's replay ends on the same bits), and the billiard
//! corner opens with the tool armed.

use bevy::math::DVec2;
use bevy::prelude::*;
use contact_core::Input;
use contact_core::scene::Scene;
use contact_lab::app::cue::{self, CueAim, CueTool, MAX_SHOT_SPEED, shot_velocity};
use contact_lab::app::inputs::{Inputs, InputsPlugin};
use contact_lab::app::lab::{InstallScene, Lab, LabAction, Pointer, Status};

use crate::common::*;

/// The headless lab with the input log and the cue's systems, the mouse and
/// keyboard scripted by the test.
fn cue_app(scene: &Scene) -> App {
    let mut app = headless(scene);
    app.add_plugins(InputsPlugin)
        .init_resource::<ButtonInput<MouseButton>>()
        .init_resource::<ButtonInput<KeyCode>>()
        .init_resource::<CueTool>()
        .init_resource::<CueAim>()
        .add_systems(Update, (cue::arm_on_new_scene, cue::aim).chain());
    app
}

/// The cursor over the world point `w`.
fn point_at(app: &mut App, w: DVec2) {
    *app.world_mut().resource_mut::<Pointer>() = Pointer { screen: Some(Vec2::ZERO), world: Some(w), in_view: true };
}

/// One frame with the buttons and keys changed by `f` (a press or release lasts one frame).
fn frame(app: &mut App, f: impl FnOnce(&mut ButtonInput<MouseButton>, &mut ButtonInput<KeyCode>)) {
    let world = app.world_mut();
    world.resource_scope(|world, mut buttons: Mut<ButtonInput<MouseButton>>| {
        f(&mut buttons, &mut world.resource_mut::<ButtonInput<KeyCode>>());
    });
    app.update();
    app.world_mut().resource_mut::<ButtonInput<MouseButton>>().clear();
    app.world_mut().resource_mut::<ButtonInput<KeyCode>>().clear();
}

fn body(app: &App, name: &str) -> usize {
    app.world().resource::<Lab>().body_names.iter().position(|n| n == name).expect("a body of the scene")
}

fn aim(app: &App) -> Option<cue::Aim> {
    app.world().resource::<CueAim>().aim
}

fn status(app: &App) -> String {
    app.world().resource::<Status>().text.clone()
}

/// Press on the ball, pull back to `ball + pull`, and return the arrow shown.
fn pull(app: &mut App, b: usize, pull: DVec2) -> DVec2 {
    let ball = app.world().resource::<Lab>().position(b);
    point_at(app, ball);
    frame(app, |m, _| m.press(MouseButton::Left));
    assert_eq!(aim(app).map(|a| a.body), Some(b), "a press on the ball aims");
    point_at(app, ball + pull);
    frame(app, |_, _| {});
    let (shown_body, v) = app.world().resource::<CueAim>().shown().expect("an arrow while aiming");
    assert_eq!(shown_body, b);
    v
}

#[test]
fn the_shot_is_k_times_the_pull_up_to_the_max_speed() {
    let v = shot_velocity(DVec2::new(1.0, 0.5), DVec2::new(1.1, 0.45));
    assert!((v - DVec2::new(-0.4, 0.2)).length() < 1e-12, "{v:?}");
    let v = shot_velocity(DVec2::ZERO, DVec2::new(3.0, 4.0));
    assert!((v - DVec2::new(-0.6, -0.8) * MAX_SHOT_SPEED).length() < 1e-12, "clamped: {v:?}");
}

#[test]
fn the_cue_shot_sets_the_velocity_it_shows() {
    let scene = scene("billiard-corner.ron");
    let mut app = cue_app(&scene);
    app.world_mut().write_message(LabAction::SetPaused(true));
    app.update();
    assert!(app.world().resource::<CueTool>().armed, "the billiard corner opens ready to shoot");
    let b = body(&app, "cue");
    let q0 = bodies(&mut app)[b].0.q;

    // Paused: the shot is set at once and waits for the next step, its arrow on screen.
    let shown = pull(&mut app, b, DVec2::new(0.15, -0.05));
    let ball = app.world().resource::<Lab>().position(b);
    assert_eq!(shown, shot_velocity(ball, ball + DVec2::new(0.15, -0.05)));
    let at = steps(&app);
    frame(&mut app, |m, _| m.release(MouseButton::Left));
    assert_eq!(steps(&app), at, "paused");
    let coords = bodies(&mut app)[b].0;
    assert_eq!(coords.qd(), [shown.x, shown.y], "the ball has the velocity the arrow showed");
    assert_eq!(coords.q, q0, "a shot keeps the position");
    assert_eq!(app.world().resource::<CueAim>().shown(), Some((b, shown)), "the arrow stays until the step");
    assert!(status(&app).starts_with("cue shot: cue at (-0.600, 0.200) m/s"), "{}", status(&app));

    // The step plays it: the log says so, and the only force on the cue ball is the cloth.
    app.world_mut().write_message(LabAction::StepOnce);
    app.update();
    assert_eq!(steps(&app), at + 1);
    let log = &app.world().resource::<Inputs>().log;
    assert!(log.entries.contains(&(at, Input::Velocity { body: b, qd: vec![shown.x, shown.y] })), "{:?}", log.entries);
    let lab = app.world().resource::<Lab>();
    let v = lab.world.model.velocity(b, &lab.world.state);
    let damped = shown * (1.0 - scene.dt * lab.world.model.bodies[b].damping);
    assert!((DVec2::new(v.x, v.y) - damped).length() < 1e-12, "{v:?} after one step, {damped:?} expected");
    app.update();
    assert_eq!(app.world().resource::<CueAim>().shown(), None, "played");

    // A second shot while running, then the core alone replays the session.
    app.world_mut().write_message(LabAction::SetPaused(false));
    run_until(&mut app, 200, |_, _| {});
    let b10 = body(&app, "b10");
    let shown = pull(&mut app, b10, DVec2::new(0.1, 0.1));
    frame(&mut app, |m, _| m.release(MouseButton::Left));
    assert!((shown - DVec2::new(-0.4, -0.4)).length() < 1e-12, "{shown:?}");
    run_until(&mut app, 600, |_, _| {});
    let log = app.world().resource::<Inputs>().log.clone();
    assert!(log.entries.iter().any(|(_, i)| *i == Input::Velocity { body: b10, qd: vec![shown.x, shown.y] }));
    let lab = app.world().resource::<Lab>();
    let mut world = scene.world.clone();
    log.replay(&mut world, scene.dt, lab.world.steps, |_, _| {});
    assert_eq!(world.state_hash(), lab.world.state_hash(), "the replay ends on the app's state");
}

#[test]
fn shift_aims_and_escape_right_click_or_a_release_on_the_ball_cancel() {
    let scene = scene("billiard-corner.ron");
    let mut app = cue_app(&scene);
    app.world_mut().write_message(LabAction::SetPaused(true));
    app.update();
    app.world_mut().resource_mut::<CueTool>().armed = false;
    let b = body(&app, "cue");
    let qd0 = bodies(&mut app)[b].0.qd;
    let ball = app.world().resource::<Lab>().position(b);

    // Disarmed, a press on the ball is the spring's (the drag plugin's), not the cue's.
    point_at(&mut app, ball);
    frame(&mut app, |m, _| m.press(MouseButton::Left));
    assert_eq!(aim(&app), None);
    frame(&mut app, |m, _| m.release(MouseButton::Left));

    // Shift held: aims; Escape cancels.
    frame(&mut app, |_, k| k.press(KeyCode::ShiftLeft));
    pull(&mut app, b, DVec2::new(0.2, 0.0));
    frame(&mut app, |_, k| k.press(KeyCode::Escape));
    assert_eq!(aim(&app), None, "Escape cancels");
    frame(&mut app, |m, _| m.release(MouseButton::Left));
    assert_eq!(bodies(&mut app)[b].0.qd, qd0, "no shot");

    // The right button cancels.
    pull(&mut app, b, DVec2::new(0.2, 0.0));
    frame(&mut app, |m, _| m.press(MouseButton::Right));
    assert_eq!(aim(&app), None, "the right button cancels");
    frame(&mut app, |m, _| m.release_all());
    assert_eq!(bodies(&mut app)[b].0.qd, qd0, "no shot");

    // Released on the ball itself: no shot.
    point_at(&mut app, ball);
    frame(&mut app, |m, _| m.press(MouseButton::Left));
    point_at(&mut app, ball + DVec2::new(0.01, 0.0));
    frame(&mut app, |_, _| {});
    assert_eq!(app.world().resource::<CueAim>().shown(), None, "no arrow on the ball");
    frame(&mut app, |m, _| m.release(MouseButton::Left));
    assert_eq!(bodies(&mut app)[b].0.qd, qd0, "no shot");
    assert!(status(&app).starts_with("no shot"), "{}", status(&app));
}

#[test]
fn the_scene_file_arms_the_tool_and_k_toggles_it() {
    assert!(scene("billiard-corner.ron").cue);
    let wedge = scene("wedge.ron");
    assert!(!wedge.cue);
    let mut app = cue_app(&wedge);
    app.update();
    assert!(!app.world().resource::<CueTool>().armed);
    frame(&mut app, |_, k| k.press(KeyCode::KeyK));
    assert!(app.world().resource::<CueTool>().armed, "K arms");
    frame(&mut app, |_, k| k.release(KeyCode::KeyK));
    frame(&mut app, |_, k| k.press(KeyCode::KeyK));
    assert!(!app.world().resource::<CueTool>().armed, "K disarms");
    app.world_mut().write_message(InstallScene {
        scene: Box::new(scene("billiard-corner.ron")),
        path: None,
        keep_algorithm: false,
        open: true,
    });
    app.update();
    assert!(app.world().resource::<CueTool>().armed, "opening the billiard arms it");
}

/// The cue belongs to its scene (issue 37): armed in the billiard, it is put
/// away when the ladder opens, where a drag pulls a spring; an edit of the
/// billiard (installed, not opened) keeps what K chose; and a tour step
/// that says "drag a ball" opens the billiard with it away.
#[test]
fn the_cue_is_put_away_when_a_scene_without_it_opens() {
    let install = |app: &mut App, s: Scene, open: bool| {
        app.world_mut().write_message(InstallScene { scene: Box::new(s), path: None, keep_algorithm: false, open });
        app.update();
    };
    let mut app = cue_app(&scene("wedge.ron"));
    app.update();
    install(&mut app, scene("billiard-corner.ron"), true);
    assert!(app.world().resource::<CueTool>().armed);
    install(&mut app, scene("ladder.ron"), true);
    assert!(!app.world().resource::<CueTool>().armed, "the ladder opens with the cue away");
    install(&mut app, scene("billiard-corner.ron"), true);
    frame(&mut app, |_, k| k.press(KeyCode::KeyK));
    assert!(!app.world().resource::<CueTool>().armed, "K put it away");
    install(&mut app, scene("billiard-corner.ron"), false);
    assert!(!app.world().resource::<CueTool>().armed, "an edit keeps K's choice");
    let tour = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/tours/paper.ron");
    let tour = contact_core::scene::tour::load(&tour).unwrap();
    let step = tour.steps.iter().find(|s| s.look.iter().any(|l| l.starts_with("Drag a ball"))).expect("step 7");
    let billiard = step.load().unwrap();
    assert!(!billiard.cue && step.scene.ends_with("billiard-corner.ron"), "{}", step.title);
    install(&mut app, billiard, true);
    assert!(!app.world().resource::<CueTool>().armed, "{}: a drag pulls a spring", step.title);
}

/// The billiard opens with the scene's own shot shown as a ready arrow (the
/// cue ball's 2 m/s of the file), until a step is taken or the user aims.
#[test]
fn the_scenes_own_shot_is_shown_until_the_break() {
    let lab = Lab::new(scene("billiard-corner.ron"), None);
    let (armed, off) = (CueTool { armed: true }, CueTool { armed: false });
    let cue_ball = lab.world.model.body_index("cue").expect("the cue ball");
    assert_eq!(cue::file_shot(&lab, &armed, &CueAim::default()), Some((cue_ball, DVec2::new(-2.0, 0.0))));
    assert_eq!(cue::file_shot(&lab, &off, &CueAim::default()), None, "the tool disarmed: no arrow");
    let pending = CueAim { aim: None, pending: Some(cue::Shot { body: cue_ball, velocity: DVec2::X, steps: 0 }) };
    assert_eq!(cue::file_shot(&lab, &armed, &pending), None, "the user's shot replaces it");
    let mut lab = lab;
    lab.world.step(1e-3);
    assert_eq!(cue::file_shot(&lab, &armed, &CueAim::default()), None, "after the break");
}
