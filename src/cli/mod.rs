//! The command line: `contact-lab [SCENE]` opens the app, `run`, `compare` and `figure` are headless.
//!
//! `run`, `compare` and `figure` are plain functions that write their report to a
//! `&mut dyn Write`, so tests call them without spawning a process.

mod compare;
mod csv_out;
mod figure;
mod run;
mod sim;
mod sweep;
mod sweep_plot;
#[cfg(test)]
mod sweep_tests;
mod table;
#[cfg(test)]
mod tests;

use std::fmt;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};
use contact_core::scene::{self, Overrides, Scene, SceneError};
use contact_core::{Algorithm, ImpulseMode};

pub use compare::compare;
pub use figure::figure;
pub use run::run;
pub use sweep::sweep;

/// A real-time laboratory for contact handled with Lagrange multipliers
/// (Jonquet, Nocent & Remion, GRAPP 2007).
///
/// Without a subcommand, opens the desktop lab on SCENE (default
/// assets/scenes/wedge.ron). `run` and `compare` work headless on the same scene files.
#[derive(Parser, Debug)]
#[command(name = "contact-lab", version, about, long_about, args_conflicts_with_subcommands = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    #[command(flatten)]
    pub app: crate::app::AppOptions,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Run a scene headless: a summary on stdout, optionally every step to CSV.
    Run(RunArgs),
    /// Run a scene under every method (each algorithm, and time-stepping) from the same start and compare them in a table.
    Compare(CompareArgs),
    /// Draw the paper's figure 2 or 3 (y and ÿ of the wedge, Platt against Right) to PNG or SVG.
    Figure(FigureArgs),
    /// Run a scene over a grid of settings (each cell exactly as `run`), on every core: a table, CSV and a plot.
    Sweep(SweepArgs),
}

/// `contact-lab sweep`.
#[derive(Args, Debug, Clone)]
#[command(after_long_help = sweep::HELP)]
pub struct SweepArgs {
    /// The scene file (RON). Not with --merge.
    #[arg(required_unless_present = "merge")]
    pub scene: Option<PathBuf>,
    /// A swept setting: NAME=V1,V2,… or NAME=FROM..TO:N (N values, linear) or
    /// NAME=FROM..TO:N:log; repeat for a grid (names below).
    #[arg(long = "set", value_name = "NAME=VALUES")]
    pub set: Vec<String>,
    /// Algorithms, comma-separated (platt, platt-improved, right, exact) or `all` (default: the scene's).
    #[arg(long, value_name = "LIST")]
    pub algorithm: Option<String>,
    /// Schemes, comma-separated (event-driven, time-stepping) or `all` (default: the scene's).
    #[arg(long, value_name = "LIST")]
    pub scheme: Option<String>,
    /// What each cell reports, comma-separated (names below; default: status,violation,min_lambda,drift,events).
    #[arg(long, value_name = "LIST")]
    pub measure: Option<String>,
    /// Write one row per cell to FILE (a column per swept setting and per measure).
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// Draw the first measure against the first swept setting, a line per method, to FILE.png or FILE.svg.
    #[arg(long, value_name = "FILE")]
    pub plot: Option<PathBuf>,
    /// Cells run at once (default: every core).
    #[arg(long, value_name = "N")]
    pub jobs: Option<usize>,
    /// Run the I-th of N slices of the cells (1-based), for a batch scheduler; --merge joins them.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<String>,
    /// Join the CSV files of shards into one table (and --csv, --plot).
    #[arg(long, value_name = "FILE", num_args = 1..)]
    pub merge: Vec<PathBuf>,
}

/// `contact-lab run`.
#[derive(Args, Debug, Clone)]
#[command(after_long_help = RUN_HELP)]
pub struct RunArgs {
    /// The scene file (RON), e.g. assets/scenes/wedge.ron.
    pub scene: PathBuf,
    /// The algorithm that chooses the handled constraints (default: the scene's).
    #[arg(long, value_enum)]
    pub algorithm: Option<AlgorithmArg>,
    /// How contact is stepped (default: the scene's): event-driven (the paper's
    /// rewinds) or time-stepping (Moreau–Jean, one velocity problem a step;
    /// the algorithm is then Exact).
    #[arg(long, value_enum)]
    pub scheme: Option<SchemeArg>,
    /// Simulated time in seconds (default: the scene's `duration`).
    #[arg(long, value_name = "S", value_parser = positive, allow_negative_numbers = true)]
    pub duration: Option<f64>,
    /// Time step h in seconds (default: the scene's `solver.dt`).
    #[arg(long, value_name = "H", value_parser = positive, allow_negative_numbers = true)]
    pub dt: Option<f64>,
    /// Baumgarte's time constant τ of eq. (5), in seconds (default: the scene's).
    #[arg(long, value_name = "T", value_parser = positive, allow_negative_numbers = true)]
    pub tau: Option<f64>,
    /// Restitution coefficient e of impacts, in [0, 1] (constraints with their own keep it).
    #[arg(long, value_name = "E", value_parser = unit_interval, allow_negative_numbers = true)]
    pub restitution: Option<f64>,
    /// How the impulses of simultaneous contacts are computed (default: the scene's).
    #[arg(long, value_enum)]
    pub impulses: Option<ImpulsesArg>,
    /// Number of balls of a scene with a `ball_pile` (ball-pile.ron).
    #[arg(long, value_name = "N")]
    pub balls: Option<usize>,
    /// Let islands still for 0.5 s sleep (skipped by the solver until touched; see the scene format's `solver.sleep`).
    #[arg(long)]
    pub sleep: bool,
    /// Write one row per step to FILE (columns: see below).
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// Write one row per event (rewind to a first activation and its impact) to FILE.
    #[arg(long, value_name = "FILE")]
    pub events: Option<PathBuf>,
}

const RUN_HELP: &str = "\
CSV (--csv): one row per step, after the step. Columns: `t`; for every generalized
coordinate `BODY.COORD` (its value), `BODY.COORD.v` (velocity) and `BODY.COORD.a` (the
acceleration of the step's last solve of eq. 6); for every constraint `NAME.g` (value,
>= 0 allowed for inequalities), `NAME.lambda` (multiplier of the last solve, 0 when not
handled) and `NAME.handled` (1 when in E or F+ for that solve, else 0); for a contact
with friction also `NAME.friction` (its tangential force λ_t) and `NAME.slip` (v_t); with
friction anywhere, a last column `friction_work` (J friction took out in the step).

Events (--events): one row per event: `t`, `constraints` that activated, `approach_speeds`
and `impulses` as NAME=VALUE lists separated by `;`, the impulse `mode`, the
`friction_impulses` (P_t) and the `cause`: `impact`, or `without collision` for the
impulse Painlevé's paradox calls for (a contact sliding with no consistent force).

Summary (stdout): steps, events, max violation, min λ among handled inequalities,
energy drift (kinetic + potential of gravity and constant forces; damping and
restitution below 1 dissipate), with friction the energy it took out between impacts and
the impacts without collision (Painlevé), solves of eq. (6) and wall time per step.";

/// `contact-lab compare`.
#[derive(Args, Debug, Clone)]
pub struct CompareArgs {
    /// The scene file (RON).
    pub scene: PathBuf,
    /// Simulated time in seconds (default: the scene's `duration`).
    #[arg(long, value_name = "S", value_parser = positive, allow_negative_numbers = true)]
    pub duration: Option<f64>,
    /// Number of balls of a scene with a `ball_pile` (ball-pile.ron).
    #[arg(long, value_name = "N")]
    pub balls: Option<usize>,
}

/// `contact-lab figure`.
#[derive(Args, Debug, Clone)]
pub struct FigureArgs {
    /// Which figure: 2 (m = 2) or 3 (m = 3, with Platt at m = 2 for reference).
    #[arg(value_enum)]
    pub figure: PaperFigure,
    /// The image, FILE.png or FILE.svg (default: paper-fig2.png, paper-fig3.png).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Baumgarte's τ of eq. (5), in seconds; the default, close to h, gives figure 2's look.
    #[arg(long, value_name = "T", value_parser = positive, allow_negative_numbers = true, default_value_t = figure::TAU)]
    pub tau: f64,
    /// Time step h in seconds.
    #[arg(long, value_name = "H", value_parser = positive, allow_negative_numbers = true, default_value_t = figure::DT)]
    pub dt: f64,
    /// Image size in pixels.
    #[arg(long, value_name = "WxH", value_parser = image_size, default_value = "1200x600")]
    pub size: (u32, u32),
}

/// The paper's figures that `figure` draws.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum PaperFigure {
    /// Figure 2: m = 2.
    PaperFig2,
    /// Figure 3: m = 3.
    PaperFig3,
}

/// The schemes by their command-line names.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum SchemeArg {
    /// The paper's: rewind to every first activation, Moreau's impact there.
    EventDriven,
    /// Moreau–Jean: one velocity-level problem a step, solved exactly.
    TimeStepping,
}

impl From<SchemeArg> for contact_core::Scheme {
    fn from(a: SchemeArg) -> Self {
        match a {
            SchemeArg::EventDriven => contact_core::Scheme::EventDriven,
            SchemeArg::TimeStepping => contact_core::Scheme::TimeStepping,
        }
    }
}

/// The algorithms by their command-line names.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum AlgorithmArg {
    /// Platt 1992 (Algorithm 1): F+ kept across steps, drop λ ≤ 0, add g < 0.
    Platt,
    /// Algorithm 2: as Platt, but add on a violation tendency J q̈ < d.
    PlattImproved,
    /// Algorithm 3, the paper's: F+ emptied each step, grown until nothing tends to violate.
    Right,
    /// The exact complementarity solution (principal pivoting), the reference.
    Exact,
}

impl From<AlgorithmArg> for Algorithm {
    fn from(a: AlgorithmArg) -> Self {
        match a {
            AlgorithmArg::Platt => Algorithm::Platt,
            AlgorithmArg::PlattImproved => Algorithm::PlattImproved,
            AlgorithmArg::Right => Algorithm::Right,
            AlgorithmArg::Exact => Algorithm::Exact,
        }
    }
}

/// The impulse modes by their command-line names.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImpulsesArg {
    /// Moreau's impact law on the contacts hit at the impact, one restitution per island
    Simultaneous,
    /// Impulses propagated contact by contact until none approaches (Newton's cradle).
    Sequential,
}

impl From<ImpulsesArg> for ImpulseMode {
    fn from(a: ImpulsesArg) -> Self {
        match a {
            ImpulsesArg::Simultaneous => ImpulseMode::Simultaneous,
            ImpulsesArg::Sequential => ImpulseMode::Sequential,
        }
    }
}

fn positive(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 => Ok(v),
        Ok(v) => Err(format!("must be a positive number, got {v}")),
        Err(e) => Err(format!("not a number: {e}")),
    }
}

/// `1200x600` → (1200, 600), each side in [100, 10000].
fn image_size(s: &str) -> Result<(u32, u32), String> {
    let side = |v: &str| match v.trim().parse::<u32>() {
        Ok(n) if (100..=10_000).contains(&n) => Ok(n),
        _ => Err(format!("expected WIDTHxHEIGHT in pixels, each in [100, 10000], got {s:?}")),
    };
    let (w, h) = s.split_once(['x', 'X', '×']).ok_or_else(|| format!("expected WIDTHxHEIGHT, got {s:?}"))?;
    Ok((side(w)?, side(h)?))
}

fn unit_interval(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if (0.0..=1.0).contains(&v) => Ok(v),
        Ok(v) => Err(format!("must be in [0, 1], got {v}")),
        Err(e) => Err(format!("not a number: {e}")),
    }
}

/// Why a headless command failed.
#[derive(Debug)]
pub enum CliError {
    /// The scene file is missing or wrong (names file, line, column, field).
    Scene(SceneError),
    /// An output file could not be written.
    Output { path: PathBuf, error: String },
    /// A step diverged ([`contact_core::StepStatus::Diverged`]).
    Diverged { step: u64, t: f64, constraint: Option<String>, cause: String },
    /// A solve of a step stopped short ([`contact_core::StepStatus::Unsolved`]).
    Unsolved { step: u64, t: f64, cause: String },
    /// `duration / h` is past [`sim::MAX_STEPS`].
    TooManySteps { steps: f64, duration: f64, dt: f64 },
    /// A sweep's flags name what the scene does not have, or are malformed.
    Sweep(String),
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Scene(e) => write!(f, "{e}"),
            CliError::Output { path, error } => write!(f, "{}: cannot write: {error}", path.display()),
            CliError::Diverged { step, t, constraint, cause } => {
                write!(f, "the simulation diverged at step {step} (t = {t} s")?;
                if let Some(c) = constraint {
                    write!(f, ", worst constraint {c}")?;
                }
                write!(f, "): {cause}")
            }
            CliError::Unsolved { step, t, cause } => write!(f, "the run stopped at step {step} (t = {t} s): {cause}"),
            CliError::Sweep(why) => write!(f, "sweep: {why}"),
            CliError::TooManySteps { steps, duration, dt } => write!(
                f,
                "{} s at h = {} s is {} steps, more than the {} a headless run takes: \
                 shorten --duration or raise --dt",
                short(*duration),
                short(*dt),
                short(*steps),
                short(sim::MAX_STEPS)
            ),
        }
    }
}

impl std::error::Error for CliError {}

impl From<SceneError> for CliError {
    fn from(e: SceneError) -> Self {
        CliError::Scene(e)
    }
}

/// Loads a scene for a headless command.
fn load(path: &std::path::Path, balls: Option<usize>) -> Result<Scene, CliError> {
    Ok(scene::load(path, &Overrides { balls, ..Default::default() })?)
}

/// Runs a headless command; errors go to stderr with a non-zero exit code.
pub fn execute(cmd: Command) -> ExitCode {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let result = match &cmd {
        Command::Run(args) => run(args, &mut out),
        Command::Compare(args) => compare(args, &mut out),
        Command::Figure(args) => figure(args, &mut out),
        Command::Sweep(args) => sweep(args, &mut out),
    };
    let _ = out.flush();
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("contact-lab: error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// A write to the report stream; a closed stdout is not worth a panic.
/// `5`, `0.001`, `1e21`, `1e-12`: plain in [1e-3, 1e6), else scientific with
/// at most 4 significant digits.
fn short(v: f64) -> String {
    if v == 0.0 || (1e-3..1e6).contains(&v.abs()) {
        return format!("{v}");
    }
    let s = format!("{v:.3e}");
    match s.split_once('e') {
        Some((m, e)) => format!("{}e{e}", m.trim_end_matches('0').trim_end_matches('.')),
        None => s,
    }
}

fn io_err(e: std::io::Error) -> CliError {
    CliError::Output { path: PathBuf::from("<stdout>"), error: e.to_string() }
}
