//! Edit mode over the world: the selection (a body's ring, a wall's line
//! across the view with its normal, a link's double line) and the gesture in
//! progress, as its tool sketches it ([`super::tools`]: the moved body, the
//! wall or link being drawn, the force arrow, the bead's curve, a shape's
//! outline). A selected box or polygon is outlined.

use bevy::math::DVec2;
use bevy::prelude::*;
use contact_core::scene::Item;
use contact_core::scene::schema::ConstraintSpec;

use super::geometry::wall_line;
use super::pick::{body_at, link_ends};
use super::tools::{Cx, Mark};
use super::{Editor, PICK_PX};
use crate::app::lab::gizmo::{arrow, curve_strip, dashed, f};
use crate::app::lab::{Lab, ViewTransform, geometry, palette};

/// The selection and the gesture in progress, over the world.
pub(super) fn draw(mut g: Gizmos, editor: Res<Editor>, lab: Option<Res<Lab>>, view: Res<ViewTransform>) {
    let Some(lab) = lab else { return };
    if !editor.on || editor.doc.is_none() {
        return;
    }
    let px = |n: f64| view.world_len(n);
    let color = palette::bevy([255, 210, 90]);
    let doc = editor.doc.as_ref().expect("checked above");
    // A wall's line across the window, through the point nearest the view's centre.
    let across = |g: &mut Gizmos, (p, n): (DVec2, DVec2)| {
        let at = view.center - n * (view.center - p).dot(n);
        let t = n.perp() * px(f64::from(view.window.length()));
        g.line_2d(f(at - t), f(at + t), color);
        arrow(g, at, n * px(30.0), px(8.0), color);
    };
    match &editor.selected {
        Some(Item::Body(name)) => {
            let outline = lab.world.model.body_index(name).zip(body_at(&lab.world, name)).and_then(|(b, (p, _))| {
                let corners = geometry::outline(&lab.world, b, p)?;
                // A few pixels out from each corner.
                Some(corners.iter().map(|&c| c + (c - p).normalize_or_zero() * px(5.0)).collect::<Vec<_>>())
            });
            if let Some(corners) = outline {
                for (i, &c) in corners.iter().enumerate() {
                    g.line_2d(f(c), f(corners[(i + 1) % corners.len()]), color);
                }
            } else if let Some((p, r)) = body_at(&lab.world, name) {
                g.circle_2d(Isometry2d::from_translation(f(p)), (r + px(5.0)) as f32, color).resolution(48);
            }
        }
        Some(Item::Wall(name)) => {
            if let Some(l) = doc.wall(name).and_then(|w| wall_line(w.normal, w.offset)) {
                across(&mut g, l);
            }
        }
        Some(Item::Constraint(name)) => match doc.constraint(name) {
            Some(ConstraintSpec::HalfPlane { normal, offset, .. }) => {
                if let Some(l) = wall_line(*normal, *offset) {
                    across(&mut g, l);
                }
            }
            Some(ConstraintSpec::BeadBound { body, .. }) => {
                if let Some((p, r)) = body_at(&lab.world, body) {
                    g.circle_2d(Isometry2d::from_translation(f(p)), (r + px(5.0)) as f32, color).resolution(48);
                }
            }
            Some(c) => {
                if let Some((a, b)) = link_ends(&lab.world, c) {
                    let side = (b - a).perp().try_normalize().unwrap_or(DVec2::Y) * px(3.0);
                    for s in [-1.0, 1.0] {
                        g.line_2d(f(a + side * s), f(b + side * s), color);
                    }
                }
            }
            None => {}
        },
        None => {}
    }
    let Some((tool, pending)) = &editor.gesture else { return };
    let cx = Cx { world: &lab.world, doc, ed: &editor, slack: px(PICK_PX) };
    for mark in tool.unit().sketch(&cx, pending) {
        match mark {
            Mark::Line(a, b) => {
                g.line_2d(f(a), f(b), color);
            }
            Mark::Dashed(a, b) => dashed(&mut g, a, b, px(6.0), px(4.0), color),
            Mark::Circle(c, r) => {
                g.circle_2d(Isometry2d::from_translation(f(c)), r as f32, color).resolution(64);
            }
            Mark::Dot(c) => {
                g.circle_2d(Isometry2d::from_translation(f(c)), px(4.0) as f32, color);
            }
            Mark::Ring(c, n) => {
                g.circle_2d(Isometry2d::from_translation(f(c)), px(n) as f32, color);
            }
            Mark::Body(c, r) => {
                g.circle_2d(Isometry2d::from_translation(f(c)), r.max(px(4.0)) as f32, color).resolution(48);
            }
            Mark::Arrow(p, along) => arrow(&mut g, p, along, px(10.0), color),
            Mark::Normal(p, n) => arrow(&mut g, p, n * px(30.0), px(8.0), color),
            Mark::Across(p, n) => across(&mut g, (p, n)),
            Mark::Curve(curve, span) => curve_strip(&mut g, &curve, span, 64, color),
        }
    }
}
