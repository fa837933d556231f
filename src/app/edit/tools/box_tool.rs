//! The box tool: drag a rectangle from corner to corner, a `Box` fills it
//! (angle 0, 1 kg); a click puts a 0.2 m square at the pointer.

use bevy::math::DVec2;
use bevy::prelude::KeyCode;
use contact_core::Shape;
use contact_core::scene::schema::BodySpec;

use super::{Cx, MASS, Made, Mark, Pending, Step, UnitTool};

/// The side of a clicked box, m.
const CLICKED: f64 = 0.2;

pub(super) struct BoxTool;

impl UnitTool for BoxTool {
    fn label(&self) -> &'static str {
        "box"
    }

    fn hint(&self) -> &'static str {
        "drag a rectangle from corner to corner (a click: a 0.2 m square); 1 kg, the inspector changes it"
    }

    fn key(&self) -> KeyCode {
        KeyCode::KeyQ
    }

    fn press(&self, cx: &Cx, _: Option<Pending>, w: DVec2) -> Step {
        Step::Keep(Pending::at(cx.snap(w)))
    }

    fn release(&self, cx: &Cx, pending: Pending, w: DVec2) -> Step {
        let (centre, size) = rectangle(pending.points[0], cx.snap(w), cx.slack);
        let shape = Shape::Box { size };
        Step::Make(Made::body(BodySpec::at_rest(cx.doc.fresh_name("box"), (centre.x, centre.y), MASS, shape)))
    }

    fn sketch(&self, cx: &Cx, pending: &Pending) -> Vec<Mark> {
        let (c, (w, h)) = rectangle(pending.points[0], cx.snap(pending.to), cx.slack);
        let half = DVec2::new(w, h) / 2.0;
        let corners = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)].map(|(x, y)| c + half * DVec2::new(x, y));
        (0..4).map(|i| Mark::Line(corners[i], corners[(i + 1) % 4])).chain([Mark::Dot(c)]).collect()
    }
}

/// The box dragged from corner `a` to corner `b`: its centre and size. A
/// drag shorter than `slack` is a click: the clicked square, centred at `a`.
fn rectangle(a: DVec2, b: DVec2, slack: f64) -> (DVec2, (f64, f64)) {
    if (b - a).length() < slack {
        return (a, (CLICKED, CLICKED));
    }
    let d = (b - a).abs();
    ((a + b) / 2.0, (d.x, d.y))
}

#[cfg(test)]
mod tests {
    use contact_core::scene::Item;

    use super::super::testing::{apply, empty, p, play};
    use super::*;

    /// A drag from one corner to the other makes a box centred between them,
    /// as wide and tall as the drag, at angle 0, 1 kg; it loads.
    #[test]
    fn a_box_drag_makes_the_box_it_spans() {
        let (mut doc, world) = empty();
        let step = play(&BoxTool, &doc, &world, &[(p(0.5, 0.6), p(0.1, 0.3))]);
        let Step::Make(made) = &step else { panic!("{step:?}") };
        assert_eq!(made.select, Some(Item::Body("box1".into())));
        let Some(BodySpec::Box { name, position, angle, size, mass, fixed, .. }) = made.bodies.first() else {
            panic!("{made:?}")
        };
        assert_eq!((name.as_str(), *angle, *mass, *fixed), ("box1", 0.0, 1.0, false));
        assert!((position.0 - 0.3).abs() < 1e-12 && (position.1 - 0.45).abs() < 1e-12, "{position:?}");
        assert!((size.0 - 0.4).abs() < 1e-12 && (size.1 - 0.3).abs() < 1e-12, "{size:?}");
        apply(step, &mut doc).expect("the box loads");
        assert!(doc.body("box1").is_some());
    }

    /// A click makes a 0.2 m square centred at the pointer.
    #[test]
    fn a_click_makes_a_square_at_the_pointer() {
        let (doc, world) = empty();
        let step = play(&BoxTool, &doc, &world, &[(p(0.2, 0.5), p(0.2, 0.5))]);
        let Step::Make(made) = step else { panic!("{step:?}") };
        assert!(matches!(made.bodies[0], BodySpec::Box { position: (0.2, 0.5), size: (CLICKED, CLICKED), .. }));
    }
}
