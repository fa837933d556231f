//! Labels on the world view, painted by egui over the Bevy drawing: axis ticks in
//! metres, wall names, the values of `λ` and `f`, spring forces, the legend of
//! colours, a heap's angle of repose ([`heap_angle`]), the scene error banner
//! and the paused mark.

use bevy::math::{DVec2, Rect, Vec2};
use bevy_egui::egui::{self, Align2, Color32, FontId, Pos2};
use contact_core::Geometry;

use super::data::PanelData;
use super::label::label;
use super::placement::{self, bodies_under};
use super::{heap_angle, magnifier};
use crate::app::edit::Refusal;
use crate::app::lab::gizmo::grid_step;
use crate::app::lab::names::seen_name;
use crate::app::lab::palette::method_color;
use crate::app::lab::{ConstraintState, ConstraintStatus, ViewTransform, force, geometry, num, palette};

pub struct Overlay<'a, 'w, 's> {
    pub data: &'a mut PanelData<'w, 's>,
    pub view: &'a ViewTransform,
    pub rect: egui::Rect,
}

fn pos(v: bevy::math::Vec2) -> Pos2 {
    Pos2::new(v.x, v.y)
}

/// Where [`label`] draws `text` (before it is pushed inside the view).
fn label_rect(p: &egui::Painter, at: Pos2, anchor: Align2, text: &str, size: f32) -> egui::Rect {
    let galley = p.layout_no_wrap(text.to_string(), FontId::proportional(size), Color32::WHITE);
    anchor.anchor_size(at, galley.size()).expand2(egui::vec2(3.0, 1.0))
}

/// How far `r` must move down (`down`) or up to clear every rectangle of
/// `placed` it meets, each time past the one it meets (labels stacked in a
/// column); 0 where it meets none.
fn clear_of(placed: &[egui::Rect], mut r: egui::Rect, down: bool) -> f32 {
    let mut moved = 0.0;
    // Each move clears one rectangle for good (it moves past it, the same
    // way each time): at most as many moves as rectangles.
    for _ in 0..placed.len() {
        let Some(hit) = placed.iter().find(|o| o.intersects(r)) else { break };
        let dy = if down { hit.max.y - r.min.y + 1.0 } else { hit.min.y - r.max.y - 1.0 };
        r = r.translate(egui::vec2(0.0, dy));
        moved += dy;
    }
    moved
}

/// Where a label at `r` goes clear of the labels `placed` before it: below
/// them, or above them where below would reach `floor` (the band the legend
/// and the axis numbers take at the bottom of the view).
fn stacked(placed: &[egui::Rect], r: egui::Rect, floor: f32) -> f32 {
    let down = clear_of(placed, r, true);
    if r.max.y + down <= floor { down } else { clear_of(placed, r, false) }
}

/// `at` moved to the nearest point of `rect`; where `rect` has no room
/// (a view narrower than its margins, in compare mode on a small screen:
/// `shrink` gives `min > max`), its centre on that axis. `Rect::clamp`
/// panics there.
fn clamp_into(rect: egui::Rect, at: Pos2) -> Pos2 {
    let axis = |v: f32, lo: f32, hi: f32| if lo <= hi { v.clamp(lo, hi) } else { 0.5 * (lo + hi) };
    Pos2::new(axis(at.x, rect.min.x, rect.max.x), axis(at.y, rect.min.y, rect.max.y))
}

impl Overlay<'_, '_, '_> {
    pub fn paint(&mut self, ctx: &egui::Context) {
        let p = ctx.layer_painter(egui::LayerId::background()).with_clip_rect(self.rect);
        let Some(lab) = self.data.lab.as_deref() else { return };
        let view = self.view;
        let world = &lab.world;
        let draw = self.data.draw.clone();

        let top_label_end = if draw.labels { self.top_label(&p) } else { self.rect.min.x };
        // The method and clock's line along the top (see `top_label`).
        let clock = egui::Rect::from_min_max(self.rect.min, Pos2::new(top_label_end, self.rect.min.y + 30.0));
        let scale_bar = draw.grid.then(|| self.axes(&p, top_label_end));

        let nb = world.model.bodies.len();
        let mut at = vec![DVec2::ZERO; nb];
        for (b, m) in &self.data.bodies {
            if b.index < nb {
                at[b.index] = m.at(self.data.interp.alpha);
            }
        }
        let positions = |b: usize| at[b];
        let mut status = vec![ConstraintStatus::default(); world.model.constraints.len()];
        for (c, s) in &self.data.constraints {
            if c.index < status.len() {
                status[c.index] = *s;
            }
        }
        let scr = |w: DVec2| pos(view.to_screen(w));
        // The bodies on screen (centre, radius in points): labels and the legend keep clear of them.
        let discs = placement::discs(world, view, |b| at[b]);
        // Under a window (the tour, compare's readout) or the presenter's banner
        // (not interactable, so not a layer egui finds under a point).
        let banner = self.data.state.banner;
        // Labels whose place is fixed (the f labels, the body names) and the
        // presenter's banner: the magnifier, the wall labels and the legend
        // keep off them.
        // Where body i's f label and name label are anchored (screen points).
        let force_scale = self.data.look.force_scale;
        let f_label_at = |i: usize, b: &contact_core::Body| {
            scr(at[i] + DVec2::new(b.force.x, b.force.y) * force_scale) + egui::vec2(8.0, -8.0)
        };
        let name_at = |i: usize, b: &contact_core::Body| {
            let r = b.radius.max(view.world_len(6.0));
            scr(at[i] + DVec2::new(-r, r)) + egui::vec2(-4.0, -4.0)
        };
        let mut taken: Vec<egui::Rect> = banner.into_iter().chain(scale_bar).collect();
        // The heap's angle where it is measured (the heap scene).
        if draw.labels && heap_angle::wanted(&lab.scene.plots) {
            taken.extend(heap_angle::paint(&p, world, &scr));
        }
        if draw.force_arrows {
            for (i, b) in world.model.bodies.iter().enumerate() {
                if b.is_dynamic() && (b.force.x != 0.0 || b.force.y != 0.0) {
                    taken.push(label_rect(&p, f_label_at(i, b), Align2::LEFT_BOTTOM, &force_text(b), 13.0));
                }
            }
        }
        // A body's name label: the hovered one reads its position and velocity.
        let name_text = |i: usize, b: &contact_core::Body| {
            if self.data.highlight.body != Some(i) {
                return b.name.clone();
            }
            let v = world.model.velocity(i, &world.state);
            format!("{} ({}, {}) m · v = ({}, {}) m/s", b.name, num(at[i].x), num(at[i].y), num(v.x), num(v.y))
        };
        if draw.labels && nb <= 4 {
            for (i, b) in world.model.bodies.iter().enumerate().filter(|(_, b)| b.is_dynamic()) {
                taken.push(label_rect(&p, name_at(i, b), Align2::RIGHT_BOTTOM, &b.name, 12.5));
            }
        }
        // The hovered body's readout: the λ labels below stack clear of it
        // (the first of their rectangles, all of them `taken` after).
        let readout: Option<egui::Rect> = self
            .data
            .highlight
            .body
            .filter(|&i| draw.labels && world.model.bodies.get(i).is_some_and(|b| b.is_dynamic()))
            .map(|i| {
                let b = &world.model.bodies[i];
                label_rect(&p, name_at(i, b), Align2::RIGHT_BOTTOM, &name_text(i, b), 12.5)
            });
        // λ values (when few are handled): up to three labels; with more,
        // only those of the hovered body or row. Their places are fixed (at
        // the arrow's tip): the magnifier keeps off them.
        let handled: Vec<usize> = (0..status.len()).filter(|&k| status[k].handled && status[k].lambda != 0.0).collect();
        let hovered = |k: usize| {
            self.data.highlight.constraint == Some(k)
                || self.data.highlight.body.is_some_and(|b| world.model.constraints[k].bodies().contains(&b))
        };
        let lambda_labelled: Vec<usize> = if draw.lambda_arrows && draw.labels {
            handled.iter().copied().filter(|&k| handled.len() <= 3 || hovered(k)).take(8).collect()
        } else {
            Vec::new()
        };
        let lambda_label = |k: usize| {
            let s = status[k];
            geometry::constraint_forces(world, k, s.lambda, &positions).into_iter().next().map(|cf| {
                let tip = cf.at + cf.force * self.data.look.lambda_scale;
                let ineq = world.model.constraints[k].is_inequality();
                let rgb = if s.lambda >= 0.0 || !ineq { palette::LAMBDA_POS } else { palette::LAMBDA_NEG };
                let name = seen_name(world, &lab.constraint_names, &lab.body_names, k);
                (scr(tip) + egui::vec2(6.0, 6.0), format!("{name}: λ = {} N", force(s.lambda)), palette::egui(rgb))
            })
        };
        // Each at its arrow's tip, moved below (or, near the legend's band,
        // above) the labels placed before where it would cover one (a hovered
        // ball in a pile: its contacts' tips a few pixels apart).
        let mut lambda_rects: Vec<egui::Rect> = readout.into_iter().collect();
        let mut lambda_placed: Vec<(usize, Pos2, String, Color32)> = Vec::new();
        // The axis numbers and two rows of legend.
        let floor = self.rect.max.y - 26.0 - 40.0;
        for &k in &lambda_labelled {
            if let Some((mut at, text, color)) = lambda_label(k) {
                let r = label_rect(&p, at, Align2::LEFT_TOP, &text, 13.0);
                let dy = stacked(&lambda_rects, r, floor);
                at.y += dy;
                lambda_rects.push(r.translate(egui::vec2(0.0, dy)));
                lambda_placed.push((k, at, text, color));
            }
        }
        taken.extend(lambda_rects.iter().copied());
        // The magnifier's inset, placed next: the labels keep off it too.
        let why = magnifier::why(&lab.world.settings);
        let magnified = draw
            .magnifier
            .then(|| {
                let g: Vec<f64> = status.iter().map(|s| s.g).collect();
                magnifier::deepest(world, &lab.constraint_names, &g, &positions, view.ppm)
            })
            .flatten()
            .and_then(|v| {
                let under_window = |s: Pos2| {
                    banner.is_some_and(|b| b.contains(s))
                        || ctx.layer_id_at(s).is_some_and(|l| l.order != egui::Order::Background)
                };
                let focus = view.fitted_rect().map(|r| egui::Rect::from_min_max(pos(r.min), pos(r.max)));
                let at = magnifier::place(view, self.rect, focus, &discs, &taken, &under_window, &v, why.is_some());
                at.map(|at| (at, v))
            });
        let inset = magnified.as_ref().map(|(at, _)| at.frame.expand(6.0));
        taken.extend(inset);
        // What hides a body: the presenter's banner, the magnifier, a window,
        // and the method and clock's line along the top (a stream poured
        // from above passes under it).
        let covered_at = |s: Pos2| {
            (draw.labels && clock.contains(s))
                || banner.is_some_and(|b| b.contains(s))
                || inset.is_some_and(|r| r.contains(s))
                || ctx.layer_id_at(s).is_some_and(|l| l.order != egui::Order::Background)
        };

        if draw.labels {
            // Wall names, where the wall crosses the view, on the allowed side.
            let (lo, hi) = view.visible();
            let center = (lo + hi) * 0.5;
            for w in &self.data.look.walls {
                let foot = center - w.normal * (w.normal.dot(center) - w.offset);
                let t = DVec2::new(-w.normal.y, w.normal.x);
                let span = (hi - lo).length() * 0.5;
                let state = w.constraints.iter().map(|&k| status[k].state).max().unwrap_or_default();
                let round =
                    |k: usize| world.model.constraints[k].bodies().iter().any(|&b| world.model.bodies[b].radius > 0.0);
                let text = if w.constraints.len() == 1 && !round(w.constraints[0]) {
                    let k = w.constraints[0];
                    let eq = match world.model.constraints[k].geometry {
                        Geometry::HalfPlane { normal, offset, .. } => {
                            format!("{} = {} ≥ 0", lab.constraint_names[k], linear(normal.x, normal.y, offset))
                        }
                        _ => lab.constraint_names[k].clone(),
                    };
                    format!("{eq}  ({})", state.label())
                } else {
                    format!("{}  ({})", w.name, state.label())
                };
                let off = w.normal * view.world_len(10.0);
                // On the allowed side, anchored away from the wall.
                let anchor = if w.normal.x.abs() > w.normal.y.abs() {
                    if w.normal.x > 0.0 { Align2::LEFT_CENTER } else { Align2::RIGHT_CENTER }
                } else if w.normal.y > 0.0 {
                    Align2::CENTER_BOTTOM
                } else {
                    Align2::CENTER_TOP
                };
                let size = p.layout_no_wrap(text.clone(), FontId::proportional(13.0), Color32::WHITE).size();
                // Not under a window (the presenter's banner, the tour): a label
                // is never drawn beneath another text.
                let clear_of_windows = |q: &DVec2| {
                    let r = anchor.anchor_size(scr(*q + off), size).expand(3.0);
                    ![r.left_top(), r.right_top(), r.left_bottom(), r.right_bottom(), r.center()]
                        .into_iter()
                        .any(&covered_at)
                };
                // A point on the wall inside the view, as far as possible from the bodies.
                let spot = [0.6, 0.35, 0.1, -0.1, -0.35, -0.6]
                    .into_iter()
                    .map(|s| foot + t * (s * span))
                    .filter(|q| q.x > lo.x && q.x < hi.x && q.y > lo.y && q.y < hi.y)
                    // Clear of the time label along the top and the legend at the bottom.
                    .filter(|q| {
                        let y = view.to_screen(*q).y;
                        y > self.rect.min.y + 50.0 && y < self.rect.max.y - 80.0
                    })
                    .filter(clear_of_windows)
                    // Never over a body (the label's whole rectangle, not its
                    // anchor): where every spot is, the wall goes unnamed here
                    // (the table and the legend name it).
                    .filter(|q| bodies_under(anchor.anchor_size(scr(*q + off), size).expand(3.0), &discs) == 0)
                    .filter(|q| {
                        let r = anchor.anchor_size(scr(*q + off), size).expand(3.0);
                        !taken.iter().any(|t| t.intersects(r))
                    })
                    .max_by(|a, b| {
                        let clear = |q: &DVec2| at.iter().map(|p| (*p - *q).length()).fold(f64::INFINITY, f64::min);
                        clear(a).total_cmp(&clear(b))
                    });
                let Some(q) = spot else { continue };
                label(&p, scr(q + off), anchor, &text, 13.0, palette::egui(palette::state_rgb(state)));
                // The next wall's label keeps off this one (a narrow box's
                // two walls wrote "wall_left" over "wall_right": item 11).
                taken.push(anchor.anchor_size(scr(q + off), size).expand(3.0));
            }
        }

        // f arrows.
        if draw.force_arrows {
            for (i, b) in world.model.bodies.iter().enumerate() {
                if !b.is_dynamic() || (b.force.x == 0.0 && b.force.y == 0.0) {
                    continue;
                }
                label(&p, f_label_at(i, b), Align2::LEFT_BOTTOM, &force_text(b), 13.0, palette::egui(palette::FORCE));
            }
        }

        if draw.lambda_arrows && draw.labels {
            for &k in &lambda_labelled {
                let s = status[k];
                if let Some((_, at, text, color)) = lambda_placed.iter().find(|(j, ..)| *j == k) {
                    label(&p, *at, Align2::LEFT_TOP, text, 13.0, *color);
                }
                // Its friction, and whether it holds (inside the cone) or slides (on its edge).
                if s.friction != 0.0 {
                    for cf in geometry::friction_forces(world, k, s.friction, &positions).into_iter().take(1) {
                        let tip = cf.at + cf.force * self.data.look.lambda_scale;
                        // Beyond the tip, away from the body (out along the
                        // contact's normal) and on the side the arrow points
                        // to: a short arrow under a small disc leaves it clear.
                        let out = scr(cf.at) - scr(positions(cf.body));
                        let along = scr(tip) - scr(cf.at);
                        let (right, down) = if out.x.abs() > out.y.abs() {
                            (out.x > 0.0, along.y > 0.0)
                        } else {
                            (along.x >= 0.0, out.y > 0.0)
                        };
                        let align = match (right, down) {
                            (true, true) => Align2::LEFT_TOP,
                            (true, false) => Align2::LEFT_BOTTOM,
                            (false, true) => Align2::RIGHT_TOP,
                            (false, false) => Align2::RIGHT_BOTTOM,
                        };
                        let at = scr(tip) + egui::vec2(if right { 6.0 } else { -6.0 }, if down { 6.0 } else { -6.0 });
                        label(
                            &p,
                            at,
                            align,
                            &format!("λ_t = {} N{}", force(s.friction), s.coulomb.label()),
                            13.0,
                            palette::egui(palette::FRICTION),
                        );
                    }
                }
            }
        }

        // Springs.
        for s in self.data.drags.springs() {
            if s.body >= nb {
                continue;
            }
            let mid = (s.point(world, at[s.body]) + s.target) * 0.5;
            label(
                &p,
                scr(mid) + egui::vec2(10.0, -10.0),
                Align2::LEFT_BOTTOM,
                // From the state shown, not the last step's: paused, a
                // stretched spring read "0 N" (issue 47, item 14).
                &format!("spring |F| = {} N", num(s.core().force(world).norm())),
                13.0,
                palette::egui(palette::SPRING),
            );
        }

        // Where each body is as this overlay sees it (the visual check reads it).
        self.data.on_screen.covered = (0..nb).map(|i| covered_at(scr(at[i]))).collect();
        self.data.on_screen.marker = vec![false; nb];
        // Bodies out of the view: a marker on the edge pointing at them; in a
        // crowd (a pyramid), the ones a spring holds (a box dragged out).
        let held: Vec<usize> = self.data.drags.springs().map(|s| s.body).collect();
        {
            let inner = self.rect.shrink(14.0);
            for (i, b) in world.model.bodies.iter().enumerate() {
                if !b.is_dynamic() || (nb > 12 && !held.contains(&i)) {
                    continue;
                }
                let s = scr(at[i]);
                if self.rect.contains(s) {
                    continue;
                }
                self.data.on_screen.marker[i] = true;
                let e = clamp_into(inner, s);
                let dir = (s - e).normalized();
                let c = palette::egui(palette::body_rgb(i));
                let tip = e + dir * 8.0;
                let side = egui::vec2(-dir.y, dir.x) * 6.0;
                p.add(egui::Shape::convex_polygon(
                    vec![tip, e - dir * 4.0 + side, e - dir * 4.0 - side],
                    c,
                    egui::Stroke::NONE,
                ));
                let anchor = Align2([
                    if dir.x > 0.5 {
                        egui::Align::Max
                    } else if dir.x < -0.5 {
                        egui::Align::Min
                    } else {
                        egui::Align::Center
                    },
                    if dir.y > 0.5 {
                        egui::Align::Max
                    } else if dir.y < -0.5 {
                        egui::Align::Min
                    } else {
                        egui::Align::Center
                    },
                ]);
                let text = format!("{} ({}, {}) m", b.name, num(at[i].x), num(at[i].y));
                // Below the method and clock along the top, never under it
                // (b7 of the billiard wrote its place over the clock: item 11).
                let mut spot = e - dir * 12.0;
                let r = label_rect(&p, spot, anchor, &text, 12.0).expand(2.0);
                if r.intersects(clock) {
                    spot.y += clock.max.y - r.min.y;
                }
                label(&p, spot, anchor, &text, 12.0, Color32::from_gray(220));
            }
        }

        // Body names (few bodies) and the hovered one.
        if draw.labels {
            for (i, b) in world.model.bodies.iter().enumerate() {
                if !b.is_dynamic() {
                    continue;
                }
                if nb <= 4 || self.data.highlight.body == Some(i) {
                    label(&p, name_at(i, b), Align2::RIGHT_BOTTOM, &name_text(i, b), 12.5, Color32::from_gray(225));
                }
            }
        }

        // What is drawn over the world, in logical px, for `--check-view`.
        let zoom = (self.data.view.ppm / view.ppm) as f32;
        let px =
            |r: egui::Rect| Rect::from_corners(Vec2::new(r.min.x, r.min.y) * zoom, Vec2::new(r.max.x, r.max.y) * zoom);
        self.data.on_screen.overlays.clear();
        // Presenter mode gives the view to the scene: no legend (the banner
        // names what matters, the desk's mode explains the colours).
        if draw.labels && !self.data.state.present {
            let (band, drawn) = self.legend(&p, &discs, &taken, &covered_at);
            // The legend's band at the bottom: a fit frames the scene above it.
            self.data.view.set_covered_bottom(band * zoom);
            self.data.on_screen.overlays.extend(drawn.map(|r| ("the legend".to_string(), px(r))));
        } else {
            self.data.view.set_covered_bottom(0.0);
        }
        let point = |s: Pos2| Vec2::new(s.x, s.y) * zoom;
        self.data.on_screen.magnifier = magnified.as_ref().map(|(at, _)| (px(at.frame), point(at.contact)));
        if let Some((at, v)) = &magnified {
            // In the view, under every window and panel.
            magnifier::paint(&p, view, at, v, why.as_deref());
        }
        self.refusal(&p, &scr);

        // Paused mark and the scene error banner, its reason wrapped to the
        // view's width (a long one ran past the view's edge, cut).
        if let Some(err) = &self.data.files.error {
            let width = self.rect.width() - 20.0;
            let title = p.layout(
                crate::app::scene::not_loaded(
                    self.data.lab.as_deref().map(|l| l.scene.name.as_str()),
                    self.data.files.instead,
                ),
                FontId::proportional(13.0),
                Color32::WHITE,
                width - 16.0,
            );
            let reason = p.layout(err.clone(), FontId::monospace(12.5), Color32::from_rgb(255, 200, 200), width - 16.0);
            let height = title.size().y + reason.size().y + 14.0;
            let r = egui::Rect::from_min_size(self.rect.left_top() + egui::vec2(10.0, 40.0), egui::vec2(width, height));
            p.rect_filled(r, 4.0, Color32::from_rgba_unmultiplied(90, 20, 25, 230));
            let below = title.size().y + 9.0;
            p.galley(r.left_top() + egui::vec2(8.0, 5.0), title, Color32::WHITE);
            p.galley(r.left_top() + egui::vec2(8.0, below), reason, Color32::WHITE);
        }
    }

    /// Tick values in metres along the bottom and left edges, and a scale bar at
    /// the top right (a line lower when the top label reaches it, below the
    /// presenter's banner); where the scale bar is (the magnifier keeps off it).
    fn axes(&self, p: &egui::Painter, top_label_end: f32) -> egui::Rect {
        let view = self.view;
        let (lo, hi) = view.visible();
        let step = grid_step(view.ppm, 70.0);
        let dim = Color32::from_gray(150);
        let decimals = (-step.log10()).ceil().max(0.0) as usize;
        let (i0, i1) = ((lo.x / step).ceil() as i64, (hi.x / step).floor() as i64);
        for i in i0..=i1.min(i0 + 200) {
            let x = i as f64 * step;
            let s = view.to_screen(DVec2::new(x, lo.y));
            p.text(
                Pos2::new(s.x, self.rect.max.y - 4.0),
                Align2::CENTER_BOTTOM,
                format!("{x:.decimals$}"),
                FontId::proportional(11.0),
                dim,
            );
        }
        let (j0, j1) = ((lo.y / step).ceil() as i64, (hi.y / step).floor() as i64);
        for j in j0..=j1.min(j0 + 200) {
            let y = j as f64 * step;
            let s = view.to_screen(DVec2::new(lo.x, y));
            p.text(
                Pos2::new(self.rect.min.x + 4.0, s.y),
                Align2::LEFT_CENTER,
                format!("{y:.decimals$}"),
                FontId::proportional(11.0),
                dim,
            );
        }
        p.text(
            self.rect.right_bottom() + egui::vec2(-6.0, -18.0),
            Align2::RIGHT_BOTTOM,
            "x [m]",
            FontId::proportional(12.0),
            dim,
        );
        p.text(
            self.rect.left_top() + egui::vec2(4.0, 22.0),
            Align2::LEFT_TOP,
            "y [m]",
            FontId::proportional(12.0),
            dim,
        );
        // Scale bar.
        let len = step as f32 * view.ppm as f32;
        let mut a = Pos2::new(self.rect.max.x - 20.0 - len, self.rect.min.y + 30.0);
        if a.x - 30.0 < top_label_end {
            a.y += 28.0;
        }
        // Below the presenter's banner where they would meet.
        if let Some(banner) = self.data.state.banner.filter(|b| b.max.x > a.x - 30.0 && b.min.y < a.y + 6.0) {
            a.y = a.y.max(banner.max.y + 24.0);
        }
        let b = a + egui::vec2(len, 0.0);
        p.line_segment([a, b], egui::Stroke::new(2.0, dim));
        p.line_segment([a - egui::vec2(0.0, 4.0), a + egui::vec2(0.0, 4.0)], egui::Stroke::new(2.0, dim));
        p.line_segment([b - egui::vec2(0.0, 4.0), b + egui::vec2(0.0, 4.0)], egui::Stroke::new(2.0, dim));
        p.text(
            Pos2::new((a.x + b.x) * 0.5, a.y - 4.0),
            Align2::CENTER_BOTTOM,
            format!("{} m", num(step)),
            FontId::proportional(11.0),
            dim,
        );
        egui::Rect::from_min_max(a - egui::vec2(4.0, 20.0), b + egui::vec2(4.0, 6.0))
    }

    /// Edit mode's last refusal, at the cursor where the gesture was refused,
    /// for [`Refusal::SHOWN`] seconds: plain words, the file's field below.
    fn refusal(&self, p: &egui::Painter, scr: &dyn Fn(DVec2) -> Pos2) {
        let ed = &self.data.editor;
        let now = self.data.real.elapsed_secs_f64();
        let (Some((w, at)), Some(e)) = (ed.refused_at, &ed.error) else { return };
        if !ed.on || now - at > Refusal::SHOWN {
            return;
        }
        let warn = palette::egui(palette::WARN);
        let words = p.layout(e.words.clone(), FontId::proportional(14.0), warn, 420.0);
        let detail = p.layout(e.detail.clone(), FontId::proportional(11.0), Color32::from_gray(190), 420.0);
        let size = egui::vec2(words.size().x.max(detail.size().x), words.size().y + detail.size().y + 2.0);
        let clip = p.clip_rect().shrink(4.0);
        let mut r = egui::Rect::from_min_size(scr(w) + egui::vec2(16.0, 14.0), size).expand2(egui::vec2(6.0, 4.0));
        // Inside the view: to the left or above the cursor near an edge.
        if r.max.x > clip.max.x {
            r = r.translate(egui::vec2(-(r.width() + 32.0), 0.0));
        }
        if r.max.y > clip.max.y {
            r = r.translate(egui::vec2(0.0, -(r.height() + 28.0)));
        }
        r = r.translate(egui::vec2((clip.min.x - r.min.x).max(0.0), (clip.min.y - r.min.y).max(0.0)));
        p.rect(r, 4.0, Color32::from_black_alpha(210), egui::Stroke::new(1.0, warn), egui::StrokeKind::Inside);
        let top = r.min + egui::vec2(6.0, 4.0);
        let below = top + egui::vec2(0.0, words.size().y + 2.0);
        p.galley(top, words, warn);
        p.galley(below, detail, Color32::from_gray(190));
    }

    /// The method (the algorithm, or Time-stepping) and time at the top
    /// left; where it ends (the scale bar keeps clear of it). On a narrow
    /// view (presenter mode with the tour open on a 1024 px projector) it
    /// takes the first of shorter forms that fits, never cut: the toolbar
    /// leaves the method and PAUSED to it where they do not fit there.
    fn top_label(&self, p: &egui::Painter) -> f32 {
        let x0 = self.rect.min.x + 40.0;
        let Some(lab) = self.data.lab.as_deref() else { return x0 };
        let a = contact_core::Method::of(&lab.world.settings);
        let paused = self.data.virt.is_paused() && !self.data.clip.holding;
        let (name, t) = (a.label(), lab.time());
        let full = format!("{name} · t = {t:.4} s{}", if paused { "  ·  ⏸ paused" } else { "" });
        let short = format!("{name} · {t:.4} s{}", if paused { "  ⏸" } else { "" });
        // Each form with its width, the shortest last.
        let forms = [(full, 16.0), (short.clone(), 16.0), (short, 13.0)].map(|(text, size)| {
            let width = p.layout_no_wrap(text.clone(), FontId::proportional(size), Color32::WHITE).size().x;
            (text, size, width)
        });
        let room = self.rect.max.x - x0 - 8.0;
        let (text, size, width) = forms.iter().find(|f| f.2 <= room).unwrap_or(&forms[2]);
        let x = if *width <= room { x0 } else { self.rect.min.x + 4.0 };
        label(p, Pos2::new(x, self.rect.min.y + 8.0), Align2::LEFT_TOP, text, *size, method_color(a));
        x + width + 6.0
    }

    /// The legend of colours, in as many rows as the view's width needs, in
    /// the corner of the view that covers the fewest bodies (bottom right
    /// first): it never sits on a pile.
    /// Returns the height of the band it takes at the bottom of the view
    /// (points), and where it was drawn.
    fn legend(
        &self,
        p: &egui::Painter,
        discs: &[(Pos2, f32)],
        taken: &[egui::Rect],
        covered: &dyn Fn(Pos2) -> bool,
    ) -> (f32, Option<egui::Rect>) {
        let look = &self.data.look;
        let shrunk = look.lambda_scale < 0.95 * look.force_scale;
        let lambda_text = if shrunk {
            format!("λ ∂g/∂p ≥ 0 (×{:.2})", look.lambda_scale / look.force_scale)
        } else {
            "λ ∂g/∂p ≥ 0".to_string()
        };
        let mut rows: Vec<([u8; 3], &str, Mark)> = vec![
            (palette::state_rgb(ConstraintState::Inactive), "inactive", Mark::Bar),
            (palette::state_rgb(ConstraintState::ActiveNotHandled), "active, not handled", Mark::Bar),
            (palette::state_rgb(ConstraintState::Handled), "handled", Mark::Bar),
            (palette::state_rgb(ConstraintState::Violated), "violated", Mark::Bar),
        ];
        let settings = self.data.lab.as_deref().map(|lab| &lab.world.settings);
        if settings.is_some_and(|s| s.sleep.enabled) {
            rows.push((palette::state_rgb(ConstraintState::Asleep), "asleep", Mark::Bar));
        }
        rows.extend([
            (palette::FORCE, "force f", Mark::Arrow),
            (palette::LAMBDA_POS, lambda_text.as_str(), Mark::Arrow),
            (palette::LAMBDA_NEG, "λ < 0 on g ≥ 0", Mark::Arrow),
            (palette::SPRING, "mouse spring", Mark::Arrow),
        ]);
        if self.data.lab.as_deref().is_some_and(|lab| lab.world.model.has_friction()) {
            rows.push((palette::FRICTION, "friction λ_t (|λ_t| ≤ μλ)", Mark::Arrow));
        }
        if settings.is_some_and(|s| s.events.enabled) {
            rows.push((palette::EVENT, "rewind to a first activation", Mark::Ring));
        }
        let font = FontId::proportional(12.0);
        let mut items: Vec<([u8; 3], &str, Mark, f32)> = rows
            .iter()
            .map(|&(rgb, t, mark)| {
                (rgb, t, mark, p.layout_no_wrap(t.to_string(), font.clone(), Color32::WHITE).size().x + 30.0)
            })
            .collect();
        // The states on a row and the arrows on another when they fit, else as many as the view's width takes.
        let avail = (self.rect.width() - 24.0).max(80.0);
        let layout = |items: &[([u8; 3], &str, Mark, f32)]| {
            let mut lines: Vec<Vec<usize>> = vec![vec![]];
            let mut x = 0.0;
            for (k, item) in items.iter().enumerate() {
                let line = lines.last_mut().expect("one line at least");
                if !line.is_empty() && (x + item.3 > avail || (items[k - 1].2 == Mark::Bar) != (item.2 == Mark::Bar)) {
                    lines.push(vec![]);
                    x = 0.0;
                }
                lines.last_mut().expect("one line at least").push(k);
                x += item.3;
            }
            lines
        };
        let mut lines = layout(&items);
        // Whether the whole legend's band would fit (below): where it would
        // not, there is no legend and the scene keeps the room, as before.
        let full_rows = lines.len();
        // A narrow view (a 1024x768 screen: 310 px) keeps the states' colours
        // alone: the four or five rows of it all took a third of the view
        // (issue 47). The arrows are in the manual and the λ labels.
        if lines.len() > 3 {
            items.retain(|i| i.2 == Mark::Bar);
            lines = layout(&items);
        }
        let w = lines.iter().map(|l| l.iter().map(|&k| items[k].3).sum::<f32>()).fold(0.0, f32::max) + 8.0;
        // The legend's height for `rows` rows, and its band with the axis numbers under it.
        let height = |rows: usize| 6.0 + 17.0 * rows as f32;
        let band_of = |rows: usize| height(rows) + 26.0 + 6.0;
        let h = height(lines.len());
        // Bottom right above the axis numbers, or bottom left: in the band
        // at the bottom that a fit leaves free of the scene (issue 37).
        let size = egui::vec2(w, h);
        let band = band_of(lines.len());
        // Its band, with the top one, in at most half the view: else (a small
        // view: compare's panel, presenter mode at 1280x720) no band and no legend, and the scene keeps
        // the room (the bands are never traded back and forth).
        let v = &self.data.view;
        let zoom = (v.ppm / self.view.ppm) as f32;
        let top = v.banner.y.max(crate::app::lab::frame::TOP_LABEL);
        if top + band_of(full_rows) * zoom > 0.5 * v.rect.height() {
            return (0.0, None);
        }
        let (left, right) = (self.rect.min.x + 30.0, self.rect.max.x - w - 8.0);
        let bottom = self.rect.max.y - 26.0 - h;
        let corners = [(right, bottom), (left, bottom)];
        let bg = corners
            .iter()
            .map(|&(x, y)| egui::Rect::from_min_size(Pos2::new(x, y), size))
            .min_by_key(|&r| {
                // Under a window (compare's readout, the tour) it could not be read.
                let windowed = [r.left_top(), r.right_top(), r.left_bottom(), r.right_bottom(), r.center()]
                    .into_iter()
                    .filter(|c| covered(*c))
                    .count();
                bodies_under(r, discs) + taken.iter().filter(|t| t.intersects(r)).count() + 10 * windowed
            })
            .expect("two corners");
        // Presenter mode in a small window (1280×720 leaves the world 470 × 360
        // points), compare mode (the view framed below its window), or a scene
        // wide and low (a pyramid): with no free corner the legend gives way to
        // what it explains.
        let crowded = self.data.state.present || self.data.compare.on;
        if crowded && (taken.iter().any(|t| t.intersects(bg)) || bodies_under(bg, discs) > 0) {
            return (band, None);
        }
        // Never over the focus: where the bands cannot both be kept (compare's
        // window takes half the view), the legend gives way.
        let focus = self.view.fitted_rect().map(|r| egui::Rect::from_min_max(pos(r.min), pos(r.max)));
        if focus.is_some_and(|f| f.shrink(2.0).intersects(bg)) {
            return (band, None);
        }
        p.rect_filled(bg, 4.0, Color32::from_black_alpha(150));
        for (i, line) in lines.iter().enumerate() {
            let mut x = bg.min.x + 8.0;
            let y = bg.min.y + 4.0 + i as f32 * 17.0;
            for &k in line {
                let (rgb, text, mark, width) = items[k];
                let c = palette::egui(rgb);
                match mark {
                    Mark::Arrow => {
                        let (a, b) = (Pos2::new(x, y + 8.0), Pos2::new(x + 16.0, y + 8.0));
                        p.line_segment([a, b], egui::Stroke::new(2.0, c));
                        p.line_segment([b, b + egui::vec2(-5.0, -4.0)], egui::Stroke::new(2.0, c));
                        p.line_segment([b, b + egui::vec2(-5.0, 4.0)], egui::Stroke::new(2.0, c));
                    }
                    Mark::Bar => {
                        p.rect_filled(egui::Rect::from_min_size(Pos2::new(x, y + 6.0), egui::vec2(16.0, 4.0)), 1.0, c);
                    }
                    Mark::Ring => {
                        p.circle_stroke(Pos2::new(x + 8.0, y + 8.0), 6.5, egui::Stroke::new(1.5, c));
                        p.circle_stroke(Pos2::new(x + 8.0, y + 8.0), 3.5, egui::Stroke::new(1.5, c));
                    }
                }
                p.text(Pos2::new(x + 21.0, y + 1.0), Align2::LEFT_TOP, text, font.clone(), Color32::from_gray(215));
                x += width;
            }
        }
        (band, Some(bg))
    }
}

/// The label of a body's constant force.
fn force_text(b: &contact_core::Body) -> String {
    format!("f = ({}, {}) N", num(b.force.x), num(b.force.y))
}

/// How the legend shows a colour: a bar (a constraint's state), an arrow (a
/// force), rings (the rewind flashes of `render::draw`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mark {
    Bar,
    Arrow,
    Ring,
}

fn fmt_c(v: f64) -> String {
    if (v - v.round()).abs() < 1e-12 { format!("{}", v.round()) } else { format!("{v:.3}") }
}

/// `a x + b y − c` written as a person would: `x − y`, `y − 0.5`, `0.6·x + 0.8·y`.
fn linear(a: f64, b: f64, c: f64) -> String {
    let mut out = String::new();
    for (coef, var) in [(a, "x"), (b, "y"), (-c, "")] {
        if coef == 0.0 {
            continue;
        }
        let mag = coef.abs();
        let term = if var.is_empty() {
            fmt_c(mag)
        } else if (mag - 1.0).abs() < 1e-12 {
            var.to_string()
        } else {
            format!("{}·{var}", fmt_c(mag))
        };
        if out.is_empty() {
            out = if coef < 0.0 { format!("−{term}") } else { term };
        } else {
            out += if coef < 0.0 { " − " } else { " + " };
            out += &term;
        }
    }
    if out.is_empty() { "0".into() } else { out }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clamping_into_a_rectangle_with_no_room_takes_its_centre_and_never_panics() {
        // Compare mode at 1024x768: a view 20 px high, 14 px margins.
        let view = egui::Rect::from_min_size(Pos2::new(100.0, 231.0), egui::vec2(300.0, 20.0));
        let inner = view.shrink(14.0);
        assert!(inner.min.y > inner.max.y, "the case that panicked: {inner:?}");
        let e = clamp_into(inner, Pos2::new(50.0, 900.0));
        assert_eq!(e, Pos2::new(114.0, 241.0), "x clamped to the margin, y at the centre");
        // A roomy rectangle clamps as egui's own.
        let roomy = egui::Rect::from_min_size(Pos2::ZERO, egui::vec2(200.0, 100.0));
        let p = Pos2::new(-5.0, 40.0);
        assert_eq!(clamp_into(roomy, p), roomy.clamp(p));
        // Nothing panics on NaN.
        let _ = clamp_into(egui::Rect::NAN, p);
    }

    /// λ labels of a hovered ball in a pile: tips a few pixels apart.
    #[test]
    fn a_label_that_would_cover_others_goes_below_them_or_above_near_the_floor() {
        let at = |x: f32, y: f32| egui::Rect::from_min_size(Pos2::new(x, y), egui::vec2(120.0, 16.0));
        let placed = [at(100.0, 100.0), at(110.0, 117.0)];
        // Meets the first; once below it, meets the second: below both.
        let dy = stacked(&placed, at(105.0, 104.0), 500.0);
        assert_eq!(dy, (133.0 + 1.0) - 104.0);
        assert!(placed.iter().all(|r| !r.intersects(at(105.0, 104.0 + dy))));
        // Below both would reach the floor at 140: above both instead.
        let up = stacked(&placed, at(105.0, 104.0), 140.0);
        assert_eq!(up, (100.0 - 1.0 - 16.0) - 104.0);
        assert!(placed.iter().all(|r| !r.intersects(at(105.0, 104.0 + up))));
        // Clear of both (to their right): where it was.
        assert_eq!(stacked(&placed, at(300.0, 104.0), 140.0), 0.0);
        assert_eq!(stacked(&[], at(0.0, 0.0), 0.0), 0.0);
    }
}
