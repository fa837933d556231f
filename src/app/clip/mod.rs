//! Clips: `V` (or the toolbar's ⏺) records the world view — or the whole
//! window — as an animated GIF for slides; `V` again stops and encodes.
//! `contact-lab SCENE --record out.gif --duration 3 [--fps 30]` records from
//! the start for that many simulated seconds, writes the file and quits.
//!
//! Frames are taken at a **simulated** rate `fps · slow` (`--slow N`: slow
//! motion), and each frame keeps its simulated time, so a clip plays at the
//! speed of the simulation whatever the machine:
//!
//! - `--record` (a script): when a step ends at or after the next frame's
//!   time `t₀ + k/(fps · slow)` the clock holds (the fixed loop stops, as for
//!   `--pause-at`), the window is captured, and the clock goes on: every
//!   frame at its time, a machine that draws fast gives the same frames.
//!   While a frame is taken the toolbar does not show "paused".
//! - `V` (a user): the clock is never held, and a frame is captured as the
//!   window draws it once the next frame's time has passed, at its own
//!   time. Holding the clock for each capture ran a software renderer's lab
//!   at 0.13× real time: 2.5 s of recording gave a 0.37 s clip (issue 47,
//!   item 12). A slow window gives fewer frames, each shown for as long as
//!   it stood.
//!
//! Encoding runs on a thread ([`gif`]), with a counter in the toolbar; the
//! status bar says where the file went, its size and the time it took.

pub mod gif;

use std::path::PathBuf;
use std::sync::atomic::AtomicUsize;
use std::sync::mpsc::{self, Receiver, TryRecvError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use bevy::app::AppExit;
use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured};

use super::lab::{InputClaims, Lab, OutputDir, PhysicsSet, Status, ViewTransform};
use super::physics::MAX_FRAME_DEBT;

/// What a clip shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ClipArea {
    /// The world view: the free rectangle between the panels.
    #[default]
    View,
    /// The whole window, panels included.
    Window,
}

/// What the user asks of the recorder.
#[derive(Message, Clone, Debug, PartialEq)]
pub enum ClipAction {
    /// Start recording, or stop and encode.
    Toggle,
}

/// A clip being encoded on its thread.
pub struct Encoding {
    /// Frames encoded so far (the toolbar's counter).
    pub done: Arc<AtomicUsize>,
    pub total: usize,
    /// Seconds the clip plays.
    pub play: f64,
    pub path: PathBuf,
    started: Instant,
    /// In a mutex only so that the resource is `Sync`.
    result: Mutex<Receiver<Result<usize, String>>>,
}

/// The recorder (see the module docs).
#[derive(Resource)]
pub struct ClipRecorder {
    /// Frames per second of the clip as it plays.
    pub fps: f64,
    /// Slow motion: the clip plays this many times slower than simulated time
    /// (a frame every `1/(fps · slow)` simulated seconds; the paper's wedge
    /// does what matters in 20 ms).
    pub slow: f64,
    /// Simulated seconds to record (`None`: until stopped).
    pub duration: Option<f64>,
    pub area: ClipArea,
    /// Where to write (`None`: a fresh name in the [`OutputDir`]).
    pub path: Option<PathBuf>,
    /// `--record`: start at the first frame, quit once written.
    pub scripted: bool,
    pub recording: bool,
    pub encoding: Option<Encoding>,
    frames: Vec<gif::Frame>,
    /// Simulated time of the first frame.
    start: f64,
    /// The clock is held for a capture.
    pub holding: bool,
    /// Let the clock go after the capture (false when the user had paused it).
    resume: bool,
    requested: bool,
    /// The crop of the first frame: every frame has its size.
    crop: Option<URect>,
    /// The simulated time of the frame asked for.
    asked_at: f64,
    /// What the clip shows, for its file name (the scene and its start).
    shown: String,
}

impl Default for ClipRecorder {
    fn default() -> Self {
        ClipRecorder {
            fps: 30.0,
            slow: 1.0,
            duration: None,
            area: ClipArea::View,
            path: None,
            scripted: false,
            recording: false,
            encoding: None,
            frames: Vec::new(),
            start: 0.0,
            holding: false,
            resume: true,
            requested: false,
            crop: None,
            asked_at: 0.0,
            shown: String::new(),
        }
    }
}

impl ClipRecorder {
    /// Frames taken so far.
    pub fn frames(&self) -> usize {
        self.frames.len()
    }

    /// Frames per simulated second.
    fn rate(&self) -> f64 {
        self.fps * self.slow
    }

    /// Simulated seconds recorded so far: the last frame's (its time in the
    /// clip over the slow motion) and one frame's more.
    pub fn recorded(&self) -> f64 {
        self.frames.last().map_or(0.0, |f| f.at / self.slow + 1.0 / self.rate())
    }

    /// Simulated time of the next frame: one frame after the last (a
    /// script's frame `k` is at `k/(fps · slow)`; a user's frames come as the
    /// window draws them).
    fn next_time(&self) -> f64 {
        if self.scripted { self.start + self.frames.len() as f64 / self.rate() } else { self.start + self.recorded() }
    }

    fn wanted(&self) -> Option<usize> {
        self.duration.map(|d| (d * self.rate()).round().max(1.0) as usize)
    }
}

/// `--record`: the recorder's settings from the command line.
#[derive(Clone, Debug, Default)]
pub struct ClipOptions {
    pub record: Option<PathBuf>,
    pub duration: f64,
    pub fps: f64,
    pub slow: f64,
    pub window: bool,
}

pub struct ClipPlugin {
    pub options: ClipOptions,
}

impl Plugin for ClipPlugin {
    fn build(&self, app: &mut App) {
        let o = &self.options;
        let recorder = ClipRecorder {
            fps: if o.fps > 0.0 { o.fps } else { 30.0 },
            slow: if o.slow > 0.0 { o.slow } else { 1.0 },
            duration: o.record.as_ref().map(|_| o.duration),
            area: if o.window { ClipArea::Window } else { ClipArea::View },
            path: o.record.clone(),
            scripted: o.record.is_some(),
            ..default()
        };
        app.insert_resource(recorder)
            .add_message::<ClipAction>()
            .add_systems(
                Update,
                (keyboard, start_scripted, apply_actions, poll_encoding, steady_clock, stalled).chain(),
            )
            .add_systems(FixedUpdate, hold_for_frame.after(PhysicsSet::Record))
            .add_systems(Last, capture);
    }
}

fn keyboard(
    keys: Option<Res<ButtonInput<KeyCode>>>,
    claims: Option<Res<InputClaims>>,
    mut actions: MessageWriter<ClipAction>,
) {
    let Some(keys) = keys else { return };
    if claims.is_some_and(|c| c.keyboard) {
        return;
    }
    if keys.just_pressed(KeyCode::KeyV) {
        actions.write(ClipAction::Toggle);
    }
}

/// `--record`: starts once the panels are laid out and the view fitted.
fn start_scripted(
    mut clip: ResMut<ClipRecorder>,
    lab: Option<Res<Lab>>,
    view: Res<ViewTransform>,
    mut virt: ResMut<Time<Virtual>>,
    mut frames: Local<u32>,
) {
    if !clip.scripted || clip.recording || clip.encoding.is_some() || !clip.frames.is_empty() {
        return;
    }
    let Some(lab) = lab else { return };
    // A few frames for the layout and the fit to settle, the clock held meanwhile.
    virt.pause();
    *frames += 1;
    if view.rect_known && !view.fit_pending && *frames > 5 {
        begin(&mut clip, &lab, &mut virt, true);
    }
}

fn begin(clip: &mut ClipRecorder, lab: &Lab, virt: &mut Time<Virtual>, resume: bool) {
    let t = lab.time();
    clip.shown = lab.shown();
    clip.frames.clear();
    clip.crop = None;
    clip.start = t;
    clip.recording = true;
    // The first frame is the state shown now (a script holds the clock for it).
    if clip.scripted {
        clip.holding = true;
        clip.resume = resume;
        virt.pause();
    }
}

#[allow(clippy::too_many_arguments)]
fn apply_actions(
    mut actions: MessageReader<ClipAction>,
    mut clip: ResMut<ClipRecorder>,
    lab: Option<Res<Lab>>,
    mut virt: ResMut<Time<Virtual>>,
    mut fixed: ResMut<Time<Fixed>>,
    out: Res<OutputDir>,
    mut status: ResMut<Status>,
    real: Res<Time<Real>>,
) {
    for action in actions.read() {
        let now = real.elapsed_secs_f64();
        match action {
            ClipAction::Toggle if clip.encoding.is_some() => {
                status.say(now, "A clip is being encoded: wait for it to finish");
            }
            ClipAction::Toggle if clip.recording => {
                if clip.holding {
                    clip.holding = false;
                    if clip.resume {
                        virt.unpause();
                    }
                }
                // The clock goes on from the instant shown: no backlog of the
                // frames the capture held it for.
                fixed.discard_overstep(Duration::MAX);
                if let Err(e) = finish(&mut clip, &out) {
                    status.warn(now, format!("The clip was not written: {e}"));
                }
            }
            ClipAction::Toggle => {
                let Some(lab) = &lab else { continue };
                let was_paused = virt.is_paused();
                begin(&mut clip, lab, &mut virt, !was_paused);
                let what = if clip.area == ClipArea::View { "the world view" } else { "the window" };
                let hint = if was_paused { " (paused: Space plays)" } else { "" };
                status.say(
                    now,
                    format!("Recording {what} at {} frames per simulated second: V stops{hint}", clip.rate()),
                );
            }
        }
    }
}

/// After a step: when the simulated time has reached the next frame's, hold
/// the clock (and the rest of this frame's steps) for a capture.
fn hold_for_frame(
    mut clip: ResMut<ClipRecorder>,
    lab: Option<Res<Lab>>,
    mut virt: ResMut<Time<Virtual>>,
    mut fixed: ResMut<Time<Fixed>>,
) {
    let Some(lab) = lab else { return };
    if clip.scripted && clip.recording && !clip.holding && lab.time() >= clip.next_time() - 1e-9 {
        clip.holding = true;
        clip.resume = true;
        virt.pause();
        fixed.discard_overstep(Duration::MAX);
    }
}

/// Captures the window while the clock is held (a script), or as it is drawn
/// once the next frame's time has passed (a user); the observer crops the
/// frame, keeps it at its time and lets a held clock go on.
fn capture(mut commands: Commands, mut clip: ResMut<ClipRecorder>, lab: Option<Res<Lab>>) {
    if !clip.recording || clip.requested {
        return;
    }
    let t = lab.map_or(clip.start, |l| l.time());
    let due = if clip.scripted { clip.holding } else { clip.frames.is_empty() || t >= clip.next_time() - 1e-9 };
    if !due {
        return;
    }
    clip.asked_at = t;
    clip.requested = true;
    commands.spawn(Screenshot::primary_window()).observe(
        |captured: On<ScreenshotCaptured>,
         mut clip: ResMut<ClipRecorder>,
         view: Res<ViewTransform>,
         mut virt: ResMut<Time<Virtual>>,
         mut status: ResMut<Status>,
         real: Res<Time<Real>>,
         out: Res<OutputDir>| {
            clip.requested = false;
            if !clip.recording {
                return;
            }
            if clip.holding {
                clip.holding = false;
                if clip.resume {
                    virt.unpause();
                }
            }
            let Ok(img) = captured.image.clone().try_into_dynamic() else {
                status.warn(real.elapsed_secs_f64(), "A clip frame could not be read: recording stopped");
                clip.recording = false;
                return;
            };
            let img = img.to_rgba8();
            let area = clip.area;
            let crop = *clip.crop.get_or_insert_with(|| {
                let c = crop_of(area, &view, img.width(), img.height());
                info!("clip: {}x{}+{}+{} px of the window", c.width(), c.height(), c.min.x, c.min.y);
                c
            });
            // Its time in the clip as it plays: the k-th of a script's, or the
            // simulated time it was asked at.
            let at = if clip.scripted {
                clip.frames.len() as f64 / clip.fps
            } else {
                (clip.asked_at - clip.start) * clip.slow
            };
            clip.frames.push(cut(&img, crop, at));
            if clip.wanted().is_some_and(|n| clip.frames.len() >= n)
                && let Err(e) = finish(&mut clip, &out)
            {
                status.warn(real.elapsed_secs_f64(), format!("The clip was not written: {e}"));
            }
        },
    );
}

/// The pixels to keep: the world view's rectangle (logical px are physical
/// ones: the window's scale factor is 1), or the whole window.
fn crop_of(area: ClipArea, view: &ViewTransform, w: u32, h: u32) -> URect {
    match area {
        ClipArea::Window => URect::new(0, 0, w, h),
        ClipArea::View => {
            let r = view.rect;
            let x0 = (r.min.x.max(0.0) as u32).min(w.saturating_sub(1));
            let y0 = (r.min.y.max(0.0) as u32).min(h.saturating_sub(1));
            let x1 = (r.max.x.max(0.0) as u32).clamp(x0 + 1, w.max(x0 + 1));
            let y1 = (r.max.y.max(0.0) as u32).clamp(y0 + 1, h.max(y0 + 1));
            URect::new(x0, y0, x1, y1)
        }
    }
}

/// `img` cut to `crop` (padded with black where the window has shrunk
/// since), shown at `at` seconds into the clip.
fn cut(img: &image::RgbaImage, crop: URect, at: f64) -> gif::Frame {
    let (w, h) = (crop.width(), crop.height());
    let mut rgba = Vec::with_capacity((4 * w * h) as usize);
    for y in crop.min.y..crop.max.y {
        for x in crop.min.x..crop.max.x {
            let p = img.get_pixel_checked(x, y).map_or([0, 0, 0, 255], |p| p.0);
            rgba.extend_from_slice(&[p[0], p[1], p[2], 255]);
        }
    }
    gif::Frame { width: w, height: h, rgba, at }
}

/// Stops recording and starts encoding what was taken.
fn finish(clip: &mut ClipRecorder, out: &OutputDir) -> Result<(), String> {
    clip.recording = false;
    let frames = std::mem::take(&mut clip.frames);
    if frames.is_empty() {
        return Ok(());
    }
    let path = match clip.path.clone() {
        Some(p) => p,
        None => out.fresh(&clip.shown, "gif")?,
    };
    let done = Arc::new(AtomicUsize::new(0));
    let (tx, rx) = mpsc::channel();
    let (fps, counter, out) = (clip.fps, done.clone(), path.clone());
    let total = frames.len();
    let play = frames.last().map_or(0.0, |f| f.at + 1.0 / clip.fps);
    std::thread::Builder::new()
        .name("contact-lab clip".into())
        .spawn(move || {
            let result = std::fs::File::create(&out)
                .map_err(|e| format!("cannot write {}: {e}", out.display()))
                .and_then(|f| gif::encode(&frames, fps, std::io::BufWriter::new(f), &counter));
            let _ = tx.send(result);
        })
        .ok();
    clip.encoding = Some(Encoding { done, total, play, path, started: Instant::now(), result: Mutex::new(rx) });
    Ok(())
}

/// While a clip is taken or encoded (on a thread, one core of two), frames are
/// slow: each advances the clock by at most a 30 Hz frame's time, so the run
/// goes on from where the clip left it instead of jumping to catch up.
fn steady_clock(clip: Res<ClipRecorder>, mut virt: ResMut<Time<Virtual>>) {
    // A user's recording keeps the run's own pace (module docs).
    let max = if clip.scripted && (clip.recording || clip.encoding.is_some()) { STEADY_FRAME } else { MAX_FRAME_DEBT };
    if virt.max_delta() != max {
        virt.set_max_delta(max);
    }
}

/// `--record`: the clock stopped by something other than a capture (a
/// pause at a time, a step that could not be solved) for
/// [`STALLED_FRAMES`] frames cannot reach the clip's duration: say why and
/// quit with an error, instead of waiting for ever.
fn stalled(
    clip: Res<ClipRecorder>,
    virt: Res<Time<Virtual>>,
    lab: Option<Res<Lab>>,
    status: Res<Status>,
    mut frames: Local<u32>,
    mut exit: MessageWriter<AppExit>,
) {
    if !(clip.scripted && clip.recording && !clip.holding && !clip.requested && virt.is_paused()) {
        *frames = 0;
        return;
    }
    *frames += 1;
    if *frames == STALLED_FRAMES {
        let t = lab.map_or(0.0, |l| l.time());
        eprintln!(
            "contact-lab: the clip cannot reach its duration: the clock stopped at t = {t} s after {} of {} frames ({})",
            clip.frames(),
            clip.wanted().unwrap_or(0),
            if status.text.is_empty() { "no cause given" } else { status.text.as_str() }
        );
        exit.write(AppExit::error());
    }
}

/// Frames the clock may stand still during a `--record` before it is a stall.
const STALLED_FRAMES: u32 = 120;

/// The most a frame advances the clock while a clip is under way.
const STEADY_FRAME: Duration = Duration::from_micros(33_333);

/// Says when the clip is written (and quits after `--record`).
fn poll_encoding(
    mut clip: ResMut<ClipRecorder>,
    mut status: ResMut<Status>,
    real: Res<Time<Real>>,
    mut exit: MessageWriter<AppExit>,
) {
    let Some(enc) = clip.encoding.as_mut() else { return };
    let polled = enc.result.get_mut().map(|rx| rx.try_recv()).unwrap_or(Err(TryRecvError::Disconnected));
    let result = match polled {
        Ok(r) => r,
        Err(TryRecvError::Empty) => return,
        Err(TryRecvError::Disconnected) => Err("the encoder stopped without a word".into()),
    };
    let now = real.elapsed_secs_f64();
    let enc = clip.encoding.take().expect("polled above");
    let secs = enc.started.elapsed().as_secs_f64();
    let ok = result.is_ok();
    match result {
        Ok(bytes) => {
            let msg = format!(
                "Clip saved to {}: {} frames, {:.2} s of play at up to {} fps ({:.3} s simulated), {:.2} MB, encoded in {secs:.1} s",
                enc.path.display(),
                enc.total,
                enc.play,
                clip.fps,
                enc.play / clip.slow,
                bytes as f64 / 1e6
            );
            if clip.scripted {
                println!("contact-lab: {msg}");
            }
            status.say(now, msg);
        }
        Err(e) => {
            if clip.scripted {
                eprintln!("contact-lab: the clip was not written: {e}");
            }
            status.warn(now, format!("The clip was not written: {e}"));
        }
    }
    if clip.scripted {
        exit.write(if ok { AppExit::Success } else { AppExit::error() });
    }
}
