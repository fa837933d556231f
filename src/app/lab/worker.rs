//! A step in flight: when a step costs more than a frame can wait, the core
//! steps on worker threads while the window keeps drawing the last finished
//! state.
//!
//! One fixed step is the chain of [`super::PhysicsSet`]s. A step in flight
//! splits it over two runs of the chain:
//!
//! ```text
//! launch   Gather → Forces → Log → Step (a clone of the world steps on a thread) → Lanes (theirs too)
//! wait     (every fixed tick skips the chain; the window draws the last state)
//! finish   Step (the result is installed) → Lanes → Writeback → Record
//! ```
//!
//! The launch takes its inputs (springs, forces, coordinates set from
//! outside, settings) exactly where a step on the drawing thread takes them,
//! and the finish installs what [`contact_core::World::step`] returned on the
//! same state with the same inputs: the result is the same bits whichever
//! thread stepped, so the input log, the timeline, the compare lanes and the
//! pinned hashes do not see the difference. What the user changes while a
//! step is in flight (a setting, a force, a cue shot) applies at the next step
//! boundary, as it does between two steps on the drawing thread. A jump (a
//! reset, a restore, a new scene, a kept lane) cancels the step in flight.
//!
//! [`StepInFlight`] holds the parts of the step in flight, one thread each
//! (the lab's world, compare mode's lanes), and the [`StepPhase`] the chain
//! is in; the physics plugin decides when to launch and runs the finish.

use std::any::Any;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, TryRecvError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use bevy::prelude::*;

/// Where the chain of one fixed step is (see the module docs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum StepPhase {
    /// No step in flight is being launched or finished: a step on the
    /// drawing thread runs the whole chain, or, while parts are in flight,
    /// the chain is skipped.
    #[default]
    Idle,
    /// This run of the chain launched the step: `Lanes` launches its part,
    /// `Writeback` and `Record` wait for the finish.
    Launching,
    /// This run of the chain installs the finished parts: `Gather`, `Forces`
    /// and `Log` ran at the launch.
    Finishing,
}

/// What a part's thread sends back.
type Answer = Box<dyn Any + Send + Sync>;

/// One part of the step in flight: a thread and, once it has answered, its result.
struct Part {
    name: &'static str,
    /// In a mutex only so that the resource is `Sync`: one system reads it at a time.
    answer: Mutex<Receiver<Answer>>,
    result: Option<Answer>,
    /// The thread died without answering (a panic in the core).
    lost: bool,
}

/// The step in flight, if any (see the module docs).
#[derive(Resource, Default)]
pub struct StepInFlight {
    pub phase: StepPhase,
    parts: Vec<Part>,
    /// When the step was launched (wall clock).
    pub since: Option<Instant>,
    /// When a worker that steps on by itself last had steps installed
    /// ([`crate::app::physics::pace`]): the age of the step in flight runs
    /// from there, not from the launch.
    pub installed: Option<Instant>,
    /// The last step ran on a worker: the window shows finished steps as they
    /// come, without interpolating between them.
    pub off_thread: bool,
    /// Set when the step in flight is dropped ([`Self::cancel`]): a worker
    /// that steps on by itself ([`crate::app::physics::pace`]) watches it.
    /// A new flag for each flight.
    pub cancelled: Arc<AtomicBool>,
}

impl StepInFlight {
    /// Runs `work` on a thread of its own as the part `name` of the step in flight.
    pub fn launch<T: Send + Sync + 'static>(&mut self, name: &'static str, work: impl FnOnce() -> T + Send + 'static) {
        let (tx, rx) = mpsc::channel::<Answer>();
        let spawned = std::thread::Builder::new().name(format!("contact-lab {name}")).spawn(move || {
            // The receiver is gone when the step was cancelled: nobody wants the result.
            let _ = tx.send(Box::new(work()));
        });
        let lost = spawned.is_err();
        self.parts.push(Part { name, answer: Mutex::new(rx), result: None, lost });
        self.since.get_or_insert_with(Instant::now);
    }

    /// Whether parts are in flight and not being finished: the fixed ticks skip the chain.
    pub fn waiting(&self) -> bool {
        !self.parts.is_empty() && self.phase == StepPhase::Idle
    }

    /// How long the step in flight has run (wall clock): since the last
    /// steps installed of a worker that steps on, else since the launch.
    pub fn age(&self) -> Option<Duration> {
        self.installed.or(self.since).map(|t| t.elapsed())
    }

    /// Whether a step is in flight (launched, not yet finished).
    pub fn in_flight(&self) -> bool {
        !self.parts.is_empty()
    }

    /// Collects the answers that arrived; true when every part has answered
    /// (or died: [`Self::take`] then finds nothing for it).
    pub fn ready(&mut self) -> bool {
        for p in &mut self.parts {
            if p.result.is_none() && !p.lost {
                let answer = p.answer.get_mut().map(|rx| rx.try_recv()).unwrap_or(Err(TryRecvError::Disconnected));
                match answer {
                    Ok(r) => p.result = Some(r),
                    Err(TryRecvError::Empty) => {}
                    Err(TryRecvError::Disconnected) => p.lost = true,
                }
            }
        }
        !self.parts.is_empty() && self.parts.iter().all(|p| p.result.is_some() || p.lost)
    }

    /// The result of part `name` (once [`Self::ready`]), taken out.
    pub fn take<T: 'static>(&mut self, name: &'static str) -> Option<T> {
        let i = self.parts.iter().position(|p| p.name == name && p.result.is_some())?;
        let result = self.parts[i].result.take()?;
        result.downcast::<T>().ok().map(|b| *b)
    }

    /// Forgets the step in flight (its threads finish and their answers are dropped).
    pub fn cancel(&mut self) {
        self.cancelled.store(true, Ordering::Release);
        self.cancelled = Arc::new(AtomicBool::new(false));
        self.parts.clear();
        self.since = None;
        self.installed = None;
        self.phase = StepPhase::Idle;
    }
}
