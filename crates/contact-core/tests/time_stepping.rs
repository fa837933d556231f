//! Moreau–Jean time-stepping ([`contact_core::timestep`]), checked where
//! closed forms look (a ball dropped on a floor, its bounce, a pendulum) and
//! where they do not: a pile landing from its own start, small random
//! problems against a brute-force enumeration of the velocity problem's
//! active sets.

use contact_core::lcp::{self, Stop};
use contact_core::scene::{Overrides, Scene, parse};
use contact_core::{ConstraintKind, Scheme, StepStatus, World};

fn scene(text: &str) -> Scene {
    parse(text, "test", &Overrides::default()).unwrap_or_else(|e| panic!("{e}"))
}

fn ball_on_floor(restitution: f64) -> World {
    let mut w = scene(&format!(
        r#"Scene(
            name: "drop",
            gravity: (0, -9.81),
            bodies: [Ball(name: "b", position: (0, 1), mass: 1, radius: 0.1)],
            walls: [(name: "floor", normal: (0, 1), offset: 0)],
            solver: (scheme: TimeStepping, dt: 1e-3, restitution: {restitution}),
        )"#
    ))
    .world;
    assert_eq!(w.settings.scheme, Scheme::TimeStepping);
    w.settings.events.min_impact_speed = 1e-3;
    w
}

/// The floor's gap of the ball.
fn height(w: &World) -> f64 {
    w.state.q[1] - 0.1
}

#[test]
fn a_plastic_ball_lands_on_the_floor_exactly_and_stays() {
    let mut w = ball_on_floor(0.0);
    let mut landed = None;
    for i in 0..1500 {
        let r = w.step(1e-3);
        assert_eq!(r.status, StepStatus::Ok);
        assert!(r.solves <= 1, "one velocity problem a step, got {}", r.solves);
        // Linear gap: the step ends on the floor to round-off, never under it.
        assert!(height(&w) >= -1e-15, "step {i}: {:e} under the floor", -height(&w));
        if landed.is_none() && height(&w) < 1e-12 {
            landed = Some(i);
        }
    }
    let landed = landed.expect("the ball lands");
    // Free fall of 0.9 m: t = sqrt(2 · 0.9 / 9.81) = 0.428 s, to within a step.
    let t = (landed + 1) as f64 * 1e-3;
    assert!((t - (1.8f64 / 9.81).sqrt()).abs() < 2e-3, "landed at {t}");
    assert!(w.state.qd[1].abs() < 1e-12, "at rest: {}", w.state.qd[1]);
}

#[test]
fn a_bouncing_ball_rebounds_at_e_times_its_speed_and_comes_to_rest_in_finite_time() {
    let e = 0.5;
    let mut w = ball_on_floor(e);
    let mut energy = w.model.total_energy(&w.state);
    let mut bounces = Vec::new();
    let mut rest = None;
    for i in 0..6000 {
        let before = w.state.qd[1];
        let r = w.step(1e-3);
        assert_eq!(r.status, StepStatus::Ok);
        assert!(height(&w) >= -1e-15);
        // No step creates energy: gravity's work is counted in the total.
        let now = w.model.total_energy(&w.state);
        assert!(now <= energy + 1e-12, "step {i}: energy {energy} -> {now}");
        energy = now;
        if before < -1e-3 && w.state.qd[1] > 0.0 {
            bounces.push((before, w.state.qd[1]));
        }
        if rest.is_none() && w.state.qd[1] == 0.0 && height(&w) < 1e-12 && i > 500 {
            rest = Some(i);
        }
    }
    assert!(bounces.len() >= 3, "bounces: {bounces:?}");
    // Newton's law on this step's own velocity, less the step's gravity:
    // v⁺ = −e v⁻ − h g.
    let (v0, v1) = bounces[0];
    assert!((v1 - (-e * v0 - 9.81e-3)).abs() < 1e-12, "{v1} against {}", -e * v0 - 9.81e-3);
    // Zeno: infinitely many bounces in finite time for the exact law; the
    // step's threshold ends them, with no special case.
    let rest = rest.expect("comes to rest");
    assert!(rest < 6000);
    assert!(bounces.len() < 40, "{} bounces", bounces.len());
}

#[test]
fn a_pile_lands_from_its_own_start_with_no_penetration_and_one_solve_a_step() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/scenes/ball-pile.ron"))
        .expect("the pile's scene");
    for balls in [30, 60] {
        let mut w = parse(&text, "ball-pile.ron", &Overrides { balls: Some(balls), ..Default::default() })
            .unwrap_or_else(|e| panic!("{e}"))
            .world;
        w.settings.scheme = Scheme::TimeStepping;
        let (mut worst, mut more) = (0.0_f64, 0);
        for _ in 0..1500 {
            let r = w.step(1e-3);
            assert_eq!(r.status, StepStatus::Ok, "{balls} balls at t = {}", r.t);
            assert!(r.events.is_empty());
            worst = worst.max(r.max_violation);
            more += usize::from(r.solves > 1);
        }
        // Discs on discs and walls: the gap is convex, its linearization
        // lands every row on or outside its surface.
        assert!(worst <= 1e-9, "{balls} balls: {worst:e} m");
        eprintln!("{balls} balls: worst {worst:e} m, {more} steps with more than one solve");
        assert!(more <= 15, "{balls} balls: {more} steps needed more than one solve");
        // Settled: nothing moves faster than a few steps of gravity.
        let speed = w.state.qd.iter().fold(0.0_f64, |m, v| m.max(v.abs()));
        assert!(speed < 0.05, "{balls} balls still move at {speed} m/s after 1.5 s");
    }
}

#[test]
fn a_pendulum_rod_is_held_at_the_position_level() {
    let mut w = scene(
        r#"Scene(
            name: "pendulum",
            gravity: (0, -9.81),
            bodies: [
                Anchor(name: "pivot", position: (0, 0)),
                Particle(name: "bob", position: (1, 0), mass: 1),
            ],
            constraints: [Rod(name: "rod", a: "pivot", b: "bob")],
            solver: (scheme: TimeStepping, dt: 1e-3),
        )"#,
    )
    .world;
    let mut worst = 0.0_f64;
    for _ in 0..3000 {
        let r = w.step(1e-3);
        assert_eq!(r.status, StepStatus::Ok);
        worst = worst.max(r.max_violation);
    }
    // Each step lands the linearized rod on its length; what is left is the
    // rod's curvature over the step, h² v² / (2 L): 2.2e-5 m at the bottom.
    // Bottom speed sqrt(2 g L) = 4.43 m/s: h² v² / (2 L) = 9.8e-6 m.
    let bound = 1e-6 * 2.0 * 9.81 / 2.0;
    assert!(worst <= 1.1 * bound, "rod off by {worst:e} m, bound {bound:e}");
    assert!(worst > 0.0);
}

/// A small random problem solved by brute force: for every subset `S` of the
/// inequalities, `P_S` from `A_SS P_S = b_S` (a dense solve), and the one
/// with `P_S ≥ 0` and `A P − b ≥ 0` off `S`. The velocity after the step is
/// unique (strictly convex primal), so both answers must give the same `q̇⁺`.
#[test]
fn small_random_problems_agree_with_brute_force_enumeration() {
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed >> 11) as f64 / (1u64 << 53) as f64
    };
    let mut checked = 0;
    for case in 0..300 {
        // Three balls near a floor and two walls, moving at random.
        let mut bodies = String::new();
        for i in 0..3 {
            let x = 0.15 + 0.22 * i as f64 + 0.018 * (next() - 0.5);
            let y = 0.1 + 0.01 * next();
            bodies += &format!(
                "Ball(name: \"b{i}\", position: ({x}, {y}), velocity: ({}, {}), mass: {}, radius: 0.1),",
                4.0 * (next() - 0.5),
                -3.0 * next(),
                0.5 + next()
            );
        }
        let mut w = scene(&format!(
            r#"Scene(
                name: "random",
                gravity: (0, -9.81),
                bodies: [{bodies}],
                walls: [
                    (name: "floor", normal: (0, 1), offset: 0),
                    (name: "left", normal: (1, 0), offset: 0),
                    (name: "right", normal: (-1, 0), offset: -0.75),
                ],
                ball_pairs: true,
                solver: (scheme: TimeStepping, dt: 1e-3, restitution: 0),
            )"#
        ))
        .world;
        let h = 1e-2;
        let start = w.state.clone();
        let problem = contact_core::ContactProblem::new(&w.model, &w.state, w.settings.tau);
        let r = w.step(h);
        assert_eq!(r.status, StepStatus::Ok, "case {case}");
        // Brute force on every inequality row, with c = g/h (plastic).
        let rows: Vec<usize> =
            (0..problem.nconstraints()).filter(|&k| problem.kinds[k] == ConstraintKind::Inequality).collect();
        let vfree: Vec<f64> =
            start.qd.iter().zip(&problem.f).zip(&problem.minv).map(|((v, f), m)| v + h * f * m).collect();
        let m = rows.len();
        let a = |i: usize, j: usize| -> f64 {
            let (ri, rj) = (&problem.rows[rows[i]].row, &problem.rows[rows[j]].row);
            ri.entries()
                .iter()
                .map(|(c, v)| {
                    v * problem.minv[*c] * rj.entries().iter().filter(|(d, _)| d == c).map(|(_, x)| x).sum::<f64>()
                })
                .sum()
        };
        let b: Vec<f64> =
            (0..m).map(|i| -(problem.rows[rows[i]].row.dot(&vfree) + problem.rows[rows[i]].g / h)).collect();
        let mut found = None;
        for mask in 0u32..(1 << m) {
            let set: Vec<usize> = (0..m).filter(|i| mask >> i & 1 == 1).collect();
            let n = set.len();
            if n == 0 {
                let free_ok = (0..m).all(|i| -b[i] >= -1e-9 * (1.0 + b[i].abs()));
                if free_ok {
                    found = Some(vec![0.0; m]);
                    break;
                }
                continue;
            }
            let mut mat = nalgebra::DMatrix::<f64>::zeros(n, n);
            let mut rhs = nalgebra::DVector::<f64>::zeros(n);
            for (x, &i) in set.iter().enumerate() {
                rhs[x] = b[i];
                for (y, &j) in set.iter().enumerate() {
                    mat[(x, y)] = a(i, j);
                }
            }
            let Some(p) = mat.clone().lu().solve(&rhs) else { continue };
            if (&mat * &p - &rhs).amax() > 1e-9 * (1.0 + rhs.amax()) || p.iter().any(|v| *v < -1e-9) {
                continue;
            }
            let mut full = vec![0.0; m];
            for (x, &i) in set.iter().enumerate() {
                full[i] = p[x];
            }
            let ok =
                (0..m).all(|i| (0..m).map(|j| a(i, j) * full[j]).sum::<f64>() - b[i] >= -1e-9 * (1.0 + b[i].abs()));
            if ok {
                found = Some(full);
                break;
            }
        }
        let p = found.unwrap_or_else(|| panic!("case {case}: no active set holds"));
        let mut impulse = vec![0.0; problem.nconstraints()];
        for (i, &k) in rows.iter().enumerate() {
            impulse[k] = p[i];
        }
        let dv = problem.velocity_change(&impulse);
        for (i, ((v, d), got)) in vfree.iter().zip(&dv).zip(&w.state.qd).enumerate() {
            let want = v + d;
            assert!((want - got).abs() <= 1e-9 * (1.0 + want.abs()), "case {case}, q̇[{i}]: {got} against {want}");
        }
        checked += usize::from(p.iter().any(|v| *v > 0.0));
    }
    // Most cases have contacts that take impulses (not only free flight).
    assert!(checked > 100, "only {checked} cases with an impulse");
}

/// A step far longer than the scene's motions (one second on Box2D's
/// pyramid, falling): its margin sweeps every corner past every edge, tens
/// of thousands of rows that share every coordinate. The step is not
/// solved, and says why, instead of factoring for minutes (the scene
/// fuzzer met it on a larger pyramid).
#[test]
fn a_problem_past_what_a_step_factors_is_refused_and_said() {
    let path = format!("{}/../../assets/scenes/box-pyramid.ron", env!("CARGO_MANIFEST_DIR"));
    let s = contact_core::scene::load(std::path::Path::new(&path), &Overrides::default()).expect("scene loads");
    let mut w = s.world;
    w.settings.scheme = Scheme::TimeStepping;
    // Falling at 10 m/s: the next one-second step's margin is 40 m.
    for b in 0..w.model.bodies.len() {
        let o = w.model.bodies[b].offset;
        w.state.qd[o + 1] = -10.0;
    }
    let report = w.step(1.0);
    let cap = report.traces.iter().find_map(|t| t.capped).expect("the step says it was not solved");
    assert!(matches!(cap.why, Stop::TooLarge(pairs) if pairs > lcp::MAX_COUPLING), "{cap:?}");
    assert!(cap.sentence().contains("share coordinates") && cap.sentence().contains("not solved"));
    // Unsolved, the bodies fall through one another: the status says so
    // (here the divergence check, 20 m inside).
    assert!(!matches!(report.status, StepStatus::Ok), "{:?}", report.status);
    assert!(w.state.q.iter().all(|q| q.is_finite()));
    // Its cause names the scheme's own knob, not Baumgarte's τ, which
    // time-stepping does not have.
    let StepStatus::Diverged { cause, .. } = &report.status else { panic!("{:?}", report.status) };
    assert!(cause.contains("under time-stepping") && !cause.contains("Baumgarte"), "{cause}");
}
