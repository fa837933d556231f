//! The rope tool: drag from one body to another; a rope between their
//! centres, its length the distance now (it goes slack when they come nearer).

use bevy::math::DVec2;
use bevy::prelude::KeyCode;
use contact_core::scene::schema::ConstraintSpec;

use super::{Cx, Made, Mark, Pending, Step, UnitTool, drag_from_body, link};

pub(super) struct RopeTool;

impl UnitTool for RopeTool {
    fn label(&self) -> &'static str {
        "rope"
    }

    fn hint(&self) -> &'static str {
        "drag from one body to another"
    }

    fn key(&self) -> KeyCode {
        KeyCode::KeyO
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
        let spec = ConstraintSpec::Rope {
            name: name.clone(),
            a,
            b,
            length: None,
            restitution: None,
            at_a: (0.0, 0.0),
            at_b: (0.0, 0.0),
        };
        Step::Make(Made::constraint(name, spec))
    }

    fn sketch(&self, cx: &Cx, pending: &Pending) -> Vec<Mark> {
        link::sketch(cx, pending)
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{BALLS, p, play, scene};
    use super::*;

    /// A second link between the same two bodies gets a name of its own.
    #[test]
    fn a_rope_beside_a_rod_is_named_apart() {
        let (doc, world) =
            scene(&BALLS.replace("bodies: [", "constraints: [Rod(name: \"a~p\", a: \"a\", b: \"p\")], bodies: ["));
        let step = play(&RopeTool, &doc, &world, &[(p(0.0, 0.5), p(-0.3, 0.5))]);
        let Step::Make(made) = step else { panic!("{step:?}") };
        let [ConstraintSpec::Rope { name, .. }] = made.constraints.as_slice() else { panic!("{made:?}") };
        assert_eq!(name, "a~p_2");
    }
}
