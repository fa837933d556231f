//! The timeline: a ring of [`Snapshot`]s taken at step boundaries (at least the
//! last 60 s of simulated time), like Box2D's `b2World_Snapshot`/`Restore`.
//!
//! Restoring one puts the core back in that exact state — `q`, `q̇`, `t`, the
//! handled set `F⁺` and the step count — so playing on reproduces the original run
//! bit for bit (with the algorithm now selected, which may differ). The report of
//! the step that led to the restored snapshot is recomputed from the snapshot
//! before it, so the table and the trace show that step again.
//!
//! Snapshots after the restored one stay until the next step, so scrubbing back
//! and forth loses nothing; stepping from a restored state drops them (a new
//! branch), and the status bar says so, with the time the replaced run reached.

use std::collections::VecDeque;

use bevy::prelude::*;
use contact_core::{ConstraintKey, Snapshot, World};

use super::lab::{InstallSceneSet, Lab, PhysicsSet, Restored, StateJumped, Status, StepSettings, num, state_jumped};

/// Simulated seconds the ring covers at least.
pub const SPAN_SECONDS: f64 = 60.0;

/// Memory the ring may use, in bytes (it thins out its snapshots beyond that).
const BUDGET_BYTES: usize = 160 << 20;

#[derive(Resource, Debug, Default)]
pub struct Timeline {
    pub generation: Option<u64>,
    pub snaps: VecDeque<Snapshot>,
    /// Keep every `stride`-th step (1 unless the model is large or `h` small).
    pub stride: u64,
    /// Set by a restore: the snapshot shown now; later ones are dropped at the next step.
    pub cursor: Option<usize>,
    /// The last step was the stored run's next one ([`Self::record`]): its
    /// rewinds are in the log already.
    pub followed: bool,
    max_count: usize,
}

impl Timeline {
    /// Starts again from the world's current state.
    pub fn reset(&mut self, world: &World, generation: u64) {
        let first = world.snapshot();
        *self = Timeline {
            generation: Some(generation),
            snaps: VecDeque::new(),
            stride: 1,
            cursor: None,
            followed: false,
            max_count: max_count(&first),
        };
        self.snaps.push_back(first);
    }

    /// Records the state after a step. A step from a restored snapshot
    /// replaces the stored run after it: returns the `t` of its last snapshot,
    /// when there was one.
    pub fn record(&mut self, world: &World, h: f64) -> Option<f64> {
        self.followed = false;
        let mut replaced = None;
        if let Some(c) = self.cursor.take() {
            // The step taken is the stored one, bit for bit (→ after ←, the
            // same settings): the stored run goes on, shown one step further
            // (issue 37: → from t = 0 threw it away).
            if let Some(next) = self.snaps.get(c + 1)
                && next.steps == world.steps
                && next.state.q == world.state.q
                && next.state.qd == world.state.qd
            {
                self.cursor = (c + 2 < self.snaps.len()).then_some(c + 1);
                self.followed = true;
                return None;
            }
            replaced = (self.snaps.len() > c + 1).then(|| self.range().1);
            self.snaps.truncate(c + 1);
        }
        let wanted = (SPAN_SECONDS * 1.05 / h.max(1e-9)).ceil();
        self.stride = ((wanted / self.max_count as f64).ceil() as u64).max(1);
        if !world.steps.is_multiple_of(self.stride) {
            return replaced;
        }
        let snap = world.snapshot();
        // Contacts by proximity: the rows, and so the size, change as the scene moves.
        self.max_count = max_count(&snap);
        self.snaps.push_back(snap);
        let t = world.state.t;
        while self.snaps.len() > 2
            && (self.snaps.len() > self.max_count || t - self.snaps[1].state.t >= SPAN_SECONDS * 1.05)
        {
            self.snaps.pop_front();
        }
        replaced
    }

    /// `(t_first, t_last)` of the ring.
    pub fn range(&self) -> (f64, f64) {
        match (self.snaps.front(), self.snaps.back()) {
            (Some(a), Some(b)) => (a.state.t, b.state.t),
            _ => (0.0, 0.0),
        }
    }

    /// The last snapshot at or before `t`.
    pub fn index_at(&self, t: f64) -> Option<usize> {
        if self.snaps.is_empty() {
            return None;
        }
        let i = self.snaps.partition_point(|s| s.state.t <= t + 1e-12);
        Some(i.saturating_sub(1))
    }

    /// The snapshot currently shown (the cursor, or the last one).
    pub fn current(&self) -> Option<usize> {
        self.cursor.or(self.snaps.len().checked_sub(1))
    }
}

/// Snapshots the ring may hold when each is the size of `s` (at least 1000, at most 130 000).
fn max_count(s: &Snapshot) -> usize {
    (BUDGET_BYTES / snapshot_bytes(s)).clamp(1_000, 130_000)
}

/// Bytes of a snapshot: its vectors (`q`, `q̇`, the handled flags, the keys of
/// the generated contact rows), its slot in the ring and the allocator's headers.
fn snapshot_bytes(s: &Snapshot) -> usize {
    size_of::<Snapshot>()
        + 4 * 16
        + size_of::<f64>() * (s.state.q.len() + s.state.qd.len())
        + s.active_set.handled.len()
        + s.contact_keys.as_ref().map_or(0, |k| k.len() * size_of::<ConstraintKey>())
}

/// The moments time was rewound to a first activation (the last [`EVENT_LOG_MAX`]).
#[derive(Resource, Debug, Default)]
pub struct EventLog {
    pub events: VecDeque<contact_core::Event>,
    /// The step (its count when it ended) that reported each of `events`.
    steps: VecDeque<u64>,
    /// Events seen in total (the log keeps the last ones).
    pub total: usize,
}

pub const EVENT_LOG_MAX: usize = 500;

impl EventLog {
    /// Forgets the events of step `step` and after (a new branch replaces
    /// the run they were in): by step, not by time, so an event at the very
    /// start of the step taken again (t = 0) is not listed twice (issue 37).
    fn truncate_from(&mut self, step: u64) {
        while self.steps.back().is_some_and(|&s| s >= step) {
            self.steps.pop_back();
            self.events.pop_back();
            self.total -= 1;
        }
    }

    /// The events of the stored run up to `t` (the instant shown, after a restore).
    pub fn count_until(&self, t: f64) -> usize {
        self.total - self.events.iter().rev().take_while(|e| e.t > t + 1e-12).count()
    }
}

pub struct TimelinePlugin;

impl Plugin for TimelinePlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Timeline>()
            .init_resource::<EventLog>()
            .add_systems(FixedUpdate, (record, log_events).chain().in_set(PhysicsSet::Record))
            .add_systems(PreUpdate, follow_jumps.after(InstallSceneSet));
    }
}

fn record(
    lab: Option<Res<Lab>>,
    settings: Res<StepSettings>,
    mut timeline: ResMut<Timeline>,
    mut status: ResMut<Status>,
    real: Res<Time<Real>>,
) {
    let Some(lab) = lab else { return };
    if timeline.generation != Some(lab.generation) {
        timeline.reset(&lab.world, lab.generation);
        return;
    }
    if let Some(until) = timeline.record(&lab.world, settings.h) {
        let from = lab.time() - settings.h;
        status.say(
            real.elapsed_secs_f64(),
            format!(
                "A new run from t = {} s ({}): it replaces the stored run up to t = {} s",
                num(from),
                lab.world.settings.algorithm.label(),
                num(until)
            ),
        );
    }
}

fn log_events(lab: Option<Res<Lab>>, timeline: Res<Timeline>, mut log: ResMut<EventLog>) {
    let Some(report) = lab.as_ref().and_then(|l| l.report.as_ref()) else { return };
    if timeline.followed {
        return;
    }
    let step = lab.as_ref().map_or(0, |l| l.world.steps);
    // A step after a restore starts a new branch: forget the old future.
    log.truncate_from(step);
    for e in &report.events {
        log.events.push_back(e.clone());
        log.steps.push_back(step);
        log.total += 1;
        if log.events.len() > EVENT_LOG_MAX {
            log.events.pop_front();
            log.steps.pop_front();
        }
    }
}

fn follow_jumps(
    lab: Option<Res<Lab>>,
    mut jumped: MessageReader<StateJumped>,
    mut timeline: ResMut<Timeline>,
    mut log: ResMut<EventLog>,
) {
    let Some(lab) = lab else { return };
    let reset = jumped.read().any(|j| j.new_scene || j.reset);
    if reset || timeline.generation != Some(lab.generation) {
        timeline.reset(&lab.world, lab.generation);
        *log = EventLog::default();
    }
}

/// Restores snapshot `index`: the core, the components, the report of the step
/// that led there; pauses. [`Restored`] tells the features that keep a record
/// (the plots' history, the input log) to drop what follows.
pub fn restore(world: &mut bevy::ecs::world::World, index: usize) -> bool {
    let h = world.resource::<StepSettings>().h;
    let Some((snap, before)) = world.get_resource::<Timeline>().and_then(|tl| {
        let s = tl.snaps.get(index)?.clone();
        let b = index.checked_sub(1).and_then(|i| tl.snaps.get(i)).cloned();
        Some((s, b))
    }) else {
        return false;
    };
    let Some(mut lab) = world.get_resource_mut::<Lab>() else { return false };
    lab.world.restore(&snap);
    // The step that led here, again (deterministic: same state, same settings).
    lab.report = before.filter(|b| b.steps + 1 == snap.steps).and_then(|b| {
        let mut w = lab.world.clone();
        w.restore(&b);
        let report = w.step(h);
        (w.state == snap.state).then_some(report)
    });
    world.resource_mut::<Timeline>().cursor = Some(index);
    world.resource_mut::<Time<Virtual>>().pause();
    state_jumped(world, StateJumped { new_scene: false, reset: false });
    world.trigger(Restored { t: snap.state.t, steps: snap.steps });
    true
}
