//! The fixed-step simulation: bodies and constraints as entities, the core stepped
//! in [`FixedUpdate`].
//!
//! The core ([`contact_core::World`]) knows nothing of Bevy; this plugin is only a
//! sync layer, like bevy_rapier's: each fixed step runs the chained sets
//!
//! ```text
//! Gather    components → core   q, q̇ of every body entity; mouse forces
//! Step      World::step(h)      eq. (6), the selected algorithm, events
//! Writeback core → components   q, q̇, positions; g, J q̈ − d, λ, state per constraint
//! Record    history, timeline   plots and the snapshot ring read the step's report
//! ```
//!
//! `h` and the fixed rate are [`StepSettings`]; the clock is Bevy's `Time<Virtual>`
//! (paused, or slowed from 0.01× to 4×), so `h · rate` simulated seconds pass per
//! virtual second.
//!
//! When the steps a frame owes take longer than [`PhysicsBudget::DEFAULT`] of wall
//! time, the rest of the frame's steps are dropped (the fixed clock's overstep
//! is discarded): the simulation runs slower than real time, the status says so,
//! and the window keeps drawing and answering instead of freezing on a backlog.

use bevy::math::DVec2;
use bevy::prelude::*;
use contact_core::scene::{PlotPreset, Scene, ViewBox};
use contact_core::{Algorithm, BodyKind, Geometry, Snapshot, StepReport, StepStatus, World};

/// The chained sets of one fixed step, in order.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PhysicsSet {
    /// Copy the body components into the core's state; compute the mouse forces.
    Gather,
    /// `World::step(h)`, events included.
    Step,
    /// Copy the new state and the constraint status back into the components.
    Writeback,
    /// Plots and timeline record the step.
    Record,
}

/// The core world and what the app knows of the scene it came from.
#[derive(Resource)]
pub struct Lab {
    /// The mechanics; its state is the components' between `Gather` and `Writeback`.
    pub world: World,
    /// The state at load, for Reset.
    pub initial: Snapshot,
    pub scene: SceneInfo,
    /// The report of the last step (`None` before the first).
    pub report: Option<StepReport>,
    /// Body and constraint names, indexed like the model's.
    pub body_names: Vec<String>,
    pub constraint_names: Vec<String>,
    /// Bumped each time a scene is installed (systems reset their caches on change).
    pub generation: u64,
    /// The model's rows version the constraint entities match
    /// ([`contact_core::Model::rows_version`]).
    pub rows_version: u64,
    /// Bodies whose coordinates were set from their components (not by the
    /// core) before this step, and whether their positions changed too (or
    /// only their velocities, as a cue shot does): the input log records them.
    pub coords_set: Vec<(usize, bool)>,
}

/// What a scene file says about showing it.
#[derive(Clone, Debug)]
pub struct SceneInfo {
    pub name: String,
    pub description: String,
    pub view: ViewBox,
    pub plots: Vec<PlotPreset>,
    /// The file's step `h`.
    pub dt: f64,
    /// Where it was read from (for the title and hot reload).
    pub path: Option<std::path::PathBuf>,
    /// Open with the cue tool armed ([`super::cue`]).
    pub cue: bool,
}

impl Lab {
    pub fn new(scene: Scene, path: Option<std::path::PathBuf>) -> Self {
        let world = scene.world;
        let rows_version = world.model.rows_version();
        Lab {
            initial: world.snapshot(),
            body_names: world.model.bodies.iter().map(|b| b.name.clone()).collect(),
            constraint_names: world.model.constraints.iter().map(|c| c.name.clone()).collect(),
            world,
            scene: SceneInfo {
                name: scene.name,
                description: scene.description,
                view: scene.view,
                plots: scene.plots,
                dt: scene.dt,
                path,
                cue: scene.cue,
            },
            report: None,
            generation: 0,
            rows_version,
            coords_set: Vec::new(),
        }
    }

    /// Simulated time now.
    pub fn time(&self) -> f64 {
        self.world.state.t
    }

    /// Position of body `b` now.
    pub fn position(&self, b: usize) -> DVec2 {
        let p = self.world.model.position(b, &self.world.state);
        DVec2::new(p.x, p.y)
    }
}

/// Step size and rate, set from the controls panel.
#[derive(Resource, Clone, Debug)]
pub struct StepSettings {
    /// `h`, in s.
    pub h: f64,
    /// Fixed steps per second of virtual time.
    pub rate_hz: f64,
    /// Keep `rate = 1/h`, so the simulation runs in real time at speed 1×.
    pub lock_rate: bool,
    /// `Time<Virtual>` relative speed, 0.01…4.
    pub speed: f64,
}

impl Default for StepSettings {
    fn default() -> Self {
        StepSettings { h: 1e-3, rate_hz: 1000.0, lock_rate: true, speed: 1.0 }
    }
}

impl StepSettings {
    /// The fixed timestep in virtual seconds.
    pub fn timestep(&self) -> f64 {
        if self.lock_rate { self.h } else { 1.0 / self.rate_hz }
    }
}

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

/// A body of the model: `index` into `model.bodies`.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct LabBody {
    pub index: usize,
}

/// The generalized coordinates of one body and their velocities (0, 1 or 2 of
/// them: fixed, bead `u`, particle `(x, y)`), at the last step boundary.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq)]
pub struct Coords {
    pub q: [f64; 2],
    pub qd: [f64; 2],
    /// Number of coordinates used.
    pub n: usize,
}

impl Coords {
    pub fn q(&self) -> &[f64] {
        &self.q[..self.n]
    }
    pub fn qd(&self) -> &[f64] {
        &self.qd[..self.n]
    }
}

/// The body's point at the last two step boundaries, for interpolation.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq)]
pub struct PointMotion {
    pub previous: DVec2,
    pub current: DVec2,
    pub velocity: DVec2,
}

impl PointMotion {
    /// The point a fraction `alpha ∈ [0, 1]` of the way from the previous step to the current.
    pub fn at(&self, alpha: f64) -> DVec2 {
        self.previous.lerp(self.current, alpha)
    }
}

/// A constraint of the model: `index` into `model.constraints`.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct LabConstraint {
    pub index: usize,
}

/// Where a constraint stands after the last step.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ConstraintState {
    /// `g > tol`: not touching.
    #[default]
    Inactive,
    /// Touching (`g ≤ tol`) but not in `E ∪ F⁺`.
    ActiveNotHandled,
    /// In `E ∪ F⁺` for the last solve.
    Handled,
    /// `g < −tol`, and not handled: the body is through the wall.
    Violated,
}

impl ConstraintState {
    pub fn label(self) -> &'static str {
        match self {
            ConstraintState::Inactive => "inactive",
            ConstraintState::ActiveNotHandled => "active, not handled",
            ConstraintState::Handled => "handled",
            ConstraintState::Violated => "violated",
        }
    }
}

/// `g_k`, `J_k q̈ − d_k`, `λ_k` and the state of a constraint after the last step.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq)]
pub struct ConstraintStatus {
    pub g: f64,
    pub tendency: f64,
    pub lambda: f64,
    pub handled: bool,
    pub state: ConstraintState,
}

/// Marks everything spawned for the current scene (despawned when another loads).
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct SceneEntity;

/// A request to install a scene, replacing the current one.
#[derive(Message, Clone)]
pub struct InstallScene {
    pub scene: Box<Scene>,
    pub path: Option<std::path::PathBuf>,
    /// Keep the algorithm chosen in the app (a hot reload) rather than the file's.
    pub keep_algorithm: bool,
}

/// Sent when the state jumped (new scene, reset, timeline restore): caches must follow.
#[derive(Message, Clone, Copy, Debug)]
pub struct StateJumped {
    /// Another scene (or the same file reloaded) was installed.
    pub new_scene: bool,
    /// Back to the scene's start.
    pub reset: bool,
}

/// The [`PreUpdate`] set that installs requested scenes.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct InstallSceneSet;

/// The simulation: resources, components and the fixed-step systems.
pub struct PhysicsPlugin;

impl Plugin for PhysicsPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<StepSettings>()
            .init_resource::<PhysicsBudget>()
            .add_message::<InstallScene>()
            .add_message::<StateJumped>()
            .configure_sets(
                FixedUpdate,
                (PhysicsSet::Gather, PhysicsSet::Step, PhysicsSet::Writeback, PhysicsSet::Record)
                    .chain()
                    .run_if(within_budget),
            )
            .add_systems(First, start_frame_budget)
            .add_systems(FixedFirst, spend_frame_budget)
            .add_systems(
                FixedUpdate,
                (
                    gather_bodies.in_set(PhysicsSet::Gather),
                    step_world.in_set(PhysicsSet::Step),
                    (write_back_bodies, sync_constraint_rows, write_back_constraints)
                        .chain()
                        .in_set(PhysicsSet::Writeback),
                ),
            )
            .add_systems(PreUpdate, install_scenes.in_set(InstallSceneSet))
            .add_systems(PostUpdate, apply_step_settings);
    }
}

/// Installs `scene` now: the [`Lab`] resource and one entity per body and constraint.
pub fn install_scene(world: &mut bevy::ecs::world::World, scene: Scene, path: Option<std::path::PathBuf>) {
    install(world, InstallScene { scene: Box::new(scene), path, keep_algorithm: false });
}

fn install(world: &mut bevy::ecs::world::World, request: InstallScene) {
    let previous = world.remove_resource::<Lab>();
    let mut lab = Lab::new(*request.scene, request.path);
    if let Some(prev) = &previous {
        lab.generation = prev.generation + 1;
        if request.keep_algorithm {
            lab.world.settings.algorithm = prev.world.settings.algorithm;
        }
    }
    let old: Vec<Entity> = world.query_filtered::<Entity, With<SceneEntity>>().iter(world).collect();
    for e in old {
        world.despawn(e);
    }
    for (i, body) in lab.world.model.bodies.iter().enumerate() {
        let coords = coords_of(&lab.world, i);
        let p = lab.position(i);
        let v = lab.world.model.velocity(i, &lab.world.state);
        world.spawn((
            Name::new(body.name.clone()),
            SceneEntity,
            LabBody { index: i },
            coords,
            PointMotion { previous: p, current: p, velocity: DVec2::new(v.x, v.y) },
        ));
    }
    let g = lab.world.model.constraint_values(&lab.world.state.q);
    for (k, c) in lab.world.model.constraints.iter().enumerate() {
        let status = initial_status(g[k], c.is_inequality(), lab.world.settings.tol.active);
        world.spawn((Name::new(c.name.clone()), SceneEntity, LabConstraint { index: k }, status));
    }
    {
        let mut settings = world.get_resource_or_insert_with(StepSettings::default);
        settings.h = lab.scene.dt;
        if settings.lock_rate {
            settings.rate_hz = 1.0 / lab.scene.dt;
        }
    }
    world.insert_resource(lab);
    world.write_message(StateJumped { new_scene: true, reset: false });
}

fn initial_status(g: f64, inequality: bool, tol: f64) -> ConstraintStatus {
    let handled = !inequality;
    ConstraintStatus { g, tendency: 0.0, lambda: 0.0, handled, state: constraint_state(g, handled, tol) }
}

/// Handled (in E ∪ F⁺), else violated, active (|g| ≤ tol) or inactive.
fn constraint_state(g: f64, handled: bool, tol: f64) -> ConstraintState {
    if handled {
        ConstraintState::Handled
    } else if g < -tol {
        ConstraintState::Violated
    } else if g <= tol {
        ConstraintState::ActiveNotHandled
    } else {
        ConstraintState::Inactive
    }
}

/// Body `b`'s coordinates in the core's state.
pub fn coords_of(world: &World, b: usize) -> Coords {
    let body = &world.model.bodies[b];
    let n = body.dofs();
    let mut c = Coords { n, ..default() };
    for i in 0..n {
        c.q[i] = world.state.q[body.offset + i];
        c.qd[i] = world.state.qd[body.offset + i];
    }
    c
}

fn install_scenes(world: &mut bevy::ecs::world::World) {
    let requests: Vec<InstallScene> = world.resource_mut::<Messages<InstallScene>>().drain().collect();
    if let Some(last) = requests.into_iter().last() {
        install(world, last);
    }
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

/// Step: one call of the core. A step that diverges
/// ([`contact_core::StepStatus::Diverged`]) is undone: the state before it is
/// restored, the clock pauses and the status bar says why (the same sentence
/// as the CLI's).
pub fn step_world(
    lab: Option<ResMut<Lab>>,
    settings: Res<StepSettings>,
    mut virt: ResMut<Time<Virtual>>,
    mut fixed: ResMut<Time<Fixed>>,
    status: Option<ResMut<super::control::Status>>,
    real: Res<Time<Real>>,
) {
    let Some(mut lab) = lab else { return };
    let before = lab.world.snapshot();
    let report = lab.world.step(settings.h);
    if let StepStatus::Diverged { constraint, cause } = &report.status {
        let name = constraint.and_then(|k| lab.constraint_names.get(k).cloned());
        let msg = format!(
            "Diverged at t = {:.4} s{}: {cause}. The last good state is restored and the clock paused.",
            report.t,
            name.map(|n| format!(" (worst constraint {n})")).unwrap_or_default()
        );
        lab.world.restore(&before);
        virt.pause();
        fixed.discard_overstep(std::time::Duration::MAX);
        if let Some(mut status) = status {
            status.warn(real.elapsed_secs_f64(), msg);
        }
        return;
    }
    lab.report = Some(report);
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

/// Scenes with contacts by proximity: rows come and go with the broad phase.
/// Keeps one constraint entity per row, matched by name (a row that stays keeps
/// its entity, hover and ticks), and the names the panels show.
pub fn sync_constraint_rows(world: &mut bevy::ecs::world::World) {
    let Some(lab) = world.get_resource::<Lab>() else { return };
    let version = lab.world.model.rows_version();
    if version == lab.rows_version {
        return;
    }
    let model = &lab.world.model;
    let names: Vec<String> = model.constraints.iter().map(|c| c.name.clone()).collect();
    let ineq: Vec<bool> = model.constraints.iter().map(|c| c.is_inequality()).collect();
    let g = model.constraint_values(&lab.world.state.q);
    let tol = lab.world.settings.tol.active;
    let position: std::collections::HashMap<&str, usize> =
        names.iter().enumerate().map(|(k, n)| (n.as_str(), k)).collect();
    let mut seen = vec![false; names.len()];
    let mut gone = Vec::new();
    let mut q = world.query::<(Entity, &Name, &mut LabConstraint)>();
    for (e, name, mut c) in q.iter_mut(world) {
        match position.get(name.as_str()) {
            Some(&k) => {
                c.index = k;
                seen[k] = true;
            }
            None => gone.push(e),
        }
    }
    for e in gone {
        world.despawn(e);
    }
    for k in (0..names.len()).filter(|&k| !seen[k]) {
        let status = initial_status(g[k], ineq[k], tol);
        world.spawn((Name::new(names[k].clone()), SceneEntity, LabConstraint { index: k }, status));
    }
    let mut lab = world.resource_mut::<Lab>();
    lab.constraint_names = names;
    lab.rows_version = version;
}

/// Writeback: `g`, `J q̈ − d`, `λ` and the state of every constraint.
pub fn write_back_constraints(lab: Option<Res<Lab>>, mut constraints: Query<(&LabConstraint, &mut ConstraintStatus)>) {
    let Some(lab) = lab else { return };
    let Some(report) = &lab.report else { return };
    let tol = lab.world.settings.tol.active;
    for (c, mut status) in &mut constraints {
        let k = c.index;
        let (Some(&g), Some(&handled)) = (report.g.get(k), report.handled.get(k)) else { continue };
        let state = constraint_state(g, handled, tol);
        *status = ConstraintStatus { g, tendency: report.tendency[k], lambda: report.lambda[k], handled, state };
    }
}

/// Syncs every body entity with the core's state after a jump (reset, restore):
/// both points of the interpolation go to the new state.
pub fn sync_components_from_core(world: &mut bevy::ecs::world::World) {
    sync_constraint_rows(world);
    let Some(lab) = world.get_resource::<Lab>() else { return };
    let core = lab.world.clone();
    let report = lab.report.clone();
    let mut q = world.query::<(&LabBody, &mut Coords, &mut PointMotion)>();
    for (body, mut coords, mut motion) in q.iter_mut(world) {
        *coords = coords_of(&core, body.index);
        let p = core.model.position(body.index, &core.state);
        let v = core.model.velocity(body.index, &core.state);
        let p = DVec2::new(p.x, p.y);
        *motion = PointMotion { previous: p, current: p, velocity: DVec2::new(v.x, v.y) };
    }
    let g = core.model.constraint_values(&core.state.q);
    let mut cq = world.query::<(&LabConstraint, &mut ConstraintStatus)>();
    for (c, mut status) in cq.iter_mut(world) {
        let k = c.index;
        let ineq = core.model.constraints[k].is_inequality();
        let mut s = initial_status(g[k], ineq, core.settings.tol.active);
        if let Some(r) = &report {
            if r.g.len() == g.len() {
                s.lambda = r.lambda[k];
                s.tendency = r.tendency[k];
            }
        }
        if core.active_set.handled.get(k).copied().unwrap_or(false) {
            s.handled = true;
            s.state = ConstraintState::Handled;
        }
        *status = s;
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

/// The algorithm a key `1`–`4` selects.
pub fn algorithm_for_digit(d: usize) -> Option<Algorithm> {
    Algorithm::ALL.get(d.checked_sub(1)?).copied()
}

/// A short name of a constraint's geometry, for the table.
pub fn geometry_label(world: &World, k: usize) -> &'static str {
    let c = &world.model.constraints[k];
    match c.geometry {
        Geometry::HalfPlane { .. } => "half-plane",
        Geometry::Contact { .. } => "contact",
        Geometry::Distance { .. } => {
            if c.is_inequality() {
                "string"
            } else {
                "rod"
            }
        }
        Geometry::CoordBound { upper, .. } => {
            if upper {
                "upper bound"
            } else {
                "lower bound"
            }
        }
    }
}

/// Whether body `b` is drawn as a ball (radius > 0) or a point.
pub fn is_round(world: &World, b: usize) -> bool {
    world.model.bodies[b].radius > 0.0
}

/// Whether body `b` can move.
pub fn is_dynamic(world: &World, b: usize) -> bool {
    !matches!(world.model.bodies[b].kind, BodyKind::Fixed { .. })
}
