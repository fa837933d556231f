//! The guided tour: a sequence of steps read from a tour file
//! ([`contact_core::scene::tour`], `assets/tours/paper.ron` by default), shown in
//! the Tour panel (in `ui`). Going to a step loads its scene with its algorithm
//! and opens it as the step says (its `opening`: paused, or playing in slow
//! motion up to the instant that shows what the step names); T (or the
//! toolbar's Tour button) shows and hides the panel; `--tour[=FILE]` opens it
//! at the first step.
//!
//! The tour file is read when the panel first opens; a broken one shows its
//! error (file:line:col: field: message) in the panel and the status bar, and
//! the lab keeps running what it runs.

use std::path::PathBuf;

use bevy::prelude::*;
use contact_core::scene::{self, tour::Tour};

use super::edit::{Editor, Leave};
use super::lab::{InputClaims, InstallScene, InstallSceneSet, Lab, Status};

/// The tour and where the user is in it.
#[derive(Resource, Debug, Default)]
pub struct TourState {
    /// The tour file.
    pub path: PathBuf,
    /// Read on first use.
    pub tour: Option<Tour>,
    /// Why the file could not be read.
    pub error: Option<String>,
    /// The step shown.
    pub current: usize,
    /// The step whose scene was loaded last (`None`: the lab runs something else).
    pub loaded: Option<usize>,
    /// The panel is shown.
    pub open: bool,
}

pub use super::lab::TourAction;

pub struct TourPlugin {
    /// The tour file.
    pub path: PathBuf,
    /// `--tour`: open the panel at this step (`--tour-step`, from 0).
    pub start: Option<usize>,
}

impl Plugin for TourPlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(TourState { path: self.path.clone(), ..default() })
            .add_message::<TourAction>()
            .add_systems(Update, tour_key)
            .add_systems(PreUpdate, apply_tour_actions.before(InstallSceneSet));
        if let Some(i) = self.start {
            app.add_systems(Startup, move |mut actions: MessageWriter<TourAction>| {
                actions.write(TourAction::Go(i));
            });
        }
    }
}

fn tour_key(
    keys: Option<Res<ButtonInput<KeyCode>>>,
    claims: Option<Res<InputClaims>>,
    mut actions: MessageWriter<TourAction>,
) {
    let Some(keys) = keys else { return };
    if !claims.is_some_and(|c| c.keyboard) && keys.just_pressed(KeyCode::KeyT) {
        actions.write(TourAction::Toggle);
    }
}

impl TourState {
    /// Reads the tour file (again); on failure keeps the error and no tour.
    fn read(&mut self) {
        match scene::tour::load(&self.path) {
            Ok(t) => {
                self.current = self.current.min(t.steps.len() - 1);
                self.tour = Some(t);
                self.error = None;
            }
            Err(e) => {
                self.tour = None;
                self.error = Some(e.to_string());
            }
        }
    }
}

fn apply_tour_actions(
    mut requests: MessageReader<TourAction>,
    mut state: ResMut<TourState>,
    mut install: MessageWriter<InstallScene>,
    mut status: ResMut<Status>,
    real: Res<Time<Real>>,
    mut editor: Option<ResMut<Editor>>,
) {
    let now = real.elapsed_secs_f64();
    let mut queue: std::collections::VecDeque<TourAction> = requests.read().copied().collect();
    while let Some(action) = queue.pop_front() {
        match action {
            TourAction::Toggle => {
                state.open = !state.open;
                if state.open && state.tour.is_none() {
                    state.read();
                }
                // Opened for the first time: its step loads and plays, as its
                // text expects (issue 37: T showed step 1 and waited for a click).
                if state.open && state.loaded.is_none() && state.tour.is_some() {
                    queue.push_front(TourAction::Go(state.current));
                }
            }
            TourAction::Reload => state.read(),
            TourAction::Go(i) => {
                // Unsaved edits: asked first ("Discard" goes to the step then).
                if let Some(ed) = editor.as_deref_mut()
                    && ed.ask_before(Leave::Tour(i), &mut status, now)
                {
                    continue;
                }
                state.open = true;
                if state.tour.is_none() {
                    state.read();
                }
                let Some(step) = state.tour.as_ref().and_then(|t| t.steps.get(i)).cloned() else {
                    if let Some(e) = &state.error {
                        status.warn(now, format!("Tour not loaded: {e}"));
                    }
                    continue;
                };
                state.current = i;
                // Read here rather than through the asset server: the step's
                // overrides and algorithm apply, and an error is reported at once
                // (the scene files feature then watches the file for changes).
                match step.load() {
                    Ok(s) => {
                        let path = std::path::absolute(&step.scene).unwrap_or(step.scene.clone());
                        install.write(InstallScene {
                            scene: Box::new(s),
                            path: Some(path),
                            keep_algorithm: false,
                            open: true,
                        });
                        state.loaded = Some(i);
                        status.say(now, format!("Tour: {}", step.title));
                    }
                    Err(e) => {
                        state.loaded = None;
                        status.warn(now, format!("Tour step not loaded: {e}"));
                    }
                }
            }
        }
    }
}

/// Whether the lab runs the scene of the tour's current step (the panel marks
/// a step as "running" only then).
pub fn running_step(state: &TourState, lab: Option<&Lab>) -> Option<usize> {
    let i = state.loaded?;
    let step = state.tour.as_ref()?.steps.get(i)?;
    let running = lab?.scene.path.as_ref()?;
    (std::path::absolute(&step.scene).ok().as_ref() == Some(running)).then_some(i)
}
