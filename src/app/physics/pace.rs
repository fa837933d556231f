//! The physics thread: a worker that keeps stepping toward the wall clock.
//!
//! A launch on the worker ([`super::step_world`]) hands a clone of the world
//! to a thread with a [`Pace`]: the steps it may take (what the fixed clock
//! owes at the launch), and a queue where it publishes each finished step.
//! While nothing can change between steps (no mouse spring, no compare lanes,
//! no input logged, no setting, body field or coordinate changed by the user,
//! the clock running, steps dear enough to stay off the drawing thread), each
//! frame adds the ticks it owes to what the worker may take ([`feed_worker`]),
//! and installs the steps published so far, each with its whole chain
//! (`Writeback`, `Record`): the worker never waits for a frame, and a frame
//! never waits for the worker. When something changes, the worker is told to
//! stop; it ends its step, the frame installs what it published, and the next
//! launch takes the change at that step boundary, where the input log
//! records it. The steps are the world's own, one after the other, so the
//! result is the same bits as one step at a time on the drawing thread.
//!
//! Before this (issue 26, item 5), a batch of the steps owed ended at the
//! launch's count, and the worker stood idle until the next frame found it
//! done: up to a frame of a software renderer (100–200 ms) per batch.
//!
//! A worker that has taken every step it may take waits for more, for at
//! most [`LINGER`] (none when the frame waits for it, as tests do), then ends.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use bevy::prelude::*;
use contact_core::{StepReport, StepStatus};

use super::{Batch, Batchable, PhysicsBudget, StepWorker, most_owed};
use crate::app::lab::{Coords, Lab, LabBody, StepInFlight, StepSettings, coords_of};

/// What the worker answers for each of its steps: the world after the step,
/// its report and the core's wall time.
pub type Stepped = (contact_core::World, StepReport, Duration);

/// How long a worker that has caught up with the clock waits for more ticks
/// before it ends: longer than a frame of a software renderer.
pub const LINGER: Duration = Duration::from_secs(1);

/// The steps a worker may take and the ones it finished (see the module docs).
pub struct Pace {
    counts: Mutex<Counts>,
    /// The most it may ever take (the step that reaches a pause time).
    limit: usize,
    /// The frame asks it to stop after the step under way.
    stop: AtomicBool,
    /// Finished steps not yet installed.
    done: Mutex<VecDeque<Stepped>>,
    /// The frame adds ticks as they come (a paced launch), or not (a launch of
    /// fixed length: compare lanes step beside it, a spring is dragged).
    pub continuous: bool,
    /// What the steps were launched with: a change stops the worker.
    settings: contact_core::Settings,
    bodies: Vec<contact_core::Body>,
    contacts: Option<contact_core::Coefficients>,
    h: f64,
    /// The flight's cancel flag ([`StepInFlight::cancelled`]): set when the
    /// flight is dropped, and replaced, so a pace whose flight is gone is known.
    flight: Arc<AtomicBool>,
}

/// The worker's counts, under one lock: a tick the frame adds is either
/// stepped or left to the next launch, never lost to a worker that ended.
#[derive(Default)]
struct Counts {
    /// Steps it may take in all since the launch.
    owed: usize,
    /// Steps it took (or is taking).
    taken: usize,
    /// It ended: no more steps.
    ended: bool,
}

impl Pace {
    /// A pace for `steps` steps of `h` from `world` (at most `limit` in
    /// all), in the flight `in_flight` is about to launch.
    pub fn new(
        in_flight: &StepInFlight,
        world: &contact_core::World,
        h: f64,
        (steps, limit): (usize, usize),
        continuous: bool,
    ) -> Self {
        Pace {
            flight: in_flight.cancelled.clone(),
            counts: Mutex::new(Counts { owed: steps.min(limit), ..Default::default() }),
            limit,
            stop: AtomicBool::new(false),
            done: Mutex::new(VecDeque::new()),
            continuous,
            settings: world.settings.clone(),
            bodies: world.model.bodies.clone(),
            contacts: world.model.contact_coefficients(),
            h,
        }
    }

    /// Whether this is the pace of the step in flight (not of one dropped).
    pub fn of(&self, in_flight: &StepInFlight) -> bool {
        in_flight.in_flight() && Arc::ptr_eq(&self.flight, &in_flight.cancelled)
    }

    /// The worker's loop: steps `world` while it may, publishing each step;
    /// ends on a stop (the frame's, or its flight's cancel), on a step that
    /// did not end `Ok`, or after waiting `linger` for more ticks.
    pub fn run(self: &Arc<Self>, mut world: contact_core::World, linger: Duration) {
        // A pace nobody else holds: the lab let it go (a new launch, the app's end).
        let stopped =
            || self.stop.load(Ordering::Acquire) || self.flight.load(Ordering::Acquire) || Arc::strong_count(self) == 1;
        loop {
            let since = Instant::now();
            loop {
                let mut c = self.counts();
                if stopped() || (c.taken >= c.owed && since.elapsed() >= linger) {
                    c.ended = true;
                    return;
                }
                if c.taken < c.owed {
                    c.taken += 1;
                    break;
                }
                drop(c);
                std::thread::sleep(Duration::from_millis(1));
            }
            let start = Instant::now();
            let report = world.step(self.h);
            let go_on = report.status == StepStatus::Ok;
            let step = (world.clone(), report, start.elapsed());
            self.done.lock().unwrap_or_else(|e| e.into_inner()).push_back(step);
            if !go_on {
                self.counts().ended = true;
                return;
            }
        }
    }

    fn counts(&self) -> MutexGuard<'_, Counts> {
        self.counts.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The steps published so far, taken out.
    pub fn drain(&self) -> VecDeque<Stepped> {
        std::mem::take(&mut *self.done.lock().unwrap_or_else(|e| e.into_inner()))
    }

    /// Asks the worker to stop after the step under way.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Release);
    }

    /// The ticks the budget owes go to the worker, while it runs: at most
    /// [`most_owed`] steps wait for it (past that the run is behind), and
    /// none past the limit.
    fn owe(&self, budget: &mut PhysicsBudget) {
        let mut c = self.counts();
        if c.ended {
            return;
        }
        let room = most_owed(budget.owed()).saturating_sub(c.owed - c.taken);
        c.owed = (c.owed + budget.take_owed(room)).min(self.limit);
    }
}

/// `Last`, after the panels and the mouse: a paced worker gets the ticks this
/// frame owed while nothing changed since its launch, and is stopped
/// otherwise (see the module docs).
#[allow(clippy::too_many_arguments)]
pub fn feed_worker(
    lab: Option<Res<Lab>>,
    batch: Res<Batch>,
    in_flight: Res<StepInFlight>,
    worker: Res<StepWorker>,
    settings: Res<StepSettings>,
    virt: Res<Time<Virtual>>,
    mut budget: ResMut<PhysicsBudget>,
    batchable: Batchable,
    bodies: Query<(&LabBody, &Coords)>,
) {
    let (Some(lab), Some(pace)) = (lab, batch.pace.as_ref()) else { return };
    if !pace.of(&in_flight) || !pace.continuous {
        return;
    }
    let same = pace.h == settings.h
        && pace.settings == lab.world.settings
        && pace.bodies == lab.world.model.bodies
        && pace.contacts == lab.world.model.contact_coefficients();
    let coords = bodies.iter().all(|(b, c)| {
        let now = coords_of(&lab.world, b.index);
        c.q == now.q && c.qd == now.qd
    });
    let off_thread = worker.off_thread(settings.h, virt.relative_speed().into());
    if !(same && coords && off_thread && !virt.is_paused() && batchable.steady(&lab)) {
        pace.stop();
        return;
    }
    pace.owe(&mut budget);
}
