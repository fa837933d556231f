//! What one frame shares: where the world is on screen ([`ViewTransform`]),
//! the pointer and who has claimed it ([`Pointer`], [`InputClaims`]), how far
//! between two steps the bodies are drawn ([`Interpolation`]), what is
//! highlighted, the scene's look, what to draw, and the mouse springs.

use bevy::math::DVec2;
use bevy::prelude::*;

use super::geometry::{self, Wall};
use super::world::Lab;

/// World (m, y up) ↔ screen (logical px, y down) for the central rectangle left
/// free by the panels.
#[derive(Resource, Clone, Debug)]
pub struct ViewTransform {
    /// World point at the centre of `rect`.
    pub center: DVec2,
    /// Logical pixels per metre.
    pub ppm: f64,
    /// The central rectangle, logical px: `(min, max)`, y down.
    pub rect: Rect,
    /// The window's logical size.
    pub window: Vec2,
    /// Fit the scene at the next frame (after the panels are laid out).
    pub fit_pending: bool,
    /// The view shows the last fit, untouched by the user: when the free
    /// rectangle changes (panels laid out anew, presenter mode, a resize) it is
    /// fitted again. Panning or zooming by hand ends it; `F` brings it back.
    pub auto_fit: bool,
    /// The box of the last fit: a changed rectangle shows the same box again
    /// (the bodies that have moved since do not re-zoom the view).
    pub fitted: Option<((f64, f64), (f64, f64))>,
    /// The panels have been laid out once, so `rect` is the real free area.
    pub rect_known: bool,
    /// Keep this body in view (pans as it goes).
    pub follow: Option<usize>,
    /// Logical px at the bottom of `rect` the legend's band takes: a fit
    /// frames its box above it.
    pub covered_bottom: f32,
    /// The presenter's banner, logical px, with its margins from the view's
    /// corner (zero when not presenting): a fit frames its box below it, so
    /// the banner never covers the scene's focus (issue 37).
    pub banner: Vec2,
}

impl Default for ViewTransform {
    fn default() -> Self {
        ViewTransform {
            center: DVec2::ZERO,
            ppm: 200.0,
            rect: Rect::new(0.0, 0.0, 1280.0, 720.0),
            window: Vec2::new(1280.0, 720.0),
            fit_pending: true,
            auto_fit: true,
            fitted: None,
            rect_known: false,
            follow: None,
            covered_bottom: 0.0,
            banner: Vec2::ZERO,
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
        ViewTransform {
            rect: Rect::from_corners(r.min / zoom, r.max / zoom),
            ppm: self.ppm / zoom as f64,
            ..self.clone()
        }
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
        self.fitted = Some((min, max));
        let w = (max.0 - min.0).abs().max(1e-6);
        let h = (max.1 - min.1).abs().max(1e-6);
        let centre = DVec2::new(0.5 * (min.0 + max.0), 0.5 * (min.1 + max.1));
        // Between the bands the top label or the banner take and the
        // legend's: nothing is drawn over the box (issue 37).
        let top = self.banner.y.max(TOP_LABEL);
        self.frame_between(centre, w, h, top, self.covered_bottom);
    }

    /// The box last fitted, on screen (logical px): `None` once the user has
    /// panned or zoomed.
    pub fn fitted_rect(&self) -> Option<Rect> {
        let (min, max) = self.fitted.filter(|_| self.auto_fit)?;
        let a = self.to_screen(DVec2::new(min.0, max.1));
        let b = self.to_screen(DVec2::new(max.0, min.1));
        Some(Rect::from_corners(a, b))
    }

    /// Frames the box centred on `centre`, `w × h` m, in `rect` between
    /// `top` px at its top and `bottom` px at its bottom (together never
    /// more than all but 80 px of it: a tall banner in a small view leaves
    /// the scene below it, small, rather than under it).
    fn frame_between(&mut self, centre: DVec2, w: f64, h: f64, top: f32, bottom: f32) {
        let rw = self.rect.width().max(50.0) as f64;
        let most = (self.rect.height() - 80.0).max(0.0);
        let top = top.clamp(0.0, most) as f64;
        let bottom = bottom.clamp(0.0, (most - top as f32).max(0.0)) as f64;
        let rh = (self.rect.height() as f64 - top - bottom).max(50.0);
        self.ppm = (rw / w).min(rh / h) * 0.92;
        // The box's centre at the centre of the free band.
        self.center = centre + DVec2::new(0.0, 0.5 * (top - bottom) / self.ppm);
    }

    /// The presenter's banner is now `size` logical px with its margins
    /// (zero: none).
    pub fn set_banner(&mut self, size: Vec2) {
        if (size - self.banner).abs().max_element() < 1.0 {
            return;
        }
        self.banner = size;
        self.refit();
    }

    /// Shows the box of the last fit again, if the user has not taken the view in hand.
    fn refit(&mut self) {
        if self.auto_fit
            && !self.fit_pending
            && let Some((min, max)) = self.fitted
        {
            self.fit(min, max);
        }
    }

    /// The legend's band is now `px` logical px at the bottom of the view.
    pub fn set_covered_bottom(&mut self, px: f32) {
        if (px - self.covered_bottom).abs() < 1.0 {
            return;
        }
        self.covered_bottom = px;
        self.refit();
    }

    /// The panels left `rect` (logical px) to the world: a changed rectangle
    /// shows the box of the last fit again, unless the user has taken the view
    /// in hand (a first rectangle waits for the pending fit).
    pub fn set_rect(&mut self, rect: Rect) {
        let changed = self.rect != rect;
        self.rect = rect;
        self.rect_known = true;
        if changed
            && self.auto_fit
            && !self.fit_pending
            && let Some((min, max)) = self.fitted
        {
            self.fit(min, max);
        }
    }

    /// Pans by `d` logical px (the user's hand: the view is no longer fitted).
    pub fn pan_by(&mut self, d: Vec2) {
        self.center -= DVec2::new(d.x as f64, -d.y as f64) / self.ppm;
        self.auto_fit = false;
    }

    /// Zooms by `factor` keeping the world point under `screen` fixed (the
    /// user's hand: the view is no longer fitted).
    pub fn zoom_at(&mut self, screen: Vec2, factor: f64) {
        self.auto_fit = false;
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

/// Who has the input this frame: the panels (set by the UI each frame: over a
/// panel, dragging a widget, typing in a field) or a tool (set by the tool
/// that took the gesture, in [`super::FrameSet::Tools`]; cleared each frame).
#[derive(Resource, Clone, Copy, Debug, Default)]
pub struct InputClaims {
    pub pointer: bool,
    pub keyboard: bool,
    /// A tool has the pointer: the plain mouse (springs, pan) leaves it alone.
    pub tool: bool,
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

/// What is highlighted: a body under the cursor or a row under the pointer in the table.
#[derive(Resource, Clone, Debug, Default)]
pub struct Highlight {
    /// Body hovered in the view.
    pub body: Option<usize>,
    /// Constraint hovered in the table.
    pub constraint: Option<usize>,
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

impl SceneLook {
    /// The look of the scene `lab` runs.
    pub fn of(lab: &Lab) -> SceneLook {
        let world = &lab.world;
        let vb = lab.scene.view;
        let height = (vb.max.1 - vb.min.1).abs().max((vb.max.0 - vb.min.0).abs() * 0.5);
        let force_scale = 0.22 * height / geometry::reference_force(world);
        SceneLook {
            generation: Some(lab.generation),
            walls: geometry::walls(world),
            force_scale,
            lambda_scale: force_scale,
        }
    }
}

/// What to draw (toggles of the controls panel).
#[derive(Resource, Clone, Debug)]
pub struct DrawOptions {
    pub lambda_arrows: bool,
    pub force_arrows: bool,
    pub trails: bool,
    pub grid: bool,
    pub labels: bool,
    /// The inset at a violation too small for the view (`ui::magnifier`).
    pub magnifier: bool,
}

impl Default for DrawOptions {
    fn default() -> Self {
        DrawOptions { lambda_arrows: true, force_arrows: true, trails: true, grid: true, labels: true, magnifier: true }
    }
}

/// A spring from a body's point to an anchor (the mouse's, or a pinned one).
#[derive(Clone, Copy, Debug)]
pub struct Spring {
    pub body: usize,
    pub target: DVec2,
    /// The point grabbed, in the body's frame (a body that turns; zero: its own point).
    pub at: DVec2,
    /// The force of the last step (N).
    pub force: DVec2,
    /// The largest `|F|` so far (N).
    pub peak: f64,
    /// Where the body was when grabbed.
    pub start: DVec2,
}

impl Spring {
    /// A spring on body `body`'s own point toward `target`, before its first step.
    pub fn new(body: usize, target: DVec2) -> Self {
        Spring { body, target, at: DVec2::ZERO, force: DVec2::ZERO, peak: 0.0, start: DVec2::ZERO }
    }

    /// What the core steps with.
    pub fn core(&self) -> contact_core::Spring {
        contact_core::Spring { body: self.body, target: (self.target.x, self.target.y), at: (self.at.x, self.at.y) }
    }

    /// Where the grabbed point is, the body's own point being at `centre`.
    pub fn point(&self, world: &contact_core::World, centre: DVec2) -> DVec2 {
        super::geometry::point_at(world, self.body, nalgebra::Vector2::new(self.at.x, self.at.y), &|_| centre)
    }
}

/// What the left button is doing.
#[derive(Clone, Copy, Debug)]
pub enum Grab {
    Body(Spring),
    ForceTip { body: usize },
    Pan { last: Vec2 },
}

/// The springs: the one being dragged and the pinned ones.
#[derive(Resource, Clone, Debug, Default)]
pub struct Drags {
    pub grab: Option<Grab>,
    pub pins: Vec<Spring>,
}

impl Drags {
    pub fn springs(&self) -> impl Iterator<Item = &Spring> {
        self.pins.iter().chain(match &self.grab {
            Some(Grab::Body(s)) => Some(s),
            _ => None,
        })
    }

    /// The springs acting now, as the core and the input log see them.
    pub fn core_springs(&self) -> Vec<contact_core::Spring> {
        self.springs().map(Spring::core).collect()
    }
}

/// The band at the top of the view the time label and the scale bar take
/// (logical px): a fit keeps the box below it.
pub const TOP_LABEL: f32 = 30.0;

/// What the overlay drew for each body in the last frame, by body index: an
/// edge marker (the body is off the view), or a window over its centre (the
/// tour, compare mode's readout, the presenter's banner). The visual check
/// (`--check-view`) compares it with [`ViewTransform`]'s own mapping.
#[derive(Resource, Clone, Debug, Default)]
pub struct OnScreen {
    pub marker: Vec<bool>,
    pub covered: Vec<bool>,
    /// What was drawn over the world view (the legend, the presenter's
    /// banner, a window), logical px: none may cover the scene's focus
    /// (`--check-view`).
    pub overlays: Vec<(String, Rect)>,
    /// The magnifier's frame and the contact it magnifies, logical px: in
    /// the view, over no panel, off the contact (`--check-view`). It may go
    /// over the focus, where the focus fills the view (issue 47).
    pub magnifier: Option<(Rect, Vec2)>,
}
