//! Live plots over time (egui_plot), borrowing the [`History`] buffers: the
//! scene's plots (for the wedge, `y` and `ÿ` of the particle as in the paper's
//! figures 2–3), the `g` and `λ` of the constraints chosen in the table, the
//! largest violation, the kinetic energy, and the handled-set size with the
//! solves per step. All plots share the time axis; they follow the present over a
//! chosen window, or can be frozen, zoomed (drag, Ctrl+wheel, double-click to
//! reset) and exported to CSV.

use bevy_egui::egui::{self, RichText};
use egui_plot::{Line, Plot, PlotPoint, PlotPoints, VLine};

use super::data::{PlotsState, Window};
use super::{decimate, grid};
use crate::app::compare::Compare;
use crate::app::history::History;
use crate::app::lab::palette::method_color;
use crate::app::lab::series::pretty;
use crate::app::lab::{Lab, num};
use crate::app::timeline::Timeline;

/// One plot: a title and its series names.
struct Spec {
    title: String,
    series: Vec<String>,
}

pub struct PlotsPanel<'a> {
    pub lab: &'a Lab,
    pub history: &'a mut History,
    pub state: &'a mut PlotsState,
    pub timeline: &'a Timeline,
    /// Compare mode's lanes, overlaid as dashed lines in their algorithm's colour.
    pub compare: &'a mut Compare,
    /// Presenter mode: the scene's first plot only.
    pub only_first: bool,
}

const COLORS: [egui::Color32; 6] = [
    egui::Color32::from_rgb(100, 180, 255),
    egui::Color32::from_rgb(255, 150, 80),
    egui::Color32::from_rgb(120, 220, 140),
    egui::Color32::from_rgb(230, 110, 200),
    egui::Color32::from_rgb(240, 220, 90),
    egui::Color32::from_rgb(160, 140, 255),
];

impl PlotsPanel<'_> {
    fn specs(&self) -> Vec<Spec> {
        let mut out: Vec<Spec> =
            self.lab.scene.plots.iter().map(|p| Spec { title: p.title.clone(), series: p.series.clone() }).collect();
        if !self.state.selected.is_empty() {
            out.push(Spec {
                title: "g of the selected constraints [m]".into(),
                series: self.state.selected.iter().map(|n| format!("{n}.g")).collect(),
            });
            out.push(Spec {
                title: "λ of the selected constraints [N]".into(),
                series: self.state.selected.iter().map(|n| format!("{n}.lambda")).collect(),
            });
        }
        if self.state.show_extras {
            // Total: kinetic + the potential of gravity and the constant forces;
            // with bodies that turn, the kinetic energy's part in turning apart.
            let turning =
                self.lab.world.model.bodies.iter().any(|b| matches!(b.kind, contact_core::BodyKind::Rigid { .. }));
            let mut energy = if turning {
                vec!["total_energy", "kinetic_energy", "rotational_energy", "user_work"]
            } else {
                vec!["total_energy", "kinetic_energy", "user_work"]
            };
            if self.lab.world.model.has_friction() {
                energy.push("friction_work");
            }
            let extras = [
                ("Largest violation [m]", vec!["max_violation"]),
                ("Energy [J]", energy),
                ("Handled rows and solves per step", vec!["handled", "iterations"]),
            ];
            for (title, series) in extras {
                // The scene may plot it already.
                if out.iter().any(|s| s.series.iter().any(|n| n == series[0])) {
                    continue;
                }
                out.push(Spec { title: title.into(), series: series.into_iter().map(String::from).collect() });
            }
        }
        out
    }

    pub fn ui(&mut self, ui: &mut egui::Ui) {
        let mut specs = self.specs();
        if self.only_first {
            specs.truncate(1);
        }
        for s in &specs {
            for n in &s.series {
                self.history.want(&self.lab.world, n);
            }
        }
        self.compare.wanted = specs.iter().flat_map(|s| s.series.iter().cloned()).collect();
        self.toolbar(ui, &specs);
        ui.separator();
        let t_end = self
            .history
            .t
            .get(self.history.frozen.unwrap_or(usize::MAX).min(self.history.t.len()).saturating_sub(1))
            .copied()
            .unwrap_or(0.0);
        let t_start = self.history.t.first().copied().unwrap_or(0.0);
        let restored = self.timeline.cursor.is_some().then(|| self.lab.time());
        let x_range = match (self.state.window, restored) {
            // Back in time: the restored instant in the middle, the old future beside it.
            (Window::Seconds(w), Some(t)) => ((t - 0.5 * w).max(t_start), (t - 0.5 * w).max(t_start) + w),
            // An oscilloscope: the window fills up from the start, then scrolls.
            (Window::Seconds(w), None) => ((t_end - w).max(t_start), t_end.max(t_start + w)),
            (Window::All, _) => (t_start, t_end.max(t_start + 0.02)),
        };
        let n = specs.len().max(1) as f32;
        let each = ((ui.available_height() - 10.0) / n - 30.0).clamp(110.0, 220.0);
        let mut interacted = false;
        egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| {
            for (i, spec) in specs.iter().enumerate() {
                // The button first, the title in what is left (cut short, whole
                // on hover): a long title never pushes the plot past the panel.
                ui.horizontal(|ui| {
                    ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                        if ui.small_button("CSV").on_hover_text("export this plot's series").clicked() {
                            self.export(&spec.series, &spec.title);
                        }
                        ui.with_layout(egui::Layout::left_to_right(egui::Align::Center), |ui| {
                            ui.add(egui::Label::new(RichText::new(&spec.title).strong()).truncate());
                        });
                    });
                });
                let follow = self.state.follow;
                let history = &*self.history;
                let world = &self.lab.world;
                let compare = &*self.compare;
                let main = contact_core::Method::of(&world.settings);
                // The legend above the plot, never on its curves, wrapped to the
                // panel's width (in compare mode the Compare panel is the
                // legend: a colour per method).
                if !self.compare.on {
                    ui.horizontal_wrapped(|ui| {
                        ui.spacing_mut().item_spacing.x = 10.0;
                        for (j, name) in spec.series.iter().enumerate() {
                            let color = COLORS[j % COLORS.len()];
                            ui.label(RichText::new(format!("━ {}", pretty(world, name))).small().color(color));
                        }
                    });
                }
                // A violation or a gap is read down to its last digits (the
                // billiard's 1e-17 m that tour step 7 names): below 1e-6 its
                // curve is drawn in a unit of its own power of ten, the axis
                // labelled in metres (the plot's grid has no marks at 1e-17).
                let small_reads = spec.series.iter().all(|n| n == "max_violation" || n.ends_with(".g"));
                let unit = if small_reads {
                    let largest = spec
                        .series
                        .iter()
                        .flat_map(|n| window(history.visible(n), x_range.0, x_range.1))
                        .map(|p| p.y.abs())
                        .filter(|y| y.is_finite())
                        .fold(0.0, f64::max);
                    tiny_unit(largest)
                } else {
                    1.0
                };
                // Marks at 1, 2, 5 × 10ᵏ (`grid`): labels below a short plot's 0 too.
                let plot = Plot::new(("plot", i))
                    .height(each)
                    .x_grid_spacer(grid::nice())
                    .y_grid_spacer(grid::nice())
                    .x_axis_formatter(|m, _| grid::time_label(m));
                let resp = plot
                    .link_axis("lab-plots-t", [true, false])
                    .link_cursor("lab-plots-t", [true, false])
                    .allow_scroll(false)
                    .x_axis_label(if i + 1 == specs.len() { "t [s]" } else { "" })
                    .y_axis_min_width(64.0)
                    .y_axis_formatter(move |mark, _| grid::value_label(mark.value * unit, mark.step_size * unit))
                    .label_formatter(|hover| {
                        Some(match hover {
                            egui_plot::HoverPosition::NearDataPoint { plot_name, position, .. } => {
                                format!("{plot_name}\nt = {:.5} s\n{}", position.x, num(position.y * unit))
                            }
                            egui_plot::HoverPosition::Elsewhere { position } => {
                                format!("t = {:.5} s\n{}", position.x, num(position.y * unit))
                            }
                        })
                    })
                    .show(ui, |plot_ui| {
                        let bounds = plot_ui.plot_bounds();
                        let (lo, hi) = if follow { x_range } else { (bounds.min()[0], bounds.max()[0]) };
                        // At most four points per pixel column, one where the column is
                        // flat (`decimate`): the same picture, a fraction of the segments
                        // for the renderer. The curves' windows first: their y range sets
                        // the bounds (following) and so the height of a pixel.
                        let frame = *plot_ui.transform().frame();
                        let columns = frame.width().max(1.0) as usize;
                        let mut curves = Vec::new();
                        for (j, name) in spec.series.iter().enumerate() {
                            let pts = window(history.visible(name), lo, hi);
                            if !compare.on {
                                curves.push((pretty(world, name), pts, COLORS[j % COLORS.len()], 1.6, false));
                                continue;
                            }
                            // Compare mode: a colour per method, the main run solid, lanes dashed.
                            curves.push((
                                format!("{} · {}", pretty(world, name), main.label()),
                                pts,
                                method_color(main),
                                1.8,
                                false,
                            ));
                            for l in &compare.lanes {
                                let Some(lane_pts) = l.series.get(name) else { continue };
                                let a = l.lane.method();
                                let title = format!("{} · {}", pretty(world, name), a.label());
                                curves.push((title, window(lane_pts, lo, hi), method_color(a), 1.6, true));
                            }
                        }
                        let mut y_lo = f64::INFINITY;
                        let mut y_hi = f64::NEG_INFINITY;
                        for p in curves.iter().flat_map(|c| c.1).filter(|p| p.y.is_finite()) {
                            y_lo = y_lo.min(p.y / unit);
                            y_hi = y_hi.max(p.y / unit);
                        }
                        let y_bounds = if follow && y_lo.is_finite() {
                            // A flat line gets a band around it (±1 around 0), not a zoom into rounding.
                            let range = y_hi - y_lo;
                            let scale = y_hi.abs().max(y_lo.abs());
                            // Rounding noise (below 1e-12, or 1e-9 of the values) is drawn flat;
                            // a violation or a gap is read to its last digits (above).
                            let noise = if small_reads { 0.0 } else { 1e-12_f64 };
                            let pad =
                                if range > noise.max(1e-9 * scale) { range * 0.08 } else { (scale * 0.1).max(1.0) };
                            Some((y_lo - pad, y_hi + pad))
                        } else {
                            None
                        };
                        let (b_lo, b_hi) = y_bounds.unwrap_or((bounds.min()[1], bounds.max()[1]));
                        let flat = 0.5 * (b_hi - b_lo) * unit / f64::from(frame.height().max(1.0));
                        for (title, pts, color, width, dashed) in curves {
                            let points = in_unit(decimate::plot_points(pts, lo, hi, columns, flat), unit);
                            for run in finite_runs(points) {
                                let line = Line::new(title.clone(), run).color(color).width(width);
                                plot_ui.line(if dashed {
                                    line.style(egui_plot::LineStyle::dashed_dense())
                                } else {
                                    line
                                });
                            }
                        }
                        if let Some(t) = restored {
                            plot_ui.vline(VLine::new("", t).color(egui::Color32::from_gray(200)).width(1.0));
                        }
                        if follow {
                            plot_ui.set_plot_bounds_x(lo..=hi);
                            if let Some((b_lo, b_hi)) = y_bounds {
                                plot_ui.set_plot_bounds_y(b_lo..=b_hi);
                            }
                        }
                    });
                let r = &resp.response;
                if r.dragged() || r.double_clicked() || (r.hovered() && ui.input(|i| i.zoom_delta() != 1.0)) {
                    interacted = true;
                }
                ui.add_space(4.0);
            }
        });
        if interacted {
            self.state.follow = false;
        }
    }

    fn toolbar(&mut self, ui: &mut egui::Ui, specs: &[Spec]) {
        ui.horizontal_wrapped(|ui| {
            ui.heading("Plots");
            ui.label(RichText::new("window").small());
            for (label, w) in [
                ("0.02 s", Window::Seconds(0.02)),
                ("0.2 s", Window::Seconds(0.2)),
                ("2 s", Window::Seconds(2.0)),
                ("20 s", Window::Seconds(20.0)),
                ("all", Window::All),
            ] {
                if ui.selectable_label(self.state.window == w && self.state.follow, label).clicked() {
                    self.state.window = w;
                    self.state.follow = true;
                }
            }
            let mut follow = self.state.follow;
            if ui
                .toggle_value(&mut follow, "follow")
                .on_hover_text("follow the present; off when you zoom or pan")
                .changed()
            {
                self.state.follow = follow;
            }
            let mut frozen = self.history.frozen.is_some();
            if ui
                .toggle_value(&mut frozen, "❄ freeze")
                .on_hover_text("stop updating the plots (the simulation goes on)")
                .changed()
            {
                self.history.frozen = frozen.then_some(self.history.t.len());
            }
            if ui.button("CSV all").on_hover_text("export every plotted series").clicked() {
                let all: Vec<String> = specs.iter().flat_map(|s| s.series.iter().cloned()).collect();
                self.export(&all, "plots");
            }
            ui.checkbox(&mut self.state.show_extras, "diagnostics");
        });
        if let Some(msg) = &self.state.last_export {
            ui.label(RichText::new(msg).small().color(egui::Color32::from_gray(170)));
        }
    }

    fn export(&mut self, series: &[String], title: &str) {
        let mut names: Vec<String> = Vec::new();
        for s in series {
            if !names.contains(s) {
                names.push(s.clone());
            }
        }
        let slug: String = format!("{}-{}", self.lab.scene.name, title)
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '-' })
            .collect::<String>()
            .split('-')
            .filter(|s| !s.is_empty())
            .collect::<Vec<_>>()
            .join("-");
        let ms = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_millis()).unwrap_or(0);
        let path = std::path::PathBuf::from(format!("contact-lab-{slug}-{ms}.csv"));
        let path = std::path::absolute(&path).unwrap_or(path);
        self.state.last_export = Some(match self.history.write_csv(&names, &path) {
            Ok(rows) => {
                bevy::log::info!("exported {rows} rows to {}", path.display());
                format!("exported {rows} rows × {} series to {}", names.len(), path.display())
            }
            Err(e) => format!("could not write {}: {e}", path.display()),
        });
    }
}

/// The points with `lo ≤ t ≤ hi`, plus one on each side so lines reach the edges.
/// The power of ten a curve whose largest value is `largest` is drawn in:
/// 1 from 1e-6 up (or for nothing), else `10^⌊log10 largest⌋`.
fn tiny_unit(largest: f64) -> f64 {
    if largest > 0.0 && largest < 1e-6 { 10f64.powf(largest.log10().floor()) } else { 1.0 }
}

/// `points` cut where a value is not a number (a series with gaps: the angle
/// of repose before there is a heap), each run a line of its own: egui's
/// tessellator refuses a NaN point (a debug build panics on it). Runs of
/// one point are dropped (no segment to draw).
fn finite_runs(points: PlotPoints<'_>) -> Vec<PlotPoints<'_>> {
    let finite = |p: &PlotPoint| p.x.is_finite() && p.y.is_finite();
    if points.points().iter().all(finite) {
        return vec![points];
    }
    points
        .points()
        .split(|p| !finite(p))
        .filter(|run| run.len() > 1)
        .map(|run| PlotPoints::Owned(run.to_vec()))
        .collect()
}

/// `points` with `y` over `unit`.
fn in_unit(points: PlotPoints<'_>, unit: f64) -> PlotPoints<'_> {
    if unit == 1.0 {
        return points;
    }
    PlotPoints::Owned(points.points().iter().map(|p| PlotPoint::new(p.x, p.y / unit)).collect())
}

fn window(points: &[PlotPoint], lo: f64, hi: f64) -> &[PlotPoint] {
    let a = points.partition_point(|p| p.x < lo).saturating_sub(1);
    let b = (points.partition_point(|p| p.x <= hi) + 1).min(points.len());
    if a >= b { &points[0..0] } else { &points[a..b] }
}
