//! The particle tool: a click puts a particle of the panel's mass at the
//! pointer (snapped to the grid, if asked), at rest.

use bevy::math::DVec2;
use bevy::prelude::KeyCode;
use contact_core::scene::schema::BodySpec;

use super::{Cx, Made, Pending, Step, UnitTool};

pub(super) struct ParticleTool;

impl UnitTool for ParticleTool {
    fn label(&self) -> &'static str {
        "particle"
    }

    fn hint(&self) -> &'static str {
        "click where it goes"
    }

    fn key(&self) -> KeyCode {
        KeyCode::KeyP
    }

    fn press(&self, cx: &Cx, _: Option<Pending>, w: DVec2) -> Step {
        let p = cx.snap(w);
        Step::Place(Made::body(BodySpec::Particle {
            name: cx.doc.fresh_name("particle"),
            position: (p.x, p.y),
            velocity: (0.0, 0.0),
            mass: cx.ed.mass,
            radius: 0.0,
            force: (0.0, 0.0),
            damping: 0.0,
        }))
    }
}
