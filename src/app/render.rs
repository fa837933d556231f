//! Drawing the world: balls and particles as meshes placed at the interpolated
//! points, walls with their forbidden side shaded, strings, rods and curves, each
//! constraint coloured by its state; `λ` and the constant forces as arrows on one
//! common scale; flashes where time was rewound to a first activation.
//!
//! Motion is interpolated between fixed steps: a body is drawn at
//! `previous + α (current − previous)` with `α` the fraction of a fixed step the
//! virtual clock has run past the last one (1 when paused).

use std::collections::VecDeque;

use bevy::color::Alpha;
use bevy::math::DVec2;
use bevy::prelude::*;
use contact_core::{BodyKind, Curve, Geometry};

use super::geometry::{self, Wall};
use super::palette;
use super::physics::{
    ConstraintState, ConstraintStatus, Lab, LabBody, LabConstraint, PhysicsSet, PointMotion, SceneEntity, StateJumped,
};
use super::view::ViewTransform;

/// What to draw (toggles of the controls panel).
#[derive(Resource, Clone, Debug)]
pub struct DrawOptions {
    pub lambda_arrows: bool,
    pub force_arrows: bool,
    pub trails: bool,
    pub grid: bool,
    pub labels: bool,
    /// Keep this body in view (pans as it goes).
    pub follow: Option<usize>,
}

impl Default for DrawOptions {
    fn default() -> Self {
        DrawOptions { lambda_arrows: true, force_arrows: true, trails: true, grid: true, labels: true, follow: None }
    }
}

/// The fraction of a fixed step to interpolate by this frame.
#[derive(Resource, Clone, Copy, Debug)]
pub struct Interpolation {
    pub alpha: f64,
}

impl Default for Interpolation {
    fn default() -> Self {
        Interpolation { alpha: 1.0 }
    }
}

/// Derived from the scene once per install: walls and the force scale.
#[derive(Resource, Clone, Debug, Default)]
pub struct SceneLook {
    pub generation: Option<u64>,
    pub walls: Vec<Wall>,
    /// Metres of arrow per newton (constant forces and springs; λ arrows too
    /// unless they would not fit, see `lambda_scale`).
    pub force_scale: f64,
    /// Metres of arrow per newton for `λ ∂g/∂p`: `force_scale`, or less when the
    /// largest would be longer than 15 % of the view (a pile of balls), eased
    /// so the arrows do not jump.
    pub lambda_scale: f64,
}

/// What is highlighted: a body under the cursor or a row under the pointer in the table.
#[derive(Resource, Clone, Debug, Default)]
pub struct Highlight {
    /// Body hovered in the view.
    pub body: Option<usize>,
    /// Constraint hovered in the table.
    pub constraint: Option<usize>,
}

/// A rewind to a first activation, drawn as an expanding ring for a moment.
#[derive(Clone, Debug)]
pub struct Flash {
    pub at: DVec2,
    /// `Time<Real>` seconds when it was recorded.
    pub born: f64,
}

#[derive(Resource, Clone, Debug, Default)]
pub struct Flashes(pub Vec<Flash>);

/// Seconds a flash stays on screen.
pub const FLASH_SECONDS: f64 = 0.9;

/// The recent path of a body's point.
#[derive(Component, Clone, Debug, Default)]
pub struct Trail(pub VecDeque<DVec2>);

const TRAIL_POINTS: usize = 1500;

/// The translucent region behind a wall.
#[derive(Component)]
struct WallShade(usize);

/// Shared meshes and materials.
#[derive(Resource)]
struct Assets2d {
    disc: Handle<Mesh>,
    square: Handle<Mesh>,
    shade: Handle<ColorMaterial>,
}

/// The [`Update`] systems that draw the world (after the mouse has moved things).
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DrawSet;

/// Everything that draws the world.
pub struct WorldRenderPlugin;

impl Plugin for WorldRenderPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<DrawOptions>()
            .init_resource::<Interpolation>()
            .init_resource::<SceneLook>()
            .init_resource::<Highlight>()
            .init_resource::<Flashes>()
            .insert_resource(ClearColor(palette::bevy(palette::BACKGROUND)))
            .add_systems(Startup, make_assets)
            .add_systems(FixedUpdate, (record_trails, record_flashes).in_set(PhysicsSet::Record))
            .add_systems(
                Update,
                (
                    (update_look, add_body_visuals, clear_trails_on_jump),
                    interpolation,
                    (place_bodies, place_shades, draw_world).in_set(DrawSet),
                )
                    .chain(),
            );
    }
}

fn make_assets(mut commands: Commands, mut meshes: ResMut<Assets<Mesh>>, mut materials: ResMut<Assets<ColorMaterial>>) {
    commands.insert_resource(Assets2d {
        disc: meshes.add(Circle::new(1.0).mesh().resolution(64)),
        square: meshes.add(Rectangle::new(1.0, 1.0)),
        shade: materials.add(ColorMaterial::from_color(palette::bevy_a(palette::SHADE, 0.16))),
    });
}

fn update_look(
    mut commands: Commands,
    lab: Option<Res<Lab>>,
    mut look: ResMut<SceneLook>,
    mut draw: ResMut<DrawOptions>,
    assets: Option<Res<Assets2d>>,
) {
    let (Some(lab), Some(assets)) = (lab, assets) else { return };
    if look.generation == Some(lab.generation) {
        return;
    }
    let world = &lab.world;
    look.generation = Some(lab.generation);
    // A lone body pushed by a constant force (the wedges, the sticky corner) slides
    // out of the scene's view box: follow it from the start.
    let mut dynamic = world.model.bodies.iter().enumerate().filter(|(_, b)| b.is_dynamic());
    draw.follow = match (dynamic.next(), dynamic.next()) {
        (Some((i, b)), None) if b.force.norm() > 0.0 => Some(i),
        _ => None,
    };
    look.walls = geometry::walls(world);
    let vb = lab.scene.view;
    let height = (vb.max.1 - vb.min.1).abs().max((vb.max.0 - vb.min.0).abs() * 0.5);
    look.force_scale = 0.22 * height / geometry::reference_force(world);
    look.lambda_scale = look.force_scale;
    for (i, _) in look.walls.iter().enumerate() {
        commands.spawn((
            SceneEntity,
            WallShade(i),
            Mesh2d(assets.square.clone()),
            MeshMaterial2d(assets.shade.clone()),
            Transform::from_xyz(0.0, 0.0, -2.0),
        ));
    }
}

fn add_body_visuals(
    mut commands: Commands,
    lab: Option<Res<Lab>>,
    added: Query<(Entity, &LabBody), Added<LabBody>>,
    assets: Option<Res<Assets2d>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
) {
    let (Some(lab), Some(assets)) = (lab, assets) else { return };
    for (e, body) in &added {
        let b = &lab.world.model.bodies[body.index];
        let rgb = match b.kind {
            BodyKind::Fixed { .. } => [110, 116, 128],
            _ => palette::body_rgb(body.index),
        };
        commands.entity(e).insert((
            Mesh2d(assets.disc.clone()),
            MeshMaterial2d(materials.add(ColorMaterial::from_color(palette::bevy(rgb)))),
            Transform::from_xyz(0.0, 0.0, -1.0),
            Trail::default(),
        ));
    }
}

fn clear_trails_on_jump(mut jumped: MessageReader<StateJumped>, mut trails: Query<&mut Trail>) {
    if jumped.read().next().is_some() {
        for mut t in &mut trails {
            t.0.clear();
        }
    }
}

fn interpolation(fixed: Res<Time<Fixed>>, virt: Res<Time<Virtual>>, mut interp: ResMut<Interpolation>) {
    interp.alpha = if virt.is_paused() { 1.0 } else { fixed.overstep_fraction_f64().clamp(0.0, 1.0) };
}

/// Pixel radius of a particle (a point with no radius).
const PARTICLE_PX: f64 = 6.0;

fn place_bodies(
    lab: Option<Res<Lab>>,
    interp: Res<Interpolation>,
    view: Res<ViewTransform>,
    mut bodies: Query<(&LabBody, &PointMotion, &mut Transform)>,
) {
    let Some(lab) = lab else { return };
    for (body, motion, mut tf) in &mut bodies {
        let p = motion.at(interp.alpha);
        let r = lab.world.model.bodies[body.index].radius;
        let r = if r > 0.0 { r } else { view.world_len(PARTICLE_PX) };
        tf.translation = Vec3::new(p.x as f32, p.y as f32, -1.0);
        tf.scale = Vec3::new(r as f32, r as f32, 1.0);
    }
}

/// Places each wall's shade over the forbidden side, across the visible area.
fn place_shades(look: Res<SceneLook>, view: Res<ViewTransform>, mut shades: Query<(&WallShade, &mut Transform)>) {
    let (lo, hi) = view.visible();
    let center = (lo + hi) * 0.5;
    let extent = (hi - lo).length() * 2.0 + 1.0;
    for (shade, mut tf) in &mut shades {
        let Some(w) = look.walls.get(shade.0) else { continue };
        // Closest point of the line n·x = c to the view centre, then half a shade deeper.
        let foot = center - w.normal * (w.normal.dot(center) - w.offset);
        let mid = foot - w.normal * (extent * 0.5);
        let angle = w.normal.y.atan2(w.normal.x) as f32 + std::f32::consts::FRAC_PI_2;
        tf.translation = Vec3::new(mid.x as f32, mid.y as f32, -2.0);
        tf.rotation = Quat::from_rotation_z(angle);
        tf.scale = Vec3::new(extent as f32 * 2.0, extent as f32, 1.0);
    }
}

fn record_trails(mut bodies: Query<(&PointMotion, &mut Trail)>) {
    for (m, mut trail) in &mut bodies {
        if trail.0.back().is_none_or(|last| (*last - m.current).length() > 1e-4) {
            trail.0.push_back(m.current);
            if trail.0.len() > TRAIL_POINTS {
                trail.0.pop_front();
            }
        }
    }
}

fn record_flashes(lab: Option<Res<Lab>>, real: Res<Time<Real>>, mut flashes: ResMut<Flashes>) {
    let Some(lab) = lab else { return };
    let Some(report) = &lab.report else { return };
    if report.events.is_empty() {
        return;
    }
    let now = real.elapsed_secs_f64();
    let world = &lab.world;
    let pos = |b: usize| geometry::point(world, b);
    for ev in &report.events {
        for &k in &ev.constraints {
            flashes.0.push(Flash { at: geometry::anchor(world, k, &pos), born: now });
        }
    }
    if flashes.0.len() > 200 {
        let n = flashes.0.len() - 200;
        flashes.0.drain(..n);
    }
}

fn state_color(s: ConstraintState) -> Color {
    palette::bevy(palette::state_rgb(s))
}

/// Draws an arrow from `from` along `vec` (world units) with a head of `head` metres.
pub fn arrow(g: &mut Gizmos, from: DVec2, vec: DVec2, head: f64, color: Color) {
    let len = vec.length();
    if len < 1e-12 {
        return;
    }
    let to = from + vec;
    let dir = vec / len;
    let head = head.min(len * 0.5);
    let side = DVec2::new(-dir.y, dir.x) * head * 0.45;
    let base = to - dir * head;
    g.line_2d(f(from), f(to), color);
    g.line_2d(f(to), f(base + side), color);
    g.line_2d(f(to), f(base - side), color);
}

pub fn f(p: DVec2) -> Vec2 {
    Vec2::new(p.x as f32, p.y as f32)
}

#[allow(clippy::too_many_arguments)]
fn draw_world(
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
    let nb = world.model.bodies.len();
    let mut pos = vec![DVec2::ZERO; nb];
    for (b, m, _) in &bodies {
        pos[b.index] = m.at(interp.alpha);
    }
    let at = |b: usize| pos[b];
    let mut status = vec![ConstraintStatus::default(); world.model.constraints.len()];
    for (c, s) in &constraints {
        status[c.index] = *s;
    }
    let px = |n: f64| view.world_len(n);
    let (lo, hi) = view.visible();

    if opts.grid {
        draw_grid(&mut g, &view, lo, hi);
    }

    // Curves carrying beads.
    for b in &world.model.bodies {
        if let BodyKind::Bead(curve) = &b.kind {
            let (u0, u1) = curve_range(curve, world, b.offset, lo, hi);
            let n = 240;
            let pts = (0..=n).map(|i| {
                let u = u0 + (u1 - u0) * i as f64 / n as f64;
                let p = curve.point(u);
                Vec2::new(p.x as f32, p.y as f32)
            });
            g.linestrip_2d(pts, palette::bevy(palette::AXIS).lighter(0.25));
        }
    }

    // Walls: the line n·x = c, hatched on the forbidden side, coloured by the
    // strongest state of their constraints; a mark where each ball touches.
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

    // Contacts, rods, strings, bounds of beads.
    for (k, c) in world.model.constraints.iter().enumerate() {
        let s = status[k].state;
        let hl = highlight.constraint == Some(k);
        let color = if hl { palette::bevy(palette::HIGHLIGHT) } else { state_color(s) };
        match c.geometry {
            Geometry::Contact { a, b } => {
                if s == ConstraintState::Inactive && !hl {
                    continue;
                }
                let (pa, pb) = (at(a), at(b));
                let nu = (pa - pb).normalize_or(DVec2::Y);
                let touch = pa - nu * world.model.bodies[a].radius;
                let t = DVec2::new(-nu.y, nu.x);
                g.line_2d(f(pa), f(pb), color.with_alpha(0.7));
                g.line_2d(f(touch - t * px(7.0)), f(touch + t * px(7.0)), color);
            }
            Geometry::Distance { a, b, length } => {
                let (pa, pb) = (at(a), at(b));
                if c.is_inequality() {
                    // A string: slack when g > 0, drawn sagging; taut when active.
                    let slack = status[k].g > world.settings.tol.active;
                    if slack {
                        let mid = (pa + pb) * 0.5;
                        let sag = ((length * length - (pa - pb).length_squared()).max(0.0)).sqrt() * 0.5;
                        let pts = (0..=24).map(|i| {
                            let u = i as f64 / 24.0;
                            let p = pa.lerp(pb, u);
                            let drop = sag * 4.0 * u * (1.0 - u);
                            f(p - DVec2::Y * drop + (mid - mid))
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
            Geometry::HalfPlane { .. } => {}
        }
    }

    // Trails.
    if opts.trails {
        for (b, _, trail) in &bodies {
            let Some(trail) = trail else { continue };
            if trail.0.len() < 2 {
                continue;
            }
            let rgb = palette::body_rgb(b.index);
            g.linestrip_2d(trail.0.iter().map(|p| f(*p)), palette::bevy_a(rgb, 0.45));
        }
    }

    // Outlines (and the highlighted body).
    for (b, _, _) in &bodies {
        let body = &world.model.bodies[b.index];
        let p = at(b.index);
        let r = if body.radius > 0.0 { body.radius } else { px(PARTICLE_PX) };
        let touched_by_row =
            highlight.constraint.is_some_and(|k| world.model.constraints[k].bodies().contains(&b.index));
        if highlight.body == Some(b.index) || touched_by_row {
            g.circle_2d(Isometry2d::from_translation(f(p)), (r + px(5.0)) as f32, palette::bevy(palette::HIGHLIGHT))
                .resolution(48);
        }
        g.circle_2d(Isometry2d::from_translation(f(p)), r as f32, Color::srgba(1.0, 1.0, 1.0, 0.35)).resolution(48);
        if let BodyKind::Fixed { .. } = body.kind {
            g.line_2d(f(p - DVec2::splat(r * 0.6)), f(p + DVec2::splat(r * 0.6)), palette::bevy(palette::AXIS));
        }
    }

    let head = px(11.0);
    // Constant forces f (their tip can be dragged, see drag.rs).
    if opts.force_arrows {
        for (i, b) in world.model.bodies.iter().enumerate() {
            if !b.is_dynamic() || (b.force.x == 0.0 && b.force.y == 0.0) {
                continue;
            }
            let fv = DVec2::new(b.force.x, b.force.y) * look.force_scale;
            arrow(&mut g, at(i), fv, head, palette::bevy(palette::FORCE));
            g.circle_2d(Isometry2d::from_translation(f(at(i) + fv)), px(5.0) as f32, palette::bevy(palette::FORCE));
        }
    }

    // λ arrows: the force λ_k ∂g_k/∂p of every handled constraint.
    if opts.lambda_arrows {
        let forces: Vec<(usize, geometry::ConstraintForce)> = status
            .iter()
            .enumerate()
            .filter(|(_, s)| s.handled && s.lambda != 0.0)
            .flat_map(|(k, s)| geometry::constraint_forces(world, k, s.lambda, &at).into_iter().map(move |cf| (k, cf)))
            .collect();
        let largest = forces.iter().map(|(_, cf)| cf.force.length()).fold(0.0, f64::max);
        let fit = if largest > 0.0 { 0.15 * (hi.y - lo.y) / largest } else { f64::INFINITY };
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
                arrow(&mut g, cf.at, v, head, palette::bevy(rgb));
            }
        }
    }

    // Rewind flashes.
    let now = real.elapsed_secs_f64();
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

/// A grid step of 1, 2 or 5 × 10ᵏ m that is at least `min_px` apart on screen.
pub fn grid_step(ppm: f64, min_px: f64) -> f64 {
    let raw = min_px / ppm;
    let k = raw.log10().floor();
    let base = 10f64.powf(k);
    for m in [1.0, 2.0, 5.0, 10.0] {
        if base * m >= raw {
            return base * m;
        }
    }
    base * 10.0
}

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
fn curve_range(curve: &Curve, world: &contact_core::World, offset: usize, lo: DVec2, hi: DVec2) -> (f64, f64) {
    let (mut u0, mut u1) = match curve {
        Curve::Segment { .. } => (0.0, 1.0),
        Curve::CircleArc { .. } => (-std::f64::consts::PI, std::f64::consts::PI),
        Curve::Parabola { vertex, .. } => (lo.x - vertex.0, hi.x - vertex.0),
        Curve::Cycloid { .. } => (-std::f64::consts::PI, std::f64::consts::PI),
    };
    for c in &world.model.constraints {
        if let Geometry::CoordBound { body, value, upper, .. } = c.geometry {
            if world.model.bodies[body].offset == offset {
                if upper { u1 = u1.max(value) } else { u0 = u0.min(value) }
            }
        }
    }
    (u0, u1)
}
