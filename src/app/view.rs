//! The world view: which rectangle of the plane is shown where on screen.
//!
//! The world is drawn by a 2D camera whose viewport is the central rectangle
//! left free by the egui panels; egui draws through a second camera over the
//! whole window, which is cleared to the panels' colour (the panels themselves
//! are not filled). On a software renderer nothing is shaded twice: the world
//! under the panels, then the panels over it, cost the billiard a sixth of its
//! frame rate (issue 37). [`ViewTransform`] (in the lab's shared vocabulary)
//! maps world metres to logical screen pixels (y down) for that rectangle; the
//! camera is placed so Bevy's drawing agrees with it, and the egui labels, the
//! mouse and the picking use the same map.
//!
//! Mouse: wheel zooms around the cursor, dragging empty space pans, `F` fits the
//! scene again: its region of interest, or its view box and every body
//! ([`scene_bounds`]). A new scene, a reset and presenter mode fit it too.

use bevy::input::mouse::{AccumulatedMouseScroll, MouseScrollUnit};
use bevy::math::DVec2;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;

use super::lab::{FrameSet, InputClaims, Lab, Pointer, SceneLook, StateJumped, ViewTransform, is_dynamic, palette};

/// Camera, view transform and pan/zoom.
pub struct ViewPlugin;

impl Plugin for ViewPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(Startup, spawn_cameras)
            .add_systems(PreUpdate, (update_pointer, msaa_for_the_adapter))
            .add_systems(Update, (fit_on_new_scene, zoom_with_wheel).in_set(FrameSet::Prepare))
            .add_systems(PostUpdate, place_camera.before(bevy::transform::TransformSystems::Propagate));
    }
}

/// The world camera.
#[derive(Component)]
pub struct WorldCamera;

/// The world view's background: a quad over the viewport, behind everything.
#[derive(Component)]
pub struct ViewBackground;

fn spawn_cameras(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
) {
    commands.spawn((Camera2d, WorldCamera, Msaa::Sample4));
    commands.spawn((
        Camera2d,
        Camera { order: 1, clear_color: ClearColorConfig::None, ..default() },
        // It draws egui only, none of the world's meshes or gizmos.
        bevy::camera::visibility::RenderLayers::none(),
        Msaa::Off,
        bevy_egui::PrimaryEguiContext,
    ));
    commands.spawn((
        ViewBackground,
        Mesh2d(meshes.add(Rectangle::new(1.0, 1.0))),
        MeshMaterial2d(materials.add(ColorMaterial::from_color(palette::bevy(palette::BACKGROUND)))),
        Transform::from_xyz(0.0, 0.0, -50.0),
    ));
}

/// The free rectangle in physical pixels, whole pixels covering it, inside
/// the window (a viewport outside its target is a wgpu validation error);
/// `None` while it is empty.
fn viewport_of(rect: Rect, scale: f32, physical: UVec2) -> Option<(UVec2, UVec2)> {
    let max = physical.as_vec2();
    let lo = (rect.min * scale).floor().clamp(Vec2::ZERO, max);
    let hi = (rect.max * scale).ceil().clamp(Vec2::ZERO, max);
    (hi.x - lo.x >= 1.0 && hi.y - lo.y >= 1.0).then(|| (lo.as_uvec2(), (hi - lo).as_uvec2()))
}

/// Multisampling only on a hardware adapter: on a software renderer (Mesa's
/// llvmpipe, a virtual machine, a remote desktop) 4× MSAA costs a third of
/// the frame rate (the billiard at 1600×900: 8.7 frames/s with it, 12.8
/// without, measured for issue 25). Decided once, when the adapter is known.
fn msaa_for_the_adapter(
    adapter: Option<Res<bevy::render::renderer::RenderAdapterInfo>>,
    mut cameras: Query<(&mut Msaa, &mut Camera), With<WorldCamera>>,
    mut done: Local<bool>,
) {
    let Some(adapter) = adapter.filter(|_| !*done) else { return };
    let Ok((mut msaa, mut camera)) = cameras.single_mut() else { return };
    *done = true;
    // wgpu's `DeviceType::Cpu` (Bevy does not re-export the enum; its
    // variant's name is what a dependency on wgpu-types would compare).
    if format!("{:?}", adapter.device_type) == "Cpu" {
        *msaa = Msaa::Off;
        // Both cameras now share one main texture (same target, same
        // multisampling): egui's camera draws over the world's and copies it
        // to the window once, instead of each copying the whole window.
        camera.output_mode = bevy::camera::CameraOutputMode::Skip;
        info!("software renderer ({}): multisampling off", adapter.name);
    }
}

fn update_pointer(
    window: Query<&Window, With<PrimaryWindow>>,
    mut view: ResMut<ViewTransform>,
    mut pointer: ResMut<Pointer>,
    claims: Res<InputClaims>,
) {
    let Ok(window) = window.single() else { return };
    let size = Vec2::new(window.width(), window.height());
    if view.window != size {
        view.window = size;
    }
    let screen = window.cursor_position();
    *pointer = Pointer {
        screen,
        world: screen.map(|s| view.to_world(s)),
        in_view: screen.is_some_and(|s| view.contains(s)) && !claims.pointer,
    };
}

/// A new scene is fitted; a lone body pushed by a constant force (the wedges,
/// the sticky corner) slides out of the scene's view box, so it is followed.
fn fit_on_new_scene(mut jumped: MessageReader<StateJumped>, lab: Option<Res<Lab>>, mut view: ResMut<ViewTransform>) {
    if !jumped.read().any(|j| j.new_scene) {
        return;
    }
    view.fit_pending = true;
    let Some(lab) = lab else { return };
    let mut dynamic = lab.world.model.bodies.iter().enumerate().filter(|(_, b)| b.is_dynamic());
    view.follow = match (dynamic.next(), dynamic.next()) {
        (Some((i, b)), None) if b.force.norm() > 0.0 => Some(i),
        _ => None,
    };
}

fn zoom_with_wheel(scroll: Res<AccumulatedMouseScroll>, pointer: Res<Pointer>, mut view: ResMut<ViewTransform>) {
    if scroll.delta.y == 0.0 || !pointer.in_view {
        return;
    }
    let Some(s) = pointer.screen else { return };
    let notches = match scroll.unit {
        MouseScrollUnit::Line => scroll.delta.y as f64,
        MouseScrollUnit::Pixel => scroll.delta.y as f64 / 40.0,
    };
    view.zoom_at(s, 1.15f64.powf(notches));
}

/// What "fit" shows: the scene's region of interest (its `focus`) when it
/// names one; otherwise its view box, grown to take in every body with its
/// radius (a pile taller than its box, a body that has left it).
pub fn scene_bounds(lab: &Lab) -> ((f64, f64), (f64, f64)) {
    if let Some(f) = lab.scene.focus {
        return (f.min, f.max);
    }
    let vb = lab.scene.view;
    let (mut lo, mut hi) = (vb.min, vb.max);
    for (i, body) in lab.world.model.bodies.iter().enumerate() {
        let p = lab.position(i);
        if !(p.x.is_finite() && p.y.is_finite()) {
            continue;
        }
        let r = body.radius.max(0.0);
        lo = (lo.0.min(p.x - r), lo.1.min(p.y - r));
        hi = (hi.0.max(p.x + r), hi.1.max(p.y + r));
    }
    (lo, hi)
}

/// Places the camera so the world point `view.center` lands at the centre of
/// the central rectangle, at `ppm` pixels per metre. Runs after the UI pass, so a
/// pending fit uses this frame's panel layout.
fn place_camera(
    mut view: ResMut<ViewTransform>,
    lab: Option<Res<Lab>>,
    look: Option<Res<SceneLook>>,
    window: Query<&Window, With<PrimaryWindow>>,
    mut camera: Query<(&mut Transform, &mut Projection, &mut Camera), With<WorldCamera>>,
    mut background: Query<&mut Transform, (With<ViewBackground>, Without<WorldCamera>)>,
) {
    if view.fit_pending
        && view.rect_known
        && let Some(lab) = &lab
    {
        let (lo, hi) = scene_bounds(lab);
        view.fit(lo, hi);
        view.fit_pending = false;
        view.auto_fit = true;
        // Where things are on screen: scripts (the end-to-end test) aim the mouse with it.
        for (i, name) in lab.body_names.iter().enumerate() {
            if is_dynamic(&lab.world, i) {
                let s = view.to_screen(lab.position(i));
                let r = lab.world.model.bodies[i].radius * view.ppm;
                info!("layout: {name} at window ({:.0}, {:.0}) px, radius {r:.0} px", s.x, s.y);
                let f = lab.world.model.bodies[i].force;
                if let (Some(look), true) = (look.as_ref(), f.x != 0.0 || f.y != 0.0) {
                    let tip = lab.position(i) + DVec2::new(f.x, f.y) * look.force_scale;
                    let t = view.to_screen(tip);
                    info!("layout: {name} force tip at window ({:.0}, {:.0}) px", t.x, t.y);
                }
            }
        }
    }
    // Follow a body: pan just enough to keep it in the middle 60 % of the view.
    let follow = view.follow;
    if let (Some(b), Some(lab)) = (follow, &lab)
        && b < lab.world.model.bodies.len()
    {
        let s = view.to_screen(lab.position(b));
        let m = view.rect.size() * 0.2;
        let inner = Rect::from_corners(view.rect.min + m, view.rect.max - m);
        let dx = (s.x - inner.max.x).max(0.0) + (s.x - inner.min.x).min(0.0);
        let dy = (s.y - inner.max.y).max(0.0) + (s.y - inner.min.y).min(0.0);
        let ppm = view.ppm;
        view.center += DVec2::new(dx as f64, -dy as f64) / ppm;
    }
    let Ok((mut transform, mut projection, mut camera)) = camera.single_mut() else { return };
    // The viewport's centre (logical px) shows the camera's position: the
    // whole-pixel viewport is up to a pixel larger than `rect`, so the camera
    // sits where `rect`'s mapping puts that centre.
    let viewport = window
        .single()
        .ok()
        .filter(|_| view.rect_known)
        .and_then(|w| viewport_of(view.rect, w.scale_factor(), w.physical_size()).map(|v| (v, w.scale_factor())));
    let centre = match viewport {
        Some(((at, size), scale)) => {
            if camera.viewport.as_ref().map(|v| (v.physical_position, v.physical_size)) != Some((at, size)) {
                camera.viewport =
                    Some(bevy::camera::Viewport { physical_position: at, physical_size: size, ..default() });
            }
            (at.as_vec2() + size.as_vec2() * 0.5) / scale
        }
        None => {
            if camera.viewport.is_some() {
                camera.viewport = None;
            }
            view.window * 0.5
        }
    };
    let cam = view.to_world(centre);
    // f32 is plenty for the camera: scenes are metres wide.
    transform.translation = Vec3::new(cam.x as f32, cam.y as f32, 0.0);
    if let Ok(mut bg) = background.single_mut() {
        let size = view.window.max(Vec2::ONE) / view.ppm as f32;
        bg.translation = Vec3::new(cam.x as f32, cam.y as f32, -50.0);
        bg.scale = size.extend(1.0);
    }
    if let Projection::Orthographic(ortho) = projection.as_mut() {
        let scale = (1.0 / view.ppm) as f32;
        if ortho.scale != scale {
            ortho.scale = scale;
        }
    }
}
