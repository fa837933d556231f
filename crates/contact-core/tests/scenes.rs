//! The scene files: the built-in ones load and run, broken ones give precise errors.

use std::path::{Path, PathBuf};

use contact_core::scene::{self, Overrides, Scene, SceneError};
use contact_core::{Algorithm, ImpulseMode, StepStatus};

const BUILT_IN: [&str; 23] = [
    "wedge.ron",
    "wedge-left.ron",
    "billiard-corner.ron",
    "newtons-cradle.ron",
    "sticky-corner.ron",
    "bead-on-curve.ron",
    "ball-pile.ron",
    "ladder.ron",
    "falling-rod.ron",
    "heap.ron",
    "double-pendulum.ron",
    "box-stack.ron",
    "box-pyramid.ron",
    "rocking-block.ron",
    "box-over-step.ron",
    "incline.ron",
    "incline-discs.ron",
    "disc-launch.ron",
    "ladder-rough.ron",
    "rocking-block-rough.ron",
    "painleve-rod.ron",
    "billiard-spin.ron",
    "bouncing-ball.ron",
];

fn scenes_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/scenes")
}

fn load(name: &str, ov: &Overrides) -> Scene {
    scene::load(&scenes_dir().join(name), ov).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn every_built_in_scene_loads() {
    for name in BUILT_IN {
        let s = load(name, &Overrides::default());
        assert!(!s.name.is_empty() && !s.description.is_empty(), "{name}");
        assert!(s.dt > 0.0 && s.duration > 0.0, "{name}");
        assert!(s.view.min.0 < s.view.max.0 && s.view.min.1 < s.view.max.1, "{name}");
        assert!(!s.plots.is_empty(), "{name}: plot presets");
        let known = scene::series_names(&s.world.model);
        for p in &s.plots {
            assert!(p.series.iter().all(|x| known.contains(x)), "{name}: {:?}", p.series);
        }
    }
    // And no scene file is left out of this list.
    let mut on_disk: Vec<String> = std::fs::read_dir(scenes_dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".ron"))
        .collect();
    on_disk.sort();
    let mut listed: Vec<String> = BUILT_IN.iter().map(|s| s.to_string()).collect();
    listed.sort();
    assert_eq!(on_disk, listed);
}

#[test]
fn the_wedge_is_figure_1() {
    let s = load("wedge.ron", &Overrides::default());
    let m = &s.world.model;
    assert_eq!(m.bodies[0].mass, 2.0);
    assert_eq!((m.bodies[0].force.x, m.bodies[0].force.y), (2.0, -1.0));
    assert_eq!(s.world.state.q, vec![0.0, 0.0]);
    let names: Vec<&str> = m.constraints.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["g1", "g2"]);
    assert_eq!(s.dt, 1e-3);
    let left = load("wedge-left.ron", &Overrides::default());
    assert_eq!((left.world.model.bodies[0].force.x, left.world.model.bodies[0].force.y), (-1.0, -2.0));
}

#[test]
fn billiard_corner_has_11_balls_and_77_constraints() {
    let s = load("billiard-corner.ron", &Overrides::default());
    let m = &s.world.model;
    assert_eq!(m.bodies.iter().filter(|b| b.radius > 0.0 && b.is_dynamic()).count(), 11);
    assert_eq!(m.constraints.len(), 77);
    assert!(m.constraints.iter().all(|c| c.is_inequality()));
    // Generated names: one per cushion and ball, one per pair.
    assert!(m.constraint_index("cushion_left:b3").is_some());
    assert!(m.constraint_index("cushion_bottom:cue").is_some());
    assert!(m.constraint_index("b1-b2").is_some());
    assert!(m.constraint_index("b10-cue").is_some());
    assert_eq!(m.gravity.norm(), 0.0);
}

#[test]
fn the_ball_pile_takes_its_size_from_the_overrides() {
    let s = load("ball-pile.ron", &Overrides { balls: Some(12), ..Default::default() });
    let m = &s.world.model;
    assert_eq!(m.bodies.len(), 12);
    // Three walls per ball and a contact per pair.
    assert_eq!(m.constraints.len(), 3 * 12 + 12 * 11 / 2);
    let default = load("ball-pile.ron", &Overrides::default());
    assert_eq!(default.world.model.bodies.len(), 30);
    // Only a scene with a pile takes a size.
    let err =
        scene::load(&scenes_dir().join("wedge.ron"), &Overrides { balls: Some(3), ..Default::default() }).unwrap_err();
    assert_eq!(err.field.as_deref(), Some("ball_pile"));
}

/// Every built-in scene, 5 s under every algorithm and both impulse modes: no NaN,
/// no panic, time advances. (A smaller pile, a coarser step and 0.3 s of the
/// 55-box pyramid keep it short.)
#[test]
fn every_built_in_scene_runs_5_s_under_every_algorithm_and_impulse_mode() {
    for name in BUILT_IN {
        let s = load(name, &Overrides { balls: name.starts_with("ball-pile").then_some(8), ..Default::default() });
        let dt = s.dt.max(2e-3);
        let span = if s.world.model.bodies.len() > 20 { 0.3 } else { 5.0 };
        let steps = (span / dt).round() as usize;
        for algorithm in Algorithm::ALL {
            for mode in [ImpulseMode::Simultaneous, ImpulseMode::Sequential] {
                let mut w = s.world.clone();
                w.settings.algorithm = algorithm;
                w.settings.events.impulses = mode;
                for _ in 0..steps {
                    let r = w.step(dt);
                    let finite =
                        w.state.q.iter().chain(&w.state.qd).chain(&r.lambda).chain(&r.g).all(|v| v.is_finite());
                    assert!(finite, "{name} {algorithm:?} {mode:?}: non-finite at t = {}", w.state.t);
                    assert_eq!(r.status, StepStatus::Ok, "{name} {algorithm:?} {mode:?} at t = {}", w.state.t);
                }
                assert!((w.state.t - span).abs() < 1e-6, "{name} {algorithm:?} {mode:?}: t = {}", w.state.t);
            }
        }
    }
}

/// A small valid scene the broken cases are cut from (line numbers matter).
const BASE: &str = r#"Scene(
    name: "Base",
    gravity: (0, -9.81),
    bodies: [
        Particle(name: "p", position: (0, 1), velocity: (1, 0), mass: 1),
        Ball(name: "a", position: (0.5, 0.5), mass: 1, radius: 0.1),
        Ball(name: "b", position: (0.8, 0.5), mass: 1, radius: 0.1),
        Anchor(name: "hook", position: (0.5, 1.0)),
        Bead(name: "bead", curve: Cycloid(origin: (2, 0), r: 0.5), u: 1, mass: 1),
    ],
    constraints: [
        HalfPlane(name: "floor", body: "p", normal: (0, 1), offset: 0),
        Contact(a: "a", b: "b"),
        Rod(name: "rod", a: "hook", b: "a"),
        BeadBound(name: "stop", body: "bead", max: 2),
    ],
    walls: [(name: "ground", normal: (0, 1), offset: 0)],
    solver: (algorithm: Exact, dt: 1e-3, tau: 0.01),
    plots: [(title: "p", series: ["p.y", "floor.lambda"])],
)"#;

/// `(replace this, by that)` in [`BASE`] → expected line, field and message fragment.
struct Case {
    what: &'static str,
    from: &'static str,
    to: &'static str,
    line: usize,
    field: &'static str,
    message: &'static str,
}

const CASES: &[Case] = &[
    Case {
        what: "RON syntax: a missing comma",
        from: r#"name: "Base","#,
        to: r#"name: "Base""#,
        line: 3,
        field: "",
        message: "comma",
    },
    Case {
        what: "a missing field",
        from: "velocity: (1, 0), mass: 1)",
        to: "velocity: (1, 0))",
        line: 5,
        field: "bodies[0].mass",
        message: "missing field `mass`",
    },
    Case {
        what: "an unknown field (a typo)",
        from: "radius: 0.1),\n        Ball(name: \"b\"",
        to: "radius: 0.1, damp: 1),\n        Ball(name: \"b\"",
        line: 6,
        field: "bodies[1].damp",
        message: "unknown field `damp`",
    },
    Case {
        what: "a number where a string is expected",
        from: r#"Particle(name: "p""#,
        to: r#"Particle(name: 3"#,
        line: 5,
        field: "bodies[0].name",
        message: "expected a string",
    },
    Case {
        what: "an unknown body kind",
        from: "Particle(name",
        to: "Partikel(name",
        line: 5,
        field: "bodies[0]",
        message: "unknown body kind `Partikel`",
    },
    Case {
        what: "an unknown body in a constraint",
        from: r#"Contact(a: "a", b: "b")"#,
        to: r#"Contact(a: "a", b: "c")"#,
        line: 13,
        field: "constraints[1].b",
        message: "unknown body `c`",
    },
    Case {
        what: "a non-positive mass",
        from: "position: (0.8, 0.5), mass: 1",
        to: "position: (0.8, 0.5), mass: 0",
        line: 7,
        field: "bodies[2].mass",
        message: "mass must be positive",
    },
    Case {
        what: "a negative radius",
        from: "velocity: (1, 0), mass: 1)",
        to: "velocity: (1, 0), mass: 1, radius: -0.5)",
        line: 5,
        field: "bodies[0].radius",
        message: "must not be negative",
    },
    Case {
        what: "balls overlapping at the start",
        from: "position: (0.8, 0.5)",
        to: "position: (0.65, 0.5)",
        line: 7,
        field: "bodies[2].position",
        message: "`a` and `b` overlap",
    },
    Case {
        what: "NaN",
        from: "velocity: (1, 0)",
        to: "velocity: (NaN, 0)",
        line: 5,
        field: "bodies[0].velocity[0]",
        message: "finite",
    },
    Case {
        what: "an infinite number",
        from: "gravity: (0, -9.81)",
        to: "gravity: (0, -inf)",
        line: 3,
        field: "gravity[1]",
        message: "finite",
    },
    Case {
        what: "a duplicate body name",
        from: r#"Ball(name: "b""#,
        to: r#"Ball(name: "a""#,
        line: 7,
        field: "bodies[2].name",
        message: "`a` is used twice (first at line 6)",
    },
    Case {
        what: "a duplicate constraint name (explicit and generated)",
        from: r#"name: "floor""#,
        to: r#"name: "ground:a""#,
        line: 17,
        field: "walls[0].name",
        message: "`ground:a` is used twice (first at line 12)",
    },
    Case { what: "dt = 0", from: "dt: 1e-3", to: "dt: 0", line: 18, field: "solver.dt", message: "must be positive" },
    Case {
        what: "a negative tau",
        from: "tau: 0.01",
        to: "tau: -0.01",
        line: 18,
        field: "solver.tau",
        message: "must be positive",
    },
    Case {
        what: "a negative sleep time",
        from: "tau: 0.01",
        to: "tau: 0.01, sleep: (enabled: true, time: -1)",
        line: 18,
        field: "solver.sleep.time",
        message: "must not be negative",
    },
    Case {
        what: "an unknown algorithm",
        from: "algorithm: Exact",
        to: "algorithm: Exakt",
        line: 18,
        field: "solver.algorithm",
        message: "unknown algorithm `Exakt`",
    },
    Case {
        what: "a ball through a generated wall",
        from: "position: (0.8, 0.5)",
        to: "position: (0.8, 0.05)",
        line: 17,
        field: "walls[0]",
        message: "`ground:b` on `b` is violated at the start",
    },
    // Issue 36, finding 8: a ball at 1e20 m crashed the broad phase
    // ("attempt to add with overflow"); now it is refused where it is written.
    Case {
        what: "a ball beyond the world's extent",
        from: "position: (0.8, 0.5)",
        to: "position: (99999999999999999999, 0.5)",
        line: 7,
        field: "bodies[2].position[0]",
        message: "outside the world",
    },
    Case {
        what: "a rod whose length does not match the start",
        from: r#"b: "a"),"#,
        to: r#"b: "a", length: 0.3),"#,
        line: 14,
        field: "constraints[2].length",
        message: "does not match",
    },
    Case {
        what: "a bead bound on a particle",
        from: r#"body: "bead", max: 2"#,
        to: r#"body: "p", max: 2"#,
        line: 15,
        field: "constraints[3].body",
        message: "not a bead",
    },
    Case {
        what: "a restitution above 1",
        from: "offset: 0),\n        Contact",
        to: "offset: 0, restitution: 1.5),\n        Contact",
        line: 12,
        field: "constraints[0].restitution",
        message: "[0, 1]",
    },
    Case {
        what: "an unknown plot series",
        from: r#""floor.lambda""#,
        to: r#""floor.lamda""#,
        line: 19,
        field: "plots[0].series[1]",
        message: "unknown series `floor.lamda`",
    },
    Case {
        what: "a name that would break CSV columns",
        from: r#"name: "rod""#,
        to: r#"name: "the.rod""#,
        line: 14,
        field: "constraints[2].name",
        message: "must not contain '.'",
    },
];

#[test]
fn the_base_of_the_broken_cases_is_valid() {
    let s = scene::parse(BASE, "base.ron", &Overrides::default()).unwrap_or_else(|e| panic!("{e}"));
    // floor, a-b, rod, stop, then the wall against each ball.
    let names: Vec<&str> = s.world.model.constraints.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["floor", "a-b", "rod", "stop", "ground:a", "ground:b"]);
}

#[test]
fn aliases_and_optional_syntax_parse() {
    let rod = r#"Rod(name: "rod", a: "hook", b: "a"),"#;
    let leash = r#"String(name: "leash", a: "hook", b: "p", length: 1.0),"#;
    let text = BASE
        .replace(r#"HalfPlane(name: "floor""#, r#"Wall(name: "floor""#)
        .replace("max: 2)", "max: Some(2))")
        .replace(rod, &format!("{rod}\n        {leash}"));
    assert!(text.contains("Wall(") && text.contains("Some(2)") && text.contains("String("));
    let s = scene::parse(&text, "aliases.ron", &Overrides::default()).unwrap_or_else(|e| panic!("{e}"));
    let m = &s.world.model;
    assert!(m.constraint_index("floor").is_some());
    let leash = &m.constraints[m.constraint_index("leash").unwrap()];
    assert!(leash.is_inequality());
}

#[test]
fn broken_scenes_say_what_and_where() {
    assert!(CASES.len() >= 8);
    for c in CASES {
        assert!(BASE.contains(c.from), "{}: `{}` is not in the base", c.what, c.from);
        let text = BASE.replacen(c.from, c.to, 1);
        let err: SceneError = match scene::parse(&text, "broken.ron", &Overrides::default()) {
            Ok(_) => panic!("{}: accepted", c.what),
            Err(e) => e,
        };
        assert_eq!(err.file, "broken.ron");
        assert_eq!(err.line, Some(c.line), "{}: {err}", c.what);
        assert!(err.column.is_some(), "{}: {err}", c.what);
        if !c.field.is_empty() {
            assert_eq!(err.field.as_deref(), Some(c.field), "{}: {err}", c.what);
        }
        assert!(err.message.contains(c.message), "{}: {err}", c.what);
        // Display: `file:line:col: field `x`: message`.
        let shown = err.to_string();
        assert!(shown.starts_with(&format!("broken.ron:{}:{}: ", c.line, err.column.unwrap())), "{shown}");
        if let Some(f) = &err.field {
            assert!(shown.contains(&format!("field `{f}`: ")), "{shown}");
        }
    }
}

#[test]
fn an_error_displays_file_line_column_field_and_message() {
    let e = SceneError {
        file: "a.ron".into(),
        line: Some(3),
        column: Some(7),
        field: Some("bodies[0].mass".into()),
        message: "mass must be positive, got 0".into(),
    };
    assert_eq!(e.to_string(), "a.ron:3:7: field `bodies[0].mass`: mass must be positive, got 0");
    let e = SceneError { line: None, column: None, field: None, ..e };
    assert_eq!(e.to_string(), "a.ron: mass must be positive, got 0");
}

/// Every prefix of every built-in scene, and many small corruptions, give an error
/// or a scene, never a panic.
#[test]
fn broken_files_never_panic() {
    for name in BUILT_IN {
        let text = std::fs::read_to_string(scenes_dir().join(name)).unwrap();
        let cuts: Vec<usize> = (0..text.len()).step_by(7).filter(|&i| text.is_char_boundary(i)).collect();
        for cut in cuts {
            let _ = scene::parse(&text[..cut], name, &Overrides::default());
        }
        // Replace one character by another, at many places.
        let chars: Vec<char> = text.chars().collect();
        for (i, by) in (0..chars.len()).step_by(13).zip(['(', ')', ',', '"', '-', '0', 'x', ':', ']'].iter().cycle()) {
            let mut c = chars.clone();
            c[i] = *by;
            let corrupted: String = c.into_iter().collect();
            let _ = scene::parse(&corrupted, name, &Overrides::default());
        }
    }
    assert!(scene::parse("", "empty.ron", &Overrides::default()).is_err());
    // A scene with no body yet is one (the editor's "New empty scene" starts there).
    let nobody = scene::parse("Scene(name: \"x\")", "nobody.ron", &Overrides::default()).unwrap();
    assert!(nobody.world.model.bodies.is_empty());
}

/// The examples of `docs/scenes.md` are valid scenes.
#[test]
fn the_documented_examples_parse() {
    let doc = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/scenes.md")).unwrap();
    let mut blocks = 0;
    for block in doc.split("```ron").skip(1) {
        let text = block.split("```").next().unwrap();
        if text.trim_start().starts_with("Scene(") {
            scene::parse(text, "docs/scenes.md", &Overrides::default()).unwrap_or_else(|e| panic!("{e}\n{text}"));
            blocks += 1;
        }
    }
    assert!(blocks >= 1);
}

/// Contacts by proximity (broad phase, rows that come and go by key) move the
/// billiard break as the 77 fixed rows do, and keep its rows' names.
#[test]
fn proximity_rows_move_the_billiard_as_fixed_rows_do() {
    for alg in [Algorithm::Right, Algorithm::Exact] {
        let run = |proximity: bool| {
            let mut s = load("billiard-corner.ron", &Overrides { proximity: Some(proximity), ..Default::default() });
            s.world.settings.algorithm = alg;
            let mut worst: f64 = 0.0;
            for _ in 0..1500 {
                worst = worst.max(s.world.step(s.dt).max_violation);
            }
            (s.world, worst)
        };
        let ((fixed, wf), (near, wn)) = (run(false), run(true));
        assert_eq!(fixed.model.constraints.len(), 77);
        assert!(near.model.contacts.is_some() && near.model.constraints.len() < 77, "{}", near.model.constraints.len());
        for c in &near.model.constraints {
            assert!(fixed.model.constraint_index(&c.name).is_some(), "{} is a name of the full list", c.name);
        }
        for (a, b) in fixed.state.q.iter().zip(&near.state.q) {
            assert!((a - b).abs() < 1e-9, "{alg:?}: {a} vs {b}");
        }
        assert!(wf < 1e-12 && wn < 1e-12, "{alg:?}: worst violation {wf:e} / {wn:e}");
    }
}

/// A settled pile is hyperstatic (more touching contacts than degrees of
/// freedom). Exact holds it to its contract at every step (issue 26: no warm
/// slack any more, which accepted free rows sinking by up to `tol.active /
/// τ²`): settled, no event, no contact past the active tolerance, and about
/// one solve a step (1.03 measured), because each step hands the next a
/// basis of its handled set, not the dependent set a hyperstatic pile
/// holds (without it: 74 solves a step).
/// (Under Moreau's law, issue 15, the landing leaves `p24` perched on a
/// neighbour; it rolls off within the first 5 s, the growth of an unstable
/// equilibrium, `e^{t/0.09 s}`: since issue 26's contract the last ball
/// moves at t = 4.87 s, so the watch starts at 5.5 s.)
#[test]
fn a_settled_pile_keeps_its_handled_set_under_exact() {
    let mut w = load("ball-pile.ron", &Overrides { balls: Some(30), ..Default::default() }).world;
    w.settings.algorithm = Algorithm::Exact;
    w.settings.scheme = contact_core::Scheme::EventDriven;
    let h = 1e-3;
    while w.state.t < 5.5 {
        w.step(h);
    }
    let (mut solves, mut events, mut worst) = (0, 0, 0.0_f64);
    for _ in 0..300 {
        let r = w.step(h);
        solves += r.solves;
        events += r.events.len();
        assert_eq!(r.status, StepStatus::Ok, "every step meets Exact's contract");
        worst = worst.max(r.max_violation);
    }
    assert!(w.model.kinetic_energy(&w.state) < 1e-9, "settled");
    assert_eq!(events, 0);
    assert!(solves <= 300 * 2, "{} solves a step", solves as f64 / 300.0);
    assert!(worst <= w.settings.tol.active, "penetration {worst:e}");
}

/// A step past the divergence bounds says so, with the likely cause: the wedge
/// under τ = 1e-9 s with h = 1e-3 s blows up within a few steps.
#[test]
fn a_diverging_step_reports_its_cause() {
    let mut w = load("wedge.ron", &Overrides::default()).world;
    w.settings.tau = 1e-9;
    let status = (0..1000).map(|_| w.step(1e-3).status).find(|s| *s != StepStatus::Ok).expect("diverges");
    let StepStatus::Diverged { constraint, cause } = status else { unreachable!() };
    assert!(constraint.is_some());
    assert!(cause.contains("at or below 1.2071e-3 s") && cause.contains("use τ ≥ 1.51e-3 s"), "{cause}");
    assert!(w.steps < 100, "caught early: step {}", w.steps);
}

/// A ball dropped on a floor with e = 0.5, under `active_tolerance`.
fn drop_with_tolerance(tol: &str) -> String {
    format!(
        r#"Scene(name: "drop", gravity: (0, -9.81),
            bodies: [Ball(name: "ball", position: (0, 0.2), mass: 1, radius: 0.1)],
            walls: [(name: "floor", normal: (0, 1))],
            solver: (algorithm: Exact, dt: 0.001, restitution: 0.5,
                     active_tolerance: {tol}))"#
    )
}

/// Issue 26: `active_tolerance: 0` made every impact plastic (the root finder
/// stops at 0 < g ≤ 1e-12, and only rows with g ≤ the tolerance touch). Below
/// the root finder's tolerance it is refused, naming the line and the field;
/// at it, the drop bounces with e = 0.5.
#[test]
fn an_active_tolerance_below_the_root_finders_is_refused() {
    let e = scene::parse(&drop_with_tolerance("0"), "drop.ron", &Overrides::default()).unwrap_err();
    assert_eq!(e.field.as_deref(), Some("solver.active_tolerance"), "{e}");
    assert_eq!(e.line, Some(5), "{e}");
    assert!(e.message.contains("plastic"), "{e}");
    let s = scene::parse(&drop_with_tolerance("1e-12"), "drop.ron", &Overrides::default()).unwrap();
    let mut w = s.world;
    // Falls 0.1 m: lands at v = −√(2 g 0.1) = −1.4007 m/s, leaves at half of it.
    let v_in = (2.0f64 * 9.81 * 0.1).sqrt();
    let mut v_max = f64::NEG_INFINITY;
    for _ in 0..200 {
        w.step(0.001);
        v_max = v_max.max(w.state.qd[1]);
    }
    assert!((v_max - 0.5 * v_in).abs() < 0.02, "leaves at {v_max} m/s, not 0.5 × {v_in}");
}

/// Issue 38: Zeno's bouncing ball, as its description and tour step 13 say.
/// Event-driven, with exact free flight: every bounce at its closed-form
/// time `t_k = t₀ + 2 v₀ (e + … + e^(k−1)) / g` and speed `e^k v₀` (to 1e-9),
/// 16 by 2.8 s and 30 in all, then a plastic landing at 2.870 s, before
/// T∞ = 2.873 s. Time-stepping: no event, 19 bounces (`v⁺ = −e v − h g`),
/// at rest on the floor from 2.719 s.
#[test]
fn the_bouncing_ball_s_bounces_accumulate_and_each_scheme_ends_them() {
    let (g, e, height) = (9.81_f64, 0.8_f64, 0.5_f64);
    let t0 = (2.0 * height / g).sqrt();
    let v0 = g * t0;
    let t_inf = t0 + 2.0 * e * v0 / (g * (1.0 - e));
    assert!((t_inf - 2.873).abs() < 5e-4, "T∞ = {t_inf}");
    let s = load("bouncing-ball.ron", &Overrides::default());
    let mut w = s.world.clone();
    let mut events = Vec::new();
    while w.state.t < 2.8 - 1e-9 {
        events.extend(w.step(s.dt).events);
    }
    assert_eq!(events.len(), 16, "bounces by 2.8 s");
    for (k, ev) in events.iter().enumerate() {
        let t = t0 + 2.0 * v0 * (1..=k).map(|j| e.powi(j as i32)).sum::<f64>() / g;
        assert!((ev.t - t).abs() < 1e-9, "bounce {}: {} s against {t} s", k + 1, ev.t);
        let v = ev.approach_speed[0].1;
        assert!((v - v0 * e.powi(k as i32)).abs() < 1e-9, "bounce {}: {v} m/s", k + 1);
    }
    while w.state.t < t_inf - 1e-9 {
        events.extend(w.step(s.dt).events);
    }
    let bounces = events.iter().filter(|ev| ev.approach_speed[0].1 >= 1e-3).count();
    assert_eq!(bounces, 30, "bounces located before T∞");
    assert!(w.state.qd[1].abs() < 1e-5 && w.state.q[1] - 0.05 < 1e-6, "on the floor at T∞: {:?}", w.state);

    let mut ts = s.world.clone();
    ts.settings.scheme = contact_core::Scheme::TimeStepping;
    let (mut rebounds, mut rest) = (0, None);
    while ts.state.t < 4.0 - 1e-9 {
        let before = ts.state.qd[1];
        let r = ts.step(s.dt);
        assert!(r.events.is_empty());
        let v = ts.state.qd[1];
        if before < 0.0 && v > 0.0 {
            rebounds += 1;
            rest = None;
        }
        if v == 0.0 && ts.state.q[1] - 0.05 < 1e-12 {
            rest.get_or_insert(ts.state.t);
        }
    }
    assert_eq!(rebounds, 19);
    let rest = rest.expect("at rest");
    assert!((rest - 2.719).abs() < 1e-6, "at rest from {rest} s");
}
