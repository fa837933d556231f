//! Why the lab is slower than real time, and what would help.
//!
//! When the budget drops steps ([`super::PhysicsBudget::behind`]), the status
//! bar names the cause from the last step's report and the core's wall time
//! for it: one step of `h` simulated seconds cost `c` seconds, so the run
//! goes at most at `h / c` of real time; the rows held in `E ∪ F⁺` (the size of
//! eq. (6) solved), the solves of the step, and its rewinds to a first
//! activation. Each [`Remedy`] it offers is one click:
//!
//! - **Exact instead of Right** where Right holds rows with `λ < 0`: the
//!   paper's Algorithm 3 only adds to `F⁺`, so a pile stays stuck on rows that
//!   pull, and each of its steps solves eq. (6) once per row added (at 300
//!   balls, about 4200 rewinds a second and 120 ms a step).
//! - **Sleep**, for a scene with many bodies where it is off: still islands
//!   leave the solve.
//! - **Fewer balls**, for a generated pile: the file again, with half its balls.
//! - **A larger step** under time-stepping, for many bodies: Moreau–Jean keeps
//!   every contact at its step's end whatever `h`, and a pile's step costs
//!   about the same at 4 ms as at 1 ms (300 balls from the drop, 3 s, the
//!   README's build: 2.53 ms a step at `h` = 1 ms, 2.56 at 2 ms, 3.63 at 4 ms;
//!   penetration 2.4e-12, 4.8e-12, 9.7e-12 m), so the run goes up to four
//!   times further a second. Offered only where the larger `h` raises no
//!   stability warning ([`World::stability_warnings`]).

use std::time::Duration;

use contact_core::{Algorithm, Scheme, StepReport, World};

/// One click that makes the run faster.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Remedy {
    /// Switch to Exact.
    Exact,
    /// Let still islands sleep.
    Sleep,
    /// Reload the scene's file with this many balls.
    Balls(usize),
    /// Moreau–Jean time-stepping: one velocity problem a step.
    TimeStepping,
    /// A step `h` of this many milliseconds (time-stepping).
    StepMs(u32),
}

/// The step a large pile under time-stepping is offered ([`Remedy::StepMs`]).
pub const LARGE_STEP_MS: u32 = 4;

impl Remedy {
    /// The button's text.
    pub fn label(self) -> String {
        match self {
            Remedy::Exact => "Use Exact".into(),
            Remedy::Sleep => "Let still bodies sleep".into(),
            Remedy::Balls(n) => format!("Reload with {n} balls"),
            Remedy::TimeStepping => "Use time-stepping".into(),
            Remedy::StepMs(ms) => format!("Use h = {ms} ms"),
        }
    }

    /// What it does, and why it helps (the button's tooltip).
    pub fn why(self) -> &'static str {
        match self {
            Remedy::Exact => {
                "Right (Algorithm 3) only adds rows: here it holds rows with λ < 0, solves eq. (6) once per row \
                 added and keeps bodies stuck; Exact pivots rows in and out and ends with λ ≥ 0"
            }
            Remedy::Sleep => "an island still for 0.5 s leaves the solve until something touches it",
            Remedy::Balls(_) => "the scene's file again, with half its balls: the solve grows faster than the count",
            Remedy::TimeStepping => {
                "Moreau–Jean: impacts captured in one velocity problem a step instead of a rewind and a solve of \
                 the touching island at each, so a landing pile's cost is bounded (Exact solves it)"
            }
            Remedy::StepMs(_) => {
                "time-stepping keeps every contact at its step's end whatever h, and a pile's step costs about the \
                 same with a larger h: the run goes further a second, its motion sampled more coarsely (the \
                 controls' \"step h\" slider sets it back)"
            }
        }
    }
}

/// The cause, in a sentence, and what would help.
#[derive(Clone, Debug, PartialEq)]
pub struct Slowness {
    pub cause: String,
    pub remedies: Vec<Remedy>,
    /// The pace the run keeps, measured (simulated over real seconds): the
    /// toolbar's figure, which the status bar repeats.
    pub pace: f64,
}

/// What the window measured of the run: the core's wall time a step (its
/// mean over the recent steps, and the last one's), the frames drawn a
/// second and the pace kept (simulated over real seconds).
#[derive(Clone, Copy, Debug)]
pub struct Measured {
    pub mean: Duration,
    pub last: Duration,
    pub frames: f64,
    pub pace: f64,
}

/// Bodies above which sleep and fewer balls are offered.
const MANY: usize = 40;

/// Bodies from which an event-driven run that is slow is offered
/// time-stepping, rewinds or not: the 30-ball pile at 0.2–0.4× real time
/// was offered nothing (issue 47, item 14).
const PILE: usize = 20;

/// Why the run is slow after a step of `report` on `world`, and the remedies
/// that apply (`pile`: the scene comes from a file that can be reloaded with
/// another count of balls). `speed` is the pace asked for. The bound the
/// physics sets is `h` over the steps' **mean** cost (a pile alternates cheap
/// steps and dear ones; the last step alone said "at most 0.09× real time"
/// beside a toolbar at 0.69×); when the physics alone would keep twice the
/// pace asked for, the drawing is what holds the run back, and it says so.
pub fn diagnose(world: &World, report: &StepReport, measured: &Measured, pile: bool, speed: f64) -> Slowness {
    let held = report.handled.iter().filter(|&&h| h).count();
    let rewinds = report.events.len();
    let cost = measured.mean;
    let ms = cost.as_secs_f64() * 1e3;
    let last = measured.last.as_secs_f64() * 1e3;
    let frames = measured.frames;
    let pace = measured.pace;
    let most = if cost.is_zero() { f64::INFINITY } else { report.h / cost.as_secs_f64() };
    if most > 2.0 * speed {
        // A step costs little: the window's frames are the limit (a software
        // renderer), and no remedy of the physics helps.
        let physics = if most.is_finite() { format!("{most:.0}×") } else { "any pace".to_string() };
        return Slowness {
            cause: format!(
                "the window draws {frames:.0} frames/s and each frame takes a bounded share of steps; the physics \
                 alone would run at {physics} real time (a step of {} ms costs {ms:.2} ms)",
                report.h * 1e3
            ),
            remedies: Vec::new(),
            pace,
        };
    }
    let algorithm = report.algorithm;
    let negative = report.min_lambda.is_some_and(|l| l < 0.0);
    // What the step solved: velocity problems (time-stepping) or eq. (6) between rewinds.
    let solved = match world.settings.scheme {
        Scheme::TimeStepping => format!("{} velocity problem(s), time-stepping under", report.solves),
        Scheme::EventDriven => format!("{} solves of eq. (6), {rewinds} rewinds,", report.solves),
    };
    let mut cause = format!(
        "a step of {} ms costs {ms:.1} ms on average, {last:.1} ms the last (at most {most:.2}× real time): {held} \
         rows held, {solved} {}",
        report.h * 1e3,
        algorithm.label()
    );
    if negative && algorithm != Algorithm::Exact {
        cause += " holding rows with λ < 0";
    }
    let mut remedies = Vec::new();
    // Many rewinds or many bodies: the events are the cost, not the solver.
    let dynamic = world.model.bodies.iter().filter(|b| b.is_dynamic()).count();
    if world.settings.scheme == Scheme::EventDriven && (rewinds > 1 || dynamic >= PILE) {
        remedies.push(Remedy::TimeStepping);
    }
    if algorithm != Algorithm::Exact && (negative || report.solves > 3) && world.settings.scheme == Scheme::EventDriven
    {
        remedies.push(Remedy::Exact);
    }
    // (Time-stepping steps every body: sleep is the event-driven scheme's.)
    if dynamic >= MANY && !world.settings.sleep.enabled && world.settings.scheme == Scheme::EventDriven {
        remedies.push(Remedy::Sleep);
    }
    let large = f64::from(LARGE_STEP_MS) * 1e-3;
    if world.settings.scheme == Scheme::TimeStepping
        && dynamic >= MANY
        && report.h < 0.99 * large
        && world.stability_warnings(world.settings.tau, large).is_empty()
    {
        remedies.push(Remedy::StepMs(LARGE_STEP_MS));
    }
    if pile && dynamic >= MANY {
        remedies.push(Remedy::Balls(dynamic / 2));
    }
    Slowness { cause, remedies, pace }
}

/// The scene of `path` with `balls` balls in its `ball_pile` ([`Remedy::Balls`]).
pub fn with_balls(path: &std::path::Path, balls: usize) -> Result<contact_core::scene::Scene, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let overrides = contact_core::scene::Overrides { balls: Some(balls), ..Default::default() };
    contact_core::scene::parse(&text, &path.display().to_string(), &overrides).map_err(|e| e.to_string())
}
