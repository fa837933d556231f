//! The ball tool: a click puts a ball of the panel's radius and mass at the
//! pointer, at rest (snapped to the grid, and to touch a neighbour within
//! half a radius of it, if asked).

use bevy::math::DVec2;
use bevy::prelude::KeyCode;
use contact_core::scene::schema::BodySpec;

use super::{Cx, Made, Pending, Step, UnitTool};

pub(super) struct BallTool;

impl UnitTool for BallTool {
    fn label(&self) -> &'static str {
        "ball"
    }

    fn hint(&self) -> &'static str {
        "click where it goes"
    }

    fn key(&self) -> KeyCode {
        KeyCode::KeyB
    }

    fn press(&self, cx: &Cx, _: Option<Pending>, w: DVec2) -> Step {
        let (r, m) = (cx.ed.radius, cx.ed.mass);
        let name = cx.doc.fresh_name("ball");
        Step::Place(Made::body(ball(&name, cx.snap_ball(w, r, None), m, r)))
    }
}

/// A ball at rest at `p`, no force, no damping.
pub(super) fn ball(name: &str, p: DVec2, mass: f64, radius: f64) -> BodySpec {
    BodySpec::Ball {
        name: name.to_string(),
        position: (p.x, p.y),
        velocity: (0.0, 0.0),
        mass,
        radius,
        force: (0.0, 0.0),
        damping: 0.0,
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{BALLS, apply, p, play, scene};
    use super::*;

    /// A click puts a ball of the panel's radius and mass there, selected;
    /// near another it is snapped to touch it, a hair apart.
    #[test]
    fn a_click_places_a_ball_snapped_to_touch_its_neighbour() {
        let (mut doc, world) = scene(BALLS);
        let step = play(&BallTool, &doc, &world, &[(p(0.0, 1.0), p(0.0, 1.0))]);
        let Step::Place(made) = &step else { panic!("{step:?}") };
        assert_eq!(made.bodies, vec![ball("ball1", p(0.0, 1.0), 0.1, 0.04)]);
        assert_eq!(made.select, Some(contact_core::scene::Item::Body("ball1".into())));
        apply(step, &mut doc).expect("the ball loads");
        let Step::Place(made) = play(&BallTool, &doc, &world, &[(p(0.09, 0.5), p(0.09, 0.5))]) else { panic!() };
        let Some(BodySpec::Ball { position, .. }) = made.bodies.first() else { panic!("{made:?}") };
        assert!((position.0 - 0.08 * (1.0 + 1e-9)).abs() < 1e-12 && position.1 == 0.5, "{position:?}");
    }
}
