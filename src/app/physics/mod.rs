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

pub mod budget;

use bevy::ecs::schedule::SingleThreadedExecutor;
use bevy::math::DVec2;
use bevy::prelude::*;
use contact_core::StepStatus;

use super::lab::{
    ConstraintState, ConstraintStatus, Coords, Lab, LabBody, LabConstraint, PhysicsSet, PointMotion, Status,
    StepSettings, coords_of, sync_constraint_rows,
};
pub use budget::PhysicsBudget;

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
        app.add_plugins(budget::BudgetPlugin)
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
            .add_systems(PostUpdate, apply_step_settings);
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

/// Step: one call of the core. A step that diverges
/// ([`contact_core::StepStatus::Diverged`]) is undone: the state before it is
/// restored, the clock pauses and the status bar says why (the same sentence
/// as the CLI's).
pub fn step_world(
    lab: Option<ResMut<Lab>>,
    settings: Res<StepSettings>,
    mut virt: ResMut<Time<Virtual>>,
    mut fixed: ResMut<Time<Fixed>>,
    status: Option<ResMut<Status>>,
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

/// Writeback: `g`, `J q̈ − d`, `λ` and the state of every constraint.
pub fn write_back_constraints(lab: Option<Res<Lab>>, mut constraints: Query<(&LabConstraint, &mut ConstraintStatus)>) {
    let Some(lab) = lab else { return };
    let Some(report) = &lab.report else { return };
    let tol = lab.world.settings.tol.active;
    for (c, mut status) in &mut constraints {
        let k = c.index;
        let (Some(&g), Some(&handled)) = (report.g.get(k), report.handled.get(k)) else { continue };
        let state = ConstraintState::of(g, handled, tol);
        *status = ConstraintStatus { g, tendency: report.tendency[k], lambda: report.lambda[k], handled, state };
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
