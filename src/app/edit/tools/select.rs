//! The select tool: a press on a body selects it and a drag moves it
//! (snapped to the grid and to touch a neighbour, if asked; a bead along its
//! curve, to the point nearest); a press elsewhere selects the wall or the
//! constraint under it (nothing: the selection goes), and a drag of a wall
//! or a half-plane slides it along its normal (by the grid's step, if
//! asked). A click selects: only a drag is an edit (and an undo step).

use bevy::math::DVec2;
use bevy::prelude::KeyCode;
use contact_core::scene::Item;

use super::super::geometry::wall_line;
use super::super::pick::{body_at, item_under, plane};
use super::{Change, Cx, Made, Mark, Pending, Step, UnitTool, drag_from};

pub(super) struct SelectTool;

impl UnitTool for SelectTool {
    fn label(&self) -> &'static str {
        "select / move"
    }

    fn hint(&self) -> &'static str {
        "drag a body, or a wall along its normal; click a rod, rope or contact; Delete removes what is selected"
    }

    fn key(&self) -> KeyCode {
        KeyCode::KeyS
    }

    fn pick(&self, cx: &Cx, w: DVec2) -> Option<Option<Item>> {
        Some(under(cx, w))
    }

    /// A body pressed on is moved, a wall or a half-plane slid; anything else is a click.
    fn press(&self, cx: &Cx, pending: Option<Pending>, w: DVec2) -> Step {
        drag_from(pending, || match under(cx, w) {
            Some(Item::Body(body)) => {
                let (p, _) = body_at(cx.world, &body).expect("a body under the pointer");
                Step::Keep(Pending { points: vec![w, p], body: Some(body), ..Pending::at(w) })
            }
            Some(item) if plane(cx.doc, &item).is_some() => Step::Keep(Pending { item: Some(item), ..Pending::at(w) }),
            _ => Step::Stop,
        })
    }

    fn release(&self, cx: &Cx, pending: Pending, w: DVec2) -> Step {
        match (&pending.body, &pending.item) {
            (Some(body), _) => {
                let to = moved_to(cx, &pending, body, w);
                if body_at(cx.world, body).is_none_or(|(p, _)| (to - p).length() < 1e-12) {
                    return Step::Stop;
                }
                Step::Make(Made::change(Change::Position(body.clone(), to)))
            }
            (None, Some(item)) => {
                let Some((normal, offset)) = plane(cx.doc, item) else { return Step::Stop };
                let n = DVec2::new(normal.0, normal.1);
                // A click selects; a drag moves the line by the drag's normal part.
                let from = pending.points[0];
                if (w - from).length() < cx.slack {
                    return Step::Stop;
                }
                let mut shift = n.dot(w - from);
                if cx.ed.snap_grid && cx.ed.grid > 0.0 {
                    let unit = n.length() * cx.ed.grid;
                    shift = ((offset + shift) / unit).round() * unit - offset;
                }
                Step::Make(Made::change(Change::Offset(item.clone(), offset + shift)))
            }
            (None, None) => Step::Stop,
        }
    }

    /// The body where it would go, or the line where it would be.
    fn sketch(&self, cx: &Cx, pending: &Pending) -> Vec<Mark> {
        match (&pending.body, &pending.item) {
            (Some(body), _) => body_at(cx.world, body).map_or_else(Vec::new, |(p, r)| {
                let to = moved_to(cx, pending, body, pending.to);
                vec![Mark::Dashed(p, to), Mark::Body(to, r)]
            }),
            (None, Some(item)) => plane(cx.doc, item)
                .and_then(|(normal, offset)| wall_line(normal, offset))
                .map_or_else(Vec::new, |(p, n)| vec![Mark::Across(p + n * n.dot(pending.to - pending.points[0]), n)]),
            (None, None) => Vec::new(),
        }
    }
}

/// The body under `w`, or else the wall or written constraint under it.
fn under(cx: &Cx, w: DVec2) -> Option<Item> {
    match cx.name_under(w) {
        Some(body) => Some(Item::Body(body)),
        None => item_under(cx.world, cx.doc, w, cx.slack),
    }
}

/// Where `body`, pressed at `pending`'s first point, goes with the pointer
/// at `w`: the grab kept, snapped (to touch a neighbour: a round body).
fn moved_to(cx: &Cx, pending: &Pending, body: &str, w: DVec2) -> DVec2 {
    let grab = pending.points[0] - pending.points[1];
    let r = body_at(cx.world, body).map_or(0.0, |b| b.1);
    cx.snap_ball(w - grab, r, Some(body))
}

#[cfg(test)]
mod tests {
    use super::super::testing::{BALLS, apply, p, play, scene};
    use super::*;

    /// A ball dragged goes where the pointer takes it, the grab kept; a
    /// click moves nothing.
    #[test]
    fn a_drag_moves_a_body_and_a_click_does_not() {
        let (mut doc, world) = scene(BALLS);
        let step = play(&SelectTool, &doc, &world, &[(p(0.01, 0.5), p(0.11, 0.8))]);
        let Step::Make(made) = &step else { panic!("{step:?}") };
        let [Change::Position(body, to)] = made.changes.as_slice() else { panic!("{made:?}") };
        assert!(body == "a" && (*to - p(0.1, 0.8)).length() < 1e-12, "{to:?}");
        apply(step, &mut doc).expect("the move loads");
        assert_eq!(play(&SelectTool, &doc, &world, &[(p(0.0, 0.5), p(0.0, 0.5))]), Step::Stop);
    }

    /// The floor dragged up slides along its normal; a press on a wall
    /// picks it, on nothing picks nothing.
    #[test]
    fn a_wall_slides_along_its_normal() {
        let (doc, world) = scene(BALLS);
        let step = play(&SelectTool, &doc, &world, &[(p(0.6, 0.0), p(0.7, -0.1))]);
        let Step::Make(made) = step else { panic!("{step:?}") };
        assert_eq!(made.changes, vec![Change::Offset(Item::Wall("floor".into()), -0.1)]);
        let ed = super::super::testing::editor(&doc);
        let cx = Cx { world: &world, doc: &doc, ed: &ed, slack: 0.01 };
        assert_eq!(SelectTool.pick(&cx, p(0.6, 0.0)), Some(Some(Item::Wall("floor".into()))));
        assert_eq!(SelectTool.pick(&cx, p(0.6, 0.3)), Some(None));
    }
}
