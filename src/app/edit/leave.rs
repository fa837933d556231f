//! No work lost: quitting, or loading another scene, with unsaved edits asks
//! first ("Unsaved edits in NAME: Save… / Discard / Cancel", drawn by
//! `ui::editor::leave_dialog`).
//!
//! The editor's document is *unsaved* ([`Editor::unsaved`]) from a successful
//! edit, undo or redo (or "edit from here", a start no file has) until it is
//! saved; entering edit mode on a file's scene or making a new one starts
//! clean. What would drop it — Ctrl+Q and the window's close button, a scene
//! from the picker or the open field, a tour step, the editor's New — asks
//! [`Editor::ask_before`] first and waits for the answer
//! ([`EditAction::Answer`]):
//!
//! - **Save…**: the save dialog; once saved, what was asked is done (a
//!   cancelled dialog cancels it too);
//! - **Discard**: the edits are dropped and what was asked is done;
//! - **Cancel** (or Escape, or a click beside the dialog): nothing happens.
//!
//! A second Ctrl+Q while the question is asked for quitting quits.
//!
//! Reset all (Shift+R) and the status bar's "Reload with N balls" never drop
//! edits: the scene they install is the one running, which with unsaved edits
//! is the edited document's (the edits stay in the editor, and Save writes
//! them).

use std::path::PathBuf;

use bevy::prelude::*;
use bevy::window::WindowCloseRequested;

use super::{EditAction, Editor};
use crate::app::lab::{LabAction, Status};

/// What would drop unsaved edits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Leave {
    /// Ctrl+Q, the window's close button.
    Quit,
    /// A scene file from the picker or the open field.
    Open(PathBuf),
    /// Tour step `i` (from 0).
    Tour(usize),
    /// The editor's New (with a floor or empty).
    New { floor: bool },
}

impl Leave {
    /// What was asked, as the dialog says it ("Quitting drops them").
    pub fn doing(&self) -> String {
        match self {
            Leave::Quit => "Quitting".into(),
            Leave::Open(p) => {
                format!("Opening {}", p.file_name().map_or(p.display().to_string(), |n| n.to_string_lossy().into()))
            }
            Leave::Tour(i) => format!("Tour step {}", i + 1),
            Leave::New { .. } => "A new scene".into(),
        }
    }
}

/// The answer to "Unsaved edits in NAME".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LeaveChoice {
    /// Save them (the save dialog), then do what was asked.
    Save,
    /// Drop them and do what was asked.
    Discard,
    /// Do nothing.
    Cancel,
}

impl Editor {
    /// The edited document has changes no file has.
    pub fn unsaved(&self) -> bool {
        self.doc.is_some() && self.dirty
    }

    /// Whether `leave` must wait for an answer: with unsaved edits the
    /// question is asked (and said in the status line) and true is returned;
    /// a second quit while quitting is asked goes ahead. Without, edit mode
    /// ends here when another scene is about to be loaded.
    pub fn ask_before(&mut self, leave: Leave, status: &mut Status, now: f64) -> bool {
        if !self.unsaved() || (leave == Leave::Quit && self.leaving == Some(Leave::Quit)) {
            if leave != Leave::Quit {
                self.on = false;
                self.gesture = None;
            }
            return false;
        }
        let name = self.doc.as_ref().map_or(String::new(), |d| d.file.name.clone());
        let again = if leave == Leave::Quit { "; Ctrl+Q again quits without saving" } else { "" };
        status.warn(
            now,
            format!("Unsaved edits in {name}: Save…, Discard or Cancel ({} drops them{again})", leave.doing()),
        );
        self.leaving = Some(leave);
        self.after_save = None;
        true
    }

    /// The answer to "Unsaved edits in NAME": what was asked, to be done now
    /// (Discard); Save opens the save dialog first, Cancel keeps the edits.
    pub(super) fn answer(&mut self, choice: LeaveChoice, status: &mut Status, now: f64) -> Option<Leave> {
        let leave = self.leaving.take()?;
        match choice {
            LeaveChoice::Cancel => {
                status.say(now, format!("{}: cancelled, the edits are kept", leave.doing()));
                None
            }
            LeaveChoice::Save => {
                self.after_save = Some(leave);
                self.save_requested = self.doc.is_some();
                None
            }
            LeaveChoice::Discard => {
                self.dirty = false;
                self.on = false;
                self.gesture = None;
                status.say(now, format!("Edits discarded: {}", leave.doing().to_lowercase()));
                Some(leave)
            }
        }
    }
}

/// [`Editor::ask_before`] for a system with the whole world (`control`'s Quit):
/// false when there is no editor.
pub fn ask_before(world: &mut World, leave: Leave, now: f64) -> bool {
    if !world.contains_resource::<Editor>() || !world.contains_resource::<Status>() {
        return false;
    }
    world.resource_scope(|world, mut editor: Mut<Editor>| {
        editor.ask_before(leave, &mut world.resource_mut::<Status>(), now)
    })
}

/// The window's close button quits as Ctrl+Q does: asking first when edits
/// are unsaved (the window plugin's `close_when_requested` is off).
pub fn close_requested(mut requests: MessageReader<WindowCloseRequested>, mut actions: MessageWriter<LabAction>) {
    if requests.read().count() > 0 {
        actions.write(LabAction::Quit);
    }
}

/// Does what was asked once the edits are saved or dropped. A New is done
/// by the caller (it is an [`EditAction`] of the same frame).
pub(super) fn proceed(
    leave: Leave,
    lab_actions: &mut MessageWriter<LabAction>,
    open: Option<&mut Messages<crate::app::lab::OpenScene>>,
    tour: Option<&mut Messages<crate::app::lab::TourAction>>,
) -> Option<EditAction> {
    match leave {
        Leave::Quit => {
            lab_actions.write(LabAction::Quit);
        }
        Leave::Open(p) => {
            if let Some(open) = open {
                open.write(crate::app::lab::OpenScene(p));
            }
        }
        Leave::Tour(i) => {
            if let Some(tour) = tour {
                tour.write(crate::app::lab::TourAction::Go(i));
            }
        }
        Leave::New { floor } => return Some(EditAction::New { floor }),
    }
    None
}
