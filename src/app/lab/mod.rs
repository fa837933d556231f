//! The lab's shared vocabulary: the bottom layer of the app, which every
//! feature and panel imports and which imports none of them (like
//! `bevy_picking`'s core plugin, or rerun's `re_viewer_context`).
//!
//! | module         | what it holds                                                        |
//! |----------------|----------------------------------------------------------------------|
//! | [`world`]      | [`Lab`] (the core's world and the scene it came from), [`StepSettings`], [`PauseAt`] |
//! | [`clock`]      | the clock a scene opens with: [`open_clock`], the automatic pause     |
//! | [`components`] | body and constraint entities: [`Coords`], [`PointMotion`], [`ConstraintStatus`] |
//! | [`messages`]   | [`LabAction`], [`InstallScene`], [`StateJumped`], [`Restored`], [`Status`] |
//! | [`sets`]       | [`PhysicsSet`], [`InstallSceneSet`], [`FrameSet`]                     |
//! | [`frame`]      | what a frame shares: [`ViewTransform`], [`Pointer`], [`InputClaims`], [`Interpolation`], [`Highlight`], [`SceneLook`], [`DrawOptions`], [`Drags`] |
//! | [`sync`]       | installing a scene, rows that come and go, [`state_jumped`]           |
//! | [`worker`]     | [`StepInFlight`]: a step on worker threads, [`StepPhase`]            |
//! | [`series`]     | what a series name reads from a step                                 |
//! | [`geometry`]   | where constraints touch, the forces they apply, walls                |
//! | [`gizmo`](mod@gizmo) | arrows and dashes in world units                                     |
//! | [`names`]      | [`names::seen_name`]: a constraint named by what a person sees       |
//! | [`palette`]    | colours                                                              |
//! | [`format`](mod@format) | numbers as the panels show them                                      |
//! | [`output`]     | [`OutputDir`]: the folder for screenshots and clips                  |
//!
//! [`LabPlugin`] registers all of it, so a feature plugin (or a headless test)
//! finds the shared resources, messages and sets in place.

pub mod clock;
pub mod components;
pub mod format;
pub mod frame;
pub mod geometry;
pub mod gizmo;
pub mod messages;
pub mod names;
pub mod output;
pub mod palette;
pub mod series;
pub mod sets;
pub mod sync;
pub mod worker;
pub mod world;

use bevy::prelude::*;

pub use clock::{open_clock, opening_text};
pub use components::{
    ConstraintState, ConstraintStatus, Coords, Coulomb, LabBody, LabConstraint, PointMotion, SceneEntity, coords_of,
};
pub use format::{FORCE_ROUND_OFF, force, num};
pub use frame::{
    Drags, DrawOptions, Grab, Highlight, InputClaims, Interpolation, OnScreen, Pointer, SceneLook, Spring,
    ViewTransform,
};
pub use messages::{InstallScene, LabAction, OpenScene, Opened, Restored, StateJumped, Status, TourAction};
pub use output::{OutputDir, name_of};
pub use sets::{FrameSet, InstallSceneSet, PhysicsSet};
pub use sync::{install_scene, state_jumped, sync_constraint_rows};
pub use worker::{StepInFlight, StepPhase};
pub use world::{
    Lab, PauseAt, SceneInfo, StepSettings, algorithm_for_digit, geometry_label, is_ball, is_dynamic, is_round,
};

/// The shared resources, messages and sets, and what keeps them current: scene
/// installs ([`InstallSceneSet`]), the interpolation fraction, the scene's look
/// and the tool claim ([`FrameSet::Prepare`]).
pub struct LabPlugin;

impl Plugin for LabPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<StepSettings>()
            .init_resource::<PauseAt>()
            .init_resource::<Status>()
            .init_resource::<OutputDir>()
            .init_resource::<ViewTransform>()
            .init_resource::<Pointer>()
            .init_resource::<InputClaims>()
            .init_resource::<Interpolation>()
            .init_resource::<Highlight>()
            .init_resource::<SceneLook>()
            .init_resource::<DrawOptions>()
            .init_resource::<Drags>()
            .init_resource::<OnScreen>()
            .init_resource::<StepInFlight>()
            .add_message::<LabAction>()
            .add_message::<InstallScene>()
            .add_message::<StateJumped>()
            .add_message::<Opened>()
            .configure_sets(FixedUpdate, PhysicsSet::all().chain())
            .configure_sets(
                Update,
                (FrameSet::Prepare, FrameSet::Tools, FrameSet::Mouse, FrameSet::Draw, FrameSet::Overlay).chain(),
            )
            .add_systems(PreUpdate, sync::install_scenes.in_set(InstallSceneSet))
            .add_systems(FixedUpdate, clock::pause_at_time.after(PhysicsSet::Record))
            .add_systems(
                Update,
                (interpolation, refresh_look, release_tool_claim, messages::forget_paused_text)
                    .in_set(FrameSet::Prepare),
            );
    }
}

/// The fraction of a fixed step the virtual clock has run past the last one (1 when paused).
/// Steps on a worker come as they finish: those are shown as they are (1).
fn interpolation(
    fixed: Res<Time<Fixed>>,
    virt: Res<Time<Virtual>>,
    in_flight: Res<StepInFlight>,
    mut interp: ResMut<Interpolation>,
) {
    interp.alpha =
        if virt.is_paused() || in_flight.off_thread { 1.0 } else { fixed.overstep_fraction_f64().clamp(0.0, 1.0) };
}

/// A new scene, a new look (walls, force scale).
fn refresh_look(lab: Option<Res<Lab>>, mut look: ResMut<SceneLook>) {
    let Some(lab) = lab else { return };
    if look.generation != Some(lab.generation) {
        *look = SceneLook::of(&lab);
    }
}

/// Each frame starts with no tool holding the pointer.
pub fn release_tool_claim(mut claims: ResMut<InputClaims>) {
    if claims.tool {
        claims.tool = false;
    }
}
