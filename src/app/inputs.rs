//! The input log of the run on screen ([`contact_core::input`]): right before
//! each step, whatever changed since the last one — the mouse springs, a force
//! dragged by its arrow, coordinates set from outside the core, the settings
//! (algorithm, τ, events, ...), the step `h` — is logged with the step count.
//! Replaying the log on the scene file's world reproduces the run bit for bit
//! (tested), which is what makes a session reproducible headless.
//!
//! A new scene or a reset starts an empty log; a timeline restore to step `k`
//! ([`Restored`]) drops what was given from `k` on (a new branch) and logs the
//! inputs in effect again at the next step. Memory: one entry per change, at
//! most a few per step while a spring is dragged (a spring's target is 32 bytes).

use bevy::prelude::*;
use contact_core::{InputLog, Recorder};

use super::lab::{Drags, InstallSceneSet, Lab, PhysicsSet, Restored, StateJumped, StepSettings};

#[derive(Resource, Debug, Default)]
pub struct Inputs {
    pub log: InputLog,
    recorder: Recorder,
    generation: Option<u64>,
}

impl Inputs {
    /// A restore to `step` steps: forget the inputs given from then on, and log
    /// all those in effect at the next step.
    pub fn restored(&mut self, step: u64) {
        self.log.truncate_from(step);
        self.recorder = Recorder::default();
    }
}

pub struct InputsPlugin;

impl Plugin for InputsPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Inputs>()
            .add_systems(FixedUpdate, record.in_set(PhysicsSet::Log))
            .add_systems(PreUpdate, follow_jumps.after(InstallSceneSet))
            .add_observer(|restored: On<Restored>, mut inputs: ResMut<Inputs>| inputs.restored(restored.steps));
    }
}

/// [`PhysicsSet::Log`]: what changed since the last step is logged, and kept
/// in [`Lab::given`] for the lanes of compare mode.
fn record(
    lab: Option<ResMut<Lab>>,
    settings: Res<StepSettings>,
    drags: Option<Res<Drags>>,
    mut inputs: ResMut<Inputs>,
) {
    let Some(mut lab) = lab else { return };
    if inputs.generation != Some(lab.generation) {
        *inputs = Inputs { generation: Some(lab.generation), ..default() };
    }
    let springs = drags.map(|d| d.core_springs()).unwrap_or_default();
    let Inputs { log, recorder, .. } = &mut *inputs;
    let before = log.entries.len();
    recorder.observe(&lab.world, settings.h, &springs, &lab.coords_set, log);
    lab.given = log.entries[before..].iter().map(|(_, input)| input.clone()).collect();
}

fn follow_jumps(lab: Option<Res<Lab>>, mut jumped: MessageReader<StateJumped>, mut inputs: ResMut<Inputs>) {
    let Some(lab) = lab else { return };
    if jumped.read().any(|j| j.new_scene || j.reset) {
        *inputs = Inputs { generation: Some(lab.generation), ..default() };
    }
}
