//! The mouse spring goes through the fixed step like any other force: a pinned
//! spring pulls the wedge's particle off the floor.

use bevy::math::DVec2;
use bevy::prelude::*;
use contact_lab::app::drag;
use contact_lab::app::lab::{Drags, Lab, PhysicsSet, Spring};

use crate::common::*;

#[test]
fn a_pinned_spring_lifts_the_particle() {
    let scene = scene("wedge.ron");
    let mut app = headless(&scene);
    app.add_systems(FixedUpdate, drag::apply_springs.in_set(PhysicsSet::Forces));
    let target = DVec2::new(0.5, 0.3);
    app.world_mut().resource_mut::<Drags>().pins.push(Spring::new(0, target));
    run_until(&mut app, 3000, |_, _| {});
    let lab = app.world().resource::<Lab>();
    let p = lab.position(0);
    // Spring m ω² (target − p) balances f = (2, −1) at p = target + f/(m ω²).
    let w = 2.0 * std::f64::consts::PI * drag::SPRING_HZ;
    let eq = target + DVec2::new(2.0, -1.0) / (2.0 * w * w);
    assert!((p - eq).length() < 1e-3, "the particle settles at {eq:?}, is at {p:?}");
    assert!(p.y > 0.25, "off the floor");
    let u = lab.world.model.bodies[0].user_force;
    assert!((u.x + 2.0).abs() < 1e-2 && (u.y - 1.0).abs() < 1e-2, "the spring balances f: {u:?}");
    let peak = app.world().resource::<Drags>().pins[0].peak;
    assert!(peak > 1.0);
}
