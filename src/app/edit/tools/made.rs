//! What a finished gesture does to the document: the bodies, constraints
//! and walls it adds, the notes it writes, the changes it makes to what is
//! there (a body moved, a wall slid, a force set), and what to select then.

use bevy::math::DVec2;
use contact_core::scene::schema::{BodySpec, ConstraintSpec, WallSpec};
use contact_core::scene::{Item, SceneDoc};

use crate::app::edit::geometry::nearest_on;

/// What a finished gesture adds to the document or changes in it, and what
/// to select then (`None`: the selection stays).
#[derive(Clone, Debug, Default, PartialEq)]
pub(in crate::app::edit) struct Made {
    pub bodies: Vec<BodySpec>,
    pub constraints: Vec<ConstraintSpec>,
    pub walls: Vec<WallSpec>,
    /// Notes on bodies added (a rack's: how it was made): the body's name, the text.
    pub notes: Vec<(String, String)>,
    pub changes: Vec<Change>,
    pub select: Option<Item>,
}

/// A change to what the document has.
#[derive(Clone, Debug, PartialEq)]
pub(in crate::app::edit) enum Change {
    /// Body `name` moved to a point (a bead: along its curve, to the point nearest it).
    Position(String, DVec2),
    /// A wall's or a half-plane's offset.
    Offset(Item, f64),
    /// Body `name`'s constant force, N (a ball's, a particle's, a bead's).
    Force(String, DVec2),
}

impl Made {
    /// A body added, and selected.
    pub(in crate::app::edit) fn body(spec: BodySpec) -> Made {
        let select = Item::Body(contact_core::scene::document::body_name(&spec).to_string());
        Made { bodies: vec![spec], select: Some(select), ..Made::default() }
    }

    /// A constraint named `name` added, and selected.
    pub(in crate::app::edit) fn constraint(name: String, spec: ConstraintSpec) -> Made {
        Made { constraints: vec![spec], select: Some(Item::Constraint(name)), ..Made::default() }
    }

    /// A change to what is there; the selection stays.
    pub(in crate::app::edit) fn change(change: Change) -> Made {
        Made { changes: vec![change], ..Made::default() }
    }

    pub(in crate::app::edit) fn apply(self, d: &mut SceneDoc) {
        d.file.bodies.extend(self.bodies);
        d.file.constraints.extend(self.constraints);
        d.file.walls.extend(self.walls);
        d.notes.extend(self.notes);
        for change in self.changes {
            change.apply(d);
        }
    }
}

impl Change {
    fn apply(self, d: &mut SceneDoc) {
        match self {
            Change::Position(name, p) => set_position(d, &name, p),
            Change::Offset(item, v) => set_offset(d, &item, v),
            Change::Force(name, v) => set_force(d, &name, v),
        }
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
