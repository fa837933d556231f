//! What a tool sees ([`Cx`]): the world as the document starts it, the
//! document, the editor's settings and selection, and the pick's slack; and
//! what it asks of them: a point snapped (to the grid, a ball to touch its
//! neighbour), the body under the pointer, a free name.

use bevy::math::DVec2;
use contact_core::World;
use contact_core::scene::SceneDoc;

use super::super::Editor;
use super::super::pick::body_under;
use crate::app::lab::geometry;

/// What a tool sees: the world as the document starts it, the document, the
/// editor (the panel's settings, the selection), how near (m) a press must
/// be to pick something.
pub(in crate::app::edit) struct Cx<'a> {
    pub world: &'a World,
    pub doc: &'a SceneDoc,
    pub ed: &'a Editor,
    pub slack: f64,
}

impl Cx<'_> {
    /// `p` on the grid, if points snap to it.
    pub(in crate::app::edit) fn snap(&self, p: DVec2) -> DVec2 {
        if self.ed.snap_grid && self.ed.grid > 0.0 { (p / self.ed.grid).round() * self.ed.grid } else { p }
    }

    /// `p` snapped to the grid, then, for a ball of radius `r`, to touch the
    /// nearest other round body (not `except`) if it is within half a radius
    /// of touching.
    pub(in crate::app::edit) fn snap_ball(&self, p: DVec2, r: f64, except: Option<&str>) -> DVec2 {
        let mut p = self.snap(p);
        if self.ed.snap_contact && r > 0.0 {
            let m = &self.world.model;
            let near = (0..m.bodies.len())
                .filter(|&b| m.bodies[b].radius > 0.0 && Some(m.bodies[b].name.as_str()) != except)
                .map(|b| {
                    let c = m.position(b, &self.world.state);
                    let c = DVec2::new(c.x, c.y);
                    (c, m.bodies[b].radius, (p - c).length() - m.bodies[b].radius - r)
                })
                .filter(|(_, _, gap)| gap.abs() < 0.5 * r)
                .min_by(|a, b| a.2.abs().total_cmp(&b.2.abs()));
            if let Some((c, rb, _)) = near {
                let dir = (p - c).try_normalize().unwrap_or(DVec2::X);
                // A hair apart: touching, never overlapping by round-off.
                p = c + dir * (rb + r) * (1.0 + 1e-9);
            }
        }
        p
    }

    /// The body under `w` other than `except` (its index): see [`body_under`].
    pub(in crate::app::edit) fn body_under(&self, w: DVec2, except: Option<usize>) -> Option<usize> {
        body_under(self.world, w, self.slack, except)
    }

    /// The name of the body under `w`, nearest first.
    pub(in crate::app::edit) fn name_under(&self, w: DVec2) -> Option<String> {
        self.body_under(w, None).map(|b| self.world.model.bodies[b].name.clone())
    }

    /// Body `b`'s point (a body that turns: its centroid) and its angle (0 for one that does not turn).
    pub(in crate::app::edit) fn frame_of(&self, b: usize) -> (DVec2, f64) {
        let p = self.world.model.position(b, &self.world.state);
        (DVec2::new(p.x, p.y), geometry::angle(self.world, b).unwrap_or(0.0))
    }

    /// The first name of `stems` (each with 1, 2, …) no body, wall or constraint
    /// has, nor a row of the installed model (a pin's `NAME:x`).
    pub(in crate::app::edit) fn free_name(&self, stem: &str) -> String {
        let names = self.doc.body_names();
        let model = &self.world.model;
        (1..)
            .map(|i| format!("{stem}{i}"))
            .find(|n| {
                !names.contains(n)
                    && !self.doc.name_taken(n)
                    && [n.clone(), format!("{n}:x"), format!("{n}:y")]
                        .iter()
                        .all(|r| model.constraint_index(r).is_none() && model.body_index(r).is_none())
            })
            .expect("a free name")
    }

    /// The first of `candidates` no wall or written constraint has, nor a
    /// row of the installed model (the generated `WALL:BALL`, `A-B`).
    pub(in crate::app::edit) fn free_of(&self, mut candidates: impl Iterator<Item = String>) -> String {
        candidates
            .find(|n| !self.doc.name_taken(n) && self.world.model.constraint_index(n).is_none())
            .expect("a free name")
    }
}
