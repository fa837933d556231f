//! Screenshots: F12 (or the toolbar button) saves a PNG and says where;
//! `--screenshot FILE --frames N` saves one after N frames and quits;
//! `--pause-at T` pauses when the simulated time reaches T (exactly: the fixed
//! loop stops there), and a scripted screenshot then waits for it, so a picture
//! shows the same instant however fast the machine draws
//! (`scripts/screenshots` makes the pictures of the README and docs/ this way);
//! `--check-view` checks the scripted screenshot against the view's mapping
//! ([`view_check`]) and quits with an error when a body is not where it
//! should be.

pub mod view_check;

use std::path::PathBuf;

use bevy::app::AppExit;
use bevy::diagnostic::FrameCount;
use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured, save_to_disk};

use super::lab::{Lab, OnScreen, OutputDir, PauseAt, Status, ViewTransform};

/// Screenshots asked for: `None` picks a fresh name in the [`OutputDir`].
#[derive(Resource, Clone, Debug, Default)]
pub struct ScreenshotRequests {
    pub pending: Vec<Option<PathBuf>>,
}

/// A scripted run: what to do after how many frames.
#[derive(Resource, Clone, Debug, Default)]
pub struct Script {
    /// Frames to render before the scripted screenshot (or before quitting).
    pub frames: Option<u32>,
    pub screenshot: Option<PathBuf>,
    /// Frames rendered so far.
    pub frame: u32,
    /// The scripted screenshot was written: quit.
    pub done: bool,
    pub requested: bool,
    /// `--pause-at`: the frames count from the pause ([`PauseAt`]).
    pub wait_for_pause: bool,
    /// Check the scripted screenshot against the view's mapping (`--check-view`).
    pub check_view: bool,
    /// The check failed: quit with an error.
    pub failed: bool,
}

/// The line a scripted run prints on exit: the simulated time reached, the wall
/// time since the first frame, the frames drawn and the mean rates, so a script
/// can check real time.
fn summary(simulated: f64, real: &Time<Real>, frames: FrameCount) -> String {
    let wall = real.first_update().map_or(0.0, |t| t.elapsed().as_secs_f64());
    let per = |x: f64| if wall > 0.0 { x / wall } else { 0.0 };
    format!(
        "contact-lab: t = {simulated:.4} s simulated in {wall:.3} s of wall time, {} frames drawn \
         ({:.1} frames/s), {:.3}× real time",
        frames.0,
        per(frames.0 as f64),
        per(simulated)
    )
}

pub struct ScreenshotPlugin {
    pub script: Script,
    /// `--dump-state FILE`: every body's point, written when the app quits.
    pub dump_state: Option<PathBuf>,
}

/// Where to write the state when the app quits.
#[derive(Resource, Clone, Debug)]
struct DumpState(PathBuf);

impl Plugin for ScreenshotPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<ScreenshotRequests>()
            .insert_resource(self.script.clone())
            .add_systems(Last, (run_script, take_screenshots, dump_on_exit).chain());
        if let Some(p) = &self.dump_state {
            app.insert_resource(DumpState(p.clone()));
        }
    }
}

fn run_script(
    mut script: ResMut<Script>,
    mut requests: ResMut<ScreenshotRequests>,
    mut exit: MessageWriter<AppExit>,
    lab: Option<Res<Lab>>,
    pause: Res<PauseAt>,
    real: Res<Time<Real>>,
    frames: Res<FrameCount>,
) {
    // With --pause-at, the frames before the scripted screenshot count from the pause.
    if script.wait_for_pause && !pause.reached {
        return;
    }
    script.frame += 1;
    if script.done {
        if script.frames.is_some() {
            println!("{}", summary(lab.map_or(0.0, |l| l.time()), &real, *frames));
        }
        exit.write(if script.failed { AppExit::error() } else { AppExit::Success });
        return;
    }
    let Some(frames) = script.frames else { return };
    if script.frame >= frames && !script.requested {
        script.requested = true;
        match script.screenshot.clone() {
            Some(path) => requests.pending.push(Some(path)),
            None => script.done = true,
        }
    }
    // A screenshot that never arrives must not hang a script.
    if script.requested && script.frame > frames + 600 {
        error!("the scripted screenshot was not captured after 600 frames");
        exit.write(AppExit::error());
    }
}

fn take_screenshots(
    mut commands: Commands,
    mut requests: ResMut<ScreenshotRequests>,
    script: Res<Script>,
    out: Res<OutputDir>,
    mut status: ResMut<Status>,
    real: Res<Time<Real>>,
    lab: Option<Res<Lab>>,
) {
    // (Named only when one is asked for: this runs every frame.)
    let shown = || lab.as_ref().map_or_else(|| "contact-lab".to_string(), |l| l.shown());
    for req in requests.pending.drain(..) {
        let scripted = req.is_some() && script.requested && req == script.screenshot;
        let check = scripted && script.check_view;
        let path = match req.map_or_else(|| out.fresh(&shown(), "png"), Ok) {
            Ok(p) => p,
            Err(e) => {
                status.warn(real.elapsed_secs_f64(), format!("No screenshot: {e}"));
                continue;
            }
        };
        let path = std::path::absolute(&path).unwrap_or(path);
        let mut save = save_to_disk(path.clone());
        commands.spawn(Screenshot::primary_window()).observe(
            move |captured: On<ScreenshotCaptured>,
                  mut status: ResMut<Status>,
                  real: Res<Time<Real>>,
                  mut script: ResMut<Script>,
                  lab: Option<Res<Lab>>,
                  view: Res<ViewTransform>,
                  on_screen: Res<OnScreen>| {
                if check && let (Some(lab), Ok(img)) = (lab, captured.image.clone().try_into_dynamic()) {
                    script.failed |= !check_view(&img.to_rgb8(), &lab, &view, &on_screen);
                }
                save(captured);
                status.say(real.elapsed_secs_f64(), format!("Screenshot saved to {}", path.display()));
                if scripted {
                    script.done = true;
                }
            },
        );
    }
}

/// Runs the visual check and logs what it saw; false when it failed.
fn check_view(img: &image::RgbImage, lab: &Lab, view: &ViewTransform, on_screen: &OnScreen) -> bool {
    let (seen, failures) = view_check::check(img, lab, view, on_screen);
    for s in &seen {
        info!(
            "view-check: {} at ({:.0}, {:.0}) px, {}{}{}, colour {:.0} %",
            s.name,
            s.at.x,
            s.at.y,
            if s.in_view { "in view" } else { "off view" },
            if s.covered { ", under a window" } else { "" },
            if s.marker { ", edge marker" } else { "" },
            s.match_share * 100.0
        );
    }
    for f in &failures {
        error!("view-check: FAIL {f}");
    }
    let in_view = seen.iter().filter(|s| s.in_view).count();
    info!("view-check: {} bodies, {in_view} in view, {} failures", seen.len(), failures.len());
    failures.is_empty()
}

/// Writes `t`, `steps`, `name x y` per body, `algorithm NAME` and `angle
/// NAME θ` per body that turns to the `--dump-state` file: every
/// half second (so a killed app leaves a recent one) and when the app quits.
fn dump_on_exit(
    mut exits: MessageReader<AppExit>,
    dump: Option<Res<DumpState>>,
    lab: Option<Res<Lab>>,
    real: Res<Time<Real>>,
    mut last: Local<f64>,
) {
    let quitting = exits.read().next().is_some();
    let now = real.elapsed_secs_f64();
    let (Some(dump), Some(lab)) = (dump, lab) else { return };
    if !quitting && now - *last < 0.5 {
        return;
    }
    *last = now;
    let mut text = format!("t {}\nsteps {}\n", lab.time(), lab.world.steps);
    for (i, name) in lab.body_names.iter().enumerate() {
        let p = lab.position(i);
        text += &format!("{name} {} {}\n", p.x, p.y);
    }
    // The algorithm in force and the angle of each body that turns (a tour
    // step's keys are checked by them in the e2e).
    text += &format!("algorithm {}\n", lab.world.settings.algorithm.cli_name());
    let (q, qd) = (&lab.world.state.q, &lab.world.state.qd);
    for (b, name) in lab.world.model.bodies.iter().zip(&lab.body_names) {
        if b.angle_column().is_some() {
            text += &format!("angle {name} {}\n", b.angle(q, qd).0);
        }
    }
    // Written aside and renamed, so a reader never sees half a file.
    let tmp = dump.0.with_extension("tmp");
    let result = std::fs::write(&tmp, text).and_then(|_| std::fs::rename(&tmp, &dump.0));
    match result {
        Ok(()) if quitting => info!("state written to {}", dump.0.display()),
        Ok(()) => {}
        Err(e) => error!("cannot write {}: {e}", dump.0.display()),
    }
}
