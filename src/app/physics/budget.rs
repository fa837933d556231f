//! The physics budget: when the steps a frame owes take longer than their
//! allowance of wall time, the rest of the frame's steps are dropped (the fixed
//! clock's overstep is discarded): the simulation runs slower than real time,
//! the status says so, and the window keeps drawing and answering instead of
//! freezing on a backlog.
//!
//! The budget counts the physics' own time (from each fixed step's start to its
//! end), not the frame's: a frame that is slow to draw (a software renderer,
//! 5 frames a second) owes more steps, and they still run. The allowance is
//! the larger of [`PhysicsBudget::DEFAULT`] and [`PhysicsBudget::SHARE`] of
//! the last frame's time outside physics, so a slow renderer gets the steps it
//! owes while the frame rate drops by at most that share. Frames up to 2 s
//! long owe their whole time (Bevy's virtual clock would drop what a frame
//! takes past 250 ms). While a step is in flight on a worker
//! ([`crate::app::lab::worker`]) the ticks have nothing to run here: they
//! are owed to the worker, which steps on ([`crate::app::physics::pace`]),
//! or to the next launch, at most [`crate::app::physics::most_owed`] steps
//! behind (what is past it is dropped: the run is behind, and the status bar
//! says so).

use std::time::{Duration, Instant};

use bevy::prelude::*;

use crate::app::lab::{PhysicsSet, StepInFlight};

/// The wall time physics may take per frame, and whether it ran out lately.
#[derive(Resource, Debug)]
pub struct PhysicsBudget {
    /// The least wall time for the fixed steps of one frame ([`PhysicsBudget::DEFAULT`]).
    pub budget: Duration,
    /// The share of the last frame's time outside physics the steps may also
    /// take ([`PhysicsBudget::SHARE`]).
    pub share: f64,
    frame_start: Instant,
    /// The wall time the fixed steps of this frame took so far.
    spent: Duration,
    /// The start of the fixed step under way.
    step_start: Option<Instant>,
    /// The last frame's wall time outside physics.
    last_rest: Duration,
    steps_this_frame: u32,
    /// The remaining steps of this frame are dropped.
    over: bool,
    /// When steps were last dropped (wall clock).
    pub last_dropped: Option<Instant>,
    /// Ticks that passed while a batch was in flight on a worker: the next
    /// worker or the next launch takes them ([`PhysicsBudget::take_owed`]).
    owed: usize,
}

impl Default for PhysicsBudget {
    fn default() -> Self {
        PhysicsBudget {
            budget: Self::DEFAULT,
            share: Self::SHARE,
            frame_start: Instant::now(),
            spent: Duration::ZERO,
            step_start: None,
            last_rest: Duration::ZERO,
            steps_this_frame: 0,
            over: false,
            last_dropped: None,
            owed: 0,
        }
    }
}

impl PhysicsBudget {
    /// Wall time for the fixed steps of one frame at least: the rest of a 60 Hz
    /// frame is left to the panels and the drawing.
    pub const DEFAULT: Duration = Duration::from_millis(12);
    /// The share of a frame's drawing time physics may add to it: a step
    /// costing half its `h` keeps real time while the frames take what the
    /// drawing needs (the 100-ball pile on llvmpipe at 1600x900, 16 frames a
    /// second: 0.63x real time with 0.5, 0.93x with 1.0, 0.97x with 1.5; the
    /// frame rate barely moved, 15.6 to 15.9 frames/s, issue 47).
    pub const SHARE: f64 = 1.5;

    /// Whether steps were dropped within the last half second: the simulation
    /// is slower than real time (at the chosen speed).
    pub fn behind(&self) -> bool {
        self.last_dropped.is_some_and(|t| t.elapsed().as_secs_f64() < 0.5)
    }

    /// Drops the rest of the frame's fixed ticks (the part of a tick left
    /// over stays, `discard_whole_ticks`); when a whole tick was owed, the
    /// simulation is behind (a step launched on a worker: one a frame).
    pub fn drop_rest(&mut self, fixed: &mut Time<Fixed>) {
        if fixed.overstep() >= fixed.timestep() {
            self.last_dropped = Some(Instant::now());
        }
        discard_whole_ticks(fixed);
    }

    /// The ticks owed while a step was in flight, not yet taken.
    pub fn owed(&self) -> usize {
        self.owed
    }

    /// The ticks owed while a step was in flight, taken by its worker or the next launch (at most
    /// `most`; more were dropped: the run is behind).
    pub fn take_owed(&mut self, most: usize) -> usize {
        let owed = std::mem::take(&mut self.owed);
        if owed > most {
            self.last_dropped = Some(Instant::now());
        }
        owed.min(most)
    }

    /// The wall time this frame's steps may take.
    pub fn allowance(&self) -> Duration {
        self.budget.max(self.last_rest.mul_f64(self.share.max(0.0)))
    }
}

/// Discards the whole ticks of the fixed clock's overstep (they were counted
/// as owed, or taken by a launch) and keeps the part of a tick left over for
/// the next frame. Discarding that part too lost it at every frame while
/// steps ran on the worker: 0.67 ms of a 16.7 ms frame at `h` = 1 ms, 16
/// steps a frame where 16.7 were owed, and the 100-ball pile, whose steps
/// cost half of `h` once landed, played at 0.955× real time (1.00× kept;
/// issue 47, deliverable 6).
fn discard_whole_ticks(fixed: &mut Time<Fixed>) {
    let step = fixed.timestep();
    let whole = fixed.overstep().as_nanos() / step.as_nanos().max(1);
    fixed.discard_overstep(step.saturating_mul(u32::try_from(whole).unwrap_or(u32::MAX)));
}

/// `First`: a new frame, a new budget.
fn start_frame_budget(mut budget: ResMut<PhysicsBudget>) {
    let frame = budget.frame_start.elapsed();
    budget.last_rest = frame.saturating_sub(budget.spent);
    budget.frame_start = Instant::now();
    budget.spent = Duration::ZERO;
    budget.steps_this_frame = 0;
    budget.over = false;
}

/// `FixedFirst`: the first step of a frame always runs (the simulation always
/// moves on); a later one runs only while the frame's allowance lasts. Past it,
/// the fixed clock's backlog is discarded, which ends the frame's fixed loop.
fn spend_frame_budget(mut budget: ResMut<PhysicsBudget>, mut fixed: ResMut<Time<Fixed>>, in_flight: Res<StepInFlight>) {
    if in_flight.waiting() {
        // A step is in flight on a worker: this frame's ticks have nothing to
        // run now; they are owed to the next launch, which takes them as a
        // batch (when it can; see `physics`).
        let ticks = 1 + (fixed.overstep().as_secs_f64() / fixed.timestep().as_secs_f64().max(1e-12)) as usize;
        budget.owed = budget.owed.saturating_add(ticks);
        discard_whole_ticks(&mut fixed);
        budget.over = true;
    } else if budget.steps_this_frame > 0 && budget.spent > budget.allowance() {
        debug!(
            "physics budget: {} steps took {:?} of {:?}; {:?} of simulated time dropped",
            budget.steps_this_frame,
            budget.spent,
            budget.allowance(),
            fixed.overstep()
        );
        fixed.discard_overstep(Duration::MAX);
        budget.over = true;
        budget.last_dropped = Some(Instant::now());
    } else {
        budget.steps_this_frame += 1;
        budget.step_start = Some(Instant::now());
    }
}

/// `FixedLast`: the step's wall time counts against the frame's allowance.
fn end_step(mut budget: ResMut<PhysicsBudget>) {
    if let Some(start) = budget.step_start.take() {
        budget.spent += start.elapsed();
    }
}

/// Bevy's virtual clock drops what a frame takes past 250 ms: a software
/// renderer at 4 frames a second would lose simulated time at every frame. The
/// budget, not the clock, decides how much of a slow frame's debt is stepped.
fn let_slow_frames_catch_up(mut virt: ResMut<Time<Virtual>>) {
    virt.set_max_delta(MAX_FRAME_DEBT);
}

/// The longest frame whose whole simulated time is owed (see [`let_slow_frames_catch_up`]).
pub const MAX_FRAME_DEBT: Duration = Duration::from_secs(2);

fn within_budget(budget: Res<PhysicsBudget>) -> bool {
    !budget.over
}

/// The budget's resource and systems; every [`PhysicsSet`] runs only within it.
pub struct BudgetPlugin;

impl Plugin for BudgetPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<PhysicsBudget>()
            .configure_sets(FixedUpdate, PhysicsSet::all().run_if(within_budget))
            .add_systems(Startup, let_slow_frames_catch_up)
            .add_systems(First, start_frame_budget)
            .add_systems(FixedFirst, spend_frame_budget)
            .add_systems(FixedLast, end_step);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Frames of 1/60 s while steps of 1 ms run on the worker: each frame
    /// owes its whole ticks and keeps the part of one left over, so 60 frames
    /// owe every tick of their second (999 of 999.99996 ms; 960 when that
    /// part was dropped).
    #[test]
    fn the_part_of_a_tick_left_over_is_owed_to_the_next_frame() {
        let mut fixed = Time::<Fixed>::from_duration(Duration::from_millis(1));
        let frame = Duration::from_secs(1) / 60;
        let mut owed = 0;
        for _ in 0..60 {
            fixed.accumulate_overstep(frame);
            let whole = fixed.overstep().as_nanos() / fixed.timestep().as_nanos();
            owed += whole;
            discard_whole_ticks(&mut fixed);
            assert!(fixed.overstep() < fixed.timestep());
        }
        assert_eq!(owed, 999);
        assert_eq!(Duration::from_millis(owed as u64) + fixed.overstep(), frame * 60);
    }
}
