//! `--layout-sweep`: the built-in scenes in every mode, in one window of the
//! size `--size` gives (issue 47, deliver 1). Each scene is opened and shown
//! in normal, presenter, compare and edit mode, playing, then each step of
//! the paper's tour; each for [`FRAMES`] frames. A panic fails the run (the
//! process exits 101), and so does a layout that leaves the world view less
//! than [`VIEW_SHARE`] of the window's width or height, or a fitted focus
//! less than [`FOCUS_SHARE`] of the view on both sides, or a toolbar whose
//! modes run past the window's left edge. One line per case on
//! stdout: size, scene, mode, view and focus in px.
//!
//! `sample` takes four scenes of different kinds, `all` every scene; both
//! take every tour step. `scripts/screenshots views` runs it at each of
//! [`SIZES`] (a window resized by the program under Xvfb, before the X
//! server has resized it, draws one frame with attachments of two sizes,
//! and Bevy quits on that validation error: one window per size).

use bevy::app::AppExit;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_egui::{EguiContexts, egui};

use super::compare::{Compare, CompareAction};
use super::edit::{EditAction, Editor};
use super::lab::{Lab, OpenScene, TourAction, ViewTransform};
use super::tour::TourState;
use super::ui::data::UiState;

/// The window sizes (logical px): projectors, laptops, desktops, 4K.
pub const SIZES: [(u32, u32); 8] =
    [(800, 600), (1024, 768), (1280, 720), (1366, 768), (1600, 900), (1920, 1080), (2560, 1440), (3840, 2160)];

/// Frames each case is drawn, playing.
pub const FRAMES: u32 = 6;

/// The least share of the window's width and of its height the world view keeps.
pub const VIEW_SHARE: f32 = 0.25;

/// Compare mode from 1280 px wide: the least share of the window's width
/// the view keeps, and its least height (px).
pub const COMPARE_SHARE: f32 = 0.45;
pub const COMPARE_HEIGHT: f32 = 300.0;

/// The least share of the view the fitted focus fills on its tighter side.
pub const FOCUS_SHARE: f32 = 0.5;

/// The scenes `sample` takes: a particle, bodies that turn, a pile, a crowd of boxes.
const SAMPLE: [&str; 4] = ["wedge.ron", "ladder-rough.ron", "ball-pile.ron", "box-pyramid.ron"];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Normal,
    Present,
    Compare,
    Edit,
    /// The tour at this step (0-based).
    Tour(usize),
}

#[derive(Clone, Debug)]
struct Case {
    size: (u32, u32),
    scene: Option<std::path::PathBuf>,
    mode: Mode,
}

/// The cases still to run, and where the current one is.
#[derive(Resource)]
pub struct Sweep {
    cases: std::collections::VecDeque<Case>,
    current: Option<Case>,
    frames: u32,
    failures: Vec<String>,
    done: usize,
}

impl Sweep {
    /// The cases of `which` (`sample` or `all`) over the scenes of `scenes_dir`
    /// and a tour of `steps` steps, in a window of `size`.
    pub fn new(which: &str, scenes_dir: &std::path::Path, steps: usize, size: (u32, u32)) -> Result<Sweep, String> {
        let mut scenes: Vec<std::path::PathBuf> = std::fs::read_dir(scenes_dir)
            .map_err(|e| format!("{}: {e}", scenes_dir.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "ron"))
            .collect();
        scenes.sort();
        let all = match which {
            "all" => true,
            "sample" => false,
            other => return Err(format!("--layout-sweep takes `sample` or `all`, not `{other}`")),
        };
        if !all {
            scenes.retain(|p| p.file_name().is_some_and(|n| SAMPLE.iter().any(|s| n == *s)));
        }
        let mut cases = std::collections::VecDeque::new();
        for s in &scenes {
            for mode in [Mode::Normal, Mode::Present, Mode::Compare, Mode::Edit] {
                cases.push_back(Case { size, scene: Some(s.clone()), mode });
            }
        }
        for step in 0..steps {
            cases.push_back(Case { size, scene: None, mode: Mode::Tour(step) });
        }
        Ok(Sweep { cases, current: None, frames: 0, failures: Vec::new(), done: 0 })
    }
}

/// What one case measured: the view's and the fitted focus's sizes (px).
fn measure(view: &ViewTransform) -> (Vec2, Option<Vec2>) {
    (view.rect.size(), view.fitted_rect().map(|r| r.size()))
}

/// Runs the cases one after the other (module docs).
#[allow(clippy::too_many_arguments)]
pub fn run_sweep(
    mut sweep: ResMut<Sweep>,
    windows: Query<&Window, With<PrimaryWindow>>,
    mut ui: ResMut<UiState>,
    compare: Res<Compare>,
    editor: Res<Editor>,
    tour: Res<TourState>,
    view: Res<ViewTransform>,
    lab: Option<Res<Lab>>,
    mut virt: ResMut<Time<Virtual>>,
    mut open: MessageWriter<OpenScene>,
    mut compare_actions: MessageWriter<CompareAction>,
    mut edit_actions: MessageWriter<EditAction>,
    mut tour_actions: MessageWriter<TourAction>,
    mut exit: MessageWriter<AppExit>,
    mut contexts: EguiContexts,
) {
    let Ok(window) = windows.single() else { return };
    let toolbar_left: Option<f32> = contexts
        .ctx_mut()
        .ok()
        .and_then(|ctx| ctx.data(|d| d.get_temp(egui::Id::new(super::ui::toolbar::RIGHT_GROUP_LEFT))));
    // The current case: drawn for its frames, then measured.
    if let Some(case) = sweep.current.clone() {
        sweep.frames += 1;
        if sweep.frames < FRAMES {
            return;
        }
        let (v, focus) = measure(&view);
        let (w, h) = (case.size.0 as f32, case.size.1 as f32);
        let name =
            case.scene.as_ref().and_then(|p| p.file_stem()).map_or("tour".into(), |s| s.to_string_lossy().into_owned());
        let focus_text = focus.map_or("-".to_string(), |f| format!("{:.0}x{:.0}", f.x, f.y));
        println!(
            "layout-sweep: {}x{} {name} {:?}: view {:.0}x{:.0} ({:.0} % x {:.0} %), focus {focus_text}",
            case.size.0,
            case.size.1,
            case.mode,
            v.x,
            v.y,
            100.0 * v.x / w,
            100.0 * v.y / h
        );
        let mut why = Vec::new();
        if v.x < VIEW_SHARE * w || v.y < VIEW_SHARE * h {
            why.push(format!("the view keeps {:.0}x{:.0} px of {}x{}", v.x, v.y, case.size.0, case.size.1));
        }
        // Compare mode from 1280x720 up keeps room for its lanes (deliver 2).
        if case.mode == Mode::Compare && case.size.0 >= 1280 && (v.x < COMPARE_SHARE * w || v.y < COMPARE_HEIGHT) {
            why.push(format!("compare mode's view is {:.0}x{:.0} px of {}x{}", v.x, v.y, case.size.0, case.size.1));
        }
        // The toolbar's modes never run past the window's left edge.
        if let Some(left) = toolbar_left
            && left < 0.0
        {
            why.push(format!("the toolbar's modes start at x = {left:.0} px, left of the window"));
        }
        if let Some(f) = focus
            && f.x < FOCUS_SHARE * v.x
            && f.y < FOCUS_SHARE * v.y
        {
            why.push(format!("the focus fills {:.0}x{:.0} px of a {:.0}x{:.0} view", f.x, f.y, v.x, v.y));
        }
        if !why.is_empty() {
            sweep.failures.push(format!("{}x{} {name} {:?}: {}", case.size.0, case.size.1, case.mode, why.join("; ")));
        }
        sweep.done += 1;
        sweep.current = None;
    }
    // The next case: leave what it does not want, then enter what it does.
    let Some(case) = sweep.cases.front().cloned() else {
        for f in &sweep.failures {
            eprintln!("layout-sweep: FAIL {f}");
        }
        println!("layout-sweep: {} cases, {} failed", sweep.done, sweep.failures.len());
        exit.write(if sweep.failures.is_empty() { AppExit::Success } else { AppExit::error() });
        return;
    };
    // The window is laid out at its size (the first frames).
    if window.resolution.width() != case.size.0 as f32 || window.resolution.height() != case.size.1 as f32 {
        return;
    }
    let want_present = case.mode == Mode::Present;
    let want_compare = case.mode == Mode::Compare;
    let want_edit = case.mode == Mode::Edit;
    let want_tour = matches!(case.mode, Mode::Tour(_));
    if editor.on && !want_edit {
        edit_actions.write(EditAction::Toggle);
        return;
    }
    if compare.on && !want_compare {
        compare_actions.write(CompareAction::Toggle);
        return;
    }
    if tour.open && !want_tour {
        tour_actions.write(TourAction::Toggle);
        return;
    }
    ui.present = want_present;
    match (&case.mode, &case.scene) {
        (Mode::Tour(step), _) => {
            if !tour.open {
                tour_actions.write(TourAction::Toggle);
                return;
            }
            tour_actions.write(TourAction::Go(*step));
        }
        (_, Some(path)) => {
            let loaded = lab.as_ref().and_then(|l| l.scene.path.clone());
            if loaded.as_deref() != Some(path.as_path()) {
                open.write(OpenScene(path.clone()));
                return;
            }
            if want_compare && !compare.on {
                compare_actions.write(CompareAction::Toggle);
            }
            if want_edit && !editor.on {
                edit_actions.write(EditAction::Toggle);
            }
        }
        (_, None) => {}
    }
    virt.unpause();
    sweep.cases.pop_front();
    sweep.current = Some(case);
    sweep.frames = 0;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sweep_takes_each_scene_in_four_modes_then_each_tour_step() {
        let scenes = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets").join("scenes");
        let sample = Sweep::new("sample", &scenes, 13, (1024, 768)).unwrap();
        assert_eq!(sample.cases.len(), SAMPLE.len() * 4 + 13);
        assert!(sample.cases.iter().all(|c| c.size == (1024, 768)));
        let count = std::fs::read_dir(&scenes)
            .unwrap()
            .filter(|e| e.as_ref().unwrap().path().extension().is_some_and(|x| x == "ron"))
            .count();
        assert_eq!(Sweep::new("all", &scenes, 13, (800, 600)).unwrap().cases.len(), count * 4 + 13);
        let e = Sweep::new("most", &scenes, 13, (800, 600)).err().unwrap();
        assert!(e.contains("`sample` or `all`"), "{e}");
    }
}
