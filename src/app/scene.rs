//! Scene files through Bevy's asset system, hot-reloaded.
//!
//! `assets/scenes/*.ron` load from the default asset source, which Bevy watches
//! (`file_watcher`): saving a file reinstalls it. Any other file is read through a
//! `root://` source (the file system from `/`) and watched by polling its
//! modification time. The loader never fails on a bad scene: the asset carries
//! `Result<Scene, SceneError>`, and a broken file shows its error (file:line:col:
//! field: message) in the UI while the previous scene keeps running.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use bevy::asset::io::{AssetSource, AssetSourceBuilder, Reader};
use bevy::asset::{AssetLoadFailedEvent, AssetLoader, LoadContext};
use bevy::prelude::*;
use contact_core::scene::{self, Overrides, Scene, SceneError};

use super::edit::{Editor, Leave};
use super::lab::{InstallScene, InstallSceneSet, Lab, StateJumped, Status};

/// A scene file as loaded: the checked scene, or why it is not one.
#[derive(Asset, TypePath, Debug)]
pub struct SceneAsset {
    pub result: Result<Scene, SceneError>,
}

/// Reads `.ron` scene files with [`contact_core::scene::parse`].
#[derive(TypePath)]
pub struct SceneLoader {
    overrides: Overrides,
}

impl AssetLoader for SceneLoader {
    type Asset = SceneAsset;
    type Settings = ();
    type Error = std::io::Error;

    async fn load(
        &self,
        reader: &mut dyn Reader,
        _settings: &(),
        ctx: &mut LoadContext<'_>,
    ) -> Result<SceneAsset, std::io::Error> {
        let mut bytes = Vec::new();
        reader.read_to_end(&mut bytes).await?;
        let text = String::from_utf8_lossy(&bytes);
        let origin = display_origin(&ctx.path().to_string());
        Ok(SceneAsset { result: scene::parse(&text, &origin, &self.overrides) })
    }

    fn extensions(&self) -> &[&str] {
        &["ron"]
    }
}

/// `root://home/x.ron` → `/home/x.ron`; `scenes/w.ron` → `assets/scenes/w.ron`.
fn display_origin(p: &str) -> String {
    match p.strip_prefix("root://") {
        Some(rest) => format!("/{rest}"),
        None => format!("assets/{p}"),
    }
}

/// The scene files the app knows about.
#[derive(Resource, Debug)]
pub struct SceneFiles {
    /// The `assets/` directory (absolute).
    pub assets: PathBuf,
    /// The file of the running scene (or the one being opened).
    pub path: Option<PathBuf>,
    pub handle: Option<Handle<SceneAsset>>,
    /// The scene was installed before its asset arrived (the first one): skip one load.
    skip_first: bool,
    /// The last error, shown until a good file loads.
    pub error: Option<String>,
    /// The running scene is the default one, opened in place of a first
    /// file that did not load (no scene ran before it).
    pub instead: bool,
    /// `assets/scenes/*.ron`, refreshed when the picker opens.
    pub listing: Vec<PathBuf>,
    /// Modification time of a file outside `assets/` (polled for changes).
    external_mtime: Option<SystemTime>,
    poll_timer: f64,
}

pub use super::lab::OpenScene;

pub struct ScenePlugin {
    pub assets: PathBuf,
    pub overrides: Overrides,
}

impl Plugin for ScenePlugin {
    fn build(&self, app: &mut App) {
        let mut files = SceneFiles {
            assets: self.assets.clone(),
            path: None,
            handle: None,
            skip_first: false,
            error: None,
            instead: false,
            listing: Vec::new(),
            external_mtime: None,
            poll_timer: 0.0,
        };
        files.refresh_listing();
        app.init_asset::<SceneAsset>()
            .register_asset_loader(SceneLoader { overrides: self.overrides.clone() })
            .insert_resource(files)
            .add_message::<OpenScene>()
            .add_systems(
                PreUpdate,
                (
                    (open_requested, poll_external, install_loaded).chain().before(InstallSceneSet),
                    watch_installed_elsewhere.after(InstallSceneSet),
                ),
            );
    }
}

/// Registers the `root://` asset source (the whole file system, unwatched); must
/// run before `AssetPlugin` is added.
pub fn register_sources(app: &mut App) {
    app.register_asset_source("root", AssetSourceBuilder::new(AssetSource::get_default_reader("/".to_string())));
}

impl SceneFiles {
    pub fn refresh_listing(&mut self) {
        let dir = self.assets.join("scenes");
        let mut list: Vec<PathBuf> = std::fs::read_dir(&dir)
            .map(|rd| {
                rd.filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|p| p.extension().is_some_and(|x| x == "ron"))
                    .collect()
            })
            .unwrap_or_default();
        list.sort();
        self.listing = list;
    }

    /// The asset path of a file: relative to `assets/` when inside it, else `root://…`.
    pub fn asset_path(&self, file: &Path) -> (String, bool) {
        let abs = std::path::absolute(file).unwrap_or_else(|_| file.to_path_buf());
        match abs.strip_prefix(&self.assets) {
            Ok(rel) => (rel.to_string_lossy().replace('\\', "/"), true),
            Err(_) => (format!("root://{}", abs.to_string_lossy().trim_start_matches('/')), false),
        }
    }

    fn is_external(&self) -> bool {
        self.path.as_ref().is_some_and(|p| !self.asset_path(p).1)
    }
}

fn mtime(p: &Path) -> Option<SystemTime> {
    std::fs::metadata(p).and_then(|m| m.modified()).ok()
}

/// A scene read from a file outside the asset server was installed (the
/// command line's, a tour step's): watch its file too.
fn watch_installed_elsewhere(
    mut jumped: MessageReader<StateJumped>,
    lab: Option<Res<Lab>>,
    server: Res<AssetServer>,
    mut files: ResMut<SceneFiles>,
) {
    if !jumped.read().any(|j| j.new_scene) {
        return;
    }
    let Some(path) = lab.and_then(|l| l.scene.path.clone()) else { return };
    if files.path.as_ref() != Some(&path) {
        files.watch_installed(&server, path);
    }
}

impl SceneFiles {
    /// A scene read from `path` outside the asset server was installed: watch
    /// its file for hot reload, without installing it a second time when the
    /// asset arrives.
    pub fn watch_installed(&mut self, server: &AssetServer, path: PathBuf) {
        let (asset_path, _) = self.asset_path(&path);
        self.handle = Some(server.load(asset_path));
        self.external_mtime = mtime(&path);
        self.path = Some(path);
        self.error = None;
        self.skip_first = true;
    }
}

fn open_requested(
    mut requests: MessageReader<OpenScene>,
    server: Res<AssetServer>,
    mut files: ResMut<SceneFiles>,
    mut status: ResMut<Status>,
    real: Res<Time<Real>>,
    editor: Option<ResMut<Editor>>,
) {
    let Some(OpenScene(path)) = requests.read().last().cloned() else { return };
    let path = std::path::absolute(&path).unwrap_or(path);
    // Unsaved edits: asked first ("Discard" opens it then).
    if let Some(mut ed) = editor
        && ed.ask_before(Leave::Open(path.clone()), &mut status, real.elapsed_secs_f64())
    {
        return;
    }
    if !path.is_file() {
        let msg = format!("{}: no such scene file", path.display());
        files.error = Some(msg.clone());
        status.warn(real.elapsed_secs_f64(), msg);
        return;
    }
    let (asset_path, _) = files.asset_path(&path);
    let same = files.path.as_ref() == Some(&path);
    let handle: Handle<SceneAsset> = server.load(asset_path.clone());
    if same {
        // Opening the running file again reads it again.
        server.reload(asset_path);
    }
    files.handle = Some(handle);
    files.external_mtime = mtime(&path);
    files.path = Some(path.clone());
    files.skip_first = false;
    status.say(real.elapsed_secs_f64(), format!("Opening {}", path.display()));
}

/// Files outside `assets/` are not watched by Bevy: poll their modification time.
fn poll_external(real: Res<Time<Real>>, server: Res<AssetServer>, mut files: ResMut<SceneFiles>) {
    let now = real.elapsed_secs_f64();
    if now - files.poll_timer < 0.5 || !files.is_external() {
        return;
    }
    files.poll_timer = now;
    let Some(path) = files.path.clone() else { return };
    let m = mtime(&path);
    if m.is_some() && m != files.external_mtime {
        files.external_mtime = m;
        let (asset_path, _) = files.asset_path(&path);
        server.reload(asset_path);
    }
}

/// A scene asset arrived (first load or hot reload): install it, or show its error.
#[allow(clippy::too_many_arguments)]
fn install_loaded(
    mut events: MessageReader<AssetEvent<SceneAsset>>,
    mut failed: MessageReader<AssetLoadFailedEvent<SceneAsset>>,
    assets: Res<Assets<SceneAsset>>,
    mut files: ResMut<SceneFiles>,
    mut install: MessageWriter<InstallScene>,
    mut status: ResMut<Status>,
    real: Res<Time<Real>>,
    lab: Option<Res<Lab>>,
) {
    let now = real.elapsed_secs_f64();
    for f in failed.read() {
        if files.handle.as_ref().is_some_and(|h| h.id() == f.id) {
            let msg = format!("{}: {}", display_origin(&f.path.to_string()), f.error);
            files.error = Some(msg.clone());
            status.warn(now, msg);
        }
    }
    let Some(handle) = files.handle.clone() else { return };
    for ev in events.read() {
        let (id, modified) = match ev {
            AssetEvent::Added { id } => (*id, false),
            AssetEvent::Modified { id } => (*id, true),
            _ => continue,
        };
        if id != handle.id() {
            continue;
        }
        if files.skip_first && !modified {
            files.skip_first = false;
            // The command line already installed it; only report a difference.
            if let Some(Err(e)) = assets.get(id).map(|a| &a.result) {
                files.error = Some(e.to_string());
            }
            continue;
        }
        let Some(asset) = assets.get(id) else { continue };
        match &asset.result {
            Ok(scene) => {
                let running_same = lab.as_ref().and_then(|l| l.scene.path.as_ref()) == files.path.as_ref();
                install.write(InstallScene {
                    scene: Box::new(scene.clone()),
                    path: files.path.clone(),
                    keep_algorithm: modified && running_same,
                    // A file opened from the picker opens as it says; a hot
                    // reload keeps the user's clock.
                    open: !(modified && running_same),
                });
                files.error = None;
                files.instead = false;
                let what = if modified && running_same { "Reloaded" } else { "Opened" };
                status.say(
                    now,
                    format!(
                        "{what} {} — {}",
                        files.path.as_ref().map(|p| p.display().to_string()).unwrap_or_default(),
                        scene.name
                    ),
                );
            }
            Err(e) => {
                let msg = e.to_string();
                files.error = Some(msg.clone());
                let running = lab.as_ref().map(|l| l.scene.name.as_str());
                status.warn(now, format!("{} {msg}", not_loaded(running, files.instead)));
            }
        }
    }
}

/// The title of a scene file that did not load, saying what runs: the
/// scene that ran before (`running`, its name), or the default one opened
/// in its place at start-up (`instead`), or none.
pub fn not_loaded(running: Option<&str>, instead: bool) -> String {
    match running {
        Some(name) if instead => format!("Scene file not loaded — the default scene ({name}) runs in its place:"),
        Some(_) => "Scene file not loaded — the previous scene keeps running:".to_string(),
        None => "Scene file not loaded — no scene is running: pick one in the Scene panel.".to_string(),
    }
}
