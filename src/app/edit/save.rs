//! Saving: `Ctrl+S` outside edit mode (the running scene's start as its file
//! has it, or the editor's own scene), and the save dialog's file written
//! with the settings in force, under its own name and a true description.

use std::path::Path;

use bevy::prelude::*;
use contact_core::scene::{Edits, SceneDoc};

use super::refusal::refusal;
use super::{Editor, Leave, Saved};
use crate::app::lab::{Lab, Status};

/// `Ctrl+S` outside edit mode: the running scene's start as its file has it
/// (the settings in force are written at [`save_as`]), or the editor's own
/// scene (no file); the panels then open the save dialog.
pub(super) fn running(
    ed: &mut Editor,
    lab: &Lab,
    in_force: &impl Fn(SceneDoc) -> SceneDoc,
    status: &mut Status,
    now: f64,
) {
    match (&lab.scene.path, &ed.doc) {
        (Some(path), _) => match SceneDoc::load(path) {
            Ok(doc) => {
                ed.source = (doc.file.name.clone(), doc.file.description.clone());
                ed.source_file = Some(path.clone());
                ed.doc = Some(in_force(doc));
                ed.edits = Edits::default();
                ed.dirty = false;
                ed.save_requested = true;
                status.say(
                    now,
                    format!(
                        "Save the scene as…: its start, with the algorithm ({}), τ and h in force",
                        lab.world.settings.algorithm.label()
                    ),
                );
            }
            Err(e) => status.warn(now, format!("Cannot save this scene: {e}")),
        },
        (None, Some(_)) => ed.save_requested = true,
        (None, None) => status.say(now, "Ctrl+S saves a scene: E edits it first"),
    }
}

/// Writes the document to `path` with the settings in force, and leaves
/// edit mode. What waited for the save (quitting, another scene) is
/// returned to be done; with nothing waiting, [`Saved`] is sent.
pub(super) fn save_as(
    ed: &mut Editor,
    path: &Path,
    in_force: &impl Fn(SceneDoc) -> SceneDoc,
    origin: &str,
    saved: &mut MessageWriter<Saved>,
    status: &mut Status,
    now: f64,
) -> Option<Leave> {
    let doc = ed.doc.as_ref()?;
    // The settings in force, not those the document was opened with.
    let doc = in_force(doc.clone());
    // Its own name and a true description (see `SceneDoc::titled_for`).
    let doc = match doc.check(origin) {
        Ok(scene) => doc.titled_for(path, (&ed.source.0, &ed.source.1), &scene),
        Err(_) => doc.clone(),
    };
    match doc.save(path) {
        Ok(_) => {
            status.say(now, format!("Saved to {}", path.display()));
            ed.on = false;
            ed.doc = None;
            ed.dirty = false;
            let after = ed.after_save.take();
            if after.is_none() {
                saved.write(Saved(path.to_path_buf()));
            }
            after
        }
        Err(e) => {
            ed.error = Some(refusal(&e));
            status.warn(now, format!("Not saved: {e}"));
            None
        }
    }
}
