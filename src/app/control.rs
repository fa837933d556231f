//! The one dispatcher of the top layer: the clock a presenter drives —
//! play/pause, single steps, reset, the algorithm — from the keyboard and the
//! panels alike (both send [`LabAction`]s), and the actions that reach into a
//! feature (a timeline restore, a screenshot, fitting the view).
//!
//! | key   | action                                 |
//! |-------|----------------------------------------|
//! | Space | play / pause                           |
//! | →     | one step (pauses)                      |
//! | ←     | back one stored step (timeline)        |
//! | R     | reset to the scene's start, paused (keeps the algorithm, the speed, dragged forces) |
//! | Shift+R | reset all: the scene as its file has it |
//! | 1–4   | Platt, Platt improved, Right, Exact    |
//! | F     | fit the view to the scene              |
//! | T     | the guided tour ([`super::tour`])      |
//! | C     | compare mode ([`super::compare`])      |
//! | K     | the cue ([`super::cue`])               |
//! | F5    | presenter mode ([`super::ui::presenter`]) |
//! | E     | edit mode ([`super::edit`])            |
//! | V     | record a clip ([`super::clip`])        |
//! | F12   | screenshot                             |
//! | Ctrl+S | save the scene, with the settings in force ([`super::edit`]) |
//! | Ctrl+Q | quit (with unsaved edits: asks first; Ctrl+Q again quits) |
//!
//! (T, C, K, E, V and Ctrl+S are read by their features, F5 by the panels;
//! the window's close button quits as Ctrl+Q does.)
//!
//! A pause is `Time<Virtual>::pause`, so the fixed schedule stops with it; a single
//! step runs the [`FixedUpdate`] schedule once by hand.

use bevy::prelude::*;

use super::lab::{
    InputClaims, Lab, LabAction, StateJumped, Status, StepInFlight, ViewTransform, algorithm_for_digit, install_scene,
    open_clock, opening_text, state_jumped,
};
use super::screenshot::ScreenshotRequests;
use super::timeline::{self, Timeline};
use contact_core::scene::Opening;
use contact_core::{Algorithm, Scheme};

pub struct ControlPlugin;

impl Plugin for ControlPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(Update, (keyboard, apply_actions).chain());
    }
}

fn keyboard(
    keys: Option<Res<ButtonInput<KeyCode>>>,
    claims: Option<Res<InputClaims>>,
    mut actions: MessageWriter<LabAction>,
) {
    // Headless (tests): no keyboard; egui typing in a field keeps the keys.
    let Some(keys) = keys else { return };
    if claims.is_some_and(|c| c.keyboard) {
        return;
    }
    let pressed = |k| keys.just_pressed(k);
    if pressed(KeyCode::Space) {
        actions.write(LabAction::TogglePause);
    }
    if pressed(KeyCode::ArrowRight) {
        actions.write(LabAction::StepOnce);
    }
    if pressed(KeyCode::ArrowLeft) {
        actions.write(LabAction::StepBack);
    }
    if pressed(KeyCode::KeyR) {
        let shift = keys.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]);
        actions.write(if shift { LabAction::ResetAll } else { LabAction::Reset });
    }
    if pressed(KeyCode::KeyF) {
        actions.write(LabAction::FitView);
    }
    // A scripted Ctrl+Q may press and release both keys within one frame.
    let ctrls = [KeyCode::ControlLeft, KeyCode::ControlRight];
    let ctrl = keys.any_pressed(ctrls) || keys.any_just_released(ctrls);
    if ctrl && pressed(KeyCode::KeyQ) {
        actions.write(LabAction::Quit);
    }
    if pressed(KeyCode::F12) {
        actions.write(LabAction::Screenshot);
    }
    for (i, k) in [KeyCode::Digit1, KeyCode::Digit2, KeyCode::Digit3, KeyCode::Digit4].into_iter().enumerate() {
        if pressed(k)
            && let Some(a) = algorithm_for_digit(i + 1)
        {
            actions.write(LabAction::SetAlgorithm(a));
        }
    }
}

/// Applies the actions of this frame (exclusive: a single step runs a schedule).
pub fn apply_actions(world: &mut World) {
    let actions: Vec<LabAction> = world.resource_mut::<Messages<LabAction>>().drain().collect();
    for action in actions {
        let now = world.resource::<Time<Real>>().elapsed_secs_f64();
        match action {
            LabAction::TogglePause => {
                let mut virt = world.resource_mut::<Time<Virtual>>();
                if virt.is_paused() { virt.unpause() } else { virt.pause() }
            }
            LabAction::SetPaused(p) => {
                let mut virt = world.resource_mut::<Time<Virtual>>();
                if p { virt.pause() } else { virt.unpause() }
            }
            LabAction::StepOnce => {
                world.resource_mut::<Time<Virtual>>().pause();
                if world.resource::<StepInFlight>().in_flight() {
                    world.resource_mut::<Status>().say(now, "A step is in flight: it shows as soon as it is done");
                } else if world.contains_resource::<Lab>() {
                    world.run_schedule(FixedUpdate);
                }
            }
            LabAction::Reset => {
                if let Some(mut lab) = world.get_resource_mut::<Lab>() {
                    let initial = lab.initial.clone();
                    lab.world.restore(&initial);
                    lab.report = None;
                    // Back to t = 0 *paused*, whatever the opening: the
                    // algorithm (or anything) chosen next applies from the
                    // first step, and Space plays the opening (its speed, up
                    // to its pause). A tour step says "R, then 3 and Space".
                    let opening = Opening { paused: true, ..lab.scene.opening };
                    let kept = kept_on_reset(&lab);
                    open_clock(world, &opening, false);
                    state_jumped(world, StateJumped { new_scene: false, reset: true });
                    world.resource_mut::<ViewTransform>().fit_pending = true;
                    let plays = opening_text(&opening).replace("Paused at t = 0: ", "");
                    world.resource_mut::<Status>().say_while_paused(
                        now,
                        format!("Reset to t = 0, paused ({plays}); kept {kept} (Shift+R resets all)"),
                    );
                }
            }
            LabAction::ResetAll => {
                if let Some(lab) = world.get_resource::<Lab>() {
                    let scene = lab.source.clone();
                    let path = lab.scene.path.clone();
                    install_scene(world, *scene, path);
                    world.resource_mut::<Status>().say(now, "Reset all: the scene as its file has it");
                }
            }
            LabAction::SetAlgorithm(a) => {
                let Some(mut lab) = world.get_resource_mut::<Lab>() else { continue };
                // Time-stepping solves a velocity problem: the paper's
                // algorithms choose F⁺ at the acceleration level.
                if lab.world.settings.scheme == Scheme::TimeStepping && a != Algorithm::Exact {
                    world.resource_mut::<Status>().say(
                        now,
                        format!(
                            "{} works at the acceleration level, time-stepping at the velocity level: switch the \
                             scheme to event-driven first (Algorithm panel)",
                            a.label()
                        ),
                    );
                } else if lab.world.settings.algorithm != a {
                    lab.world.settings.algorithm = a;
                    world.resource_mut::<Status>().say(now, format!("Algorithm: {} (from the next step)", a.label()));
                }
            }
            LabAction::SetScheme(scheme) => {
                let Some(mut lab) = world.get_resource_mut::<Lab>() else { continue };
                if lab.world.settings.scheme != scheme {
                    lab.world.settings.scheme = scheme;
                    if scheme == Scheme::TimeStepping {
                        lab.world.settings.algorithm = Algorithm::Exact;
                    }
                    let what = match scheme {
                        Scheme::EventDriven => {
                            "event-driven: a rewind to every first activation, the paper's algorithms"
                        }
                        Scheme::TimeStepping => "time-stepping (Moreau–Jean): one velocity problem a step, under Exact",
                    };
                    world.resource_mut::<Status>().say(now, format!("Scheme: {what} (from the next step)"));
                }
            }
            LabAction::SetContacts { mu, rolling } => {
                let Some(mut lab) = world.get_resource_mut::<Lab>() else { continue };
                let Some(current) = lab.world.model.contact_coefficients() else { continue };
                let every = current.every(mu, rolling);
                if every != current {
                    lab.world.model.set_contact_coefficients(&every);
                    let scheme = lab.world.settings.scheme;
                    let rolls = mu > 0.0 && rolling > 0.0;
                    let note = if rolls && scheme == Scheme::EventDriven {
                        "; rolling resistance needs time-stepping (Algorithm panel)"
                    } else {
                        ""
                    };
                    world
                        .resource_mut::<Status>()
                        .say(now, format!("Every contact: μ = {mu:.3}, μ_r = {rolling:.3} (from the next step){note}"));
                }
            }
            LabAction::Restore(i) => {
                timeline::restore(world, i);
            }
            LabAction::StepBack => {
                let current = world.get_resource::<Timeline>().and_then(|t| t.current());
                if let Some(i) = current.and_then(|c| c.checked_sub(1)) {
                    timeline::restore(world, i);
                }
            }
            LabAction::Quit => {
                // Unsaved edits: asked first (a second Ctrl+Q quits).
                if !super::edit::leave::ask_before(world, super::edit::Leave::Quit, now) {
                    world.write_message(AppExit::Success);
                }
            }
            LabAction::FitView => {
                if let Some(mut view) = world.get_resource_mut::<ViewTransform>() {
                    view.fit_pending = true;
                }
            }
            LabAction::Screenshot => {
                if let Some(mut req) = world.get_resource_mut::<ScreenshotRequests>() {
                    req.pending.push(None);
                }
            }
        }
    }
}

/// What a reset keeps that may differ from the file: the algorithm, and each
/// force the user dragged away from the file's value.
fn kept_on_reset(lab: &Lab) -> String {
    let mut kept = vec![format!("the algorithm ({})", lab.world.settings.algorithm.label())];
    let contacts = lab.world.model.contact_coefficients();
    if let Some(c) = contacts.as_ref().filter(|c| Some(*c) != lab.source.world.model.contact_coefficients().as_ref()) {
        kept.push(format!("every contact's μ = {:.3}, μ_r = {:.3}", c.pair.0, c.pair.1));
    }
    for (b, src) in lab.world.model.bodies.iter().zip(&lab.source.world.model.bodies) {
        if b.force != src.force {
            kept.push(format!("the force on {} ({:.3}, {:.3}) N", b.name, b.force.x, b.force.y));
        }
    }
    kept.join(", ")
}
