//! The entities follow the core: installing a scene (one entity per body and
//! constraint), the rows of contacts by proximity coming and going, and the
//! one function every feature calls when the state jumped ([`state_jumped`]:
//! a reset, a timeline restore, a kept compare lane; it cancels a step in flight).

use std::collections::HashMap;

use bevy::ecs::world::World;
use bevy::math::DVec2;
use bevy::prelude::*;
use contact_core::scene::Scene;

use super::components::{
    ConstraintState, ConstraintStatus, Coords, Coulomb, LabBody, LabConstraint, PointMotion, SceneEntity, coords_of,
};
use super::messages::{InstallScene, Opened, StateJumped};
use super::worker::StepInFlight;
use super::world::{Lab, StepSettings};

/// Installs `scene` now, opened as it says: the [`Lab`] resource and one
/// entity per body and constraint.
pub fn install_scene(world: &mut World, scene: Scene, path: Option<std::path::PathBuf>) {
    install(world, InstallScene { scene: Box::new(scene), path, keep_algorithm: false, open: true });
}

/// [`super::InstallSceneSet`]: the last request of the frame is installed.
pub(super) fn install_scenes(world: &mut World) {
    let requests: Vec<InstallScene> = world.resource_mut::<Messages<InstallScene>>().drain().collect();
    if let Some(last) = requests.into_iter().last() {
        install(world, last);
    }
}

fn install(world: &mut World, request: InstallScene) {
    world.get_resource_or_insert_with(StepInFlight::default).cancel();
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
        let status = ConstraintStatus::initial(g[k], c.is_inequality(), lab.world.settings.tol.active);
        world.spawn((Name::new(c.name.clone()), SceneEntity, LabConstraint { index: k }, status));
    }
    {
        let mut settings = world.get_resource_or_insert_with(StepSettings::default);
        settings.set_h(lab.scene.dt);
    }
    let opening = lab.scene.opening;
    world.insert_resource(lab);
    if request.open {
        super::clock::open_clock(world, &opening, true);
        world.write_message(Opened(opening));
        let now = world.resource::<Time<Real>>().elapsed_secs_f64();
        let text = super::clock::opening_text(&opening);
        let mut status = world.resource_mut::<super::Status>();
        if opening.paused { status.say_while_paused(now, text) } else { status.say_clock(now, text) }
    }
    world.write_message(StateJumped { new_scene: true, reset: false });
}

/// The core's state was set from outside a step: every body and constraint
/// entity follows it, and the features are told ([`StateJumped`]).
pub fn state_jumped(world: &mut World, jump: StateJumped) {
    if let Some(mut in_flight) = world.get_resource_mut::<StepInFlight>() {
        in_flight.cancel();
    }
    sync_components_from_core(world);
    world.write_message(jump);
}

/// Scenes with contacts by proximity: rows come and go with the broad phase.
/// Keeps one constraint entity per row, matched by name (a row that stays keeps
/// its entity, hover and ticks), and the names the panels show.
pub fn sync_constraint_rows(world: &mut World) {
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
    let position: HashMap<&str, usize> = names.iter().enumerate().map(|(k, n)| (n.as_str(), k)).collect();
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
        let status = ConstraintStatus::initial(g[k], ineq[k], tol);
        world.spawn((Name::new(names[k].clone()), SceneEntity, LabConstraint { index: k }, status));
    }
    let mut lab = world.resource_mut::<Lab>();
    lab.constraint_names = names;
    lab.rows_version = version;
}

/// Syncs every body entity with the core's state after a jump (reset, restore):
/// both points of the interpolation go to the new state.
fn sync_components_from_core(world: &mut World) {
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
        let mut s = ConstraintStatus::initial(g[k], ineq, core.settings.tol.active);
        if let Some(r) = &report
            && r.g.len() == g.len()
        {
            s.lambda = r.lambda[k];
            s.tendency = r.tendency[k];
            s.friction = r.friction.get(k).copied().unwrap_or(0.0);
        }
        if core.active_set.handled.get(k).copied().unwrap_or(false) {
            s.handled = true;
            s.state = ConstraintState::Handled;
        }
        let c = &core.model.constraints[k];
        // The cone on forces: λ of a written normal n̄ is λ|n̄| newtons.
        let mu = c.friction * c.normal_length();
        let slip = if mu > 0.0 { Coulomb::slip(&core, k) } else { 0.0 };
        s.coulomb = Coulomb::of(mu, s.handled, s.lambda, s.friction, slip);
        if core.row_asleep(k) {
            s.state = ConstraintState::Asleep;
        }
        *status = s;
    }
}
