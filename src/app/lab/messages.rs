//! What the features tell each other: the user's [`LabAction`]s (handled by the
//! one dispatcher, `control`), scene installs, the state's jumps, and the
//! status line.

use bevy::prelude::*;
use contact_core::Algorithm;
use contact_core::scene::Scene;

/// Something the user asked for (keys, toolbar, panels); `control` carries it out.
#[derive(Message, Clone, Debug, PartialEq)]
pub enum LabAction {
    TogglePause,
    SetPaused(bool),
    /// One fixed step, then pause.
    StepOnce,
    /// Back to the scene's initial state and its opening clock (the algorithm,
    /// the speed and dragged forces are kept).
    Reset,
    /// The scene as its file has it: state, forces, algorithm, clock, view.
    ResetAll,
    SetAlgorithm(Algorithm),
    /// Event-driven (the paper's) or time-stepping (Moreau–Jean, under Exact).
    SetScheme(contact_core::Scheme),
    /// Coulomb's `μ` and the rolling resistance `μ_r` of every generated
    /// contact, between bodies and on every wall (from the next step).
    SetContacts {
        mu: f64,
        rolling: f64,
    },
    FitView,
    Screenshot,
    /// Restore timeline snapshot `i` (pauses).
    Restore(usize),
    /// Restore the snapshot before the one shown.
    StepBack,
    /// Ctrl+Q.
    Quit,
}

/// A request to install a scene, replacing the current one.
#[derive(Message, Clone)]
pub struct InstallScene {
    pub scene: Box<Scene>,
    pub path: Option<std::path::PathBuf>,
    /// Keep the algorithm chosen in the app (a hot reload) rather than the file's.
    pub keep_algorithm: bool,
    /// Apply the scene's opening (clock, speed; the plots follow): a scene the
    /// user opens, not an edit or a hot reload, which keep the user's clock.
    pub open: bool,
}

/// Sent when the state jumped (new scene, reset, timeline restore, a kept lane):
/// caches must follow.
#[derive(Message, Clone, Copy, Debug)]
pub struct StateJumped {
    /// Another scene (or the same file reloaded) was installed.
    pub new_scene: bool,
    /// Back to the scene's start.
    pub reset: bool,
}

/// Sent when a scene was installed to be opened as it says (not an edit or a
/// hot reload): the panels take its plot window.
#[derive(Message, Clone, Copy, Debug, PartialEq)]
pub struct Opened(pub contact_core::scene::Opening);

/// Triggered (observers) when the timeline restored a snapshot: what was
/// recorded after it is a discarded branch. The history drops its samples after
/// `t`, the input log its inputs from `steps` on.
#[derive(Event, Clone, Copy, Debug, PartialEq)]
pub struct Restored {
    /// Simulated time of the restored state.
    pub t: f64,
    /// Steps taken to reach it.
    pub steps: u64,
}

/// A line for the status bar, with when it was said (real seconds).
#[derive(Resource, Clone, Debug, Default)]
pub struct Status {
    pub text: String,
    pub at: f64,
    pub error: bool,
    /// The text speaks of the paused clock ("Space plays it"): it goes when the clock plays.
    pub while_paused: bool,
    /// The text is a stop that time-stepping would not make (an event-driven
    /// step with friction that missed its contract): the status bar offers
    /// it in one click (issue 46, deliverable 6).
    pub offer_time_stepping: bool,
    /// The text says how the clock runs ("Playing in real time"): while the
    /// run is slower than that, the status bar's slow row stands for it.
    pub clock: bool,
}

impl Status {
    pub fn say(&mut self, now: f64, text: impl Into<String>) {
        self.text = text.into();
        self.at = now;
        self.error = false;
        self.while_paused = false;
        self.offer_time_stepping = false;
        self.clock = false;
        info!("{}", self.text);
    }
    /// Says how the clock runs ([`Status::clock`]).
    pub fn say_clock(&mut self, now: f64, text: impl Into<String>) {
        self.say(now, text);
        self.clock = true;
    }
    /// Says a text that holds while the clock is paused ("Space plays it"): it is
    /// cleared when the clock plays ([`forget_paused_text`]).
    pub fn say_while_paused(&mut self, now: f64, text: impl Into<String>) {
        self.say(now, text);
        self.while_paused = true;
    }
    pub fn warn(&mut self, now: f64, text: impl Into<String>) {
        self.text = text.into();
        self.at = now;
        self.error = true;
        self.while_paused = false;
        self.offer_time_stepping = false;
        self.clock = false;
        warn!("{}", self.text);
    }
}

/// A text said while paused goes when the clock plays, or when the lab's
/// time moves away from the instant it spoke of (a step, the timeline, a
/// reset): no stale "Space plays it", no "Paused at t = 0.02 s" shown at
/// t = 0.001 s. `said`: the message's time stamp and the lab's time then.
pub fn forget_paused_text(
    mut status: ResMut<Status>,
    virt: Res<Time<Virtual>>,
    lab: Option<Res<super::Lab>>,
    mut said: Local<Option<(f64, f64)>>,
) {
    if !status.while_paused {
        *said = None;
        return;
    }
    let t = lab.map_or(0.0, |lab| lab.time());
    // The lab's time when this message was first seen.
    match *said {
        Some((at, _)) if at == status.at => {}
        _ => *said = Some((status.at, t)),
    }
    let then = said.map_or(t, |s| s.1);
    if !virt.is_paused() || t != then {
        status.text.clear();
        status.while_paused = false;
        *said = None;
    }
}

/// Open this scene file (the picker, the open field; [`crate::app::scene`]).
/// Here, in the shared vocabulary, so the editor can carry out an open it
/// held for an answer without importing the feature that reads files.
#[derive(Message, Clone, Debug)]
pub struct OpenScene(pub std::path::PathBuf);

/// What the Tour panel and the key ask for ([`crate::app::tour`]).
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum TourAction {
    /// Show or hide the panel (reading the tour file the first time).
    Toggle,
    /// Show step `i` and load its scene and algorithm.
    Go(usize),
    /// Read the tour file again (after an edit).
    Reload,
}
