//! What a plot draws of a long series: at most four points per pixel column
//! (the first, the lowest, the highest and the last of the column, in time
//! order), so the line drawn covers every pixel the whole series would; and
//! one point (its first) for a column whose points lie within half a pixel
//! of each other: there the line drawn stays within half a pixel of the
//! series, or within a column of it where the series jumps.
//!
//! A 4 s window at 1000 steps a second is 4000 points a series; the billiard's
//! five plots draw 8 series, and each point is a feathered segment for the
//! software renderer to fill. Min-max decimation keeps the envelope: a spike
//! of one step (Platt's dip, an impact) stays as tall as it is. The flat
//! columns' one point takes a smooth curve from four segments a column to
//! one: on the billiard at 1600×900, egui's triangles from 48 000 a frame to
//! 30 500, and llvmpipe's rasterizing from 39 to 35 ms a frame (issue 47).

use std::borrow::Cow;

use egui_plot::{PlotPoint, PlotPoints};

/// `pts` (increasing in x) as drawn in `columns` pixel columns over `lo..hi`:
/// itself when short enough, else each column's first, lowest, highest and
/// last point in x order, or only its first where its points span no more
/// than `flat` in y (half a pixel; the series' last point is always kept).
/// Points outside `lo..hi` are kept (the caller has already cut the window;
/// its neighbours outside make the line reach the edges).
pub fn decimate(pts: &[PlotPoint], lo: f64, hi: f64, columns: usize, flat: f64) -> Cow<'_, [PlotPoint]> {
    let columns = columns.max(1);
    if pts.len() <= columns || hi <= lo {
        return Cow::Borrowed(pts);
    }
    let scale = columns as f64 / (hi - lo);
    let column = |p: &PlotPoint| ((p.x - lo) * scale).floor().clamp(-1.0, columns as f64) as i64;
    let mut out = Vec::with_capacity(4 * columns + 4);
    let mut i = 0;
    while i < pts.len() {
        let c = column(&pts[i]);
        let start = i;
        let (mut min, mut max) = (i, i);
        while i < pts.len() && column(&pts[i]) == c {
            // NaN never wins a comparison: a gap stays a gap only if it is all there is.
            if pts[i].y < pts[min].y {
                min = i;
            }
            if pts[i].y > pts[max].y {
                max = i;
            }
            i += 1;
        }
        let last = i - 1;
        // A column that starts or ends a gap (NaN) keeps its four points, the
        // series' last column its last point.
        let flat_here = pts[start].y.is_finite() && pts[last].y.is_finite() && pts[max].y - pts[min].y <= flat;
        let mut keep = if flat_here && i < pts.len() { [start; 4] } else { [start, min, max, last] };
        keep.sort_unstable();
        let mut prev = usize::MAX;
        for k in keep {
            if k != prev {
                out.push(pts[k]);
                prev = k;
            }
        }
    }
    Cow::Owned(out)
}

/// [`decimate`] as egui_plot takes it.
pub fn plot_points(pts: &[PlotPoint], lo: f64, hi: f64, columns: usize, flat: f64) -> PlotPoints<'_> {
    match decimate(pts, lo, hi, columns, flat) {
        Cow::Borrowed(b) => PlotPoints::Borrowed(b),
        Cow::Owned(v) => PlotPoints::Owned(v),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn series(n: usize) -> Vec<PlotPoint> {
        (0..n).map(|i| PlotPoint::new(i as f64 * 1e-3, ((i * 7919) % 1000) as f64 - 500.0)).collect()
    }

    #[test]
    fn short_series_are_drawn_whole() {
        let pts = series(100);
        assert!(matches!(decimate(&pts, 0.0, 0.1, 300, 0.0), Cow::Borrowed(_)));
    }

    #[test]
    fn each_column_keeps_its_extremes_ends_and_order() {
        let mut pts = series(4000);
        // A one-step spike, as Platt's dip or an impact.
        pts[2345].y = -1e6;
        let (lo, hi, cols) = (0.0, 4.0, 200);
        let out = decimate(&pts, lo, hi, cols, 0.5);
        assert!(out.len() <= 4 * cols, "{} points for {cols} columns", out.len());
        assert!(out.windows(2).all(|w| w[0].x < w[1].x), "in time order, no duplicates");
        assert_eq!((out[0].x, out[out.len() - 1].x), (pts[0].x, pts[3999].x), "the ends stay");
        for c in 0..cols {
            let in_col = |p: &&PlotPoint| ((p.x - lo) * cols as f64 / (hi - lo)).floor() as usize == c;
            let whole: Vec<f64> = pts.iter().filter(in_col).map(|p| p.y).collect();
            let kept: Vec<f64> = out.iter().filter(in_col).map(|p| p.y).collect();
            let ext = |v: &[f64]| {
                (v.iter().cloned().fold(f64::INFINITY, f64::min), v.iter().cloned().fold(f64::NEG_INFINITY, f64::max))
            };
            assert_eq!(ext(&whole), ext(&kept), "column {c} keeps its lowest and highest point");
        }
        assert!(out.iter().any(|p| p.y == -1e6), "the spike is drawn");
    }

    /// A smooth curve: one point a flat column, within half a pixel of every
    /// point of the series (the line between the kept points), the ends kept;
    /// a step of one sample in it keeps its column's four points.
    #[test]
    fn flat_columns_keep_one_point_within_half_a_pixel() {
        let mut pts: Vec<PlotPoint> =
            (0..4000).map(|i| PlotPoint::new(i as f64 * 1e-3, (i as f64 * 1e-3).sin())).collect();
        pts[1234].y += 0.5;
        let (lo, hi, cols) = (0.0, 4.0, 400);
        // A plot 200 px high over y in [-1, 1.5]: half a pixel is 2.5/400.
        let flat = 2.5 / 200.0 / 2.0;
        let out = decimate(&pts, lo, hi, cols, flat);
        // One point a flat column, two (its ends) where the curve climbs
        // more than half a pixel across it: about 650 here, not 1600.
        assert!(out.len() < 2 * cols, "{} points for {cols} columns", out.len());
        assert_eq!((out[0].x, out[out.len() - 1].x), (pts[0].x, pts[3999].x), "the ends stay");
        assert!(out.iter().any(|p| p.y == pts[1234].y), "the step is drawn");
        for p in &pts {
            let k = out.partition_point(|q| q.x <= p.x);
            let (a, b) = (out[k.saturating_sub(1)], out[k.min(out.len() - 1)]);
            let y = if b.x > a.x { a.y + (b.y - a.y) * (p.x - a.x) / (b.x - a.x) } else { a.y };
            // The step's own column draws its four points' envelope.
            let steps_column = p.x >= 1.23 && p.x < 1.24;
            assert!(steps_column || (y - p.y).abs() <= 2.0 * flat, "t = {}: drawn {y}, is {}", p.x, p.y);
        }
    }

    /// A gap (NaN) at the end of a flat column stays in the line.
    #[test]
    fn a_gap_in_a_flat_column_stays_a_gap() {
        let mut pts: Vec<PlotPoint> = (0..4000).map(|i| PlotPoint::new(i as f64 * 1e-3, 1.0)).collect();
        pts[1239].y = f64::NAN;
        let out = decimate(&pts, 0.0, 4.0, 400, 0.01);
        assert!(out.iter().any(|p| p.y.is_nan()), "the gap is drawn as a gap");
        assert!(out.len() < 420, "{} points", out.len());
    }
}
