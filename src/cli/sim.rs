//! Stepping a world for a fixed time and gathering the numbers both commands report.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use contact_core::{ConstraintKind, StepReport, StepStatus, World};
use indicatif::{ProgressBar, ProgressStyle};

use super::CliError;

/// The most steps a headless run takes (a day of wall time at 1 µs a step).
pub const MAX_STEPS: f64 = 1e8;

/// Number of steps of length `dt` that cover `duration` (at least one); an
/// error past [`MAX_STEPS`], before anything runs.
pub fn step_count(duration: f64, dt: f64) -> Result<u64, CliError> {
    let n = ((duration / dt) * (1.0 - 1e-12)).ceil().max(1.0);
    // Written so that a NaN (a zero or NaN step) is refused too.
    #[allow(clippy::neg_cmp_op_on_partial_ord)]
    if !(n <= MAX_STEPS) {
        return Err(CliError::TooManySteps { steps: n, duration, dt });
    }
    Ok(n as u64)
}

/// A value and where it happened.
#[derive(Clone, Debug, Default)]
pub struct Extreme {
    pub value: f64,
    pub t: f64,
    /// The name of the constraint it is about.
    pub constraint: Option<String>,
}

/// What a run measured.
#[derive(Clone, Debug)]
pub struct Stats {
    pub steps: u64,
    pub events: usize,
    /// Largest `max(0, −g)` over inequalities and `|g|` over equalities, at step ends.
    pub max_violation: Extreme,
    /// Largest `max(0, −g)` over inequalities only.
    pub max_penetration: Extreme,
    /// Smallest `λ` among handled inequalities (`None`: none was ever handled).
    pub min_lambda: Option<Extreme>,
    pub solves: u64,
    /// `kinetic + potential` at the start and at the end.
    pub energy_start: f64,
    pub energy_end: f64,
    /// Time spent in `World::step` only.
    pub wall: Duration,
}

impl Stats {
    pub fn solves_per_step(&self) -> f64 {
        self.solves as f64 / self.steps.max(1) as f64
    }

    pub fn time_per_step(&self) -> Duration {
        Duration::from_secs_f64(self.wall.as_secs_f64() / self.steps.max(1) as f64)
    }
}

fn energy(world: &World) -> f64 {
    world.model.kinetic_energy(&world.state) + world.model.potential_energy(&world.state)
}

/// A progress bar on stderr, hidden when stderr is not a terminal.
pub fn progress(len: u64, what: &str) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len);
    if let Ok(style) = ProgressStyle::with_template("{msg} [{bar:40}] {pos}/{len} steps, {eta} left") {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.set_message(what.to_string());
    bar
}

/// Steps `world` `steps` times by `dt`, calling `each` after every step.
pub fn simulate(
    world: &mut World,
    dt: f64,
    steps: u64,
    bar: &ProgressBar,
    mut each: impl FnMut(&World, &StepReport) -> Result<(), CliError>,
) -> Result<Stats, CliError> {
    let mut stats = Stats {
        steps: 0,
        events: 0,
        max_violation: Extreme::default(),
        max_penetration: Extreme::default(),
        min_lambda: None,
        solves: 0,
        energy_start: energy(world),
        energy_end: 0.0,
        wall: Duration::ZERO,
    };
    for _ in 0..steps {
        let clock = Instant::now();
        let report = world.step(dt);
        stats.wall += clock.elapsed();
        if let StepStatus::Diverged { constraint, cause } = &report.status {
            // What the step produced is written (the CSV row, its events), then the run stops.
            each(world, &report)?;
            return Err(CliError::Diverged {
                step: world.steps,
                t: report.t,
                constraint: constraint.map(|k| world.model.constraints[k].name.clone()),
                cause: cause.clone(),
            });
        }
        if let StepStatus::Unsolved { cause } = &report.status {
            each(world, &report)?;
            return Err(CliError::Unsolved { step: world.steps, t: report.t, cause: cause.clone() });
        }
        stats.steps += 1;
        stats.events += report.events.len();
        stats.solves += report.solves as u64;
        let constraints = &world.model.constraints;
        let name = |k: usize| Some(constraints[k].name.clone());
        for (k, g) in report.g.iter().enumerate() {
            let kind = constraints[k].kind;
            let violation = kind.violation(*g);
            let penetration = if kind == ConstraintKind::Inequality { violation } else { 0.0 };
            if violation > stats.max_violation.value {
                stats.max_violation = Extreme { value: violation, t: report.t, constraint: name(k) };
            }
            if penetration > stats.max_penetration.value {
                stats.max_penetration = Extreme { value: penetration, t: report.t, constraint: name(k) };
            }
        }
        for (k, &handled) in report.handled.iter().enumerate() {
            if handled && constraints[k].kind == ConstraintKind::Inequality {
                let l = report.lambda[k];
                if stats.min_lambda.as_ref().is_none_or(|m| l < m.value) {
                    stats.min_lambda = Some(Extreme { value: l, t: report.t, constraint: name(k) });
                }
            }
        }
        each(world, &report)?;
        bar.inc(1);
    }
    stats.energy_end = energy(world);
    Ok(stats)
}
