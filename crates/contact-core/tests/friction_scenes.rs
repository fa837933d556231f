//! The friction scenes of `assets/scenes` show what their descriptions say,
//! measured on the files themselves (the closed forms are derived in
//! `tests/friction.rs` and in each file's header).

use approx::assert_relative_eq;
use contact_core::scene::{Scene, load};

fn built_in(name: &str) -> Scene {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/scenes").join(name);
    load(&path, &Default::default()).unwrap_or_else(|e| panic!("{e}"))
}

fn row(s: &Scene, name: &str) -> usize {
    s.world.model.constraint_index(name).unwrap_or_else(|| panic!("no row {name}"))
}

fn body(s: &Scene, name: &str) -> usize {
    s.world.model.bodies[s.world.model.body_index(name).expect("body")].offset
}

fn speed(s: &Scene, b: usize) -> f64 {
    s.world.state.qd[b].hypot(s.world.state.qd[b + 1])
}

#[test]
fn incline_one_block_sticks_and_the_other_slides_at_the_closed_form() {
    let mut s = built_in("incline.ron");
    let (stick, slide) = (body(&s, "sticks"), body(&s, "slides"));
    let start = s.world.state.q[stick..stick + 3].to_vec();
    let mut last = None;
    while s.world.state.t < 0.8 - 1e-9 {
        last = Some(s.world.step(s.dt));
    }
    let r = last.unwrap();
    assert!(s.world.state.q[stick..stick + 3].iter().zip(&start).all(|(a, b)| (a - b).abs() < 1e-9));
    assert_relative_eq!(speed(&s, slide), 3.2059 * s.world.state.t, max_relative = 1e-4);
    // The sticking block's friction is m g sin θ in all, inside the cone.
    let (fl, fr) = (r.friction[row(&s, "sticks-left")], r.friction[row(&s, "sticks-right")]);
    // Every island's rows are in the report's handled set (the trace's last round).
    assert!(["sticks-left", "sticks-right", "slides-left", "slides-right"].iter().all(|n| r.handled[row(&s, n)]));
    assert_relative_eq!((fl + fr).abs(), 4.905, max_relative = 1e-3);
    // The sliding one's is on the cone's edge.
    let k = row(&s, "slides-left");
    assert_relative_eq!(r.friction[k].abs(), 0.2 * r.lambda[k], max_relative = 1e-9);
}

#[test]
fn incline_discs_roll_and_slip_at_the_closed_forms() {
    let mut s = built_in("incline-discs.ron");
    let (rolls, slips) = (body(&s, "rolls"), body(&s, "slips"));
    while s.world.state.t < 0.8 - 1e-9 {
        s.world.step(s.dt);
    }
    let t = s.world.state.t;
    assert_relative_eq!(speed(&s, rolls) / t, 3.270, max_relative = 1e-3);
    assert_relative_eq!(s.world.state.qd[rolls + 2].abs() * 0.1, speed(&s, rolls), max_relative = 1e-6);
    assert_relative_eq!(speed(&s, slips) / t, 4.055, max_relative = 1e-3);
    assert_relative_eq!(s.world.state.qd[slips + 2].abs() * 0.1 / t, 1.699, max_relative = 1e-3);
}

#[test]
fn the_launched_disc_rolls_at_two_metres_a_second_after_losing_a_third() {
    let mut s = built_in("disc-launch.ron");
    let e0 = s.world.model.kinetic_energy(&s.world.state);
    let mut work = 0.0;
    while s.world.state.t < 0.7 - 1e-9 {
        work += s.world.step(s.dt).friction_work;
    }
    assert_relative_eq!(s.world.state.qd[0], 2.0, max_relative = 1e-3);
    assert_relative_eq!(work, e0 / 3.0, max_relative = 1e-2);
}

#[test]
fn one_ladder_stands_and_the_other_slides() {
    let mut s = built_in("ladder-rough.ron");
    let (a, b) = (body(&s, "stands"), body(&s, "slides"));
    let start = (s.world.state.q[a], s.world.state.q[b]);
    let mut last = None;
    while s.world.state.t < 1.0 - 1e-9 {
        last = Some(s.world.step(s.dt));
    }
    assert!((s.world.state.q[a] - start.0).abs() < 1e-9, "the left ladder moved");
    assert!((s.world.state.q[b] - start.1).abs() > 0.05, "the right ladder did not slide");
    let r = last.unwrap();
    assert_relative_eq!(r.lambda[row(&s, "wall1")], 9.81 / (2.0 * 60f64.to_radians().tan()), max_relative = 1e-3);
}

#[test]
fn the_rough_rocking_block_keeps_housners_share_of_its_spin() {
    let mut s = built_in("rocking-block-rough.ron");
    let mut spins: Vec<f64> = Vec::new();
    let mut before = s.world.state.qd[2];
    while s.world.state.t < 1.5 {
        let r = s.world.step(s.dt);
        let now = s.world.state.qd[2];
        if !r.events.is_empty() && now.signum() == before.signum() {
            spins.push(now / before);
        }
        before = now;
    }
    assert!(spins.len() >= 3, "{} switches", spins.len());
    // One step of gravity's torque on each side of the impact: to 3 %.
    for r in spins {
        assert_relative_eq!(r, 0.94231, max_relative = 3e-2);
    }
}

#[test]
fn painleves_rod_takes_an_impact_without_collision_and_the_other_slides() {
    let mut s = built_in("painleve-rod.ron");
    let r = s.world.step(s.dt);
    let (foot1, foot2) = (row(&s, "foot1"), row(&s, "foot2"));
    let e = r.events.iter().find(|e| !e.without_collision.is_empty()).expect("Painlevé's impulse");
    assert_eq!(e.without_collision, vec![foot1]);
    assert!(r.traces.iter().any(|t| t.inconsistent == vec![foot1]));
    // The right rod slides with a consistent force, on the cone's edge.
    assert!(r.lambda[foot2] > 0.0);
    assert_relative_eq!(r.friction[foot2].abs(), 0.5 * r.lambda[foot2], max_relative = 1e-9);
}

#[test]
fn the_billiard_balls_leave_spinning_with_no_energy_made() {
    let mut s = built_in("billiard-spin.ron");
    let e0 = s.world.model.kinetic_energy(&s.world.state);
    let mut worst = 0.0_f64;
    while s.world.state.t < 1.0 {
        let r = s.world.step(s.dt);
        for e in &r.events {
            for (k, pt) in &e.friction {
                let pn = e.impulse.iter().find(|(j, _)| j == k).map_or(0.0, |p| p.1);
                worst = worst.max(pt.abs() - 0.05 * pn);
            }
        }
    }
    assert!(worst <= 1e-12, "a friction impulse outside the cone by {worst}");
    let spinning = s.world.model.bodies.iter().filter(|b| s.world.state.qd[b.offset + 2].abs() > 0.5).count();
    assert!(spinning >= 3, "{spinning} balls spin");
    assert!(s.world.model.kinetic_energy(&s.world.state) < e0);
}
