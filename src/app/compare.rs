//! Compare mode (key `C`, the toolbar's "⇶ Compare"): the state on screen is
//! forked into one lane per chosen method ([`contact_core::Method`]: the
//! paper's event-driven scheme with each algorithm, or time-stepping), and the
//! lanes take every step the lab takes, on the same inputs: each step's entries
//! of the input log ([`Lab::given`]) — springs, dragged forces, cue shots,
//! settings but the scheme and the algorithm, `h` — are given to every lane
//! before it steps.
//!
//! The world view draws the lanes as ghosts in their method's colour (a
//! body where the lab has it, within a pixel, is not drawn over it), the
//! plots overlay their series, and the Compare panel (docked above the view) reads out, per lane,
//! `‖q − q_Exact‖`, the largest penetration since the fork, the energy, the
//! handled rows and the solves of the last step. "Keep" makes a lane the lab's
//! run and leaves compare mode.
//!
//! Forks: from the state shown (which may be a timeline instant: scrub, then
//! fork — or "run from here with X" in the timeline bar adds one lane there), or
//! from the scene's start (a reset, then the fork). A restore or a reset while
//! comparing forks the lanes again from the new state.

use std::collections::HashMap;

use bevy::math::{DVec2, Isometry2d};
use bevy::prelude::*;
use contact_core::{ConstraintKind, Lane, Method};
use egui_plot::PlotPoint;

use super::lab::gizmo::f;
use super::lab::series::resolve;
use super::lab::{
    Drags, FrameSet, InputClaims, InstallSceneSet, Lab, LabAction, PhysicsSet, StateJumped, Status, StepInFlight,
    StepPhase, StepSettings, ViewTransform, palette, state_jumped,
};

/// Samples a lane keeps per series before it halves them.
const SERIES_CAP: usize = 20_000;

/// One lane of compare mode and what the plots read from it.
pub struct AppLane {
    pub lane: Lane,
    /// `t` of the fork.
    pub from: f64,
    /// `(t, value)` of each series the plots show, since the fork.
    pub series: HashMap<String, Vec<PlotPoint>>,
}

impl AppLane {
    fn new(lab: &Lab, method: Method, h: f64, drags: Option<&Drags>) -> Self {
        let springs = drags.map(Drags::core_springs).unwrap_or_default();
        AppLane { lane: Lane::fork(&lab.world, method, h, &springs), from: lab.time(), series: HashMap::new() }
    }

    fn record(&mut self, wanted: &[String]) {
        let (world, Some(report)) = (&self.lane.world, &self.lane.report) else { return };
        for name in wanted {
            let Some(source) = resolve(world, name) else { continue };
            let points = self.series.entry(name.clone()).or_default();
            if points.len() >= SERIES_CAP {
                let kept: Vec<PlotPoint> = points.iter().step_by(2).copied().collect();
                *points = kept;
            }
            let value = source.value(world, report);
            // The mouse's work and friction's are cumulative: the last sample plus this step's.
            let value = if source.is_cumulative() { points.last().map_or(0.0, |p| p.y) + value } else { value };
            points.push(PlotPoint::new(world.state.t, value));
        }
    }
}

/// Compare mode's lanes and choices.
#[derive(Resource, Default)]
pub struct Compare {
    pub on: bool,
    pub lanes: Vec<AppLane>,
    /// Methods that get a lane at a fork (the lab's own is the main run).
    pub chosen: Vec<Method>,
    /// Series names the plots show now: the lanes record those.
    pub wanted: Vec<String>,
    generation: Option<u64>,
    /// The lab's state jumped (a restore, a reset): fork the lanes again.
    refork: bool,
    /// The lab's own largest penetration since the fork (m).
    pub main_penetration: f64,
}

impl Compare {
    /// The methods forked when none were chosen: all five.
    fn choice(&self) -> Vec<Method> {
        if self.chosen.is_empty() { Method::ALL.to_vec() } else { self.chosen.clone() }
    }

    /// The lane of `method`, if any.
    pub fn lane(&self, method: Method) -> Option<&AppLane> {
        self.lanes.iter().find(|l| l.lane.method() == method)
    }
}

/// What the user asks of compare mode.
#[derive(Message, Clone, Debug, PartialEq)]
pub enum CompareAction {
    Toggle,
    /// Fork the chosen methods from the state shown (`false`) or the scene's start.
    Fork {
        from_start: bool,
    },
    /// Add one lane at the state shown (the timeline's "run from here with X").
    Branch(Method),
    Remove(usize),
    /// Make lane `i` the lab's run and leave compare mode.
    Keep(usize),
    Leave,
}

pub struct ComparePlugin {
    /// Fork the lanes as soon as the first scene is in (`--compare`).
    pub start: bool,
}

impl Plugin for ComparePlugin {
    fn build(&self, app: &mut App) {
        if self.start {
            app.add_systems(Update, start_when_installed.before(apply_actions));
        }
        app.init_resource::<Compare>()
            .add_message::<CompareAction>()
            .add_systems(FixedUpdate, step_lanes.in_set(PhysicsSet::Lanes))
            // The refork runs before this frame's fixed steps: the lanes start at
            // the state the jump left (t = 0 after a reset), not a few steps on.
            .add_systems(PreUpdate, (follow_jumps, refork).chain().after(InstallSceneSet))
            .add_systems(Update, (keyboard, apply_actions).chain().in_set(FrameSet::Prepare))
            .add_systems(
                Update,
                draw_ghosts.in_set(FrameSet::Overlay).run_if(resource_exists::<bevy::gizmos::config::GizmoConfigStore>),
            );
    }
}

/// `--compare`: the first frame with a scene forks the lanes (once).
fn start_when_installed(lab: Option<Res<Lab>>, mut done: Local<bool>, mut actions: MessageWriter<CompareAction>) {
    if !*done && lab.is_some() {
        *done = true;
        actions.write(CompareAction::Toggle);
    }
}

fn keyboard(
    keys: Option<Res<ButtonInput<KeyCode>>>,
    claims: Option<Res<InputClaims>>,
    mut actions: MessageWriter<CompareAction>,
) {
    let Some(keys) = keys else { return };
    if claims.is_some_and(|c| c.keyboard) {
        return;
    }
    if keys.just_pressed(KeyCode::KeyC) {
        actions.write(CompareAction::Toggle);
    }
}

/// Forks one lane per chosen method other than the lab's from its state now.
fn fork(world: &mut World) {
    let main = world.get_resource::<Lab>().map(|l| Method::of(&l.world.settings));
    let choice: Vec<Method> = world.resource::<Compare>().choice().into_iter().filter(|&m| Some(m) != main).collect();
    fork_lanes(world, &choice);
}

/// Compare mode on, with one lane per method of `methods` from the lab's state now.
fn fork_lanes(world: &mut World, methods: &[Method]) {
    let h = world.resource::<StepSettings>().h;
    let Some(lab) = world.get_resource::<Lab>() else { return };
    let drags = world.get_resource::<Drags>();
    let lanes: Vec<AppLane> = methods.iter().map(|&m| AppLane::new(lab, m, h, drags)).collect();
    let generation = lab.generation;
    // Lanes fork from the state shown: a step in flight from it is taken again, with them.
    world.resource_mut::<StepInFlight>().cancel();
    let mut compare = world.resource_mut::<Compare>();
    compare.main_penetration = 0.0;
    compare.lanes = lanes;
    compare.generation = Some(generation);
    compare.on = true;
}

/// After a jump (a restore, a reset): the same lanes, or the chosen ones after a
/// fork from the start, from the new state.
fn refork(world: &mut World) {
    if std::mem::take(&mut world.resource_mut::<Compare>().refork) {
        let compare = world.resource::<Compare>();
        let lanes: Vec<Method> = compare.lanes.iter().map(|l| l.lane.method()).collect();
        if lanes.is_empty() { fork(world) } else { fork_lanes(world, &lanes) }
    }
}

fn apply_actions(world: &mut World) {
    let actions: Vec<CompareAction> = world.resource_mut::<Messages<CompareAction>>().drain().collect();
    let now = world.resource::<Time<Real>>().elapsed_secs_f64();
    for action in actions {
        let say = |world: &mut World, text: String| {
            if let Some(mut status) = world.get_resource_mut::<Status>() {
                status.say(now, text);
            }
        };
        match action {
            CompareAction::Toggle if world.resource::<Compare>().on => leave(world),
            CompareAction::Toggle | CompareAction::Fork { from_start: false } => {
                fork(world);
                let n = world.resource::<Compare>().lanes.len();
                say(world, format!("Compare: {n} lanes forked at the state shown"));
            }
            CompareAction::Fork { from_start: true } => {
                // The reset's jump forks the chosen lanes (follow_jumps), from
                // the start; the clock runs on as it ran (a reset pauses).
                let playing = !world.resource::<Time<Virtual>>().is_paused();
                let mut compare = world.resource_mut::<Compare>();
                compare.on = true;
                compare.lanes.clear();
                world.write_message(LabAction::Reset);
                world.write_message(LabAction::SetPaused(!playing));
            }
            CompareAction::Branch(a) => {
                if !world.resource::<Compare>().on {
                    fork_lanes(world, &[]);
                }
                let h = world.resource::<StepSettings>().h;
                let Some(lab) = world.get_resource::<Lab>() else { continue };
                let lane = AppLane::new(lab, a, h, world.get_resource::<Drags>());
                let t = lab.time();
                world.resource_mut::<StepInFlight>().cancel();
                let mut compare = world.resource_mut::<Compare>();
                compare.lanes.retain(|l| l.lane.method() != a);
                compare.lanes.push(lane);
                say(world, format!("Compare: a {} lane from t = {t:.4} s", a.label()));
            }
            CompareAction::Remove(i) => {
                let mut compare = world.resource_mut::<Compare>();
                if i < compare.lanes.len() {
                    compare.lanes.remove(i);
                }
            }
            CompareAction::Keep(i) => keep(world, i),
            CompareAction::Leave => leave(world),
        }
    }
}

fn leave(world: &mut World) {
    let mut compare = world.resource_mut::<Compare>();
    compare.on = false;
    compare.lanes.clear();
}

/// Lane `i`'s world becomes the lab's (state, handled set, settings and forces).
fn keep(world: &mut World, i: usize) {
    let Some(kept) = world.resource_mut::<Compare>().lanes.get(i).map(|l| l.lane.world.clone()) else { return };
    let method = Method::of(&kept.settings);
    if let Some(mut lab) = world.get_resource_mut::<Lab>() {
        lab.world = kept;
        lab.report = None;
    }
    leave(world);
    state_jumped(world, StateJumped { new_scene: false, reset: false });
    let now = world.resource::<Time<Real>>().elapsed_secs_f64();
    if let Some(mut status) = world.get_resource_mut::<Status>() {
        status.say(now, format!("Compare: kept the {} lane", method.label()));
    }
}

/// The name of the lanes' part of a step in flight.
const LANES: &str = "lanes";

/// [`PhysicsSet::Lanes`], after the lab's step: every lane is given the step's
/// inputs ([`Lab::given`]) and takes the step. When the lab's step went to a
/// worker ([`StepPhase::Launching`]), the lanes step on a worker of their own,
/// beside it, and are installed with it ([`StepPhase::Finishing`]), unless the
/// lab's step diverged.
pub fn step_lanes(lab: Option<Res<Lab>>, mut compare: ResMut<Compare>, mut in_flight: ResMut<StepInFlight>) {
    let Some(lab) = lab else { return };
    if !compare.on || compare.generation != Some(lab.generation) {
        return;
    }
    match in_flight.phase {
        StepPhase::Launching => {
            let mut lanes: Vec<Lane> = compare
                .lanes
                .iter()
                .filter(|l| l.lane.world.steps == lab.world.steps)
                .map(|l| l.lane.clone())
                .collect();
            let given = lab.given.clone();
            in_flight.launch(LANES, move || {
                for lane in &mut lanes {
                    for input in &given {
                        lane.give(input);
                    }
                    lane.step();
                }
                lanes
            });
            return;
        }
        StepPhase::Finishing => {
            let stepped = in_flight.take::<Vec<Lane>>(LANES).unwrap_or_default();
            record_penetration(&lab, &mut compare);
            let Compare { lanes, wanted, .. } = &mut *compare;
            for lane in stepped {
                // A lane removed meanwhile is dropped; if the lab's step diverged
                // and was undone, so are the lanes'.
                let same = lanes.iter_mut().find(|l| l.lane.method() == lane.method());
                if let Some(l) = same.filter(|_| lane.world.steps == lab.world.steps) {
                    l.lane = lane;
                    l.record(wanted);
                }
            }
            return;
        }
        StepPhase::Idle => {}
    }
    record_penetration(&lab, &mut compare);
    let Compare { lanes, wanted, .. } = &mut *compare;
    for l in lanes.iter_mut() {
        // The lab did not step (it diverged and was restored): neither do the lanes.
        if l.lane.world.steps + 1 != lab.world.steps {
            continue;
        }
        for input in &lab.given {
            l.lane.give(input);
        }
        l.lane.step();
        l.record(wanted);
    }
}

/// The lab's own largest penetration since the fork, with its last step's.
fn record_penetration(lab: &Lab, compare: &mut Compare) {
    if let Some(r) = &lab.report {
        let constraints = &lab.world.model.constraints;
        let inequalities = r.g.iter().zip(constraints).filter(|(_, c)| c.kind == ConstraintKind::Inequality);
        let p = inequalities.map(|(g, _)| -g).fold(compare.main_penetration, f64::max);
        compare.main_penetration = p;
    }
}

/// A restore or a reset forks the lanes again from the new state ([`refork`],
/// next in `PreUpdate`); a new scene ends compare mode.
fn follow_jumps(
    mut jumped: MessageReader<StateJumped>,
    mut compare: ResMut<Compare>,
    mut status: ResMut<Status>,
    real: Res<Time<Real>>,
) {
    let mut any = false;
    for j in jumped.read() {
        if j.new_scene {
            if compare.on {
                // Said, not silent: edit mode and the scene picker both end it.
                status.say(real.elapsed_secs_f64(), "Compare mode left: a new scene has one lane (C compares again)");
            }
            compare.on = false;
            compare.lanes.clear();
            return;
        }
        any = true;
    }
    compare.refork |= any && compare.on;
}

/// The lanes' bodies as outlines in their method's colour, over the lab's.
fn draw_ghosts(mut g: Gizmos, compare: Res<Compare>, view: Res<ViewTransform>, lab: Option<Res<Lab>>) {
    if !compare.on {
        return;
    }
    let px = |n: f64| view.world_len(n);
    // A lane's body where the lab has it (within a pixel) is not drawn: its
    // outline would only cover the lab's own body (a thin ladder, a small
    // box in a small window), and the table says the runs agree.
    let one_px = px(1.0);
    let main = lab.as_deref().map(|l| &l.world);
    for l in &compare.lanes {
        let color = palette::bevy_a(palette::method(l.lane.method()), 0.9);
        let w = &l.lane.world;
        for (b, body) in w.model.bodies.iter().enumerate() {
            if !body.is_dynamic() {
                continue;
            }
            let p = w.model.position(b, &w.state);
            let p = DVec2::new(p.x, p.y);
            // A box's or a polygon's ghost is its outline where the lane has it.
            let corners = body.shape().map(|s| s.corners()).unwrap_or_default();
            let placed = |world: &contact_core::World, r: &nalgebra::Vector2<f64>| {
                let p = world.model.position(b, &world.state);
                let t = body.angle(&world.state.q, &world.state.qd).0;
                let c = contact_core::body::turned(t, *r);
                DVec2::new(p.x + c.x, p.y + c.y)
            };
            // A particle is probed at its point, a shape at its corners.
            let centre = [nalgebra::Vector2::zeros()];
            let probe = if corners.is_empty() { &centre[..] } else { &corners[..] };
            let same = main
                .filter(|m| m.model.bodies.len() == w.model.bodies.len())
                .is_some_and(|m| probe.iter().all(|r| (placed(m, r) - placed(w, r)).length() < one_px));
            if same {
                continue;
            }
            if !corners.is_empty() {
                g.linestrip_2d(corners.iter().chain(corners.first()).map(|r| f(placed(w, r))), color);
                continue;
            }
            // A particle's ghost is a ring around it, wider than the particle
            // itself (6 px), so the lab's own particle stays visible inside.
            let r = if body.radius > 0.0 { body.radius } else { px(10.0) };
            g.circle_2d(Isometry2d::from_translation(f(p)), r as f32, color).resolution(40);
        }
    }
}
