//! The guided tour: every step of the paper's tour loads its scene with its
//! algorithm in the lab and runs it; a broken tour file shows where it is
//! broken while the lab keeps running what it ran.

use std::path::Path;

use contact_lab::app::compare::{Compare, ComparePlugin};
use contact_lab::app::lab::Lab;
use contact_lab::app::tour::{TourAction, TourPlugin, TourState, running_step};

use crate::common::*;

fn paper_tour() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("assets").join("tours").join("paper.ron")
}

#[test]
fn every_step_of_the_paper_tour_loads_its_scene_and_algorithm() {
    let mut app = headless(&scene("ball-pile.ron"));
    app.add_plugins(TourPlugin { path: paper_tour(), start: None });
    app.update();
    let tour = contact_core::scene::tour::load(&paper_tour()).unwrap_or_else(|e| panic!("{e}"));
    assert!(tour.steps.len() >= 6, "from figure 1 to the billiard break");
    for (i, step) in tour.steps.iter().enumerate() {
        app.world_mut().write_message(TourAction::Go(i));
        app.update();
        let expected = contact_core::scene::load(&step.scene, &step.overrides()).unwrap();
        let lab = app.world().resource::<Lab>();
        assert_eq!(lab.scene.name, expected.name, "step {i}");
        assert_eq!(lab.scene.path.as_deref(), Some(std::path::absolute(&step.scene).unwrap().as_path()));
        let algorithm = step.algorithm.unwrap_or(expected.world.settings.algorithm);
        assert_eq!(lab.world.settings.algorithm, algorithm, "step {i}: {}", step.title);
        let state = app.world().resource::<TourState>();
        assert_eq!((state.current, running_step(state, Some(lab))), (i, Some(i)));
        // It runs (in slow motion: a step of h = 1 ms takes 1/speed updates of 1 ms).
        let before = steps(&app);
        let updates = (2.0 / lab.scene.opening.speed).ceil() as usize;
        for _ in 0..updates {
            app.update();
        }
        assert!(steps(&app) > before, "step {i} does not run");
    }
}

#[test]
fn a_broken_tour_file_names_its_line_and_field_and_the_lab_runs_on() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mine.ron");
    let scenes = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets").join("scenes");
    std::fs::write(
        &path,
        format!(
            "Tour(\n    title: \"Mine\",\n    steps: [\n        (title: \"A\", scene: \"{}\", algorithm: Rigth, text: \"x\"),\n    ],\n)\n",
            scenes.join("wedge.ron").display()
        ),
    )
    .unwrap();
    let mut app = headless(&scene("wedge.ron"));
    app.add_plugins(TourPlugin { path: path.clone(), start: Some(0) });
    for _ in 0..3 {
        app.update();
    }
    let state = app.world().resource::<TourState>();
    let e = state.error.clone().expect("an error");
    assert!(state.tour.is_none() && state.open);
    assert!(e.starts_with(&format!("{}:4:", path.display())), "{e}");
    assert!(e.contains("steps[0].algorithm") && e.contains("Rigth"), "{e}");
    assert_eq!(app.world().resource::<Lab>().scene.name, "Wedge");
    assert!(steps(&app) > 0, "the lab keeps running");
    // Fixed on disk and read again: the tour is there.
    std::fs::write(&path, std::fs::read_to_string(&path).unwrap().replace("Rigth", "Right")).unwrap();
    app.world_mut().write_message(TourAction::Reload);
    app.update();
    assert_eq!(app.world().resource::<TourState>().tour.as_ref().map(|t| t.steps.len()), Some(1));
}

/// A step of the paper's tour, run as the app runs it: `Go(i)`, then the
/// clock as the step's opening sets it, until it pauses by itself. Returns
/// the app at the pause.
fn run_step_to_its_pause(i: usize) -> bevy::prelude::App {
    use contact_lab::app::lab::PauseAt;
    let mut app = headless(&scene("wedge.ron"));
    app.add_plugins((TourPlugin { path: paper_tour(), start: None }, ComparePlugin { start: false }));
    app.update();
    app.world_mut().write_message(TourAction::Go(i));
    app.update();
    let pause = *app.world().resource::<PauseAt>();
    let at = pause.at.unwrap_or_else(|| panic!("step {i} opens with no pause: nothing says when to look"));
    let mut guard = 0;
    while !app.world().resource::<PauseAt>().reached {
        app.update();
        guard += 1;
        assert!(guard < 20_000, "step {i} never reaches its pause at {at} s");
    }
    // A few frames more: the clock stays where it paused.
    let t = app.world().resource::<Lab>().time();
    for _ in 0..5 {
        app.update();
    }
    assert_eq!(app.world().resource::<Lab>().time(), t, "step {i}: the clock goes on after its pause");
    app
}

/// The points of series `name` the plots show at the pause: those within the
/// plot window that the step opens with.
fn shown(app: &bevy::prelude::App, name: &str) -> Vec<(f64, f64)> {
    use contact_lab::app::history::History;
    let lab = app.world().resource::<Lab>();
    let window = lab.scene.opening.plot_window.expect("the step names its plot window");
    let now = lab.time();
    let h = app.world().resource::<History>();
    let pts = h.visible(name);
    assert!(!pts.is_empty(), "series {name} is not recorded");
    pts.iter().filter(|p| p.x >= now - window - 1e-12).map(|p| (p.x, p.y)).collect()
}

/// The report of the step that ended at `t`, as the timeline shows it when
/// the user steps back there.
fn report_at(app: &mut bevy::prelude::App, t: f64) -> contact_core::StepReport {
    use contact_lab::app::lab::LabAction;
    use contact_lab::app::timeline::Timeline;
    let i = app.world().resource::<Timeline>().index_at(t).expect("the timeline holds t");
    app.world_mut().write_message(LabAction::Restore(i));
    app.update();
    let lab = app.world().resource::<Lab>();
    assert!((lab.time() - t).abs() < 1e-9, "restored to {} s, not {t} s", lab.time());
    lab.report.clone().expect("the timeline gives the step's report back")
}

fn row(app: &mut bevy::prelude::App, name: &str) -> contact_lab::app::lab::ConstraintStatus {
    let k = app.world().resource::<Lab>().constraint_names.iter().position(|n| n == name).expect(name);
    constraints(app)[k]
}

/// What the magnifier shows at the state on screen, in a view of the wedge's
/// scale (800 px a metre: a micron is far below a pixel).
fn magnified(app: &mut bevy::prelude::App) -> Option<contact_lab::app::ui::magnifier::Violation> {
    let g: Vec<f64> = constraints(app).iter().map(|s| s.g).collect();
    let lab = app.world().resource::<Lab>();
    let at = |b: usize| lab.position(b);
    contact_lab::app::ui::magnifier::deepest(&lab.world, &lab.constraint_names, &g, &at, 800.0)
}

fn step_index(title_start: &str) -> usize {
    let tour = contact_core::scene::tour::load(&paper_tour()).unwrap();
    tour.steps.iter().position(|s| s.title.starts_with(title_start)).expect(title_start)
}

/// The claims of each step's "what to look at", checked where the step stops.
/// A step whose words are not what the lab shows fails here.
#[test]
fn every_claim_of_the_paper_tour_is_on_screen_where_its_step_stops() {
    use contact_lab::app::lab::ConstraintState;
    let tour = contact_core::scene::tour::load(&paper_tour()).unwrap();
    assert_eq!(tour.steps.len(), 14, "a step was added or removed: give it its checks here");

    // 1 · Right on the wedge: ÿ = 0 throughout; g2 handled with λ = 1, g1 gone.
    let mut app = run_step_to_its_pause(step_index("1 ·"));
    let ya = shown(&app, "particle.y.a");
    assert!(ya.len() >= 15, "the 0.02 s window shows the run: {} points", ya.len());
    assert!(ya.iter().all(|p| p.1.abs() < 1e-9), "ÿ stays at 0: {ya:?}");
    let g2 = row(&mut app, "g2");
    assert_eq!(g2.state, ConstraintState::Handled);
    assert!((g2.lambda - 1.0).abs() < 1e-9, "λ2 = {}", g2.lambda);
    assert_eq!(row(&mut app, "g1").state, ConstraintState::Inactive, "g1 leaves contact");

    // 2 · Platt: y dips below 0 within the window, visibly (the plot's range
    // is the series' own, so its lowest point is below 0 by far more than
    // round-off); g2 handled again with λ ≈ 1; stepped back to t = 0.001 s,
    // the trace shows both rows dropped for λ ≤ 0.
    let app = run_step_to_its_pause(step_index("2 ·"));
    let y = shown(&app, "particle.y");
    let low = y.iter().map(|p| p.1).fold(f64::INFINITY, f64::min);
    let high = y.iter().map(|p| p.1).fold(f64::NEG_INFINITY, f64::max);
    assert!(low < -1e-7, "y dips below 0: lowest {low}");
    assert!(high - low > 0.0 && -low / (high - low) > 0.5, "the dip is most of the plot: {low}..{high}");
    let mut app = app;
    let g2 = row(&mut app, "g2");
    assert_eq!(g2.state, ConstraintState::Handled, "g2 handled again");
    let v = magnified(&mut app).expect("the sink is magnified at the pause");
    assert_eq!(v.name, "g2");
    assert!(v.depth < -1e-6 && v.depth > -1.9e-6, "still about 1.4 µm below the floor: {}", v.depth);
    assert!((g2.lambda - 1.0).abs() < 0.01, "λ2 ≈ 1: {}", g2.lambda);
    let first = report_at(&mut app, 0.001);
    // Algorithm 1's lines 3–9, after the step: both dropped, with λ = (−2, −1) (eq. 11).
    let removed: Vec<_> = first.traces[0]
        .after_step
        .iter()
        .filter(|c| matches!(c.reason, contact_core::trace::Reason::NonPositiveMultiplier { .. }))
        .map(|c| c.constraint)
        .collect();
    assert_eq!(removed.len(), 2, "both rows dropped for λ ≤ 0 at t = 0.001 s: {:?}", first.traces[0]);

    // 3 · Platt improved, force to the left: g1 goes negative in the plot and
    // its row shows g < 0.
    let mut app = run_step_to_its_pause(step_index("3 ·"));
    let g1 = shown(&app, "g1.g");
    let low = g1.iter().map(|p| p.1).fold(f64::INFINITY, f64::min);
    assert!(low < -1e-6, "g1 goes negative: lowest {low}");
    let g1_row = row(&mut app, "g1");
    assert!(g1_row.g < 0.0 && g1_row.handled, "the table's g1 is handled and below 0: {g1_row:?}");
    // A micron at the wedge's scale is far below a pixel: the magnifier shows it.
    let v = magnified(&mut app).expect("a violation of a micron is magnified");
    assert_eq!(v.name, "g1");
    // g1 = x − y has |∂g/∂p| = √2: the depth is the distance to the line.
    assert!((v.depth - g1_row.g / 2f64.sqrt()).abs() < 1e-15, "{} against {}", v.depth, g1_row.g);
    assert!(v.depth < -0.5e-6 && v.depth > -1.5e-6, "about 0.9 µm through x − y = 0: {}", v.depth);
    let first = report_at(&mut app, 0.001);
    assert_eq!(first.handled, vec![false, true], "only the floor handled at t = 0.001 s");
    assert!((first.lambda[1] - 2.0).abs() < 1e-9, "λ2 = 2 (eq. 15): {}", first.lambda[1]);

    // 4 · Right, force to the left: λ = (1, 3), the particle held at the apex.
    let mut app = run_step_to_its_pause(step_index("4 ·"));
    let (g1, g2) = (row(&mut app, "g1"), row(&mut app, "g2"));
    assert!((g1.lambda - 1.0).abs() < 1e-9 && (g2.lambda - 3.0).abs() < 1e-9, "λ = ({}, {})", g1.lambda, g2.lambda);
    assert_eq!((g1.state, g2.state), (ConstraintState::Handled, ConstraintState::Handled));

    // 5 · Right on the sticky corner: λ_wall < 0 all along, x stays at 0.
    let mut app = run_step_to_its_pause(step_index("5 ·"));
    let wall = shown(&app, "wall.lambda");
    assert!(wall.iter().skip(1).all(|p| p.1 < 0.0), "λ_wall < 0: {:?}", &wall[..3]);
    assert!(shown(&app, "block.x").iter().all(|p| p.1.abs() < 1e-9), "x stays at 0");
    assert!(row(&mut app, "wall").lambda < 0.0);

    // 6 · Exact: λ_floor = 9.81, λ_wall = 0, only the floor handled.
    let mut app = run_step_to_its_pause(step_index("6 ·"));
    let (floor, wall) = (row(&mut app, "floor"), row(&mut app, "wall"));
    assert!((floor.lambda - 9.81).abs() < 1e-9, "λ_floor = {}", floor.lambda);
    assert_eq!(wall.lambda, 0.0);
    assert_eq!(floor.state, ConstraintState::Handled);
    assert!(!wall.handled, "the wall is not handled");

    // 7 · The billiard: the largest violation stays at round-off, and the
    // rewinds are listed.
    let app = run_step_to_its_pause(step_index("7 ·"));
    let v = shown(&app, "max_violation");
    let worst = v.iter().map(|p| p.1).fold(0.0, f64::max);
    assert!(worst < 1e-15, "largest violation {worst} m");
    let events = app.world().resource::<contact_lab::app::timeline::EventLog>();
    assert!(events.total >= 5, "the rewinds tab lists the first contacts: {}", events.total);

    // 8 · The ladder under Exact: λ wall reaches 0 at t = 0.461 s and stays;
    // the wall leaves the handled set there, the floor stays; at the pause the
    // wall is inactive with g > 0, the floor handled.
    let mut app = run_step_to_its_pause(step_index("8 ·"));
    let wall = shown(&app, "wall.lambda");
    let held = shown(&app, "wall.handled");
    let released = held.iter().find(|p| p.1 == 0.0 && p.0 > 0.0).expect("the wall is let go").0;
    assert!((released - 0.461).abs() < 1e-9, "released at {released} s");
    assert!(wall.iter().filter(|p| p.0 >= released).all(|p| p.1 == 0.0), "λ wall stays at 0");
    assert!(wall.iter().filter(|p| p.0 < released && p.0 > 0.0).all(|p| p.1 > 0.0), "and pushes before");
    assert!(shown(&app, "floor.handled").iter().skip(1).all(|p| p.1 == 1.0), "the floor stays handled");
    let (wall, floor) = (row(&mut app, "wall"), row(&mut app, "floor"));
    assert!(wall.state == ConstraintState::Inactive && wall.g > 0.0, "{wall:?}");
    assert_eq!(floor.state, ConstraintState::Handled);

    // 9 · The cube over the step under Exact: θ falls from 0 at θ̈ = −53.5
    // rad/s² (the first step of the plot: semi-implicit Euler's θ₁ = θ̈ h²)
    // and has turned well by the pause; the edge row under its face is
    // handled and pushes.
    let mut app = run_step_to_its_pause(step_index("9 ·"));
    let theta = shown(&app, "box.theta");
    let (t1, th1) = theta.iter().copied().find(|p| p.0 > 0.0).expect("a first step");
    assert!((th1 / (t1 * t1) + 53.51).abs() < 0.01, "θ = {th1} at {t1} s");
    assert!(theta.last().expect("samples").1 < -0.3, "turned to {:?}", theta.last());
    let edge = row(&mut app, "step[2]-box[0]");
    assert!(edge.handled && edge.lambda > 0.0, "{edge:?}");

    // 10 · Friction on the incline: the upper block's slip stays 0, the
    // lower one's grows at 3.206 m/s²; the table says sticks and slides.
    let mut app = run_step_to_its_pause(step_index("10 ·"));
    let still = shown(&app, "sticks-left.slip");
    assert!(still.iter().all(|p| p.1.abs() < 1e-9), "the upper block slips: {:?}", still.last());
    let (t, v) = *shown(&app, "slides-left.slip").last().expect("samples");
    assert!((v.abs() / t - 3.2059).abs() < 1e-3 && (v.abs() - 0.96).abs() < 0.01, "slip {v} at {t} s");
    for corner in ["sticks-left", "sticks-right"] {
        let s = row(&mut app, corner);
        assert!(s.handled && s.coulomb == contact_lab::app::lab::Coulomb::Sticks, "{corner}: {s:?}");
    }
    for corner in ["slides-left", "slides-right"] {
        let s = row(&mut app, corner);
        assert!(s.handled && s.coulomb == contact_lab::app::lab::Coulomb::Slides, "{corner}: {s:?}");
        assert!((s.friction + 0.2 * s.lambda).abs() < 1e-9, "{corner}: λ_t = {} for λ = {}", s.friction, s.lambda);
    }

    // 11 · Painlevé: an impact without collision on foot1 at t = 0; its
    // slip from 1 m/s to 0 at once, foot2's sliding on; the trace at the
    // first step names the paradox.
    let mut app = run_step_to_its_pause(step_index("11 ·"));
    let slip = shown(&app, "foot1.slip");
    assert!((slip[0].1 - 1.0).abs() < 1e-9 && slip[0].0 == 0.0, "starts sliding at 1 m/s: {:?}", slip[0]);
    assert!(slip.iter().skip(1).all(|p| p.1.abs() < 1e-3), "the foot stopped: {:?}", &slip[..3]);
    assert!(shown(&app, "foot2.slip").last().expect("samples").1 > 0.5, "foot2 slides on");
    let first = report_at(&mut app, 0.001);
    let ev = first.events.iter().find(|e| !e.without_collision.is_empty()).expect("the impact without collision");
    assert_eq!(ev.t, 0.0);
    assert!(ev.impulse[0].1 > 0.0 && ev.friction[0].1 != 0.0, "{ev:?}");
    let names: Vec<String> = app.world().resource::<Lab>().constraint_names.clone();
    let said = first.traces.iter().flat_map(|t| t.describe(&names)).collect::<Vec<_>>().join("\n");
    assert!(said.contains("no consistent contact force: foot1 slides past Painlevé's bound"), "{said}");

    // 12 · The cradle under the paper's scheme: the impact at 0.323 s, then
    // b5 alone on at 0.61 m/s at 0.5 s, b1 and b3 stopped.
    let app = run_step_to_its_pause(step_index("12 ·"));
    let b5 = shown(&app, "b5.x.v");
    let start = b5.iter().find(|p| p.1.abs() > 1e-6).expect("b5 leaves").0;
    assert!((start - 0.323).abs() < 1e-9, "the impact at {start} s");
    assert!((b5.last().unwrap().1 - 0.61).abs() < 0.005, "b5 at {:?}", b5.last());
    for ball in ["b1.x.v", "b3.x.v"] {
        // Stopped to a micron a second (the strings' drift: 3e-7 m/s).
        assert!(shown(&app, ball).last().unwrap().1.abs() < 1e-6, "{ball} stopped: {:?}", shown(&app, ball).last());
    }

    // 13 · Zeno's ball under the paper's scheme: the rewinds log holds 16
    // bounces by 2.8 s, each at its closed-form time, each 0.8 times as fast.
    let app = run_step_to_its_pause(step_index("13 ·"));
    let log = app.world().resource::<contact_lab::app::timeline::EventLog>();
    assert_eq!(log.total, 16, "bounces in the rewinds log: {:?}", log.events.iter().map(|e| e.t).collect::<Vec<_>>());
    let (g, e) = (9.81_f64, 0.8_f64);
    let t0 = (1.0 / g).sqrt();
    let v0 = g * t0;
    for (k, ev) in log.events.iter().enumerate() {
        let t = t0 + 2.0 * v0 * (1..=k).map(|j| e.powi(j as i32)).sum::<f64>() / g;
        assert!((ev.t - t).abs() < 1e-9, "bounce {}: {} s against {t} s", k + 1, ev.t);
        assert!((ev.approach_speed[0].1 - v0 * e.powi(k as i32)).abs() < 1e-9, "bounce {}: {:?}", k + 1, ev);
    }
    let said: Vec<String> = log.events.iter().take(3).map(|ev| format!("{:.4}", ev.t)).collect();
    assert_eq!(said, ["0.3193", "0.8301", "1.2388"], "the times the text gives");
    let speeds: Vec<String> = log.events.iter().take(3).map(|ev| format!("{:.3}", ev.approach_speed[0].1)).collect();
    assert_eq!(speeds, ["3.132", "2.506", "2.005"], "the speeds the text gives");

    // 14 · The heap: at rest from t = 3 s (kinetic energy 0), its angle of
    // repose 17.3° in the plot from then on and on the view (flanks 19.1°
    // and 15.5°, the lines `heap_angle` draws), every step exact.
    let app = run_step_to_its_pause(step_index("14 ·"));
    let angle = shown(&app, "repose_angle");
    let rest: Vec<f64> = angle.iter().filter(|p| p.0 >= 3.0).map(|p| p.1).collect();
    assert!(!rest.is_empty() && rest.iter().all(|a| format!("{a:.1}") == "17.3"), "the angle from 3 s: {rest:?}");
    let kinetic = shown(&app, "kinetic_energy");
    assert!(kinetic.iter().filter(|p| p.0 >= 3.0).all(|p| p.1 < 1e-12), "at rest from 3 s");
    let lab = app.world().resource::<Lab>();
    let heap = contact_core::heap::heap(&lab.world.model, &lab.world.state).expect("a heap on the view");
    let flanks: Vec<String> = heap.flanks.iter().map(|f| format!("{:.1}", f.angle)).collect();
    assert_eq!(flanks, ["19.1", "15.5"], "the flanks the text gives");
    let worst = shown(&app, "max_violation").iter().map(|p| p.1).fold(0.0, f64::max);
    assert!(worst < 1e-9, "nothing penetrates: {worst} m");
}

/// The keys a "what to look at" line asks for, in its order: "Press R, then
/// 1 (Platt) and Space: …" is R, 1, Space ("(…)" asides are not keys);
/// "Step back to t = 0.001 s (←)" is ← down to that time (`Back`). `None`
/// for a line that asks for no key. An unknown key fails: a new sentence
/// gets its key here.
fn actions(line: &str) -> Option<Vec<Action>> {
    use bevy::prelude::KeyCode;
    if let Some(rest) = line.strip_prefix("Step back to t = ") {
        let t: f64 = rest.split(' ').next()?.parse().ok()?;
        assert!(rest.contains("(←)"), "{line}: which key steps back?");
        return Some(vec![Action::Back(t)]);
    }
    let rest = line.strip_prefix("Press ")?;
    // Drop the asides, then read up to the claim.
    let mut plain = String::new();
    let mut depth = 0;
    for c in rest.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            _ if depth == 0 => plain.push(c),
            _ => {}
        }
    }
    let keys = plain.split([':']).next()?.split(" to ").next()?;
    let keys = keys.replace(", then ", ",").replace(" and ", ",").replace(" then ", ",");
    Some(
        keys.split(',')
            .map(str::trim)
            .filter(|k| !k.is_empty())
            .map(|k| {
                Action::Key(match k {
                    "R" => KeyCode::KeyR,
                    "1" => KeyCode::Digit1,
                    "2" => KeyCode::Digit2,
                    "3" => KeyCode::Digit3,
                    "4" => KeyCode::Digit4,
                    "Space" => KeyCode::Space,
                    "K" => KeyCode::KeyK,
                    "C" => KeyCode::KeyC,
                    other => panic!("{line}: the key {other:?} is not known to this test"),
                })
            })
            .collect(),
    )
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Action {
    Key(bevy::prelude::KeyCode),
    /// ← until the clock shows this time.
    Back(f64),
}

/// One press of `k`, as a user's: down for a frame, then up.
fn press(app: &mut bevy::prelude::App, k: bevy::prelude::KeyCode) {
    use bevy::prelude::{ButtonInput, KeyCode};
    app.world_mut().resource_mut::<ButtonInput<KeyCode>>().press(k);
    app.update();
    let mut keys = app.world_mut().resource_mut::<ButtonInput<KeyCode>>();
    keys.release(k);
    keys.clear();
}

/// `secs` of real time (the manual clock gives `h` a frame).
fn wait_real(app: &mut bevy::prelude::App, secs: f64) {
    let h = app.world().resource::<contact_lab::app::lab::StepSettings>().h;
    for _ in 0..(secs / h).round() as usize {
        app.update();
    }
}

/// The step's actions performed as a user would (two seconds between
/// keys), then, if the clock plays, up to its pause.
fn perform(app: &mut bevy::prelude::App, actions: &[Action]) {
    use bevy::prelude::{ButtonInput, KeyCode};
    use contact_lab::app::lab::PauseAt;
    app.init_resource::<ButtonInput<KeyCode>>();
    for (n, a) in actions.iter().enumerate() {
        if n > 0 {
            wait_real(app, 2.0);
        }
        match *a {
            Action::Key(k) => press(app, k),
            Action::Back(t) => {
                let mut guard = 0;
                while app.world().resource::<Lab>().time() > t + 1e-9 {
                    press(app, KeyCode::ArrowLeft);
                    guard += 1;
                    assert!(guard < 100_000, "← never reaches t = {t} s");
                }
            }
        }
    }
    let playing = !app.world().resource::<bevy::prelude::Time<bevy::prelude::Virtual>>().is_paused();
    if playing {
        let mut guard = 0;
        while !app.world().resource::<PauseAt>().reached {
            app.update();
            guard += 1;
            assert!(guard < 50_000, "the step never reaches its pause again");
        }
    }
}

/// Every sentence of the tour that asks for a key is performed here, keys
/// in the order the text gives them, and then what it claims is checked.
/// A step whose instruction leads elsewhere (R then 3, where R replayed the
/// step under the old algorithm before the 3 arrived) fails.
#[test]
fn every_action_of_the_paper_tour_does_what_its_text_says() {
    use contact_core::Algorithm;
    let tour = contact_core::scene::tour::load(&paper_tour()).unwrap();
    let mut performed = Vec::new();
    for (i, step) in tour.steps.iter().enumerate() {
        for line in &step.look {
            let Some(acts) = actions(line) else { continue };
            let mut app = run_step_to_its_pause(i);
            let paused_at = app.world().resource::<Lab>().time();
            perform(&mut app, &acts);
            let algorithm = app.world().resource::<Lab>().world.settings.algorithm;
            let n = step.title.split(' ').next().unwrap_or("");
            match n {
                // "Press R, then C and Space: compare mode forks the other
                // methods at t = 0 … Right's dashed line stays on the floor
                // while Platt's dips" (issue 47, item 5: "press 3 and 1 to
                // compare" threw Platt's run away instead of comparing).
                "2" => {
                    assert_eq!(algorithm, Algorithm::Platt, "{line}");
                    assert_eq!(app.world().resource::<Lab>().time(), paused_at, "{line}: played to its pause again");
                    let platt_dips = shown(&app, "particle.y").iter().map(|p| p.1).fold(f64::INFINITY, f64::min);
                    assert!(platt_dips < -1e-6, "{line}: Platt's particle dips to {platt_dips} m");
                    let c = app.world().resource::<Compare>();
                    assert!(c.on && c.lanes.len() == 4, "{line}: {} lanes", c.lanes.len());
                    let right = c.lane(contact_core::Method::event_driven(Algorithm::Right)).expect("a Right lane");
                    assert_eq!(right.from, 0.0, "{line}: forked at {} s", right.from);
                    let y = right.lane.world.state.q[1];
                    assert!((right.lane.world.state.t - paused_at).abs() < 1e-9, "{line}: Right's lane at the pause");
                    assert!(y.abs() < 1e-12, "{line}: Right's particle on the floor, y = {y} m");
                    // The table's penetrations: Platt's about 1.9e-6 m, Right's at round-off.
                    assert!((1.7e-6..2.1e-6).contains(&-platt_dips), "{line}: Platt's {platt_dips} m");
                }
                // "Press R, then 1 (Platt) and Space: Platt pulls on the wall
                // (λ < 0) for 27 ms after 0.46 s."
                "8" => {
                    assert_eq!(algorithm, Algorithm::Platt, "{line}");
                    let wall = shown(&app, "wall.lambda");
                    let pulls: Vec<f64> = wall.iter().filter(|p| p.1 < 0.0).map(|p| p.0).collect();
                    let (first, last) = (pulls.first().copied(), pulls.last().copied());
                    let (Some(first), Some(last)) = (first, last) else { panic!("{line}: the wall never pulls") };
                    assert!((0.46..0.47).contains(&first), "{line}: pulls from {first} s");
                    let span = last - first + 0.001;
                    assert!((span - 0.027).abs() <= 0.002, "{line}: pulls for {span} s");
                }
                // "Press R, then 3 (Right) and Space: the cube stays level,
                // held by both rows."
                "9" => {
                    assert_eq!(algorithm, Algorithm::Right, "{line}");
                    let lab = app.world().resource::<Lab>();
                    assert!((lab.time() - 0.2).abs() < 1e-9, "{line}: played to {} s", lab.time());
                    let theta = shown(&app, "box.theta");
                    assert!(theta.iter().all(|p| p.1.abs() < 1e-6), "{line}: θ = {:?}", theta.last());
                    let (edge, corner) = (row(&mut app, "step[2]-box[0]"), row(&mut app, "box[0]-step[2]"));
                    assert!(edge.handled && corner.handled, "{line}: {edge:?} {corner:?}");
                    assert!(corner.lambda < 0.0, "{line}: the corner holds by pulling: {corner:?}");
                }
                // "Step back to t = 0.001 s (←): the trace says …"
                "11" => {
                    let lab = app.world().resource::<Lab>();
                    assert!((lab.time() - 0.001).abs() < 1e-9, "{line}: at {} s", lab.time());
                    let report = lab.report.clone().expect("the timeline gives the step's report back");
                    let said: Vec<String> =
                        report.traces.iter().flat_map(|t| t.describe(&lab.constraint_names)).collect();
                    let claim = line.split('“').nth(1).and_then(|s| s.split('”').next()).expect("a quoted claim");
                    assert!(said.iter().any(|s| s.contains(claim)), "{line}: the trace says {said:#?}");
                }
                // "Press R, then C and Space: compare mode forks the other
                // methods at t = 0, Time-stepping among them, and the clock
                // plays to 0.5 s" — then the violet lines and its row.
                "12" => {
                    let lab = app.world().resource::<Lab>();
                    assert!((lab.time() - 0.5).abs() < 1e-9, "{line}: played to {} s", lab.time());
                    let c = app.world().resource::<Compare>();
                    assert!(c.on && c.lanes.len() == 4, "{line}: {} lanes", c.lanes.len());
                    let ts = c.lane(contact_core::Method::TIME_STEPPING).expect("a time-stepping lane");
                    assert_eq!(ts.from, 0.0, "{line}: forked at {} s", ts.from);
                    let w = &ts.lane.world;
                    let v = |name: &str| {
                        let body = w.model.bodies.iter().find(|b| b.name == name).expect(name);
                        w.state.qd[body.offset]
                    };
                    assert!((v("b1") + 0.38).abs() < 0.005, "b1 back at {}", v("b1"));
                    assert!((v("b3") - 0.26).abs() < 0.005 && (v("b5") - 0.26).abs() < 0.005, "together");
                    assert!(ts.lane.max_penetration < 1e-9, "at round-off: {}", ts.lane.max_penetration);
                    assert!(c.main_penetration < 1e-9, "the lab's: {}", c.main_penetration);
                }
                // "Press R, then C and Space: … the clock plays to 2.8 s" —
                // then Time-stepping's ball at rest on the floor since 2.72 s,
                // with no event, while the lab's still bounces.
                "13" => {
                    let lab = app.world().resource::<Lab>();
                    assert!((lab.time() - 2.8).abs() < 1e-9, "{line}: played to {} s", lab.time());
                    let (y, v) = (lab.world.state.q[1] - 0.05, lab.world.state.qd[1]);
                    assert!(y > 1e-4 || v.abs() > 1e-3, "{line}: the lab's ball still bounces: {y} m, {v} m/s");
                    let c = app.world().resource::<Compare>();
                    assert!(c.on && c.lanes.len() == 4, "{line}: {} lanes", c.lanes.len());
                    let ts = c.lane(contact_core::Method::TIME_STEPPING).expect("a time-stepping lane");
                    assert_eq!(ts.from, 0.0, "{line}: forked at {} s", ts.from);
                    let w = &ts.lane.world;
                    assert_eq!(w.state.qd[1], 0.0, "{line}: at rest");
                    assert!(w.state.q[1] - 0.05 < 1e-12, "{line}: on the floor, {} m up", w.state.q[1] - 0.05);
                    assert!(ts.lane.report.as_ref().is_some_and(|r| r.events.is_empty()), "{line}: no event");
                    // The compare table's energies: 0.04905 J at rest, the lab's 0.04944 J.
                    let energy =
                        |w: &contact_core::World| w.model.kinetic_energy(&w.state) + w.model.potential_energy(&w.state);
                    assert!((energy(w) - 0.04905).abs() < 5e-6, "{line}: time-stepping's {} J", energy(w));
                    let lab = &app.world().resource::<Lab>().world;
                    assert!((energy(lab) - 0.04944).abs() < 5e-6, "{line}: the lab's {} J", energy(lab));
                    // "Platt improved's dashed yellow line rests too."
                    let pi = c.lane(contact_core::Method::event_driven(Algorithm::PlattImproved)).expect("a lane");
                    let w = &pi.lane.world;
                    // (Held by the floor's row at the acceleration level: Baumgarte's
                    // term leaves a fraction of a µm/s.)
                    assert!(w.state.qd[1].abs() < 1e-6, "{line}: Platt improved at rest, {} m/s", w.state.qd[1]);
                    assert!((w.state.q[1] - 0.05).abs() < 1e-6, "{line}: on the floor, {} m up", w.state.q[1] - 0.05);
                }
                _ => panic!("step {n}: {line:?} asks for keys this test does not check: give it its check"),
            }
            performed.push(n.to_string());
        }
    }
    assert_eq!(performed, ["2", "8", "9", "11", "12", "13"], "every action sentence is performed");
}

/// T opens the tour on its step, loaded and running as its text expects
/// (issue 37: it showed step 1 and waited for a click on it).
#[test]
fn t_opens_the_tour_with_its_step_running() {
    let mut app = headless(&scene("ball-pile.ron"));
    app.add_plugins(TourPlugin { path: paper_tour(), start: None });
    app.update();
    app.world_mut().write_message(TourAction::Toggle);
    app.update();
    app.update();
    let tour = contact_core::scene::tour::load(&paper_tour()).unwrap();
    let lab = app.world().resource::<Lab>();
    assert_eq!(lab.scene.name, tour.steps[0].load().unwrap().name);
    let state = app.world().resource::<TourState>();
    assert!(state.open);
    assert_eq!(running_step(state, Some(lab)), Some(0));
    // T again closes it, and leaves the scene as it is.
    app.world_mut().write_message(TourAction::Toggle);
    app.update();
    assert!(!app.world().resource::<TourState>().open);
}
