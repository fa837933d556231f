//! The recorded series the plots borrow: one sample per step (or every
//! `stride`-th step once the buffer is full: it then keeps every other sample and
//! doubles the stride, so it always spans the whole run in bounded memory).
//!
//! Series names are those of the scene files' plots, resolved by
//! [`crate::app::lab::series`]. A timeline restore ([`Restored`]) drops the
//! samples after the restored instant at the next record.

use std::collections::HashMap;
use std::io::Write;
use std::path::Path;

use bevy::prelude::*;
use contact_core::{StepReport, World};
use egui_plot::PlotPoint;

use super::lab::series::{Source, resolve};
use super::lab::{InstallSceneSet, Lab, PhysicsSet, Restored, StateJumped};

/// One recorded series.
#[derive(Clone, Debug)]
pub struct Series {
    pub name: String,
    pub source: Source,
    /// `(t, value)` points, borrowed by the plots.
    pub points: Vec<PlotPoint>,
    /// Index into [`History::t`] of `points[0]`.
    pub start: usize,
}

/// Above this many series per model, only the wanted ones are recorded.
const RECORD_ALL_MAX: usize = 600;

/// The recorded series of the current scene.
#[derive(Resource, Debug)]
pub struct History {
    pub generation: Option<u64>,
    /// Sample times (the master axis every series is aligned on).
    pub t: Vec<f64>,
    pub series: Vec<Series>,
    index: HashMap<String, usize>,
    /// Record every `stride`-th step.
    pub stride: u64,
    counter: u64,
    /// Samples kept before decimating.
    pub cap: usize,
    /// While frozen, the plots show the first `frozen` samples.
    pub frozen: Option<usize>,
    /// A timeline restore happened: drop samples after this time at the next record.
    pub truncate_after: Option<f64>,
    /// Record every series of the model (small models), or only those asked for.
    pub record_all: bool,
    /// The model's rows version the constraint series were resolved against.
    rows_version: u64,
    /// Work of the mouse springs since the start (J): every step's, recorded or not.
    user_work: f64,
    /// Energy friction took out since the start (J), likewise.
    friction_work: f64,
}

impl Default for History {
    fn default() -> Self {
        History {
            generation: None,
            t: Vec::new(),
            series: Vec::new(),
            index: HashMap::new(),
            stride: 1,
            counter: 0,
            cap: 20_000,
            frozen: None,
            truncate_after: None,
            record_all: true,
            rows_version: 0,
            user_work: 0.0,
            friction_work: 0.0,
        }
    }
}

impl History {
    /// Starts afresh for `world` (a new scene or a reset).
    pub fn reset(&mut self, world: &World, generation: u64, keep_names: bool) {
        let wanted: Vec<String> =
            if keep_names { self.series.iter().map(|s| s.name.clone()).collect() } else { vec![] };
        let all = contact_core::scene::series_names(&world.model);
        *self = History {
            generation: Some(generation),
            record_all: all.len() <= RECORD_ALL_MAX,
            rows_version: world.model.rows_version(),
            ..default()
        };
        self.cap = if self.record_all { (40_000_000 / (all.len().max(1) * 16)).clamp(4_096, 20_000) } else { 20_000 };
        if self.record_all {
            for n in &all {
                self.want(world, n);
            }
        } else {
            for n in contact_core::scene::GLOBAL_SERIES.iter().map(|s| s.to_string()).chain(world.model.coord_labels())
            {
                self.want(world, &n);
            }
        }
        for n in wanted {
            self.want(world, &n);
        }
        // The initial state, so plots start at t = 0.
        self.t.push(world.state.t);
        for s in &mut self.series {
            let v = match s.source {
                Source::Coord(i) => world.state.q[i],
                Source::Velocity(i) => world.state.qd[i],
                Source::TotalEnergy => world.model.total_energy(&world.state),
                Source::RotationalEnergy => world.model.rotational_energy(&world.state),
                Source::UserWork | Source::FrictionWork => 0.0,
                Source::Slip(k) => crate::app::lab::series::slip(world, k),
                _ => f64::NAN,
            };
            if v.is_finite() {
                s.points.push(PlotPoint::new(world.state.t, v));
            } else {
                s.start = 1;
            }
        }
    }

    /// Makes sure `name` is recorded (from now on); false if the name means nothing here.
    pub fn want(&mut self, world: &World, name: &str) -> bool {
        if self.index.contains_key(name) {
            return true;
        }
        let Some(source) = resolve(world, name) else { return false };
        self.index.insert(name.to_string(), self.series.len());
        self.series.push(Series { name: name.to_string(), source, points: Vec::new(), start: self.t.len() });
        true
    }

    pub fn get(&self, name: &str) -> Option<&Series> {
        self.index.get(name).map(|&i| &self.series[i])
    }

    /// The points of `name` to show (all of them, or up to the freeze).
    pub fn visible(&self, name: &str) -> &[PlotPoint] {
        let Some(s) = self.get(name) else { return &[] };
        match self.frozen {
            Some(n) => &s.points[..n.saturating_sub(s.start).min(s.points.len())],
            None => &s.points,
        }
    }

    /// Records the step just taken (every `stride`-th call).
    pub fn record(&mut self, world: &World, report: &StepReport) {
        if let Some(t) = self.truncate_after.take() {
            self.truncate(t);
        }
        self.user_work += report.user_work;
        self.friction_work += report.friction_work;
        self.counter += 1;
        if !self.counter.is_multiple_of(self.stride) {
            return;
        }
        if self.t.len() >= self.cap {
            self.decimate();
        }
        if world.model.rows_version() != self.rows_version {
            // Rows came and went: a series follows its constraint by name.
            self.rows_version = world.model.rows_version();
            for s in &mut self.series {
                if matches!(
                    s.source,
                    Source::G(_)
                        | Source::Lambda(_)
                        | Source::Handled(_)
                        | Source::Friction(_)
                        | Source::Slip(_)
                        | Source::Absent
                ) {
                    s.source = resolve(world, &s.name).unwrap_or(Source::Absent);
                }
            }
        }
        let t = world.state.t;
        self.t.push(t);
        for s in &mut self.series {
            let v = match s.source {
                Source::UserWork => self.user_work,
                Source::FrictionWork => self.friction_work,
                source => source.value(world, report),
            };
            s.points.push(PlotPoint::new(t, v));
        }
    }

    /// Keeps every other sample and doubles the stride.
    fn decimate(&mut self) {
        let keep = |i: usize| i.is_multiple_of(2);
        let t: Vec<f64> = self.t.iter().enumerate().filter(|(i, _)| keep(*i)).map(|(_, t)| *t).collect();
        for s in &mut self.series {
            let start = s.start;
            s.points = s.points.iter().enumerate().filter(|(j, _)| keep(start + j)).map(|(_, p)| *p).collect();
            s.start = start.div_ceil(2);
        }
        self.t = t;
        self.stride *= 2;
        self.frozen = self.frozen.map(|n| n.div_ceil(2));
    }

    /// Drops the samples after time `t` (a timeline restore went back there).
    pub fn truncate(&mut self, t: f64) {
        let n = self.t.partition_point(|x| *x <= t + 1e-12);
        self.t.truncate(n);
        for s in &mut self.series {
            if s.start > n {
                s.points.clear();
                s.start = n;
            } else {
                s.points.truncate(n - s.start);
            }
        }
        self.counter = 0;
        // The mouse's work up to the instant gone back to (0 if not recorded).
        self.user_work = self.get("user_work").and_then(|s| s.points.last()).map_or(0.0, |p| p.y);
        self.friction_work = self.get("friction_work").and_then(|s| s.points.last()).map_or(0.0, |p| p.y);
    }

    /// Writes `t` and the named series as CSV (empty cells before a series started).
    pub fn write_csv(&self, names: &[String], path: &Path) -> std::io::Result<usize> {
        let mut out = std::io::BufWriter::new(std::fs::File::create(path)?);
        let cols: Vec<&Series> = names.iter().filter_map(|n| self.get(n)).collect();
        write!(out, "t")?;
        for c in &cols {
            write!(out, ",{}", c.name)?;
        }
        writeln!(out)?;
        let n = self.frozen.unwrap_or(self.t.len()).min(self.t.len());
        for i in 0..n {
            write!(out, "{:e}", self.t[i])?;
            for c in &cols {
                match i.checked_sub(c.start).and_then(|j| c.points.get(j)) {
                    Some(p) => write!(out, ",{:e}", p.y)?,
                    None => write!(out, ",")?,
                }
            }
            writeln!(out)?;
        }
        out.flush()?;
        Ok(n)
    }
}

pub struct HistoryPlugin;

impl Plugin for HistoryPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<History>()
            .add_systems(FixedUpdate, record.in_set(PhysicsSet::Record))
            .add_systems(PreUpdate, follow_jumps.after(InstallSceneSet))
            .add_observer(|restored: On<Restored>, mut history: ResMut<History>| {
                history.truncate_after = Some(restored.t);
            });
    }
}

fn record(lab: Option<Res<Lab>>, mut history: ResMut<History>) {
    let Some(lab) = lab else { return };
    let Some(report) = &lab.report else { return };
    if history.generation != Some(lab.generation) {
        history.reset(&lab.world, lab.generation, false);
    }
    history.record(&lab.world, report);
}

/// A new scene or a reset starts the series again (a reset keeps the chosen ones).
fn follow_jumps(lab: Option<Res<Lab>>, mut jumped: MessageReader<StateJumped>, mut history: ResMut<History>) {
    let Some(lab) = lab else { return };
    let jumps: Vec<StateJumped> = jumped.read().copied().collect();
    let new_gen = history.generation != Some(lab.generation);
    if new_gen || jumps.iter().any(|j| j.new_scene || j.reset) {
        let keep = !new_gen;
        history.reset(&lab.world, lab.generation, keep);
    }
}
