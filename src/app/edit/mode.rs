//! Entering and leaving edit mode: on the scene's start (`E`, ✎ Edit), on
//! the state on screen ("Edit from here"), on a new scene (New), and back to
//! running the edited scene. Entering pauses the clock and installs the
//! document as it will be saved (the settings in force).

use bevy::prelude::*;
use contact_core::scene::{Edits, SceneDoc};

use super::{Editor, Leave, Tool};
use crate::app::lab::{InstallScene, Lab, Status};

/// What entering edit mode writes to: the scene installed, the clock paused, the status line.
pub(super) struct Io<'a, 'w> {
    pub install: &'a mut MessageWriter<'w, InstallScene>,
    pub virt: &'a mut Time<Virtual>,
    pub status: &'a mut Status,
    pub now: f64,
}

/// Leaves edit mode: the edited scene is ready to run.
pub(super) fn exit(ed: &mut Editor, virt: &Time<Virtual>, status: &mut Status, now: f64) {
    ed.on = false;
    ed.gesture = None;
    let text = "Edit mode left: the edited scene is ready to run";
    if virt.is_paused() { status.say_while_paused(now, format!("{text} (Space plays)")) } else { status.say(now, text) }
}

/// Enters edit mode on the scene's start, or `from_here` on the state on screen.
pub(super) fn enter(
    ed: &mut Editor,
    lab: &Lab,
    from_here: bool,
    in_force: &impl Fn(SceneDoc) -> SceneDoc,
    origin: &str,
    io: Io,
) {
    let Io { install, virt, status, now } = io;
    // The scene on screen: its file's, or, for a scene the editor
    // installed (it has no file), the document edited and not saved.
    let base = match (&lab.scene.path, &ed.doc) {
        (Some(path), _) => match SceneDoc::load(path) {
            Ok(doc) => doc,
            Err(e) => {
                status.warn(now, format!("Cannot edit this scene: {e}"));
                return;
            }
        },
        (None, Some(doc)) => doc.clone(),
        (None, None) => {
            status.warn(now, "Cannot edit this scene: it has no file");
            return;
        }
    };
    let doc = in_force(if from_here { base.from_world(&lab.world) } else { base });
    virt.pause();
    let scene = match doc.check(origin) {
        Ok(scene) => scene,
        Err(e) => {
            status.warn(now, format!("Cannot edit from here: {e}"));
            return;
        }
    };
    ed.on = true;
    ed.error = None;
    ed.gesture = None;
    ed.selected = None;
    install.write(InstallScene { scene: Box::new(scene), path: None, keep_algorithm: true, open: false });
    if from_here {
        let t = lab.world.state.t;
        status.say(now, format!("Editing from t = {t:.4} s: the state on screen is the start"));
    } else {
        status.say(now, "Edit mode: the scene's start (E leaves, Ctrl+Z undoes)");
    }
    if lab.scene.path.is_some() || ed.source.0.is_empty() {
        ed.source = (doc.file.name.clone(), doc.file.description.clone());
        ed.source_file = lab.scene.path.clone();
    }
    ed.doc = Some(doc);
    ed.edits = Edits::default();
    // A file's scene starts clean; "from here" is a start
    // no file has; the editor's own scene keeps its state.
    if from_here {
        ed.dirty = true;
    } else if lab.scene.path.is_some() {
        ed.dirty = false;
    }
}

/// Edits a new scene, empty or with a floor (asking first if edits are unsaved).
pub(super) fn new_scene(ed: &mut Editor, floor: bool, io: Io) {
    let Io { install, virt, status, now } = io;
    if ed.ask_before(Leave::New { floor }, status, now) {
        return;
    }
    let doc = SceneDoc::new_scene(floor);
    let Ok(scene) = doc.check("new scene") else {
        status.warn(now, "A new scene could not be made");
        return;
    };
    virt.pause();
    install.write(InstallScene { scene: Box::new(scene), path: None, keep_algorithm: false, open: true });
    ed.on = true;
    ed.error = None;
    ed.gesture = None;
    ed.selected = None;
    ed.source = (doc.file.name.clone(), doc.file.description.clone());
    ed.source_file = None;
    ed.doc = Some(doc);
    ed.edits = Edits::default();
    ed.dirty = false;
    ed.tool = Tool::BALL;
    let floor = if floor { " on a floor" } else { "" };
    status.say(now, format!("A new scene{floor}: click to place balls (B), Ctrl+S saves it"));
}
