//! `contact-lab figure paper-fig2|paper-fig3`: the paper's figures 2 and 3, rerun and drawn.
//!
//! The scene is the wedge of the paper's figure 1 (assets/scenes/wedge.ron): a particle of
//! mass m at the apex of `g1 = x − y ≥ 0`, `g2 = y ≥ 0` under `f = (2, −1)`, events off
//! (the bare algorithms of section 4). Each figure has two panels over the first 0.02 s,
//! y (position) and ÿ (the acceleration of the step's solve of eq. 6) along the y axis:
//! figure 2 draws Platt (Algorithm 1) against Right (Algorithm 3) for m = 2, figure 3 the
//! same for m = 3, with Platt at m = 2 dashed for reference. The points are the rows of
//! `contact-lab run --csv` for the same settings (`t`, `particle.y`, `particle.y.a`).
//!
//! Figure 2's oscillating ÿ (±10) with |y| < 1e-5 appears under Platt when τ is close to h;
//! with τ = 10 h it does not. Under Algorithm 1 nothing but q depends on m (write Q = m q in
//! eq. 6 with M = m I, linear g and d of eq. 5), so y scales as 1/m: m = 3 gives 2/3 of
//! m = 2, where the paper's figure 3 shows a hundred times more.

use std::fs;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use contact_core::scene::{self, Overrides};
use contact_core::{Algorithm, World};
use image::ImageEncoder;
use image::codecs::png::{CompressionType, FilterType, PngEncoder};
use indicatif::ProgressBar;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::sim::{simulate, step_count};
use super::{CliError, FigureArgs, PaperFigure, io_err};

/// Time step h of the defaults, in seconds.
pub const DT: f64 = 1e-3;
/// Baumgarte's τ of the defaults: close to h, where Platt oscillates as in figure 2.
/// It is just above eq. (5)'s stable bound under semi-implicit Euler, `h/(2√2 − 2)`
/// ≈ 1.207 h ([`contact_core::Integrator::min_tau_over_h`]): at 1.24 h the step
/// has an eigenvalue of −0.93, a mode that flips sign each step and loses
/// only 7 % a step, which Platt's add/keep/drop cycle keeps exciting.
pub const TAU: f64 = 1.24e-3;
/// The time both figures span, in seconds.
pub const DURATION: f64 = 0.02;

/// The scene, built in so that the figure does not depend on the working directory.
const WEDGE: &str = include_str!("../../assets/scenes/wedge.ron");
const WEDGE_ORIGIN: &str = "assets/scenes/wedge.ron";
/// Index of `particle.y` in `q`.
const Y: usize = 1;
pub(super) const DEJAVU_SANS: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");

const PLATT_COLOR: RGBColor = RGBColor(200, 30, 30);
const RIGHT_COLOR: RGBColor = RGBColor(30, 80, 200);
const REFERENCE_COLOR: RGBColor = RGBColor(120, 120, 120);

/// One run of the wedge as the figure draws it: one point per step, after the step.
#[derive(Clone, Debug)]
pub struct Series {
    pub algorithm: Algorithm,
    /// The particle's mass in kg.
    pub mass: f64,
    /// Drawn dashed, for comparison (Platt at m = 2 in figure 3).
    pub reference: bool,
    /// `t` at the end of each step (s).
    pub t: Vec<f64>,
    /// `y` at the end of each step (m).
    pub y: Vec<f64>,
    /// `ÿ` of the step's last solve of eq. (6) (m/s²).
    pub ydd: Vec<f64>,
}

impl Series {
    /// `Platt (Algorithm 1), m = 2` (the figures draw Platt and Right only).
    pub fn label(&self) -> String {
        let n = if self.algorithm == Algorithm::Platt { 1 } else { 3 };
        format!("{} (Algorithm {n}), m = {}", self.algorithm.label(), self.mass)
    }

    pub fn max_abs_y(&self) -> f64 {
        self.y.iter().fold(0.0, |m, v| m.max(v.abs()))
    }

    /// The smallest and largest ÿ.
    pub fn ydd_range(&self) -> (f64, f64) {
        self.ydd.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &v| (lo.min(v), hi.max(v)))
    }
}

impl PaperFigure {
    fn number(self) -> u32 {
        match self {
            PaperFigure::PaperFig2 => 2,
            PaperFigure::PaperFig3 => 3,
        }
    }

    fn mass(self) -> f64 {
        match self {
            PaperFigure::PaperFig2 => 2.0,
            PaperFigure::PaperFig3 => 3.0,
        }
    }

    fn default_file(self) -> PathBuf {
        PathBuf::from(format!("paper-fig{}.png", self.number()))
    }
}

/// The runs figure `fig` draws, for Baumgarte's `tau` and the step `dt`.
pub fn series(fig: PaperFigure, tau: f64, dt: f64) -> Result<Vec<Series>, CliError> {
    let m = fig.mass();
    let mut out = vec![wedge(Algorithm::Platt, m, tau, dt)?, wedge(Algorithm::Right, m, tau, dt)?];
    if fig == PaperFigure::PaperFig3 {
        out.push(Series { reference: true, ..wedge(Algorithm::Platt, 2.0, tau, dt)? });
    }
    Ok(out)
}

fn wedge_world() -> Result<World, CliError> {
    Ok(scene::parse(WEDGE, WEDGE_ORIGIN, &Overrides::default())?.world)
}

/// Runs the wedge for [`DURATION`] with the CLI's stepping loop.
fn wedge(algorithm: Algorithm, mass: f64, tau: f64, dt: f64) -> Result<Series, CliError> {
    let mut world = wedge_world()?;
    world.settings.algorithm = algorithm;
    world.settings.tau = tau;
    world.model.bodies[0].mass = mass;
    let mut s = Series { algorithm, mass, reference: false, t: Vec::new(), y: Vec::new(), ydd: Vec::new() };
    simulate(&mut world, dt, step_count(DURATION, dt)?, &ProgressBar::hidden(), |w, report| {
        s.t.push(report.t);
        s.y.push(w.state.q[Y]);
        s.ydd.push(report.qdd[Y]);
        Ok(())
    })?;
    Ok(s)
}

/// Draws `args.figure` to its file and writes what it drew to `out`.
pub fn figure(args: &FigureArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let path = args.out.clone().unwrap_or_else(|| args.figure.default_file());
    let svg = is_svg(&path)?;
    let steps = step_count(DURATION, args.dt)?;
    for w in wedge_world()?.stability_warnings(args.tau, args.dt) {
        writeln!(out, "warning: {w}").map_err(io_err)?;
    }
    let series = series(args.figure, args.tau, args.dt)?;
    let text = Texts::new(args, steps);
    let fail = |e: String| CliError::Output { path: path.clone(), error: e };
    if svg {
        let mut doc = String::new();
        draw(SVGBackend::with_string(&mut doc, args.size).into_drawing_area(), &text, &series).map_err(fail)?;
        fs::write(&path, doc).map_err(|e| fail(e.to_string()))?;
    } else {
        let (w, h) = args.size;
        let mut rgb = vec![0; 3 * w as usize * h as usize];
        draw(BitMapBackend::with_buffer(&mut rgb, args.size).into_drawing_area(), &text, &series).map_err(fail)?;
        write_png(&path, &rgb, args.size).map_err(fail)?;
    }
    let (w, h) = args.size;
    writeln!(out, "{}: figure {} ({w}×{h} {})", path.display(), args.figure.number(), if svg { "SVG" } else { "PNG" })
        .map_err(io_err)?;
    for s in &series {
        let (lo, hi) = s.ydd_range();
        writeln!(out, "  {}: max |y| = {:.3e} m, ÿ in [{lo:.3e}, {hi:.3e}] m/s²", s.label(), s.max_abs_y())
            .map_err(io_err)?;
    }
    Ok(())
}

/// `.svg` or `.png` (any case); other names are refused before anything runs.
pub(super) fn is_svg(path: &Path) -> Result<bool, CliError> {
    match path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase).as_deref() {
        Some("svg") => Ok(true),
        Some("png") => Ok(false),
        _ => Err(CliError::Output { path: path.to_path_buf(), error: "name the figure .png or .svg".to_string() }),
    }
}

pub(super) fn write_png(path: &Path, rgb: &[u8], (w, h): (u32, u32)) -> Result<(), String> {
    let file = fs::File::create(path).map_err(|e| e.to_string())?;
    let png = PngEncoder::new_with_quality(BufWriter::new(file), CompressionType::Best, FilterType::Adaptive);
    png.write_image(rgb, w, h, image::ExtendedColorType::Rgb8).map_err(|e| e.to_string())
}

/// The words on the figure.
struct Texts {
    title: String,
    parameters: String,
    note: Option<&'static str>,
}

impl Texts {
    fn new(args: &FigureArgs, steps: u64) -> Self {
        let fig = args.figure;
        let title = format!(
            "Figure {} of Jonquet, Nocent & Remion (2007), rerun: the wedge of figure 1, m = {}",
            fig.number(),
            fig.mass()
        );
        let parameters = format!(
            "g1 = x − y ≥ 0, g2 = y ≥ 0, f = (2, −1) N, start at the apex at rest;  h = {} ms, τ = {} ms, \
             {steps} steps, semi-implicit Euler, no rewind to first activations",
            ms(args.dt),
            ms(args.tau),
        );
        let note = (fig == PaperFigure::PaperFig3).then_some(
            "Under Algorithm 1, y scales as 1/m (to rounding): m = 3 gives 2/3 of m = 2 (dashed), \
             not the hundred times more of the paper's figure 3.",
        );
        Texts { title, parameters, note }
    }
}

/// `0.00124` s → `1.24` (ms), without the float noise of `1.2400000000000002`.
fn ms(seconds: f64) -> String {
    let s = format!("{:.6}", seconds * 1e3);
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// The whole figure: title and parameters above, the y and ÿ panels side by side.
fn draw<DB: DrawingBackend>(root: DrawingArea<DB, Shift>, text: &Texts, series: &[Series]) -> Result<(), String> {
    plotters::style::register_font("sans-serif", FontStyle::Normal, DEJAVU_SANS)
        .map_err(|_| "assets/fonts/DejaVuSans.ttf is not a font".to_string())?;
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    root.fill(&WHITE).map_err(err)?;
    let height = root.dim_in_pixel().1 as i32;
    let font = |px: i32| ("sans-serif", px).into_font();
    let body = (height / 40).clamp(10, 16);
    let root = root.titled(&text.title, font(body + 4).color(&BLACK)).map_err(err)?;
    let mut lines = vec![text.parameters.as_str()];
    lines.extend(text.note);
    let header = lines.len() as i32 * (body + 6);
    for (i, line) in lines.iter().enumerate() {
        let style = font(body).color(&BLACK).pos(Pos::new(HPos::Center, VPos::Top));
        let x = root.dim_in_pixel().0 as i32 / 2;
        root.draw(&Text::new(*line, (x, i as i32 * (body + 6)), style)).map_err(err)?;
    }
    let (_, plots) = root.split_vertically(header + 4);
    let panels = plots.split_evenly((1, 2));
    POSITION.draw(&panels[0], series, |s| &s.y, body).map_err(err)?;
    ACCELERATION.draw(&panels[1], series, |s| &s.ydd, body).map_err(err)?;
    plots.present().map_err(err)
}

/// One of the two plots.
struct Panel {
    caption: &'static str,
    /// The value axis's label, with its unit.
    unit: &'static str,
    /// The factor from SI to the unit drawn.
    scale: f64,
    legend: SeriesLabelPosition,
}

/// The two plots, left and right as in the paper; y in µm (Platt's excursions are a few µm).
const POSITION: Panel =
    Panel { caption: "position along y", unit: "y (µm)", scale: 1e6, legend: SeriesLabelPosition::LowerLeft };
const ACCELERATION: Panel =
    Panel { caption: "acceleration along y", unit: "ÿ (m/s²)", scale: 1.0, legend: SeriesLabelPosition::UpperLeft };

impl Panel {
    fn draw<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        series: &[Series],
        values: impl Fn(&Series) -> &[f64],
        body: i32,
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        let font = |px: i32| ("sans-serif", px).into_font();
        let points = |s: &Series| -> Vec<(f64, f64)> {
            s.t.iter().zip(values(s)).map(|(t, v)| (t * 1e3, v * self.scale)).collect()
        };
        let (lo, hi) = padded(series.iter().flat_map(|s| values(s).iter().map(|v| v * self.scale)));
        let mut chart = ChartBuilder::on(area)
            .caption(self.caption, font(body + 2))
            .margin(12)
            .margin_right(3 * body)
            .x_label_area_size(3 * body)
            .y_label_area_size(5 * body)
            .build_cartesian_2d(0.0..DURATION * 1e3, lo..hi)?;
        chart
            .configure_mesh()
            .x_desc("t (ms)")
            .x_label_formatter(&|t| format!("{t:.0}"))
            .y_desc(self.unit)
            .label_style(font(body))
            .axis_desc_style(font(body))
            .max_light_lines(0)
            .draw()?;
        // The reference first, under the others.
        let (reference, own): (Vec<&Series>, Vec<&Series>) = series.iter().partition(|s| s.reference);
        for s in reference.into_iter().chain(own) {
            let color = if s.reference {
                REFERENCE_COLOR
            } else if s.algorithm == Algorithm::Platt {
                PLATT_COLOR
            } else {
                RIGHT_COLOR
            };
            let style = color.stroke_width(2);
            let drawn = if s.reference {
                chart.draw_series(DashedLineSeries::new(points(s), 8, 5, style))?
            } else {
                chart.draw_series(LineSeries::new(points(s), style).point_size(2))?
            };
            drawn.label(s.label()).legend(move |(x, y)| PathElement::new([(x, y), (x + 24, y)], style));
        }
        chart
            .configure_series_labels()
            .position(self.legend.clone())
            .label_font(font(body))
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .draw()
    }
}

/// The range of `values` with 8% of room on each side (±1 around a constant).
fn padded(values: impl Iterator<Item = f64>) -> (f64, f64) {
    let (lo, hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| (lo.min(v), hi.max(v)));
    let pad = if hi - lo > 0.0 { 0.08 * (hi - lo) } else { 1.0 };
    (lo - pad, hi + pad)
}
