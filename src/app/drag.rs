//! The mouse on the world: drag a body with a spring, drag the tip of a constant
//! force arrow to set `f`, pin a spring so it stays, pan the view.
//!
//! The spring is the core's [`contact_core::input::Spring`], a spring-damper
//! toward the cursor, stiffness scaled by the body's mass so every body follows
//! alike (a critically-damped-ish 1.5 Hz):
//!
//! ```text
//! F = m (ω² (x_cursor − p) − 2ζω ṗ),   ω = 2π · 1.5 Hz,  ζ = 0.7
//! ```
//!
//! It is written into the body's `user_force` in [`PhysicsSet::Forces`], from the
//! state of that very step, so it is part of `f` in eq. (1) like any other force;
//! the input log (the inputs feature) records the springs so the run replays.
//!
//! Left button: on a force tip → set `f`; on a body → spring; elsewhere → pan
//! (on a ball with the cue tool armed or Shift held, the cue feature takes the
//! gesture first and claims it: [`InputClaims::tool`]).
//! While dragging a body, the right button (or `P`) pins the spring where it is;
//! the right button on a pinned spring's anchor removes it.

use bevy::math::DVec2;
use bevy::prelude::*;

use super::lab::geometry;
use super::lab::gizmo::{arrow, f};
use super::lab::{
    Drags, FrameSet, Grab, Highlight, InputClaims, Interpolation, Lab, LabBody, PhysicsSet, PointMotion, Pointer,
    SceneLook, Spring, StateJumped, Status, ViewTransform, is_dynamic, palette,
};

pub use contact_core::input::{SPRING_HZ, SPRING_ZETA};

pub struct DragPlugin;

impl Plugin for DragPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(FixedUpdate, apply_springs.in_set(PhysicsSet::Forces))
            .add_systems(Update, forget_on_new_scene.in_set(FrameSet::Prepare))
            .add_systems(Update, mouse.in_set(FrameSet::Mouse))
            .add_systems(Update, draw_springs.in_set(FrameSet::Overlay));
    }
}

fn forget_on_new_scene(mut jumped: MessageReader<StateJumped>, mut drags: ResMut<Drags>) {
    if jumped.read().any(|j| j.new_scene) {
        *drags = Drags::default();
    }
}

/// [`PhysicsSet::Forces`]: the springs' forces from this step's state into `user_force`
/// ([`contact_core::input::apply_springs`]), and into each spring for its arrow.
pub fn apply_springs(lab: Option<ResMut<Lab>>, mut drags: ResMut<Drags>) {
    let Some(mut lab) = lab else { return };
    let world = &mut lab.world;
    contact_core::input::apply_springs(world, &drags.core_springs());
    let Drags { grab, pins } = &mut *drags;
    let grabbed = match grab {
        Some(Grab::Body(s)) => Some(s),
        _ => None,
    };
    for s in pins.iter_mut().chain(grabbed) {
        let f = s.core().force(world);
        s.force = DVec2::new(f.x, f.y);
        s.peak = s.peak.max(s.force.length());
    }
}

#[allow(clippy::too_many_arguments)]
pub fn mouse(
    buttons: Res<ButtonInput<MouseButton>>,
    keys: Res<ButtonInput<KeyCode>>,
    pointer: Res<Pointer>,
    claims: Res<InputClaims>,
    mut view: ResMut<ViewTransform>,
    lab: Option<ResMut<Lab>>,
    look: Res<SceneLook>,
    interp: Res<Interpolation>,
    bodies: Query<(&LabBody, &PointMotion)>,
    mut drags: ResMut<Drags>,
    mut highlight: ResMut<Highlight>,
    mut status: ResMut<Status>,
    real: Res<Time<Real>>,
) {
    let Some(mut lab) = lab else { return };
    let now = real.elapsed_secs_f64();
    let mut pos = vec![DVec2::ZERO; lab.world.model.bodies.len()];
    for (b, m) in &bodies {
        pos[b.index] = m.at(interp.alpha);
    }
    let grab_px = 8.0;
    // The body under the cursor (nearest within its radius + a few pixels).
    let hovered = pointer.world.filter(|_| pointer.in_view).and_then(|w| {
        pos.iter()
            .enumerate()
            .filter(|(i, _)| is_dynamic(&lab.world, *i))
            .map(|(i, p)| match geometry::outline(&lab.world, i, *p) {
                // A box or a polygon: under the cursor when it is inside.
                Some(corners) => (i, distance_outside(&corners, w)),
                None => (i, (w - *p).length() - lab.world.model.bodies[i].radius),
            })
            .filter(|(_, d)| *d <= view.world_len(grab_px))
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(i, _)| i)
    });
    highlight.body = hovered.or(match drags.grab {
        Some(Grab::Body(s)) => Some(s.body),
        _ => None,
    });
    // A tool (the cue's aim) has the gesture.
    if claims.tool {
        return;
    }
    let tip_under = |w: DVec2| -> Option<usize> {
        lab.world.model.bodies.iter().enumerate().find_map(|(i, b)| {
            if !b.is_dynamic() || (b.force.x == 0.0 && b.force.y == 0.0) {
                return None;
            }
            let tip = pos[i] + DVec2::new(b.force.x, b.force.y) * look.force_scale;
            ((tip - w).length() <= view.world_len(10.0)).then_some(i)
        })
    };

    // Press.
    if buttons.just_pressed(MouseButton::Left)
        && pointer.in_view
        && !claims.pointer
        && let (Some(w), Some(s)) = (pointer.world, pointer.screen)
    {
        drags.grab = if let Some(b) = tip_under(w) {
            Some(Grab::ForceTip { body: b })
        } else if let Some(b) = hovered {
            info!("drag: grabbed {} at ({:.4}, {:.4})", lab.body_names[b], pos[b].x, pos[b].y);
            // A body that turns is held where it was grabbed (its frame), so the spring turns it.
            let at = geometry::angle(&lab.world, b).map_or(DVec2::ZERO, |a| DVec2::from_angle(-a).rotate(w - pos[b]));
            Some(Grab::Body(Spring { body: b, target: w, at, force: DVec2::ZERO, peak: 0.0, start: pos[b] }))
        } else {
            Some(Grab::Pan { last: s })
        };
    }

    // Move.
    match &mut drags.grab {
        Some(Grab::Body(s)) => {
            if let Some(w) = pointer.world {
                s.target = w;
            }
        }
        Some(Grab::ForceTip { body }) => {
            if let Some(w) = pointer.world {
                let f = (w - pos[*body]) / look.force_scale.max(1e-12);
                lab.world.model.bodies[*body].force = nalgebra::Vector2::new(f.x, f.y);
            }
        }
        Some(Grab::Pan { last }) => {
            if let Some(s) = pointer.screen {
                let d = s - *last;
                if d != Vec2::ZERO {
                    view.pan_by(d);
                }
                *last = s;
            }
        }
        None => {}
    }

    // Pin the dragged spring (right button or P).
    let pin_now = buttons.just_pressed(MouseButton::Right) || (keys.just_pressed(KeyCode::KeyP) && !claims.keyboard);
    if pin_now && let Some(Grab::Body(s)) = drags.grab {
        drags.pins.push(s);
        drags.grab = None;
        status.say(now, format!("Pinned a spring on {} (right-click its anchor to remove)", lab.body_names[s.body]));
        return;
    }
    // Remove a pinned spring (right button on its anchor or its body).
    if buttons.just_pressed(MouseButton::Right)
        && pointer.in_view
        && let Some(w) = pointer.world
    {
        let near = view.world_len(10.0);
        if let Some(i) = drags.pins.iter().position(|s| (s.target - w).length() <= near || Some(s.body) == hovered) {
            let s = drags.pins.remove(i);
            status.say(now, format!("Removed the spring on {}", lab.body_names[s.body]));
        }
    }

    // Release.
    if buttons.just_released(MouseButton::Left) {
        match drags.grab.take() {
            Some(Grab::Body(s)) => {
                let end = pos[s.body];
                let msg = format!(
                    "drag: {} moved from ({:.4}, {:.4}) to ({:.4}, {:.4}), |Δ| = {:.4} m, peak spring force {:.3} N",
                    lab.body_names[s.body],
                    s.start.x,
                    s.start.y,
                    end.x,
                    end.y,
                    (end - s.start).length(),
                    s.peak
                );
                status.say(now, msg);
            }
            Some(Grab::ForceTip { body }) => {
                let f = lab.world.model.bodies[body].force;
                status.say(now, format!("f on {} = ({:.3}, {:.3}) N", lab.body_names[body], f.x, f.y));
            }
            _ => {}
        }
    }
}

/// Springs as zigzags from the body to the anchor, with an arrow of their force.
fn draw_springs(
    mut g: Gizmos,
    drags: Res<Drags>,
    view: Res<ViewTransform>,
    look: Res<SceneLook>,
    interp: Res<Interpolation>,
    bodies: Query<(&LabBody, &PointMotion)>,
    lab: Option<Res<Lab>>,
) {
    let Some(lab) = lab else { return };
    let px = |n: f64| view.world_len(n);
    for s in drags.springs() {
        let Some((_, m)) = bodies.iter().find(|(b, _)| b.index == s.body) else { continue };
        let p = s.point(&lab.world, m.at(interp.alpha));
        let d = s.target - p;
        let len = d.length();
        let color = palette::bevy(palette::SPRING);
        if len > 1e-9 {
            let dir = d / len;
            let side = dir.perp() * px(6.0);
            let n = ((len / px(8.0)) as usize).clamp(4, 40);
            let pts = (0..=n).map(|i| {
                let u = i as f64 / n as f64;
                let wiggle = if i == 0 || i == n {
                    0.0
                } else if i % 2 == 0 {
                    1.0
                } else {
                    -1.0
                };
                f(p + d * u + side * wiggle)
            });
            g.linestrip_2d(pts, color.with_alpha(0.8));
        }
        let anchor = f(s.target);
        g.circle_2d(Isometry2d::from_translation(anchor), px(4.0) as f32, color);
        let force = (s.force * look.force_scale).clamp_length_max(px(220.0));
        arrow(&mut g, p, force, px(11.0), color);
    }
}

/// How far `w` is outside the convex polygon `corners` (counterclockwise):
/// negative inside, the distance to the nearest edge's line outside.
fn distance_outside(corners: &[DVec2], w: DVec2) -> f64 {
    (0..corners.len())
        .map(|i| {
            let (a, b) = (corners[i], corners[(i + 1) % corners.len()]);
            let outward = (b - a).perp().normalize_or_zero() * -1.0;
            (w - a).dot(outward)
        })
        .fold(f64::NEG_INFINITY, f64::max)
}
