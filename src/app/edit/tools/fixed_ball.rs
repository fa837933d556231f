//! The fixed ball tool: a click puts a fixed ball (a `post`) of the panel's
//! radius at the pointer (snapped to the grid, and to touch a neighbour, if
//! asked).

use bevy::math::DVec2;
use bevy::prelude::KeyCode;
use contact_core::scene::schema::BodySpec;

use super::{Cx, Made, Pending, Step, UnitTool};

pub(super) struct FixedBallTool;

impl UnitTool for FixedBallTool {
    fn label(&self) -> &'static str {
        "fixed ball"
    }

    fn hint(&self) -> &'static str {
        "click where it goes"
    }

    fn key(&self) -> KeyCode {
        KeyCode::KeyX
    }

    fn press(&self, cx: &Cx, _: Option<Pending>, w: DVec2) -> Step {
        let r = cx.ed.radius;
        let name = cx.doc.fresh_name("post");
        let p = cx.snap_ball(w, r, None);
        Step::Place(Made::body(BodySpec::FixedBall { name, position: (p.x, p.y), radius: r }))
    }
}
