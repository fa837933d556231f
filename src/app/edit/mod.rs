//! Edit mode: build a scene with the mouse, keep the state on screen as a new
//! scene, save it as a scene file.
//!
//! `E` (or the toolbar's ✎ Edit) pauses the clock and shows the scene's start
//! as a document ([`contact_core::scene::SceneDoc`]); "Edit from here" takes
//! the state on screen instead (after a break, after a drag). Every edit is a
//! whole new document checked the way a file is — written out and read back —
//! and installed only if it loads: an invalid value, a ball placed inside
//! another or through a wall is refused with the message a file gets, naming
//! the field. `Ctrl+Z` / `Ctrl+Y` undo and redo any edit.
//!
//! The tools — select and move, ball, particle, anchor, fixed ball, wall,
//! half-plane, rod, rope, contact, force, rack, bead, box, polygon, disc,
//! pin — are each a unit of its own file, with its key, its gesture and what
//! it adds: see the table of [`tools`]. This module keeps the mode, its
//! actions and the gesture of the tool in hand ([`gestures`] dispatches).
//!
//! Keys in edit mode: `S` select, `B` ball, `P` particle, `A` anchor, `X`
//! fixed ball, `W` wall, `H` half-plane, `D` rod, `O` rope, `I` contact, `G` force, `N` rack, `U` bead,
//! `Q` box, `Y` polygon (Enter closes it), `M` disc, `J` pin. `Delete` removes the selected item (a body with
//! its constraints), `Escape` cancels a gesture. Snapping (the panel's boxes): to a grid, and a ball dropped near
//! another to touch it.
//!
//! `Ctrl+S` saves (the save dialog), in edit mode and outside it: outside, the
//! running scene's start as its file has it. Either way the file says the
//! solver settings in force — the algorithm (keys 1–4, the toolbar, the
//! inspector's "algorithm" alike), τ, the step h, sleeping, the events — not
//! those the scene was opened with ([`SceneDoc::with_settings`]). Unsaved
//! edits are never dropped without asking ([`leave`]).

mod draw;
pub mod fields;
mod geometry;
pub mod leave;
mod mode;
mod pick;
mod refusal;
mod save;
mod tools;

pub use geometry::{BeadCurve, bead_curve};
pub use leave::{Leave, LeaveChoice};
pub use refusal::Refusal;
use refusal::refusal;
pub use tools::{FORCE_PER_M, Tool};

use std::collections::VecDeque;
use std::path::PathBuf;

use bevy::math::DVec2;
use bevy::prelude::*;
use contact_core::scene::{Edits, Item, SceneDoc};

use super::lab::{
    FrameSet, InputClaims, InstallScene, Lab, LabAction, Pointer, Status, StepSettings, ViewTransform,
    release_tool_claim,
};
use super::lab::{OpenScene, TourAction};

/// Pixels around a body where a press still picks it.
const PICK_PX: f64 = 8.0;

/// What the user asks of edit mode (the toolbar, the panel, the keys).
#[derive(Message, Clone, Debug)]
pub enum EditAction {
    /// Enter edit mode on the scene's start, or leave it.
    Toggle,
    /// Enter edit mode on the state on screen.
    FromHere,
    Undo,
    Redo,
    DeleteSelected,
    /// A document changed by the panel (the inspector): checked, then installed.
    Replace(Box<SceneDoc>),
    /// Ask where to save (the save dialog): the document edited, or outside
    /// edit mode the running scene's (Ctrl+S).
    Save,
    /// Edit a new scene: empty, or with a floor.
    New {
        floor: bool,
    },
    /// Write the document to this file, with the settings in force.
    SaveAs(PathBuf),
    /// Pick a tool.
    Tool(Tool),
    /// The answer to "Unsaved edits in NAME" ([`leave`]).
    Answer(LeaveChoice),
}

/// Sent when a document was saved (the panels open the file like any other).
#[derive(Message, Clone, Debug)]
pub struct Saved(pub PathBuf);

/// Edit mode's state.
#[derive(Resource, Default)]
pub struct Editor {
    pub on: bool,
    pub doc: Option<SceneDoc>,
    pub edits: Edits,
    pub tool: Tool,
    pub selected: Option<Item>,
    /// The last refusal, shown in the panel until the next edit.
    pub error: Option<Refusal>,
    /// Where (world) and when (real seconds) a gesture was refused: the
    /// refusal is drawn at the cursor there for [`Refusal::SHOWN`] seconds.
    pub refused_at: Option<(DVec2, f64)>,
    /// How many edits were refused (a gesture's refusal is then placed at the cursor).
    refusals: u32,
    /// The name and description of the scene as it was opened (or made new):
    /// a saved scene gets its own unless the user wrote others.
    pub source: (String, String),
    /// The file the edited scene was opened from (`None`: a new scene): the
    /// save dialog opens beside it, as `NAME-edited.ron`.
    pub source_file: Option<std::path::PathBuf>,
    pub snap_grid: bool,
    pub grid: f64,
    pub snap_contact: bool,
    /// Defaults of new balls and particles.
    pub radius: f64,
    pub mass: f64,
    pub rack_rows: usize,
    /// The gap between neighbours of a rack, m (0: touching).
    pub rack_gap: f64,
    pub bead_curve: BeadCurve,
    /// Ctrl+S or "Save as…": the panels open the save dialog (`ui::file_dialog`).
    pub save_requested: bool,
    /// The document has changes no file has (an edit, an undo or a redo
    /// since it was opened, made or saved): see [`Editor::unsaved`].
    pub dirty: bool,
    /// What waits for the answer to "Unsaved edits in NAME" (the dialog is shown).
    pub leaving: Option<Leave>,
    /// What is done once the save dialog has saved ("Save…" in that dialog);
    /// the dialog cancelled, nothing.
    pub after_save: Option<Leave>,
    /// The gesture in progress, and the tool whose it is.
    gesture: Option<(Tool, tools::Pending)>,
}

impl Editor {
    fn fresh() -> Self {
        Editor { grid: 0.05, snap_contact: true, radius: 0.04, mass: 0.1, rack_rows: 4, ..Default::default() }
    }
}

/// Edit mode: the document and its actions ([`EditActionsPlugin`]), the
/// mouse's tools and their drawing.
pub struct EditPlugin;

impl Plugin for EditPlugin {
    fn build(&self, app: &mut App) {
        app.add_plugins(EditActionsPlugin)
            .add_systems(Update, claim_pointer.in_set(FrameSet::Prepare).after(release_tool_claim))
            .add_systems(Update, (gestures, place_refusal).chain().after(apply_actions).in_set(FrameSet::Tools))
            .add_systems(Update, draw::draw.in_set(FrameSet::Overlay));
    }
}

/// The document without the mouse and the drawing: the keys, the actions
/// (undo, save, new, the inspector's changes) and asking before unsaved
/// edits are dropped ([`leave`]); what a headless test runs.
pub struct EditActionsPlugin;

impl Plugin for EditActionsPlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(Editor::fresh())
            .add_message::<EditAction>()
            .add_message::<Saved>()
            .add_systems(Update, (keyboard, apply_actions).chain().in_set(FrameSet::Tools));
    }
}

/// Edit mode has the pointer from the start of the frame: no spring, no pan,
/// no cue shot starts under a tool.
fn claim_pointer(editor: Res<Editor>, mut claims: ResMut<InputClaims>) {
    if editor.on {
        claims.tool = true;
    }
}

fn keyboard(
    keys: Option<Res<ButtonInput<KeyCode>>>,
    claims: Option<Res<InputClaims>>,
    editor: Res<Editor>,
    mut actions: MessageWriter<EditAction>,
) {
    let Some(keys) = keys else { return };
    if claims.is_some_and(|c| c.keyboard) {
        return;
    }
    // A scripted Ctrl+S may press and release both keys within one frame.
    let ctrls = [KeyCode::ControlLeft, KeyCode::ControlRight];
    let ctrl = keys.any_pressed(ctrls) || keys.any_just_released(ctrls);
    let shift = keys.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]);
    if keys.just_pressed(KeyCode::KeyE) && !ctrl {
        actions.write(EditAction::Toggle);
    }
    // In edit mode and outside it (the running scene, with the settings in force).
    if ctrl && keys.just_pressed(KeyCode::KeyS) {
        actions.write(EditAction::Save);
    }
    if !editor.on {
        return;
    }
    if ctrl && keys.just_pressed(KeyCode::KeyZ) {
        actions.write(if shift { EditAction::Redo } else { EditAction::Undo });
    }
    if ctrl && keys.just_pressed(KeyCode::KeyY) {
        actions.write(EditAction::Redo);
    }
    if keys.any_just_pressed([KeyCode::Delete, KeyCode::Backspace]) {
        actions.write(EditAction::DeleteSelected);
    }
    if !ctrl {
        // The keys that pick a tool (each tool's own, [`tools`]).
        for tool in Tool::all() {
            if keys.just_pressed(tool.key()) {
                actions.write(EditAction::Tool(tool));
            }
        }
    }
}

/// The file errors are about: the scene's own name, or `edited scene`.
fn origin(lab: &Lab) -> String {
    lab.scene.path.as_ref().map_or("edited scene".into(), |p| p.display().to_string())
}

#[allow(clippy::too_many_arguments)]
pub fn apply_actions(
    mut actions: MessageReader<EditAction>,
    mut editor: ResMut<Editor>,
    lab: Option<Res<Lab>>,
    steps: Option<Res<StepSettings>>,
    mut install: MessageWriter<InstallScene>,
    mut saved: MessageWriter<Saved>,
    mut lab_actions: MessageWriter<LabAction>,
    mut open: Option<ResMut<Messages<OpenScene>>>,
    mut tour: Option<ResMut<Messages<TourAction>>>,
    mut virt: ResMut<Time<Virtual>>,
    mut status: ResMut<Status>,
    real: Res<Time<Real>>,
) {
    let Some(lab) = lab else { return };
    let now = real.elapsed_secs_f64();
    let origin = origin(&lab);
    // The settings in force: a saved file says them, the inspector shows them.
    let h = steps.map_or(lab.scene.dt, |s| s.h);
    let in_force = |doc: SceneDoc| doc.with_settings(&lab.world.settings, h);
    // A New asked before unsaved edits were saved or dropped comes back here.
    let mut queue: VecDeque<EditAction> = actions.read().cloned().collect();
    while let Some(action) = queue.pop_front() {
        let ed = &mut *editor;
        let mut proceed = |leave: Leave, lab_actions: &mut MessageWriter<LabAction>| {
            leave::proceed(leave, lab_actions, open.as_deref_mut(), tour.as_deref_mut())
        };
        match &action {
            EditAction::Toggle if ed.on => mode::exit(ed, &virt, &mut status, now),
            EditAction::Toggle | EditAction::FromHere => {
                let from_here = matches!(action, EditAction::FromHere);
                let io = mode::Io { install: &mut install, virt: &mut virt, status: &mut status, now };
                mode::enter(ed, &lab, from_here, &in_force, &origin, io);
            }
            EditAction::Undo | EditAction::Redo => {
                undo_redo(ed, matches!(action, EditAction::Undo), &origin, &mut install);
            }
            EditAction::DeleteSelected => delete_selected(ed, &origin, &mut install, &mut status, now),
            EditAction::Replace(next) => {
                let next = (**next).clone();
                edit(ed, &origin, &mut install, |d| *d = next);
            }
            EditAction::Tool(tool) => {
                ed.tool = *tool;
                ed.gesture = None;
                status.say(now, format!("{}: {}", tool.label(), tool.hint()));
            }
            EditAction::New { floor } => {
                let io = mode::Io { install: &mut install, virt: &mut virt, status: &mut status, now };
                mode::new_scene(ed, *floor, io);
            }
            EditAction::Save if ed.on || ed.unsaved() => {
                if ed.doc.is_some() {
                    ed.save_requested = true;
                }
            }
            EditAction::Save => save::running(ed, &lab, &in_force, &mut status, now),
            EditAction::SaveAs(path) => {
                // Saved to quit or to load another scene: that, not the file saved.
                if let Some(leave) = save::save_as(ed, path, &in_force, &origin, &mut saved, &mut status, now) {
                    queue.extend(proceed(leave, &mut lab_actions));
                }
            }
            EditAction::Answer(choice) => {
                if let Some(leave) = ed.answer(*choice, &mut status, now) {
                    queue.extend(proceed(leave, &mut lab_actions));
                }
            }
        }
    }
}

/// Undoes (or redoes) the last edit, and installs the document it leaves.
fn undo_redo(ed: &mut Editor, undo: bool, origin: &str, install: &mut MessageWriter<InstallScene>) {
    let Some(doc) = ed.doc.as_mut() else { return };
    let moved = if undo { ed.edits.undo(doc) } else { ed.edits.redo(doc) };
    if moved {
        if let Ok(scene) = doc.check(origin) {
            install.write(InstallScene { scene: Box::new(scene), path: None, keep_algorithm: true, open: false });
        }
        ed.error = None;
        ed.dirty = true;
    }
}

/// Removes the selected item (a body with its constraints), saying so.
fn delete_selected(
    ed: &mut Editor,
    origin: &str,
    install: &mut MessageWriter<InstallScene>,
    status: &mut Status,
    now: f64,
) {
    let Some(item) = ed.selected.clone() else { return };
    let done = edit(ed, origin, install, |d| {
        d.remove(&item);
    });
    if done {
        ed.selected = None;
        let what = match &item {
            Item::Body(n) => format!("{n} deleted, with its constraints"),
            Item::Wall(n) => format!("wall {n} deleted"),
            Item::Constraint(n) => format!("{n} deleted"),
        };
        status.say(now, what);
    }
    report(done, ed, status, now);
}

/// Applies `change` to the document if it loads; installs it, or keeps the
/// refusal in `ed.error`. True when applied.
fn edit(
    ed: &mut Editor,
    origin: &str,
    install: &mut MessageWriter<InstallScene>,
    change: impl FnOnce(&mut SceneDoc),
) -> bool {
    let Some(doc) = ed.doc.as_mut() else { return false };
    match ed.edits.apply(doc, origin, change) {
        Ok(scene) => {
            install.write(InstallScene { scene: Box::new(scene), path: None, keep_algorithm: true, open: false });
            ed.error = None;
            ed.dirty = true;
            true
        }
        Err(e) => {
            ed.error = Some(refusal(&e));
            ed.refusals += 1;
            false
        }
    }
}

/// A refusal made this frame by a gesture on the world goes where the pointer
/// is, in plain words, for [`Refusal::SHOWN`] seconds (`ui::overlay` draws it).
/// One made in the panel (the pointer off the world) stays in the panel.
fn place_refusal(mut editor: ResMut<Editor>, pointer: Res<Pointer>, real: Res<Time<Real>>, mut seen: Local<u32>) {
    if editor.refusals == *seen {
        return;
    }
    *seen = editor.refusals;
    editor.refused_at = pointer.world.filter(|_| pointer.in_view).map(|w| (w, real.elapsed_secs_f64()));
}

/// Says why an edit was refused, if it was.
fn report(done: bool, ed: &Editor, status: &mut Status, now: f64) {
    if !done && let Some(e) = &ed.error {
        status.warn(now, format!("Refused: {e}"));
    } else if done && status.error && status.text.starts_with("Refused:") {
        // A later edit went through: the old refusal no longer stands
        // (issue 37: it stayed red in the status bar).
        status.say(now, "Done: the edit went through");
    }
}

/// The mouse in edit mode: Escape drops the gesture in progress; the tool
/// in hand has the pointer, a press, Enter and the button up
/// ([`tools::frame`]).
#[allow(clippy::too_many_arguments)]
fn gestures(
    buttons: Res<ButtonInput<MouseButton>>,
    keys: Option<Res<ButtonInput<KeyCode>>>,
    pointer: Res<Pointer>,
    mut claims: ResMut<InputClaims>,
    view: Res<ViewTransform>,
    lab: Option<Res<Lab>>,
    mut editor: ResMut<Editor>,
    mut install: MessageWriter<InstallScene>,
    mut status: ResMut<Status>,
    real: Res<Time<Real>>,
) {
    let Some(lab) = lab else { return };
    if !editor.on || editor.doc.is_none() {
        return;
    }
    // Edit mode has the pointer: no springs, no cue.
    claims.tool = true;
    let now = real.elapsed_secs_f64();
    let ed = &mut *editor;
    if keys.as_ref().is_some_and(|k| k.just_pressed(KeyCode::Escape)) {
        ed.gesture = None;
    }
    let Some(w) = pointer.world else { return };
    let press = buttons.just_pressed(MouseButton::Left) && pointer.in_view && !claims.pointer;
    let enter = !claims.keyboard && keys.is_some_and(|k| k.just_pressed(KeyCode::Enter));
    let f = tools::Frame { w, press, enter, released: !buttons.pressed(MouseButton::Left) };
    let (tool, slack) = (ed.tool, view.world_len(PICK_PX));
    tools::frame(ed, &lab, tool, f, slack, &mut install, &mut status, now);
}
