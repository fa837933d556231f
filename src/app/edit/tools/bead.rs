//! The bead tool: drag from where the bead starts; a bead threaded on the
//! panel's curve ([`BeadCurve`](super::super::BeadCurve)): a segment to the
//! release, or a circle centred there, or a parabola or a cycloid lowest
//! there. Of the panel's mass, at rest.

use bevy::math::DVec2;
use bevy::prelude::KeyCode;
use contact_core::Curve;
use contact_core::scene::schema::BodySpec;

use super::super::geometry::bead_curve;
use super::{Cx, Made, Mark, Pending, Step, UnitTool, drag_from};

pub(super) struct BeadTool;

impl UnitTool for BeadTool {
    fn label(&self) -> &'static str {
        "bead"
    }

    fn hint(&self) -> &'static str {
        "drag from where the bead starts: a segment to the release, a circle or a parabola or a cycloid around it (the panel's curve)"
    }

    fn key(&self) -> KeyCode {
        KeyCode::KeyU
    }

    fn press(&self, _: &Cx, pending: Option<Pending>, w: DVec2) -> Step {
        drag_from(pending, || Step::Keep(Pending::at(w)))
    }

    fn release(&self, cx: &Cx, pending: Pending, w: DVec2) -> Step {
        let from = pending.points[0];
        if (w - from).length() < cx.slack {
            return Step::Say("bead: drag from where it starts (see the panel's curve)".into());
        }
        let (curve, u) = bead_curve(cx.ed.bead_curve, from, w);
        Step::Make(Made::body(BodySpec::Bead {
            name: cx.doc.fresh_name("bead"),
            curve,
            u,
            u_dot: 0.0,
            mass: cx.ed.mass,
            radius: 0.0,
            force: (0.0, 0.0),
            damping: 0.0,
        }))
    }

    /// The curve the release would make, and where the bead starts on it.
    fn sketch(&self, cx: &Cx, pending: &Pending) -> Vec<Mark> {
        let (curve, u0) = bead_curve(cx.ed.bead_curve, pending.points[0], pending.to);
        let span = match curve {
            Curve::Segment { .. } => (0.0, 1.0),
            Curve::CircleArc { .. } => (u0, u0 + std::f64::consts::TAU),
            Curve::Parabola { .. } => (-u0.abs().max(1e-3), u0.abs().max(1e-3)),
            Curve::Cycloid { .. } => (-std::f64::consts::PI, std::f64::consts::PI),
        };
        let start = curve.point(u0);
        vec![Mark::Curve(curve, span), Mark::Ring(DVec2::new(start.x, start.y), 5.0)]
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{apply, empty, p, play};
    use super::*;

    /// The panel's curve at first is a segment: from the press to the
    /// release, the bead at its start; a click is refused in words.
    #[test]
    fn a_drag_threads_a_bead_on_a_segment() {
        let (mut doc, world) = empty();
        let step = play(&BeadTool, &doc, &world, &[(p(0.0, 1.0), p(0.5, 1.0))]);
        let Step::Make(made) = &step else { panic!("{step:?}") };
        let Some(BodySpec::Bead { name, curve, u, .. }) = made.bodies.first() else { panic!("{made:?}") };
        assert_eq!((name.as_str(), *u), ("bead1", 0.0));
        assert_eq!(*curve, Curve::Segment { a: (0.0, 1.0), b: (0.5, 1.0) });
        apply(step, &mut doc).expect("the bead loads");
        let click = play(&BeadTool, &doc, &world, &[(p(0.0, 1.0), p(0.0, 1.0))]);
        assert!(matches!(click, Step::Say(_)), "{click:?}");
    }
}
