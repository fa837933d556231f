//! The desktop lab (Bevy): one plugin per concern, grouped in [`LabPlugins`],
//! in three layers. Imports point down; sideways within a layer only where
//! the table says (a feature reading another's resource or constant);
//! features order themselves by the public sets of [`lab::sets`] and react to
//! messages and events of [`lab::messages`], never to each other's functions.
//!
//! | layer   | module          | owns                                                         | may import |
//! |---------|-----------------|--------------------------------------------------------------|------------|
//! | bottom  | [`lab`]         | the shared vocabulary: `Lab`, settings, components, messages (`LabAction`, `StateJumped`, `Restored`, `Status`), the system sets, what a frame shares (view, pointer, input claims, interpolation, highlight, look, drags), colours, geometry, series names, number format; [`lab::LabPlugin`] | the core |
//! | feature | [`physics`]     | the fixed step (gather, `World::step`, writeback) and the physics budget | `lab`, `compare` (its lanes step beside the lab's) |
//! | feature | [`history`]     | the series the plots borrow                                   | `lab` |
//! | feature | [`timeline`]    | the snapshot ring, restores (triggers `Restored`), the event log | `lab` |
//! | feature | [`inputs`]      | the input log (springs, forces, settings) for replay          | `lab` |
//! | feature | [`scene`]       | scene files as Bevy assets, hot reload                        | `lab`, `edit` (unsaved edits wait for an answer) |
//! | feature | [`view`]        | camera, world ↔ screen, pan, zoom, follow                     | `lab` |
//! | feature | [`render`]      | meshes, the world's gizmos, trails and flashes                | `lab` |
//! | feature | [`drag`]        | mouse springs, force tips, pan                                | `lab` |
//! | feature | [`cue`]         | the cue shot (K), a tool that claims the pointer              | `lab` |
//! | feature | [`compare`]     | compare mode: one lane per method (scheme, algorithm), in lockstep | `lab` |
//! | feature | [`tour`]        | the guided tour (T, `--tour`)                                 | `lab`, `edit` (unsaved edits wait for an answer) |
//! | feature | [`screenshot`]  | F12, `--screenshot`, `--pause-at`, `--dump-state`             | `lab` |
//! | feature | [`clip`]        | V, `--record`: animated GIFs at a fixed simulated frame rate  | `lab`, `physics` (its frame debt) |
//! | feature | [`edit`]        | E: edit mode, its tools, undo, Save as (a [`contact_core::scene::SceneDoc`]) | `lab` |
//! | top     | [`control`]     | keys → [`lab::LabAction`]s, the one dispatcher                | features, `lab` |
//! | top     | [`ui`]          | the egui panels (each reads [`ui::data`], never another panel) | features, `lab` |
//! | top     | [`layout_sweep`] | `--layout-sweep`: every scene in every mode at one size, checked | features, `ui`, `lab` |
//!
//! `../shared/tools/import-circles` (from the repository root) checks that no
//! files import each other in a circle.

pub mod clip;
pub mod compare;
pub mod control;
pub mod cue;
pub mod drag;
pub mod edit;
pub mod history;
pub mod inputs;
pub mod lab;
pub mod layout_sweep;
pub mod physics;
pub mod render;
pub mod scene;
pub mod screenshot;
mod system_allocator;
pub mod timeline;
pub mod tour;
pub mod ui;
pub mod view;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use bevy::app::PluginGroupBuilder;
use bevy::prelude::*;
use bevy::window::WindowResolution;
use contact_core::Algorithm;
use contact_core::scene::Overrides;

/// Options of the desktop app.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct AppOptions {
    /// Scene file to open (default: assets/scenes/wedge.ron).
    pub scene: Option<PathBuf>,
    /// Save a screenshot (PNG) to FILE after `--frames` frames, then quit.
    #[arg(long, value_name = "FILE")]
    pub screenshot: Option<PathBuf>,
    /// Frames to render before the scripted screenshot, or before quitting (default 120 with --screenshot).
    #[arg(long, value_name = "N")]
    pub frames: Option<u32>,
    /// Open paused at t = 0, whatever the scene's `opening` says.
    #[arg(long, conflicts_with = "play")]
    pub paused: bool,
    /// Open playing, whatever the scene's `opening` says (scripts).
    #[arg(long)]
    pub play: bool,
    /// Time shown by the plots: SECONDS (e.g. 0.02 for the paper's figure 2) or `all` (default: the scene's, or 2).
    #[arg(long, value_name = "SECONDS|all", value_parser = parse_plot_window)]
    pub plot_window: Option<ui::data::Window>,
    /// Play, and pause when the simulated time reaches T seconds (a scripted
    /// screenshot waits for it).
    #[arg(long, value_name = "T", value_parser = parse_time)]
    pub pause_at: Option<f64>,
    /// Simulation speed relative to real time, 0.01 to 4 (default: the scene's, or 1).
    #[arg(long, value_name = "X", value_parser = parse_speed)]
    pub speed: Option<f64>,
    /// Algorithm to start with (platt, platt-improved, right, exact; default: the scene's).
    #[arg(long, value_name = "NAME", value_parser = parse_algorithm)]
    pub algorithm: Option<Algorithm>,
    /// How contact is stepped (default: the scene's): `event-driven` (the
    /// paper's rewinds, where the algorithm applies) or `time-stepping`
    /// (Moreau–Jean, one velocity problem a step, under Exact).
    #[arg(long, value_name = "NAME", value_parser = parse_scheme)]
    pub scheme: Option<contact_core::Scheme>,
    /// Number of balls of a scene with a `ball_pile`.
    #[arg(long, value_name = "N")]
    pub balls: Option<usize>,
    /// Time step h in seconds, 1e-5 to 0.05 (default: the scene's
    /// `solver.dt`): `--balls 300 --dt 0.004` opens a large pile at real
    /// time, as the status bar's "Use h = 4 ms" does.
    #[arg(long, value_name = "H", value_parser = parse_step, allow_negative_numbers = true)]
    pub dt: Option<f64>,
    /// Window size in logical pixels, WIDTHxHEIGHT (default 1600x900, made
    /// smaller to fit a smaller screen).
    #[arg(long, value_name = "WxH", value_parser = parse_size)]
    pub size: Option<(u32, u32)>,
    /// Check the scripted screenshot against the view's world → screen mapping:
    /// each body in view shows its colour at its projected centre, edge markers
    /// only for bodies off the view (the run fails otherwise).
    #[arg(long)]
    pub check_view: bool,
    /// Write every body's position to FILE when the app quits (one `name x y` line each).
    #[arg(long, value_name = "FILE")]
    pub dump_state: Option<PathBuf>,
    /// Start in compare mode: one lane per method (each algorithm, and time-stepping) from the scene's start (C toggles).
    #[arg(long)]
    pub compare: bool,
    /// Presenter mode: large fonts, the scene, the algorithm switcher and one
    /// plot, the algorithm and the handled set large over the world (F5 toggles).
    #[arg(long)]
    pub present: bool,
    /// Open the guided tour at its first step (its scene replaces SCENE): `--tour`
    /// for the paper's (assets/tours/paper.ron), `--tour=FILE` for your own.
    #[arg(long, value_name = "FILE", num_args = 0..=1, require_equals = true)]
    pub tour: Option<Option<PathBuf>>,
    /// With `--tour`: open it at step N (1 for the first); a scripted
    /// screenshot then waits for the step's own pause.
    #[arg(long, value_name = "N", requires = "tour", value_parser = clap::value_parser!(u32).range(1..))]
    pub tour_step: Option<u32>,
    /// Record a clip (animated GIF) of the world view from the start for
    /// `--duration` simulated seconds, write it to FILE and quit (V in the app).
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
    /// Simulated seconds a `--record` clip lasts.
    #[arg(long, value_name = "S", value_parser = parse_time, default_value_t = 3.0, requires = "record")]
    pub duration: f64,
    /// Frames per second of a clip as it plays (1 to 60).
    #[arg(long, value_name = "N", value_parser = parse_fps, default_value_t = 30.0)]
    pub fps: f64,
    /// Slow motion: a clip plays N times slower than simulated time (1 to 1000;
    /// the paper's wedge does what matters in 20 ms: --slow 10 or more).
    #[arg(long, value_name = "N", value_parser = parse_slow, default_value_t = 1.0)]
    pub slow: f64,
    /// A clip shows the whole window (panels included), not only the world view.
    #[arg(long)]
    pub record_window: bool,
    /// Lay out every built-in scene in every mode (normal, presenter,
    /// compare, edit, each tour step) at eight window sizes from 800x600 to
    /// 3840x2160, a few frames each, playing; fail on a panic or a view
    /// squeezed below its share (`sample`: four scenes, the tour at the
    /// smallest and largest size; `all`: everything), then quit.
    #[arg(long, value_name = "sample|all")]
    pub layout_sweep: Option<String>,
}

impl AppOptions {
    /// The command line's say over how the first scene opens: `--paused`,
    /// `--play`, `--speed`, `--pause-at` (which plays up to its time).
    fn open_first(&self, opening: &mut contact_core::scene::Opening) {
        if let Some(t) = self.pause_at {
            opening.pause_at = Some(t);
            opening.paused = false;
        }
        if self.play || self.record.is_some() {
            opening.paused = false;
        }
        if self.paused {
            opening.paused = true;
        }
        if let Some(s) = self.speed {
            opening.speed = s;
        }
        match self.plot_window {
            Some(ui::data::Window::Seconds(w)) => opening.plot_window = Some(w),
            Some(ui::data::Window::All) => opening.plot_window = Some(f64::INFINITY),
            None => {}
        }
        // A scripted clip plays the scene through: its frames are taken in
        // simulated time, so the opening's slow motion would only make it
        // long to wait for (the wedge's 0.02×: 50 s a second), and its pause
        // would stop the clock between two frames for good (issue 37).
        // `--slow` is the clip's slow motion, `--speed` the clock's.
        if self.record.is_some() {
            opening.paused = false;
            opening.pause_at = None;
            opening.speed = self.speed.unwrap_or(1.0);
        }
    }
}

fn parse_slow(s: &str) -> Result<f64, String> {
    let v: f64 = s.parse().map_err(|_| format!("bad slow-motion factor `{s}`"))?;
    if (1.0..=1000.0).contains(&v) { Ok(v) } else { Err("the slow-motion factor must be between 1 and 1000".into()) }
}

fn parse_fps(s: &str) -> Result<f64, String> {
    let v: f64 = s.parse().map_err(|_| format!("bad frame rate `{s}`"))?;
    if (1.0..=60.0).contains(&v) { Ok(v) } else { Err("the frame rate must be between 1 and 60".into()) }
}

fn parse_algorithm(s: &str) -> Result<Algorithm, String> {
    Algorithm::ALL.into_iter().find(|a| a.cli_name() == s).ok_or_else(|| {
        let names: Vec<&str> = Algorithm::ALL.iter().map(|a| a.cli_name()).collect();
        format!("unknown algorithm `{s}` (one of {})", names.join(", "))
    })
}

fn parse_scheme(s: &str) -> Result<contact_core::Scheme, String> {
    contact_core::Scheme::parse(s).ok_or_else(|| format!("unknown scheme `{s}` (event-driven or time-stepping)"))
}

fn parse_plot_window(s: &str) -> Result<ui::data::Window, String> {
    if s == "all" {
        return Ok(ui::data::Window::All);
    }
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 => Ok(ui::data::Window::Seconds(v)),
        _ => Err(format!("bad plot window `{s}`: a positive number of seconds, or `all`")),
    }
}

fn parse_time(s: &str) -> Result<f64, String> {
    let v: f64 = s.parse().map_err(|_| format!("bad time `{s}`"))?;
    if v.is_finite() && v >= 0.0 { Ok(v) } else { Err("the time must be a number of seconds, 0 or more".into()) }
}

/// The step's range is the controls' step slider's.
fn parse_step(s: &str) -> Result<f64, String> {
    let v: f64 = s.parse().map_err(|_| format!("bad time step `{s}`"))?;
    let range = lab::StepSettings::H_RANGE;
    if range.contains(&v) {
        Ok(v)
    } else {
        Err(format!("the time step must be between {:e} and {} s", range.start(), range.end()))
    }
}

fn parse_speed(s: &str) -> Result<f64, String> {
    let v: f64 = s.parse().map_err(|_| format!("bad speed `{s}`"))?;
    if (0.01..=4.0).contains(&v) { Ok(v) } else { Err("the speed must be between 0.01 and 4".into()) }
}

/// The command line's scene, which did not load (see [`run`]).
#[derive(Resource)]
struct BrokenFirst(Option<PathBuf>);

/// Opens [`BrokenFirst`] a few frames in, after the default scene's install
/// has settled which file is watched.
fn open_broken_first(
    mut first: ResMut<BrokenFirst>,
    mut open: MessageWriter<scene::OpenScene>,
    mut files: ResMut<scene::SceneFiles>,
    mut frames: Local<u32>,
) {
    *frames += 1;
    if *frames >= 3
        && let Some(p) = first.0.take()
    {
        // The default scene runs in its place: the banner says so.
        files.instead = true;
        open.write(scene::OpenScene(p));
    }
}

/// The window's size when `--size` is not given (logical px).
const DEFAULT_SIZE: (u32, u32) = (1600, 900);

/// Without `--size`: a window larger than 90 % of its screen (a laptop at
/// 1366×768, a projector at 1280×720 or 1024×768) is made to fit, each
/// side to 90 % of the screen's, once, when the screen is known.
fn fit_to_screen(
    monitors: Query<&bevy::window::Monitor>,
    mut windows: Query<&mut Window, With<bevy::window::PrimaryWindow>>,
    mut done: Local<bool>,
) {
    if *done {
        return;
    }
    let Some(m) = monitors.iter().next() else { return };
    let Ok(mut window) = windows.single_mut() else { return };
    *done = true;
    let scale = m.scale_factor.max(0.5);
    let (sw, sh) = (m.physical_width as f64 / scale, m.physical_height as f64 / scale);
    let (w, h) = (DEFAULT_SIZE.0 as f64, DEFAULT_SIZE.1 as f64);
    // Each side on its own: a 4:3 projector (1024x768) gets 921x691, not a
    // 16:9 strip of 921x518 whose view was 135 px high.
    let (fw, fh) = ((0.9 * sw).min(w), (0.9 * sh).min(h));
    if fw < w || fh < h {
        let (w, h) = (fw.max(640.0) as f32, fh.max(400.0) as f32);
        window.resolution.set(w, h);
        info!("window: {w:.0}x{h:.0} to fit a screen of {sw:.0}x{sh:.0}");
    }
}

fn parse_size(s: &str) -> Result<(u32, u32), String> {
    let (w, h) = s.split_once(['x', 'X']).ok_or("expected WIDTHxHEIGHT, e.g. 1600x900")?;
    let w: u32 = w.trim().parse().map_err(|_| format!("bad width `{w}`"))?;
    let h: u32 = h.trim().parse().map_err(|_| format!("bad height `{h}`"))?;
    if w < 640 || h < 400 {
        return Err("the window must be at least 640x400".into());
    }
    Ok((w, h))
}

/// The lab's plugins, in the order they depend on each other.
#[derive(Default)]
pub struct LabPlugins {
    pub options: AppOptions,
    pub assets: PathBuf,
}

impl PluginGroup for LabPlugins {
    fn build(self) -> PluginGroupBuilder {
        let o = &self.options;
        let script = screenshot::Script {
            frames: o.frames.or(o.screenshot.as_ref().map(|_| 120)),
            screenshot: o.screenshot.clone(),
            wait_for_pause: o.pause_at.is_some() || o.tour_step.is_some(),
            check_view: o.check_view,
            ..default()
        };
        PluginGroupBuilder::start::<Self>()
            .add(lab::LabPlugin)
            .add(physics::PhysicsPlugin)
            .add(control::ControlPlugin)
            .add(history::HistoryPlugin)
            .add(timeline::TimelinePlugin)
            .add(scene::ScenePlugin {
                assets: self.assets.clone(),
                overrides: Overrides { balls: o.balls, ..Default::default() },
            })
            .add(view::ViewPlugin)
            .add(render::WorldRenderPlugin)
            .add(drag::DragPlugin)
            .add(cue::CuePlugin)
            .add(inputs::InputsPlugin)
            .add(compare::ComparePlugin { start: o.compare })
            .add(ui::UiPlugin { present: o.present })
            .add(ui::shortcut_keys::ShortcutKeysPlugin)
            .add(screenshot::ScreenshotPlugin { script, dump_state: o.dump_state.clone() })
            .add(edit::EditPlugin)
            .add(clip::ClipPlugin {
                options: clip::ClipOptions {
                    record: o.record.clone(),
                    duration: o.duration,
                    fps: o.fps,
                    slow: o.slow,
                    window: o.record_window,
                },
            })
            .add(tour::TourPlugin {
                path: o.tour.clone().flatten().unwrap_or_else(|| self.assets.join("tours").join("paper.ron")),
                start: o.tour.is_some().then(|| o.tour_step.map_or(0, |n| n as usize - 1)),
            })
    }
}

/// The `assets/` directory: `$CONTACT_LAB_ASSETS`, `./assets`, beside the
/// executable, or the source tree's.
pub fn assets_dir() -> PathBuf {
    if let Some(p) = std::env::var_os("CONTACT_LAB_ASSETS") {
        return PathBuf::from(p);
    }
    let mut candidates = vec![PathBuf::from("assets")];
    if let Ok(exe) = std::env::current_exe()
        && let Some(dir) = exe.parent()
    {
        candidates.push(dir.join("assets"));
    }
    candidates.push(Path::new(env!("CARGO_MANIFEST_DIR")).join("assets"));
    let found = candidates.iter().find(|c| c.join("scenes").is_dir()).cloned();
    let dir = found.unwrap_or_else(|| candidates.pop().unwrap_or_else(|| PathBuf::from("assets")));
    std::path::absolute(&dir).unwrap_or(dir)
}

/// Opens the lab window.
pub fn run(opts: AppOptions) -> ExitCode {
    system_allocator::keep_freed_memory();
    let assets = assets_dir();
    let path = opts.scene.clone().unwrap_or_else(|| assets.join("scenes").join("wedge.ron"));
    let path = std::path::absolute(&path).unwrap_or(path);
    let overrides = Overrides { balls: opts.balls, ..Default::default() };
    // The first scene is read here. A broken file is an error on the terminal;
    // a window opened for a person opens anyway, on the default scene, with
    // the error shown and the file watched as a hot reload does: fixed, it
    // loads (issue 37). A scripted run (a screenshot, a clip, a state dump)
    // stops there instead.
    let scripted = opts.screenshot.is_some()
        || opts.record.is_some()
        || opts.dump_state.is_some()
        || opts.frames.is_some()
        || opts.layout_sweep.is_some();
    // The sweep's cases, read before the window opens: a bad word or an
    // unreadable folder is said on the terminal.
    let sweep = match opts.layout_sweep.as_deref() {
        None => None,
        Some(which) => {
            let steps = contact_core::scene::tour::load(&assets.join("tours").join("paper.ron"))
                .map(|t| t.steps.len())
                .unwrap_or(0);
            match layout_sweep::Sweep::new(which, &assets.join("scenes"), steps, opts.size.unwrap_or(DEFAULT_SIZE)) {
                Ok(s) => Some(s),
                Err(e) => {
                    eprintln!("error: {e}");
                    return ExitCode::FAILURE;
                }
            }
        }
    };
    let default_scene = assets.join("scenes").join("wedge.ron");
    let (mut first, path, broken) = match contact_core::scene::load(&path, &overrides) {
        Ok(s) => (s, path, None),
        Err(e) => {
            eprintln!("error: {e}");
            match contact_core::scene::load(&default_scene, &Overrides::default()) {
                Ok(s) if !scripted && path != default_scene => (s, default_scene, Some(path)),
                _ => return ExitCode::FAILURE,
            }
        }
    };
    if let Some(s) = opts.scheme {
        first.world.settings.scheme = s;
    }
    if let Some(h) = opts.dt {
        first.dt = h;
    }
    if let Some(a) = opts.algorithm {
        first.world.settings.algorithm = a;
    }
    // Time-stepping solves with Exact, whatever `--algorithm` said.
    if first.world.settings.scheme == contact_core::Scheme::TimeStepping {
        first.world.settings.algorithm = Algorithm::Exact;
    }
    opts.open_first(&mut first.opening);
    let (w, h) = opts.size.unwrap_or(DEFAULT_SIZE);
    let fit_screen = opts.size.is_none();
    let mut app = App::new();
    scene::register_sources(&mut app);
    app.add_plugins(
        DefaultPlugins
            .set(WindowPlugin {
                primary_window: Some(Window {
                    title: format!("contact-lab — {}", first.name),
                    resolution: WindowResolution::new(w, h).with_scale_factor_override(1.0),
                    ..default()
                }),
                // The close button quits as Ctrl+Q does, asking first when
                // edits are unsaved (`edit::leave::close_requested`).
                close_when_requested: false,
                ..default()
            })
            .set(AssetPlugin {
                file_path: assets.display().to_string(),
                watch_for_changes_override: Some(true),
                ..default()
            }),
    )
    .add_plugins(bevy_egui::EguiPlugin::default())
    // egui draws through a camera of its own, over the whole window; the world
    // camera draws only the free rectangle (`view::spawn_cameras`).
    .insert_resource(bevy_egui::EguiGlobalSettings { auto_create_primary_context: false, ..default() })
    .add_plugins(LabPlugins { options: opts, assets })
    .add_systems(Update, edit::leave::close_requested.before(control::apply_actions));
    if fit_screen && sweep.is_none() {
        app.add_systems(Update, fit_to_screen);
    }
    if let Some(s) = sweep {
        app.insert_resource(s).add_systems(Update, layout_sweep::run_sweep);
    }
    lab::install_scene(app.world_mut(), first, Some(path));
    if let Some(p) = broken {
        // Opened as the picker opens a file, once the default scene is in:
        // it fails again, in the window, and its file is watched.
        app.insert_resource(BrokenFirst(Some(p))).add_systems(Update, open_broken_first);
    }
    match app.run() {
        AppExit::Success => ExitCode::SUCCESS,
        AppExit::Error(_) => ExitCode::FAILURE,
    }
}
