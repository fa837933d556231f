//! Rolling resistance (`contact_core::rolling`) against its closed forms,
//! under time-stepping: a disc rolling on a floor, on an incline where it
//! rests and one where it rolls, one that slides, and the scheme and the
//! scene file that refuse what they cannot do.
//!
//! A disc of mass `m`, radius `r`, `I = m r²/2`, with Coulomb's `μ` large
//! enough that it does not slip and rolling resistance `μ_r` (a torque up to
//! `μ_r r N`):
//!
//! ```text
//! on a floor, rolling at v:      v̇ = −(2/3) μ_r g              until it stops
//! on an incline of angle α:      at rest iff tan α ≤ μ_r
//!                                else v̇ = (2/3) g (sin α − μ_r cos α)
//! ```

use contact_core::anitescu_potra;
use contact_core::cone_edges::Rows;
use contact_core::cone_fixed_point::{self, Impulses, Patience};
use contact_core::constraint::SparseRow;
use contact_core::lcg::Lcg;
use contact_core::scene::{Scene, parse};
use contact_core::{StepStatus, World};

const G: f64 = 9.81;
const R: f64 = 0.1;

/// A disc of radius `R` on a wall through the origin whose normal makes the
/// angle `alpha` with the vertical (a floor when 0), moving down the slope at
/// `v0` and rolling without slip, with `μ`, `μ_r` on the wall.
fn disc_on_slope(alpha: f64, v0: f64, mu: f64, mu_r: f64, scheme: &str) -> Scene {
    let n = (-alpha.sin(), alpha.cos());
    // Down the slope (+x on a floor); the disc starts 2 m up it.
    let down = (-alpha.cos(), -alpha.sin());
    let (x, y) = (-2.0 * down.0 + R * n.0, -2.0 * down.1 + R * n.1);
    let text = format!(
        "Scene(name: \"rolling\", gravity: (0, -9.81),
         bodies: [Disc(name: \"d\", position: ({x}, {y}), velocity: ({}, {}), angular_velocity: {},
                       radius: {R}, mass: 1.0)],
         walls: [(name: \"slope\", normal: ({}, {}), offset: 0, friction: {mu}, rolling: {mu_r})],
         solver: (scheme: {scheme}, algorithm: Exact, dt: 1e-3, tau: 0.01, restitution: 0.0))",
        v0 * down.0,
        v0 * down.1,
        // Rolling down the slope (−x on a floor) without slip: ω r = v.
        v0 / R,
        n.0,
        n.1,
    );
    parse(&text, "rolling", &Default::default()).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// The disc's speed down the slope (−x on a floor), and its spin signed so
/// that rolling without slip is `v + r ω = 0`.
fn along(w: &World, alpha: f64) -> (f64, f64) {
    let qd = &w.state.qd;
    (-(qd[0] * alpha.cos() + qd[1] * alpha.sin()), -qd[2])
}

/// Steps `w` for `seconds`, every step Ok, the disc never inside the wall
/// by more than 1e-12 m and the energy never rising (the rolling torque
/// only takes). Returns the time stepped.
fn run(w: &mut World, seconds: f64) -> f64 {
    let h = 1e-3;
    let mut e = w.model.total_energy(&w.state);
    let steps = (seconds / h).round() as usize;
    for _ in 0..steps {
        let r = w.step(h);
        assert_eq!(r.status, StepStatus::Ok, "t = {}", r.t);
        assert!(r.max_violation < 1e-12, "t = {}: {}", r.t, r.max_violation);
        assert!(r.total_energy <= e + 1e-12, "t = {}: energy {} → {}", r.t, e, r.total_energy);
        e = r.total_energy;
    }
    steps as f64 * h
}

#[test]
fn a_disc_rolling_on_a_floor_slows_at_two_thirds_mu_r_g_and_stops() {
    for mu_r in [0.02, 0.1, 0.3] {
        let mut w = disc_on_slope(0.0, 1.0, 0.8, mu_r, "TimeStepping").world;
        let a = 2.0 / 3.0 * mu_r * G;
        let t = run(&mut w, 0.5_f64.min(0.5 / a));
        let (v, omega) = along(&w, 0.0);
        // Each step takes `a h` off, exactly: the rolling impulse at its bound.
        assert!((v - (1.0 - a * t)).abs() < 1e-9, "mu_r {mu_r}: v {v}, closed form {}", 1.0 - a * t);
        // No slip, to friction's contract (1e-9 of the data).
        assert!((v + omega * R).abs() < 1e-10, "mu_r {mu_r}: it slips, v {v}, r ω {}", omega * R);
        // Past its stop it rests: the resistance does not turn it back.
        run(&mut w, 1.0 / a - t + 0.2);
        let (v, omega) = along(&w, 0.0);
        assert!(v.abs() < 1e-12 && omega.abs() < 1e-11, "mu_r {mu_r}: still moving at v {v}, ω {omega}");
    }
}

#[test]
fn a_disc_rests_on_an_incline_iff_tan_alpha_is_at_most_mu_r() {
    let mu_r: f64 = 0.2;
    let limit = mu_r.atan();
    for alpha in [0.5 * limit, 0.95 * limit] {
        let mut w = disc_on_slope(alpha, 0.0, 0.8, mu_r, "TimeStepping").world;
        let start = w.state.q.clone();
        run(&mut w, 1.0);
        let moved = w.state.q.iter().zip(&start).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
        assert!(moved < 1e-9, "alpha {alpha}: moved {moved}");
    }
    for alpha in [1.1 * limit, 2.0 * limit] {
        let mut w = disc_on_slope(alpha, 0.0, 0.8, mu_r, "TimeStepping").world;
        let t = run(&mut w, 0.5);
        let a = 2.0 / 3.0 * G * (alpha.sin() - mu_r * alpha.cos());
        let (v, omega) = along(&w, alpha);
        assert!((v - a * t).abs() < 1e-9, "alpha {alpha}: v {v}, closed form {}", a * t);
        assert!((v + omega * R).abs() < 1e-12, "alpha {alpha}: it slips");
    }
}

#[test]
fn without_resistance_the_same_disc_rolls_on_and_down_any_slope() {
    // μ_r = 0 is the free rolling of before: no row, v constant on a floor,
    // (2/3) g sin α down an incline.
    let mut w = disc_on_slope(0.0, 1.0, 0.8, 0.0, "TimeStepping").world;
    run(&mut w, 0.5);
    assert!((along(&w, 0.0).0 - 1.0).abs() < 1e-12);
    let alpha = 0.1;
    let mut w = disc_on_slope(alpha, 0.0, 0.8, 0.0, "TimeStepping").world;
    run(&mut w, 0.5);
    assert!((along(&w, alpha).0 - 2.0 / 3.0 * G * alpha.sin() * 0.5).abs() < 1e-9);
}

#[test]
fn a_disc_that_slides_feels_friction_and_the_rolling_torque_at_their_bounds() {
    // Thrown without spin onto a floor: it slides, friction μ N takes its
    // speed and spins it up against the rolling torque μ_r r N, both at their
    // bounds: v̇ = −μ g, r ω̇ = 2 (μ − μ_r) g (the spin of `along`: −2).
    let (mu, mu_r) = (0.3, 0.1);
    let mut scene = disc_on_slope(0.0, 2.0, mu, mu_r, "TimeStepping");
    scene.world.state.qd[2] = 0.0;
    let mut w = scene.world;
    let t = 0.1;
    run(&mut w, t);
    let (v, omega) = along(&w, 0.0);
    assert!((v - (2.0 - mu * G * t)).abs() < 1e-9, "v {v}");
    assert!((omega * R + 2.0 * (mu - mu_r) * G * t).abs() < 1e-9, "r ω {}", omega * R);
}

#[test]
fn the_event_driven_scheme_says_it_cannot_and_moves_nothing() {
    let mut w = disc_on_slope(0.0, 1.0, 0.8, 0.1, "EventDriven").world;
    let start = w.state.clone();
    let r = w.step(1e-3);
    match r.status {
        StepStatus::Unsolved { cause } => assert!(cause.contains("time-stepping"), "{cause}"),
        other => panic!("{other:?}"),
    }
    assert_eq!(w.state.q, start.q);
    assert_eq!(w.state.t, start.t);
}

#[test]
fn rolling_resistance_on_a_smooth_wall_is_refused_with_its_field() {
    let text = "Scene(name: \"x\", gravity: (0, -9.81),
        bodies: [Disc(name: \"d\", position: (0, 0.1), radius: 0.1, mass: 1.0)],
        walls: [(name: \"floor\", normal: (0, 1), offset: 0, rolling: 0.1)])";
    let e = parse(text, "smooth.ron", &Default::default()).unwrap_err();
    assert_eq!(e.field.as_deref(), Some("walls[0].rolling"), "{e}");
    assert!(e.message.contains("smooth"), "{e}");
    let text = "Scene(name: \"x\", gravity: (0, -9.81),
        bodies: [Disc(name: \"d\", position: (0, 0.1), radius: 0.1, mass: 1.0)],
        walls: [(name: \"floor\", normal: (0, 1), offset: 0, friction: 0.5, rolling: -0.1)])";
    let e = parse(text, "negative.ron", &Default::default()).unwrap_err();
    assert_eq!(e.field.as_deref(), Some("walls[0].rolling"), "{e}");
}

/// The box cone's law at `v`, from the problem's own data, independent of
/// the solvers: for each contact, normal complementarity, `|P_t| ≤ μ P_n`
/// and `|P_m| ≤ μ_r P_n`, and along `t` and along `m` each: no motion
/// inside the bound, the impulse at the bound against any motion. Returns
/// the worst breach relative to the problem's scales, speeds `s` (the
/// data's, and those the impulses give) and impulses `p` (the largest),
/// complementarity as a product, in the form of the solvers' contract
/// (`contact_core::lcp::CONTRACT`).
#[allow(clippy::too_many_arguments)]
fn breach(rows: &Rows, minv: &[f64], c: &[f64], v: &[f64], pn: &[f64], pt: &[f64], pm: &[f64], data: f64) -> f64 {
    // An impulse that would change the data's speeds by their size counts
    // as the impulses' scale where they are smaller (all 0 but round-off).
    let wmax = minv.iter().fold(f64::MIN_POSITIVE, |m, w| m.max(*w));
    let ps = pn.iter().chain(pt).chain(pm).fold(data / wmax, |m, p| m.max(p.abs()));
    let s = data + ps * wmax;
    let mut worst = 0.0_f64;
    for i in 0..rows.normal.len() {
        let un = rows.normal[i].dot(v) + c[i];
        worst = worst.max(-pn[i] / ps).max(-un / s).max((pn[i] * un).abs() / (ps * s));
        let laws = [rows.tangent[i].map(|(t, mu)| (t, mu, pt[i])), rows.roll[i].map(|(m, mu_r)| (m, mu_r, pm[i]))];
        for (row, mu, p) in laws.into_iter().flatten() {
            let (u, bound) = (row.dot(v), mu * pn[i]);
            worst = worst.max((p.abs() - bound) / ps);
            // Moving: the impulse at the bound against the motion; inside
            // the bound: no motion.
            worst = worst.max((p + u.signum() * bound).abs() * u.abs() / (ps * s));
        }
    }
    worst
}

#[test]
fn random_islands_with_rolling_resistance_meet_the_box_cones_law_by_both_methods() {
    let mut rng = Lcg::new(46);
    let (mut fixed_point, mut lemke) = (0, 0);
    for case in 0..300 {
        let n = 1 + case % 6;
        let dofs = 3 * n;
        let minv: Vec<f64> = (0..dofs).map(|_| rng.range(0.2, 5.0)).collect();
        let row = |rng: &mut Lcg, k: usize| {
            let cols: Vec<(usize, f64)> =
                (0..k).map(|_| ((rng.next() * dofs as f64) as usize, rng.range(-1.0, 1.0))).collect();
            SparseRow::from_entries(&cols)
        };
        let normal: Vec<SparseRow> = (0..n).map(|_| row(&mut rng, 3)).collect();
        let tangent: Vec<SparseRow> = (0..n).map(|_| row(&mut rng, 2)).collect();
        let roll: Vec<SparseRow> = (0..n).map(|_| row(&mut rng, 1)).collect();
        let mu: Vec<f64> = (0..n).map(|_| rng.range(0.05, 1.5)).collect();
        let mu_r: Vec<f64> = (0..n).map(|_| if rng.next() < 0.2 { 0.0 } else { rng.range(0.01, 0.8) }).collect();
        let vfree: Vec<f64> = (0..dofs).map(|_| rng.range(-2.0, 2.0)).collect();
        let c: Vec<f64> = (0..n).map(|_| rng.range(-0.5, 0.5)).collect();
        let rows = Rows {
            normal: normal.iter().collect(),
            tangent: (0..n).map(|i| Some((&tangent[i], mu[i]))).collect(),
            roll: (0..n).map(|i| (mu_r[i] > 0.0).then(|| (&roll[i], mu_r[i]))).collect(),
            neq: 0,
        };
        let scale = vfree.iter().chain(&c).fold(0.0_f64, |m, x| m.max(x.abs()));
        let zero = vec![0.0; n];
        let start = Impulses { normal: &zero, tangent: &zero, roll: &zero };
        let a = cone_fixed_point::solve(&rows, &minv, &vfree, &c, &start, &zero, 0.0, Patience::Full);
        if a.capped.is_none() {
            fixed_point += 1;
            let b = breach(&rows, &minv, &c, &a.qd, &a.normal, &a.tangent, &a.roll, scale);
            assert!(b < 1e-7, "case {case}: the fixed point's answer breaks the law by {b:e}");
        }
        let ap = anitescu_potra::Problem::new(&rows, &minv, &vfree, &c).expect("no equalities");
        if let Ok(answer) = ap.solve() {
            lemke += 1;
            let mut v = vfree.clone();
            for i in 0..n {
                let pushes =
                    [(rows.normal[i], answer.normal[i]), (&tangent[i], answer.tangent[i]), (&roll[i], answer.roll[i])];
                for (r, p) in pushes {
                    r.entries().iter().for_each(|(j, x)| v[*j] += p * x * minv[*j]);
                }
            }
            let b = breach(&rows, &minv, &c, &v, &answer.normal, &answer.tangent, &answer.roll, scale);
            assert!(b < 1e-7, "case {case}: Lemke's answer breaks the law by {b:e}");
        }
    }
    // Both methods answer (nearly) every island: the law always has an answer here.
    assert!(fixed_point >= 290 && lemke >= 290, "fixed point {fixed_point}, Lemke {lemke} of 300");
}

/// A live change of every contact's `μ` and `μ_r` (the Algorithm panel's
/// fields) is logged, and the log replays the run bit for bit; with `μ = 0`
/// the rows lose their friction and rolling rows at once, new rows too.
#[test]
fn a_live_change_of_the_contacts_coefficients_replays_bit_for_bit() {
    use contact_core::input::{Input, InputLog, Recorder};
    let load = || {
        let overrides = contact_core::scene::Overrides { balls: Some(12), proximity: Some(true) };
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/scenes/heap.ron");
        contact_core::scene::load(std::path::Path::new(path), &overrides).expect("the heap scene")
    };
    let scene = load();
    let (mut w, h) = (scene.world, scene.dt);
    let mut log = InputLog::default();
    let mut rec = Recorder::default();
    let mut hashes = Vec::new();
    for step in 0..900u64 {
        if step == 500 {
            let c = w.model.contact_coefficients().expect("generated contacts");
            assert_eq!(c.pair, (0.5, 0.3));
            w.model.set_contact_coefficients(&c.every(0.0, 0.0));
        }
        rec.observe(&w, h, &[], &[], &mut log);
        let r = w.step(h);
        assert_eq!(r.status, StepStatus::Ok, "step {step}");
        if step >= 500 {
            assert!(w.model.constraints.iter().all(|c| c.friction == 0.0 && c.rolling == 0.0), "step {step}");
        }
        hashes.push(w.state_hash());
    }
    assert_eq!(log.entries.iter().filter(|(_, i)| matches!(i, Input::Contacts(_))).count(), 2, "{:?}", log.entries);
    let mut again = load().world;
    let mut replayed = Vec::new();
    log.replay(&mut again, h, hashes.len() as u64, |w, _| replayed.push(w.state_hash()));
    assert_eq!(replayed, hashes);
}

/// The heap scene's claims without the resistance (its description, tour
/// step 14): poured with `μ_r = 0` the discs roll out to a few degrees,
/// poured frictionless they spread to one layer; with `μ_r = 0.3` they
/// stand at 17.3° (`tests/it/tour.rs` checks that one where the tour stops).
#[test]
fn the_heap_poured_without_rolling_resistance_or_friction_spreads() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/scenes/heap.ron");
    for (mu, mu_r, at_most) in [(0.5, 0.0, 5.0), (0.0, 0.0, 1.0)] {
        let scene = contact_core::scene::load(std::path::Path::new(path), &Default::default()).expect("the heap");
        let (mut w, h) = (scene.world, scene.dt);
        let c = w.model.contact_coefficients().expect("generated contacts");
        w.model.set_contact_coefficients(&c.every(mu, mu_r));
        for _ in 0..5000 {
            let r = w.step(h);
            assert_eq!(r.status, StepStatus::Ok, "μ = {mu}, μ_r = {mu_r}, t = {}", r.t);
        }
        let angle = contact_core::heap::repose_angle(&w.model, &w.state).expect("grains on the floor");
        assert!(angle < at_most, "μ = {mu}, μ_r = {mu_r}: {angle}° at 5 s");
    }
}

/// "Every contact" on a scene whose contacts are fixed rows (no generator):
/// each contact row takes `μ`, and `μ_r` only where it can roll (a disc
/// that turns, on the floor or against a ball); the ball's own floor row,
/// which cannot turn, keeps `μ_r = 0`. The disc then slows on the floor
/// as rolling resistance asks, and the change reads back as set.
#[test]
fn every_contact_reaches_fixed_rows_and_rolling_only_where_a_body_turns() {
    let text = r#"Scene(name: "rows", gravity: (0, -9.81),
        bodies: [Disc(name: "d", position: (0, 0.1), radius: 0.1, mass: 1.0, velocity: (1.0, 0), angular_velocity: -10.0),
                 Ball(name: "b", position: (2, 0.05), radius: 0.05, mass: 1.0)],
        walls: [(name: "floor", normal: (0, 1), offset: 0)],
        ball_pairs: true,
        solver: (scheme: TimeStepping, dt: 1e-3))"#;
    let mut w = parse(text, "rows", &Default::default()).expect("the scene").world;
    assert!(w.model.contacts.is_none(), "fixed rows");
    let c = w.model.contact_coefficients().expect("contact rows");
    assert_eq!(c.rows, vec![(0.0, 0.0); 3], "floor:d, floor:b, d-b");
    w.model.set_contact_coefficients(&c.every(0.4, 0.1));
    let names = |k: usize| w.model.constraints[k].name.clone();
    let set: Vec<(String, f64, f64)> =
        (0..3).map(|k| (names(k), w.model.constraints[k].friction, w.model.constraints[k].rolling)).collect();
    for (name, mu, mu_r) in &set {
        assert_eq!(*mu, 0.4, "{name}");
        let rolls = name.contains('d');
        assert_eq!(*mu_r, if rolls { 0.1 } else { 0.0 }, "{name}: {set:?}");
    }
    let back = w.model.contact_coefficients().expect("contact rows");
    assert_eq!(back.mu_range(), (0.4, 0.4));
    // Rolling without slipping (v = −ω r = 1 m/s), it slows at (2/3) μ_r g.
    for _ in 0..200 {
        assert_eq!(w.step(1e-3).status, StepStatus::Ok);
    }
    let v = w.state.qd[0];
    let expected = 1.0 - 2.0 / 3.0 * 0.1 * 9.81 * 0.2;
    assert!((v - expected).abs() < 1e-6, "v = {v}, expected {expected}");
}

/// Rolling resistance written on an explicit half-plane (a scene file's
/// `HalfPlane(…, friction, rolling)`): the row takes it, and a disc rolling
/// on it slows at (2/3) μ_r g; written without friction, the load refuses it
/// and names the field.
#[test]
fn an_explicit_half_plane_takes_its_rolling_resistance_or_names_the_field() {
    let text = |friction: f64| {
        format!(
            r#"Scene(name: "plane", gravity: (0, -9.81),
            bodies: [Disc(name: "d", position: (0, 0.1), radius: 0.1, mass: 1.0, velocity: (1.0, 0), angular_velocity: -10.0)],
            constraints: [HalfPlane(name: "floor", body: "d", normal: (0, 1), friction: {friction}, rolling: 0.1)],
            solver: (scheme: TimeStepping, dt: 1e-3))"#
        )
    };
    let mut w = parse(&text(0.4), "plane", &Default::default()).expect("the scene").world;
    assert_eq!((w.model.constraints[0].friction, w.model.constraints[0].rolling), (0.4, 0.1));
    for _ in 0..200 {
        assert_eq!(w.step(1e-3).status, StepStatus::Ok);
    }
    let expected = 1.0 - 2.0 / 3.0 * 0.1 * 9.81 * 0.2;
    assert!((w.state.qd[0] - expected).abs() < 1e-6, "v = {}, expected {expected}", w.state.qd[0]);
    let e = parse(&text(0.0), "plane", &Default::default()).expect_err("rolling on a smooth plane");
    assert!(e.to_string().contains("constraints[0].rolling"), "{e}");
}
