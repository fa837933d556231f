//! What is under the pointer in edit mode, and where things are: the body
//! pressed on, the wall or constraint clicked, a link's ends, the plane of a
//! wall or a half-plane. The tools pick with these, the drawing finds with them.

use bevy::math::DVec2;
use contact_core::World;
use contact_core::scene::schema::ConstraintSpec;
use contact_core::scene::{Item, SceneDoc};

use super::geometry::{outside, wall_line};
use crate::app::lab::geometry;

/// Where body `name` is (the installed document's start), and its radius (0 for points).
pub(super) fn body_at(world: &World, name: &str) -> Option<(DVec2, f64)> {
    let b = world.model.body_index(name)?;
    let p = world.model.position(b, &world.state);
    Some((DVec2::new(p.x, p.y), world.model.bodies[b].radius))
}

/// The body under `w` other than `except`, nearest first: inside a box or a
/// polygon, or within a round body's radius, give or take `slack` (m).
pub(super) fn body_under(world: &World, w: DVec2, slack: f64, except: Option<usize>) -> Option<usize> {
    let m = &world.model;
    (0..m.bodies.len())
        .filter(|&b| Some(b) != except)
        .map(|b| {
            let c = m.position(b, &world.state);
            let c = DVec2::new(c.x, c.y);
            let d = match geometry::outline(world, b, c) {
                Some(corners) => outside(&corners, w),
                None => (c - w).length() - m.bodies[b].radius,
            };
            (b, d)
        })
        .filter(|(_, d)| *d <= slack)
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(b, _)| b)
}

/// The two bodies' centres of a rod, a rope, a contact or a pin, as the world has them.
pub(super) fn link_ends(world: &World, c: &ConstraintSpec) -> Option<(DVec2, DVec2)> {
    match c {
        ConstraintSpec::Rod { a, b, .. }
        | ConstraintSpec::Rope { a, b, .. }
        | ConstraintSpec::Contact { a, b, .. }
        | ConstraintSpec::Pin { a, b, .. } => Some((body_at(world, a)?.0, body_at(world, b)?.0)),
        ConstraintSpec::HalfPlane { .. } | ConstraintSpec::BeadBound { .. } => None,
    }
}

/// The wall or written constraint under `w` (within `slack` of its line or
/// segment), nearest first. A bead's end stop is picked from the panel's list.
pub(super) fn item_under(world: &World, doc: &SceneDoc, w: DVec2, slack: f64) -> Option<Item> {
    let to_line = |(p, n): (DVec2, DVec2)| (w - p).dot(n).abs();
    let to_segment = |(a, b): (DVec2, DVec2)| {
        let ab = b - a;
        let t = if ab.length_squared() > 0.0 { ((w - a).dot(ab) / ab.length_squared()).clamp(0.0, 1.0) } else { 0.0 };
        (w - (a + ab * t)).length()
    };
    let walls =
        doc.file.walls.iter().filter_map(|wall| {
            wall_line(wall.normal, wall.offset).map(|l| (to_line(l), Item::Wall(wall.name.clone())))
        });
    let constraints = doc.file.constraints.iter().filter_map(|c| {
        let name = Item::Constraint(contact_core::scene::document::constraint_name(c));
        match c {
            ConstraintSpec::HalfPlane { normal, offset, .. } => wall_line(*normal, *offset).map(|l| (to_line(l), name)),
            _ => link_ends(world, c).map(|ends| (to_segment(ends), name)),
        }
    });
    walls.chain(constraints).filter(|(d, _)| *d <= slack).min_by(|a, b| a.0.total_cmp(&b.0)).map(|(_, item)| item)
}

/// The normal and offset of a wall or a half-plane constraint.
pub(super) fn plane(d: &SceneDoc, item: &Item) -> Option<((f64, f64), f64)> {
    match item {
        Item::Wall(name) => d.wall(name).map(|w| (w.normal, w.offset)),
        Item::Constraint(name) => match d.constraint(name)? {
            ConstraintSpec::HalfPlane { normal, offset, .. } => Some((*normal, *offset)),
            _ => None,
        },
        Item::Body(_) => None,
    }
}
