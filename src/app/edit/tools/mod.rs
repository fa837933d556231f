//! Edit tools that are each a small unit of their own file: what a press, a
//! release or Enter does, and what the gesture in progress looks like. Edit
//! mode ([`super`]) keeps the gesture ([`Pending`]) between frames, feeds it
//! the pointer ([`advance`]) and applies what it makes ([`Made`]) the way it
//! applies every edit: the whole document written out and read back, so the
//! scene's own checks refuse a bad shape with the field they name.
//!
//! A further tool is a file here with a type implementing [`UnitTool`], and
//! a row of [`TABLE`].
//!
//! | tool    | key | gesture                                             | adds |
//! |---------|-----|-----------------------------------------------------|------|
//! | box     | `Q` | drag a rectangle, corner to corner (a click: 0.2 m square) | a `Box`, angle 0, 1 kg |
//! | polygon | `Y` | click the corners; the first corner again or Enter closes, Escape cancels | a convex `Polygon` (made counterclockwise), 1 kg |
//! | disc    | `M` | drag from the centre out (a click: radius 0.1 m)    | a `Disc`, 1 kg |
//! | pin     | `J` | press on a body where the pin goes, release on another body or an anchor; a click pins the body to the world there | a `Pin` (and, for a click, an `Anchor` at the pin) |

mod box_tool;
mod disc;
mod pin;
mod polygon;

use bevy::math::DVec2;
use bevy::prelude::*;
use contact_core::World;
use contact_core::scene::schema::{BodySpec, ConstraintSpec};
use contact_core::scene::{Item, SceneDoc};

use super::{Editor, Gesture};
use crate::app::lab::geometry;
use crate::app::lab::{InstallScene, Lab, Status};

/// What a tool of its own file does.
pub(super) trait UnitTool: Sync {
    /// Its name on the panel and in the status line.
    fn label(&self) -> &'static str;
    /// How to use it, in a line.
    fn hint(&self) -> &'static str;
    /// The key that picks it in edit mode.
    fn key(&self) -> KeyCode;
    /// A press at `w` (world, m); `pending` is the gesture so far, if any.
    fn press(&self, cx: &Cx, pending: Option<Pending>, w: DVec2) -> Step;
    /// The button up at `w` (every frame it is up while a gesture is kept).
    fn release(&self, cx: &Cx, pending: Pending, w: DVec2) -> Step;
    /// Enter pressed during the gesture.
    fn enter(&self, _cx: &Cx, pending: Pending) -> Step {
        Step::Keep(pending)
    }
    /// The gesture in progress, drawn over the world.
    fn sketch(&self, cx: &Cx, pending: &Pending) -> Vec<Mark>;
}

/// The mass of a new box, polygon or disc, kg (the inspector changes it).
const MASS: f64 = 1.0;

/// The tools of their own files, in the panel's order.
const TABLE: [&dyn UnitTool; 4] = [&box_tool::BoxTool, &polygon::PolygonTool, &disc::DiscTool, &pin::PinTool];

/// A tool of [`TABLE`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Id(usize);

impl Id {
    pub(super) fn tool(self) -> &'static dyn UnitTool {
        TABLE[self.0]
    }
}

/// Every tool of [`TABLE`].
pub(super) fn ids() -> impl Iterator<Item = Id> {
    (0..TABLE.len()).map(Id)
}

/// A gesture in progress (world coordinates, m).
#[derive(Clone, Debug, PartialEq)]
pub struct Pending {
    /// The points pressed so far: a corner, a centre, a polygon's corners, a pin's point.
    pub points: Vec<DVec2>,
    /// Where the pointer is now.
    pub to: DVec2,
    /// The body pressed on (a pin's).
    pub body: Option<String>,
}

impl Pending {
    /// A gesture started at `p`.
    pub(super) fn at(p: DVec2) -> Pending {
        Pending { points: vec![p], to: p, body: None }
    }
}

/// What a press, a release or Enter leads to.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Step {
    /// The gesture goes on.
    Keep(Pending),
    /// It is done: this is the edit.
    Make(Made),
    /// It ends with a word in the status line, and no edit.
    Say(String),
    /// It ends (or never started).
    Stop,
}

/// What a finished gesture adds to the document, and what to select then.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Made {
    pub bodies: Vec<BodySpec>,
    pub constraints: Vec<ConstraintSpec>,
    pub select: Item,
}

impl Made {
    pub(super) fn body(spec: BodySpec) -> Made {
        let select = Item::Body(contact_core::scene::document::body_name(&spec).to_string());
        Made { bodies: vec![spec], constraints: Vec::new(), select }
    }

    pub(super) fn apply(self, d: &mut SceneDoc) {
        d.file.bodies.extend(self.bodies);
        d.file.constraints.extend(self.constraints);
    }
}

/// What a gesture is drawn with (world, m).
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Mark {
    Line(DVec2, DVec2),
    Dashed(DVec2, DVec2),
    Circle(DVec2, f64),
    /// A small ring a few pixels wide: a point pressed, a corner.
    Dot(DVec2),
}

/// What a tool sees: the world as the document starts it, the document, how
/// near (m) a press must be to pick something, the grid points snap to.
pub(super) struct Cx<'a> {
    pub world: &'a World,
    pub doc: &'a SceneDoc,
    pub slack: f64,
    pub grid: Option<f64>,
}

impl Cx<'_> {
    /// `p` on the grid, if points snap to it.
    pub(super) fn snap(&self, p: DVec2) -> DVec2 {
        match self.grid {
            Some(g) if g > 0.0 => (p / g).round() * g,
            _ => p,
        }
    }

    /// The body under `w` other than `except` (its index): see [`body_under`].
    pub(super) fn body_under(&self, w: DVec2, except: Option<usize>) -> Option<usize> {
        body_under(self.world, w, self.slack, except)
    }

    /// Body `b`'s point (a body that turns: its centroid) and its angle (0 for one that does not turn).
    pub(super) fn frame_of(&self, b: usize) -> (DVec2, f64) {
        let p = self.world.model.position(b, &self.world.state);
        (DVec2::new(p.x, p.y), geometry::angle(self.world, b).unwrap_or(0.0))
    }

    /// The first name of `stems` (each with 1, 2, …) no body, wall or constraint
    /// has, nor a row of the installed model (a pin's `NAME:x`).
    pub(super) fn free_name(&self, stem: &str) -> String {
        let names = self.doc.body_names();
        let model = &self.world.model;
        (1..)
            .map(|i| format!("{stem}{i}"))
            .find(|n| {
                !names.contains(n)
                    && !self.doc.name_taken(n)
                    && [n.clone(), format!("{n}:x"), format!("{n}:y")]
                        .iter()
                        .all(|r| model.constraint_index(r).is_none() && model.body_index(r).is_none())
            })
            .expect("a free name")
    }
}

/// The body under `w` other than `except`, nearest first: inside a box or a
/// polygon, or within a round body's radius, give or take `slack` (m).
pub(super) fn body_under(world: &World, w: DVec2, slack: f64, except: Option<usize>) -> Option<usize> {
    let m = &world.model;
    (0..m.bodies.len())
        .filter(|&b| Some(b) != except)
        .map(|b| {
            let c = m.position(b, &world.state);
            let c = DVec2::new(c.x, c.y);
            let d = match geometry::outline(world, b, c) {
                Some(corners) => super::geometry::outside(&corners, w),
                None => (c - w).length() - m.bodies[b].radius,
            };
            (b, d)
        })
        .filter(|(_, d)| *d <= slack)
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(b, _)| b)
}

/// What this frame brings to a unit tool's gesture: the pointer `w`, a
/// press, Enter, the button up.
#[derive(Clone, Copy, Debug)]
pub(super) struct Frame {
    pub w: DVec2,
    pub press: bool,
    pub enter: bool,
    pub released: bool,
}

/// One frame of `tool`'s gesture: the pointer followed, then the press,
/// Enter and the release, in that order.
pub(super) fn advance(tool: &dyn UnitTool, cx: &Cx, pending: Option<Pending>, f: Frame) -> Step {
    let mut pending = pending.map(|p| Pending { to: f.w, ..p });
    if f.press {
        match tool.press(cx, pending.take(), f.w) {
            Step::Keep(p) => pending = Some(p),
            done => return done,
        }
    }
    let Some(mut p) = pending else { return Step::Stop };
    if f.enter {
        match tool.enter(cx, p) {
            Step::Keep(next) => p = next,
            done => return done,
        }
    }
    if f.released { tool.release(cx, p, f.w) } else { Step::Keep(p) }
}

/// Runs one frame of unit tool `id` in edit mode: keeps its gesture, or
/// applies what it made (selecting it), or says why not.
#[allow(clippy::too_many_arguments)]
pub(super) fn frame(
    ed: &mut Editor,
    lab: &Lab,
    id: Id,
    f: Frame,
    slack: f64,
    install: &mut MessageWriter<InstallScene>,
    status: &mut Status,
    now: f64,
) {
    let pending = match ed.gesture.take() {
        Some(Gesture::Unit(g, p)) if g == id => Some(p),
        _ => None,
    };
    let grid = (ed.snap_grid && ed.grid > 0.0).then_some(ed.grid);
    let Some(doc) = ed.doc.as_ref() else { return };
    let step = advance(id.tool(), &Cx { world: &lab.world, doc, slack, grid }, pending, f);
    match step {
        Step::Keep(p) => ed.gesture = Some(Gesture::Unit(id, p)),
        Step::Stop => {}
        Step::Say(text) => status.say(now, text),
        Step::Make(made) => {
            let select = made.select.clone();
            let done = super::edit(ed, &super::origin(lab), install, |d| made.apply(d));
            if done {
                ed.selected = Some(select);
            }
            super::report(done, ed, status, now);
        }
    }
}

#[cfg(test)]
pub(super) mod testing {
    //! A scene to try the tools on, and their gestures played on it.

    use contact_core::scene::{Edits, SceneDoc, SceneError};

    use super::*;

    /// A scene file's document and its world.
    pub fn scene(ron: &str) -> (SceneDoc, World) {
        let doc = SceneDoc::parse(ron, "test scene").expect("a scene document");
        let world = doc.check("test scene").expect("a scene that loads").world;
        (doc, world)
    }

    /// The editor's new scene: gravity, a floor, nothing else.
    pub fn empty() -> (SceneDoc, World) {
        let doc = SceneDoc::new_scene(true);
        let world = doc.check("new scene").expect("a new scene loads").world;
        (doc, world)
    }

    /// `drags` played with `tool` on `doc` (0.01 m of slack, no grid): each
    /// `(from, to)` a press at `from`, the pointer moved to `to`, the button
    /// released there (a click: `from == to`). The step the last one led to.
    pub fn play(tool: &dyn UnitTool, doc: &SceneDoc, world: &World, drags: &[(DVec2, DVec2)]) -> Step {
        let cx = Cx { world, doc, slack: 0.01, grid: None };
        let mut pending = None;
        let mut last = Step::Stop;
        for &(from, to) in drags {
            let down = |w, press, released| Frame { w, press, enter: false, released };
            for f in [down(from, true, false), down(to, false, false), down(to, false, true)] {
                last = advance(tool, &cx, pending.take(), f);
                let Step::Keep(p) = &last else { return last };
                pending = Some(p.clone());
            }
        }
        last
    }

    /// `step`'s edit applied to `doc` through the checks every edit passes.
    pub fn apply(step: Step, doc: &mut SceneDoc) -> Result<(), SceneError> {
        let Step::Make(made) = step else { panic!("no edit made: {step:?}") };
        Edits::default().apply(doc, "edited scene", |d| made.apply(d)).map(|_| ())
    }

    pub fn p(x: f64, y: f64) -> DVec2 {
        DVec2::new(x, y)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each tool of its own file has a key no other edit tool has, nor one
    /// of the app's keys that work in edit mode too (E leaves it, C compare,
    /// K cue, R reset, F fit, T tour, V clip), and a label of its own.
    #[test]
    fn every_unit_tool_has_a_key_and_a_label_of_its_own() {
        let app =
            [KeyCode::KeyE, KeyCode::KeyC, KeyCode::KeyK, KeyCode::KeyR, KeyCode::KeyF, KeyCode::KeyT, KeyCode::KeyV];
        let mut keys: Vec<KeyCode> = super::super::TOOL_KEYS.iter().map(|(k, _)| *k).chain(app).collect();
        let mut labels: Vec<&str> = super::super::Tool::ALL.iter().map(|t| t.label()).collect();
        for id in ids() {
            let tool = id.tool();
            assert!(!keys.contains(&tool.key()), "{}: {:?} is taken", tool.label(), tool.key());
            assert!(!labels.contains(&tool.label()), "{} twice", tool.label());
            keys.push(tool.key());
            labels.push(tool.label());
        }
    }
}
