//! The world view: which rectangle of the plane is shown where on screen.
//!
//! The world is drawn by a 2D camera covering the window, but only the central
//! rectangle left free by the egui panels is visible. [`ViewTransform`] maps world
//! metres to logical screen pixels (y down) for that rectangle; the camera is
//! placed so Bevy's drawing agrees with it, and the egui labels, the mouse and the
//! picking use the same map.
//!
//! Mouse: wheel zooms around the cursor, dragging empty space pans, `F` fits the
//! scene's view box again.

use bevy::input::mouse::{AccumulatedMouseScroll, MouseScrollUnit};
use bevy::math::DVec2;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;

use super::physics::{Lab, StateJumped};

/// World (m, y up) ↔ screen (logical px, y down) for the central rectangle.
#[derive(Resource, Clone, Copy, Debug)]
pub struct ViewTransform {
    /// World point at the centre of `rect`.
    pub center: DVec2,
    /// Logical pixels per metre.
    pub ppm: f64,
    /// The central rectangle, logical px: `(min, max)`, y down.
    pub rect: Rect,
    /// The window's logical size.
    pub window: Vec2,
    /// Fit the scene's view box at the next frame (after the panels are laid out).
    pub fit_pending: bool,
    /// The panels have been laid out once, so `rect` is the real free area.
    pub rect_known: bool,
}

impl Default for ViewTransform {
    fn default() -> Self {
        ViewTransform {
            center: DVec2::ZERO,
            ppm: 200.0,
            rect: Rect::new(0.0, 0.0, 1280.0, 720.0),
            window: Vec2::new(1280.0, 720.0),
            fit_pending: true,
            rect_known: false,
        }
    }
}

impl ViewTransform {
    pub fn to_screen(&self, p: DVec2) -> Vec2 {
        let c = self.rect.center();
        Vec2::new(c.x + ((p.x - self.center.x) * self.ppm) as f32, c.y - ((p.y - self.center.y) * self.ppm) as f32)
    }

    pub fn to_world(&self, s: Vec2) -> DVec2 {
        let c = self.rect.center();
        DVec2::new(self.center.x + (s.x - c.x) as f64 / self.ppm, self.center.y - (s.y - c.y) as f64 / self.ppm)
    }

    /// The same mapping in egui points when egui draws `zoom` times larger
    /// (presenter mode): the rectangle and the pixels per metre divided by `zoom`.
    pub fn in_points(&self, zoom: f32) -> ViewTransform {
        let r = self.rect;
        ViewTransform { rect: Rect::from_corners(r.min / zoom, r.max / zoom), ppm: self.ppm / zoom as f64, ..*self }
    }

    /// World length of `px` logical pixels.
    pub fn world_len(&self, px: f64) -> f64 {
        px / self.ppm
    }

    /// The visible world rectangle `(min, max)`.
    pub fn visible(&self) -> (DVec2, DVec2) {
        let a = self.to_world(Vec2::new(self.rect.min.x, self.rect.max.y));
        let b = self.to_world(Vec2::new(self.rect.max.x, self.rect.min.y));
        (a, b)
    }

    /// Shows the box `(min, max)` with a margin.
    pub fn fit(&mut self, min: (f64, f64), max: (f64, f64)) {
        let w = (max.0 - min.0).abs().max(1e-6);
        let h = (max.1 - min.1).abs().max(1e-6);
        let rw = self.rect.width().max(50.0) as f64;
        let rh = self.rect.height().max(50.0) as f64;
        self.ppm = (rw / w).min(rh / h) * 0.92;
        self.center = DVec2::new(0.5 * (min.0 + max.0), 0.5 * (min.1 + max.1));
    }

    /// Zooms by `factor` keeping the world point under `screen` fixed.
    pub fn zoom_at(&mut self, screen: Vec2, factor: f64) {
        let before = self.to_world(screen);
        self.ppm = (self.ppm * factor).clamp(1e-2, 1e7);
        let after = self.to_world(screen);
        self.center += before - after;
    }

    pub fn contains(&self, screen: Vec2) -> bool {
        self.rect.contains(screen)
    }
}

/// Where the pointer is, in the world view, this frame.
#[derive(Resource, Clone, Copy, Debug, Default)]
pub struct Pointer {
    /// Logical px (y down), when over the window.
    pub screen: Option<Vec2>,
    /// World point under the cursor.
    pub world: Option<DVec2>,
    /// Over the world view and not over a panel (egui has no claim on it).
    pub in_view: bool,
}

/// Set by the UI each frame: whether egui wants the pointer (over a panel, dragging a widget).
#[derive(Resource, Clone, Copy, Debug, Default)]
pub struct EguiClaims {
    pub pointer: bool,
    pub keyboard: bool,
}

/// Camera, view transform and pan/zoom.
pub struct ViewPlugin;

impl Plugin for ViewPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<ViewTransform>()
            .init_resource::<Pointer>()
            .init_resource::<EguiClaims>()
            .add_systems(Startup, spawn_camera)
            .add_systems(PreUpdate, update_pointer)
            .add_systems(Update, (fit_on_new_scene, zoom_with_wheel))
            .add_systems(PostUpdate, place_camera.before(bevy::transform::TransformSystems::Propagate));
    }
}

/// The world camera.
#[derive(Component)]
pub struct WorldCamera;

fn spawn_camera(mut commands: Commands) {
    commands.spawn((Camera2d, WorldCamera, Msaa::Sample4));
}

fn update_pointer(
    window: Query<&Window, With<PrimaryWindow>>,
    mut view: ResMut<ViewTransform>,
    mut pointer: ResMut<Pointer>,
    claims: Res<EguiClaims>,
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

fn fit_on_new_scene(mut jumped: MessageReader<StateJumped>, mut view: ResMut<ViewTransform>) {
    if jumped.read().any(|j| j.new_scene) {
        view.fit_pending = true;
    }
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

/// Places the camera so the world point `view.center` lands at the centre of
/// the central rectangle, at `ppm` pixels per metre. Runs after the UI pass, so a
/// pending fit uses this frame's panel layout.
fn place_camera(
    mut view: ResMut<ViewTransform>,
    lab: Option<Res<Lab>>,
    look: Option<Res<super::render::SceneLook>>,
    draw: Option<Res<super::render::DrawOptions>>,
    mut camera: Query<(&mut Transform, &mut Projection), With<WorldCamera>>,
) {
    if view.fit_pending && view.rect_known {
        if let Some(lab) = &lab {
            let vb = lab.scene.view;
            view.fit(vb.min, vb.max);
            view.fit_pending = false;
            // Where things are on screen: scripts (the end-to-end test) aim the mouse with it.
            for (i, name) in lab.body_names.iter().enumerate() {
                if super::physics::is_dynamic(&lab.world, i) {
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
    }
    // Follow a body: pan just enough to keep it in the middle 60 % of the view.
    let follow = draw.as_ref().and_then(|d| d.follow);
    if let (Some(b), Some(lab)) = (follow, &lab) {
        if b < lab.world.model.bodies.len() {
            let s = view.to_screen(lab.position(b));
            let m = view.rect.size() * 0.2;
            let inner = Rect::from_corners(view.rect.min + m, view.rect.max - m);
            let dx = (s.x - inner.max.x).max(0.0) + (s.x - inner.min.x).min(0.0);
            let dy = (s.y - inner.max.y).max(0.0) + (s.y - inner.min.y).min(0.0);
            let ppm = view.ppm;
            view.center += DVec2::new(dx as f64, -dy as f64) / ppm;
        }
    }
    let Ok((mut transform, mut projection)) = camera.single_mut() else { return };
    let d = view.rect.center() - view.window * 0.5;
    let cam = view.center - DVec2::new(d.x as f64, -d.y as f64) / view.ppm;
    // f32 is plenty for the camera: scenes are metres wide.
    transform.translation = Vec3::new(cam.x as f32, cam.y as f32, 0.0);
    if let Projection::Orthographic(ortho) = projection.as_mut() {
        let scale = (1.0 / view.ppm) as f32;
        if ortho.scale != scale {
            ortho.scale = scale;
        }
    }
}
