//! Bodies that turn (coordinates (x, y, θ), `M = diag(m, m, I)`) and
//! constraints on points fixed on them, checked against closed forms: a
//! thin rod pinned at one end (the compound pendulum) and the frictionless
//! ladder, whose top leaves the wall when it has dropped to 2/3 of its height.

use approx::assert_relative_eq;
use contact_core::testing::body;
use contact_core::{Algorithm, BodyKind, Constraint, ConstraintKind, Geometry, Model, Settings, State, World};
use nalgebra::Vector2;

const G: f64 = 9.81;

/// A thin rod of mass `m` and length `l` (inertia `m l²/12` about its centroid).
fn rod(name: &str, m: f64, l: f64) -> contact_core::Body {
    let shape = contact_core::Shape::Box { size: (l, 0.02) };
    body(name, BodyKind::Rigid { inertia: m * l * l / 12.0, shape }, m, 0.0)
}

fn constraint(name: &str, kind: ConstraintKind, geometry: Geometry) -> Constraint {
    Constraint { name: name.into(), kind, geometry, restitution: None, friction: 0.0, rolling: 0.0 }
}

/// A rod of length `l` lying along x from the anchor at the origin, pinned
/// there by its end: `(model, state)`.
fn pinned_rod(l: f64) -> (Model, State) {
    let end = Vector2::new(-l / 2.0, 0.0);
    let pin = |axis: usize| {
        let g = Geometry::Pin { a: 0, b: 1, at_a: end, at_b: Vector2::zeros(), axis };
        constraint(&format!("pin.{axis}"), ConstraintKind::Equality, g)
    };
    let model = Model::new(
        vec![rod("rod", 1.0, l), body("anchor", BodyKind::Fixed { position: (0.0, 0.0) }, 0.0, 0.0)],
        vec![pin(0), pin(1)],
        Vector2::new(0.0, -G),
    );
    (model, State { q: vec![l / 2.0, 0.0, 0.0], qd: vec![0.0; 3], t: 0.0 })
}

/// Released horizontal, a rod pinned at its end starts turning at
/// `θ̈ = −3g/(2l)` (torque `m g l/2` about the pin, inertia `m l²/3` there),
/// its centroid falls at `3g/4`, and the pin holds it up with `m g/4`.
#[test]
fn a_rod_pinned_at_its_end_starts_at_three_g_over_two_l() {
    let l = 1.2;
    for algorithm in Algorithm::ALL {
        let (model, state) = pinned_rod(l);
        let mut w = World::new(model, state, Settings { algorithm, ..Settings::default() });
        let r = w.step(1e-4);
        assert_relative_eq!(r.qdd[2], -3.0 * G / (2.0 * l), max_relative = 1e-9);
        assert_relative_eq!(r.qdd[1], -0.75 * G, max_relative = 1e-9);
        assert!(r.qdd[0].abs() < 1e-9, "{algorithm:?}: ẍ = {}", r.qdd[0]);
        assert!(r.lambda[0].abs() < 1e-9, "{algorithm:?}: the pin's x force {}", r.lambda[0]);
        assert_relative_eq!(r.lambda[1], 0.25 * G, max_relative = 1e-9);
    }
}

/// The largest violation of a particle on a rod of length `l` swinging down
/// from horizontal to under its anchor (Baumgarte's lag at the defaults).
fn particle_pendulum_drift(l: f64) -> f64 {
    let rod = Geometry::Distance { a: 0, b: 1, length: l, at_a: Vector2::zeros(), at_b: Vector2::zeros() };
    let model = Model::new(
        vec![
            body("bob", BodyKind::Particle, 1.0, 0.0),
            body("anchor", BodyKind::Fixed { position: (0.0, 0.0) }, 0.0, 0.0),
        ],
        vec![constraint("rod", ConstraintKind::Equality, rod)],
        Vector2::new(0.0, -G),
    );
    let state = State { q: vec![l, 0.0], qd: vec![0.0; 2], t: 0.0 };
    let mut w = World::new(model, state, Settings { algorithm: Algorithm::Exact, ..Settings::default() });
    let mut drift = 0.0_f64;
    while w.state.q[0] > 0.0 {
        drift = drift.max(w.step(1e-4).max_violation);
    }
    drift
}

/// Swinging down from horizontal, it passes under the pin with `ω² = 3g/l`
/// (energy: `m g l/2 = ½ (m l²/3) ω²`), the pin held as well as a particle's
/// rod is on the same swing (Baumgarte's lag at τ = 10 ms: 1.9e-5 m).
#[test]
fn a_pinned_rod_passes_under_its_pin_at_the_speed_of_its_energy() {
    let l = 1.0;
    let (model, state) = pinned_rod(l);
    let mut w = World::new(model, state, Settings { algorithm: Algorithm::Exact, ..Settings::default() });
    let e0 = w.model.total_energy(&w.state);
    let mut drift = 0.0_f64;
    while w.state.q[2] > -std::f64::consts::FRAC_PI_2 {
        let r = w.step(1e-4);
        drift = drift.max(r.max_violation);
        assert!(w.state.t < 2.0, "the rod does not swing down");
    }
    let omega = w.state.qd[2];
    assert_relative_eq!(omega, -(3.0 * G / l).sqrt(), max_relative = 2e-3);
    let particle = particle_pendulum_drift(l);
    assert!(drift <= particle && drift < 5e-5, "the pin opened by {drift} m (a particle's rod: {particle} m)");
    let e = w.model.total_energy(&w.state);
    assert!((e - e0).abs() < 2e-3 * e0.abs().max(1.0), "energy {e0} → {e}");
}

/// A ladder of length `l` at `beta` from the floor, its top on a wall at
/// x = 0 and its foot on the floor y = 0, at rest. Its frame's x axis runs
/// from the top to the foot, so `θ = −β`.
fn ladder(l: f64, beta: f64) -> (Model, State) {
    let (top, foot) = (Vector2::new(-l / 2.0, 0.0), Vector2::new(l / 2.0, 0.0));
    let wall = Geometry::HalfPlane { body: 0, normal: Vector2::new(1.0, 0.0), offset: 0.0, at: top };
    let floor = Geometry::HalfPlane { body: 0, normal: Vector2::new(0.0, 1.0), offset: 0.0, at: foot };
    let model = Model::new(
        vec![rod("ladder", 1.0, l)],
        vec![
            constraint("wall", ConstraintKind::Inequality, wall),
            constraint("floor", ConstraintKind::Inequality, floor),
        ],
        Vector2::new(0.0, -G),
    );
    let (s, c) = beta.sin_cos();
    (model, State { q: vec![0.5 * l * c, 0.5 * l * s, -beta], qd: vec![0.0; 3], t: 0.0 })
}

/// At rest at β₀ = 60°, the frictionless ladder starts with `β̈ = −(3g/2l) cos β₀`,
/// the wall pushing `(3/4) m g sin β₀ cos β₀` and the floor `m g (1 − (3/4) cos² β₀)`:
/// the Jacobian rows of points that turn carry `r × n`.
#[test]
fn a_ladder_at_rest_starts_as_its_lagrangian_says() {
    let (l, beta) = (2.0, 60f64.to_radians());
    for algorithm in [Algorithm::Right, Algorithm::Exact] {
        let (model, state) = ladder(l, beta);
        let mut w = World::new(model, state, Settings { algorithm, ..Settings::default() });
        let r = w.step(1e-4);
        assert_eq!(r.handled, vec![true, true], "{algorithm:?}");
        assert_relative_eq!(r.qdd[2], 1.5 * G / l * beta.cos(), max_relative = 1e-9);
        assert_relative_eq!(r.lambda[0], 0.75 * G * beta.sin() * beta.cos(), max_relative = 1e-9);
        assert_relative_eq!(r.lambda[1], G * (1.0 - 0.75 * beta.cos().powi(2)), max_relative = 1e-9);
    }
}

/// Sliding down, the ladder keeps both contacts while the wall pushes; the
/// wall's force goes through zero when the top has dropped to 2/3 of its
/// starting height (`sin β = (2/3) sin β₀`), and Exact lets the wall go there:
/// the paper's question of figure 1 on a body that turns.
#[test]
fn exact_lets_the_wall_go_when_the_top_is_at_two_thirds_of_its_height() {
    let (l, beta) = (2.0, 60f64.to_radians());
    let (model, state) = ladder(l, beta);
    let mut w = World::new(model, state, Settings { algorithm: Algorithm::Exact, ..Settings::default() });
    let top = |w: &World| w.model.bodies[0].kinematics_at(Vector2::new(-l / 2.0, 0.0), &w.state.q, &w.state.qd).p;
    let h0 = top(&w).y;
    let e0 = w.model.total_energy(&w.state);
    let mut released = None;
    while w.state.t < 2.0 {
        let height = top(&w).y;
        let r = w.step(1e-4);
        if !r.handled[0] {
            released = Some(height);
            break;
        }
        assert!(r.lambda[0] >= 0.0, "the wall pulls: λ = {}", r.lambda[0]);
    }
    let height = released.expect("the ladder never left the wall");
    assert_relative_eq!(height / h0, 2.0 / 3.0, max_relative = 2e-3);
    let e = w.model.total_energy(&w.state);
    assert!((e - e0).abs() < 1e-3 * e0.abs(), "energy {e0} → {e} while sliding");
}

fn scene(name: &str) -> contact_core::scene::Scene {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/scenes").join(name);
    contact_core::scene::load(&path, &Default::default()).unwrap_or_else(|e| panic!("{e}"))
}

/// `ladder.ron` does what its description says: Exact and Right let the
/// wall go at step 461 (t = 0.461 s), the top within 1 % of 2/3 of its
/// height, never pulling; Platt holds it with the wall pulling, down to
/// about −1.6 N, for about 27 ms.
#[test]
fn the_ladder_scene_lets_go_of_the_wall_as_its_description_says() {
    let run = |algorithm: Algorithm| {
        let mut s = scene("ladder.ron");
        s.world.settings.algorithm = algorithm;
        let l = 1.0;
        let top = |w: &World| w.model.bodies[0].kinematics_at(Vector2::new(-l, 0.0), &w.state.q, &w.state.qd).p.y;
        let h0 = top(&s.world);
        let (mut released, mut pulls, mut least) = (None, 0, 0.0_f64);
        while s.world.state.t < 0.6 {
            let before = top(&s.world);
            let r = s.world.step(s.dt);
            if !r.handled[0] && released.is_none() {
                released = Some((r.t, before / h0));
            }
            if r.handled[0] && r.lambda[0] < 0.0 {
                pulls += 1;
                least = least.min(r.lambda[0]);
            }
        }
        (released.expect("the wall is never let go"), pulls, least)
    };
    for algorithm in [Algorithm::Exact, Algorithm::Right] {
        let ((t, height), pulls, _) = run(algorithm);
        assert_relative_eq!(t, 0.461, epsilon = 1e-9);
        assert_relative_eq!(height, 2.0 / 3.0, max_relative = 1e-2);
        assert_eq!(pulls, 0, "{algorithm:?} pulls on the wall");
    }
    let (_, pulls, least) = run(Algorithm::Platt);
    assert!(pulls >= 10 && (-2.0..-1.0).contains(&least), "Platt: {pulls} pulling steps, down to {least} N");
}

/// `falling-rod.ron`: the lower corner lands and, plastic, stops dead; the
/// impulse is the two-body formula at the corner, `P = v / (1/m + (r × n)²/I)`
/// (0.7475 N·s at 2.350 m/s), and the rod leaves turning at `ω = (r × n) P / I`.
#[test]
fn the_falling_rod_lands_on_its_corner_with_the_impulse_of_a_body_that_turns() {
    let mut s = scene("falling-rod.ron");
    // It falls without turning until it lands.
    let theta = s.world.state.q[2];
    let event = loop {
        let r = s.world.step(s.dt);
        if let Some(e) = r.events.into_iter().next() {
            break e;
        }
        assert!(s.world.state.t < 1.0, "the rod never lands");
    };
    let w = &s.world;
    let body = &w.model.bodies[0];
    let BodyKind::Rigid { inertia, .. } = body.kind else { panic!("a body that turns") };
    let k = event.impulse[0].0;
    let Geometry::HalfPlane { at, .. } = w.model.constraints[k].geometry else { panic!("a wall row") };
    let r = Vector2::new(theta.cos() * at.x - theta.sin() * at.y, theta.sin() * at.x + theta.cos() * at.y);
    let (v, p) = (event.approach_speed[0].1, event.impulse[0].1);
    assert_relative_eq!(p, v / (1.0 / body.mass + r.x * r.x / inertia), max_relative = 1e-9);
    assert_relative_eq!(v, 2.350, max_relative = 1e-3);
    assert_relative_eq!(p, 0.7475, max_relative = 1e-3);
    // At the end of the step (0.4 ms after the impact) the corner is held
    // (Baumgarte's push moves it by µm/s) and the rod turns at about the
    // impact's ω (gravity adds 0.1 %).
    let corner = body.kinematics_at(at, &w.state.q, &w.state.qd);
    assert!(corner.v.y.abs() < 1e-5, "the corner moves at {} m/s", corner.v.y);
    assert_relative_eq!(w.state.qd[2], r.x * p / inertia, max_relative = 2e-3);
}

/// A mouse spring grabbed at a corner of a box pulls that corner: the box
/// gets the force at its centroid and the torque `(p − x) × F` about it
/// (`θ̈ = τ/I`), and the work the spring does (`F·Δp + τ Δθ` a step) is the
/// kinetic energy the free box gains.
#[test]
fn a_spring_at_a_corner_turns_the_box_and_its_work_is_the_energy_gained() {
    use contact_core::input::{Spring, apply_springs};
    let shape = contact_core::Shape::Box { size: (0.4, 0.2) };
    let (m, inertia) = (2.0, 2.0 * shape.inertia_per_kg());
    let model = Model::new(vec![body("box", BodyKind::Rigid { inertia, shape }, m, 0.0)], vec![], Vector2::zeros());
    let state = State { q: vec![0.0; 3], qd: vec![0.0; 3], t: 0.0 };
    let mut w = World::new(model, state, Settings::default());
    let spring = Spring { body: 0, target: (1.0, 0.1), at: (0.2, 0.1) };
    apply_springs(&mut w, &[spring]);
    let f = spring.force(&w);
    assert!(f.x > 0.0 && f.y.abs() < 1e-12, "pulled to the right: {f:?}");
    let torque = 0.2 * f.y - 0.1 * f.x;
    let r = w.step(1e-3);
    assert_relative_eq!(r.qdd[0], f.x / m, max_relative = 1e-12);
    assert_relative_eq!(r.qdd[2], torque / inertia, max_relative = 1e-12);
    // The force is held over each step: the work and the energy differ by
    // `F² h²/2m` a step, so small steps (3 % apart at h = 1 ms, 0.3 % at 0.1 ms).
    let (mut work, mut steps) = (r.user_work, 1);
    while steps < 3000 {
        apply_springs(&mut w, &[spring]);
        work += w.step(1e-4).user_work;
        steps += 1;
    }
    assert!(w.state.q[2] < -0.1, "the box turned clockwise: θ = {}", w.state.q[2]);
    let gained = w.model.kinetic_energy(&w.state);
    assert_relative_eq!(work, gained, max_relative = 5e-3);
}

/// `double-pendulum.ron`: until the first impact the energy is the
/// Lagrangian's own (Baumgarte moves it by less than 1 %), each impact on
/// the wall takes energy out of the chain and none puts any in, and the pins
/// hold (within Baumgarte's lag of a millimetre).
#[test]
fn the_double_pendulum_loses_energy_at_each_impact_and_never_gains() {
    let mut s = scene("double-pendulum.ron");
    let e0 = s.world.model.total_energy(&s.world.state);
    let (mut before_first, mut impacts, mut worst_pin) = (0.0_f64, 0, 0.0_f64);
    while s.world.state.t < 4.0 {
        let r = s.world.step(s.dt);
        for e in &r.events {
            assert!(e.energy_lost >= -1e-12, "an impact at t = {} added {} J", e.t, -e.energy_lost);
            impacts += 1;
        }
        if impacts == 0 {
            before_first = before_first.max((s.world.model.total_energy(&s.world.state) - e0).abs());
        }
        let pins = (0..4).map(|k| r.g[k].abs()).fold(0.0, f64::max);
        worst_pin = worst_pin.max(pins);
    }
    println!("impacts {impacts}, drift before the first {before_first} J of {e0}, worst pin {worst_pin} m");
    assert!(impacts >= 2, "{impacts} impacts");
    assert!(before_first < 1e-2 * e0.abs(), "{before_first} J before the first impact");
    assert!(worst_pin < 2e-3, "a pin opened by {worst_pin} m");
    assert!(s.world.model.total_energy(&s.world.state) < e0 - 1.0, "the impacts took energy out");
}

/// `box-stack.ron`: boxes meet corner against edge. Dropped a few
/// millimetres, the stack settles (plastic impacts take out the potential
/// energy of the drops, 0.2943 J, and nothing goes through anything), and
/// each interface then carries the weights above it: the floor 3 m g, the
/// bottom box's top 2 m g, the middle box's m g, whatever the offsets.
#[test]
fn a_stack_of_boxes_carries_the_weights_above_each_interface() {
    let mut s = scene("box-stack.ron");
    let e0 = s.world.model.total_energy(&s.world.state);
    let mut worst = 0.0_f64;
    let mut report = None;
    while s.world.state.t < 3.0 {
        let r = s.world.step(s.dt);
        worst = worst.max(r.max_violation);
        report = Some(r);
    }
    let r = report.expect("steps");
    let m = &s.world.model;
    let carried = |below: &str| -> f64 {
        (0..m.constraints.len())
            .filter(|&k| r.handled[k] && m.constraints[k].name.starts_with(below))
            .map(|k| r.lambda[k])
            .sum()
    };
    let pair = |upper: &str, lower: &str| -> f64 {
        (0..m.constraints.len())
            .filter(|&k| {
                let n = &m.constraints[k].name;
                r.handled[k] && n.contains(&format!("{upper}[")) && n.contains(&format!("{lower}["))
            })
            .map(|k| r.lambda[k])
            .sum()
    };
    assert_relative_eq!(carried("floor:"), 3.0 * G, max_relative = 1e-6);
    assert_relative_eq!(pair("middle", "bottom"), 2.0 * G, max_relative = 1e-6);
    assert_relative_eq!(pair("top", "middle"), G, max_relative = 1e-6);
    assert!(s.world.state.qd.iter().all(|v| v.abs() < 1e-6), "settled: {:?}", s.world.state.qd);
    assert!(worst < 1e-4, "nothing goes through anything: {worst} m");
    let lost = e0 - s.world.model.total_energy(&s.world.state);
    assert_relative_eq!(lost, G * (0.005 + 0.010 + 0.015), max_relative = 1e-3);
}

/// Box2D's pyramid (`box-pyramid.ron`): 55 boxes whose rows are hyperstatic
/// (four under most boxes). Under Exact the boxes hold still for 2 s and the
/// floor carries their weights. The paper's algorithms, which solve eq. (6)
/// on their handled set as equalities, hold it too since they take the least
/// λ of a hyperstatic set (`kkt.rs`): before, dropping the dependent rows put
/// the weights on pushing and pulling pairs of kN, and Platt gained 1960 J in
/// 2 s, Right 255 J, and Platt improved diverged.
#[test]
fn the_box_pyramid_stands_under_every_algorithm() {
    let run = |algorithm: Algorithm| {
        let mut s = scene("box-pyramid.ron");
        s.world.settings.algorithm = algorithm;
        let (q0, e0) = (s.world.state.q.clone(), s.world.model.total_energy(&s.world.state));
        let mut last = None;
        while s.world.state.t < 2.0 {
            let r = s.world.step(s.dt);
            assert_eq!(r.status, contact_core::StepStatus::Ok, "{algorithm:?} at {}", r.t);
            last = Some(r);
        }
        let moved = s.world.state.q.iter().zip(&q0).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
        (last.expect("steps"), moved, s.world.model.total_energy(&s.world.state) - e0, s.world)
    };
    let (r, moved, gained, w) = run(Algorithm::Exact);
    assert!(moved < 1e-9, "a box moved by {moved}");
    assert!(gained.abs() < 1e-9, "{gained} J");
    let floor: f64 = (0..w.model.constraints.len())
        .filter(|&k| w.model.constraints[k].name.starts_with("floor:"))
        .map(|k| r.lambda[k])
        .sum();
    assert_relative_eq!(floor, 55.0 * G, max_relative = 1e-9);
    // Platt improved starts from no rows: the boxes drop by 10 µm before its
    // rows hold (eq. 13's first step), then stand.
    for (algorithm, still) in [(Algorithm::Platt, 1e-9), (Algorithm::Right, 1e-9), (Algorithm::PlattImproved, 1e-5)] {
        let (r, moved, gained, _) = run(algorithm);
        assert!(moved < still, "{algorithm:?}: a box moved by {moved}");
        assert!(gained < 1e-9, "{algorithm:?} gained {gained} J");
        // The weights are shared, some rows of a hyperstatic set pulling
        // a little (the least λ is not always ≥ 0), none by newtons.
        let least = (0..r.lambda.len()).filter(|&k| r.handled[k]).map(|k| r.lambda[k]).fold(0.0, f64::min);
        assert!(least > -1.0, "{algorithm:?}: a row pulls with {least} N");
    }
}
