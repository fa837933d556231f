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
        &format!("Box(name: \"block\", position: ({}, {}), angle: {theta}, size: (0.2, 0.1), mass: 1)", c.0, c.1),
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
    let s =
        scene(&format!("Disc(name: \"disc\", position: ({}, {}), radius: 0.1, mass: 1)", c.0, c.1), &slope(theta, mu));
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
    let mut dissipated = 0.0;
    while s.world.state.t < 1.0 {
        dissipated += s.world.step(s.dt).friction_work;
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
    // What friction took out is what the disc lost (the report's books balance).
    assert_relative_eq!(dissipated, e0 - e, max_relative = 1e-2);
    // Rolling, it keeps its speed.
    assert_relative_eq!(s.world.state.qd[0], v, max_relative = 1e-9);
}

/// The ladder of `ladder.ron` (2 m, 60° from the floor, a smooth wall) on
/// a rough floor stands when `μ ≥ 1/(2 tan β) = 0.2887`, and slides below.
#[test]
fn a_ladder_on_a_rough_floor_stands_above_its_friction_bound() {
    let beta = 60f64.to_radians();
    let bound = 1.0 / (2.0 * beta.tan());
    assert_relative_eq!(bound, 0.2887, max_relative = 1e-3);
    let ladder = |mu: f64| {
        let text = format!(
            "Scene(name: \"t\", gravity: (0, -9.81), bodies: [Box(name: \"ladder\", position: (0.5, {}), \
             angle: {}, size: (2.0, 0.03), mass: 1.0, inertia: 0.33333333)], constraints: [\
             HalfPlane(name: \"wall\", body: \"ladder\", normal: (1, 0), at: (-1.0, 0)), \
             HalfPlane(name: \"floor\", body: \"ladder\", normal: (0, 1), at: (1.0, 0), friction: {mu})], \
             solver: (algorithm: Exact, dt: 1e-3, tau: 0.01))",
            beta.sin(),
            -beta
        );
        parse(&text, "ladder.ron", &Default::default()).unwrap_or_else(|e| panic!("{e}"))
    };
    let mut stands = ladder(1.01 * bound);
    run(&mut stands, 2.0);
    let moved = (stands.world.state.q[0] - 0.5).abs() + (stands.world.state.q[1] - beta.sin()).abs();
    assert!(moved < 1e-9, "the ladder moved {moved} m at μ = 1.01 × the bound");
    let mut slides = ladder(0.99 * bound);
    run(&mut slides, 2.0);
    assert!(slides.world.state.q[0] - 0.5 > 0.05, "the foot only moved {} m", slides.world.state.q[0] - 0.5);
}

/// A block 0.2 × 1 m lands flat on its right corner while it turns about
/// its left one (no gravity: the impact alone). With friction enough to
/// stick (μ ≥ 0.1485), the landing corner is a pivot and the spin drops to
/// `1 − (3/2) sin²α = 0.94231` of itself (`tan α = b/h`), Housner's
/// rocking block; without friction, to `(h² − 2b²)/(h² + 4b²) = 0.7931`.
#[test]
fn a_rocking_block_keeps_housners_share_of_its_spin_on_a_rough_floor() {
    let (b, h, omega) = (0.1_f64, 0.5_f64, -1.0);
    let sin2 = b * b / (b * b + h * h);
    let housner = 1.0 - 1.5 * sin2;
    assert_relative_eq!(housner, 0.94231, max_relative = 1e-5);
    // Turning about the left corner (−b, −h): the centroid moves at ω × (b, h).
    let v = (-omega * h, omega * b);
    let after = |mu: f64| {
        let text = format!(
            "Scene(name: \"t\", gravity: (0, 0), bodies: [Box(name: \"block\", position: (0, {h}), \
             velocity: ({}, {}), angular_velocity: {omega}, size: ({}, {}), mass: 1.0)], \
             walls: [(name: \"floor\", normal: (0, 1), friction: {mu})], \
             solver: (algorithm: Exact, dt: 1e-3, tau: 0.01, restitution: 0.0))",
            v.0,
            v.1,
            2.0 * b,
            2.0 * h
        );
        let mut s = parse(&text, "rocking.ron", &Default::default()).unwrap_or_else(|e| panic!("{e}"));
        let e0 = s.world.model.kinetic_energy(&s.world.state);
        let report = s.world.step(s.dt);
        assert_eq!(report.events.len(), 1);
        assert!(s.world.model.kinetic_energy(&s.world.state) <= e0);
        (s.world.state.qd[2] / omega, report.events[0].clone())
    };
    let (ratio, event) = after(0.5);
    assert_relative_eq!(ratio, housner, max_relative = 1e-9);
    let (pn, pt) = (event.impulse[0].1, event.friction[0].1);
    assert!(pt.abs() <= 0.1485 * pn * 1.001, "the pivot needs μ ≥ {}", pt.abs() / pn);
    assert!(pt.abs() >= 0.1485 * pn * 0.999, "the bound is μ = {}", pt.abs() / pn);
    // Frictionless floor: the paper's (and rocking-block.ron's) ratio.
    let (smooth, _) = after(0.0);
    assert_relative_eq!(smooth, (h * h - 2.0 * b * b) / (h * h + 4.0 * b * b), max_relative = 1e-9);
}

/// Painlevé's rod: 1 m (half-length 0.5), at 60° from a floor with μ = 2,
/// its foot sliding away from under it. Sliding, the foot's normal
/// acceleration is `(1 + 3cos²θ − 3μ sinθ cosθ) λ_n/m − g + l θ̇² sinθ`, with
/// a negative coefficient: no force `λ_n ≥ 0` is consistent while
/// `l θ̇² sinθ < g`, i.e. `θ̇ < 4.760 rad/s`. Below, the lab says so and takes
/// the impulse of an impact without collision (the foot stops); above, the
/// foot lifts off with `λ = 0`.
#[test]
fn painleves_rod_has_no_consistent_force_below_the_closed_form_spin() {
    let (l, theta, mu, u) = (0.5_f64, 60f64.to_radians(), 2.0, 1.0);
    let bound = (9.81 / (l * theta.sin())).sqrt();
    assert_relative_eq!(bound, 4.760, max_relative = 1e-4);
    let step = |spin: f64| {
        // Foot at the origin sliding left at u, with no normal velocity.
        let (vx, vy) = (-u - l * spin * theta.sin(), l * spin * theta.cos());
        let text = format!(
            "Scene(name: \"t\", gravity: (0, -9.81), bodies: [Box(name: \"rod\", position: ({}, {}), angle: {theta}, \
             velocity: ({vx}, {vy}), angular_velocity: {spin}, size: (1.0, 0.01), mass: 1.0, inertia: {})], \
             constraints: [HalfPlane(name: \"foot\", body: \"rod\", normal: (0, 1), at: (-0.5, 0), friction: {mu})], \
             solver: (algorithm: Exact, dt: 1e-3, tau: 0.01, restitution: 0.0))",
            l * theta.cos(),
            l * theta.sin(),
            l * l / 3.0
        );
        let mut s = parse(&text, "painleve.ron", &Default::default()).unwrap_or_else(|e| panic!("{e}"));
        let e0 = s.world.model.total_energy(&s.world.state);
        let report = s.world.step(s.dt);
        assert!(s.world.model.total_energy(&s.world.state) <= e0 + 1e-9);
        (s, report)
    };
    for spin in [0.0, 4.0, 0.99 * bound] {
        let (s, report) = step(spin);
        let event = report.events.iter().find(|e| !e.without_collision.is_empty());
        let event = event.unwrap_or_else(|| panic!("θ̇ = {spin}: no impact without collision"));
        assert!(report.traces.iter().any(|t| !t.inconsistent.is_empty()), "the trace says why");
        assert!(event.impulse[0].1 > 0.0);
        // The impulse stops the foot (μ = 2 holds it); what is left of the
        // step may set it slipping again, by mm/s against the 1 m/s before.
        assert!(event.friction[0].1.abs() <= mu * event.impulse[0].1);
        let foot_vx = s.world.state.qd[0] + l * s.world.state.qd[2] * s.world.state.q[2].sin();
        assert!(foot_vx.abs() < 1e-2 * u, "θ̇ = {spin}: the foot still slides at {foot_vx}");
    }
    let (_, report) = step(1.01 * bound);
    assert!(report.events.is_empty(), "{:?}", report.events);
    assert!(report.traces.iter().all(|t| t.inconsistent.is_empty()));
    assert_eq!(report.lambda[0], 0.0, "the foot lifts");
}

/// Kane's example is a double pendulum striking a rough floor, where
/// Newton's restitution with Coulomb friction gives the pendulum more
/// energy than it had. A rod striking a rough floor does the same: over
/// random rods, angles, spins and `μ`, Newton's law with `e = 1` and the
/// cone, solved alone (the velocity-level problem, no guard), gains energy
/// in some impacts; the lab's impact never does ([`contact_core::friction_impact`]).
#[test]
fn no_impact_with_friction_creates_energy_where_newtons_law_would() {
    use contact_core::coulomb::{FrictionContact, Problem};
    use contact_core::kkt::ContactProblem;
    use nalgebra::DMatrix;
    let mut rng = contact_core::testing::Lcg::new(7);
    let mut rnd = move || rng.next();
    let (mut gains, mut cases) = (0, 0);
    for _ in 0..400 {
        let theta = (10.0 + 70.0 * rnd()).to_radians();
        let (vx, vy, spin, mu) = (4.0 * rnd() - 2.0, -0.5 - 2.5 * rnd(), 10.0 * rnd() - 5.0, 0.1 + 1.9 * rnd());
        let text = format!(
            "Scene(name: \"t\", gravity: (0, 0), bodies: [Box(name: \"rod\", position: ({}, {}), angle: {theta}, \
             velocity: ({vx}, {vy}), angular_velocity: {spin}, size: (1.0, 0.01), mass: 1.0, inertia: {})], \
             constraints: [HalfPlane(name: \"foot\", body: \"rod\", normal: (0, 1), at: (-0.5, 0), friction: {mu})], \
             solver: (algorithm: Exact, dt: 1e-3, tau: 0.01, restitution: 1.0, min_impact_speed: 0.0))",
            0.5 * theta.cos(),
            0.5 * theta.sin(),
            1.0 / 12.0
        );
        let mut s = parse(&text, "kane.ron", &Default::default()).unwrap_or_else(|e| panic!("{e}"));
        let p = ContactProblem::new(&s.world.model, &s.world.state, 0.01);
        let qd = s.world.state.qd.clone();
        let (n, t) = (p.rows[0].row, p.tangents[0].expect("friction").row);
        if n.dot(&qd) >= 0.0 {
            continue; // the foot leaves: no impact
        }
        cases += 1;
        let rows = [n, t];
        let a = DMatrix::from_fn(2, 2, |i, j| rows[i].weighted_dot(&rows[j], &p.minv));
        let newton = Problem::new(
            a,
            vec![-2.0 * n.dot(&qd), -t.dot(&qd)],
            0,
            1,
            vec![FrictionContact { normal: 0, tangent: 1, mu, sliding: None }],
        );
        let lambda = newton.solve(newton.start(&[true])).expect("the velocity problem has an answer").lambda;
        let mut after = qd.clone();
        for (r, l) in rows.iter().zip(&lambda) {
            for (i, x) in r.entries() {
                after[*i] += l * x * p.minv[*i];
            }
        }
        let ke = |v: &[f64]| v.iter().zip(&p.minv).map(|(v, w)| 0.5 * v * v / w).sum::<f64>();
        if ke(&after) > ke(&qd) * (1.0 + 1e-9) {
            gains += 1;
        }
        let e0 = s.world.model.kinetic_energy(&s.world.state);
        s.world.step(s.dt);
        let e1 = s.world.model.kinetic_energy(&s.world.state);
        assert!(e1 <= e0 * (1.0 + 1e-12), "θ = {theta}, μ = {mu}: {e0} J became {e1} J");
    }
    assert!(cases > 100, "{cases} impacts");
    assert!(gains > 0, "Newton's law with friction never gained energy in {cases} impacts");
    eprintln!("Newton's law with friction gained energy in {gains} of {cases} impacts");
}

/// Two discs meeting off-centre with `pair_friction: 0.05` and `e = 1`
/// pick up spin: the friction impulse is on the cone's edge (the contact
/// slides throughout), `|P_t| = μ P_n`, both discs turn the same way by
/// `r P_t / I`, momentum is kept and no energy is made.
#[test]
fn billiard_balls_pick_up_spin_from_friction_between_them() {
    let r = 0.1;
    let text = format!(
        "Scene(name: \"t\", gravity: (0, 0), bodies: [\
         Disc(name: \"a\", position: (0, 0), velocity: (2, 0), radius: {r}, mass: 1), \
         Disc(name: \"b\", position: ({}, {}), radius: {r}, mass: 1)], ball_pairs: true, pair_friction: 0.05, \
         ball_pair_restitution: 1.0, solver: (algorithm: Exact, dt: 1e-3, tau: 0.01))",
        3.0 * r,
        r
    );
    let mut s = parse(&text, "billiard.ron", &Default::default()).unwrap_or_else(|e| panic!("{e}"));
    let e0 = s.world.model.kinetic_energy(&s.world.state);
    let mut hit = None;
    while s.world.state.t < 0.2 {
        let report = s.world.step(s.dt);
        if let Some(e) = report.events.first() {
            hit = Some(e.clone());
        }
    }
    let e = hit.expect("they meet");
    let (pn, pt) = (e.impulse[0].1, e.friction[0].1);
    assert_relative_eq!(pt.abs(), 0.05 * pn, max_relative = 1e-9);
    let q = &s.world.state.qd;
    let inertia = 0.5 * r * r;
    assert!(q[2].abs() > 0.1, "a does not spin: {}", q[2]);
    assert_relative_eq!(q[2], q[5], max_relative = 1e-9);
    assert_relative_eq!(q[2].abs(), r * pt.abs() / inertia, max_relative = 1e-9);
    assert_relative_eq!(q[0] + q[3], 2.0, max_relative = 1e-12);
    assert!((q[1] + q[4]).abs() < 1e-12);
    assert!(s.world.model.kinetic_energy(&s.world.state) <= e0);
}

/// Friction in one island changes nothing in another: a ball bouncing on a
/// smooth floor (e = 0.8, Moreau's law) follows the same trajectory, bit
/// for bit, whether or not a block slides on a rough slope elsewhere in the
/// scene (the solve and the impacts take the rough island apart).
#[test]
fn a_rough_island_leaves_the_smooth_ones_bit_for_bit() {
    let ball = "Ball(name: \"ball\", position: (5, 0.3), velocity: (0.3, 0), mass: 1, radius: 0.1)";
    let floor = "HalfPlane(name: \"floor\", body: \"ball\", normal: (0, 1), restitution: 0.8)";
    let theta = 30f64.to_radians();
    let c = on_slope(theta, 1.0, 0.05);
    let block = format!(
        "Box(name: \"block\", position: ({}, {}), angle: {theta}, velocity: ({}, {}), size: (0.2, 0.1), mass: 1)",
        c.0,
        c.1,
        -theta.cos(),
        -theta.sin()
    );
    let slope = |name: &str, at: &str| {
        format!(
            "HalfPlane(name: \"{name}\", body: \"block\", normal: ({}, {}), at: ({at}, -0.05), friction: 0.2)",
            -theta.sin(),
            theta.cos()
        )
    };
    let text = |bodies: String, constraints: String| {
        format!(
            "Scene(name: \"t\", gravity: (0, -9.81), bodies: [{bodies}], constraints: [{constraints}], \
             solver: (algorithm: Exact, dt: 1e-3, tau: 0.01, restitution: 0.5))"
        )
    };
    let alone = parse(&text(ball.into(), floor.into()), "alone.ron", &Default::default()).unwrap();
    let both =
        text(format!("{ball}, {block}"), format!("{floor}, {}, {}", slope("left", "-0.1"), slope("right", "0.1")));
    let beside = parse(&both, "beside.ron", &Default::default()).unwrap_or_else(|e| panic!("{e}"));
    let (mut a, mut b) = (alone.world, beside.world);
    let mut bounces = 0;
    for _ in 0..1500 {
        let (ra, rb) = (a.step(1e-3), b.step(1e-3));
        bounces += ra.events.len();
        assert_eq!(ra.events.len(), rb.events.iter().filter(|e| e.constraints == vec![0]).count());
        assert_eq!(&a.state.q[..2], &b.state.q[..2], "t = {}", a.state.t);
        assert_eq!(&a.state.qd[..2], &b.state.qd[..2], "t = {}", a.state.t);
    }
    assert!(bounces >= 3, "{bounces} bounces");
    // And the block did slide with friction meanwhile.
    assert!(b.model.has_friction() && b.state.qd[2].hypot(b.state.qd[3]) > 1.0);
}
