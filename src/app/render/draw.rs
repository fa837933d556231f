//! The world's gizmos, one function per layer, drawn back to front: grid, bead
//! curves, walls (hatched on the forbidden side), contacts, rods, strings and
//! bounds coloured by their state, trails, body outlines, the constant forces
//! and the `λ ∂g/∂p` arrows on one common scale, and the rewind flashes.
//!
//! A constraint `g_k(q) ≥ 0` with multiplier `λ_k` adds `J_kᵀ λ_k` to the
//! generalized forces (eq. 6: `M q̈ = f + Jᵀλ`): on a body's point, the force
//! `λ_k ∂g_k/∂p` the arrows show ([`crate::app::lab::geometry`]).

use bevy::color::Alpha;
use bevy::math::DVec2;
use bevy::prelude::*;
use contact_core::{BodyKind, Curve, Geometry, World};

use super::meshes::PARTICLE_PX;
use super::trails::{FLASH_SECONDS, Flashes, Trail};
use crate::app::lab::geometry::{gradients, point_at};
use crate::app::lab::gizmo::{arrow, curve_strip, f, grid_step, outlined_arrow};
use crate::app::lab::{
    ConstraintState, ConstraintStatus, DrawOptions, Highlight, Interpolation, Lab, LabBody, LabConstraint, PointMotion,
    SceneLook, ViewTransform, geometry, palette,
};

/// What every layer of the drawing reads: the bodies' points as drawn this
/// frame, each constraint's status, the view.
struct Frame<'a> {
    world: &'a World,
    /// Body points, interpolated between the last two steps.
    pos: Vec<DVec2>,
    status: Vec<ConstraintStatus>,
    view: &'a ViewTransform,
    highlight: &'a Highlight,
    /// The visible world rectangle.
    lo: DVec2,
    hi: DVec2,
    /// Whether each contact's marks and arrows are drawn: not in a crowd of
    /// bodies smaller than [`DETAIL_PX`] on screen (a heap at 1024×768,
    /// 9 px discs, each under its contacts' 14 px marks and 11 px arrow
    /// heads). Zoomed in they come back; the table and the hover keep them.
    detail: bool,
    /// The median size of the bodies that move ([`typical_size`]).
    typical: f64,
}

/// The typical body's size on screen (px) under which a crowd is drawn
/// without its contacts' marks and arrows ([`Frame::detail`]).
const DETAIL_PX: f64 = 14.0;

/// Whether `world`'s bodies, `typical` in size, seen at `view`, are large
/// enough or few enough for their contacts' marks and arrows.
fn detail(world: &World, typical: f64, view: &ViewTransform) -> bool {
    let moving = world.model.bodies.iter().filter(|b| b.is_dynamic()).count();
    moving <= CROWD || typical >= view.world_len(DETAIL_PX)
}

fn state_color(s: ConstraintState) -> Color {
    palette::bevy(palette::state_rgb(s))
}

/// [`crate::app::lab::FrameSet::Draw`]: every layer of the world.
#[allow(clippy::too_many_arguments)]
pub fn draw_world(
    mut g: Gizmos,
    lab: Option<Res<Lab>>,
    mut look: ResMut<SceneLook>,
    view: Res<ViewTransform>,
    opts: Res<DrawOptions>,
    interp: Res<Interpolation>,
    highlight: Res<Highlight>,
    real: Res<Time<Real>>,
    mut flashes: ResMut<Flashes>,
    bodies: Query<(&LabBody, &PointMotion, Option<&Trail>)>,
    constraints: Query<(&LabConstraint, &ConstraintStatus)>,
) {
    let Some(lab) = lab else { return };
    let world = &lab.world;
    let mut pos = vec![DVec2::ZERO; world.model.bodies.len()];
    for (b, m, _) in &bodies {
        pos[b.index] = m.at(interp.alpha);
    }
    let mut status = vec![ConstraintStatus::default(); world.model.constraints.len()];
    for (c, s) in &constraints {
        status[c.index] = *s;
    }
    let (lo, hi) = view.visible();
    let typical = typical_size(world);
    let detail = detail(world, typical, &view);
    let s = Frame { world, pos, status, view: &view, highlight: &highlight, lo, hi, detail, typical };
    let g = &mut g;
    if opts.grid {
        draw_grid(g, &view, lo, hi);
    }
    draw_curves(g, &s);
    draw_walls(g, &s, &look);
    draw_constraints(g, &s);
    if opts.trails {
        draw_trails(g, &bodies);
    }
    draw_outlines(g, &s, &bodies);
    if opts.force_arrows {
        draw_forces(g, &s, &look);
    }
    if opts.lambda_arrows && s.detail {
        draw_lambdas(g, &s, &mut look);
    }
    draw_flashes(g, &s, &mut flashes, real.elapsed_secs_f64());
}

/// Curves carrying beads.
fn draw_curves(g: &mut Gizmos, s: &Frame) {
    let (world, lo, hi) = (s.world, s.lo, s.hi);
    for b in &world.model.bodies {
        if let BodyKind::Bead(curve) = &b.kind {
            let span = curve_range(curve, world, b.offset, lo, hi);
            curve_strip(g, curve, span, 240, palette::bevy(palette::AXIS).lighter(0.25));
        }
    }
}

/// Walls: the line n·x = c, hatched on the forbidden side, coloured by the
/// strongest state of their constraints; a mark where each ball touches.
fn draw_walls(g: &mut Gizmos, s: &Frame, look: &SceneLook) {
    let (world, lo, hi, status, highlight) = (s.world, s.lo, s.hi, &s.status, s.highlight);
    let at = |b: usize| s.pos[b];
    let px = |n: f64| s.view.world_len(n);
    let extent = (hi - lo).length() * 2.0 + 1.0;
    let center = (lo + hi) * 0.5;
    for w in &look.walls {
        let foot = center - w.normal * (w.normal.dot(center) - w.offset);
        let t = DVec2::new(-w.normal.y, w.normal.x);
        let state = w.constraints.iter().map(|&k| status[k].state).max().unwrap_or_default();
        let hl = w.constraints.iter().any(|k| highlight.constraint == Some(*k));
        let color =
            if w.constraints.len() == 1 { state_color(state) } else { palette::bevy(palette::AXIS).lighter(0.2) };
        let (a, b) = (foot - t * extent, foot + t * extent);
        g.line_2d(f(a), f(b), if hl { palette::bevy(palette::HIGHLIGHT) } else { color });
        // Hatching every 14 px, 9 px deep.
        let step = px(14.0);
        let depth = px(9.0);
        let count = ((2.0 * extent) / step).min(4000.0) as i64;
        let s0 = (foot - t * extent).dot(t);
        let first = (s0 / step).floor() as i64;
        let base = foot - t * foot.dot(t);
        for i in first..first + count {
            let p = base + t * (i as f64 * step);
            if p.x < lo.x - 1.0 || p.x > hi.x + 1.0 || p.y < lo.y - 1.0 || p.y > hi.y + 1.0 {
                continue;
            }
            g.line_2d(f(p), f(p - w.normal * depth - t * depth * 0.6), color.with_alpha(0.55));
        }
        if w.constraints.len() > 1 {
            for &k in &w.constraints {
                let s = status[k].state;
                if s == ConstraintState::Inactive && highlight.constraint != Some(k) {
                    continue;
                }
                let body = world.model.constraints[k].bodies()[0];
                let r = world.model.bodies[body].radius.max(px(8.0));
                let p = at(body) - w.normal * (w.normal.dot(at(body)) - w.offset);
                let c =
                    if highlight.constraint == Some(k) { palette::bevy(palette::HIGHLIGHT) } else { state_color(s) };
                g.line_2d(f(p - t * r), f(p + t * r), c);
                g.line_2d(f(p - t * r + w.normal * px(2.0)), f(p + t * r + w.normal * px(2.0)), c);
            }
        }
    }
}

/// Contacts, rods, strings, bounds of beads.
fn draw_constraints(g: &mut Gizmos, s: &Frame) {
    let (world, status, highlight, detail) = (s.world, &s.status, s.highlight, s.detail);
    let at = |b: usize| s.pos[b];
    let px = |n: f64| s.view.world_len(n);
    for (k, c) in world.model.constraints.iter().enumerate() {
        let s = status[k].state;
        let hl = highlight.constraint == Some(k);
        let color = if hl { palette::bevy(palette::HIGHLIGHT) } else { state_color(s) };
        match c.geometry {
            Geometry::Contact { a, b } => {
                if (s == ConstraintState::Inactive || !detail) && !hl {
                    continue;
                }
                let (pa, pb) = (at(a), at(b));
                let nu = (pa - pb).normalize_or(DVec2::Y);
                let touch = pa - nu * world.model.bodies[a].radius;
                let t = DVec2::new(-nu.y, nu.x);
                g.line_2d(f(pa), f(pb), color.with_alpha(0.7));
                g.line_2d(f(touch - t * px(7.0)), f(touch + t * px(7.0)), color);
            }
            Geometry::Distance { a, b, length, at_a, at_b } => {
                let (pa, pb) = (point_at(world, a, at_a, &at), point_at(world, b, at_b, &at));
                if c.is_inequality() {
                    // A string: slack when g > 0, drawn sagging; taut when active.
                    let slack = status[k].g > world.settings.tol.active;
                    if slack {
                        let sag = ((length * length - (pa - pb).length_squared()).max(0.0)).sqrt() * 0.5;
                        let pts = (0..=24).map(|i| {
                            let u = i as f64 / 24.0;
                            let p = pa.lerp(pb, u);
                            let drop = sag * 4.0 * u * (1.0 - u);
                            f(p - DVec2::Y * drop)
                        });
                        g.linestrip_2d(pts, if hl { color } else { state_color(ConstraintState::Inactive) });
                    } else {
                        g.line_2d(f(pa), f(pb), color);
                    }
                } else {
                    let t = (pa - pb).normalize_or(DVec2::X).perp() * px(1.5);
                    g.line_2d(f(pa + t), f(pb + t), color);
                    g.line_2d(f(pa - t), f(pb - t), color);
                }
            }
            Geometry::CoordBound { body, value, .. } => {
                if let BodyKind::Bead(curve) = &world.model.bodies[body].kind {
                    let p = curve.point(value);
                    let tan = curve.d1(value);
                    let tan = DVec2::new(tan.x, tan.y).normalize_or(DVec2::X);
                    let n = tan.perp() * px(10.0);
                    let p = DVec2::new(p.x, p.y);
                    g.line_2d(f(p - n), f(p + n), color);
                    g.line_2d(f(p - n + tan * px(2.0)), f(p + n + tan * px(2.0)), color);
                }
            }
            Geometry::Pin { a, at_a, axis: 0, .. } => {
                // The hinge, once for its two rows.
                let p = point_at(world, a, at_a, &at);
                g.circle_2d(Isometry2d::from_translation(f(p)), px(4.0) as f32, color);
            }
            Geometry::CornerEdge { .. } | Geometry::CornerDisc { .. } => {
                // The corner (or the disc's point) where it touches, when it does.
                if (s != ConstraintState::Inactive && detail) || hl {
                    let p = gradients(world, k, &at)[0].1;
                    g.circle_2d(Isometry2d::from_translation(f(p)), px(3.0) as f32, color);
                }
            }
            Geometry::HalfPlane { .. } | Geometry::Pin { .. } => {}
        }
    }
}

/// The recent path of each body.
fn draw_trails(g: &mut Gizmos, bodies: &Query<(&LabBody, &PointMotion, Option<&Trail>)>) {
    for (b, _, trail) in bodies.iter() {
        let Some(trail) = trail else { continue };
        if trail.0.len() < 2 {
            continue;
        }
        let rgb = palette::body_rgb(b.index);
        g.linestrip_2d(trail.0.iter().map(|(_, p)| f(*p)), palette::bevy_a(rgb, 0.45));
    }
}

/// Outlines (and the highlighted body).
fn draw_outlines(g: &mut Gizmos, s: &Frame, bodies: &Query<(&LabBody, &PointMotion, Option<&Trail>)>) {
    let (world, highlight) = (s.world, s.highlight);
    let at = |b: usize| s.pos[b];
    let px = |n: f64| s.view.world_len(n);
    for (b, _, _) in bodies.iter() {
        let body = &world.model.bodies[b.index];
        let p = at(b.index);
        let r = if body.radius > 0.0 { body.radius } else { px(PARTICLE_PX) };
        let touched_by_row =
            highlight.constraint.is_some_and(|k| world.model.constraints[k].bodies().contains(&b.index));
        let lit = highlight.body == Some(b.index) || touched_by_row;
        if let Some(angle) = geometry::angle(world, b.index) {
            // A body that turns: its outline, and a mark from its centroid
            // along its frame's x axis, which shows it turning.
            let white = Color::srgba(1.0, 1.0, 1.0, 0.6);
            let reach = match geometry::outline(world, b.index, p) {
                Some(corners) => {
                    let color = if lit { palette::bevy(palette::HIGHLIGHT) } else { white };
                    g.linestrip_2d(corners.iter().chain(corners.first()).map(|c| f(*c)), color);
                    corners.iter().map(|c| (*c - p).length()).fold(0.0, f64::max) * 0.8
                }
                None => {
                    if lit {
                        g.circle_2d(
                            Isometry2d::from_translation(f(p)),
                            (r + px(5.0)) as f32,
                            palette::bevy(palette::HIGHLIGHT),
                        )
                        .resolution(48);
                    }
                    g.circle_2d(Isometry2d::from_translation(f(p)), r as f32, white).resolution(48);
                    r
                }
            };
            g.line_2d(f(p), f(p + DVec2::from_angle(angle) * reach), white);
            continue;
        }
        if lit {
            g.circle_2d(Isometry2d::from_translation(f(p)), (r + px(5.0)) as f32, palette::bevy(palette::HIGHLIGHT))
                .resolution(48);
        }
        g.circle_2d(Isometry2d::from_translation(f(p)), r as f32, Color::srgba(1.0, 1.0, 1.0, 0.35)).resolution(48);
        if let BodyKind::Fixed { .. } = body.kind {
            g.line_2d(f(p - DVec2::splat(r * 0.6)), f(p + DVec2::splat(r * 0.6)), palette::bevy(palette::AXIS));
        }
    }
}

/// Constant forces `f`, on the scene's force scale (their tip can be dragged,
/// see the drag feature).
fn draw_forces(g: &mut Gizmos, s: &Frame, look: &SceneLook) {
    let world = s.world;
    let at = |b: usize| s.pos[b];
    let px = |n: f64| s.view.world_len(n);
    let head = px(11.0);
    for (i, b) in world.model.bodies.iter().enumerate() {
        if !b.is_dynamic() || (b.force.x == 0.0 && b.force.y == 0.0) {
            continue;
        }
        let fv = DVec2::new(b.force.x, b.force.y) * look.force_scale;
        arrow(g, at(i), fv, head, palette::bevy(palette::FORCE));
        g.circle_2d(Isometry2d::from_translation(f(at(i) + fv)), px(5.0) as f32, palette::bevy(palette::FORCE));
    }
}

/// λ arrows: the force λ_k ∂g_k/∂p of every handled constraint, and the
/// friction `λ_t t` of every contact with friction beside it. Their scale
/// eases toward one where the largest fits 15 % of the view.
fn draw_lambdas(g: &mut Gizmos, s: &Frame, look: &mut SceneLook) {
    let (world, lo, hi, status) = (s.world, s.lo, s.hi, &s.status);
    let at = |b: usize| s.pos[b];
    let px = |n: f64| s.view.world_len(n);
    let head = px(11.0);
    let forces: Vec<(usize, geometry::ConstraintForce)> = status
        .iter()
        .enumerate()
        .filter(|(_, s)| s.handled && s.lambda != 0.0)
        .flat_map(|(k, s)| geometry::constraint_forces(world, k, s.lambda, &at).into_iter().map(move |cf| (k, cf)))
        .collect();
    // Friction, on the same scale (Coulomb: at most μ times the push beside it).
    let frictions: Vec<(f64, geometry::ConstraintForce)> = status
        .iter()
        .enumerate()
        .filter(|(_, s)| s.handled && s.friction != 0.0)
        .flat_map(|(k, s)| geometry::friction_forces(world, k, s.friction, &at).into_iter().map(|cf| (s.friction, cf)))
        .collect();
    let largest = forces.iter().map(|(_, cf)| cf.force.length()).fold(0.0, f64::max);
    // The largest within 15 % of the view; in a crowd (a pile, a pyramid)
    // within the size of a body, so each arrow stays by its own.
    let reach = if forces.len() > CROWD { (0.15 * (hi.y - lo.y)).min(s.typical) } else { 0.15 * (hi.y - lo.y) };
    let fit = if largest > 0.0 { reach / largest } else { f64::INFINITY };
    let target = look.force_scale.min(fit);
    let eased = look.lambda_scale + (target - look.lambda_scale) * 0.15;
    look.lambda_scale = if eased.is_finite() && eased > 0.0 { eased } else { look.force_scale };
    for (k, cf) in forces {
        let s = status[k];
        {
            // A negative λ only means trouble for an inequality (a rod pulls, a contact should not).
            let ineq = world.model.constraints[k].is_inequality();
            let rgb = if s.lambda >= 0.0 || !ineq { palette::LAMBDA_POS } else { palette::LAMBDA_NEG };
            let v = cf.force * look.lambda_scale;
            arrow(g, cf.at, v, head, palette::bevy(rgb));
        }
    }
    // Each friction arrow lies along the surface a few pixels outside its
    // body (`force = λ_t n̂⊥`, so `n̂ = −force⊥ / λ_t` points into the body):
    // drawn on the body, it was lost on a yellow block (issue 47, item 7).
    // A friction well below the push beside it (μ = 0.2 on the incline) is
    // drawn at least two and a half heads long, so its direction reads from
    // the back of a room; its size is in the table and the hover.
    // In a crowd (a pile, a heap) no such least length: hundreds of arrows
    // each two and a half heads long hid the heap they stand on.
    let crowd = frictions.len() > CROWD;
    for (friction, cf) in frictions {
        let inward = -cf.force.perp() / friction;
        let at = cf.at - inward.normalize_or_zero() * px(if crowd { 2.0 } else { 6.0 });
        let v = cf.force * look.lambda_scale;
        let shortest = if crowd { 0.0 } else { 2.5 * head };
        let v = if v.length() < shortest { v.normalize_or_zero() * shortest } else { v };
        outlined_arrow(g, at, v, if crowd { px(5.0) } else { head }, px(1.0), palette::bevy(palette::FRICTION));
    }
}

/// More λ arrows than this are a crowd (see [`draw_lambdas`]).
const CROWD: usize = 24;

/// The median size of the bodies that move: a ball's or a disc's diameter,
/// twice a shape's inradius.
fn typical_size(world: &World) -> f64 {
    let mut sizes: Vec<f64> = world
        .model
        .bodies
        .iter()
        .filter(|b| b.is_dynamic())
        .map(|b| 2.0 * b.shape().map_or(b.radius, |s| s.inradius()))
        .filter(|s| *s > 0.0)
        .collect();
    if sizes.is_empty() {
        return f64::INFINITY;
    }
    sizes.sort_by(f64::total_cmp);
    sizes[sizes.len() / 2]
}

/// Rewinds to a first activation: rings that widen and fade.
fn draw_flashes(g: &mut Gizmos, s: &Frame, flashes: &mut Flashes, now: f64) {
    let px = |n: f64| s.view.world_len(n);
    flashes.0.retain(|fl| now - fl.born < FLASH_SECONDS);
    // The most recent few (a settling pile rewinds every step).
    let skip = flashes.0.len().saturating_sub(12);
    for fl in &flashes.0[skip..] {
        let age = ((now - fl.born) / FLASH_SECONDS).clamp(0.0, 1.0);
        let r = px(6.0 + 30.0 * age);
        let c = palette::bevy_a(palette::EVENT, (1.0 - age) as f32);
        g.circle_2d(Isometry2d::from_translation(f(fl.at)), r as f32, c).resolution(40);
        g.circle_2d(Isometry2d::from_translation(f(fl.at)), (r * 0.6) as f32, c).resolution(40);
    }
}

/// Grid lines at a 1-2-5 step, the axes brighter.
fn draw_grid(g: &mut Gizmos, view: &ViewTransform, lo: DVec2, hi: DVec2) {
    let step = grid_step(view.ppm, 70.0);
    let grid = palette::bevy_a(palette::GRID, 0.8);
    let axis = palette::bevy(palette::AXIS);
    let (i0, i1) = ((lo.x / step).floor() as i64, (hi.x / step).ceil() as i64);
    for i in i0..=i1.min(i0 + 400) {
        let x = i as f64 * step;
        g.line_2d(Vec2::new(x as f32, lo.y as f32), Vec2::new(x as f32, hi.y as f32), if i == 0 { axis } else { grid });
    }
    let (j0, j1) = ((lo.y / step).floor() as i64, (hi.y / step).ceil() as i64);
    for j in j0..=j1.min(j0 + 400) {
        let y = j as f64 * step;
        g.line_2d(Vec2::new(lo.x as f32, y as f32), Vec2::new(hi.x as f32, y as f32), if j == 0 { axis } else { grid });
    }
}

/// The range of `u` to draw a bead's curve over.
fn curve_range(curve: &Curve, world: &World, offset: usize, lo: DVec2, hi: DVec2) -> (f64, f64) {
    let (mut u0, mut u1) = match curve {
        Curve::Segment { .. } => (0.0, 1.0),
        Curve::CircleArc { .. } => (-std::f64::consts::PI, std::f64::consts::PI),
        Curve::Parabola { vertex, .. } => (lo.x - vertex.0, hi.x - vertex.0),
        Curve::Cycloid { .. } => (-std::f64::consts::PI, std::f64::consts::PI),
    };
    for c in &world.model.constraints {
        if let Geometry::CoordBound { body, value, upper, .. } = c.geometry
            && world.model.bodies[body].offset == offset
        {
            if upper { u1 = u1.max(value) } else { u0 = u0.min(value) }
        }
    }
    (u0, u1)
}
