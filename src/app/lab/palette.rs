//! Colours shared by the world view and the panels, so a state looks the same everywhere.

use bevy::prelude::Color;
use bevy_egui::egui::Color32;

use super::components::ConstraintState;

/// sRGB bytes of a constraint state.
pub fn state_rgb(s: ConstraintState) -> [u8; 3] {
    match s {
        ConstraintState::Inactive => [120, 132, 150],
        ConstraintState::ActiveNotHandled => [240, 170, 40],
        ConstraintState::Handled => [70, 200, 110],
        ConstraintState::Violated => [235, 70, 70],
        ConstraintState::Asleep => [120, 140, 230],
    }
}

/// Colours of the bodies: a billiard set, then repeating.
const BODIES: [[u8; 3]; 10] = [
    [236, 236, 228], // white (cue ball, or the particle)
    [245, 200, 40],  // yellow
    [40, 90, 200],   // blue
    [210, 50, 45],   // red
    [120, 60, 170],  // purple
    [240, 120, 30],  // orange
    [30, 140, 70],   // green
    [130, 30, 40],   // maroon
    [58, 58, 64],    // black (lifted off the background)
    [80, 180, 200],  // cyan
];

pub fn body_rgb(i: usize) -> [u8; 3] {
    BODIES[i % BODIES.len()]
}

/// Fixed bodies (anchors) are drawn grey.
pub const FIXED_BODY: [u8; 3] = [110, 116, 128];

/// The colour of body `b`'s disc: its billiard colour, grey when it is fixed.
pub fn body_disc_rgb(world: &contact_core::World, b: usize) -> [u8; 3] {
    if world.model.bodies[b].is_dynamic() { body_rgb(b) } else { FIXED_BODY }
}

pub const FORCE: [u8; 3] = [90, 170, 255];
pub const LAMBDA_POS: [u8; 3] = [70, 220, 140];
pub const LAMBDA_NEG: [u8; 3] = [255, 90, 110];
/// Friction forces `λ_t t` (Coulomb).
pub const FRICTION: [u8; 3] = [255, 190, 60];
pub const SPRING: [u8; 3] = [255, 120, 220];
pub const HIGHLIGHT: [u8; 3] = [255, 235, 80];
/// Warnings that are not errors (physics slower than real time).
pub const WARN: [u8; 3] = [240, 170, 40];
pub const EVENT: [u8; 3] = [255, 255, 255];
pub const GRID: [u8; 3] = [60, 66, 78];
pub const AXIS: [u8; 3] = [95, 104, 120];
pub const BACKGROUND: [u8; 3] = [22, 25, 31];
/// The panels' colour: the window is cleared to it, the world view's
/// background is drawn over its rectangle.
pub const PANEL: [u8; 3] = [30, 33, 40];
pub const SHADE: [u8; 3] = [150, 70, 70];

pub fn bevy(rgb: [u8; 3]) -> Color {
    Color::srgb_u8(rgb[0], rgb[1], rgb[2])
}

pub fn bevy_a(rgb: [u8; 3], a: f32) -> Color {
    Color::srgba_u8(rgb[0], rgb[1], rgb[2], (a.clamp(0.0, 1.0) * 255.0) as u8)
}

pub fn egui(rgb: [u8; 3]) -> Color32 {
    Color32::from_rgb(rgb[0], rgb[1], rgb[2])
}

/// A colour per algorithm (the algorithm buttons', the lanes' of compare mode),
/// visible from the back of the room.
pub fn algorithm(a: contact_core::Algorithm) -> [u8; 3] {
    match a {
        contact_core::Algorithm::Platt => [235, 110, 90],
        contact_core::Algorithm::PlattImproved => [240, 180, 60],
        contact_core::Algorithm::Right => [90, 200, 130],
        contact_core::Algorithm::Exact => [110, 170, 255],
    }
}

/// A compare lane's colour: its algorithm's under the paper's scheme,
/// violet for time-stepping (whose solver is Exact, blue).
pub fn method(m: contact_core::Method) -> [u8; 3] {
    match m.scheme {
        contact_core::Scheme::EventDriven => algorithm(m.algorithm),
        contact_core::Scheme::TimeStepping => [200, 130, 240],
    }
}

/// The method's colour for egui text ([`method`]).
pub fn method_color(m: contact_core::Method) -> Color32 {
    egui(method(m))
}

/// The algorithm's colour for egui text ([`algorithm`]).
pub fn algorithm_color(a: contact_core::Algorithm) -> Color32 {
    egui(algorithm(a))
}
