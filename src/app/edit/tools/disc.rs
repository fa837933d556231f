//! The disc tool: drag from the centre outwards, a `Disc` as wide as the
//! drag is long (1 kg); a click puts a disc of radius 0.1 m at the pointer.

use bevy::math::DVec2;
use bevy::prelude::KeyCode;
use contact_core::Shape;
use contact_core::scene::schema::BodySpec;

use super::{Cx, MASS, Made, Mark, Pending, Step, UnitTool};

/// The radius of a clicked disc, m.
const CLICKED: f64 = 0.1;

pub(super) struct DiscTool;

impl UnitTool for DiscTool {
    fn label(&self) -> &'static str {
        "disc"
    }

    fn hint(&self) -> &'static str {
        "drag from the centre outwards: the radius (a click: 0.1 m); a disc turns and rolls, 1 kg"
    }

    fn key(&self) -> KeyCode {
        KeyCode::KeyM
    }

    fn press(&self, cx: &Cx, _: Option<Pending>, w: DVec2) -> Step {
        Step::Keep(Pending::at(cx.snap(w)))
    }

    fn release(&self, cx: &Cx, pending: Pending, w: DVec2) -> Step {
        let centre = pending.points[0];
        let shape = Shape::Disc { radius: radius(centre, w, cx.slack) };
        Step::Make(Made::body(BodySpec::at_rest(cx.doc.fresh_name("disc"), (centre.x, centre.y), MASS, shape)))
    }

    fn sketch(&self, cx: &Cx, pending: &Pending) -> Vec<Mark> {
        let c = pending.points[0];
        let r = radius(c, pending.to, cx.slack);
        let rim = c + (pending.to - c).try_normalize().unwrap_or(DVec2::X) * r;
        vec![Mark::Circle(c, r), Mark::Line(c, rim), Mark::Dot(c)]
    }
}

/// The radius of the disc dragged from `centre` to `to`; a drag shorter than `slack`: a click's.
fn radius(centre: DVec2, to: DVec2, slack: f64) -> f64 {
    let r = (to - centre).length();
    if r < slack { CLICKED } else { r }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{apply, empty, p, play};
    use super::*;

    /// A drag from the centre gives the disc its length as radius; it loads.
    #[test]
    fn a_disc_drag_gives_the_radius() {
        let (mut doc, world) = empty();
        let step = play(&DiscTool, &doc, &world, &[(p(0.2, 0.5), p(0.2 + 0.09, 0.5 + 0.12))]);
        let Step::Make(made) = &step else { panic!("{step:?}") };
        let Some(BodySpec::Disc { name, position, radius, mass, angle, .. }) = made.bodies.first() else {
            panic!("{made:?}")
        };
        assert_eq!((name.as_str(), *position, *mass, *angle), ("disc1", (0.2, 0.5), 1.0, 0.0));
        assert!((radius - 0.15).abs() < 1e-12, "{radius}");
        apply(step, &mut doc).expect("the disc loads");
    }

    /// A click makes a disc of radius 0.1 m.
    #[test]
    fn a_click_makes_a_disc_of_a_tenth_of_a_metre() {
        let (doc, world) = empty();
        let Step::Make(made) = play(&DiscTool, &doc, &world, &[(p(0.0, 0.5), p(0.0, 0.5))]) else { panic!() };
        assert!(matches!(made.bodies[0], BodySpec::Disc { radius: CLICKED, .. }));
    }
}
