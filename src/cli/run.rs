//! `contact-lab run SCENE`: step a scene headless, write CSV, print a summary.

use std::io::Write;

use contact_core::Algorithm;

use super::csv_out::{EventsCsv, StepsCsv};
use super::sim::{Extreme, progress, simulate, step_count};
use super::{CliError, RunArgs, io_err, load};

/// The settings `run` takes from its flags, applied to a world the one way
/// both `run` and each cell of `sweep` do (so a cell is `run` bit for bit).
#[derive(Clone, Debug, Default)]
pub struct Setup {
    pub algorithm: Option<Algorithm>,
    pub scheme: Option<contact_core::Scheme>,
    pub tau: Option<f64>,
    pub restitution: Option<f64>,
    pub impulses: Option<contact_core::ImpulseMode>,
    pub sleep: bool,
    pub dt: Option<f64>,
    pub duration: Option<f64>,
}

impl Setup {
    /// `world` (the scene's) with these settings, and `(h, duration)`.
    pub fn apply(&self, world: &mut contact_core::World, scene: &contact_core::scene::Scene) -> (f64, f64) {
        if let Some(a) = self.algorithm {
            world.settings.algorithm = a;
        }
        if let Some(s) = self.scheme {
            world.settings.scheme = s;
        }
        if world.settings.scheme == contact_core::Scheme::TimeStepping {
            world.settings.algorithm = Algorithm::Exact;
        }
        if let Some(tau) = self.tau {
            world.settings.tau = tau;
        }
        if let Some(e) = self.restitution {
            world.settings.events.restitution = e;
        }
        if let Some(m) = self.impulses {
            world.settings.events.impulses = m;
        }
        if self.sleep {
            world.settings.sleep.enabled = true;
        }
        (self.dt.unwrap_or(scene.dt), self.duration.unwrap_or(scene.duration))
    }
}

impl From<&RunArgs> for Setup {
    fn from(a: &RunArgs) -> Setup {
        Setup {
            algorithm: a.algorithm.map(Algorithm::from),
            scheme: a.scheme.map(Into::into),
            tau: a.tau,
            restitution: a.restitution,
            impulses: a.impulses.map(Into::into),
            sleep: a.sleep,
            dt: a.dt,
            duration: a.duration,
        }
    }
}

/// A fingerprint of the state (every coordinate and velocity, bit for bit):
/// `run` prints it, `sweep` writes it per cell, so a cell can be checked
/// against `run`.
pub fn state_hash(world: &contact_core::World) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for x in world.state.q.iter().chain(&world.state.qd) {
        for b in x.to_bits().to_le_bytes() {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    format!("{h:016x}")
}

/// Runs `args.scene` and writes the summary to `out` (the CSV files to their paths).
pub fn run(args: &RunArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let scene = load(&args.scene, args.balls)?;
    let mut world = scene.world.clone();
    let (dt, duration) = Setup::from(args).apply(&mut world, &scene);
    if world.settings.sleep.enabled && world.settings.scheme == contact_core::Scheme::TimeStepping {
        writeln!(out, "warning: sleep is the event-driven scheme's: under time-stepping every body steps")
            .map_err(io_err)?;
    }
    let steps = step_count(duration, dt)?;
    for w in world.stability_warnings(world.settings.tau, dt) {
        writeln!(out, "warning: {w}").map_err(io_err)?;
    }

    let mut csv = args.csv.as_deref().map(|p| StepsCsv::create(p, &world.model)).transpose()?;
    let mut events = args.events.as_deref().map(EventsCsv::create).transpose()?;
    let bar = progress(steps, &scene.name);
    // Friction's books: the energy it took out between impacts, and
    // Painlevé's impacts without collision.
    let (mut friction_work, mut without_collision) = (0.0, 0);
    let result = simulate(&mut world, dt, steps, &bar, |w, report| {
        friction_work += report.friction_work;
        without_collision += report.events.iter().filter(|e| !e.without_collision.is_empty()).count();
        if let Some(csv) = csv.as_mut() {
            csv.row(w, report)?;
        }
        if let Some(ev) = events.as_mut() {
            for e in &report.events {
                ev.row(e, &w.model)?;
            }
        }
        Ok(())
    });
    bar.finish_and_clear();
    // Keep what was written even when the run stopped early.
    if let Some(csv) = csv {
        csv.finish()?;
    }
    if let Some(ev) = events {
        ev.finish()?;
    }
    let written = args.csv.is_some() || args.events.is_some();
    if written && matches!(result, Err(CliError::Diverged { .. } | CliError::Unsolved { .. })) {
        writeln!(out, "the CSV files hold the steps up to the one that stopped the run").map_err(io_err)?;
    }
    let stats = result?;

    let s = &world.settings;
    let model = &world.model;
    let mut w = |line: String| writeln!(out, "{line}").map_err(io_err);
    w(format!("{} ({})", scene.name, args.scene.display()))?;
    if s.scheme == contact_core::Scheme::TimeStepping {
        w(format!(
            "settings: {}, time-stepping (Moreau–Jean: one velocity problem a step, no rewinds), h = {dt} s, \
             restitution {}",
            s.algorithm.label(),
            s.events.restitution,
        ))?;
    } else {
        w(format!(
            "settings: {}, event-driven, h = {dt} s, tau = {} s, events {}, impulses {}, restitution {}",
            s.algorithm.label(),
            s.tau,
            if s.events.enabled { "on" } else { "off" },
            s.events.impulses.label(),
            s.events.restitution,
        ))?;
    }
    w(format!(
        "model: {} bodies, {} coordinates, {} constraints",
        model.bodies.len(),
        model.ndofs(),
        model.constraints.len()
    ))?;
    w(format!("steps: {} ({:.6} s simulated)", stats.steps, world.state.t))?;
    if s.sleep.enabled {
        w(format!("asleep at the end: {} of {} bodies", world.sleep.sleeping_bodies(), model.bodies.len()))?;
    }
    w(format!("events: {}", stats.events))?;
    w(format!("max violation: {}", describe(&stats.max_violation, "m")))?;
    w(format!(
        "min lambda among handled inequalities: {}",
        stats.min_lambda.as_ref().map_or("none handled".to_string(), |m| describe(m, ""))
    ))?;
    let drift = stats.energy_end - stats.energy_start;
    let relative = if stats.energy_start.abs() > 1e-12 {
        format!(" ({:+.3}%)", 100.0 * drift / stats.energy_start.abs())
    } else {
        String::new()
    };
    w(format!(
        "energy drift: {drift:+.6e} J{relative} (kinetic + potential: {:.6e} J at start, {:.6e} J at end)",
        stats.energy_start, stats.energy_end
    ))?;
    if model.has_friction() {
        w(format!(
            "friction: {friction_work:.6e} J taken out between impacts; {without_collision} impacts without \
             collision (Painlevé)"
        ))?;
    }
    w(format!("solves per step: {:.3}", stats.solves_per_step()))?;
    w(format!("state at the end: {} (every q and q̇, bit for bit; `sweep` writes the same)", state_hash(&world)))?;
    w(format!(
        "wall time per step: {:.2} µs ({:.3} s in total)",
        stats.time_per_step().as_secs_f64() * 1e6,
        stats.wall.as_secs_f64()
    ))?;
    if let Some(p) = &args.csv {
        w(format!("csv: {} ({} rows)", p.display(), stats.steps))?;
    }
    if let Some(p) = &args.events {
        w(format!("events file: {} ({} rows)", p.display(), stats.events))?;
    }
    Ok(())
}

/// `1.2e-9 m (`b1-b2` at t = 0.512 s)`.
fn describe(e: &Extreme, unit: &str) -> String {
    let unit = if unit.is_empty() { String::new() } else { format!(" {unit}") };
    match &e.constraint {
        Some(name) => format!("{:.3e}{unit} (`{name}` at t = {:.4} s)", e.value, e.t),
        None => format!("{:.3e}{unit}", e.value),
    }
}
