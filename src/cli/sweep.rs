//! `contact-lab sweep SCENE --set NAME=VALUES …`: the paper's questions over
//! a grid of settings. Every cell (one value of each swept setting, one
//! method) runs headless exactly as `contact-lab run` would with those
//! settings ([`super::run::Setup`], the same `simulate`): the same numbers
//! bit for bit, which its `state` column (the end state's fingerprint, the
//! one `run` prints) lets anyone check. Cells run on every core
//! (`--jobs`), each its own world; the rows are gathered in the cells'
//! order, so the CSV is the same whatever the number of jobs. `--shard I/N`
//! runs one slice of the cells (a Slurm job array, GNU parallel over ssh)
//! and `--merge` joins the slices' CSV files into the one table. A cell that
//! fails (a step `Unsolved` or `Diverged`, a scene that does not load with
//! that value) is a row with its status and cause, never the sweep's end.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use contact_core::scene::{self, Overrides, Scene};
use contact_core::{Algorithm, ImpulseMode, Scheme, World};
use indicatif::{ProgressBar, ProgressStyle};

use super::run::{Setup, state_hash};
use super::sim::{simulate, step_count};
pub use super::table::Table;
use super::table::readable;
use super::{CliError, SweepArgs, io_err};

pub const HELP: &str = "\
Settings (--set NAME=V1,V2,… | NAME=FROM..TO:N | NAME=FROM..TO:N:log):
  tau, dt, restitution, duration      the solver's τ (s), h (s), e, the simulated time (s)
  impulses                             simultaneous, sequential
  balls                                the count of a scene with a ball_pile
  mu                                   Coulomb's μ on every contact
  mu.pairs, mu.NAME                    μ between bodies, or on the wall NAME
  restitution.pairs, restitution.NAME  e between bodies (a scene's ball_pair_restitution), or of the wall NAME
  BODY.force.x, BODY.force.y           a body's constant force (N)
  BODY.COORD, BODY.COORD.v             a coordinate's start value or velocity (as `run --csv` names them)

Methods: --algorithm platt,platt-improved,right,exact|all and --scheme
event-driven,time-stepping|all; time-stepping solves with Exact, so it is one
method whatever the algorithms.

Measures (--measure, comma-separated; default status,violation,min_lambda,drift,events):
  status        Ok, or Unsolved / Diverged / error with its cause (and t)
  violation     largest violation at a step's end (m)
  penetration   largest penetration of an inequality (m)
  min_lambda    smallest λ among handled inequalities (N)
  drift         energy at the end minus at the start (J)
  drift_rel     the same over |energy at the start|
  energy        kinetic + potential energy at the end (J)
  events        rewinds to a first activation
  friction_work energy friction took out between impacts (J)
  without_collision  impacts without collision (Painlevé)
  solves        solves of eq. (6) a step
  wall          wall time a step (µs; varies run to run: not in a CSV meant to compare)
  state         the end state's fingerprint, as `run` prints it

Examples:
  contact-lab sweep assets/scenes/wedge.ron --set tau=1e-3..8e-3:15 --algorithm all \\
      --duration 0.02 --measure violation --plot tau.png --csv tau.csv
  contact-lab sweep assets/scenes/billiard-corner.ron --set restitution.pairs=0..1:11 \\
      --set impulses=simultaneous,sequential --set duration=0.5 --measure energy --plot e.png
  # Across machines: one slice each, then join them.
  contact-lab sweep SCENE --set … --shard 1/4 --csv part1.csv   # … 2/4, 3/4, 4/4
  contact-lab sweep --merge part*.csv --csv all.csv --plot all.png";

/// A swept value: a number, or a word (`impulses`).
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Num(f64),
    Word(String),
}

impl Value {
    pub fn num(&self) -> Option<f64> {
        match self {
            Value::Num(v) => Some(*v),
            Value::Word(_) => None,
        }
    }

    /// As written in the CSV and the table (a number to its last bit).
    pub fn text(&self) -> String {
        match self {
            Value::Num(v) => exact(*v),
            Value::Word(w) => w.clone(),
        }
    }
}

/// A number to its last bit, readable: plain from 1e-3 to 1e6, else
/// `1.5604184611106573e-19` (both read back to the same `f64`).
pub fn exact(v: f64) -> String {
    if v == 0.0 || (1e-3..1e6).contains(&v.abs()) { format!("{v}") } else { format!("{v:e}") }
}

/// One swept setting and its values.
#[derive(Clone, Debug)]
pub struct Axis {
    pub name: String,
    pub values: Vec<Value>,
}

/// `NAME=V1,V2` or `NAME=FROM..TO:N[:log]`.
pub fn parse_set(s: &str) -> Result<Axis, String> {
    let (name, spec) = s.split_once('=').ok_or_else(|| format!("--set {s}: expected NAME=VALUES"))?;
    let name = name.trim().to_string();
    let bad = |why: String| format!("--set {s}: {why}");
    let number = |t: &str| t.trim().parse::<f64>().map_err(|_| bad(format!("`{}` is not a number", t.trim())));
    let values = if let Some((from, rest)) = spec.split_once("..") {
        let mut parts = rest.split(':');
        let to = number(parts.next().unwrap_or(""))?;
        let n: usize = parts
            .next()
            .ok_or_else(|| bad("a range needs its count: FROM..TO:N".into()))?
            .trim()
            .parse()
            .map_err(|_| bad("the count N is not a whole number".into()))?;
        let log = match parts.next().map(str::trim) {
            None | Some("lin") => false,
            Some("log") => true,
            Some(o) => return Err(bad(format!("`{o}`: a range is linear, or `log`"))),
        };
        let from = number(from)?;
        if n < 1 {
            return Err(bad("the count N is at least 1".into()));
        }
        if log && (from <= 0.0 || to <= 0.0) {
            return Err(bad("a log range needs positive ends".into()));
        }
        (0..n)
            .map(|i| {
                let f = if n == 1 { 0.0 } else { i as f64 / (n - 1) as f64 };
                Value::Num(if log { from * (to / from).powf(f) } else { from + (to - from) * f })
            })
            .collect()
    } else {
        spec.split(',')
            .map(|t| match t.trim().parse::<f64>() {
                Ok(v) => Value::Num(v),
                Err(_) => Value::Word(t.trim().to_string()),
            })
            .collect::<Vec<_>>()
    };
    if values.is_empty() || name.is_empty() {
        return Err(bad("no values".into()));
    }
    Ok(Axis { name, values })
}

/// A method: an algorithm under a scheme (`None`: the scene's).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Method {
    pub algorithm: Option<Algorithm>,
    pub scheme: Option<Scheme>,
}

fn parse_list<T: Copy>(
    list: Option<&str>,
    all: &[T],
    parse: impl Fn(&str) -> Option<T>,
    what: &str,
) -> Result<Vec<Option<T>>, String> {
    match list.map(str::trim) {
        None => Ok(vec![None]),
        Some("all") => Ok(all.iter().map(|x| Some(*x)).collect()),
        Some(l) => l
            .split(',')
            .map(|w| parse(w.trim()).map(Some).ok_or_else(|| format!("--{what}: `{}` is not one", w.trim())))
            .collect(),
    }
}

/// The methods of `--algorithm` × `--scheme` (time-stepping once: it solves with Exact).
pub fn methods(algorithms: Option<&str>, schemes: Option<&str>) -> Result<Vec<Method>, String> {
    let algorithm = |w: &str| match w {
        "platt" => Some(Algorithm::Platt),
        "platt-improved" => Some(Algorithm::PlattImproved),
        "right" => Some(Algorithm::Right),
        "exact" => Some(Algorithm::Exact),
        _ => None,
    };
    let algorithms = parse_list(algorithms, &Algorithm::ALL, algorithm, "algorithm")?;
    let schemes = parse_list(schemes, &Scheme::ALL, Scheme::parse, "scheme")?;
    let mut out = Vec::new();
    for s in &schemes {
        for a in &algorithms {
            let m = if *s == Some(Scheme::TimeStepping) {
                Method { algorithm: Some(Algorithm::Exact), scheme: *s }
            } else {
                Method { algorithm: *a, scheme: *s }
            };
            if !out.contains(&m) {
                out.push(m);
            }
        }
    }
    Ok(out)
}

/// The measures a cell can report (see [`HELP`]).
pub const MEASURES: [&str; 13] = [
    "status",
    "violation",
    "penetration",
    "min_lambda",
    "drift",
    "drift_rel",
    "energy",
    "events",
    "friction_work",
    "without_collision",
    "solves",
    "wall",
    "state",
];
const DEFAULT_MEASURES: &str = "status,violation,min_lambda,drift,events";

/// One cell: a value per axis and a method.
#[derive(Clone, Debug)]
pub struct Cell {
    pub index: usize,
    pub values: Vec<Value>,
    pub method: Method,
}

/// The grid: every combination of the axes' values (the last fastest), each
/// under every method.
pub fn cells(axes: &[Axis], methods: &[Method]) -> Vec<Cell> {
    let mut combos: Vec<Vec<Value>> = vec![Vec::new()];
    for a in axes {
        combos = combos
            .into_iter()
            .flat_map(|c| a.values.iter().map(move |v| [c.clone(), vec![v.clone()]].concat()))
            .collect();
    }
    let mut out = Vec::new();
    for values in combos {
        for m in methods {
            out.push(Cell { index: out.len(), values: values.clone(), method: *m });
        }
    }
    out
}

/// What a cell reports, as text, one per measure.
pub type Row = Vec<String>;

/// The inequality rows `mu.TARGET` and `restitution.TARGET` name: a wall's
/// (its rows are `WALL:BODY`), or with `pairs` the contacts between bodies.
fn named_rows<'a>(
    model: &'a mut contact_core::Model,
    target: &'a str,
) -> impl Iterator<Item = &'a mut contact_core::Constraint> + 'a {
    model.constraints.iter_mut().filter(move |c| {
        let wall = c.name.split(':').next() == Some(target);
        let pair = target == "pairs" && matches!(c.geometry, contact_core::Geometry::Contact { .. });
        c.is_inequality() && (wall || pair)
    })
}

/// Applies one swept value to the scene's world or to the run's setup.
fn apply(name: &str, v: &Value, world: &mut World, setup: &mut Setup) -> Result<(), String> {
    let num = || v.num().ok_or_else(|| format!("{name} takes a number, not `{}`", v.text()));
    match name {
        "tau" => setup.tau = Some(num()?),
        "dt" => setup.dt = Some(num()?),
        "restitution" => setup.restitution = Some(num()?),
        "duration" => setup.duration = Some(num()?),
        "balls" => {} // read at load
        "impulses" => {
            setup.impulses = Some(match v.text().as_str() {
                "simultaneous" => ImpulseMode::Simultaneous,
                "sequential" => ImpulseMode::Sequential,
                o => return Err(format!("impulses is simultaneous or sequential, not `{o}`")),
            })
        }
        "mu" => {
            world.model.set_friction(num()?);
        }
        _ if name.starts_with("restitution.") => {
            let target = &name["restitution.".len()..];
            let e = num()?;
            let mut found = false;
            for c in named_rows(&mut world.model, target) {
                c.restitution = Some(e);
                found = true;
            }
            if !found {
                return Err(format!("{name}: the scene has no constraint `{target}` (or no pair contacts)"));
            }
        }
        _ if name.starts_with("mu.") => {
            let target = &name[3..];
            let mu = num()?;
            let mut found = false;
            if let Some(g) = world.model.contacts.as_mut() {
                if target == "pairs" {
                    g.pair_friction = mu;
                    found = true;
                }
                for w in g.walls.iter_mut().filter(|w| w.name == target) {
                    w.friction = mu;
                    found = true;
                }
            }
            for c in named_rows(&mut world.model, target) {
                c.friction = mu;
                found = true;
            }
            if !found {
                return Err(format!("{name}: the scene has no wall named `{target}`"));
            }
        }
        _ => {
            let x = num()?;
            let labels = world.model.coord_labels();
            if let Some((body, axis)) =
                name.strip_suffix(".x").map(|b| (b, 0)).or(name.strip_suffix(".y").map(|b| (b, 1)))
                && let Some(body) = body.strip_suffix(".force")
            {
                let b = world
                    .model
                    .bodies
                    .iter_mut()
                    .find(|b| b.name == body)
                    .ok_or_else(|| format!("{name}: no body `{body}`"))?;
                b.force[axis] = x;
            } else if let Some(i) = labels.iter().position(|l| l == name) {
                world.state.q[i] = x;
            } else if let Some(i) = name.strip_suffix(".v").and_then(|c| labels.iter().position(|l| l == c)) {
                world.state.qd[i] = x;
            } else {
                return Err(format!("`{name}` is not a setting of this scene (contact-lab sweep --help lists them)"));
            }
        }
    }
    Ok(())
}

/// Runs one cell and reports `measures`.
fn run_cell(path: &Path, axes: &[Axis], cell: &Cell, measures: &[String]) -> Row {
    let failed = |status: String| -> Row {
        measures.iter().map(|m| if m == "status" { status.clone() } else { String::new() }).collect()
    };
    let balls =
        axes.iter().zip(&cell.values).find(|(a, _)| a.name == "balls").and_then(|(_, v)| v.num()).map(|n| n as usize);
    let scene: Scene = match scene::load(path, &Overrides { balls, ..Default::default() }) {
        Ok(s) => s,
        Err(e) => return failed(format!("error: {e}")),
    };
    let mut world = scene.world.clone();
    let mut setup = Setup { algorithm: cell.method.algorithm, scheme: cell.method.scheme, ..Setup::default() };
    for (a, v) in axes.iter().zip(&cell.values) {
        if let Err(e) = apply(&a.name, v, &mut world, &mut setup) {
            return failed(format!("error: {e}"));
        }
    }
    let (dt, duration) = setup.apply(&mut world, &scene);
    let steps = match step_count(duration, dt) {
        Ok(n) => n,
        Err(e) => return failed(format!("error: {e}")),
    };
    let (mut friction_work, mut without_collision) = (0.0, 0usize);
    let result = simulate(&mut world, dt, steps, &ProgressBar::hidden(), |_, report| {
        friction_work += report.friction_work;
        without_collision += report.events.iter().filter(|e| !e.without_collision.is_empty()).count();
        Ok(())
    });
    let stats = match result {
        Ok(s) => s,
        Err(CliError::Unsolved { t, cause, .. }) => return failed(format!("Unsolved at t = {t} s: {cause}")),
        Err(CliError::Diverged { t, cause, .. }) => return failed(format!("Diverged at t = {t} s: {cause}")),
        Err(e) => return failed(format!("error: {e}")),
    };
    let drift = stats.energy_end - stats.energy_start;
    measures
        .iter()
        .map(|m| match m.as_str() {
            "status" => "Ok".to_string(),
            "violation" => exact(stats.max_violation.value),
            "penetration" => exact(stats.max_penetration.value),
            "min_lambda" => stats.min_lambda.as_ref().map_or(String::new(), |l| exact(l.value)),
            "drift" => exact(drift),
            "drift_rel" => exact(drift / stats.energy_start.abs().max(f64::MIN_POSITIVE)),
            "energy" => exact(stats.energy_end),
            "events" => stats.events.to_string(),
            "friction_work" => exact(friction_work),
            "without_collision" => without_collision.to_string(),
            "solves" => exact(stats.solves_per_step()),
            "wall" => format!("{:.3}", stats.time_per_step().as_secs_f64() * 1e6),
            "state" => state_hash(&world),
            _ => String::new(),
        })
        .collect()
}

/// `I/N` → `(I − 1, N)`.
fn parse_shard(s: &str) -> Result<(usize, usize), String> {
    let bad = || format!("--shard {s}: expected I/N with 1 ≤ I ≤ N");
    let (i, n) = s.split_once('/').ok_or_else(bad)?;
    let (i, n): (usize, usize) = (i.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
    if i == 0 || i > n {
        return Err(bad());
    }
    Ok((i - 1, n))
}

/// The label of a method in the table and the plot.
pub fn method_label(m: &Method) -> (String, String) {
    (
        m.algorithm.map_or("scene's".into(), |a| a.label().to_string()),
        m.scheme.map_or("scene's".into(), |s| s.label().to_string()),
    )
}

/// Runs the sweep (or joins shards) and writes the table to `out`.
pub fn sweep(args: &SweepArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let fail = CliError::Sweep;
    let table = if !args.merge.is_empty() {
        merge(&args.merge)?
    } else {
        let path = args.scene.clone().ok_or_else(|| fail("a scene file, or --merge".into()))?;
        let axes: Vec<Axis> = args.set.iter().map(|s| parse_set(s)).collect::<Result<_, _>>().map_err(fail)?;
        let methods = methods(args.algorithm.as_deref(), args.scheme.as_deref()).map_err(fail)?;
        let measures: Vec<String> =
            args.measure.as_deref().unwrap_or(DEFAULT_MEASURES).split(',').map(|m| m.trim().to_string()).collect();
        if let Some(m) = measures.iter().find(|m| !MEASURES.contains(&m.as_str())) {
            return Err(fail(format!("--measure: `{m}` is not one of {}", MEASURES.join(", "))));
        }
        // Every setting checked on the scene before anything runs.
        let scene = scene::load(&path, &Overrides::default())?;
        for a in &axes {
            let mut world = scene.world.clone();
            let mut setup = Setup::default();
            apply(&a.name, &a.values[0], &mut world, &mut setup).map_err(fail)?;
        }
        let (shard, shards) = args.shard.as_deref().map(parse_shard).transpose().map_err(fail)?.unwrap_or((0, 1));
        let all = cells(&axes, &methods);
        let mine: Vec<Cell> = all.into_iter().filter(|c| c.index % shards == shard).collect();
        let jobs = args.jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())).max(1);
        let rows = run_cells(&path, &axes, &mine, &measures, jobs);
        let mut header = vec!["cell".to_string()];
        header.extend(axes.iter().map(|a| a.name.clone()));
        header.extend(["algorithm".to_string(), "scheme".to_string()]);
        header.extend(measures.iter().cloned());
        let rows = mine
            .iter()
            .zip(rows)
            .map(|(c, r)| {
                let (a, s) = method_label(&c.method);
                let mut row = vec![c.index.to_string()];
                row.extend(c.values.iter().map(Value::text));
                row.extend([a, s]);
                row.extend(r);
                row
            })
            .collect();
        Table { header, rows }
    };
    print_table(&table, out)?;
    if let Some(p) = &args.csv {
        std::fs::write(p, table.csv()).map_err(|e| CliError::Output { path: p.clone(), error: e.to_string() })?;
        writeln!(out, "csv: {} ({} rows)", p.display(), table.rows.len()).map_err(io_err)?;
    }
    if let Some(p) = &args.plot {
        let said = super::sweep_plot::plot(&table, p)?;
        writeln!(out, "plot: {} ({said})", p.display()).map_err(io_err)?;
    }
    Ok(())
}

/// Runs `cells` on `jobs` threads; the rows in the cells' order.
fn run_cells(path: &Path, axes: &[Axis], cells: &[Cell], measures: &[String], jobs: usize) -> Vec<Row> {
    let bar = super::sim::progress(0, "");
    bar.set_length(cells.len() as u64);
    if let Ok(style) = ProgressStyle::with_template("sweep [{bar:40}] {pos}/{len} cells, {eta} left") {
        bar.set_style(style.progress_chars("=> "));
    }
    let next = AtomicUsize::new(0);
    let rows: Mutex<Vec<Option<Row>>> = Mutex::new(vec![None; cells.len()]);
    std::thread::scope(|scope| {
        for _ in 0..jobs.min(cells.len()).max(1) {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(cell) = cells.get(i) else { break };
                    let row = run_cell(path, axes, cell, measures);
                    if let Ok(mut r) = rows.lock() {
                        r[i] = Some(row);
                    }
                    bar.inc(1);
                }
            });
        }
    });
    bar.finish_and_clear();
    let rows = rows.into_inner().unwrap_or_default();
    rows.into_iter().map(|r| r.unwrap_or_else(|| measures.iter().map(|_| String::new()).collect())).collect()
}

/// The shards' rows in one table, in the cells' order.
fn merge(files: &[PathBuf]) -> Result<Table, CliError> {
    let mut header: Option<Vec<String>> = None;
    let mut rows: Vec<Vec<String>> = Vec::new();
    for f in files {
        let t = Table::read(f)?;
        match &header {
            Some(h) if *h != t.header => {
                return Err(CliError::Output {
                    path: f.clone(),
                    error: "its columns differ from the first file's".into(),
                });
            }
            _ => header = Some(t.header.clone()),
        }
        rows.extend(t.rows);
    }
    let cell = |r: &Vec<String>| r.first().and_then(|c| c.parse::<usize>().ok()).unwrap_or(usize::MAX);
    rows.sort_by_key(cell);
    rows.dedup_by(|a, b| cell(a) == cell(b));
    Ok(Table { header: header.unwrap_or_default(), rows })
}

/// The table on stdout, columns aligned, numbers short.
fn print_table(t: &Table, out: &mut dyn Write) -> Result<(), CliError> {
    let shown: Vec<Vec<String>> = std::iter::once(t.header.clone())
        .chain(t.rows.iter().map(|r| {
            r.iter()
                .map(|f| match f.parse::<f64>() {
                    Ok(v) if f.contains(['.', 'e']) => readable(v),
                    _ if f.chars().count() > 60 => format!("{}…", f.chars().take(59).collect::<String>()),
                    _ => f.clone(),
                })
                .collect()
        }))
        .collect();
    let n = t.header.len();
    let widths: Vec<usize> =
        (0..n).map(|i| shown.iter().map(|r| r.get(i).map_or(0, |f| f.chars().count())).max().unwrap_or(0)).collect();
    for r in &shown {
        let line: Vec<String> =
            (0..n).map(|i| format!("{:<w$}", r.get(i).map_or("", |s| s.as_str()), w = widths[i])).collect();
        writeln!(out, "{}", line.join("  ").trim_end()).map_err(io_err)?;
    }
    Ok(())
}
