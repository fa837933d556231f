//! Scene files: a system, its start and its solver settings, written in RON.
//!
//! The app, the CLI, the tests and the benchmarks read the same files from
//! `assets/scenes/`. A file looks like this (every field is documented in
//! `docs/scenes.md` and on the types of [`schema`]):
//!
//! ```ron
//! Scene(
//!     name: "Wedge",
//!     bodies: [
//!         Particle(name: "particle", position: (0, 0), mass: 2, force: (2, -1)),
//!     ],
//!     constraints: [
//!         HalfPlane(name: "g1", body: "particle", normal: (1, -1)),
//!         HalfPlane(name: "g2", body: "particle", normal: (0, 1)),
//!     ],
//!     solver: (algorithm: Right, dt: 1e-3),
//!     plots: [(title: "Height", series: ["particle.y", "particle.y.a"])],
//! )
//! ```
//!
//! [`parse`] reads the text with serde, then checks what serde cannot: names
//! that refer to bodies, masses and radii, balls overlapping at the start,
//! constraints violated at the start, non-finite numbers, duplicate names, step
//! sizes. Every error is a [`SceneError`] that names the file, the line and
//! column, and the field (`constraints[2].body`). A broken file never panics.

mod build;
pub mod document;
pub mod schema;
mod spans;
pub mod tour;

pub use document::{Edits, Item, SceneDoc};

use std::fmt;
use std::path::Path;

use crate::model::Model;
use crate::world::World;

/// A loaded, checked scene: a world ready to step and how to show it.
#[derive(Clone, Debug)]
pub struct Scene {
    pub name: String,
    pub description: String,
    /// Model, initial state and solver settings.
    pub world: World,
    /// The rectangle to show at start.
    pub view: ViewBox,
    /// The region where the phenomenon happens (presenter mode, reset and
    /// "Fit view" frame it); `None`: the view, grown to every body.
    pub focus: Option<ViewBox>,
    /// How the app opens the scene.
    pub opening: Opening,
    /// The plots to open at start.
    pub plots: Vec<PlotPreset>,
    /// The default step `h`, in s.
    pub dt: f64,
    /// The default simulated time of `contact-lab run`, in s.
    pub duration: f64,
    /// The app opens with the cue tool armed, ready to shoot a ball.
    pub cue: bool,
}

/// An axis-aligned rectangle in scene units (m).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ViewBox {
    pub min: (f64, f64),
    pub max: (f64, f64),
}

/// How the app opens a scene: the clock (paused at t = 0 or playing, its speed,
/// an automatic pause) and the time window of the plots. The paper's phenomena
/// last milliseconds: a scene opens where they can be seen.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Opening {
    /// Paused at t = 0 (`false`: playing).
    pub paused: bool,
    /// Clock speed relative to real time, in [`Opening::SPEEDS`].
    pub speed: f64,
    /// The clock pauses by itself when the simulated time reaches this (s).
    pub pause_at: Option<f64>,
    /// Seconds of simulated time the plots show (`None`: the app's default;
    /// infinite: the whole run, the app's `--plot-window all`).
    pub plot_window: Option<f64>,
}

impl Opening {
    /// The speeds the app's clock takes.
    pub const SPEEDS: std::ops::RangeInclusive<f64> = 0.01..=4.0;
}

impl Default for Opening {
    /// Playing in real time, the app's plot window.
    fn default() -> Self {
        Opening { paused: false, speed: 1.0, pause_at: None, plot_window: None }
    }
}

/// A plot: its title and its series. The series names are those of
/// [`series_names`]: `BODY.COORD`, `BODY.COORD.v`, `BODY.COORD.a`, `NAME.g`,
/// `NAME.lambda`, `NAME.handled`, and `max_violation`, `kinetic_energy`,
/// `handled` (how many constraints are handled), `iterations` (solves of eq. 6).
#[derive(Clone, Debug, PartialEq)]
pub struct PlotPreset {
    pub title: String,
    pub series: Vec<String>,
}

/// Changes applied while loading, before the checks.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Overrides {
    /// The number of balls of the scene's `ball_pile` (an error for a scene without one).
    pub balls: Option<usize>,
    /// `Some(true)`: the generated contacts (`walls`, `ball_pairs`) become rows by
    /// proximity, `Some(false)`: fixed rows, whatever their number
    /// (default: by proximity above [`crate::contacts::PROXIMITY_ABOVE`]).
    pub proximity: Option<bool>,
}

/// Why a scene could not be loaded, and where.
#[derive(Clone, Debug, PartialEq)]
pub struct SceneError {
    /// The file (or the origin given to [`parse`]).
    pub file: String,
    /// 1-based line of the offending text, when there is one.
    pub line: Option<usize>,
    /// 1-based column (in characters).
    pub column: Option<usize>,
    /// The field's path, e.g. `bodies[3].mass` or `constraints[0].body`.
    pub field: Option<String>,
    pub message: String,
}

impl fmt::Display for SceneError {
    /// `file:line:col: field `x`: message`, leaving out what is unknown.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file)?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
            if let Some(col) = self.column {
                write!(f, ":{col}")?;
            }
        }
        if let Some(field) = &self.field {
            write!(f, ": field `{field}`")?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for SceneError {}

/// Reads and checks the scene file at `path`.
pub fn load(path: &Path, ov: &Overrides) -> Result<Scene, SceneError> {
    let (text, origin) = read(path, "scene")?;
    parse(&text, &origin, ov)
}

/// Parses and checks a scene from its text; `origin` names it in errors.
pub fn parse(text: &str, origin: &str, ov: &Overrides) -> Result<Scene, SceneError> {
    let (file, locator) = from_ron::<schema::SceneFile>(text, origin)?;
    build::build(file, ov, &build::Ctx { origin, locator: &locator })
}

/// The text of a `what` file (scene, tour) and its name for errors.
fn read(path: &Path, what: &str) -> Result<(String, String), SceneError> {
    let origin = path.display().to_string();
    match std::fs::read_to_string(path) {
        Ok(text) => Ok((text, origin)),
        Err(e) => Err(SceneError {
            file: origin,
            line: None,
            column: None,
            field: None,
            message: format!("cannot read the {what} file: {e}"),
        }),
    }
}

/// Deserializes a RON file (bare optional values allowed) and locates its
/// values, so later checks can point at them.
fn from_ron<T: serde::de::DeserializeOwned>(text: &str, origin: &str) -> Result<(T, spans::Locator), SceneError> {
    let locator = spans::Locator::new(text);
    let options = ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME);
    let value = options.from_str(text).map_err(|e| build::ron_error(&e, origin, &locator))?;
    Ok((value, locator))
}

/// Every series name a plot of `model` may use (see [`PlotPreset`]): with
/// friction, `NAME.friction` (`λ_t`, N), `NAME.slip` (`v_t`, m/s) and
/// `friction_work` (the energy friction took out since the start, J).
pub fn series_names(model: &Model) -> Vec<String> {
    let mut out: Vec<String> = GLOBAL_SERIES.iter().map(|s| s.to_string()).collect();
    for c in model.coord_labels() {
        out.push(format!("{c}.v"));
        out.push(format!("{c}.a"));
        out.push(c);
    }
    for c in &model.constraints {
        for s in ["g", "lambda", "handled"] {
            out.push(format!("{}.{s}", c.name));
        }
        if c.friction > 0.0 {
            out.push(format!("{}.friction", c.name));
            out.push(format!("{}.slip", c.name));
        }
    }
    out
}

/// Series that are not tied to a coordinate or a constraint.
pub const GLOBAL_SERIES: [&str; 9] = [
    "max_violation",
    "kinetic_energy",
    "rotational_energy",
    "total_energy",
    "user_work",
    "friction_work",
    "handled",
    "iterations",
    "repose_angle",
];
