//! Edit mode's tools, each a small unit of its own file: what a press, a
//! release or Enter does, and what the gesture in progress looks like. Edit
//! mode ([`super`]) keeps the gesture ([`Pending`]) between frames, feeds it
//! the pointer ([`advance`]) and applies what it makes ([`Made`]) the way it
//! applies every edit: the whole document written out and read back, so the
//! scene's own checks refuse a bad shape with the field they name.
//!
//! A further tool is a file here with a type implementing [`UnitTool`], and
//! a row of [`TABLE`] (the panel's order).
//!
//! | tool       | key | gesture                                             | adds |
//! |------------|-----|-----------------------------------------------------|------|
//! | select     | `S` | press on a body or a wall, drag, release; click a rod, a rope, a contact or a pin | moves the body (snapped if asked; a bead along its curve), the wall or half-plane along its normal; selects the item |
//! | ball       | `B` | click (snapped to touch a neighbour if asked)       | a `Ball` of the panel's radius and mass |
//! | particle   | `P` | click                                               | a `Particle` of the panel's mass |
//! | anchor     | `A` | click                                               | an `Anchor` |
//! | fixed ball | `X` | click (snapped to touch a neighbour if asked)       | a `FixedBall` (named `post`) of the panel's radius |
//! | wall       | `W` | drag a line                                         | a wall against every ball, normal to the left of the line |
//! | half-plane | `H` | select a body, then drag a line                     | a `HalfPlane` for that body alone (a particle's wedge) |
//! | rod        | `D` | drag from a body to another                         | a `Rod`, its length the distance now |
//! | rope       | `O` | drag from a body to another                         | a `Rope`, its length the distance now |
//! | contact    | `I` | drag from a body to another                         | a `Contact` between the two (they may touch, never overlap) |
//! | force      | `G` | drag from a body                                    | its constant force, 10 N per m of arrow |
//! | rack       | `N` | click                                               | a triangle of balls, apex at the pointer, opening to the right (the panel's rows and gap) |
//! | bead       | `U` | drag from where the bead starts                     | a `Bead` on a segment to the release, or on a circle, parabola or cycloid around it (the panel's curve) |
//! | box        | `Q` | drag a rectangle, corner to corner (a click: 0.2 m square) | a `Box`, angle 0, 1 kg |
//! | polygon    | `Y` | click the corners; the first corner again or Enter closes, Escape cancels | a convex `Polygon` (made counterclockwise), 1 kg |
//! | disc       | `M` | drag from the centre out (a click: radius 0.1 m)    | a `Disc`, 1 kg |
//! | pin        | `J` | press on a body where the pin goes, release on another body or an anchor; a click pins the body to the world there | a `Pin` (and, for a click, an `Anchor` at the pin) |
//!
//! A click that places (a ball, a rack) is applied without a word in the
//! status line ([`Step::Place`]): a refusal is drawn at the cursor and kept
//! in the panel. A gesture's edit ([`Step::Make`]) says a refusal there too.

mod anchor;
mod ball;
mod bead;
mod box_tool;
mod contact;
mod cx;
mod disc;
mod fixed_ball;
mod force;
mod half_plane;
mod link;
mod made;
mod particle;
mod pin;
mod polygon;
mod rack;
mod rod;
mod rope;
mod select;
mod wall;

pub(super) use cx::Cx;
pub use force::FORCE_PER_M;
pub(super) use made::{Change, Made};

use bevy::math::DVec2;
use bevy::prelude::*;
use contact_core::Curve;
use contact_core::scene::Item;

use super::Editor;
use crate::app::lab::{InstallScene, Lab, Status};

/// What an edit tool does.
pub(super) trait UnitTool: Sync {
    /// Its name on the panel and in the status line.
    fn label(&self) -> &'static str;
    /// How to use it, in a line.
    fn hint(&self) -> &'static str;
    /// The key that picks it in edit mode.
    fn key(&self) -> KeyCode;
    /// What a press at `w` with no gesture kept selects: `Some(None)` selects
    /// nothing, `None` (every tool but select) leaves the selection as it is.
    fn pick(&self, _cx: &Cx, _w: DVec2) -> Option<Option<Item>> {
        None
    }
    /// A press at `w` (world, m); `pending` is the gesture so far, if any.
    fn press(&self, cx: &Cx, pending: Option<Pending>, w: DVec2) -> Step;
    /// The button up at `w` (every frame it is up while a gesture is kept).
    /// A tool that places at a click keeps no gesture: it is never called.
    fn release(&self, _cx: &Cx, _pending: Pending, _w: DVec2) -> Step {
        Step::Stop
    }
    /// Enter pressed during the gesture.
    fn enter(&self, _cx: &Cx, pending: Pending) -> Step {
        Step::Keep(pending)
    }
    /// The gesture in progress, drawn over the world.
    fn sketch(&self, _cx: &Cx, _pending: &Pending) -> Vec<Mark> {
        Vec::new()
    }
}

/// The mass of a new box, polygon or disc, kg (the inspector changes it).
const MASS: f64 = 1.0;

/// Every tool, in the panel's order (and the order their keys are read in).
const TABLE: [&dyn UnitTool; 17] = [
    &select::SelectTool,
    &ball::BallTool,
    &particle::ParticleTool,
    &anchor::AnchorTool,
    &fixed_ball::FixedBallTool,
    &wall::WallTool,
    &half_plane::HalfPlaneTool,
    &rod::RodTool,
    &rope::RopeTool,
    &contact::ContactTool,
    &force::ForceTool,
    &rack::RackTool,
    &bead::BeadTool,
    &box_tool::BoxTool,
    &polygon::PolygonTool,
    &disc::DiscTool,
    &pin::PinTool,
];

/// An edit tool: a row of [`TABLE`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tool(usize);

impl Default for Tool {
    fn default() -> Tool {
        Tool::SELECT
    }
}

impl Tool {
    /// The tool edit mode starts with.
    pub const SELECT: Tool = Tool(0);
    /// A new scene's tool.
    pub const BALL: Tool = Tool(1);
    /// The rack, whose rows and gap the panel shows.
    pub const RACK: Tool = Tool(11);
    /// The bead, whose curve the panel shows.
    pub const BEAD: Tool = Tool(12);

    /// Every tool, in the panel's order.
    pub fn all() -> impl Iterator<Item = Tool> {
        (0..TABLE.len()).map(Tool)
    }

    pub fn label(self) -> &'static str {
        self.unit().label()
    }

    pub fn hint(self) -> &'static str {
        self.unit().hint()
    }

    pub(super) fn key(self) -> KeyCode {
        self.unit().key()
    }

    pub(super) fn unit(self) -> &'static dyn UnitTool {
        TABLE[self.0]
    }
}

/// A gesture in progress (world coordinates, m).
#[derive(Clone, Debug, PartialEq)]
pub struct Pending {
    /// The points pressed so far: a corner, a centre, a polygon's corners, a
    /// pin's point, a line's start; for a body moved, the point pressed and
    /// the body's centre then.
    pub points: Vec<DVec2>,
    /// Where the pointer is now.
    pub to: DVec2,
    /// The body pressed on (a pin's, a link's first, a force's, the one moved).
    pub body: Option<String>,
    /// The wall or half-plane pressed on (slid along its normal).
    pub item: Option<Item>,
}

impl Pending {
    /// A gesture started at `p`.
    pub(super) fn at(p: DVec2) -> Pending {
        Pending { points: vec![p], to: p, body: None, item: None }
    }
}

/// What a press, a release or Enter leads to.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Step {
    /// The gesture goes on.
    Keep(Pending),
    /// It is done: this is the edit (a refusal is said in the status line).
    Make(Made),
    /// A click placed this (a refusal is drawn at the cursor, the status line says nothing).
    Place(Made),
    /// It ends with a word in the status line, and no edit.
    Say(String),
    /// It ends with a warning in the status line, and no edit.
    Warn(String),
    /// It ends (or never started).
    Stop,
}

/// A drag's press: `start` it, unless one is kept (the button went up and
/// down again within a frame: the drag goes on, the press unseen).
pub(super) fn drag_from(pending: Option<Pending>, start: impl FnOnce() -> Step) -> Step {
    match pending {
        Some(p) => Step::Keep(p),
        None => start(),
    }
}

/// A drag that starts on a body (a link's, a force's): pressed on one, the
/// gesture keeps its name; elsewhere, a word (`label: start on a body`).
pub(super) fn drag_from_body(label: &str, cx: &Cx, pending: Option<Pending>, w: DVec2) -> Step {
    drag_from(pending, || match cx.name_under(w) {
        Some(body) => Step::Keep(Pending { body: Some(body), ..Pending::at(w) }),
        None => Step::Say(format!("{label}: start on a body")),
    })
}

/// What a gesture is drawn with (world, m; sizes in pixels where said).
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Mark {
    Line(DVec2, DVec2),
    Dashed(DVec2, DVec2),
    Circle(DVec2, f64),
    /// A small ring a few pixels wide: a point pressed, a corner.
    Dot(DVec2),
    /// A ring this many pixels wide (a bead's start).
    Ring(DVec2, f64),
    /// A round body of this radius where it would go (at least a dot's size).
    Body(DVec2, f64),
    /// An arrow from a point, along a vector (a force's).
    Arrow(DVec2, DVec2),
    /// A line's normal: an arrow 30 px long at a point, along a unit vector.
    Normal(DVec2, DVec2),
    /// A wall's line across the view, through a point, with its unit normal.
    Across(DVec2, DVec2),
    /// A curve over a span of its parameter.
    Curve(Curve, (f64, f64)),
}

/// What this frame brings to a tool's gesture: the pointer `w`, a press,
/// Enter, the button up.
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

/// Runs one frame of `tool` in edit mode: a press picks (the select tool),
/// then the tool keeps its gesture, or applies what it made (selecting it),
/// or says why not. A gesture of another tool is dropped.
#[allow(clippy::too_many_arguments)]
pub(super) fn frame(
    ed: &mut Editor,
    lab: &Lab,
    tool: Tool,
    f: Frame,
    slack: f64,
    install: &mut MessageWriter<InstallScene>,
    status: &mut Status,
    now: f64,
) {
    let pending = match ed.gesture.take() {
        Some((g, p)) if g == tool => Some(p),
        _ => None,
    };
    let Some(doc) = ed.doc.as_ref() else { return };
    let cx = Cx { world: &lab.world, doc, ed, slack };
    let picked = if f.press && pending.is_none() { tool.unit().pick(&cx, f.w) } else { None };
    let step = advance(tool.unit(), &cx, pending, f);
    if let Some(item) = picked {
        ed.selected = item;
    }
    match step {
        Step::Keep(p) => ed.gesture = Some((tool, p)),
        Step::Stop => {}
        Step::Say(text) => status.say(now, text),
        Step::Warn(text) => status.warn(now, text),
        Step::Make(made) => {
            let done = apply(ed, lab, install, made);
            super::report(done, ed, status, now);
        }
        Step::Place(made) => {
            apply(ed, lab, install, made);
        }
    }
}

/// Applies `made` as an edit, selecting what it asks if it went through. True when applied.
fn apply(ed: &mut Editor, lab: &Lab, install: &mut MessageWriter<InstallScene>, made: Made) -> bool {
    let select = made.select.clone();
    let done = super::edit(ed, &super::origin(lab), install, |d| made.apply(d));
    if done && let Some(item) = select {
        ed.selected = Some(item);
    }
    done
}

#[cfg(test)]
pub(super) mod testing {
    //! A scene to try the tools on, and their gestures played on it.

    use contact_core::World;
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

    /// A fresh editor on `doc` (no grid).
    pub fn editor(doc: &SceneDoc) -> Editor {
        Editor { doc: Some(doc.clone()), ..Editor::fresh() }
    }

    /// `drags` played with `tool` on `doc` (0.01 m of slack, no grid): each
    /// `(from, to)` a press at `from`, the pointer moved to `to`, the button
    /// released there (a click: `from == to`). The step the last one led to.
    pub fn play(tool: &dyn UnitTool, doc: &SceneDoc, world: &World, drags: &[(DVec2, DVec2)]) -> Step {
        play_selected(tool, doc, world, None, drags)
    }

    /// [`play`] with `selected` selected.
    pub fn play_selected(
        tool: &dyn UnitTool,
        doc: &SceneDoc,
        world: &World,
        selected: Option<Item>,
        drags: &[(DVec2, DVec2)],
    ) -> Step {
        let ed = Editor { selected, ..editor(doc) };
        let cx = Cx { world, doc, ed: &ed, slack: 0.01 };
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
        let (Step::Make(made) | Step::Place(made)) = step else { panic!("no edit made: {step:?}") };
        Edits::default().apply(doc, "edited scene", |d| made.apply(d)).map(|_| ())
    }

    /// Two balls `a` and `b` (radius 0.04 m) and a particle `p` over a floor;
    /// the balls collide with each other.
    pub const BALLS: &str = r#"Scene(
        name: "balls",
        gravity: (0, -9.81),
        bodies: [
            Ball(name: "a", position: (0, 0.5), radius: 0.04, mass: 0.1),
            Ball(name: "b", position: (0.3, 0.5), radius: 0.04, mass: 0.1),
            Particle(name: "p", position: (-0.3, 0.5), mass: 0.1),
        ],
        walls: [(name: "floor", normal: (0, 1))],
        ball_pairs: true,
    )"#;

    pub fn p(x: f64, y: f64) -> DVec2 {
        DVec2::new(x, y)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each tool has a key no other edit tool has, nor one of the app's keys
    /// that work in edit mode too (E leaves it, C compare, K cue, R reset, F
    /// fit, T tour, V clip), and a label of its own.
    #[test]
    fn every_tool_has_a_key_and_a_label_of_its_own() {
        let app =
            [KeyCode::KeyE, KeyCode::KeyC, KeyCode::KeyK, KeyCode::KeyR, KeyCode::KeyF, KeyCode::KeyT, KeyCode::KeyV];
        let mut keys: Vec<KeyCode> = app.to_vec();
        let mut labels: Vec<&str> = Vec::new();
        for tool in Tool::all() {
            assert!(!keys.contains(&tool.key()), "{}: {:?} is taken", tool.label(), tool.key());
            assert!(!labels.contains(&tool.label()), "{} twice", tool.label());
            keys.push(tool.key());
            labels.push(tool.label());
        }
    }

    /// The tools named in code are the rows they name.
    #[test]
    fn the_named_tools_are_their_rows() {
        let named = [
            (Tool::SELECT, "select / move"),
            (Tool::BALL, "ball"),
            (Tool::RACK, "rack of balls"),
            (Tool::BEAD, "bead"),
        ];
        for (tool, label) in named {
            assert_eq!(tool.label(), label);
        }
        assert_eq!(Tool::default(), Tool::SELECT);
    }
}
