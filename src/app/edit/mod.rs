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
//! | tool      | gesture                                        | adds                         |
//! |-----------|------------------------------------------------|------------------------------|
//! | select    | press on a body or a wall, drag, release; click a rod, a rope or a contact | moves the body (snapped if asked; a bead along its curve), the wall along its normal; selects the item |
//! | ball, particle, anchor, fixed ball | click                 | the body at the pointer      |
//! | wall      | drag a line                                    | a wall against every ball, normal to the left of the line |
//! | half-plane | select a body, then drag a line               | a half-plane for that body alone (a particle's wedge) |
//! | rod, rope | drag from a body to another                    | the link, its length the distance now |
//! | contact   | drag from a body to another                    | a contact between the two (they may touch, never overlap) |
//! | force     | drag from a body                               | its constant force, 10 N per m of arrow |
//! | rack      | click                                          | a triangle of balls, apex at the pointer, opening to the right |
//! | bead      | drag from where the bead starts                | a bead on a segment to the release, or on a circle, parabola or cycloid around it |
//! | box, polygon, disc, pin | see [`tools`] (each a unit of its own file) | a body that turns; a pin joint |
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
mod refusal;
mod tools;

pub use geometry::{BeadCurve, bead_curve};
use geometry::{nearest_on, wall_line};
pub use leave::{Leave, LeaveChoice};
pub use refusal::Refusal;
use refusal::refusal;

use std::collections::VecDeque;
use std::path::PathBuf;

use bevy::math::DVec2;
use bevy::prelude::*;
use contact_core::scene::schema::{BodySpec, ConstraintSpec, WallSpec};
use contact_core::scene::{Edits, Item, SceneDoc};

use super::lab::{
    FrameSet, InputClaims, InstallScene, Lab, LabAction, Pointer, Status, StepSettings, ViewTransform,
    release_tool_claim,
};
use super::lab::{OpenScene, TourAction};

/// Newtons of constant force per metre of the force tool's arrow.
pub const FORCE_PER_M: f64 = 10.0;
/// Pixels around a body where a press still picks it.
const PICK_PX: f64 = 8.0;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Tool {
    #[default]
    Select,
    Ball,
    Particle,
    Anchor,
    FixedBall,
    Wall,
    HalfPlane,
    Rod,
    Rope,
    Contact,
    Force,
    Rack,
    Bead,
    /// A tool of its own file ([`tools`]).
    Unit(tools::Id),
}

impl Tool {
    pub const ALL: [Tool; 13] = [
        Tool::Select,
        Tool::Ball,
        Tool::Particle,
        Tool::Anchor,
        Tool::FixedBall,
        Tool::Wall,
        Tool::HalfPlane,
        Tool::Rod,
        Tool::Rope,
        Tool::Contact,
        Tool::Force,
        Tool::Rack,
        Tool::Bead,
    ];

    /// Every tool, in the panel's order.
    pub fn all() -> impl Iterator<Item = Tool> {
        Tool::ALL.into_iter().chain(tools::ids().map(Tool::Unit))
    }

    pub fn label(self) -> &'static str {
        match self {
            Tool::Unit(id) => id.tool().label(),
            Tool::Select => "select / move",
            Tool::Ball => "ball",
            Tool::Particle => "particle",
            Tool::Anchor => "anchor",
            Tool::FixedBall => "fixed ball",
            Tool::Wall => "wall",
            Tool::HalfPlane => "half-plane",
            Tool::Rod => "rod",
            Tool::Rope => "rope",
            Tool::Contact => "contact",
            Tool::Force => "force",
            Tool::Rack => "rack of balls",
            Tool::Bead => "bead",
        }
    }

    pub fn hint(self) -> &'static str {
        match self {
            Tool::Unit(id) => id.tool().hint(),
            Tool::Select => {
                "drag a body, or a wall along its normal; click a rod, rope or contact; Delete removes what is selected"
            }
            Tool::Ball | Tool::Particle | Tool::Anchor | Tool::FixedBall => "click where it goes",
            Tool::Wall => "drag a line: the wall's normal points to the left of it",
            Tool::HalfPlane => {
                "select a body (S), then drag a line: a half-plane for that body alone, its normal to the left"
            }
            Tool::Rod | Tool::Rope => "drag from one body to another",
            Tool::Contact => "drag from one body to another: they may touch, never overlap",
            Tool::Force => "drag from a body: 10 N per metre of arrow",
            Tool::Rack => "click: the apex of a triangle of balls opening to the right (rows and gap in the panel)",
            Tool::Bead => {
                "drag from where the bead starts: a segment to the release, a circle or a parabola or a cycloid around it (the panel's curve)"
            }
        }
    }
}

/// A gesture in progress (world coordinates, m).
#[derive(Clone, Debug, PartialEq)]
enum Gesture {
    Move {
        body: String,
        grab: DVec2,
        to: DVec2,
    },
    /// A wall (or a half-plane) dragged along its normal.
    Slide {
        item: Item,
        from: DVec2,
        to: DVec2,
    },
    Line {
        from: DVec2,
        to: DVec2,
    },
    Link {
        from: String,
        to: DVec2,
    },
    Arrow {
        body: String,
        to: DVec2,
    },
    Bead {
        from: DVec2,
        to: DVec2,
    },
    Unit(tools::Id, tools::Pending),
}

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
    gesture: Option<Gesture>,
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
        let units = tools::ids().map(|id| (id.tool().key(), Tool::Unit(id)));
        for (key, tool) in TOOL_KEYS.into_iter().chain(units) {
            if keys.just_pressed(key) {
                actions.write(EditAction::Tool(tool));
            }
        }
    }
}

/// Keys that pick a tool in edit mode.
const TOOL_KEYS: [(KeyCode, Tool); 13] = [
    (KeyCode::KeyS, Tool::Select),
    (KeyCode::KeyB, Tool::Ball),
    (KeyCode::KeyP, Tool::Particle),
    (KeyCode::KeyA, Tool::Anchor),
    (KeyCode::KeyX, Tool::FixedBall),
    (KeyCode::KeyW, Tool::Wall),
    (KeyCode::KeyH, Tool::HalfPlane),
    (KeyCode::KeyD, Tool::Rod),
    (KeyCode::KeyO, Tool::Rope),
    (KeyCode::KeyI, Tool::Contact),
    (KeyCode::KeyG, Tool::Force),
    (KeyCode::KeyN, Tool::Rack),
    (KeyCode::KeyU, Tool::Bead),
];

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
            EditAction::Toggle if ed.on => {
                ed.on = false;
                ed.gesture = None;
                let text = "Edit mode left: the edited scene is ready to run";
                if virt.is_paused() {
                    status.say_while_paused(now, format!("{text} (Space plays)"))
                } else {
                    status.say(now, text)
                }
            }
            EditAction::Toggle | EditAction::FromHere => {
                let from_here = matches!(action, EditAction::FromHere);
                // The scene on screen: its file's, or, for a scene the editor
                // installed (it has no file), the document edited and not saved.
                let base = match (&lab.scene.path, &ed.doc) {
                    (Some(path), _) => match SceneDoc::load(path) {
                        Ok(doc) => doc,
                        Err(e) => {
                            status.warn(now, format!("Cannot edit this scene: {e}"));
                            continue;
                        }
                    },
                    (None, Some(doc)) => doc.clone(),
                    (None, None) => {
                        status.warn(now, "Cannot edit this scene: it has no file");
                        continue;
                    }
                };
                let doc = in_force(if from_here { base.from_world(&lab.world) } else { base });
                virt.pause();
                match doc.check(&origin) {
                    Ok(scene) => {
                        ed.on = true;
                        ed.error = None;
                        ed.gesture = None;
                        ed.selected = None;
                        install.write(InstallScene {
                            scene: Box::new(scene),
                            path: None,
                            keep_algorithm: true,
                            open: false,
                        });
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
                    Err(e) => status.warn(now, format!("Cannot edit from here: {e}")),
                }
            }
            EditAction::Undo | EditAction::Redo => {
                let Some(doc) = ed.doc.as_mut() else { continue };
                let moved = if matches!(action, EditAction::Undo) { ed.edits.undo(doc) } else { ed.edits.redo(doc) };
                if moved {
                    if let Ok(scene) = doc.check(&origin) {
                        install.write(InstallScene {
                            scene: Box::new(scene),
                            path: None,
                            keep_algorithm: true,
                            open: false,
                        });
                    }
                    ed.error = None;
                    ed.dirty = true;
                }
            }
            EditAction::DeleteSelected => {
                let Some(item) = ed.selected.clone() else { continue };
                let done = edit(ed, &origin, &mut install, |d| {
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
                report(done, ed, &mut status, now);
            }
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
                if ed.ask_before(Leave::New { floor: *floor }, &mut status, now) {
                    continue;
                }
                let doc = SceneDoc::new_scene(*floor);
                let Ok(scene) = doc.check("new scene") else {
                    status.warn(now, "A new scene could not be made");
                    continue;
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
                ed.tool = Tool::Ball;
                let floor = if *floor { " on a floor" } else { "" };
                status.say(now, format!("A new scene{floor}: click to place balls (B), Ctrl+S saves it"));
            }
            EditAction::Save if ed.on || ed.unsaved() => {
                if ed.doc.is_some() {
                    ed.save_requested = true;
                }
            }
            EditAction::Save => {
                // Outside edit mode: the running scene's start as its file has
                // it (the settings in force are written at SaveAs), or the
                // editor's own scene (no file).
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
            EditAction::SaveAs(path) => {
                let Some(doc) = &ed.doc else { continue };
                // The settings in force, not those the document was opened with.
                let doc = in_force(doc.clone());
                // Its own name and a true description (see `SceneDoc::titled_for`).
                let doc = match doc.check(&origin) {
                    Ok(scene) => doc.titled_for(path, (&ed.source.0, &ed.source.1), &scene),
                    Err(_) => doc.clone(),
                };
                match doc.save(path) {
                    Ok(_) => {
                        status.say(now, format!("Saved to {}", path.display()));
                        ed.on = false;
                        ed.doc = None;
                        ed.dirty = false;
                        match ed.after_save.take() {
                            // Saved to quit or to load another scene: that, not the file saved.
                            Some(leave) => queue.extend(proceed(leave, &mut lab_actions)),
                            None => {
                                saved.write(Saved(path.clone()));
                            }
                        }
                    }
                    Err(e) => {
                        ed.error = Some(refusal(&e));
                        status.warn(now, format!("Not saved: {e}"));
                    }
                }
            }
            EditAction::Answer(choice) => {
                let Some(leave) = ed.leaving.take() else { continue };
                match choice {
                    LeaveChoice::Cancel => {
                        status.say(now, format!("{}: cancelled, the edits are kept", leave.doing()));
                    }
                    LeaveChoice::Save => {
                        ed.after_save = Some(leave);
                        ed.save_requested = ed.doc.is_some();
                    }
                    LeaveChoice::Discard => {
                        ed.dirty = false;
                        ed.on = false;
                        ed.gesture = None;
                        status.say(now, format!("Edits discarded: {}", leave.doing().to_lowercase()));
                        queue.extend(proceed(leave, &mut lab_actions));
                    }
                }
            }
        }
    }
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

/// Where body `name` is (the installed document's start), and its radius (0 for points).
fn body_at(lab: &Lab, name: &str) -> Option<(DVec2, f64)> {
    let b = lab.world.model.body_index(name)?;
    let p = lab.world.model.position(b, &lab.world.state);
    Some((DVec2::new(p.x, p.y), lab.world.model.bodies[b].radius))
}

/// The body under `w` (within its radius, or inside a box or a polygon, plus a few pixels), nearest first.
fn body_under(lab: &Lab, w: DVec2, slack: f64) -> Option<String> {
    tools::body_under(&lab.world, w, slack, None).map(|b| lab.world.model.bodies[b].name.clone())
}

/// The contact `a` and `b` already have: written in the file, or made by
/// `ball_pairs` (two balls, not both fixed), said as the user reads it.
fn contact_between(doc: &SceneDoc, a: &str, b: &str) -> Option<String> {
    let written =
        doc.file.constraints.iter().find(
            |c| matches!(c, ConstraintSpec::Contact { a: x, b: y, .. } if (x == a && y == b) || (x == b && y == a)),
        );
    if let Some(c) = written {
        return Some(format!("`{}`", contact_core::scene::document::constraint_name(c)));
    }
    let ball = |n: &str| match doc.body(n) {
        Some(BodySpec::Ball { .. }) => Some(false),
        Some(BodySpec::FixedBall { .. }) => Some(true),
        _ => None,
    };
    match (ball(a), ball(b)) {
        (Some(fa), Some(fb)) if doc.file.ball_pairs && !(fa && fb) => {
            Some("the scene's balls collide with each other (the panel's box)".into())
        }
        _ => None,
    }
}

/// The two bodies' centres of a rod, a rope or a contact, as the world has them.
fn link_ends(lab: &Lab, c: &ConstraintSpec) -> Option<(DVec2, DVec2)> {
    match c {
        ConstraintSpec::Rod { a, b, .. }
        | ConstraintSpec::Rope { a, b, .. }
        | ConstraintSpec::Contact { a, b, .. }
        | ConstraintSpec::Pin { a, b, .. } => Some((body_at(lab, a)?.0, body_at(lab, b)?.0)),
        ConstraintSpec::HalfPlane { .. } | ConstraintSpec::BeadBound { .. } => None,
    }
}

/// The wall or written constraint under `w` (within `slack` of its line or
/// segment), nearest first. A bead's end stop is picked from the panel's list.
fn item_under(lab: &Lab, doc: &SceneDoc, w: DVec2, slack: f64) -> Option<Item> {
    let to_line = |(p, n): (DVec2, DVec2)| (w - p).dot(n).abs();
    let to_segment = |(a, b): (DVec2, DVec2)| {
        let ab = b - a;
        let t = if ab.length_squared() > 0.0 { ((w - a).dot(ab) / ab.length_squared()).clamp(0.0, 1.0) } else { 0.0 };
        (w - (a + ab * t)).length()
    };
    let walls =
        doc.file.walls.iter().filter_map(|wall| {
            wall_line(wall.normal, wall.offset).map(|l| (to_line(l), Item::Wall(wall.name.clone())))
        });
    let constraints = doc.file.constraints.iter().filter_map(|c| {
        let name = Item::Constraint(contact_core::scene::document::constraint_name(c));
        match c {
            ConstraintSpec::HalfPlane { normal, offset, .. } => wall_line(*normal, *offset).map(|l| (to_line(l), name)),
            _ => link_ends(lab, c).map(|ends| (to_segment(ends), name)),
        }
    });
    walls.chain(constraints).filter(|(d, _)| *d <= slack).min_by(|a, b| a.0.total_cmp(&b.0)).map(|(_, item)| item)
}

/// `p` snapped to the grid, then, for a ball of radius `r`, to touch the
/// nearest other round body if it is within half a radius of touching.
fn snap(ed: &Editor, lab: &Lab, p: DVec2, r: f64, except: Option<&str>) -> DVec2 {
    let mut p = p;
    if ed.snap_grid && ed.grid > 0.0 {
        p = (p / ed.grid).round() * ed.grid;
    }
    if ed.snap_contact && r > 0.0 {
        let m = &lab.world.model;
        let near = (0..m.bodies.len())
            .filter(|&b| m.bodies[b].radius > 0.0 && Some(m.bodies[b].name.as_str()) != except)
            .map(|b| {
                let c = m.position(b, &lab.world.state);
                let c = DVec2::new(c.x, c.y);
                (c, m.bodies[b].radius, (p - c).length() - m.bodies[b].radius - r)
            })
            .filter(|(_, _, gap)| gap.abs() < 0.5 * r)
            .min_by(|a, b| a.2.abs().total_cmp(&b.2.abs()));
        if let Some((c, rb, _)) = near {
            let dir = (p - c).try_normalize().unwrap_or(DVec2::X);
            // A hair apart: touching, never overlapping by round-off.
            p = c + dir * (rb + r) * (1.0 + 1e-9);
        }
    }
    p
}

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
    let slack = view.world_len(PICK_PX);
    if let Tool::Unit(id) = ed.tool {
        let enter = !claims.keyboard && keys.is_some_and(|k| k.just_pressed(KeyCode::Enter));
        let f = tools::Frame { w, press, enter, released: !buttons.pressed(MouseButton::Left) };
        return tools::frame(ed, &lab, id, f, slack, &mut install, &mut status, now);
    }
    if press && ed.gesture.is_none() {
        let under = body_under(&lab, w, slack);
        ed.gesture = match (ed.tool, under) {
            (Tool::Select, Some(body)) => {
                let (p, _) = body_at(&lab, &body).expect("a body under the pointer");
                ed.selected = Some(Item::Body(body.clone()));
                Some(Gesture::Move { body, grab: w - p, to: p })
            }
            (Tool::Select, None) => {
                ed.selected = item_under(&lab, ed.doc.as_ref().expect("on"), w, slack);
                match &ed.selected {
                    Some(item) if plane(ed.doc.as_ref().expect("on"), item).is_some() => {
                        Some(Gesture::Slide { item: item.clone(), from: w, to: w })
                    }
                    _ => None,
                }
            }
            (Tool::Wall, _) => Some(Gesture::Line { from: w, to: w }),
            (Tool::HalfPlane, _) if matches!(ed.selected, Some(Item::Body(_))) => {
                Some(Gesture::Line { from: w, to: w })
            }
            (Tool::HalfPlane, _) => {
                status.say(now, "half-plane: select its body first (S), then drag the line");
                None
            }
            (Tool::Bead, _) => Some(Gesture::Bead { from: w, to: w }),
            (Tool::Rod | Tool::Rope | Tool::Contact, Some(body)) => Some(Gesture::Link { from: body, to: w }),
            (Tool::Force, Some(body)) => Some(Gesture::Arrow { body, to: w }),
            (Tool::Rod | Tool::Rope | Tool::Contact | Tool::Force, None) => {
                status.say(now, format!("{}: start on a body", ed.tool.label()));
                None
            }
            (tool, _) => {
                let origin = origin(&lab);
                place(ed, &lab, tool, w, &origin, &mut install);
                None
            }
        };
    }
    // Follow the pointer, and finish on release.
    let released = !buttons.pressed(MouseButton::Left);
    if let Some(Gesture::Move { body, grab, .. }) = &ed.gesture {
        let (name, grab) = (body.clone(), *grab);
        let r = body_at(&lab, &name).map_or(0.0, |b| b.1);
        let target = snap(ed, &lab, w - grab, r, Some(&name));
        if let Some(Gesture::Move { to, .. }) = &mut ed.gesture {
            *to = target;
        }
    } else if let Some(
        Gesture::Line { to, .. }
        | Gesture::Link { to, .. }
        | Gesture::Arrow { to, .. }
        | Gesture::Bead { to, .. }
        | Gesture::Slide { to, .. },
    ) = &mut ed.gesture
    {
        *to = w;
    }
    if !released {
        return;
    }
    let Some(g) = ed.gesture.take() else { return };
    let origin = origin(&lab);
    let done = match g {
        // A unit tool's gesture is its own (`tools::frame`).
        Gesture::Unit(..) => return,
        Gesture::Move { body, to, .. } => {
            // A click selects: only a drag is an edit (and an undo step).
            if body_at(&lab, &body).is_none_or(|(p, _)| (to - p).length() < 1e-12) {
                return;
            }
            edit(ed, &origin, &mut install, |d| set_position(d, &body, to))
        }
        Gesture::Slide { item, from, to } => {
            let Some((normal, offset)) = plane(ed.doc.as_ref().expect("on"), &item) else { return };
            let n = DVec2::new(normal.0, normal.1);
            // A click selects; a drag moves the line by the drag's normal part.
            if (to - from).length() < slack {
                return;
            }
            let mut shift = n.dot(to - from);
            if ed.snap_grid && ed.grid > 0.0 {
                let unit = n.length() * ed.grid;
                shift = ((offset + shift) / unit).round() * unit - offset;
            }
            edit(ed, &origin, &mut install, |d| set_offset(d, &item, offset + shift))
        }
        Gesture::Line { from, to } => {
            let along = to - from;
            if along.length() < slack {
                status.say(now, "wall: drag a line (its normal points to the left of it)");
                return;
            }
            let n = along.perp().normalize();
            let doc = ed.doc.as_ref().expect("on");
            if let (Tool::HalfPlane, Some(Item::Body(body))) = (ed.tool, ed.selected.clone()) {
                let name = free_name(doc, &lab, (1..).map(|i| format!("h{i}")));
                // The body stays selected: a wedge is two lines for one particle.
                return report(
                    edit(ed, &origin, &mut install, |d| {
                        d.file.constraints.push(ConstraintSpec::HalfPlane {
                            at: (0.0, 0.0),
                            name,
                            body,
                            normal: (n.x, n.y),
                            offset: n.dot(from),
                            restitution: None,
                            friction: 0.0,
                        })
                    }),
                    ed,
                    &mut status,
                    now,
                );
            }
            let name = free_name(doc, &lab, (1..).map(|i| format!("wall{i}")));
            let done = edit(ed, &origin, &mut install, |d| {
                d.file.walls.push(WallSpec {
                    name: name.clone(),
                    normal: (n.x, n.y),
                    offset: n.dot(from),
                    restitution: None,
                    friction: 0.0,
                })
            });
            if done {
                ed.selected = Some(Item::Wall(name));
            }
            done
        }
        Gesture::Link { from, to } => {
            let Some(other) = body_under(&lab, to, slack).filter(|b| *b != from) else {
                status.say(now, format!("{}: release on another body", ed.tool.label()));
                return;
            };
            let doc = ed.doc.as_ref().expect("on");
            let (a, b) = (from, other);
            if ed.tool == Tool::Contact
                && let Some(c) = contact_between(doc, &a, &b)
            {
                status.warn(now, format!("{a} and {b} already have a contact: {c}"));
                return;
            }
            let fresh = |base: String| {
                free_name(doc, &lab, std::iter::once(base.clone()).chain((2..).map(|i| format!("{base}_{i}"))))
            };
            let (name, spec) = match ed.tool {
                Tool::Rope => {
                    let name = fresh(format!("{a}~{b}"));
                    (
                        name.clone(),
                        ConstraintSpec::Rope {
                            name,
                            a,
                            b,
                            length: None,
                            restitution: None,
                            at_a: (0.0, 0.0),
                            at_b: (0.0, 0.0),
                        },
                    )
                }
                Tool::Contact => {
                    let name = fresh(format!("{a}-{b}"));
                    (name.clone(), ConstraintSpec::Contact { name: Some(name), a, b, restitution: None, friction: 0.0 })
                }
                _ => {
                    let name = fresh(format!("{a}~{b}"));
                    (name.clone(), ConstraintSpec::Rod { name, a, b, length: None, at_a: (0.0, 0.0), at_b: (0.0, 0.0) })
                }
            };
            let done = edit(ed, &origin, &mut install, |d| d.file.constraints.push(spec));
            if done {
                ed.selected = Some(Item::Constraint(name));
            }
            done
        }
        Gesture::Arrow { body, to } => {
            let Some((p, _)) = body_at(&lab, &body) else { return };
            let force = (to - p) * FORCE_PER_M;
            edit(ed, &origin, &mut install, |d| set_force(d, &body, force))
        }
        Gesture::Bead { from, to } => {
            if (to - from).length() < slack {
                status.say(now, "bead: drag from where it starts (see the panel's curve)");
                return;
            }
            let (curve, u) = bead_curve(ed.bead_curve, from, to);
            let doc = ed.doc.as_ref().expect("on");
            let name = doc.fresh_name("bead");
            let mass = ed.mass;
            let spec = BodySpec::Bead {
                name: name.clone(),
                curve,
                u,
                u_dot: 0.0,
                mass,
                radius: 0.0,
                force: (0.0, 0.0),
                damping: 0.0,
            };
            let done = edit(ed, &origin, &mut install, |d| d.file.bodies.push(spec));
            if done {
                ed.selected = Some(Item::Body(name));
            }
            done
        }
    };
    report(done, ed, &mut status, now);
}

/// The first of `candidates` no wall or written constraint of `doc` has, nor
/// a row of the installed model (the generated `WALL:BALL`, `A-B`).
fn free_name(doc: &SceneDoc, lab: &Lab, mut candidates: impl Iterator<Item = String>) -> String {
    candidates.find(|n| !doc.name_taken(n) && lab.world.model.constraint_index(n).is_none()).expect("a free name")
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

/// Adds what `tool` places at `w` (snapped), selecting it.
fn place(ed: &mut Editor, lab: &Lab, tool: Tool, w: DVec2, origin: &str, install: &mut MessageWriter<InstallScene>) {
    let doc = ed.doc.as_ref().expect("on");
    let (r, m) = (ed.radius, ed.mass);
    let at = |p: DVec2| (p.x, p.y);
    let mut note = None;
    let (specs, name): (Vec<BodySpec>, String) = match tool {
        Tool::Ball => {
            let name = doc.fresh_name("ball");
            (vec![ball(&name, snap(ed, lab, w, r, None), m, r)], name)
        }
        Tool::Particle => {
            let name = doc.fresh_name("particle");
            let p = snap(ed, lab, w, 0.0, None);
            let spec = BodySpec::Particle {
                name: name.clone(),
                position: at(p),
                velocity: (0.0, 0.0),
                mass: m,
                radius: 0.0,
                force: (0.0, 0.0),
                damping: 0.0,
            };
            (vec![spec], name)
        }
        Tool::Anchor => {
            let name = doc.fresh_name("anchor");
            (vec![BodySpec::Anchor { name: name.clone(), position: at(snap(ed, lab, w, 0.0, None)) }], name)
        }
        Tool::FixedBall => {
            let name = doc.fresh_name("post");
            let p = snap(ed, lab, w, r, None);
            (vec![BodySpec::FixedBall { name: name.clone(), position: at(p), radius: r }], name)
        }
        Tool::Rack => {
            let apex = snap(ed, lab, w, 0.0, None);
            let mut names = doc.body_names();
            let mut specs = Vec::new();
            // Rows to the right, each one ball taller, `rack_gap` apart (touching:
            // a hair apart, never overlapping by round-off).
            let d = (2.0 * r + ed.rack_gap.max(0.0)) * (1.0 + 1e-9);
            for row in 0..ed.rack_rows.max(1) {
                for k in 0..=row {
                    let name = (1..).map(|i| format!("rack{i}")).find(|n| !names.contains(n)).expect("a name");
                    let p = apex + DVec2::new(row as f64 * d * 3f64.sqrt() / 2.0, (k as f64 - row as f64 / 2.0) * d);
                    specs.push(ball(&name, p, m, r));
                    names.push(name);
                }
            }
            let first = contact_core::scene::document::body_name(&specs[0]).to_string();
            let rows = ed.rack_rows.max(1);
            note = Some(format!(
                "A rack of {} balls in {rows} rows, {}, made in the editor: apex at ({:.4}, {:.4}), opening to +x.",
                specs.len(),
                if ed.rack_gap > 0.0 { format!("{} m apart", ed.rack_gap) } else { "touching".into() },
                apex.x,
                apex.y
            ));
            (specs, first)
        }
        Tool::Select
        | Tool::Wall
        | Tool::HalfPlane
        | Tool::Rod
        | Tool::Rope
        | Tool::Contact
        | Tool::Force
        | Tool::Bead
        | Tool::Unit(_) => return,
    };
    let first = name.clone();
    if edit(ed, origin, install, |d| {
        d.file.bodies.extend(specs);
        d.notes.extend(note.map(|n| (first, n)));
    }) {
        ed.selected = Some(Item::Body(name));
    }
}

/// A ball at rest at `p`, no force, no damping.
fn ball(name: &str, p: DVec2, mass: f64, radius: f64) -> BodySpec {
    BodySpec::Ball {
        name: name.to_string(),
        position: (p.x, p.y),
        velocity: (0.0, 0.0),
        mass,
        radius,
        force: (0.0, 0.0),
        damping: 0.0,
    }
}

fn set_position(d: &mut SceneDoc, name: &str, p: DVec2) {
    match d.body_mut(name) {
        Some(
            BodySpec::Ball { position, .. }
            | BodySpec::Particle { position, .. }
            | BodySpec::Anchor { position, .. }
            | BodySpec::FixedBall { position, .. }
            | BodySpec::Box { position, .. }
            | BodySpec::Polygon { position, .. }
            | BodySpec::Disc { position, .. },
        ) => *position = (p.x, p.y),
        // A bead moves along its curve, to the point nearest `p`.
        Some(BodySpec::Bead { curve, u, .. }) => *u = nearest_on(curve, *u, p),
        None => {}
    }
}

/// The normal and offset of a wall or a half-plane constraint.
fn plane(d: &SceneDoc, item: &Item) -> Option<((f64, f64), f64)> {
    match item {
        Item::Wall(name) => d.wall(name).map(|w| (w.normal, w.offset)),
        Item::Constraint(name) => match d.constraint(name)? {
            ConstraintSpec::HalfPlane { normal, offset, .. } => Some((*normal, *offset)),
            _ => None,
        },
        Item::Body(_) => None,
    }
}

fn set_offset(d: &mut SceneDoc, item: &Item, v: f64) {
    match item {
        Item::Wall(name) => {
            if let Some(w) = d.wall_mut(name) {
                w.offset = v;
            }
        }
        Item::Constraint(name) => {
            if let Some(ConstraintSpec::HalfPlane { offset, .. }) = d.constraint_mut(name) {
                *offset = v;
            }
        }
        Item::Body(_) => {}
    }
}

fn set_force(d: &mut SceneDoc, name: &str, v: DVec2) {
    if let Some(BodySpec::Ball { force, .. } | BodySpec::Particle { force, .. } | BodySpec::Bead { force, .. }) =
        d.body_mut(name)
    {
        *force = (v.x, v.y);
    }
}
