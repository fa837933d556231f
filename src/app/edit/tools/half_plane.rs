//! The half-plane tool: with a body selected (the select tool), drag a line;
//! a half-plane that holds that body alone on the side its normal points to,
//! to the left of the line (two of them: a particle's wedge). The body stays
//! selected. With no body selected by the release, the line makes a wall.

use bevy::math::DVec2;
use bevy::prelude::KeyCode;
use contact_core::scene::Item;
use contact_core::scene::schema::ConstraintSpec;

use super::wall::{TOO_SHORT, line, normal, wall};
use super::{Cx, Made, Mark, Pending, Step, UnitTool, drag_from};

pub(super) struct HalfPlaneTool;

impl UnitTool for HalfPlaneTool {
    fn label(&self) -> &'static str {
        "half-plane"
    }

    fn hint(&self) -> &'static str {
        "select a body (S), then drag a line: a half-plane for that body alone, its normal to the left"
    }

    fn key(&self) -> KeyCode {
        KeyCode::KeyH
    }

    fn press(&self, cx: &Cx, pending: Option<Pending>, w: DVec2) -> Step {
        drag_from(pending, || match cx.ed.selected {
            Some(Item::Body(_)) => Step::Keep(Pending::at(w)),
            _ => Step::Say("half-plane: select its body first (S), then drag the line".into()),
        })
    }

    fn release(&self, cx: &Cx, pending: Pending, w: DVec2) -> Step {
        let Some(n) = normal(cx, &pending, w) else { return Step::Say(TOO_SHORT.into()) };
        let from = pending.points[0];
        let Some(Item::Body(body)) = cx.ed.selected.clone() else { return Step::Make(wall(cx, from, n)) };
        let name = cx.free_of((1..).map(|i| format!("h{i}")));
        // The body stays selected: a wedge is two lines for one particle.
        Step::Make(Made {
            constraints: vec![ConstraintSpec::HalfPlane {
                at: (0.0, 0.0),
                name,
                body,
                normal: (n.x, n.y),
                offset: n.dot(from),
                restitution: None,
                friction: 0.0,
                rolling: 0.0,
            }],
            ..Made::default()
        })
    }

    fn sketch(&self, _: &Cx, pending: &Pending) -> Vec<Mark> {
        line(pending)
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{BALLS, p, play, play_selected, scene};
    use super::*;

    /// With the particle selected, a line makes its half-plane (`h1`, the
    /// selection kept); with nothing selected the press says what to do.
    #[test]
    fn a_line_makes_a_half_plane_for_the_selected_body() {
        let (doc, world) = scene(BALLS);
        let drag = [(p(-0.5, 0.3), p(-0.1, 0.3))];
        let step = play_selected(&HalfPlaneTool, &doc, &world, Some(Item::Body("p".into())), &drag);
        let Step::Make(made) = step else { panic!("{step:?}") };
        let [ConstraintSpec::HalfPlane { name, body, normal, offset, .. }] = made.constraints.as_slice() else {
            panic!("{made:?}")
        };
        assert_eq!((name.as_str(), body.as_str(), *normal, *offset), ("h1", "p", (0.0, 1.0), 0.3));
        assert_eq!(made.select, None, "the body stays selected");
        let step = play(&HalfPlaneTool, &doc, &world, &drag);
        assert!(matches!(&step, Step::Say(s) if s.starts_with("half-plane: select its body first")), "{step:?}");
    }
}
