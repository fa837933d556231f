//! Coulomb friction, exact in the plane ([`contact_core::friction`]),
//! checked against closed forms: a block that sticks or slides on an
//! incline, a disc that rolls or slips down it, a disc launched without spin
//! that starts to roll.

use approx::assert_relative_eq;
use contact_core::World;
use contact_core::scene::{Scene, parse};

const G: f64 = 9.81;

fn scene(bodies: &str, walls: &str) -> Scene {
    let text = format!(
        "Scene(name: \"t\", gravity: (0, -9.81), bodies: [{bodies}], walls: [{walls}], \
         solver: (algorithm: Exact, dt: 1e-3, tau: 0.01, restitution: 0.0))"
    );
    parse(&text, "friction.ron", &Default::default()).unwrap_or_else(|e| panic!("{e}"))
}

fn run(s: &mut Scene, until: f64) {
    while s.world.state.t < until - 1e-9 {
        let r = s.world.step(s.dt);
        assert!(matches!(r.status, contact_core::StepStatus::Ok), "{:?}", r.status);
    }
}

/// A slope through the origin at `theta`, rising to the right, with `μ`.
fn slope(theta: f64, mu: f64) -> String {
    format!("(name: \"slope\", normal: ({}, {}), friction: {mu})", -theta.sin(), theta.cos())
}

/// The body's centre when it rests on the slope at `along` from the origin,
/// `up` above it.
fn on_slope(theta: f64, along: f64, up: f64) -> (f64, f64) {
    (along * theta.cos() - up * theta.sin(), along * theta.sin() + up * theta.cos())
}

/// Speed and distance down the slope of body 0.
fn downhill(w: &World, theta: f64, start: (f64, f64)) -> (f64, f64) {
    let down = (-theta.cos(), -theta.sin());
    let v = w.state.qd[0] * down.0 + w.state.qd[1] * down.1;
    let d = (w.state.q[0] - start.0) * down.0 + (w.state.q[1] - start.1) * down.1;
    (v, d)
}

fn block(theta: f64, mu: f64) -> (Scene, (f64, f64)) {
    let c = on_slope(theta, 1.0, 0.05);
    let s = scene(
        &format!(
            "Box(name: \"block\", position: ({}, {}), angle: {theta}, size: (0.2, 0.1), mass: 1)",
            c.0, c.1
        ),
        &slope(theta, mu),
    );
    (s, c)
}

/// At μ = 1.01 tan θ the block sticks: after 2 s it has not moved (no
/// creep), and each corner's friction stays inside the cone.
#[test]
fn a_block_sticks_on_an_incline_just_below_its_friction_angle() {
    let theta = 30f64.to_radians();
    let (mut s, c) = block(theta, 1.01 * theta.tan());
    run(&mut s, 2.0);
    let (v, d) = downhill(&s.world, theta, c);
    assert!(d.abs() < 1e-9 && v.abs() < 1e-9, "crept {d} m at {v} m/s");
    assert!(s.world.state.q[2] - theta < 1e-9);
}

/// At μ = 0.2 it slides with `a = g (sin θ − μ cos θ) = 3.2059 m/s²`.
#[test]
fn a_block_slides_down_an_incline_at_g_sin_minus_mu_cos() {
    let theta = 30f64.to_radians();
    let (mut s, c) = block(theta, 0.2);
    run(&mut s, 0.5);
    let a = G * (theta.sin() - 0.2 * theta.cos());
    assert_relative_eq!(a, 3.2059, max_relative = 1e-4);
    let (v, _) = downhill(&s.world, theta, c);
    assert_relative_eq!(v, a * s.world.state.t, max_relative = 1e-6);
    assert!((s.world.state.q[2] - theta).abs() < 1e-9, "the block tipped");
}

fn disc(theta: f64, mu: f64) -> (Scene, (f64, f64)) {
    let c = on_slope(theta, 1.0, 0.1);
    let s = scene(&format!("Disc(name: \"disc\", position: ({}, {}), radius: 0.1, mass: 1)", c.0, c.1), &slope(theta, mu));
    (s, c)
}

/// With μ ≥ tan θ / 3 a disc rolls: `a = ⅔ g sin θ = 3.270 m/s²`, `v = ω r`.
#[test]
fn a_disc_rolls_down_an_incline_at_two_thirds_g_sin_theta() {
    let theta = 30f64.to_radians();
    let (mut s, c) = disc(theta, 0.3);
    run(&mut s, 0.5);
    let a = 2.0 / 3.0 * G * theta.sin();
    assert_relative_eq!(a, 3.270, max_relative = 1e-3);
    let (v, _) = downhill(&s.world, theta, c);
    assert_relative_eq!(v, a * s.world.state.t, max_relative = 1e-6);
    // Rolling down to the left turns it counterclockwise: v = ω r.
    assert_relative_eq!(s.world.state.qd[2] * 0.1, v, max_relative = 1e-6);
}

/// At μ = 0.1 < tan θ / 3 it slips: `a_cm = g (sin θ − μ cos θ) = 4.055`,
/// `r α = 2 μ g cos θ = 1.699 m/s²`.
#[test]
fn a_disc_slips_down_a_slippery_incline() {
    let theta = 30f64.to_radians();
    let (mut s, c) = disc(theta, 0.1);
    run(&mut s, 0.5);
    let t = s.world.state.t;
    let (v, _) = downhill(&s.world, theta, c);
    assert_relative_eq!(v / t, 4.055, max_relative = 1e-3);
    assert_relative_eq!(s.world.state.qd[2] * 0.1 / t, 1.699, max_relative = 1e-3);
}

/// A disc launched at v₀ = 3 m/s without spin on a floor with μ = 0.2
/// slides, then rolls from `t = v₀/(3 μ g) = 0.5097 s` at `v = ⅔ v₀ = 2 m/s`,
/// after `1.274 m`, having lost a third of its kinetic energy.
#[test]
fn a_disc_launched_without_spin_starts_to_roll() {
    let mut s = scene(
        "Disc(name: \"disc\", position: (0, 0.1), velocity: (3, 0), radius: 0.1, mass: 1)",
        "(name: \"floor\", normal: (0, 1), friction: 0.2)",
    );
    let e0 = s.world.model.kinetic_energy(&s.world.state);
    let t_roll = 3.0 / (3.0 * 0.2 * G);
    assert_relative_eq!(t_roll, 0.5097, max_relative = 1e-4);
    let mut rolled_at = None;
    while s.world.state.t < 1.0 {
        s.world.step(s.dt);
        let (v, w) = (s.world.state.qd[0], s.world.state.qd[2]);
        if rolled_at.is_none() && (v + w * 0.1).abs() < 1e-9 {
            rolled_at = Some((s.world.state.t, s.world.state.q[0], v));
        }
    }
    let (t, x, v) = rolled_at.expect("it rolls");
    assert!((t - t_roll).abs() <= s.dt, "rolls at {t}");
    assert_relative_eq!(v, 2.0, max_relative = 1e-3);
    assert_relative_eq!(x, 1.274, max_relative = 2e-3);
    let e = s.world.model.kinetic_energy(&s.world.state);
    assert_relative_eq!(e / e0, 2.0 / 3.0, max_relative = 1e-3);
    // Rolling, it keeps its speed.
    assert_relative_eq!(s.world.state.qd[0], v, max_relative = 1e-9);
}

