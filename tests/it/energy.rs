//! Energy on screen: the plots' `total_energy` (kinetic + gravity + constant
//! forces) stays flat in a conservative scene, and `user_work` (the mouse
//! springs' work since the start) accounts for what a spring puts in.

use bevy::math::DVec2;
use bevy::prelude::*;
use contact_lab::app::drag;
use contact_lab::app::history::History;
use contact_lab::app::lab::{Drags, Lab, PhysicsSet, Spring};

use crate::common::*;

fn series(app: &App, name: &str) -> Vec<f64> {
    app.world().resource::<History>().get(name).expect(name).points.iter().map(|p| p.y).collect()
}

/// The wedge under Right: the particle (m = 2 kg) slides along the floor
/// pushed by f = (2, −1), a = 1 m/s²; nothing dissipates. With the
/// constant-acceleration step the total stays flat to round-off; semi-implicit
/// Euler loses exactly ½ m h² a² = 1e-6 J a step under a constant force, so
/// after 1000 steps the total is 1e-3 J lower, against a kinetic energy of 1 J.
#[test]
fn the_total_energy_of_a_conservative_scene_is_flat() {
    for (integrator, drift) in
        [(contact_core::Integrator::ConstantAcceleration, 0.0), (contact_core::Integrator::SemiImplicitEuler, 1e-3)]
    {
        let mut s = scene("wedge.ron");
        s.world.settings.algorithm = contact_core::Algorithm::Right;
        s.world.settings.integrator = integrator;
        let mut app = headless(&s);
        run_until(&mut app, 1000, |_, _| {});
        let total = series(&app, "total_energy");
        let ke = *series(&app, "kinetic_energy").last().unwrap();
        assert!((ke - 1.0).abs() < 1e-6, "{integrator:?}: ½ m v² after 1 s at 1 m/s²: {ke}");
        let change = total.last().unwrap() - total.first().unwrap();
        assert!((change + drift).abs() <= 1e-9 + 1e-2 * drift, "{integrator:?}: the total changed by {change} J");
    }
}

/// A pinned spring lifts the wedge's particle: the total energy changes by
/// the work the spring did (spring-damper, so part of it is taken back). With
/// the constant-acceleration step the balance holds to round-off for forces
/// held over a step; semi-implicit Euler would lose ½ h² aᵀMa a step besides.
#[test]
fn the_mouse_s_work_is_the_change_of_total_energy() {
    let mut s = scene("wedge.ron");
    s.world.settings.integrator = contact_core::Integrator::ConstantAcceleration;
    let mut app = headless(&s);
    app.add_systems(FixedUpdate, drag::apply_springs.in_set(PhysicsSet::Forces));
    app.world_mut().resource_mut::<Drags>().pins.push(Spring::new(0, DVec2::new(0.5, 0.3)));
    run_until(&mut app, 2000, |_, _| {});
    let total = series(&app, "total_energy");
    let work = series(&app, "user_work");
    let de = total.last().unwrap() - total.first().unwrap();
    let w = *work.last().unwrap();
    assert!(w.abs() > 0.05, "the spring did work: {w} J");
    assert!((de - w).abs() <= 2e-3 * w.abs().max(1.0), "ΔE = {de} J, work of the mouse {w} J");
    let lab = app.world().resource::<Lab>();
    assert!(lab.position(0).y > 0.2, "lifted");
}
