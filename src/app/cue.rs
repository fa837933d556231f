//! The cue shot: drag back from a ball and release to set its velocity, as a
//! cue strikes a billiard ball.
//!
//! With the tool armed (`K`, or a scene file with `cue: true` such as the
//! billiard corner) or with Shift held, the left button on a ball (a round
//! particle) aims instead of grabbing it with a spring. Pulling the cursor back
//! from the ball sets the shot, opposite to the pull and proportional to it:
//!
//! ```text
//! v = k (p_ball − p_cursor),   k = CUE_GAIN = 4 /s,   |v| ≤ MAX_SHOT_SPEED = 5 m/s
//! ```
//!
//! While aiming, `v` is drawn as an arrow from the ball, `v / k` long (the
//! mirror image of the pull, up to the clamp) and labelled with its speed, and a
//! dashed cue runs from the ball to the cursor. Releasing writes `v` into the
//! ball's `q̇` ([`Coords`], `q` kept): the next step's gather copies it into the
//! core and the input log records it as a [`contact_core::Input::Velocity`], so
//! the run replays. Paused, the shot waits for the next step with its arrow on
//! screen.
//!
//! | input                        | action                                   |
//! |------------------------------|------------------------------------------|
//! | K                            | arm / disarm the tool                    |
//! | left drag from a ball        | aim (tool armed, or with Shift held)     |
//! | release                      | shoot (on the ball itself: no shot)      |
//! | Escape, right button         | cancel the aim                           |

use bevy::math::DVec2;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::lab::gizmo::{arrow, dashed, f};
use super::lab::{
    Coords, FrameSet, InputClaims, Interpolation, Lab, LabBody, Opened, PointMotion, Pointer, StateJumped, Status,
    ViewTransform, is_ball, num, palette,
};

/// `k`: metres per second of shot per metre of pull, in 1/s.
pub const CUE_GAIN: f64 = 4.0;
/// The fastest shot, in m/s.
pub const MAX_SHOT_SPEED: f64 = 5.0;

/// The arrow and the label (white, like the cue ball) and the cue (wood).
const ARROW_RGB: [u8; 3] = [250, 250, 245];
const CUE_RGB: [u8; 3] = [205, 165, 110];

/// Pixels around a ball where a press still picks it.
const PICK_PX: f64 = 8.0;

/// The shot for a ball at `ball` pulled back to `cursor`: `k (ball − cursor)`,
/// at most [`MAX_SHOT_SPEED`].
pub fn shot_velocity(ball: DVec2, cursor: DVec2) -> DVec2 {
    ((ball - cursor) * CUE_GAIN).clamp_length_max(MAX_SHOT_SPEED)
}

/// What a shot does to a ball's coordinates `(x, y)`: `q̇ = v`, `q` kept (a
/// body that turns keeps its spin).
pub fn apply_shot(coords: &mut Coords, v: DVec2) {
    assert!(coords.n >= 2, "a shot is for a ball or a body that turns, whose coordinates start (x, y)");
    coords.qd[..2].copy_from_slice(&[v.x, v.y]);
}

/// The tool: armed, a left drag from a ball aims (the toolbar and `K` switch it).
#[derive(Resource, Clone, Copy, Debug, Default)]
pub struct CueTool {
    pub armed: bool,
}

/// An aim in progress.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Aim {
    pub body: usize,
    /// The cursor, in m.
    pub cursor: DVec2,
    /// The shot a release would give now ([`shot_velocity`]), `None` while the
    /// cursor is on the ball.
    pub velocity: Option<DVec2>,
}

/// A shot not yet played: shown until the world steps (at once when running,
/// at the next step or Play when paused).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Shot {
    pub body: usize,
    pub velocity: DVec2,
    /// The world's step count when it was made.
    pub steps: u64,
}

/// The gesture: the aim and the shot waiting for its step. While aiming, the
/// cue holds the pointer ([`InputClaims::tool`]), so the plain mouse (springs,
/// pan) leaves it alone.
#[derive(Resource, Clone, Copy, Debug, Default)]
pub struct CueAim {
    pub aim: Option<Aim>,
    pub pending: Option<Shot>,
}

impl CueAim {
    /// The velocity arrow on screen, `(body, v)`: the aim's, else the pending shot's.
    pub fn shown(&self) -> Option<(usize, DVec2)> {
        match self.aim {
            Some(a) => a.velocity.map(|v| (a.body, v)),
            None => self.pending.map(|s| (s.body, s.velocity)),
        }
    }
}

/// The shot the scene's file gives (the billiard's cue ball at 2 m/s), shown
/// while the armed tool waits at the scene's start and no aim or shot of the
/// user's replaces it: `(ball, v)`.
pub fn file_shot(lab: &Lab, tool: &CueTool, cue: &CueAim) -> Option<(usize, DVec2)> {
    if !tool.armed || lab.world.steps != 0 || cue.aim.is_some() || cue.pending.is_some() {
        return None;
    }
    (0..lab.world.model.bodies.len()).filter(|&b| is_ball(&lab.world, b)).find_map(|b| {
        let v = lab.world.model.velocity(b, &lab.world.state);
        (v.norm() > 0.0).then(|| (b, DVec2::new(v.x, v.y)))
    })
}

pub struct CuePlugin;

impl Plugin for CuePlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<CueTool>()
            .init_resource::<CueAim>()
            .add_systems(
                Update,
                ((arm_on_new_scene, aim).chain().in_set(FrameSet::Tools), draw.in_set(FrameSet::Overlay)),
            )
            .add_systems(EguiPrimaryContextPass, label);
    }
}

/// A scene opened (the picker, a tour step, Reset all, the first one) arms
/// the tool when it says `cue: true` and has a ball to shoot, and disarms it
/// otherwise: a tool belongs to its scene, and a drag elsewhere pulls a
/// spring. An edit or a hot reload keeps what K chose. A reset or a restore
/// forgets the aim.
#[allow(clippy::too_many_arguments)]
pub fn arm_on_new_scene(
    mut jumped: MessageReader<StateJumped>,
    mut opened: MessageReader<Opened>,
    lab: Option<Res<Lab>>,
    mut tool: ResMut<CueTool>,
    mut cue: ResMut<CueAim>,
    mut status: ResMut<Status>,
    claims: Res<InputClaims>,
    real: Res<Time<Real>>,
) {
    let Some(lab) = lab else { return };
    for _ in jumped.read() {
        *cue = CueAim::default();
    }
    if opened.read().count() == 0 {
        return;
    }
    let has_ball = (0..lab.world.model.bodies.len()).any(|b| is_ball(&lab.world, b));
    tool.armed = lab.scene.cue && has_ball;
    if tool.armed {
        // Each edit installs its scene anew: the editor's tool has the
        // pointer then, and the status line keeps what the edit said.
        if !claims.tool {
            // What was just said (a scene saved, then opened) stays, before the cue's hint.
            let now = real.elapsed_secs_f64();
            let text = if now - status.at < 1.0 && !status.text.is_empty() && !status.error {
                format!("{} · {}", status.text, armed_text(true))
            } else {
                armed_text(true).to_string()
            };
            status.say(now, text);
        }
    }
}

/// `K` toggles the tool; the left button on a ball aims, its release shoots.
#[allow(clippy::too_many_arguments)]
pub fn aim(
    buttons: Res<ButtonInput<MouseButton>>,
    keys: Res<ButtonInput<KeyCode>>,
    pointer: Res<Pointer>,
    mut claims: ResMut<InputClaims>,
    view: Res<ViewTransform>,
    lab: Option<Res<Lab>>,
    interp: Res<Interpolation>,
    mut bodies: Query<(&LabBody, &PointMotion, &mut Coords)>,
    mut tool: ResMut<CueTool>,
    mut cue: ResMut<CueAim>,
    mut status: ResMut<Status>,
    virt: Res<Time<Virtual>>,
    real: Res<Time<Real>>,
) {
    let now = real.elapsed_secs_f64();
    let Some(lab) = lab else { return };
    if cue.pending.is_some_and(|s| s.steps != lab.world.steps) {
        cue.pending = None;
    }
    if keys.just_pressed(KeyCode::KeyK) && !claims.keyboard {
        tool.armed = !tool.armed;
        status.say(now, armed_text(tool.armed));
    }
    let mut pos = vec![DVec2::ZERO; lab.world.model.bodies.len()];
    for (b, m, _) in &bodies {
        pos[b.index] = m.at(interp.alpha);
    }

    let shift = keys.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]);
    // Another tool (edit mode) holding the pointer keeps the cue out of it.
    let press = buttons.just_pressed(MouseButton::Left) && pointer.in_view && !claims.pointer && !claims.tool;
    if let (true, None, Some(w)) = (press && (tool.armed || shift), cue.aim, pointer.world) {
        cue.aim =
            ball_under(&lab, &pos, w, view.world_len(PICK_PX)).map(|body| Aim { body, cursor: w, velocity: None });
    }
    let Some(mut a) = cue.aim else { return };
    claims.tool = true;
    if let Some(w) = pointer.world {
        a.cursor = w;
    }
    let ball = pos[a.body];
    let on_ball = (a.cursor - ball).length() <= lab.world.model.bodies[a.body].radius;
    a.velocity = (!on_ball).then(|| shot_velocity(ball, a.cursor));
    let name = &lab.body_names[a.body];

    let escape = keys.just_pressed(KeyCode::Escape) && !claims.keyboard;
    if escape || buttons.just_pressed(MouseButton::Right) {
        cue.aim = None;
        status.say(now, format!("cue shot on {name} cancelled"));
    } else if !buttons.pressed(MouseButton::Left) {
        cue.aim = None;
        let Some(v) = a.velocity else {
            status.say(now, format!("no shot: drag back from {name} and release away from it"));
            return;
        };
        if let Some((_, _, mut coords)) = bodies.iter_mut().find(|(b, _, _)| b.index == a.body) {
            apply_shot(&mut coords, v);
        }
        cue.pending = Some(Shot { body: a.body, velocity: v, steps: lab.world.steps });
        let text = format!("cue shot: {name} at ({:.3}, {:.3}) m/s", v.x, v.y);
        if virt.is_paused() {
            status.say_while_paused(now, format!("{text}, paused: → or Space plays it"));
        } else {
            status.say(now, text);
        }
    } else {
        cue.aim = Some(a);
    }
}

fn armed_text(armed: bool) -> &'static str {
    if armed {
        "Cue tool on: drag back from a ball, release to shoot (K: off)"
    } else {
        "Cue tool off: Shift+drag a ball to shoot (K: on)"
    }
}

/// The ball nearest to `w` within its radius + `margin` (m).
fn ball_under(lab: &Lab, pos: &[DVec2], w: DVec2, margin: f64) -> Option<usize> {
    let world = &lab.world;
    (0..pos.len())
        .filter(|&b| is_ball(world, b))
        .map(|b| (b, (w - pos[b]).length() - world.model.bodies[b].radius))
        .filter(|(_, d)| *d <= margin)
        .min_by(|x, y| x.1.total_cmp(&y.1))
        .map(|(b, _)| b)
}

/// The point of body `b` as drawn this frame.
fn point_of(b: usize, bodies: &Query<(&LabBody, &PointMotion)>, interp: &Interpolation) -> Option<DVec2> {
    bodies.iter().find(|(lb, _)| lb.index == b).map(|(_, m)| m.at(interp.alpha))
}

/// The dashed cue from the ball to the cursor, a ring on the ball, the velocity arrow.
#[allow(clippy::too_many_arguments)]
fn draw(
    mut g: Gizmos,
    cue: Res<CueAim>,
    tool: Res<CueTool>,
    lab: Option<Res<Lab>>,
    view: Res<ViewTransform>,
    interp: Res<Interpolation>,
    bodies: Query<(&LabBody, &PointMotion)>,
) {
    let Some(lab) = lab else { return };
    let px = |n: f64| view.world_len(n);
    if let Some(a) = cue.aim {
        let Some(p) = point_of(a.body, &bodies, &interp) else { return };
        let r = lab.world.model.bodies[a.body].radius;
        let wood = palette::bevy(CUE_RGB);
        g.circle_2d(Isometry2d::from_translation(f(p)), (r + px(4.0)) as f32, wood).resolution(48);
        dashed(&mut g, p, a.cursor, px(7.0), px(5.0), wood);
    }
    if let Some((b, v)) = cue.shown() {
        let Some(p) = point_of(b, &bodies, &interp) else { return };
        arrow(&mut g, p, v / CUE_GAIN, px(12.0), palette::bevy(ARROW_RGB));
    } else if let Some((b, v)) = file_shot(&lab, &tool, &cue) {
        // The file's shot, ready: dashed, to be taken (Space) or replaced (a drag).
        let Some(p) = point_of(b, &bodies, &interp) else { return };
        let c = palette::bevy_a(ARROW_RGB, 0.8);
        dashed(&mut g, p, p + v / CUE_GAIN, px(6.0), px(4.0), c);
        arrow(&mut g, p + v / CUE_GAIN * 0.8, v / CUE_GAIN * 0.2, px(12.0), c);
    }
}

/// The speed beside the arrow's tip, painted by egui like the other labels.
fn label(
    mut contexts: EguiContexts,
    cue: Res<CueAim>,
    tool: Res<CueTool>,
    lab: Option<Res<Lab>>,
    view: Res<ViewTransform>,
    interp: Res<Interpolation>,
    bodies: Query<(&LabBody, &PointMotion)>,
) -> Result {
    let from_file = lab.as_deref().and_then(|lab| file_shot(lab, &tool, &cue));
    let Some((b, v)) = cue.shown().or(from_file) else { return Ok(()) };
    let Some(p) = point_of(b, &bodies, &interp) else { return Ok(()) };
    let ctx = contexts.ctx_mut()?;
    let r = view.rect;
    let clip = egui::Rect::from_min_max(egui::pos2(r.min.x, r.min.y), egui::pos2(r.max.x, r.max.y));
    let painter = ctx.layer_painter(egui::LayerId::background()).with_clip_rect(clip);
    let speed = v.length();
    let max = if speed >= MAX_SHOT_SPEED * (1.0 - 1e-9) { " (max)" } else { "" };
    let tip = view.to_screen(p + v / CUE_GAIN);
    // Beyond the tip, along the arrow (screen y is down).
    let dir = egui::vec2(v.x as f32, -v.y as f32).normalized();
    let (text, at, anchor) = if cue.shown().is_none() {
        // The file's shot: above the middle of its arrow, clear of what it aims at.
        let mid = view.to_screen(p + v / CUE_GAIN * 0.5);
        let text =
            format!("the scene's shot, {} m/s: Space takes it,\nor drag back from a ball for your own", num(speed));
        (text, egui::pos2(mid.x, mid.y) - egui::vec2(0.0, 12.0), egui::Align2::CENTER_BOTTOM)
    } else {
        let at = egui::pos2(tip.x, tip.y) + dir * 14.0;
        (format!("v = {} m/s{max}", num(speed)), at, egui::Align2([align(dir.x), align(dir.y)]))
    };
    let color = palette::egui(ARROW_RGB);
    let galley = painter.layout_no_wrap(text, egui::FontId::proportional(14.0), color);
    let rect = anchor.anchor_size(at, galley.size()).expand2(egui::vec2(4.0, 2.0));
    painter.rect_filled(rect, 3.0, egui::Color32::from_black_alpha(170));
    painter.galley(rect.min + egui::vec2(4.0, 2.0), galley, color);
    Ok(())
}

/// The side of a label that faces an arrow pointing along `d` (one axis).
fn align(d: f32) -> egui::Align {
    if d > 0.5 {
        egui::Align::Min
    } else if d < -0.5 {
        egui::Align::Max
    } else {
        egui::Align::Center
    }
}
