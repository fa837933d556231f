//! Random scenes of bodies that turn (issue 27): boxes, convex polygons and
//! discs of random sizes, masses, angles, velocities and spins, dropped
//! between a floor and two side walls onto fixed shapes, under Exact and
//! Right, with a random restitution: 256 of them (`CONTACT_LAB_TURNING_CASES`
//! sets another budget). Each runs 400 steps of 1 ms. Then:
//!
//! 1. nothing is ever non-finite, and every step finishes;
//! 2. no impact makes energy: every event's `energy_lost ≥ −1e-9 E_s`
//!    (`E_s = KE(0) + Σ m |g| L`, `L` the scene's height);
//! 3. the energy never exceeds `E(0)` by more than `10 s⁻¹ · h · E_s`
//!    (semi-implicit Euler's modified energy where constraints bend, the
//!    bound `random_scenes.rs` measured on points and rods);
//! 4. no row is violated by more than Baumgarte's balance on a curved row,
//!    `2 τ² K` with `K` the running maximum of `max_k |J̇_k q̇|` decaying with
//!    time constant `4τ` (a corner of a turning body moves on a circle,
//!    `|J̇q̇| ~ ω² r`; the recovery is critically damped; the allowance of
//!    `random_scenes.rs`), plus on a step with events the bend of a row's
//!    path over the step, `h² (|J q̈| + |J̇ q̇|)`, plus a micrometre (the
//!    activation tolerance): the bodies stay out of each other, out of the
//!    floor, walls and fixed shapes.

use contact_core::StepStatus;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, RngSeed};

#[derive(Clone, Debug)]
enum Shape {
    Box {
        w: f64,
        h: f64,
    },
    Disc {
        r: f64,
    },
    /// A regular polygon of `n` corners on a circle of radius `r`.
    Polygon {
        n: usize,
        r: f64,
    },
}

#[derive(Clone, Debug)]
struct Body {
    shape: Shape,
    mass: f64,
    angle: f64,
    velocity: (f64, f64),
    spin: f64,
}

#[derive(Clone, Debug)]
struct TurningScene {
    bodies: Vec<Body>,
    /// A fixed box on the floor under the drop, or a fixed ramp.
    obstacle: bool,
    restitution: f64,
    right: bool,
    /// Coulomb's `μ` on the walls and between bodies (0: frictionless).
    friction: f64,
}

fn shape() -> impl Strategy<Value = Shape> {
    prop_oneof![
        (0.05f64..0.3, 0.05f64..0.3).prop_map(|(w, h)| Shape::Box { w, h }),
        (0.03f64..0.12).prop_map(|r| Shape::Disc { r }),
        (3usize..7, 0.05f64..0.15).prop_map(|(n, r)| Shape::Polygon { n, r }),
    ]
}

fn body() -> impl Strategy<Value = Body> {
    (shape(), 0.1f64..5.0, -3.2f64..3.2, (-2.0f64..2.0, -2.0f64..1.0), -10.0f64..10.0)
        .prop_map(|(shape, mass, angle, velocity, spin)| Body { shape, mass, angle, velocity, spin })
}

fn scenes() -> impl Strategy<Value = TurningScene> {
    (prop::collection::vec(body(), 1..5), any::<bool>(), prop_oneof![Just(0.0), 0.0f64..1.0], any::<bool>()).prop_map(
        |(bodies, obstacle, restitution, right)| TurningScene { bodies, obstacle, restitution, right, friction: 0.0 },
    )
}

/// The same scenes under Exact with Coulomb friction, `μ` in [0.05, 1.5]
/// on the walls and between bodies (issue 28).
fn friction_scenes() -> impl Strategy<Value = TurningScene> {
    (scenes(), 0.05f64..1.5).prop_map(|(s, mu)| TurningScene { right: false, friction: mu, ..s })
}

impl TurningScene {
    /// The scene file: the bodies in a column, 0.5 m apart, above the obstacle.
    fn text(&self) -> String {
        let mut bodies = String::new();
        for (i, b) in self.bodies.iter().enumerate() {
            let (x, y) = (0.1 * (i as f64 - 1.5), 0.6 + 0.5 * i as f64);
            let common = format!(
                "name: \"b{i}\", position: ({x}, {y}), angle: {}, velocity: ({}, {}), angular_velocity: {}, mass: {}",
                b.angle, b.velocity.0, b.velocity.1, b.spin, b.mass
            );
            bodies += &match b.shape {
                Shape::Box { w, h } => format!("Box({common}, size: ({w}, {h})),\n"),
                Shape::Disc { r } => format!("Disc({common}, radius: {r}),\n"),
                Shape::Polygon { n, r } => {
                    let v: Vec<String> = (0..n)
                        .map(|k| {
                            let a = std::f64::consts::TAU * k as f64 / n as f64;
                            format!("({}, {})", r * a.cos(), r * a.sin())
                        })
                        .collect();
                    format!("Polygon({common}, vertices: [{}]),\n", v.join(", "))
                }
            };
        }
        bodies += if self.obstacle {
            "Box(name: \"step\", position: (0.1, 0.1), angle: 0.1, size: (0.5, 0.2), fixed: true),\n"
        } else {
            "Polygon(name: \"ramp\", position: (-0.5, 0), vertices: [(0, 0), (0.6, 0), (0, 0.3)], fixed: true),\n"
        };
        format!(
            "Scene(name: \"turning\", gravity: (0, -9.81), bodies: [{bodies}],
             walls: [(name: \"floor\", normal: (0, 1), offset: 0, friction: {mu}),
                     (name: \"left\", normal: (1, 0), offset: -0.8, friction: {mu}),
                     (name: \"right\", normal: (-1, 0), offset: -0.8, friction: {mu})],
             ball_pairs: true, pair_friction: {mu},
             solver: (algorithm: {}, dt: 1e-3, tau: 0.01, restitution: {}))",
            if self.right { "Right" } else { "Exact" },
            self.restitution,
            mu = self.friction
        )
    }
}

/// Scenes that loaded and ran (the others started overlapping).
static RAN: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

fn check(scene: &TurningScene) -> Result<(), TestCaseError> {
    let text = scene.text();
    let s = match contact_core::scene::parse(&text, "turning", &Default::default()) {
        Ok(s) => s,
        // Bodies that start overlapping are refused with the field: not this test's business.
        Err(e) if e.to_string().contains("violated at the start") => return Ok(()),
        Err(e) => return Err(TestCaseError::fail(format!("{e}\n{text}"))),
    };
    RAN.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let mut w = s.world;
    let (h, tau) = (1e-3, w.settings.tau);
    let height = 0.6 + 0.5 * scene.bodies.len() as f64 + 0.5;
    let weights: f64 = w.model.bodies.iter().filter(|b| b.is_dynamic()).map(|b| b.mass * 9.81 * height).sum();
    let e0 = w.model.total_energy(&w.state);
    let es = w.model.kinetic_energy(&w.state) + weights;
    let mut bend = 0.0_f64;
    for step in 0..400 {
        let curved = w
            .model
            .constraints
            .iter()
            .map(|c| c.eval(&w.model.bodies, &w.state.q, &w.state.qd).jd_qd.abs())
            .fold(0.0, f64::max);
        let r = w.step(h);
        let at = format!("step {step} ({:?}, t = {:.3})\n{text}", w.settings.algorithm, r.t);
        prop_assert!(
            r.status == StepStatus::Ok || matches!(r.status, StepStatus::Diverged { .. }),
            "{:?} at {at}",
            r.status
        );
        prop_assert!(w.state.q.iter().chain(&w.state.qd).all(|v| v.is_finite()), "non-finite at {at}");
        for e in &r.events {
            prop_assert!(e.energy_lost >= -1e-9 * es, "an impact made {} J at {at}", -e.energy_lost);
        }
        let e = w.model.total_energy(&w.state);
        prop_assert!(e - e0 <= 10.0 * h * es + 1e-9 * es, "energy {e0} → {e} at {at}");
        // Rows made within the step (a disc passing from an edge to its
        // corner) bend as much: the rows at its end count too.
        let curved_now = w
            .model
            .constraints
            .iter()
            .map(|c| c.eval(&w.model.bodies, &w.state.q, &w.state.qd).jd_qd.abs())
            .fold(0.0, f64::max);
        bend = curved.max(curved_now).max(bend * (-h / (4.0 * tau)).exp());
        // A step with events: a row's path bends over the step by `h² |a|`.
        let landing = if r.events.is_empty() {
            0.0
        } else {
            w.model
                .constraints
                .iter()
                .map(|c| {
                    let row = c.eval(&w.model.bodies, &w.state.q, &w.state.qd);
                    row.row.dot(&r.qdd).abs() + row.jd_qd.abs()
                })
                .fold(0.0, f64::max)
                * h
                * h
        };
        let allowance = 2.0 * tau * tau * bend + landing + 1e-6;
        if r.max_violation > allowance {
            let k = (0..r.g.len())
                .max_by(|&x, &y| {
                    w.model.constraints[x]
                        .kind
                        .violation(r.g[x])
                        .total_cmp(&w.model.constraints[y].kind.violation(r.g[y]))
                })
                .expect("a row");
            let events: Vec<f64> = r.events.iter().map(|e| e.t).collect();
            prop_assert!(
                false,
                "violation {} of `{}` (handled {}) past {allowance} (bend {bend:.3e}, events at {events:?}) at {at}",
                r.max_violation,
                w.model.constraints[k].name,
                r.handled[k]
            );
        }
    }
    Ok(())
}

#[test]
fn random_scenes_of_bodies_that_turn_keep_out_of_each_other_and_make_no_energy() {
    let cases = std::env::var("CONTACT_LAB_TURNING_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(256);
    let config = Config {
        cases,
        rng_algorithm: RngAlgorithm::ChaCha,
        rng_seed: RngSeed::Fixed(27),
        failure_persistence: None,
        ..Config::default()
    };
    let mut runner = proptest::test_runner::TestRunner::new(config);
    let result = runner.run(&scenes(), |s| check(&s));
    if let Err(e) = result {
        panic!("{e}");
    }
    let ran = RAN.load(std::sync::atomic::Ordering::Relaxed);
    assert!(ran * 4 >= cases as usize * 3, "only {ran} of {cases} scenes started clear");
}

/// The property with friction (issue 28): 256 scenes under Exact with `μ`
/// on every contact (`CONTACT_LAB_FRICTION_CASES` sets another budget).
/// Friction only takes energy out, so the same bounds hold; and every step
/// finds a frictional answer (no island falls back to its frictionless one,
/// which would make the step's status `Unsolved`).
#[test]
fn random_scenes_with_friction_keep_out_of_each_other_and_make_no_energy() {
    let cases = std::env::var("CONTACT_LAB_FRICTION_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(256);
    let config = Config {
        cases,
        rng_algorithm: RngAlgorithm::ChaCha,
        rng_seed: RngSeed::Fixed(28),
        failure_persistence: None,
        ..Config::default()
    };
    let mut runner = proptest::test_runner::TestRunner::new(config);
    let ran = std::sync::atomic::AtomicUsize::new(0);
    let result = runner.run(&friction_scenes(), |s| {
        if contact_core::scene::parse(&s.text(), "turning", &Default::default()).is_ok() {
            ran.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
        check(&s)
    });
    if let Err(e) = result {
        panic!("{e}");
    }
    let ran = ran.into_inner();
    assert!(ran * 4 >= cases as usize * 3, "only {ran} of {cases} scenes started clear");
}

/// Cases the property found, kept by name: a box sliding off a fixed ramp's
/// toe, whose corner took the ramp's bottom face for a step and was held
/// there (0.6 J grew to 129 J); a thin box rolling round a step's corner,
/// whose kept row on the step's side pulled it inside by 3 cm. A kept
/// corner row now leaves once its corner is in front of another edge.
#[test]
fn a_box_off_a_ramps_toe_and_round_a_steps_corner_stay_out() {
    let toe = TurningScene {
        bodies: vec![Body {
            shape: Shape::Box { w: 0.0602181076770641, h: 0.24581420457991557 },
            mass: 0.1,
            angle: -2.4802666189573466,
            velocity: (0.4460853927540727, -0.34633974758488073),
            spin: 8.349620374728332,
        }],
        obstacle: false,
        restitution: 0.0,
        right: false,
        friction: 0.0,
    };
    let corner = TurningScene {
        bodies: vec![
            Body {
                shape: Shape::Box { w: 0.05, h: 0.24090009445406968 },
                mass: 0.1,
                angle: 1.6639578398203465,
                velocity: (0.0, 0.0),
                spin: 3.227054945594168,
            },
            Body {
                shape: Shape::Box { w: 0.12589173426377454, h: 0.25947259860570965 },
                mass: 0.1,
                angle: 2.613925037691063,
                velocity: (0.0, 0.0),
                spin: 0.0,
            },
        ],
        obstacle: true,
        restitution: 0.0,
        right: false,
        friction: 0.0,
    };
    for scene in [toe, corner] {
        if let Err(e) = check(&scene) {
            panic!("{e}");
        }
    }
}

/// How deep two convex polygons (world corners) overlap: the least overlap
/// of their projections over the normals of both (0 when apart).
fn overlap(a: &[nalgebra::Vector2<f64>], b: &[nalgebra::Vector2<f64>]) -> f64 {
    let normals = |p: &[nalgebra::Vector2<f64>]| -> Vec<nalgebra::Vector2<f64>> {
        (0..p.len())
            .map(|k| (p[(k + 1) % p.len()] - p[k]).normalize())
            .map(|t| nalgebra::Vector2::new(t.y, -t.x))
            .collect()
    };
    let span = |p: &[nalgebra::Vector2<f64>], n: &nalgebra::Vector2<f64>| {
        p.iter().map(|c| n.dot(c)).fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| (lo.min(x), hi.max(x)))
    };
    normals(a)
        .iter()
        .chain(&normals(b))
        .map(|n| {
            let ((a0, a1), (b0, b1)) = (span(a, n), span(b, n));
            a1.min(b1) - a0.max(b0)
        })
        .fold(f64::INFINITY, f64::min)
        .max(0.0)
}

/// Found by the peer bench: a wedge slid along the floor into a fixed ramp
/// ended 0.11 m inside it. Their bottom faces are on one line, so each toe
/// corner is on the other's bottom face as well as at its face: the bottom
/// face, a hair farther outside, took the corner's row. A wedge with a
/// sloped or a vertical face, a box, slow and fast, all stay out now.
/// Checked by the polygons' own overlap (separating axes), not by the rows'
/// `g`: an overlap no row sees would not show in `max_violation`.
#[test]
fn a_wedge_sliding_into_a_ramp_toe_to_toe_stays_out() {
    for (mover, speed) in [
        ("Polygon(name: \"wedge\", position: (-0.6, 0), vertices: [(0, 0), (0.4, 0), (0, 0.3)], mass: 1.0", 2.0),
        ("Polygon(name: \"wedge\", position: (-0.6, 0), vertices: [(0, 0), (0.4, 0), (0.4, 0.3)], mass: 1.0", 2.0),
        ("Box(name: \"wedge\", position: (-0.4, 0.1), size: (0.3, 0.2), mass: 1.0", 1.0),
        ("Polygon(name: \"wedge\", position: (-0.6, 0), vertices: [(0, 0), (0.4, 0), (0.4, 0.3)], mass: 1.0", 6.0),
    ] {
        toe_to_toe(&format!("{mover}, velocity: ({speed}, 0))"));
    }
}

fn toe_to_toe(mover: &str) {
    let text = format!(
        "Scene(name: \"toes\", gravity: (0, -9.81), bodies: [
        {mover},
        Polygon(name: \"ramp\", position: (0.2, 0), vertices: [(0, 0), (0.6, 0), (0.6, 0.4)], fixed: true),
        ],
        walls: [(name: \"floor\", normal: (0, 1), offset: 0)],
        ball_pairs: true,
        solver: (algorithm: Exact, dt: 1e-3, tau: 0.01, restitution: 0))"
    );
    let mut w = contact_core::scene::parse(&text, "toes", &Default::default()).unwrap_or_else(|e| panic!("{e}")).world;
    let corners = |w: &contact_core::World, b: usize| -> Vec<nalgebra::Vector2<f64>> {
        let body = &w.model.bodies[b];
        body.wall_points().iter().map(|&r| body.kinematics_at(r, &w.state.q, &w.state.qd).p).collect()
    };
    let mut worst = 0.0_f64;
    let v0 = w.state.qd[0];
    while w.state.t < 1.0 {
        w.step(1e-3);
        worst = worst.max(overlap(&corners(&w, 0), &corners(&w, 1)));
    }
    // It met the ramp: stopped, turned back or rode up its face.
    assert!(w.state.qd[0] < 0.9 * v0 || w.state.q[1] > 0.2, "{mover}: never met the ramp");
    assert!(worst < 1e-4, "{mover}: went {worst} m into the ramp");
}
