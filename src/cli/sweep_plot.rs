//! `sweep --plot`: the first measure against the first swept setting, a line
//! per method (and per value of the other swept settings), drawn with the
//! plotters stack of `contact-lab figure`. An axis whose values are positive
//! and span two decades or more is logarithmic; failed cells are left out.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

use plotters::prelude::*;

use super::CliError;
use super::figure::{DEJAVU_SANS, is_svg, write_png};
use super::table::{Table, readable};

/// Columns that are not a measure to draw.
const NOT_DRAWN: [&str; 2] = ["status", "state"];

/// The lines of the plot: label → (x, y) points, and the axes' names.
struct Lines {
    x: String,
    y: String,
    lines: BTreeMap<String, Vec<(f64, f64)>>,
}

fn lines(t: &Table) -> Result<Lines, String> {
    let col = |name: &str| t.header.iter().position(|h| h == name);
    let (algorithm, scheme) =
        (col("algorithm").ok_or("no algorithm column")?, col("scheme").ok_or("no scheme column")?);
    let settings: Vec<usize> = (1..algorithm).collect();
    let &x = settings.first().ok_or("nothing swept: --set a setting to plot against")?;
    // The other settings name a line where they take more than one value.
    let varies = |s: usize| t.rows.iter().any(|r| r.get(s) != t.rows.first().and_then(|f| f.get(s)));
    let y = (scheme + 1..t.header.len())
        .find(|&i| !NOT_DRAWN.contains(&t.header[i].as_str()))
        .ok_or("no measure to draw: --measure one besides status and state")?;
    let mut out: BTreeMap<String, Vec<(f64, f64)>> = BTreeMap::new();
    for r in &t.rows {
        let (Some(xv), Some(yv)) =
            (r.get(x).and_then(|v| v.parse::<f64>().ok()), r.get(y).and_then(|v| v.parse::<f64>().ok()))
        else {
            continue;
        };
        let mut parts = Vec::new();
        if r[scheme] == "time-stepping" {
            parts.push("time-stepping".to_string());
        } else if r[algorithm] != "scene's" {
            parts.push(r[algorithm].clone());
        }
        for &s in settings[1..].iter().filter(|&&s| varies(s)) {
            parts.push(format!("{} = {}", t.header[s], r[s]));
        }
        let label = if parts.is_empty() { "the scene's method".to_string() } else { parts.join(", ") };
        out.entry(label).or_default().push((xv, yv));
    }
    if out.is_empty() {
        return Err(format!("no cell has a number for {} against {}", t.header[y], t.header[x]));
    }
    Ok(Lines { x: t.header[x].clone(), y: t.header[y].clone(), lines: out })
}

/// Whether values this wide go on a log axis.
fn logarithmic(values: impl Iterator<Item = f64> + Clone) -> bool {
    let (lo, hi) = values.clone().fold((f64::INFINITY, 0.0_f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
    values.into_iter().all(|v| v > 0.0) && hi / lo >= 100.0
}

/// Draws the table's plot to `path` (.png or .svg); says what it drew.
pub fn plot(t: &Table, path: &Path) -> Result<String, CliError> {
    let fail = |e: String| CliError::Output { path: path.to_path_buf(), error: e };
    let svg = is_svg(path)?;
    let l = lines(t).map_err(fail)?;
    let size = (1100, 650);
    if svg {
        let mut doc = String::new();
        draw(SVGBackend::with_string(&mut doc, size).into_drawing_area(), &l).map_err(fail)?;
        fs::write(path, doc).map_err(|e| fail(e.to_string()))?;
    } else {
        let mut rgb = vec![0; 3 * size.0 as usize * size.1 as usize];
        draw(BitMapBackend::with_buffer(&mut rgb, size).into_drawing_area(), &l).map_err(fail)?;
        write_png(path, &rgb, size).map_err(fail)?;
    }
    Ok(format!("{} against {}, {} lines", l.y, l.x, l.lines.len()))
}

const COLORS: [RGBColor; 6] = [
    RGBColor(200, 30, 30),
    RGBColor(220, 150, 20),
    RGBColor(30, 80, 200),
    RGBColor(20, 140, 70),
    RGBColor(140, 60, 190),
    RGBColor(90, 90, 90),
];

fn draw<DB: DrawingBackend>(root: DrawingArea<DB, plotters::coord::Shift>, l: &Lines) -> Result<(), String> {
    plotters::style::register_font("sans-serif", FontStyle::Normal, DEJAVU_SANS)
        .map_err(|_| "assets/fonts/DejaVuSans.ttf is not a font".to_string())?;
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    root.fill(&WHITE).map_err(err)?;
    let all = || l.lines.values().flatten();
    let (xlog, ylog) = (logarithmic(all().map(|p| p.0)), logarithmic(all().map(|p| p.1)));
    let tx = |v: f64| if xlog { v.log10() } else { v };
    let ty = |v: f64| if ylog { v.log10() } else { v };
    let range = |vals: Vec<f64>| {
        let (lo, hi) = vals.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| (a.min(*v), b.max(*v)));
        let pad = if hi > lo { 0.05 * (hi - lo) } else { lo.abs().max(1.0) * 0.1 };
        (lo - pad)..(hi + pad)
    };
    let xr = range(all().map(|p| tx(p.0)).collect());
    let yr = range(all().map(|p| ty(p.1)).collect());
    let font = |px: i32| ("sans-serif", px).into_font();
    let axis_name = |name: &str, log: bool| if log { format!("{name} (log)") } else { name.to_string() };
    let mut chart = ChartBuilder::on(&root)
        .caption(format!("{} against {}", l.y, l.x), font(20))
        .margin(16)
        .x_label_area_size(50)
        .y_label_area_size(90)
        .build_cartesian_2d(xr, yr)
        .map_err(err)?;
    let label = |log: bool| move |v: &f64| readable(if log { 10f64.powf(*v) } else { *v });
    chart
        .configure_mesh()
        .x_desc(axis_name(&l.x, xlog))
        .y_desc(axis_name(&l.y, ylog))
        .x_label_formatter(&label(xlog))
        .y_label_formatter(&label(ylog))
        .label_style(font(14))
        .axis_desc_style(font(15))
        .max_light_lines(0)
        .draw()
        .map_err(err)?;
    for (i, (name, points)) in l.lines.iter().enumerate() {
        let color = COLORS[i % COLORS.len()];
        let style = color.stroke_width(2);
        let pts: Vec<(f64, f64)> = points.iter().map(|(x, y)| (tx(*x), ty(*y))).collect();
        chart
            .draw_series(LineSeries::new(pts.clone(), style).point_size(3))
            .map_err(err)?
            .label(name.clone())
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 24, y)], style));
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .label_font(font(14))
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()
        .map_err(err)?;
    root.present().map_err(err)
}
