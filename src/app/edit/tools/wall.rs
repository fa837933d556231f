//! The wall tool: drag a line; a wall against every ball along it, its
//! normal to the left of the line (from the press to the release). The
//! half-plane tool ([`super::half_plane`]) draws its line the same way.

use bevy::math::DVec2;
use bevy::prelude::KeyCode;
use contact_core::scene::Item;
use contact_core::scene::schema::WallSpec;

use super::{Cx, Made, Mark, Pending, Step, UnitTool, drag_from};

/// What a line too short to have a normal is told.
pub(super) const TOO_SHORT: &str = "wall: drag a line (its normal points to the left of it)";

pub(super) struct WallTool;

impl UnitTool for WallTool {
    fn label(&self) -> &'static str {
        "wall"
    }

    fn hint(&self) -> &'static str {
        "drag a line: the wall's normal points to the left of it"
    }

    fn key(&self) -> KeyCode {
        KeyCode::KeyW
    }

    fn press(&self, _: &Cx, pending: Option<Pending>, w: DVec2) -> Step {
        drag_from(pending, || Step::Keep(Pending::at(w)))
    }

    fn release(&self, cx: &Cx, pending: Pending, w: DVec2) -> Step {
        let Some(n) = normal(cx, &pending, w) else { return Step::Say(TOO_SHORT.into()) };
        Step::Make(wall(cx, pending.points[0], n))
    }

    fn sketch(&self, _: &Cx, pending: &Pending) -> Vec<Mark> {
        line(pending)
    }
}

/// The unit normal of the line dragged from `pending`'s start to `w`, to
/// the left of it; `None` for a line shorter than a pick's slack.
pub(super) fn normal(cx: &Cx, pending: &Pending, w: DVec2) -> Option<DVec2> {
    let along = w - pending.points[0];
    if along.length() < cx.slack { None } else { Some(along.perp().normalize()) }
}

/// A wall through `from` with unit normal `n`, named `wallN` (a name no
/// wall, constraint or row has), selected.
pub(super) fn wall(cx: &Cx, from: DVec2, n: DVec2) -> Made {
    let name = cx.free_of((1..).map(|i| format!("wall{i}")));
    let spec = WallSpec {
        name: name.clone(),
        normal: (n.x, n.y),
        offset: n.dot(from),
        restitution: None,
        friction: 0.0,
        rolling: 0.0,
    };
    Made { walls: vec![spec], select: Some(Item::Wall(name)), ..Made::default() }
}

/// The line being dragged, with its normal at the middle.
pub(super) fn line(pending: &Pending) -> Vec<Mark> {
    let (from, to) = (pending.points[0], pending.to);
    let mut marks = vec![Mark::Line(from, to)];
    if let Some(n) = (to - from).perp().try_normalize() {
        marks.push(Mark::Normal((from + to) / 2.0, n));
    }
    marks
}

#[cfg(test)]
mod tests {
    use super::super::testing::{empty, p, play};
    use super::*;

    /// A line dragged to the right: a wall whose normal points up, through
    /// the start; a click is too short a line.
    #[test]
    fn a_drag_makes_a_wall_with_its_normal_to_the_left() {
        let (doc, world) = empty();
        let step = play(&WallTool, &doc, &world, &[(p(0.0, 0.2), p(1.0, 0.2))]);
        let Step::Make(made) = step else { panic!("{step:?}") };
        let [w] = made.walls.as_slice() else { panic!("{made:?}") };
        assert_eq!((w.name.as_str(), w.normal, w.offset), ("wall1", (0.0, 1.0), 0.2));
        assert_eq!(made.select, Some(Item::Wall("wall1".into())));
        let step = play(&WallTool, &doc, &world, &[(p(0.0, 0.2), p(0.0, 0.2))]);
        assert_eq!(step, Step::Say(TOO_SHORT.into()));
    }
}
