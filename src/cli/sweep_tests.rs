//! `contact-lab sweep`: a cell is `run` bit for bit, the CSV does not depend
//! on the jobs, shards merged are the whole, a failing cell is a row.

use std::path::PathBuf;

use super::sweep::{Table, parse_set};
use super::tests::{run_args, scene};
use super::{RunArgs, SweepArgs, run, sweep};

fn args(scene_file: &str, set: &[&str]) -> SweepArgs {
    SweepArgs {
        scene: Some(scene(scene_file)),
        set: set.iter().map(|s| s.to_string()).collect(),
        algorithm: None,
        scheme: None,
        measure: None,
        csv: None,
        plot: None,
        jobs: Some(1),
        shard: None,
        merge: Vec::new(),
    }
}

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("contact-lab-sweep-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// The end state `run` prints.
fn run_state(a: &RunArgs) -> String {
    let mut out = Vec::new();
    run(a, &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    let line = text.lines().find(|l| l.starts_with("state at the end: ")).expect("run prints its end state");
    line["state at the end: ".len()..][..16].to_string()
}

#[test]
fn a_cell_is_run_bit_for_bit() {
    // The wedge under Platt at tau = 2 ms for 20 ms, and the bouncing ball
    // under time-stepping at e = 0.6: each cell's end state against run's.
    let csv = tmp("bits.csv");
    let mut a = args("wedge.ron", &["tau=0.002", "duration=0.02"]);
    a.algorithm = Some("platt,right".into());
    a.measure = Some("state".into());
    a.csv = Some(csv.clone());
    sweep(&a, &mut Vec::new()).unwrap();
    let t = Table::read(&csv).unwrap();
    let mut r = run_args(scene("wedge.ron"));
    (r.tau, r.duration) = (Some(0.002), Some(0.02));
    r.algorithm = Some(super::AlgorithmArg::Platt);
    assert_eq!(t.rows[0].last().unwrap(), &run_state(&r), "Platt's cell");
    r.algorithm = Some(super::AlgorithmArg::Right);
    assert_eq!(t.rows[1].last().unwrap(), &run_state(&r), "Right's cell");
    assert_ne!(t.rows[0].last(), t.rows[1].last(), "the two methods differ, so the check can fail");

    let mut a = args("bouncing-ball.ron", &["restitution=0.6", "duration=0.5"]);
    a.scheme = Some("time-stepping".into());
    a.measure = Some("status,state".into());
    a.csv = Some(csv.clone());
    sweep(&a, &mut Vec::new()).unwrap();
    let t = Table::read(&csv).unwrap();
    let mut r = run_args(scene("bouncing-ball.ron"));
    (r.restitution, r.duration, r.scheme) = (Some(0.6), Some(0.5), Some(super::SchemeArg::TimeStepping));
    assert_eq!(t.rows[0][t.header.len() - 2], "Ok");
    assert_eq!(t.rows[0].last().unwrap(), &run_state(&r));
}

#[test]
fn the_csv_is_the_same_for_one_job_and_two_and_shards_merged_are_the_whole() {
    let whole = tmp("whole.csv");
    let two = tmp("two.csv");
    let mut a = args("wedge.ron", &["tau=1.1e-3..4e-3:4", "duration=0.01"]);
    a.algorithm = Some("all".into());
    a.measure = Some("status,violation,min_lambda,drift,events,state".into());
    a.csv = Some(whole.clone());
    sweep(&a, &mut Vec::new()).unwrap();
    a.jobs = Some(2);
    a.csv = Some(two.clone());
    sweep(&a, &mut Vec::new()).unwrap();
    let text = std::fs::read_to_string(&whole).unwrap();
    assert_eq!(text, std::fs::read_to_string(&two).unwrap(), "--jobs 1 and --jobs 2");
    assert_eq!(text.lines().count(), 1 + 4 * 4, "a header and 16 cells");

    // Three shards, merged out of order.
    let parts: Vec<PathBuf> = (1..=3).map(|i| tmp(&format!("part{i}.csv"))).collect();
    for (i, p) in parts.iter().enumerate() {
        a.shard = Some(format!("{}/3", i + 1));
        a.csv = Some(p.clone());
        sweep(&a, &mut Vec::new()).unwrap();
    }
    let merged = tmp("merged.csv");
    let m = SweepArgs {
        scene: None,
        merge: vec![parts[2].clone(), parts[0].clone(), parts[1].clone()],
        csv: Some(merged.clone()),
        shard: None,
        ..a.clone()
    };
    sweep(&m, &mut Vec::new()).unwrap();
    assert_eq!(std::fs::read_to_string(&merged).unwrap(), text, "the shards merged are the whole sweep");
}

#[test]
fn a_failing_cell_is_a_row_with_its_cause_and_the_others_run() {
    let csv = tmp("fail.csv");
    // A step of 1e-12 s over a second is 1e12 steps: that cell is refused, the other runs.
    let mut a = args("wedge.ron", &["dt=1e-3,1e-12", "duration=1"]);
    a.measure = Some("status,violation".into());
    a.csv = Some(csv.clone());
    let mut out = Vec::new();
    sweep(&a, &mut out).unwrap();
    let t = Table::read(&csv).unwrap();
    let status = t.header.iter().position(|h| h == "status").unwrap();
    assert_eq!(t.rows[0][status], "Ok");
    assert!(t.rows[1][status].starts_with("error:") && t.rows[1][status].contains("steps"), "{:?}", t.rows[1]);
    assert_eq!(t.rows[1][status + 1], "", "no measure for a cell that did not run");
    // A setting the scene does not have is refused before anything runs.
    let e = sweep(&args("wedge.ron", &["ghost.x=1"]), &mut Vec::new()).unwrap_err().to_string();
    assert!(e.contains("ghost.x"), "{e}");
}

#[test]
fn ranges_and_lists_parse_as_written() {
    let a = parse_set("tau=1e-3..1e-1:3:log").unwrap();
    let v: Vec<f64> = a.values.iter().map(|v| v.num().unwrap()).collect();
    assert!((v[1] - 1e-2).abs() < 1e-15 && v.len() == 3, "{v:?}");
    let a = parse_set("restitution=0..1:5").unwrap();
    assert_eq!(a.values.iter().map(|v| v.num().unwrap()).collect::<Vec<_>>(), [0.0, 0.25, 0.5, 0.75, 1.0]);
    assert_eq!(parse_set("impulses=simultaneous,sequential").unwrap().values.len(), 2);
    assert!(parse_set("tau=1..2").unwrap_err().contains("count"));
    assert!(parse_set("tau=-1..2:3:log").unwrap_err().contains("positive"));
}

#[test]
fn the_plot_draws_the_first_measure_against_the_first_setting() {
    let png = tmp("plot.png");
    let mut a = args("wedge.ron", &["tau=1.1e-3..4e-3:3", "duration=0.01"]);
    a.algorithm = Some("platt,right".into());
    a.measure = Some("violation".into());
    a.plot = Some(png.clone());
    let mut out = Vec::new();
    sweep(&a, &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains("violation against tau, 2 lines"), "{text}");
    let img = image::open(&png).unwrap();
    assert_eq!((img.width(), img.height()), (1100, 650));
}
