//! The public system sets every feature orders itself by (avian's way: a
//! feature nests its systems in these sets and never names another feature's
//! function).
//!
//! ```text
//! PreUpdate    InstallSceneSet                     scene requests → Lab + entities
//! FixedUpdate  PhysicsSet: Gather → Forces → Log → Step → Lanes → Writeback → Record
//! Update       FrameSet:   Prepare → Tools → Mouse → Draw → Overlay
//! ```

use bevy::ecs::schedule::{InternedSystemSet, ScheduleConfigs};
use bevy::prelude::*;

/// The chained sets of one fixed step, in order.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PhysicsSet {
    /// Copy the body components into the core's state.
    Gather,
    /// Forces computed from this step's state: the mouse springs (`user_force`).
    Forces,
    /// The input log records what the step is given.
    Log,
    /// `World::step(h)`, events included.
    Step,
    /// Compare mode's lanes take the same step on the same inputs.
    Lanes,
    /// Copy the new state and the constraint status back into the components.
    Writeback,
    /// Plots, timeline, trails record the step.
    Record,
}

impl PhysicsSet {
    /// Every set of one step, in order, to configure them at once (the lab
    /// chains them, the physics budget runs them only while it lasts).
    pub fn all() -> ScheduleConfigs<InternedSystemSet> {
        use PhysicsSet::*;
        (Gather, Forces, Log, Step, Lanes, Writeback, Record).into_configs()
    }
}

/// The [`PreUpdate`] set that installs requested scenes; features that react
/// to a new scene or a jump run after it.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct InstallSceneSet;

/// The chained [`Update`] sets of one frame.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FrameSet {
    /// What the frame shares is brought up to date: the interpolation fraction,
    /// the scene's look, caches that follow a jump.
    Prepare,
    /// Tools that take the pointer before the plain mouse does (the cue's aim);
    /// one that takes it sets [`super::InputClaims::tool`].
    Tools,
    /// The plain mouse: springs, force tips, panning (when no tool took it).
    Mouse,
    /// The world's meshes and gizmos.
    Draw,
    /// What is drawn over the world: springs, aims, compare mode's ghosts.
    Overlay,
}
