//! How the scene is shown at start: the view box (written, or a box around every
//! body), the focus (the region of interest), the opening (the clock and the
//! plot window) and the plots, whose series must be those of
//! [`crate::scene::series_names`].

use nalgebra::Vector2;

use super::ctx::{Ctx, Result};
use crate::model::{Model, State};
use crate::scene::schema::{OpeningSpec, PlotSpec, ViewSpec};
use crate::scene::{Opening, PlotPreset, ViewBox};

/// The `view` block, or a box around every body.
pub(super) fn view_box(cx: &Ctx, view: &Option<ViewSpec>, model: &Model, state: &State) -> Result<ViewBox> {
    match view {
        Some(v) => rect(cx, "view", v),
        None => Ok(auto_view(model, state)),
    }
}

/// A rectangle `(min: (x, y), max: (x, y))` written at `field`.
pub(in crate::scene) fn rect(cx: &Ctx, field: &str, v: &ViewSpec) -> Result<ViewBox> {
    let (min, max) = (cx.finite2(&format!("{field}.min"), v.min)?, cx.finite2(&format!("{field}.max"), v.max)?);
    if min.x >= max.x || min.y >= max.y {
        return Err(cx.err(&format!("{field}.max"), format!("the {field}'s max must be above and right of its min")));
    }
    Ok(ViewBox { min: (min.x, min.y), max: (max.x, max.y) })
}

/// The `opening` block written at `field` (a scene's, or a tour step's), or
/// the default: playing in real time.
pub(in crate::scene) fn opening(cx: &Ctx, field: &str, spec: Option<&OpeningSpec>) -> Result<Opening> {
    let Some(spec) = spec else { return Ok(Opening::default()) };
    let at = |f: &str| format!("{field}.{f}");
    let speed = match spec.speed {
        Some(v) => {
            cx.finite(&at("speed"), v)?;
            if !Opening::SPEEDS.contains(&v) {
                return Err(cx.err(&at("speed"), format!("the speed must be between 0.01 and 4, got {v}")));
            }
            v
        }
        None => 1.0,
    };
    let pause_at = spec.pause_at.map(|t| cx.non_negative(&at("pause_at"), t, "the pause time")).transpose()?;
    let plot_window = spec.plot_window.map(|w| cx.positive(&at("plot_window"), w, "the plot window")).transpose()?;
    Ok(Opening { paused: spec.paused, speed, pause_at, plot_window })
}

/// The `plots`, each series a known one.
pub(super) fn plots(cx: &Ctx, specs: &[PlotSpec], model: &Model) -> Result<Vec<PlotPreset>> {
    let known = crate::scene::series_names(model);
    let mut plots = Vec::new();
    for (i, p) in specs.iter().enumerate() {
        for (j, s) in p.series.iter().enumerate() {
            if !known.iter().any(|k| k == s) {
                return Err(cx.err(
                    &format!("plots[{i}].series[{j}]"),
                    format!(
                        "unknown series `{s}`: use BODY.COORD[.v|.a], CONSTRAINT.g|.lambda|.handled (with friction also .friction|.slip), or one of {}",
                        crate::scene::GLOBAL_SERIES.join(", ")
                    ),
                ));
            }
        }
        plots.push(PlotPreset { title: p.title.clone(), series: p.series.clone() });
    }
    Ok(plots)
}

/// A box around every body, with a margin.
fn auto_view(model: &Model, state: &State) -> ViewBox {
    let (mut lo, mut hi) = (Vector2::repeat(f64::INFINITY), Vector2::repeat(f64::NEG_INFINITY));
    for (i, b) in model.bodies.iter().enumerate() {
        let p = model.position(i, state);
        let r = Vector2::repeat(b.radius);
        lo = lo.inf(&(p - r));
        hi = hi.sup(&(p + r));
    }
    let margin = ((hi - lo).max() * 0.25).max(0.5);
    let c = (lo + hi) / 2.0;
    let half = (hi - lo) / 2.0 + Vector2::repeat(margin);
    ViewBox { min: (c.x - half.x, c.y - half.y), max: (c.x + half.x, c.y + half.y) }
}
