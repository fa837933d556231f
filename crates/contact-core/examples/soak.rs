//! Soak: long headless runs that look for leaks, slow-downs and divergence.
//!
//! ```text
//! cargo run --release -p contact-core --example soak -- [--hours H] [--balls N] [--scene FILE ...]
//! ```
//!
//! By default it runs `assets/scenes/billiard-corner.ron` and
//! `assets/scenes/ball-pile.ron` (30 balls, or `--balls N`) one after the other,
//! each for one hour of simulated time (`--hours`) at the scene's own `dt` and
//! algorithm, as fast as the core steps. `--scene` replaces the defaults with the
//! given files (`--balls` then applies to each of them, so each needs a
//! `ball_pile`). 3.6 million steps per scene: on the 2-core development machine
//! the default run took 22 minutes with builds running beside it (the billiard
//! 1.3, the pile 20; alone, the settled pile of 30 takes about 200 µs a step, 12
//! minutes).
//!
//! It prints a progress line every simulated 10 minutes (t, resident set, time
//! per step over those 10 minutes, events so far, largest violation so far) and,
//! per scene, the resident set (`VmRSS`, and the peak `VmHWM`, from
//! `/proc/self/status`, so Linux only) and the wall time per step over the first
//! and over the last 10 simulated seconds: the mean, and that of the fastest
//! simulated second of the window.
//!
//! It fails (exit status 1) when a step diverges or leaves a non-finite state,
//! when the resident set at the end exceeds the one after the first 10 s by more
//! than [`RSS_MARGIN_MIB`], or when the time per step of the fastest second of
//! the last 10 s is more than [`SLOWDOWN_LIMIT`] times that of the first 10 s (a
//! scene that settles gets cheaper, which passes). The fastest second, because
//! the mean over a window takes in whatever a neighbour does meanwhile on a small
//! machine (a burst of a build on the other core), while a step that really got
//! dearer is dearer in every second.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use contact_core::scene::{self, Overrides};
use contact_core::{StepStatus, World};

/// Simulated seconds of the first and of the last measured window.
const WINDOW_SECONDS: f64 = 10.0;
/// Simulated seconds of the slices whose fastest decides the slow-down check.
const SLICE_SECONDS: f64 = 1.0;
/// Simulated seconds between progress lines.
const PROGRESS_SECONDS: f64 = 600.0;
/// Growth of the resident set allowed between the first window and the end.
const RSS_MARGIN_MIB: f64 = 16.0;
/// Largest ratio of the fastest slices' time per step, last window over first.
const SLOWDOWN_LIMIT: f64 = 2.0;
/// The pile's size when `--balls` is not given.
const DEFAULT_BALLS: usize = 30;

/// What to run, from the command line.
struct Args {
    hours: f64,
    jobs: Vec<Job>,
}

/// One scene file and how to load it.
struct Job {
    path: PathBuf,
    overrides: Overrides,
}

/// Resident set and its peak, in MiB.
#[derive(Clone, Copy)]
struct Memory {
    rss: f64,
    hwm: f64,
}

/// Wall time per step over a window, in µs.
#[derive(Clone, Copy)]
struct PerStep {
    mean: f64,
    /// Over the fastest slice of the window.
    fastest: f64,
}

/// A stopwatch over a run of steps.
struct Lap {
    steps: u64,
    began: Instant,
}

/// A window of steps, timed whole and by slices.
struct Window {
    whole: Lap,
    slice: Lap,
    slice_steps: u64,
    fastest: f64,
}

/// The figures of one scene.
struct Outcome {
    name: String,
    steps: u64,
    t: f64,
    /// After the first window.
    start: (Memory, PerStep),
    /// At the end (the time per step over the last window).
    end: (Memory, PerStep),
    events: usize,
    max_violation: f64,
    wall_seconds: f64,
    /// Why the scene fails, if it does.
    failures: Vec<String>,
}

fn main() -> ExitCode {
    let args = match parse_args(std::env::args().skip(1)) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("soak: {e}\nusage: soak [--hours H] [--balls N] [--scene FILE ...]");
            return ExitCode::from(2);
        }
    };
    let mut outcomes = Vec::new();
    for job in &args.jobs {
        match scene::load(&job.path, &job.overrides) {
            Ok(s) => outcomes.push(soak(&s.name, s.world, s.dt, args.hours * 3600.0)),
            Err(e) => {
                eprintln!("soak: {e}");
                return ExitCode::from(2);
            }
        }
    }
    print_summary(&outcomes);
    verdict(&outcomes)
}

/// `--hours H`, `--balls N`, `--scene FILE ...` (every following argument up to the next option).
fn parse_args(mut args: impl Iterator<Item = String>) -> Result<Args, String> {
    let (mut hours, mut balls, mut files) = (1.0_f64, None, Vec::new());
    let mut pending = args.next();
    while let Some(arg) = pending.take() {
        match arg.as_str() {
            "--hours" => hours = number(&arg, args.next())?,
            "--balls" => balls = Some(number(&arg, args.next())?),
            "--scene" => {
                pending = args.next();
                while let Some(file) = pending.take_if(|a| !a.starts_with("--")) {
                    files.push(PathBuf::from(file));
                    pending = args.next();
                }
                continue;
            }
            _ => return Err(format!("unknown argument `{arg}`")),
        }
        pending = args.next();
    }
    if hours.is_nan() || hours * 3600.0 < 2.0 * WINDOW_SECONDS {
        return Err(format!("--hours {hours}: the run must cover at least {} s", 2.0 * WINDOW_SECONDS));
    }
    Ok(Args { hours, jobs: jobs(files, balls) })
}

/// The value after option `name`.
fn number<T: std::str::FromStr>(name: &str, value: Option<String>) -> Result<T, String> {
    let value = value.ok_or_else(|| format!("{name} needs a value"))?;
    value.parse().map_err(|_| format!("{name} {value}: not a valid number"))
}

/// The given files, or the billiard corner and the pile of the workspace.
fn jobs(files: Vec<PathBuf>, balls: Option<usize>) -> Vec<Job> {
    if !files.is_empty() {
        return files
            .into_iter()
            .map(|path| Job { path, overrides: Overrides { balls, ..Default::default() } })
            .collect();
    }
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/scenes");
    vec![
        Job { path: dir.join("billiard-corner.ron"), overrides: Overrides::default() },
        Job {
            path: dir.join("ball-pile.ron"),
            overrides: Overrides { balls: Some(balls.unwrap_or(DEFAULT_BALLS)), ..Default::default() },
        },
    ]
}

/// Steps `world` for `seconds` of simulated time by `dt`, measuring as it goes.
fn soak(name: &str, mut world: World, dt: f64, seconds: f64) -> Outcome {
    let steps_in = |s: f64| ((s / dt).round() as u64).max(1);
    let (total, window_steps) = (steps_in(seconds), steps_in(WINDOW_SECONDS));
    let (progress, slice) = (steps_in(PROGRESS_SECONDS), steps_in(SLICE_SECONDS));
    println!("{name}: {total} steps of {dt} s ({} algorithm)", world.settings.algorithm.cli_name());
    let began = Instant::now();
    let (mut window, mut progress_lap) = (Window::start(0, slice), Lap::start(0));
    let mut out = Outcome::new(name);
    for i in 1..=total {
        let report = world.step(dt);
        out.steps = i;
        out.t = world.state.t;
        out.events += report.events.len();
        out.max_violation = out.max_violation.max(report.max_violation);
        if let Some(failure) = failure(&world, &report.status) {
            out.failures.push(failure);
            break;
        }
        window.tick(i);
        if i == window_steps {
            let per_step = window.per_step(i);
            out.start = (memory(), per_step);
        }
        if i == total - window_steps {
            window = Window::start(i, slice);
        }
        if i % progress == 0 {
            print_progress(&out, progress_lap.per_step(i));
            progress_lap = Lap::start(i);
        }
    }
    if out.failures.is_empty() {
        let per_step = window.per_step(total);
        out.end = (memory(), per_step);
        out.failures = checks(&out.start, &out.end);
    }
    out.wall_seconds = began.elapsed().as_secs_f64();
    out
}

/// Why the run cannot go on after this step, if it cannot.
fn failure(world: &World, status: &StepStatus) -> Option<String> {
    let s = &world.state;
    match status {
        StepStatus::Diverged { cause, .. } => Some(format!("diverged at t = {:.3} s: {cause}", s.t)),
        StepStatus::Unsolved { cause } => Some(format!("unsolved at t = {:.3} s: {cause}", s.t)),
        StepStatus::Ok if !(s.t.is_finite() && s.q.iter().chain(&s.qd).all(|x| x.is_finite())) => {
            Some(format!("non-finite state after t = {:.3} s", s.t))
        }
        StepStatus::Ok => None,
    }
}

/// The memory and slow-down checks, start against end.
fn checks(start: &(Memory, PerStep), end: &(Memory, PerStep)) -> Vec<String> {
    let mut out = Vec::new();
    let growth = end.0.rss - start.0.rss;
    if growth > RSS_MARGIN_MIB {
        out.push(format!("resident set grew by {growth:.1} MiB (limit {RSS_MARGIN_MIB} MiB)"));
    }
    let ratio = end.1.fastest / start.1.fastest;
    if ratio > SLOWDOWN_LIMIT {
        out.push(format!("time per step of the fastest second grew {ratio:.2}× (limit {SLOWDOWN_LIMIT}×)"));
    }
    out
}

impl Outcome {
    fn new(name: &str) -> Self {
        let unknown = (Memory { rss: f64::NAN, hwm: f64::NAN }, PerStep { mean: f64::NAN, fastest: f64::NAN });
        Outcome {
            name: name.to_string(),
            steps: 0,
            t: 0.0,
            start: unknown,
            end: unknown,
            events: 0,
            max_violation: 0.0,
            wall_seconds: 0.0,
            failures: Vec::new(),
        }
    }
}

impl Lap {
    fn start(steps: u64) -> Self {
        Lap { steps, began: Instant::now() }
    }

    /// Mean wall time per step since the start, in µs, `steps` being the count now.
    fn per_step(&self, steps: u64) -> f64 {
        self.began.elapsed().as_secs_f64() * 1e6 / steps.saturating_sub(self.steps).max(1) as f64
    }
}

impl Window {
    fn start(steps: u64, slice_steps: u64) -> Self {
        Window { whole: Lap::start(steps), slice: Lap::start(steps), slice_steps, fastest: f64::INFINITY }
    }

    /// Called after every step, `steps` being the count now: closes a slice when one is full.
    fn tick(&mut self, steps: u64) {
        if steps - self.slice.steps == self.slice_steps {
            self.fastest = self.fastest.min(self.slice.per_step(steps));
            self.slice = Lap::start(steps);
        }
    }

    fn per_step(&self, steps: u64) -> PerStep {
        PerStep { mean: self.whole.per_step(steps), fastest: self.fastest }
    }
}

/// `VmRSS` and `VmHWM` of this process.
fn memory() -> Memory {
    let status = std::fs::read_to_string("/proc/self/status").expect("the soak reads /proc/self/status (Linux)");
    let mib = |key: &str| {
        let line =
            status.lines().find(|l| l.starts_with(key)).unwrap_or_else(|| panic!("no {key} in /proc/self/status"));
        let kib: f64 = line[key.len()..].trim().trim_end_matches("kB").trim().parse().expect("a size in kB");
        kib / 1024.0
    };
    Memory { rss: mib("VmRSS:"), hwm: mib("VmHWM:") }
}

fn print_progress(out: &Outcome, us_per_step: f64) {
    println!(
        "  t = {:>6.0} s  RSS {:>6.1} MiB  {:>7.1} µs/step  events {:>9}  max violation {:.3e} m",
        out.t,
        memory().rss,
        us_per_step,
        out.events,
        out.max_violation
    );
}

fn print_summary(outcomes: &[Outcome]) {
    println!();
    println!(
        "{:<16} {:>9} {:>8} {:>14} {:>9} {:>20} {:>20} {:>9} {:>10} {:>8}",
        "scene",
        "steps",
        "t (s)",
        "RSS MiB s→e",
        "HWM MiB",
        "µs/step mean s→e",
        "fastest 1 s s→e",
        "events",
        "max viol.",
        "wall (s)"
    );
    for o in outcomes {
        println!(
            "{:<16} {:>9} {:>8.1} {:>14} {:>9.1} {:>20} {:>20} {:>9} {:>10.2e} {:>8.0}",
            o.name,
            o.steps,
            o.t,
            format!("{:.1} → {:.1}", o.start.0.rss, o.end.0.rss),
            o.end.0.hwm,
            format!("{:.1} → {:.1}", o.start.1.mean, o.end.1.mean),
            format!("{:.1} → {:.1}", o.start.1.fastest, o.end.1.fastest),
            o.events,
            o.max_violation,
            o.wall_seconds
        );
    }
}

/// Prints the verdict; exit status 1 if any scene failed.
fn verdict(outcomes: &[Outcome]) -> ExitCode {
    let failures: Vec<String> =
        outcomes.iter().flat_map(|o| o.failures.iter().map(move |f| format!("{}: {f}", o.name))).collect();
    if failures.is_empty() {
        println!(
            "verdict: PASS (no divergence, finite states, RSS growth ≤ {RSS_MARGIN_MIB} MiB, \
             fastest second's time per step ≤ {SLOWDOWN_LIMIT}× the start's)"
        );
        ExitCode::SUCCESS
    } else {
        println!("verdict: FAIL\n  {}", failures.join("\n  "));
        ExitCode::FAILURE
    }
}
