//! The rod tool: drag from one body to another; a rod between their
//! centres, its length the distance now (the file leaves `length` out).

use bevy::math::DVec2;
use bevy::prelude::KeyCode;
use contact_core::scene::schema::ConstraintSpec;

use super::{Cx, Made, Mark, Pending, Step, UnitTool, drag_from_body, link};

pub(super) struct RodTool;

impl UnitTool for RodTool {
    fn label(&self) -> &'static str {
        "rod"
    }

    fn hint(&self) -> &'static str {
        "drag from one body to another"
    }

    fn key(&self) -> KeyCode {
        KeyCode::KeyD
    }

    fn press(&self, cx: &Cx, pending: Option<Pending>, w: DVec2) -> Step {
        drag_from_body(self.label(), cx, pending, w)
    }

    fn release(&self, cx: &Cx, pending: Pending, w: DVec2) -> Step {
        let (a, b) = match link::ends(self.label(), cx, &pending, w) {
            Ok(ends) => ends,
            Err(why) => return *why,
        };
        let name = link::name(cx, format!("{a}~{b}"));
        let spec = ConstraintSpec::Rod { name: name.clone(), a, b, length: None, at_a: (0.0, 0.0), at_b: (0.0, 0.0) };
        Step::Make(Made::constraint(name, spec))
    }

    fn sketch(&self, cx: &Cx, pending: &Pending) -> Vec<Mark> {
        link::sketch(cx, pending)
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{BALLS, apply, p, play, scene};
    use super::*;

    /// From one ball to the other: a rod `a~b`, selected; a drag that starts
    /// or ends on nothing says so.
    #[test]
    fn a_drag_from_body_to_body_makes_a_rod() {
        let (mut doc, world) = scene(BALLS);
        let step = play(&RodTool, &doc, &world, &[(p(0.0, 0.5), p(0.3, 0.5))]);
        let Step::Make(made) = &step else { panic!("{step:?}") };
        let [ConstraintSpec::Rod { name, a, b, length: None, .. }] = made.constraints.as_slice() else {
            panic!("{made:?}")
        };
        assert_eq!((name.as_str(), a.as_str(), b.as_str()), ("a~b", "a", "b"));
        apply(step, &mut doc).expect("the rod loads");
        let step = play(&RodTool, &doc, &world, &[(p(0.0, 0.5), p(0.0, 1.0))]);
        assert_eq!(step, Step::Say("rod: release on another body".into()));
        let step = play(&RodTool, &doc, &world, &[(p(0.0, 1.0), p(0.3, 0.5))]);
        assert_eq!(step, Step::Say("rod: start on a body".into()));
    }
}
