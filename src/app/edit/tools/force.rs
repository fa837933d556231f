//! The force tool: drag from a body; its constant force becomes the arrow
//! from its centre to the release, [`FORCE_PER_M`] newtons per metre (a
//! ball's, a particle's or a bead's; other bodies keep none).

use bevy::math::DVec2;
use bevy::prelude::KeyCode;

use super::super::pick::body_at;
use super::{Change, Cx, Made, Mark, Pending, Step, UnitTool, drag_from_body};

/// Newtons of constant force per metre of the force tool's arrow.
pub const FORCE_PER_M: f64 = 10.0;

pub(super) struct ForceTool;

impl UnitTool for ForceTool {
    fn label(&self) -> &'static str {
        "force"
    }

    fn hint(&self) -> &'static str {
        "drag from a body: 10 N per metre of arrow"
    }

    fn key(&self) -> KeyCode {
        KeyCode::KeyG
    }

    fn press(&self, cx: &Cx, pending: Option<Pending>, w: DVec2) -> Step {
        drag_from_body(self.label(), cx, pending, w)
    }

    fn release(&self, cx: &Cx, pending: Pending, w: DVec2) -> Step {
        let Some(body) = pending.body else { return Step::Stop };
        let Some((p, _)) = body_at(cx.world, &body) else { return Step::Stop };
        Step::Make(Made::change(Change::Force(body, (w - p) * FORCE_PER_M)))
    }

    fn sketch(&self, cx: &Cx, pending: &Pending) -> Vec<Mark> {
        let from = pending.body.as_deref().and_then(|b| body_at(cx.world, b));
        from.map_or_else(Vec::new, |(p, _)| vec![Mark::Arrow(p, pending.to - p)])
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{BALLS, p, play, scene};
    use super::*;

    /// An arrow of 0.2 m to the right: 2 N on the ball, the selection kept.
    #[test]
    fn a_drag_sets_the_force_ten_newtons_per_metre() {
        let (doc, world) = scene(BALLS);
        let step = play(&ForceTool, &doc, &world, &[(p(0.3, 0.5), p(0.5, 0.5))]);
        let Step::Make(made) = step else { panic!("{step:?}") };
        let [Change::Force(body, f)] = made.changes.as_slice() else { panic!("{made:?}") };
        assert!(body == "b" && (*f - DVec2::new(2.0, 0.0)).length() < 1e-12, "{f:?}");
        assert_eq!(made.select, None);
    }
}
