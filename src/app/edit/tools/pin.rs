//! The pin tool: press on a body where the pin goes, drag to another body
//! or an anchor, release: a `Pin` holds the pressed point of the first body
//! (`at`, in its frame: `R(−θ)(p − centre)`) on the second. A click on a body
//! (no drag, nothing else there) pins it to the world at that point: a new
//! `Anchor` there. A release on empty space after a drag is refused with a
//! word in the status line (a user who misses the target gets no surprise
//! anchor). Pressed on a fixed body (an anchor, a post, a fixed shape) and
//! released on one that moves, the pin is written on the one that moves.

use bevy::math::DVec2;
use bevy::prelude::KeyCode;
use contact_core::body::turned;
use contact_core::scene::Item;
use contact_core::scene::schema::{BodySpec, ConstraintSpec};

use super::{Cx, Made, Mark, Pending, Step, UnitTool};

pub(super) struct PinTool;

impl UnitTool for PinTool {
    fn label(&self) -> &'static str {
        "pin"
    }

    fn hint(&self) -> &'static str {
        "press on a body where the pin goes, release on another body or an anchor; a click pins the body to the world there"
    }

    fn key(&self) -> KeyCode {
        KeyCode::KeyJ
    }

    fn press(&self, cx: &Cx, _: Option<Pending>, w: DVec2) -> Step {
        let Some(b) = cx.body_under(w, None) else {
            return Step::Say("pin: press on a body, where the pin goes".into());
        };
        let name = cx.world.model.bodies[b].name.clone();
        Step::Keep(Pending { body: Some(name), ..Pending::at(cx.snap(w)) })
    }

    fn release(&self, cx: &Cx, pending: Pending, w: DVec2) -> Step {
        let model = &cx.world.model;
        let Some(first) = pending.body.as_deref().and_then(|n| model.body_index(n)) else { return Step::Stop };
        let at = pending.points[0];
        let click = (w - at).length() < cx.slack;
        let name = cx.free_name("pin");
        let (a, b, anchor) = match cx.body_under(w, Some(first)) {
            // On a fixed body the pin cannot be written: on the other one then.
            Some(other) if !model.bodies[first].is_dynamic() && model.bodies[other].is_dynamic() => {
                (other, first, None)
            }
            Some(other) => (first, other, None),
            None if click => {
                let anchor = cx.doc.fresh_name("anchor");
                (first, first, Some(BodySpec::Anchor { name: anchor, position: (at.x, at.y) }))
            }
            None => {
                return Step::Say(
                    "pin: release on another body or an anchor (a click on a body pins it to the world there)".into(),
                );
            }
        };
        let name_of = |i: usize| model.bodies[i].name.clone();
        let b = anchor.as_ref().map_or_else(|| name_of(b), |s| contact_core::scene::document::body_name(s).into());
        let pin = ConstraintSpec::Pin { name: name.clone(), a: name_of(a), b, at: in_frame(cx, a, at) };
        Step::Make(Made {
            bodies: anchor.into_iter().collect(),
            constraints: vec![pin],
            select: Some(Item::Constraint(name)),
            ..Made::default()
        })
    }

    fn sketch(&self, cx: &Cx, pending: &Pending) -> Vec<Mark> {
        let at = pending.points[0];
        let mut marks = vec![Mark::Dot(at)];
        if (pending.to - at).length() >= cx.slack {
            marks.push(Mark::Dashed(at, pending.to));
            marks.push(Mark::Dot(pending.to));
        }
        marks
    }
}

/// The point `p` (world) in body `b`'s frame: `R(−θ)(p − centre)`.
fn in_frame(cx: &Cx, b: usize, p: DVec2) -> (f64, f64) {
    let (centre, theta) = cx.frame_of(b);
    let d = p - centre;
    let r = turned(-theta, nalgebra::Vector2::new(d.x, d.y));
    (r.x, r.y)
}

#[cfg(test)]
mod tests {
    use super::super::testing::{apply, p, play, scene};
    use super::*;

    /// A plank turned by 0.5 rad, an anchor above it, a second box.
    const SCENE: &str = r#"Scene(
        name: "pins",
        gravity: (0, -9.81),
        bodies: [
            Box(name: "plank", position: (1, 2), angle: 0.5, size: (0.6, 0.2), mass: 1.0),
            Anchor(name: "hook", position: (0, 3)),
            Box(name: "crate", position: (3, 2), size: (0.4, 0.4), mass: 1.0),
        ],
    )"#;

    /// The pin's `at` is the pressed point in the plank's turned frame.
    fn expected_at(press: DVec2) -> (f64, f64) {
        let (s, c) = 0.5f64.sin_cos();
        let d = press - p(1.0, 2.0);
        (c * d.x + s * d.y, -s * d.x + c * d.y)
    }

    fn close(a: (f64, f64), b: (f64, f64)) -> bool {
        (a.0 - b.0).abs() < 1e-12 && (a.1 - b.1).abs() < 1e-12
    }

    /// Pressed on the turned plank near its end, released on the anchor: a
    /// `Pin` from the plank to the anchor, `at` in the plank's frame; it loads.
    #[test]
    fn a_pin_drag_pins_the_pressed_point_in_the_turned_frame() {
        let (mut doc, world) = scene(SCENE);
        // 0.25 m along the plank's long axis from its centre: inside it.
        let (s, c) = 0.5f64.sin_cos();
        let press = p(1.0 + 0.25 * c, 2.0 + 0.25 * s);
        let step = play(&PinTool, &doc, &world, &[(press, p(0.0, 3.0))]);
        let Step::Make(made) = &step else { panic!("{step:?}") };
        assert!(made.bodies.is_empty(), "no new body: {made:?}");
        let [ConstraintSpec::Pin { name, a, b, at }] = made.constraints.as_slice() else { panic!("{made:?}") };
        assert_eq!((name.as_str(), a.as_str(), b.as_str()), ("pin1", "plank", "hook"));
        assert!(close(*at, expected_at(press)), "{at:?}");
        assert!(close(*at, (0.25, 0.0)), "on the plank's axis: {at:?}");
        apply(step, &mut doc).expect("the pin loads");
    }

    /// A click on a body pins it to the world there: a new anchor at the
    /// point, and the pin to it.
    #[test]
    fn a_click_pins_the_body_to_a_new_anchor_there() {
        let (mut doc, world) = scene(SCENE);
        let press = p(1.05, 2.1);
        let step = play(&PinTool, &doc, &world, &[(press, press)]);
        let Step::Make(made) = &step else { panic!("{step:?}") };
        let [BodySpec::Anchor { name: anchor, position }] = made.bodies.as_slice() else { panic!("{made:?}") };
        assert_eq!((anchor.as_str(), *position), ("anchor1", (1.05, 2.1)));
        let [ConstraintSpec::Pin { a, b, at, .. }] = made.constraints.as_slice() else { panic!("{made:?}") };
        assert_eq!((a.as_str(), b.as_str()), ("plank", "anchor1"));
        assert!(close(*at, expected_at(press)), "{at:?}");
        apply(step, &mut doc).expect("the pin loads");
    }

    /// Pressed on the anchor, released on the plank: the pin is the plank's,
    /// at the pressed point.
    #[test]
    fn a_pin_from_an_anchor_is_written_on_the_body_that_moves() {
        let (doc, world) = scene(SCENE);
        let step = play(&PinTool, &doc, &world, &[(p(0.0, 3.0), p(1.0, 2.0))]);
        let Step::Make(made) = step else { panic!("{step:?}") };
        let [ConstraintSpec::Pin { a, b, at, .. }] = made.constraints.as_slice() else { panic!("{made:?}") };
        assert_eq!((a.as_str(), b.as_str()), ("plank", "hook"));
        assert!(close(*at, expected_at(p(0.0, 3.0))), "{at:?}");
    }

    /// Released on empty space after a drag, or pressed on nothing: no edit,
    /// a word why.
    #[test]
    fn a_pin_released_on_nothing_is_refused_in_words() {
        let (doc, world) = scene(SCENE);
        let step = play(&PinTool, &doc, &world, &[(p(1.0, 2.0), p(2.0, 0.5))]);
        assert!(matches!(&step, Step::Say(s) if s.contains("release on another body")), "{step:?}");
        let step = play(&PinTool, &doc, &world, &[(p(2.0, 0.5), p(1.0, 2.0))]);
        assert!(matches!(&step, Step::Say(s) if s.contains("press on a body")), "{step:?}");
    }
}
