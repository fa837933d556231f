//! The fixed-step simulation: the core stepped in [`FixedUpdate`].
//!
//! The core ([`contact_core::World`]) knows nothing of Bevy; this plugin is only a
//! sync layer, like bevy_rapier's. Of the chained [`PhysicsSet`]s of one step it
//! fills three (the others are the features': springs in `Forces`, the input
//! log in `Log`, compare lanes in `Lanes`, plots and timeline in `Record`):
//!
//! ```text
//! Gather    components → core   q, q̇ of every body entity
//! Step      World::step(h)      eq. (6) with Baumgarte's eq. (5), the selected algorithm, events
//! Writeback core → components   q, q̇, positions; g, J q̈ − d, λ, state per constraint
//! ```
//!
//! `h` and the fixed rate are [`StepSettings`]; the clock is Bevy's `Time<Virtual>`
//! (paused, or slowed from 0.01× to 4×), so `h · rate` simulated seconds pass per
//! virtual second. How much wall time the steps of one frame may take is the
//! [`budget`]'s business.
//!
//! A step expected to cost more than [`StepWorker::threshold`] (a recent one
//! did) runs on a worker thread ([`crate::app::lab::worker`]): the window keeps
//! drawing the last finished state and answering the mouse; finished steps
//! are installed at the start of each frame ([`finish_step`]), paused or not.
//!
//! A launch takes as many steps as the fixed clock owes, when nothing can
//! change between them: no mouse spring, no compare lanes, no input logged
//! at the launch, and no pause time inside them. The worker then steps on
//! as the clock owes more ([`pace`]: the physics thread), at most
//! [`most_owed`] steps behind it, until something changes, and each frame
//! installs the steps finished so far, each with its whole chain run
//! (`Writeback`, `Record`: the plots, the timeline and the trails see every
//! step), so the run is the same steps one at a time, bit for bit. Otherwise
//! a launch is one step. Before batches, a landing pile ran one step a frame
//! on the worker however cheap its steps were (issue 26: 100 balls at 0.011×
//! real time under Xvfb).

pub mod budget;
pub mod pace;
pub mod slow;

use std::sync::Arc;
use std::time::{Duration, Instant};

use bevy::ecs::schedule::SingleThreadedExecutor;
use bevy::math::DVec2;
use bevy::prelude::*;
use contact_core::StepStatus;

use super::lab::{
    ConstraintStatus, Coords, InstallSceneSet, Lab, LabBody, LabConstraint, PhysicsSet, PointMotion, Status,
    StepInFlight, StepPhase, StepSettings, coords_of, sync_constraint_rows,
};
pub use budget::{MAX_FRAME_DEBT, PhysicsBudget};

/// Where steps run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum WorkerMode {
    /// On a worker when the expected cost ([`StepWorker::expected`]) is over the threshold.
    #[default]
    Auto,
    /// Always on a worker (tests: the worker's path on every step).
    Always,
    /// Always on the drawing thread.
    Never,
}

/// When a step goes to a worker thread, and what the next one may cost.
#[derive(Resource, Debug)]
pub struct StepWorker {
    pub mode: WorkerMode,
    /// A step slower than this is launched on a worker
    /// ([`StepWorker::THRESHOLD`]).
    pub threshold: Duration,
    /// What the next step may cost: the core's wall time on the last step (its
    /// thread's, not the frame's), or the largest
    /// recent one fading by [`StepWorker::FADE`] a step. A landing pile
    /// alternates cheap steps and steps a hundred times dearer, and one of those
    /// on the drawing thread would freeze the window.
    pub expected: Duration,
    /// The core's wall time on the last step.
    pub last: Duration,
    /// The core's mean wall time a step, over about the last [`StepWorker::MEAN_STEPS`]
    /// (an exponential mean): the pace the physics alone keeps. A pile alternates
    /// cheap steps and dear ones, and the last one alone said "at most 0.09×
    /// real time" while the run went at 0.69×.
    pub mean: Duration,
    /// Wait for the step in flight at the start of each frame (tests: one
    /// step per update, as on the drawing thread).
    pub block: bool,
}

impl Default for StepWorker {
    fn default() -> Self {
        StepWorker {
            mode: WorkerMode::Auto,
            threshold: Self::THRESHOLD,
            expected: Duration::ZERO,
            last: Duration::ZERO,
            mean: Duration::ZERO,
            block: false,
        }
    }
}

impl StepWorker {
    /// Half a 60 Hz frame: a step slower than this would make the window
    /// stutter, and its thread hand-off (a spawn, a clone of the world, about
    /// 0.1 ms for a 1000-ball pile) is small beside it.
    pub const THRESHOLD: Duration = Duration::from_millis(8);

    /// The share of the expected cost kept from one step to the next: a slow
    /// step keeps the steps on the worker for a few hundred steps after it
    /// (a 0.5 s step, for 200 steps).
    pub const FADE: f64 = 0.98;

    /// Steps the mean cost ([`StepWorker::mean`]) reaches back over.
    pub const MEAN_STEPS: f64 = 200.0;

    fn took(&mut self, cost: Duration) {
        self.last = cost;
        let w = if self.mean.is_zero() { 1.0 } else { 1.0 / Self::MEAN_STEPS };
        self.mean = self.mean.mul_f64(1.0 - w) + cost.mul_f64(w);
        self.expected = cost.max(self.expected.mul_f64(Self::FADE));
    }

    /// The share of the wall clock the steps take to keep up with the clock
    /// stepping `h` at `speed` (their mean cost over `h`).
    pub fn load(&self, h: f64, speed: f64) -> f64 {
        self.mean.as_secs_f64() * speed / h.max(f64::MIN_POSITIVE)
    }

    /// The [`StepWorker::load`] above which the steps run on the physics
    /// thread however cheap each one is: on the drawing thread they share a
    /// frame with the drawing, and a software renderer leaves them too
    /// little of it (issue 47: the 100-ball pile from the drop under Xvfb,
    /// steps of 0.6–1.4 ms, played its first 2.8 s at 0.54× real time on
    /// the drawing thread, 0.69× on the physics thread).
    pub const LOAD: f64 = 0.25;

    /// Whether the next step goes to a worker, the clock stepping `h` at `speed`.
    pub fn off_thread(&self, h: f64, speed: f64) -> bool {
        match self.mode {
            WorkerMode::Auto => self.expected > self.threshold || self.load(h, speed) > Self::LOAD,
            WorkerMode::Always => true,
            WorkerMode::Never => false,
        }
    }
}

/// Steps owed to a worker at most (see the module docs), or two frames'
/// ticks where a frame is slower than this many ([`most_owed`]).
pub const MAX_BATCH: usize = 64;

/// The steps a worker may be owed at most when a frame owes `ticks`:
/// [`MAX_BATCH`], or two frames' ticks where a frame owes more. A software
/// renderer's frame of 80–100 ms owes 80–100 ticks of 1 ms; held to 64, a
/// worker that kept up lost the rest at every frame, and the 100-ball pile,
/// whose steps alone keep real time once it has landed, played at 0.69×
/// real time over its first 2.8 s and 0.74× over 3.5 s (0.81× and 0.85×
/// with two frames' ticks; issue 47).
pub fn most_owed(ticks: usize) -> usize {
    MAX_BATCH.max(2 * ticks)
}

/// The finished steps of a batch not yet installed ([`finish_step`]), and the
/// pace of the worker that steps them ([`pace`]).
#[derive(Resource, Default)]
pub struct Batch {
    steps: std::collections::VecDeque<pace::Stepped>,
    pub pace: Option<Arc<pace::Pace>>,
}

/// The name of the lab's part of a step in flight.
const MAIN: &str = "lab";

/// Coordinates the user set on body entities while a step was in flight (a
/// cue shot sets `q̇`): they win over the step's at the next step boundary.
/// `(entity, q, q̇)`, each `None` when the user left it alone.
#[derive(Resource, Debug, Default)]
pub struct UserCoords(Vec<(Entity, Option<Pair>, Option<Pair>)>);

/// A body's `q` or `q̇` as [`Coords`] holds them.
type Pair = [f64; 3];

/// The fixed-step systems and the physics budget.
pub struct PhysicsPlugin;

impl Plugin for PhysicsPlugin {
    fn build(&self, app: &mut App) {
        // One thread for the fixed steps: a step's systems are small and
        // chained, and handing them to worker threads cost more than they do
        // (a billiard step took 400 µs of wall time against the core's 23 µs
        // under Xvfb, where the software renderer keeps every core busy).
        app.edit_schedule(FixedFirst, one_thread)
            .edit_schedule(FixedPreUpdate, one_thread)
            .edit_schedule(FixedUpdate, one_thread)
            .edit_schedule(FixedPostUpdate, one_thread)
            .edit_schedule(FixedLast, one_thread);
        use PhysicsSet::*;
        app.add_plugins(budget::BudgetPlugin)
            .init_resource::<StepWorker>()
            .init_resource::<UserCoords>()
            .init_resource::<Batch>()
            .configure_sets(FixedUpdate, ((Gather, Forces, Log).run_if(launching_allowed), Step.run_if(not_waiting)))
            .configure_sets(FixedUpdate, (Lanes.run_if(not_waiting), (Writeback, Record).run_if(results_here)))
            .add_systems(
                FixedUpdate,
                (
                    gather_bodies.in_set(PhysicsSet::Gather),
                    step_world.in_set(PhysicsSet::Step),
                    (write_back_bodies, restore_user_coords, sync_constraint_rows, write_back_constraints)
                        .chain()
                        .in_set(PhysicsSet::Writeback),
                ),
            )
            .add_systems(FixedUpdate, end_launch.after(PhysicsSet::Record))
            .add_systems(PreUpdate, finish_step.after(InstallSceneSet))
            .add_systems(Last, pace::feed_worker)
            .add_systems(PostUpdate, apply_step_settings);
    }
}

/// `Gather`, `Forces`, `Log`: only for a new step (none in flight, none finishing).
fn launching_allowed(in_flight: Res<StepInFlight>) -> bool {
    !in_flight.in_flight()
}

/// `Step`, `Lanes`: not while a step is in flight and this run neither launched nor finishes it.
fn not_waiting(in_flight: Res<StepInFlight>) -> bool {
    !in_flight.waiting()
}

/// `Writeback`, `Record`: a step's results are in the lab (a step on this
/// thread, or a finish), not at a launch.
fn results_here(in_flight: Res<StepInFlight>) -> bool {
    match in_flight.phase {
        StepPhase::Finishing => true,
        StepPhase::Launching => false,
        StepPhase::Idle => !in_flight.in_flight(),
    }
}

/// `PreUpdate`: the steps a worker finished are installed, each by running
/// the step's chain once more in [`StepPhase::Finishing`] (paused or not:
/// the window shows the step it waited for). A worker that steps on by itself
/// ([`pace`]) is left running; one that answered (or died) ends the flight,
/// and a step launched in the last chain's tick ends the fixed loop's frame;
/// the next one launches from the fixed loop of this frame.
pub fn finish_step(world: &mut World) {
    let block = world.resource::<StepWorker>().block;
    let (ready, lost) = {
        let mut in_flight = world.resource_mut::<StepInFlight>();
        if !in_flight.in_flight() {
            return;
        }
        let mut ready = in_flight.ready();
        while block && !ready {
            std::thread::sleep(Duration::from_micros(100));
            ready = in_flight.ready();
        }
        (ready, ready && in_flight.take::<()>(MAIN).is_none())
    };
    // Steps are installed before every part has answered only from a worker
    // alone (compare lanes answer with the lab's step).
    let pace = world.resource::<Batch>().pace.clone().filter(|p| p.of(world.resource::<StepInFlight>()));
    let alone = pace.as_ref().is_some_and(|p| p.continuous);
    if !ready && !alone {
        return;
    }
    if let Some(pace) = &pace {
        let published = pace.drain();
        if !published.is_empty() {
            // A worker that steps on by itself: the toolbar's age is the next
            // step's, from the last one installed, not the flight's (it read
            // "step 13564 … 18.0 s" on a pile playing at real time).
            world.resource_mut::<StepInFlight>().installed = Some(Instant::now());
        }
        world.resource_mut::<Batch>().steps.extend(published);
    }
    // Each finished step in turn; the rest is dropped when one of them
    // pauses the clock (a status that stops, the user's pause). A worker
    // that died without answering is reported by the chain once what it
    // finished is in.
    let mut paused = false;
    while lost || !world.resource::<Batch>().steps.is_empty() {
        world.resource_mut::<StepInFlight>().phase = StepPhase::Finishing;
        world.run_schedule(FixedUpdate);
        paused = world.resource::<Time<Virtual>>().is_paused();
        let mut batch = world.resource_mut::<Batch>();
        if batch.steps.is_empty() || paused {
            batch.steps.clear();
            break;
        }
    }
    if ready || paused {
        world.resource_mut::<Batch>().pace = None;
        world.resource_mut::<StepInFlight>().cancel();
    } else {
        world.resource_mut::<StepInFlight>().phase = StepPhase::Idle;
    }
}

/// Runs `schedule` on the thread that runs the fixed loop.
fn one_thread(schedule: &mut Schedule) {
    schedule.set_executor(SingleThreadedExecutor::new());
}

/// Gather: the components are the truth between steps (a timeline restore or an
/// edit writes them); copy them into the core's `q`, `q̇`.
pub fn gather_bodies(lab: Option<ResMut<Lab>>, bodies: Query<(&LabBody, &Coords)>) {
    let Some(mut lab) = lab else { return };
    let Lab { world, coords_set, .. } = &mut *lab;
    coords_set.clear();
    for (body, coords) in &bodies {
        let o = world.model.bodies[body.index].offset;
        let r = o..o + coords.n;
        let moved = world.state.q[r.clone()] != *coords.q();
        if moved || world.state.qd[r.clone()] != *coords.qd() {
            world.state.q[r.clone()].copy_from_slice(coords.q());
            world.state.qd[r].copy_from_slice(coords.qd());
            coords_set.push((body.index, moved));
        }
    }
}

/// Step: one call of the core, on this thread or launched on a worker
/// ([`StepWorker`]), or the finish of a step in flight. A step that diverges
/// ([`contact_core::StepStatus::Diverged`]) is undone: the state before it is
/// kept, the clock pauses and the status bar says why (the same sentence as
/// the CLI's).
#[allow(clippy::too_many_arguments)]
pub fn step_world(
    lab: Option<ResMut<Lab>>,
    settings: Res<StepSettings>,
    mut worker: ResMut<StepWorker>,
    mut in_flight: ResMut<StepInFlight>,
    mut user: ResMut<UserCoords>,
    bodies: Query<(Entity, &LabBody, &Coords)>,
    mut virt: ResMut<Time<Virtual>>,
    mut fixed: ResMut<Time<Fixed>>,
    mut budget: ResMut<PhysicsBudget>,
    status: Option<ResMut<Status>>,
    real: Res<Time<Real>>,
    mut batch: ResMut<Batch>,
    batchable: Batchable,
) {
    let Some(mut lab) = lab else { return };
    let (stepped, report) = if in_flight.phase == StepPhase::Finishing {
        let Some((mut stepped, report, cost)) = batch.steps.pop_front() else {
            // The worker died without answering (a panic in the core): trying
            // the same step again would fail the same way, forever.
            virt.pause();
            fixed.discard_overstep(Duration::MAX);
            if let Some(mut status) = status {
                let t = lab.world.state.t;
                let msg = format!(
                    "The step from t = {t:.4} s stopped in the core (a panic on the worker thread; see the terminal). \
                     The clock is paused at the state before it."
                );
                status.warn(real.elapsed_secs_f64(), msg);
            }
            return;
        };
        worker.took(cost);
        // What the user changed while the step was in flight applies from the
        // next step: the settings and the bodies' fields, and coordinates set
        // on the entities (restored over the step's in `Writeback`).
        stepped.settings = lab.world.settings.clone();
        stepped.model.bodies.clone_from(&lab.world.model.bodies);
        let contacts = lab.world.model.contact_coefficients();
        if let Some(c) = contacts.as_ref().filter(|c| stepped.model.contact_coefficients().as_ref() != Some(*c)) {
            stepped.model.set_contact_coefficients(c);
        }
        user.0 = bodies
            .iter()
            .filter_map(|(e, b, c)| {
                let before = coords_of(&lab.world, b.index);
                let q = (c.q != before.q).then_some(c.q);
                let qd = (c.qd != before.qd).then_some(c.qd);
                (q.is_some() || qd.is_some()).then_some((e, q, qd))
            })
            .collect();
        (Some(stepped), report)
    } else if worker.off_thread(settings.h, virt.relative_speed().into()) {
        let world = lab.world.clone();
        let steps = batch_len(&lab, &fixed, &settings, &batchable, &mut budget);
        // A worker the frame waits for (tests: the steps a launch takes are
        // its own, whatever the threads' timing) or one of fixed length ends
        // when its steps are done; a paced one steps on as the clock owes.
        let continuous = batchable.steady(&lab) && !worker.block;
        let pace = Arc::new(pace::Pace::new(&in_flight, &world, settings.h, steps, continuous));
        let linger = if continuous { pace::LINGER } else { Duration::ZERO };
        let worker_pace = pace.clone();
        in_flight.launch(MAIN, move || worker_pace.run(world, linger));
        batch.pace = Some(pace);
        in_flight.phase = StepPhase::Launching;
        in_flight.off_thread = true;
        // The rest of this frame's fixed ticks would only wait: dropped, and
        // the run is slower than real time when there were any.
        budget.drop_rest(&mut fixed);
        return;
    } else {
        let before = lab.world.snapshot();
        let start = Instant::now();
        let report = lab.world.step(settings.h);
        worker.took(start.elapsed());
        in_flight.off_thread = false;
        if matches!(report.status, StepStatus::Diverged { .. }) {
            lab.world.restore(&before);
        }
        (None, report)
    };
    if let StepStatus::Diverged { constraint, cause } = &report.status {
        let name = constraint.and_then(|k| lab.constraint_names.get(k).cloned());
        let offer = offers_time_stepping(&lab.world);
        let msg = format!(
            "Diverged at t = {:.4} s{}: {cause}. The last good state is restored and the clock paused.{}",
            report.t,
            name.map(|n| format!(" (worst constraint {n})")).unwrap_or_default(),
            hint(offer)
        );
        user.0.clear();
        stop_here(&mut virt, &mut fixed, status, real.elapsed_secs_f64(), msg, offer);
        return;
    }
    // A solve that stopped short (Exact at its pivot cap): the step stands,
    // the clock pauses there, and the status bar says what stopped and where.
    if let StepStatus::Unsolved { cause } = &report.status {
        let offer = offers_time_stepping(&lab.world);
        let msg = format!("Stopped at t = {:.4} s: {cause}. The clock is paused.{}", report.t, hint(offer));
        stop_here(&mut virt, &mut fixed, status, real.elapsed_secs_f64(), msg, offer);
    }
    if let Some(stepped) = stepped {
        lab.world = stepped;
    }
    lab.report = Some(report);
}

/// What decides whether a launch may take several steps.
#[derive(bevy::ecs::system::SystemParam)]
pub struct Batchable<'w> {
    drags: Option<Res<'w, crate::app::lab::Drags>>,
    compare: Option<Res<'w, crate::app::compare::Compare>>,
    pause: Option<Res<'w, crate::app::lab::PauseAt>>,
}

impl Batchable<'_> {
    /// Nothing can change between steps: no mouse spring, no compare lanes,
    /// no input logged for the next step (see the module docs).
    pub fn steady(&self, lab: &Lab) -> bool {
        let springs = self.drags.as_ref().is_some_and(|d| d.springs().next().is_some());
        let lanes = self.compare.as_ref().is_some_and(|c| c.on || !c.lanes.is_empty());
        !springs && !lanes && lab.given.is_empty()
    }
}

/// The steps a launch takes, and the most it may take: the ticks the frame
/// still owes (this one included) and those owed while the last batch was in
/// flight, up to [`most_owed`], and never past a pause time; one when
/// something could change between them (see the module docs).
fn batch_len(
    lab: &Lab,
    fixed: &Time<Fixed>,
    settings: &StepSettings,
    b: &Batchable,
    budget: &mut PhysicsBudget,
) -> (usize, usize) {
    if !b.steady(lab) {
        // The ticks owed are dropped: the run is behind.
        budget.take_owed(0);
        return (1, 1);
    }
    let now = 1 + (fixed.overstep().as_secs_f64() / fixed.timestep().as_secs_f64().max(1e-12)) as usize;
    let most = most_owed(now + budget.owed());
    let owed = budget.take_owed(most);
    let n = (now + owed).clamp(1, most);
    let mut limit = usize::MAX;
    if let Some(p) = b.pause.as_ref().filter(|p| !p.reached)
        && let Some(at) = p.at
    {
        // Steps up to the pause time, the step that reaches it included.
        limit = ((at - lab.time()) / settings.h.max(1e-12)).ceil().max(1.0) as usize;
    }
    (n.min(limit), limit)
}

/// A step the run should not go on from: the clock pauses, the frame's other
/// ticks are dropped, and the status bar says why.
/// Whether a stop of `world` is one time-stepping would not make: the
/// event-driven scheme with friction (its impacts and rewinds on a pile miss
/// their contract or diverge, the 100-ball pile at μ = 0.3 at t = 0.393 s),
/// where time-stepping's velocity problem always has an answer
/// (Anitescu–Potra): the status bar offers it in one click.
fn offers_time_stepping(world: &contact_core::World) -> bool {
    world.settings.scheme == contact_core::Scheme::EventDriven && world.model.has_friction()
}

/// The stop message's last sentence where it offers time-stepping.
fn hint(offer: bool) -> &'static str {
    if offer {
        " Time-stepping's velocity problem with friction always has an answer: \"Use time-stepping\" switches to it."
    } else {
        ""
    }
}

/// Pauses the clock where a step stopped the run, and says why in the
/// status bar (`offer`: with the time-stepping button).
fn stop_here(
    virt: &mut Time<Virtual>,
    fixed: &mut Time<Fixed>,
    status: Option<ResMut<Status>>,
    now: f64,
    msg: String,
    offer: bool,
) {
    virt.pause();
    fixed.discard_overstep(Duration::MAX);
    if let Some(mut status) = status {
        status.warn(now, msg);
        status.offer_time_stepping = offer;
    }
}

/// After the chain: the step launched in this tick is now in flight (the
/// next ticks wait for it).
fn end_launch(mut in_flight: ResMut<StepInFlight>) {
    if in_flight.phase == StepPhase::Launching {
        in_flight.phase = StepPhase::Idle;
    }
}

/// Writeback, after the step's coordinates: those the user set while the step
/// was in flight win (see [`step_world`]).
fn restore_user_coords(mut user: ResMut<UserCoords>, mut bodies: Query<&mut Coords>) {
    for (e, q, qd) in user.0.drain(..) {
        if let Ok(mut coords) = bodies.get_mut(e) {
            coords.q = q.unwrap_or(coords.q);
            coords.qd = qd.unwrap_or(coords.qd);
        }
    }
}

/// Writeback: the new `q`, `q̇` and points into the body components.
pub fn write_back_bodies(lab: Option<Res<Lab>>, mut bodies: Query<(&LabBody, &mut Coords, &mut PointMotion)>) {
    let Some(lab) = lab else { return };
    for (body, mut coords, mut motion) in &mut bodies {
        *coords = coords_of(&lab.world, body.index);
        let v = lab.world.model.velocity(body.index, &lab.world.state);
        motion.previous = motion.current;
        motion.current = lab.position(body.index);
        motion.velocity = DVec2::new(v.x, v.y);
    }
}

/// Writeback: `g`, `J q̈ − d`, `λ` and the state of every constraint.
pub fn write_back_constraints(lab: Option<Res<Lab>>, mut constraints: Query<(&LabConstraint, &mut ConstraintStatus)>) {
    let Some(lab) = lab else { return };
    let Some(report) = &lab.report else { return };
    for (c, mut status) in &mut constraints {
        if let Some(s) = ConstraintStatus::from_report(&lab.world, report, c.index) {
            *status = s;
        }
    }
}

/// Keeps `Time<Fixed>` and `Time<Virtual>` on the user's settings.
fn apply_step_settings(settings: Res<StepSettings>, mut fixed: ResMut<Time<Fixed>>, mut virt: ResMut<Time<Virtual>>) {
    if !settings.is_changed() {
        return;
    }
    let step = std::time::Duration::from_secs_f64(settings.timestep().max(1e-6));
    if fixed.timestep() != step {
        fixed.set_timestep(step);
    }
    let speed = settings.speed.clamp(0.01, 4.0);
    if (virt.relative_speed_f64() - speed).abs() > 1e-12 {
        virt.set_relative_speed_f64(speed);
    }
}
