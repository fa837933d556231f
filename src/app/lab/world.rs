//! The [`Lab`] resource: the core's [`World`] and what the app knows of the scene
//! it came from; the step settings the controls change.

use bevy::math::DVec2;
use bevy::prelude::*;
use contact_core::scene::{Opening, PlotPreset, Scene, ViewBox};
use contact_core::{Algorithm, BodyKind, Geometry, Input, Snapshot, StepReport, World};

/// The core world and what the app knows of the scene it came from.
#[derive(Resource)]
pub struct Lab {
    /// The mechanics; its state is the components' between `Gather` and `Writeback`.
    pub world: World,
    /// The state at load, for Reset.
    pub initial: Snapshot,
    /// The scene as it was installed, for Reset all (dragged forces and
    /// settings included).
    pub source: Box<Scene>,
    pub scene: SceneInfo,
    /// The report of the last step (`None` before the first).
    pub report: Option<StepReport>,
    /// Body and constraint names, indexed like the model's.
    pub body_names: Vec<String>,
    pub constraint_names: Vec<String>,
    /// Bumped each time a scene is installed (systems reset their caches on change).
    pub generation: u64,
    /// The model's rows version the constraint entities match
    /// ([`contact_core::Model::rows_version`]).
    pub rows_version: u64,
    /// Bodies whose coordinates were set from their components (not by the
    /// core) before this step, and whether their positions changed too (or
    /// only their velocities, as a cue shot does): the input log records them.
    pub coords_set: Vec<(usize, bool)>,
    /// The inputs logged for the step being taken (by the input log, in
    /// [`super::PhysicsSet::Log`]): compare mode's lanes are given the same.
    pub given: Vec<Input>,
}

/// What a scene file says about showing it.
#[derive(Clone, Debug)]
pub struct SceneInfo {
    pub name: String,
    pub description: String,
    pub view: ViewBox,
    /// The region of interest: presenter mode, reset and "Fit view" frame it.
    pub focus: Option<ViewBox>,
    /// How it opens: the clock and the plot window.
    pub opening: Opening,
    pub plots: Vec<PlotPreset>,
    /// The file's step `h`.
    pub dt: f64,
    /// Where it was read from (for the title and hot reload).
    pub path: Option<std::path::PathBuf>,
    /// Open with the cue tool armed (the cue feature).
    pub cue: bool,
}

impl Lab {
    pub fn new(scene: Scene, path: Option<std::path::PathBuf>) -> Self {
        let source = Box::new(scene.clone());
        let world = scene.world;
        let rows_version = world.model.rows_version();
        Lab {
            initial: world.snapshot(),
            source,
            body_names: world.model.bodies.iter().map(|b| b.name.clone()).collect(),
            constraint_names: world.model.constraints.iter().map(|c| c.name.clone()).collect(),
            world,
            scene: SceneInfo {
                name: scene.name,
                description: scene.description,
                view: scene.view,
                focus: scene.focus,
                opening: scene.opening,
                plots: scene.plots,
                dt: scene.dt,
                path,
                cue: scene.cue,
            },
            report: None,
            generation: 0,
            rows_version,
            coords_set: Vec::new(),
            given: Vec::new(),
        }
    }

    /// Simulated time now.
    pub fn time(&self) -> f64 {
        self.world.state.t
    }

    /// What a screenshot or a clip taken now shows, for its file name: the
    /// scene file's stem (its title without one) and the time
    /// ([`super::output::name_of`]).
    pub fn shown(&self) -> String {
        let stem = self.scene.path.as_ref().and_then(|p| p.file_stem()).map(|s| s.to_string_lossy().into_owned());
        super::output::name_of(stem.as_deref().unwrap_or(&self.scene.name), self.time())
    }

    /// Position of body `b` now.
    pub fn position(&self, b: usize) -> DVec2 {
        let p = self.world.model.position(b, &self.world.state);
        DVec2::new(p.x, p.y)
    }
}

/// Step size and rate, set from the controls panel.
#[derive(Resource, Clone, Debug)]
pub struct StepSettings {
    /// `h`, in s.
    pub h: f64,
    /// Fixed steps per second of virtual time.
    pub rate_hz: f64,
    /// Keep `rate = 1/h`, so the simulation runs in real time at speed 1×.
    pub lock_rate: bool,
    /// `Time<Virtual>` relative speed, 0.01…4.
    pub speed: f64,
}

impl Default for StepSettings {
    fn default() -> Self {
        StepSettings { h: 1e-3, rate_hz: 1000.0, lock_rate: true, speed: 1.0 }
    }
}

impl StepSettings {
    /// The fixed timestep in virtual seconds.
    pub fn timestep(&self) -> f64 {
        if self.lock_rate { self.h } else { 1.0 / self.rate_hz }
    }

    /// The steps `h` a user may set, in seconds: the controls' slider and
    /// the app's `--dt`.
    pub const H_RANGE: std::ops::RangeInclusive<f64> = 1e-5..=0.05;

    /// Sets `h`, and the rate with it where it is locked to `1/h`.
    pub fn set_h(&mut self, h: f64) {
        self.h = h;
        if self.lock_rate {
            self.rate_hz = 1.0 / h;
        }
    }
}

/// The clock pauses by itself when the simulated time reaches `at`: a scene's
/// or a tour step's opening, or `--pause-at`.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq)]
pub struct PauseAt {
    pub at: Option<f64>,
    /// `at` was reached (and the clock paused there).
    pub reached: bool,
}

/// The algorithm a key `1`–`4` selects.
pub fn algorithm_for_digit(d: usize) -> Option<Algorithm> {
    Algorithm::ALL.get(d.checked_sub(1)?).copied()
}

/// A short name of a constraint's geometry, for the table.
pub fn geometry_label(world: &World, k: usize) -> &'static str {
    let c = &world.model.constraints[k];
    match c.geometry {
        Geometry::HalfPlane { .. } => "half-plane",
        Geometry::Contact { .. } => "contact",
        Geometry::Distance { .. } => {
            if c.is_inequality() {
                "string"
            } else {
                "rod"
            }
        }
        Geometry::CoordBound { upper, .. } => {
            if upper {
                "upper bound"
            } else {
                "lower bound"
            }
        }
        Geometry::Pin { .. } => "pin",
        Geometry::CornerEdge { .. } | Geometry::CornerDisc { .. } => "corner",
    }
}

/// Whether body `b` is drawn as a ball (radius > 0) or a point.
pub fn is_round(world: &World, b: usize) -> bool {
    world.model.bodies[b].radius > 0.0
}

/// Whether body `b` can move.
pub fn is_dynamic(world: &World, b: usize) -> bool {
    world.model.bodies[b].is_dynamic()
}

/// Whether body `b` can be shot with the cue: a round particle.
pub fn is_ball(world: &World, b: usize) -> bool {
    is_round(world, b) && matches!(world.model.bodies[b].kind, BodyKind::Particle)
}
