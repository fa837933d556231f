//! The magnifier: an inset at the deepest violation, drawn at a scale where it
//! can be seen. Platt's particle of figure 2 sinks by 1.9e-6 m, a thousandth of
//! a pixel of the wedge's view; in the inset it is a third of the inset deep,
//! with a scale bar.
//!
//! The inset is the constraint's own frame at its contact point: the gradient
//! `∂g_k/∂p` of eq. (4) up, the tangent across. A row `g_k(q) ≥ 0` is, to first
//! order at the contact, the half-plane above the line `g_k = 0`; the body's
//! surface point is at the signed distance `d = g_k / |∂g_k/∂p|` from it (`g`
//! of a half-plane with a normal not of unit length, `g1 = x − y`, is `√2 d`).
//! At a scale of microns a ball's surface and the other ball's are straight
//! lines, so the inset draws lines, not arcs: the constraint's surface, the
//! forbidden side shaded, and the body's surface at depth `d`.
//!
//! It shows when the deepest violation lies between round-off (1e-12 m, what
//! the table shows as `< 1e-12`) and 3 pixels of the view (deeper, the view
//! shows it). It goes where it covers no body, with a leader to the contact.

use bevy::math::DVec2;
use bevy_egui::egui::{self, Align2, Color32, FontId, Pos2, Stroke};

use super::placement::bodies_under;
use crate::app::lab::gizmo::grid_step;
use crate::app::lab::{ViewTransform, geometry, palette};

/// Depths below this are not worth an inset (m, in the scene's units): a
/// box dragged into a pile sinks by 500 pm for a step, which Baumgarte
/// mends at once (issue 37: an inset for it said more than it was).
pub const MIN_DEPTH: f64 = 1e-9;
/// The inset's side, in points: at most this, at least [`MIN_SIDE`], and at
/// most 28 % of the view's shorter side (presenter mode at 1280×720 leaves
/// the world 360 points high, with the banner in it).
const SIDE: f32 = 150.0;
const MIN_SIDE: f32 = 90.0;
/// The legend's band at the view's bottom beyond the frame's margin, points.
const LEGEND: f32 = 36.0;

/// The violation the magnifier shows: constraint `k`, the body's surface point
/// (world) and the unit normal, at signed distance `depth` (< 0) from the surface.
#[derive(Clone, Debug, PartialEq)]
pub struct Violation {
    pub k: usize,
    pub name: String,
    pub at: DVec2,
    pub normal: DVec2,
    pub depth: f64,
}

/// The deepest violation of an inequality row among `g` (each row's last
/// value), at `positions`, if it is to be magnified in a view of `ppm` pixels
/// a metre (see the module docs).
pub fn deepest(
    world: &contact_core::World,
    names: &[String],
    g: &[f64],
    positions: &dyn Fn(usize) -> DVec2,
    ppm: f64,
) -> Option<Violation> {
    let mut best: Option<Violation> = None;
    for (k, c) in world.model.constraints.iter().enumerate() {
        if !c.is_inequality() || k >= g.len() || g[k] >= 0.0 {
            continue;
        }
        let Some(&(_, at, grad)) = geometry::gradients(world, k, positions).first() else { continue };
        let len = grad.length();
        if len <= 0.0 || !len.is_finite() {
            continue;
        }
        let depth = g[k] / len;
        if best.as_ref().is_none_or(|b| depth < b.depth) {
            best =
                Some(Violation { k, name: names.get(k).cloned().unwrap_or_default(), at, normal: grad / len, depth });
        }
    }
    let min = world.settings.units.length(MIN_DEPTH);
    best.filter(|v| -v.depth > min && -v.depth * ppm < 3.0)
}

/// `0.5 µm`, `2 nm`, `10 mm`: a length for the scale bar.
pub fn length(m: f64) -> String {
    let (unit, scale) = [("m", 1.0), ("mm", 1e-3), ("µm", 1e-6), ("nm", 1e-9), ("pm", 1e-12), ("fm", 1e-15)]
        .into_iter()
        .find(|&(_, s)| m >= s * 0.999)
        .unwrap_or(("fm", 1e-15));
    let v = m / scale;
    if (v - v.round()).abs() < 1e-6 { format!("{} {unit}", v.round()) } else { format!("{v:.1} {unit}") }
}

/// Where the inset goes: its frame (title, inset, depth), the inset itself,
/// and the contact on screen.
#[derive(Clone, Copy, Debug)]
pub struct Placement {
    pub frame: egui::Rect,
    inset: egui::Rect,
    pub contact: Pos2,
}

/// Places the inset for `v` in `rect` (the world view), never over a panel
/// (issue 47): beside the contact or in a corner of the view, off the
/// contact, `avoid` (presenter mode's banner, labels) and what `covered`
/// says a window covers (compare's readout) first, then on the fewest of
/// `discs` (the bodies on screen: centre, radius in points), then off
/// `focus` (the box the view was fitted to) where it can. Where the focus
/// fills the view, the inset goes over its empty part: issue 37's rule that
/// nothing covers the focus gives way to the magnifier, which shows what
/// the view cannot. `why`: the cause's lines go under the depth ([`paint`]).
#[allow(clippy::too_many_arguments)]
pub fn place(
    view: &ViewTransform,
    rect: egui::Rect,
    focus: Option<egui::Rect>,
    discs: &[(Pos2, f32)],
    avoid: &[egui::Rect],
    covered: &dyn Fn(Pos2) -> bool,
    v: &Violation,
    why: bool,
) -> Option<Placement> {
    let contact = {
        let s = view.to_screen(v.at);
        Pos2::new(s.x, s.y)
    };
    let side = (0.28 * rect.width().min(rect.height())).clamp(MIN_SIDE, SIDE);
    // The frame holds the title above the inset and the depth's two lines
    // under it ("9.230e-7 m below its surface" ran past a small inset's
    // edge), and the cause's lines where there is one: labels keep off it all.
    let size = egui::vec2(side, side + if why { 100.0 } else { 64.0 });
    let gap = 40.0;
    // Below the time's banner, above the legend's two rows (placed after
    // the inset, the legend has nowhere else to go).
    // A view too short for that (compare mode's lanes on a small screen)
    // takes it from the banner's and the legend's bands; one too small for
    // the inset at all shows none: the table still gives the depth.
    let inner = [(40.0, 40.0 + LEGEND), (4.0, 4.0)]
        .into_iter()
        .map(|(top, bottom)| {
            egui::Rect::from_min_max(rect.min + egui::vec2(8.0, top), rect.max - egui::vec2(8.0, bottom))
        })
        .find(|r| r.width() >= size.x && r.height() >= size.y)?;
    // Beside the contact, or in a corner of the view.
    let spots = [
        contact + egui::vec2(gap, -gap - size.y),
        contact + egui::vec2(-gap - size.x, -gap - size.y),
        contact + egui::vec2(gap, gap),
        contact + egui::vec2(-gap - size.x, gap),
        inner.left_top(),
        inner.right_top() - egui::vec2(size.x, 0.0),
        inner.left_bottom() - egui::vec2(0.0, size.y),
        inner.right_bottom() - size,
    ];
    let fit = |min: Pos2| {
        let r = egui::Rect::from_min_size(min, size);
        let dx = (inner.min.x - r.min.x).max(0.0) + (inner.max.x - r.max.x).min(0.0);
        let dy = (inner.min.y - r.min.y).max(0.0) + (inner.max.y - r.max.y).min(0.0);
        r.translate(egui::vec2(dx, dy))
    };
    let frame = spots
        .into_iter()
        .map(fit)
        .min_by_key(|&r| {
            let windowed = [r.left_top(), r.right_top(), r.left_bottom(), r.right_bottom(), r.center()]
                .into_iter()
                .any(covered) as usize;
            let over = avoid.iter().filter(|a| a.intersects(r)).count() + windowed;
            let on_focus = focus.is_some_and(|f| f.shrink(2.0).intersects(r));
            (over + r.contains(contact) as usize, bodies_under(r, discs), on_focus)
        })
        .expect("eight spots");
    let inset = egui::Rect::from_min_size(frame.min + egui::vec2(0.0, 18.0), egui::vec2(side, side));
    Some(Placement { frame, inset, contact })
}

/// Why a row under Right or Exact (event-driven) is inside its surface:
/// those solve eq. (6) at the acceleration level, where a row held from
/// inside is drawn back by Baumgarte's eq. (5) over `τ`, not at once (issue
/// 47: a student told that Exact is the exact answer saw it 25 µm into the
/// floor, unexplained). `None` where the scheme or the algorithm is the
/// cause (time-stepping, Platt's rules).
pub fn why(settings: &contact_core::Settings) -> Option<String> {
    use contact_core::{Algorithm, Scheme};
    let lag =
        settings.scheme == Scheme::EventDriven && matches!(settings.algorithm, Algorithm::Right | Algorithm::Exact);
    lag.then(|| format!("Baumgarte's lag, eq. (5), τ = {} s", crate::app::edit::fields::short(settings.tau)))
}

/// Paints the inset for `v` where [`place`] put it, with the cause `why`
/// under its depth.
pub fn paint(p: &egui::Painter, view: &ViewTransform, at: &Placement, v: &Violation, why: Option<&str>) {
    let Placement { frame, inset: box_, contact } = *at;
    // Leader from the contact to the inset.
    let warn = palette::egui(palette::WARN);
    // The leader stops short of the contact: the body there stays as drawn.
    let edge = Pos2::new(contact.x.clamp(box_.min.x, box_.max.x), contact.y.clamp(box_.min.y, box_.max.y));
    let along = edge - contact;
    if along.length() > 14.0 {
        let start = contact + along.normalized() * 12.0;
        p.line_segment([start, edge], Stroke::new(1.0, warn.gamma_multiply(0.8)));
    }

    p.rect_filled(frame.expand(4.0), 4.0, Color32::from_black_alpha(220));
    let clip = p.with_clip_rect(box_);
    clip.rect_filled(box_, 0.0, palette::egui(palette::BACKGROUND));

    // The inset's frame: the normal up, centred between the surface and the body.
    let depth = -v.depth;
    let side = box_.width();
    let ppm = 0.32 * side as f64 / depth;
    let centre = Pos2::new(box_.center().x, box_.center().y);
    // Screen y of a signed distance along the normal (0: the surface g = 0).
    let y_of = |d: f64| centre.y - ((d + depth * 0.5) * ppm) as f32;
    let surface = y_of(0.0);
    let body = y_of(-depth);
    // The forbidden side, shaded; the surface g = 0.
    let below = egui::Rect::from_min_max(Pos2::new(box_.min.x, surface), box_.max);
    clip.rect_filled(below, 0.0, palette::egui(palette::SHADE).gamma_multiply(0.35));
    let mut x = box_.min.x - side;
    while x < box_.max.x {
        clip.line_segment(
            [Pos2::new(x, box_.max.y), Pos2::new(x + side, surface)],
            Stroke::new(1.0, palette::egui(palette::SHADE).gamma_multiply(0.5)),
        );
        x += 12.0;
    }
    clip.line_segment(
        [Pos2::new(box_.min.x, surface), Pos2::new(box_.max.x, surface)],
        Stroke::new(2.0, Color32::WHITE),
    );
    clip.text(
        Pos2::new(box_.min.x + 4.0, surface - 3.0),
        Align2::LEFT_BOTTOM,
        "g = 0",
        FontId::proportional(11.0),
        Color32::from_gray(200),
    );
    // The body's surface at depth d, and its point.
    let violated = palette::egui(palette::state_rgb(crate::app::lab::ConstraintState::Violated));
    clip.line_segment(
        [Pos2::new(box_.min.x, body), Pos2::new(box_.max.x, body)],
        Stroke::new(1.5, violated.gamma_multiply(0.7)),
    );
    clip.circle_filled(Pos2::new(centre.x, body), 5.0, violated);
    clip.line_segment([Pos2::new(centre.x, surface), Pos2::new(centre.x, body)], Stroke::new(1.0, warn));

    // Scale bar, bottom right: a 1-2-5 length of about 50 points.
    let bar = grid_step(ppm, 45.0);
    let bar_px = (bar * ppm) as f32;
    let y = box_.max.y - 8.0;
    let x1 = box_.max.x - 8.0;
    let white = Stroke::new(2.0, Color32::WHITE);
    clip.line_segment([Pos2::new(x1 - bar_px, y), Pos2::new(x1, y)], white);
    for xe in [x1 - bar_px, x1] {
        clip.line_segment([Pos2::new(xe, y - 4.0), Pos2::new(xe, y + 4.0)], white);
    }
    clip.text(
        Pos2::new(x1 - bar_px * 0.5, y - 5.0),
        Align2::CENTER_BOTTOM,
        length(bar),
        FontId::proportional(12.0),
        Color32::WHITE,
    );

    // Title above, the depth below.
    let zoom = ppm / view.ppm.max(f64::MIN_POSITIVE);
    p.text(
        frame.min + egui::vec2(2.0, 0.0),
        Align2::LEFT_TOP,
        format!("🔍 {}  ×{}", v.name, zoom_text(zoom)),
        FontId::proportional(12.0),
        warn,
    );
    // The depth, wrapped to the inset's width.
    let text = format!("{} m below its surface", crate::app::lab::num(depth));
    let depth_lines = p.layout(text, FontId::proportional(12.0), violated, frame.width() - 4.0);
    let below = depth_lines.size().y;
    p.galley(Pos2::new(frame.min.x + 2.0, box_.max.y + 3.0), depth_lines, violated);
    if let Some(why) = why {
        // Wrapped to the inset's width, on the frame's dark ground.
        let galley =
            p.layout(why.to_string(), FontId::proportional(11.0), Color32::from_gray(205), frame.width() - 4.0);
        let at = Pos2::new(frame.min.x + 2.0, box_.max.y + 5.0 + below);
        let ground = egui::Rect::from_min_size(at, galley.size()).expand(4.0);
        p.rect_filled(ground, 4.0, Color32::from_black_alpha(220));
        p.galley(at, galley, Color32::from_gray(205));
    }
}

/// `2e6`: a magnification, to one figure.
fn zoom_text(z: f64) -> String {
    if z < 1e4 { format!("{z:.0}") } else { format!("{:.0e}", z) }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A view whose focus fills it (tour step 3, box-over-step at 1280x720):
    /// the inset stays in the view, off the contact and off the bodies, and
    /// a view too small for it shows none rather than reach over a panel.
    #[test]
    fn the_inset_stays_in_the_view_off_the_contact_and_the_bodies() {
        let rect = egui::Rect::from_min_max(Pos2::new(330.0, 60.0), Pos2::new(1030.0, 560.0));
        let view = ViewTransform {
            center: DVec2::ZERO,
            ppm: 500.0,
            rect: bevy::math::Rect::new(rect.min.x, rect.min.y, rect.max.x, rect.max.y),
            ..Default::default()
        };
        let v = Violation { k: 0, name: "g1".into(), at: DVec2::new(0.1, 0.0), normal: DVec2::Y, depth: -1e-6 };
        let contact = {
            let s = view.to_screen(v.at);
            Pos2::new(s.x, s.y)
        };
        // A body at the contact and one up and to its right.
        let discs = [(contact, 20.0), (contact + egui::vec2(120.0, -150.0), 30.0)];
        for why in [false, true] {
            let at = place(&view, rect, Some(rect), &discs, &[], &|_| false, &v, why).expect("room for it");
            assert!(rect.contains_rect(at.frame), "{:?} in {rect:?}", at.frame);
            assert!(!at.frame.contains(contact));
            assert_eq!(bodies_under(at.frame, &discs), 0, "{:?}", at.frame);
        }
        // Compare mode's strip of a view on a small screen: no inset.
        let strip = egui::Rect::from_min_max(Pos2::new(330.0, 60.0), Pos2::new(1030.0, 120.0));
        assert!(place(&view, strip, Some(strip), &discs, &[], &|_| false, &v, false).is_none());
    }

    #[test]
    fn lengths_read_in_their_unit() {
        assert_eq!(length(1e-6), "1 µm");
        assert_eq!(length(2e-9), "2 nm");
        assert_eq!(length(5e-4), "500 µm");
        assert_eq!(length(0.2), "200 mm");
        assert_eq!(length(1.0), "1 m");
    }
}
