//! The anchor tool: a click puts an anchor (a fixed point, for links and
//! pins) at the pointer, snapped to the grid if asked.

use bevy::math::DVec2;
use bevy::prelude::KeyCode;
use contact_core::scene::schema::BodySpec;

use super::{Cx, Made, Pending, Step, UnitTool};

pub(super) struct AnchorTool;

impl UnitTool for AnchorTool {
    fn label(&self) -> &'static str {
        "anchor"
    }

    fn hint(&self) -> &'static str {
        "click where it goes"
    }

    fn key(&self) -> KeyCode {
        KeyCode::KeyA
    }

    fn press(&self, cx: &Cx, _: Option<Pending>, w: DVec2) -> Step {
        let p = cx.snap(w);
        Step::Place(Made::body(BodySpec::Anchor { name: cx.doc.fresh_name("anchor"), position: (p.x, p.y) }))
    }
}
