//! What the panels share: [`PanelData`] (everything they read or change, one
//! system parameter) and [`UiState`] (what they remember between frames, each
//! panel's own state included). Panels import this module and the layers
//! below, never each other.

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

use crate::app::clip::ClipRecorder;
use crate::app::compare::Compare;
use crate::app::cue::CueTool;
use crate::app::edit::Editor;
use crate::app::history::History;
use crate::app::lab::{
    ConstraintStatus, Drags, DrawOptions, Highlight, Interpolation, Lab, LabBody, LabConstraint, OnScreen, OutputDir,
    PointMotion, SceneLook, Status, StepInFlight, StepSettings, ViewTransform,
};
use crate::app::physics::{PhysicsBudget, StepWorker};
use crate::app::scene::SceneFiles;
use crate::app::timeline::{EventLog, Timeline};
use crate::app::tour::TourState;

/// What the panels remember between frames.
#[derive(Resource, Default)]
pub struct UiState {
    pub table: TableState,
    pub plots: PlotsState,
    pub trace_tab: Tab,
    pub open_path: String,
    pub styled: bool,
    /// Measured simulated seconds per real second.
    pub rate: RateMeter,
    /// A value of `h` or `τ` waiting for "Apply anyway".
    pub pending: Option<Pending>,
    /// Presenter mode (`super::presenter`): F5, `--present`.
    pub present: bool,
    /// Where the presenter's banner was drawn last frame (points).
    pub banner: Option<bevy_egui::egui::Rect>,
    /// The toolbar's 📁: open the dialog for the folder of screenshots and clips.
    pub ask_folder: bool,
}

/// Simulated time per real second, smoothed.
#[derive(Default, Clone, Copy, Debug)]
pub struct RateMeter {
    last: Option<(f64, f64)>,
    pub value: f64,
}

impl RateMeter {
    pub fn update(&mut self, real: f64, sim: f64) {
        match self.last {
            Some((r0, s0)) if real - r0 >= 0.5 => {
                let v = (sim - s0) / (real - r0);
                self.value = if v.is_finite() && v >= 0.0 { v } else { 0.0 };
                self.last = Some((real, sim));
            }
            None => self.last = Some((real, sim)),
            _ => {}
        }
    }
}

/// Everything the panels read or change.
#[derive(SystemParam)]
pub struct PanelData<'w, 's> {
    pub lab: Option<ResMut<'w, Lab>>,
    pub settings: ResMut<'w, StepSettings>,
    pub history: ResMut<'w, History>,
    pub timeline: Res<'w, Timeline>,
    pub events: Res<'w, EventLog>,
    pub files: ResMut<'w, SceneFiles>,
    pub drags: ResMut<'w, Drags>,
    pub draw: ResMut<'w, DrawOptions>,
    pub highlight: ResMut<'w, Highlight>,
    pub status: ResMut<'w, Status>,
    pub budget: Res<'w, PhysicsBudget>,
    pub worker: Res<'w, StepWorker>,
    pub in_flight: Res<'w, StepInFlight>,
    pub tour: Res<'w, TourState>,
    pub look: Res<'w, SceneLook>,
    pub on_screen: ResMut<'w, OnScreen>,
    pub view: ResMut<'w, ViewTransform>,
    pub output: Res<'w, OutputDir>,
    pub interp: Res<'w, Interpolation>,
    pub state: ResMut<'w, UiState>,
    pub compare: ResMut<'w, Compare>,
    pub clip: Res<'w, ClipRecorder>,
    pub editor: ResMut<'w, Editor>,
    pub cue: Option<ResMut<'w, CueTool>>,
    pub virt: Res<'w, Time<Virtual>>,
    pub real: Res<'w, Time<Real>>,
    pub constraints: Query<'w, 's, (&'static LabConstraint, &'static ConstraintStatus)>,
    pub bodies: Query<'w, 's, (&'static LabBody, &'static PointMotion)>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Column {
    #[default]
    Index,
    Name,
    Kind,
    G,
    Tendency,
    Lambda,
    /// `λ_t`, with friction.
    Friction,
    State,
}

#[derive(Clone, Debug, Default)]
pub struct TableState {
    pub sort: Column,
    pub descending: bool,
    /// Show only touching or handled rows.
    pub touching_only: Option<bool>,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Tab {
    #[default]
    Trace,
    Events,
}

/// A value of `h` or `τ` held back until confirmed, and why.
#[derive(Clone, Debug, PartialEq)]
pub struct Pending {
    pub setting: Setting,
    pub warnings: Vec<String>,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Setting {
    H(f64),
    Tau(f64),
}

/// How much time the plots show when following the present.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Window {
    Seconds(f64),
    All,
}

#[derive(Clone, Debug)]
pub struct PlotsState {
    pub window: Window,
    /// Follow the present (off once the user pans or zooms).
    pub follow: bool,
    /// Constraints whose `g` and `λ` are plotted (chosen in the table).
    pub selected: Vec<String>,
    pub show_extras: bool,
    pub last_export: Option<String>,
}

impl Default for PlotsState {
    fn default() -> Self {
        PlotsState {
            window: Window::Seconds(2.0),
            follow: true,
            selected: vec![],
            show_extras: true,
            last_export: None,
        }
    }
}
