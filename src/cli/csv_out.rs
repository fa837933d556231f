//! The CSV files of `contact-lab run`: one row per step, one row per event.

use std::fs::File;
use std::path::{Path, PathBuf};

use contact_core::{Event, Model, StepReport, World};

use super::CliError;

fn output_error(path: &Path, e: impl ToString) -> CliError {
    CliError::Output { path: path.to_path_buf(), error: e.to_string() }
}

/// The header of the steps file: `t`, then `BODY.COORD`, `BODY.COORD.v`,
/// `BODY.COORD.a` per coordinate, then `NAME.g`, `NAME.lambda`, `NAME.handled`
/// per constraint, and `NAME.friction` (`λ_t`), `NAME.slip` (`v_t`) for those
/// with friction. With contacts by proximity (large scenes), the generated
/// rows come and go: only the scene's explicit constraints have columns.
/// With friction anywhere, a last column `friction_work`: the energy
/// friction took out in the step (J).
pub fn step_header(model: &Model) -> Vec<String> {
    let mut h = vec!["t".to_string()];
    for c in model.coord_labels() {
        h.extend([c.clone(), format!("{c}.v"), format!("{c}.a")]);
    }
    for c in &model.constraints[..fixed_rows(model)] {
        for s in ["g", "lambda", "handled"] {
            h.push(format!("{}.{s}", c.name));
        }
        if c.friction > 0.0 {
            h.extend([format!("{}.friction", c.name), format!("{}.slip", c.name)]);
        }
    }
    if model.has_friction() {
        h.push("friction_work".into());
    }
    h
}

/// The constraints whose index never changes: all of them, or the explicit
/// ones of a scene with contacts by proximity.
pub fn fixed_rows(model: &Model) -> usize {
    model.contacts.as_ref().map_or(model.constraints.len(), |g| g.explicit)
}

/// Writes one row per step.
pub struct StepsCsv {
    path: PathBuf,
    out: csv::Writer<File>,
}

impl StepsCsv {
    pub fn create(path: &Path, model: &Model) -> Result<Self, CliError> {
        let mut out = csv::Writer::from_path(path).map_err(|e| output_error(path, e))?;
        out.write_record(step_header(model)).map_err(|e| output_error(path, e))?;
        Ok(StepsCsv { path: path.to_path_buf(), out })
    }

    /// The row after a step: the state at its end, `q̈` and `λ` of its last solve.
    pub fn row(&mut self, world: &World, report: &StepReport) -> Result<(), CliError> {
        let s = &world.state;
        let mut fields = Vec::with_capacity(1 + 3 * s.q.len() + 3 * report.g.len());
        fields.push(report.t.to_string());
        for i in 0..s.q.len() {
            fields.push(s.q[i].to_string());
            fields.push(s.qd[i].to_string());
            fields.push(report.qdd.get(i).copied().unwrap_or(f64::NAN).to_string());
        }
        let model = &world.model;
        for k in 0..fixed_rows(model) {
            fields.push(report.g[k].to_string());
            fields.push(report.lambda[k].to_string());
            fields.push(if report.handled[k] { "1" } else { "0" }.to_string());
            let c = &model.constraints[k];
            if c.friction > 0.0 {
                let slip = contact_core::tangent::tangent_row(c, &model.bodies, &s.q, &s.qd).map_or(f64::NAN, |r| r.g);
                fields.push(report.friction.get(k).copied().unwrap_or(0.0).to_string());
                fields.push(slip.to_string());
            }
        }
        if model.has_friction() {
            fields.push(report.friction_work.to_string());
        }
        self.out.write_record(&fields).map_err(|e| output_error(&self.path, e))
    }

    pub fn finish(mut self) -> Result<(), CliError> {
        self.out.flush().map_err(|e| output_error(&self.path, e))
    }
}

/// Writes one row per event.
pub struct EventsCsv {
    path: PathBuf,
    out: csv::Writer<File>,
}

impl EventsCsv {
    pub const HEADER: [&str; 7] =
        ["t", "constraints", "approach_speeds", "impulses", "mode", "friction_impulses", "cause"];

    pub fn create(path: &Path) -> Result<Self, CliError> {
        let mut out = csv::Writer::from_path(path).map_err(|e| output_error(path, e))?;
        out.write_record(Self::HEADER).map_err(|e| output_error(path, e))?;
        Ok(EventsCsv { path: path.to_path_buf(), out })
    }

    /// `t, a;b, a=1.2;b=0.3, a=0.02;b=0.01, simultaneous, a=0.001, impact`,
    /// named after the rows of `model` in the step of the event; `cause` is
    /// `impact`, or `without collision` for Painlevé's impulse.
    pub fn row(&mut self, e: &Event, model: &Model) -> Result<(), CliError> {
        let name = |k: usize| model.constraints.get(k).map_or_else(|| format!("#{k}"), |c| c.name.clone());
        let list =
            |v: &[(usize, f64)]| v.iter().map(|(k, x)| format!("{}={x}", name(*k))).collect::<Vec<_>>().join(";");
        let constraints = e.constraints.iter().map(|&k| name(k)).collect::<Vec<_>>().join(";");
        let cause = if e.without_collision.is_empty() { "impact" } else { "without collision" };
        let record = [
            e.t.to_string(),
            constraints,
            list(&e.approach_speed),
            list(&e.impulse),
            e.mode.label().to_string(),
            list(&e.friction),
            cause.to_string(),
        ];
        self.out.write_record(&record).map_err(|err| output_error(&self.path, err))
    }

    pub fn finish(mut self) -> Result<(), CliError> {
        self.out.flush().map_err(|e| output_error(&self.path, e))
    }
}
