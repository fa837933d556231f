//! The physics budget: when the steps a frame owes take longer than
//! [`PhysicsBudget::DEFAULT`] of wall time, the rest of the frame's steps are
//! dropped (the fixed clock's overstep is discarded): the simulation runs
//! slower than real time, the status says so, and the window keeps drawing and
//! answering instead of freezing on a backlog.

use bevy::prelude::*;

use crate::app::lab::PhysicsSet;

/// The wall time physics may take per frame, and whether it ran out lately.
#[derive(Resource, Debug)]
pub struct PhysicsBudget {
    /// Wall time for the fixed steps of one frame ([`PhysicsBudget::DEFAULT`]).
    pub budget: std::time::Duration,
    frame_start: std::time::Instant,
    steps_this_frame: u32,
    /// The remaining steps of this frame are dropped.
    over: bool,
    /// When steps were last dropped (wall clock).
    pub last_dropped: Option<std::time::Instant>,
}

impl Default for PhysicsBudget {
    fn default() -> Self {
        PhysicsBudget {
            budget: Self::DEFAULT,
            frame_start: std::time::Instant::now(),
            steps_this_frame: 0,
            over: false,
            last_dropped: None,
        }
    }
}

impl PhysicsBudget {
    /// Wall time for the fixed steps of one frame: the rest of a 60 Hz frame is
    /// left to the panels and the drawing.
    pub const DEFAULT: std::time::Duration = std::time::Duration::from_millis(12);

    /// Whether steps were dropped within the last half second: the simulation
    /// is slower than real time (at the chosen speed).
    pub fn behind(&self) -> bool {
        self.last_dropped.is_some_and(|t| t.elapsed().as_secs_f64() < 0.5)
    }
}

/// `First`: a new frame, a new budget.
fn start_frame_budget(mut budget: ResMut<PhysicsBudget>) {
    budget.frame_start = std::time::Instant::now();
    budget.steps_this_frame = 0;
    budget.over = false;
}

/// `FixedFirst`: the first step of a frame always runs (the simulation always
/// moves on); a later one runs only while the frame's budget lasts. Past it, the
/// fixed clock's backlog is discarded, which ends the frame's fixed loop.
fn spend_frame_budget(mut budget: ResMut<PhysicsBudget>, mut fixed: ResMut<Time<Fixed>>) {
    if budget.steps_this_frame > 0 && budget.frame_start.elapsed() > budget.budget {
        fixed.discard_overstep(std::time::Duration::MAX);
        budget.over = true;
        budget.last_dropped = Some(std::time::Instant::now());
    } else {
        budget.steps_this_frame += 1;
    }
}

fn within_budget(budget: Res<PhysicsBudget>) -> bool {
    !budget.over
}

/// The budget's resource and systems; every [`PhysicsSet`] runs only within it.
pub struct BudgetPlugin;

impl Plugin for BudgetPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<PhysicsBudget>()
            .configure_sets(FixedUpdate, PhysicsSet::all().run_if(within_budget))
            .add_systems(First, start_frame_budget)
            .add_systems(FixedFirst, spend_frame_budget);
    }
}
