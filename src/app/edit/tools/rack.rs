//! The rack tool: a click puts a triangle of touching balls (or balls the
//! panel's gap apart) at the pointer, its apex there, opening to the right,
//! as many rows as the panel says; the first ball is selected and carries a
//! note of how the rack was made.

use bevy::math::DVec2;
use bevy::prelude::KeyCode;
use contact_core::scene::Item;

use super::ball::ball;
use super::{Cx, Made, Pending, Step, UnitTool};

pub(super) struct RackTool;

impl UnitTool for RackTool {
    fn label(&self) -> &'static str {
        "rack of balls"
    }

    fn hint(&self) -> &'static str {
        "click: the apex of a triangle of balls opening to the right (rows and gap in the panel)"
    }

    fn key(&self) -> KeyCode {
        KeyCode::KeyN
    }

    fn press(&self, cx: &Cx, _: Option<Pending>, w: DVec2) -> Step {
        let ed = cx.ed;
        let (r, m) = (ed.radius, ed.mass);
        let apex = cx.snap(w);
        let mut names = cx.doc.body_names();
        let mut specs = Vec::new();
        // Rows to the right, each one ball taller, `rack_gap` apart (touching:
        // a hair apart, never overlapping by round-off).
        let d = (2.0 * r + ed.rack_gap.max(0.0)) * (1.0 + 1e-9);
        for row in 0..ed.rack_rows.max(1) {
            for k in 0..=row {
                let name = (1..).map(|i| format!("rack{i}")).find(|n| !names.contains(n)).expect("a name");
                let p = apex + DVec2::new(row as f64 * d * 3f64.sqrt() / 2.0, (k as f64 - row as f64 / 2.0) * d);
                specs.push(ball(&name, p, m, r));
                names.push(name);
            }
        }
        let first = contact_core::scene::document::body_name(&specs[0]).to_string();
        let rows = ed.rack_rows.max(1);
        let note = format!(
            "A rack of {} balls in {rows} rows, {}, made in the editor: apex at ({:.4}, {:.4}), opening to +x.",
            specs.len(),
            if ed.rack_gap > 0.0 { format!("{} m apart", ed.rack_gap) } else { "touching".into() },
            apex.x,
            apex.y
        );
        Step::Place(Made {
            bodies: specs,
            notes: vec![(first.clone(), note)],
            select: Some(Item::Body(first)),
            ..Made::default()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{apply, empty, p, play};
    use super::*;

    /// Four rows by default: ten touching balls, the first selected and
    /// carrying the note of how the rack was made.
    #[test]
    fn a_click_racks_ten_balls_with_a_note() {
        let (mut doc, world) = empty();
        let step = play(&RackTool, &doc, &world, &[(p(0.0, 0.5), p(0.0, 0.5))]);
        let Step::Place(made) = &step else { panic!("{step:?}") };
        assert_eq!(made.bodies.len(), 10);
        assert_eq!(made.select, Some(Item::Body("rack1".into())));
        let [(first, note)] = made.notes.as_slice() else { panic!("{made:?}") };
        assert_eq!(first, "rack1");
        assert!(
            note.starts_with("A rack of 10 balls in 4 rows, touching, made in the editor: apex at (0.0000, 0.5000)")
        );
        apply(step, &mut doc).expect("the rack loads");
        assert_eq!(doc.notes.len(), 1);
    }
}
