//! The contact tool: drag from one body to another; a contact between the
//! two (they may touch, never overlap). A pair that already has one (written
//! in the file, or two balls of a scene whose balls collide with each other)
//! is refused with a warning that says which.

use bevy::math::DVec2;
use bevy::prelude::KeyCode;
use contact_core::scene::SceneDoc;
use contact_core::scene::schema::{BodySpec, ConstraintSpec};

use super::{Cx, Made, Mark, Pending, Step, UnitTool, drag_from_body, link};

pub(super) struct ContactTool;

impl UnitTool for ContactTool {
    fn label(&self) -> &'static str {
        "contact"
    }

    fn hint(&self) -> &'static str {
        "drag from one body to another: they may touch, never overlap"
    }

    fn key(&self) -> KeyCode {
        KeyCode::KeyI
    }

    fn press(&self, cx: &Cx, pending: Option<Pending>, w: DVec2) -> Step {
        drag_from_body(self.label(), cx, pending, w)
    }

    fn release(&self, cx: &Cx, pending: Pending, w: DVec2) -> Step {
        let (a, b) = match link::ends(self.label(), cx, &pending, w) {
            Ok(ends) => ends,
            Err(why) => return *why,
        };
        if let Some(c) = contact_between(cx.doc, &a, &b) {
            return Step::Warn(format!("{a} and {b} already have a contact: {c}"));
        }
        let name = link::name(cx, format!("{a}-{b}"));
        let spec =
            ConstraintSpec::Contact { name: Some(name.clone()), a, b, restitution: None, friction: 0.0, rolling: 0.0 };
        Step::Make(Made::constraint(name, spec))
    }

    fn sketch(&self, cx: &Cx, pending: &Pending) -> Vec<Mark> {
        link::sketch(cx, pending)
    }
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

#[cfg(test)]
mod tests {
    use super::super::testing::{BALLS, apply, p, play, scene};
    use super::*;

    /// A ball and the particle get a contact `a-p`; two balls of a scene
    /// whose balls collide, or a pair that has one, are warned of.
    #[test]
    fn a_contact_is_made_once() {
        let (mut doc, world) = scene(BALLS);
        let step = play(&ContactTool, &doc, &world, &[(p(0.0, 0.5), p(-0.3, 0.5))]);
        let Step::Make(made) = &step else { panic!("{step:?}") };
        assert_eq!(made.select, Some(contact_core::scene::Item::Constraint("a-p".into())));
        apply(step, &mut doc).expect("the contact loads");
        let again = play(&ContactTool, &doc, &world, &[(p(0.0, 0.5), p(-0.3, 0.5))]);
        assert_eq!(again, Step::Warn("a and p already have a contact: `a-p`".into()));
        let balls = play(&ContactTool, &doc, &world, &[(p(0.0, 0.5), p(0.3, 0.5))]);
        assert!(matches!(&balls, Step::Warn(s) if s.contains("the scene's balls collide")), "{balls:?}");
    }
}
