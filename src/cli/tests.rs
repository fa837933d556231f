//! The headless commands, called as functions (no process spawned).

use std::path::PathBuf;

use clap::Parser;

use super::*;

pub(super) fn scene(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("assets/scenes").join(name)
}

pub(super) fn run_args(scene: PathBuf) -> RunArgs {
    RunArgs {
        scene,
        algorithm: None,
        scheme: None,
        duration: None,
        dt: None,
        tau: None,
        restitution: None,
        impulses: None,
        balls: None,
        csv: None,
        events: None,
        sleep: false,
    }
}

#[test]
fn run_with_sleep_says_how_many_bodies_sleep_at_the_end() {
    // 10 s: since a slow row has no say in its island's restitution and each
    // impact gets its e at its own time (issue 26), the landing bounces (e =
    // 0.3) where it was plastic, and a ball rocking between two below it
    // (impacts at 1.9, 3.5 and 5.6 s, at 2.1 then 1.0 cm/s) settles between 8
    // and 10 s (the pile was asleep by 3 s).
    let args = RunArgs {
        duration: Some(10.0),
        balls: Some(12),
        algorithm: Some(AlgorithmArg::Exact),
        // Sleep is the event-driven scheme's (the pile opens under time-stepping).
        scheme: Some(super::SchemeArg::EventDriven),
        sleep: true,
        ..run_args(scene("ball-pile.ron"))
    };
    let mut out = Vec::new();
    run(&args, &mut out).unwrap();
    let summary = String::from_utf8(out).unwrap();
    assert!(summary.contains("asleep at the end: 12 of 12 bodies"), "{summary}");
    // Without the flag the scene's setting (off) holds, and nothing is said.
    let mut out = Vec::new();
    run(&RunArgs { sleep: false, ..args }, &mut out).unwrap();
    assert!(!String::from_utf8(out).unwrap().contains("asleep"));
}

#[test]
fn run_writes_the_documented_csv_header_and_one_row_per_step() {
    let dir = tempfile::tempdir().unwrap();
    let csv_path = dir.path().join("wedge.csv");
    let args = RunArgs {
        duration: Some(0.1),
        algorithm: Some(AlgorithmArg::Platt),
        csv: Some(csv_path.clone()),
        ..run_args(scene("wedge.ron"))
    };
    let mut out = Vec::new();
    run(&args, &mut out).unwrap();

    let mut reader = csv::Reader::from_path(&csv_path).unwrap();
    let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
    let expected = [
        "t",
        "particle.x",
        "particle.x.v",
        "particle.x.a",
        "particle.y",
        "particle.y.v",
        "particle.y.a",
        "g1.g",
        "g1.lambda",
        "g1.handled",
        "g2.g",
        "g2.lambda",
        "g2.handled",
    ];
    assert_eq!(header, expected);
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 100, "0.1 s at h = 1e-3");
    for row in &rows {
        assert_eq!(row.len(), expected.len());
        for field in row.iter() {
            let v: f64 = field.parse().unwrap();
            assert!(v.is_finite());
        }
    }
    // First step of Platt on the wedge, eq. (11): both handled, q̈ = 0, λ = (−2, −1).
    let first: Vec<f64> = rows[0].iter().map(|f| f.parse().unwrap()).collect();
    assert!((first[0] - 1e-3).abs() < 1e-15);
    assert_eq!((first[3], first[6]), (0.0, 0.0));
    assert!((first[8] + 2.0).abs() < 1e-9 && (first[11] + 1.0).abs() < 1e-9);
    assert_eq!((first[9], first[12]), (1.0, 1.0));

    let summary = String::from_utf8(out).unwrap();
    for key in ["steps: 100", "events: ", "max violation: ", "min lambda", "energy drift: ", "wall time per step: "] {
        assert!(summary.contains(key), "summary lacks {key:?}:\n{summary}");
    }
}

#[test]
fn run_writes_one_row_per_event() {
    let dir = tempfile::tempdir().unwrap();
    let events = dir.path().join("events.csv");
    let args = RunArgs {
        duration: Some(0.5),
        impulses: Some(ImpulsesArg::Sequential),
        events: Some(events.clone()),
        ..run_args(scene("newtons-cradle.ron"))
    };
    let mut out = Vec::new();
    run(&args, &mut out).unwrap();
    let summary = String::from_utf8(out).unwrap();
    let mut reader = csv::Reader::from_path(&events).unwrap();
    assert_eq!(reader.headers().unwrap(), &csv::StringRecord::from(csv_out::EventsCsv::HEADER.to_vec()));
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert!(summary.contains(&format!("events: {}\n", rows.len())), "{summary}");
    // The struck ball hits its neighbour once in the first half second.
    assert_eq!(rows.len(), 1);
    assert_eq!(&rows[0][1], "b1-b2");
    assert_eq!(&rows[0][4], "sequential");
}

/// Painlevé's rod: the summary gives friction's books (one impact without
/// collision, energy taken out), the events file names the cause, and the
/// steps file has `foot1.friction` and `foot1.slip`.
#[test]
fn run_reports_friction_and_painleves_impact() {
    let dir = tempfile::tempdir().unwrap();
    let (events, steps) = (dir.path().join("events.csv"), dir.path().join("steps.csv"));
    let args = RunArgs {
        duration: Some(0.1),
        events: Some(events.clone()),
        csv: Some(steps.clone()),
        ..run_args(scene("painleve-rod.ron"))
    };
    let mut out = Vec::new();
    run(&args, &mut out).unwrap();
    let summary = String::from_utf8(out).unwrap();
    assert!(summary.contains("; 1 impacts without collision (Painlevé)"), "{summary}");
    let took: f64 = summary.split("friction: ").nth(1).and_then(|r| r.split(' ').next()).unwrap().parse().unwrap();
    assert!(took > 0.0, "{summary}");
    let mut reader = csv::Reader::from_path(&events).unwrap();
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!((&rows[0][1], &rows[0][6]), ("foot1", "without collision"));
    let header = csv::Reader::from_path(&steps).unwrap().headers().unwrap().clone();
    assert!(header.iter().any(|h| h == "foot1.friction") && header.iter().any(|h| h == "foot1.slip"));
    assert_eq!(header.iter().next_back(), Some("friction_work"));
}

#[test]
fn compare_prints_one_row_per_method() {
    let args = CompareArgs { scene: scene("sticky-corner.ron"), duration: Some(0.2), balls: None };
    let mut out = Vec::new();
    compare(&args, &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let header = lines.iter().position(|l| l.starts_with("method")).expect("a header row");
    let rows = &lines[header + 1..];
    assert_eq!(rows.len(), contact_core::Method::ALL.len(), "{text}");
    for (row, a) in rows.iter().zip(contact_core::Method::ALL) {
        assert!(row.starts_with(a.label()), "{row}");
        // Aligned: every row as wide as the header.
        assert_eq!(row.chars().count(), lines[header].chars().count(), "{text}");
    }
    // Exact is its own reference; Right holds the block in the corner (GUIDE §2).
    assert!(rows[3].ends_with("0.000e0"), "{text}");
    assert!(!rows[2].ends_with("0.000e0"), "{text}");
    // Time-stepping: its own run, no events (one velocity problem a step).
    assert!(rows[4].starts_with("Time-stepping"), "{text}");
    assert_eq!(rows[4].split_whitespace().nth(3), Some("0"), "{text}");
}

/// The heap under every method: the paper's scheme stops at its first step
/// (rolling resistance is solved by time-stepping only), and the table keeps
/// those rows, says why once under it, and still gives time-stepping's run;
/// the paper's algorithms, which leave friction aside, are marked "no μ".
#[test]
fn compare_keeps_the_runs_that_did_not_stop_and_says_why_the_others_did() {
    let args = CompareArgs { scene: scene("heap.ron"), duration: Some(0.01), balls: None };
    let mut out = Vec::new();
    compare(&args, &mut out).expect("time-stepping's run is a table");
    let text = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let header = lines.iter().position(|l| l.starts_with("method")).expect("a header row");
    let rows = &lines[header + 1..header + 1 + contact_core::Method::ALL.len()];
    for (row, a) in rows.iter().zip(contact_core::Method::ALL) {
        assert!(row.starts_with(a.label()), "{row}");
        let stopped = row.contains("stopped at t = 0 s");
        assert_eq!(stopped, a.scheme == contact_core::Scheme::EventDriven, "{text}");
        assert_eq!(row.contains("no μ"), a.algorithm != contact_core::Algorithm::Exact, "{text}");
    }
    // Time-stepping ran its 10 steps: one velocity problem each, no event.
    assert_eq!(rows[4].split_whitespace().nth(3), Some("0"), "{text}");
    assert_eq!(rows[4].split_whitespace().nth(4), Some("1.000"), "{text}");
    let why: Vec<&&str> =
        lines.iter().filter(|l| l.contains("rolling resistance is solved by time-stepping")).collect();
    assert_eq!(why.len(), 1, "one line per cause: {text}");
    assert!(why[0].starts_with("Platt, Platt improved, Right, Exact (LCP) stopped:"), "{text}");
    assert!(lines.iter().any(|l| l.starts_with("no μ:")), "{text}");
}

#[test]
fn bad_scenes_are_errors_that_say_where() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("broken.ron");
    std::fs::write(&path, "Scene(\n  name: \"x\",\n  bodies: [Particle(name: \"p\", position: (0, 0), mass: -1)],\n)")
        .unwrap();
    let err = run(&run_args(path.clone()), &mut Vec::new()).unwrap_err();
    let msg = err.to_string();
    assert!(msg.starts_with(&format!("{}:3:", path.display())), "{msg}");
    assert!(msg.contains("bodies[0].mass") && msg.contains("positive"), "{msg}");

    let missing = run(&run_args(dir.path().join("nope.ron")), &mut Vec::new()).unwrap_err();
    assert!(missing.to_string().contains("cannot read"), "{missing}");

    let args = RunArgs { balls: Some(3), ..run_args(scene("wedge.ron")) };
    assert!(run(&args, &mut Vec::new()).unwrap_err().to_string().contains("ball_pile"));
}

#[test]
fn the_command_line_keeps_the_app_entry_points() {
    let cli = Cli::try_parse_from(["contact-lab"]).unwrap();
    assert!(cli.command.is_none() && cli.app.scene.is_none());
    let cli = Cli::try_parse_from(["contact-lab", "assets/scenes/billiard-corner.ron"]).unwrap();
    assert!(cli.command.is_none());
    assert_eq!(cli.app.scene, Some(PathBuf::from("assets/scenes/billiard-corner.ron")));
    let cli = Cli::try_parse_from([
        "contact-lab",
        "run",
        "s.ron",
        "--algorithm",
        "platt-improved",
        "--impulses",
        "sequential",
        "--dt",
        "2e-3",
        "--balls",
        "12",
    ])
    .unwrap();
    let Some(Command::Run(args)) = cli.command else { panic!("not a run") };
    assert_eq!(args.algorithm, Some(AlgorithmArg::PlattImproved));
    assert_eq!(args.impulses, Some(ImpulsesArg::Sequential));
    assert_eq!((args.dt, args.balls), (Some(2e-3), Some(12)));
    assert!(Cli::try_parse_from(["contact-lab", "run", "s.ron", "--dt", "0"]).is_err());
    assert!(Cli::try_parse_from(["contact-lab", "run", "s.ron", "--restitution", "1.5"]).is_err());
    let cli = Cli::try_parse_from(["contact-lab", "compare", "s.ron", "--duration", "3"]).unwrap();
    assert!(matches!(cli.command, Some(Command::Compare(CompareArgs { duration: Some(3.0), .. }))));
    // The scheme, in the app and headless; a wrong name says the right ones.
    let cli = Cli::try_parse_from(["contact-lab", "--scheme", "time-stepping"]).unwrap();
    assert_eq!(cli.app.scheme, Some(contact_core::Scheme::TimeStepping));
    let cli = Cli::try_parse_from(["contact-lab", "run", "s.ron", "--scheme", "event-driven"]).unwrap();
    let Some(Command::Run(args)) = cli.command else { panic!("not a run") };
    assert_eq!(args.scheme, Some(super::SchemeArg::EventDriven));
    let e = Cli::try_parse_from(["contact-lab", "--scheme", "rk4"]).map(|_| ()).unwrap_err().to_string();
    assert!(e.contains("event-driven or time-stepping"), "{e}");
}

/// An absurd step count is refused before anything runs, with a message that
/// says why and what to change (it used to sit silent until killed).
#[test]
fn absurd_step_counts_are_refused_at_once() {
    let args = RunArgs { duration: Some(1e9), dt: Some(1e-12), ..run_args(scene("wedge.ron")) };
    let mut out = Vec::new();
    let start = std::time::Instant::now();
    let err = run(&args, &mut out).expect_err("refused");
    assert!(matches!(err, CliError::TooManySteps { .. }));
    let msg = err.to_string();
    assert!(msg.contains("1e21 steps") && msg.contains("--duration") && msg.contains("--dt"), "{msg}");
    assert!(out.is_empty(), "nothing ran");
    assert!(start.elapsed().as_secs() < 60, "refused before stepping");
    // The limit itself: 1e8 steps pass, one more does not.
    assert_eq!(sim::step_count(1e5, 1e-3).unwrap(), 100_000_000);
    assert!(sim::step_count(1e5 + 1e-3, 1e-3).is_err());
    assert!(sim::step_count(f64::INFINITY, 1e-3).is_err());
}

/// τ at or below eq. (5)'s stable bound (1.207 h under the default
/// semi-implicit Euler) is warned about before the run, with the value to use;
/// τ = 1.25 h is not.
#[test]
fn a_tau_below_h_is_warned_about() {
    let mut out = Vec::new();
    let args = RunArgs { duration: Some(0.005), tau: Some(1e-4), ..run_args(scene("wedge.ron")) };
    run(&args, &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(text.starts_with("warning: τ = 1e-4 s is at or below 1.2071e-3 s") && text.contains("use τ ≥"), "{text}");
    let mut out = Vec::new();
    run(&RunArgs { duration: Some(0.005), tau: Some(1e-3), ..run_args(scene("wedge.ron")) }, &mut out).unwrap();
    assert!(String::from_utf8(out).unwrap().contains("warning: τ = 1e-3 s is at or below"), "τ = h is unstable too");
    let mut out = Vec::new();
    run(&RunArgs { duration: Some(0.005), tau: Some(1.25e-3), ..run_args(scene("wedge.ron")) }, &mut out).unwrap();
    assert!(!String::from_utf8(out).unwrap().contains("warning"));
}

/// τ = 1e-9 on the wedge used to reach y ≈ 6e301 m and exit 0 with 971
/// repeated CSV rows: the run now stops at the diverged step with its time,
/// constraint and cause, and keeps the CSV rows up to it.
#[test]
fn a_diverging_run_stops_names_the_step_and_the_cause() {
    let dir = tempfile::tempdir().unwrap();
    let csv_path = dir.path().join("w.csv");
    let args = RunArgs { tau: Some(1e-9), csv: Some(csv_path.clone()), ..run_args(scene("wedge.ron")) };
    let err = run(&args, &mut Vec::new()).expect_err("diverges");
    let CliError::Diverged { step, t, ref constraint, ref cause } = err else { panic!("{err}") };
    assert!(step < 100 && (t - step as f64 * 1e-3).abs() < 1e-9, "step {step}, t {t}");
    assert!(constraint.is_some());
    assert!(cause.contains("τ = 1e-9 s is at or below 1.2071e-3 s") && cause.contains("use τ ≥"), "{cause}");
    let rows = csv::Reader::from_path(&csv_path).unwrap().records().count() as u64;
    assert_eq!(rows, step, "one CSV row per step taken, none repeated");
    assert!(err.to_string().contains(&format!("diverged at step {step}")), "{err}");
}

fn figure_args(figure: PaperFigure, out: PathBuf) -> FigureArgs {
    FigureArgs { figure, out: Some(out), tau: figure::TAU, dt: figure::DT, size: (640, 400) }
}

/// The PNG's header says the size asked for, and the image decodes; the SVG
/// says it too and carries the title and the parameters; other names are refused.
#[test]
fn figure_writes_a_png_and_an_svg_of_the_stated_size() {
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("fig2.png");
    let mut out = Vec::new();
    figure(&figure_args(PaperFigure::PaperFig2, png.clone()), &mut out).unwrap();
    let bytes = std::fs::read(&png).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    assert_eq!(&bytes[12..16], b"IHDR");
    let side = |at: usize| u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap());
    assert_eq!((side(16), side(20)), (640, 400));
    let decoded = image::load_from_memory(&bytes).unwrap();
    assert_eq!((decoded.width(), decoded.height()), (640, 400));
    let text = String::from_utf8(out).unwrap();
    assert!(text.starts_with(&format!("{}: figure 2 (640×400 PNG)", png.display())), "{text}");

    let svg = dir.path().join("fig3.svg");
    figure(&FigureArgs { size: (900, 500), ..figure_args(PaperFigure::PaperFig3, svg.clone()) }, &mut Vec::new())
        .unwrap();
    let doc = std::fs::read_to_string(&svg).unwrap();
    assert!(doc.starts_with(r#"<svg width="900" height="500" viewBox="0 0 900 500""#), "{}", &doc[..100]);
    assert!(doc.trim_end().ends_with("</svg>"));
    for words in ["Figure 3 of Jonquet", "h = 1 ms, τ = 1.24 ms", "f = (2, −1) N", "Platt (Algorithm 1), m = 3"] {
        assert!(doc.contains(words), "the SVG lacks {words:?}");
    }

    let jpeg = dir.path().join("fig2.jpg");
    let err = figure(&figure_args(PaperFigure::PaperFig2, jpeg.clone()), &mut Vec::new()).unwrap_err();
    assert!(err.to_string().contains(".png or .svg"), "{err}");
    assert!(!jpeg.exists());
}

/// The points drawn are the rows of `run --csv` for the same settings, number
/// for number (the CSV prints shortest round-trip decimals, so `==` holds).
#[test]
fn figure_data_match_the_run_csv() {
    let dir = tempfile::tempdir().unwrap();
    let wedge = std::fs::read_to_string(scene("wedge.ron")).unwrap();
    assert_eq!(wedge.matches("mass: 2,").count(), 1);
    let (tau, dt) = (1.3e-3, 1e-3);
    for s in figure::series(PaperFigure::PaperFig3, tau, dt).unwrap() {
        let path = dir.path().join(format!("wedge-m{}.ron", s.mass));
        std::fs::write(&path, wedge.replace("mass: 2,", &format!("mass: {},", s.mass))).unwrap();
        let csv_path = dir.path().join("steps.csv");
        let algorithm = if s.algorithm == Algorithm::Platt { AlgorithmArg::Platt } else { AlgorithmArg::Right };
        let args = RunArgs {
            algorithm: Some(algorithm),
            duration: Some(figure::DURATION),
            dt: Some(dt),
            tau: Some(tau),
            csv: Some(csv_path.clone()),
            ..run_args(path)
        };
        run(&args, &mut Vec::new()).unwrap();
        let mut reader = csv::Reader::from_path(&csv_path).unwrap();
        let header = reader.headers().unwrap().clone();
        let column = |name: &str| header.iter().position(|h| h == name).unwrap();
        let (t, y, ydd) = (column("t"), column("particle.y"), column("particle.y.a"));
        let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
        assert_eq!(rows.len(), 20);
        assert_eq!(s.t.len(), rows.len());
        for (i, row) in rows.iter().enumerate() {
            let at = |c: usize| row[c].parse::<f64>().unwrap();
            assert_eq!((s.t[i], s.y[i], s.ydd[i]), (at(t), at(y), at(ydd)), "{}, row {i}", s.label());
        }
    }
}

/// The defaults give figure 2's look: under Platt, ÿ oscillates within ±10
/// reaching past ±5, |y| stays below 1e-5 m; Right keeps |y| below the
/// paper's 1e-8. With τ = 10 h the oscillation is gone.
#[test]
fn figure_defaults_reproduce_the_magnitudes_of_paper_figure_2() {
    let runs = figure::series(PaperFigure::PaperFig2, figure::TAU, figure::DT).unwrap();
    let (platt, right) = (&runs[0], &runs[1]);
    assert_eq!((platt.algorithm, right.algorithm, platt.mass), (Algorithm::Platt, Algorithm::Right, 2.0));
    assert!((5e-6..1e-5).contains(&platt.max_abs_y()), "{}", platt.max_abs_y());
    let (lo, hi) = platt.ydd_range();
    assert!((-10.0..-5.0).contains(&lo) && (5.0..=10.0).contains(&hi), "ÿ in [{lo}, {hi}]");
    assert!(right.max_abs_y() < 1e-8);
    let calm = figure::series(PaperFigure::PaperFig2, 10.0 * figure::DT, figure::DT).unwrap();
    let (lo, hi) = calm[0].ydd_range();
    assert!(lo >= -0.5 - 1e-12 && hi < 0.2, "ÿ in [{lo}, {hi}] at τ = 10 h");
}

/// Under Algorithm 1, q̈ and y scale as 1/m (Q = m q obeys equations without
/// m): y at m = 3 is 2/3 of y at m = 2 at every step, to rounding, and not
/// the hundred times more of the paper's figure 3.
#[test]
fn under_platt_y_scales_as_one_over_m() {
    let runs = figure::series(PaperFigure::PaperFig3, figure::TAU, figure::DT).unwrap();
    let (m3, m2) = (&runs[0], &runs[2]);
    assert_eq!((m3.mass, m2.mass, m2.reference), (3.0, 2.0, true));
    for i in 0..m2.t.len() {
        assert!((3.0 * m3.y[i] - 2.0 * m2.y[i]).abs() <= 1e-12 * m2.y[i].abs(), "step {i}");
        assert!((3.0 * m3.ydd[i] - 2.0 * m2.ydd[i]).abs() <= 1e-12 * m2.ydd[i].abs(), "step {i}");
    }
    assert!(m3.max_abs_y() > 1e-6, "not a trivial run");
}

#[test]
fn the_figure_command_line() {
    let cli =
        Cli::try_parse_from(["contact-lab", "figure", "paper-fig3", "--size", "800x500", "--tau", "2e-3"]).unwrap();
    let Some(Command::Figure(args)) = cli.command else { panic!("not a figure") };
    assert_eq!(
        (args.figure, args.size, args.tau, args.dt, args.out),
        (PaperFigure::PaperFig3, (800, 500), 2e-3, 1e-3, None)
    );
    let cli = Cli::try_parse_from(["contact-lab", "figure", "paper-fig2"]).unwrap();
    let Some(Command::Figure(args)) = cli.command else { panic!("not a figure") };
    assert_eq!((args.tau, args.size), (figure::TAU, (1200, 600)));
    for bad in [&["--size", "800"][..], &["--size", "10x10"], &["--dt", "0"], &["--tau", "-1"]] {
        let argv = ["contact-lab", "figure", "paper-fig2"].into_iter().chain(bad.iter().copied());
        assert!(Cli::try_parse_from(argv).is_err(), "{bad:?}");
    }
    assert!(Cli::try_parse_from(["contact-lab", "figure", "paper-fig4"]).is_err());
}

/// `run --scheme time-stepping` on the pile: the summary names the scheme,
/// no event is located, one velocity problem a step but where a rebound's
/// share of restitution is bisected (the step at t = 0.855 s, whose full
/// rebound would raise the pile's energy: 25 solves, 1.025 a step over the
/// second), and the landing ends every step on or outside every surface
/// (discs and walls: convex gaps).
#[test]
fn run_under_time_stepping_names_the_scheme_and_lands_the_pile_without_penetration() {
    let args = RunArgs {
        duration: Some(1.0),
        scheme: Some(super::SchemeArg::TimeStepping),
        ..run_args(scene("ball-pile.ron"))
    };
    let mut out = Vec::new();
    run(&args, &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains("time-stepping (Moreau–Jean"), "{text}");
    assert!(text.contains("events: 0"), "{text}");
    let solves: f64 = text
        .lines()
        .find_map(|l| l.strip_prefix("solves per step: "))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or_else(|| panic!("no solves per step in {text}"));
    assert!((1.0..=1.03).contains(&solves), "{solves} solves a step\n{text}");
    let violation: f64 = text
        .lines()
        .find_map(|l| l.strip_prefix("max violation: "))
        .and_then(|l| l.split(' ').next())
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no max violation in {text}"));
    assert!(violation <= 1e-9, "{violation:e} m");
}
