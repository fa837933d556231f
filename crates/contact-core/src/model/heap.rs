//! The angle of repose of a heap of round bodies, read off their state.
//!
//! A granular heap's flank stands at an angle `α` that friction sets: the
//! steepest slope on which a grain stays (for a block, `tan α = μ`; for
//! discs that roll, lower). It is measured as one reads it off a picture:
//!
//! * the grains are the dynamic bodies with a radius that are not flying
//!   (the centre's speed below [`FLYING`]) and that rest on the floor, the
//!   lowest grain's bottom, or on a grain that does, within [`TOUCH`] of
//!   the mean radius (a poured grain in the air is not part of the heap
//!   yet, nor is a column of grains at the top of its fall);
//! * the heap's profile is the top `y + r` of the highest grain in each
//!   column of width `2 r̄` (`r̄` the mean radius), from the floor `min (y − r)`;
//! * the heap is the run of non-empty columns on either side of the
//!   highest: a grain that rolled away past an empty column is not in it;
//! * each flank's slope is the least-squares line through its columns'
//!   tops from the peak to the foot, and `α` is the mean of the flanks'
//!   `atan |slope|`, in degrees.
//!
//! Frictionless grains spread flat (`α` a few degrees, the top layer's
//! ripple). Discs that roll freely hold no slope either: poured with
//! `μ = 0.5` they stand at about 26° while the heap builds and roll out to
//! 1–2°; a heap needs rolling resistance ([`crate::rolling`]): with `μ_r =
//! 0.3` the 90 discs of `assets/scenes/heap.ron` stand at about 20°.
//!
//! [`heap`] gives the flanks' fitted lines too, in the world's coordinates,
//! for the app to draw over the heap what it measured.

use crate::model::{Model, State};

/// A grain whose centre moves faster than this (m/s) is in flight.
pub const FLYING: f64 = 0.5;

/// Two grains touch (or a grain the floor) within this part of the mean
/// radius: a heap at rest has gaps of 1e-11 m; grains poured 5 mm apart,
/// a sixth of a radius of 3 cm, do not.
pub const TOUCH: f64 = 0.02;

/// One flank of a heap: its least-squares line from the peak's column to
/// its foot's, as points of the world `(x, y)`, and its angle in degrees.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Flank {
    pub peak: (f64, f64),
    pub foot: (f64, f64),
    pub angle: f64,
}

/// A heap as [`heap`] reads it: its angle of repose (degrees, the mean of
/// its flanks') and the flanks it was measured on (one or two).
#[derive(Clone, Debug, PartialEq)]
pub struct Heap {
    pub angle: f64,
    pub flanks: Vec<Flank>,
    /// Round bodies not in it: in flight, or resting on nothing that rests.
    pub apart: usize,
}

/// The angle of repose (degrees) of the round bodies of `model` at `state`,
/// or `None` while they do not form a heap of at least three columns.
pub fn repose_angle(model: &Model, state: &State) -> Option<f64> {
    heap(model, state).map(|h| h.angle)
}

/// The heap of the round bodies of `model` at `state` (module docs), or
/// `None` while they do not form one of at least three columns.
pub fn heap(model: &Model, state: &State) -> Option<Heap> {
    let round: Vec<_> = model.bodies.iter().filter(|b| b.is_dynamic() && b.radius > 0.0 && b.dofs() >= 2).collect();
    let slow: Vec<(f64, f64, f64)> = round
        .iter()
        .filter(|b| {
            let o = b.offset;
            state.qd[o].hypot(state.qd[o + 1]) < FLYING
        })
        .map(|b| (state.q[b.offset], state.q[b.offset + 1], b.radius))
        .collect();
    if slow.len() < 3 {
        return None;
    }
    let width = 2.0 * slow.iter().map(|g| g.2).sum::<f64>() / slow.len() as f64;
    let floor = slow.iter().map(|g| g.1 - g.2).fold(f64::INFINITY, f64::min);
    // The grains resting on the floor, then on those, and so on.
    let tol = TOUCH * 0.5 * width;
    let mut resting: Vec<bool> = slow.iter().map(|g| g.1 - g.2 - floor <= tol).collect();
    let mut queue: Vec<usize> = (0..slow.len()).filter(|&i| resting[i]).collect();
    while let Some(i) = queue.pop() {
        let a = slow[i];
        for (j, b) in slow.iter().enumerate() {
            if !resting[j] && (a.0 - b.0).hypot(a.1 - b.1) <= a.2 + b.2 + tol {
                resting[j] = true;
                queue.push(j);
            }
        }
    }
    let grains: Vec<(f64, f64, f64)> = slow.iter().zip(&resting).filter(|(_, r)| **r).map(|(g, _)| *g).collect();
    if grains.len() < 3 {
        return None;
    }
    let apart = round.len() - grains.len();
    let left = grains.iter().map(|g| g.0).fold(f64::INFINITY, f64::min);
    let right = grains.iter().map(|g| g.0).fold(f64::NEG_INFINITY, f64::max);
    let columns = (((right - left) / width).floor() as usize + 1).min(100_000);
    let mut top = vec![f64::NAN; columns];
    for &(x, y, r) in &grains {
        let c = (((x - left) / width) as usize).min(columns - 1);
        let h = y + r - floor;
        if top[c].is_nan() || h > top[c] {
            top[c] = h;
        }
    }
    // The heap: the run of non-empty columns with the most grains; its
    // peak the highest column (the middle one of equal highest).
    let mut count = vec![0usize; columns];
    for &(x, _, _) in &grains {
        count[(((x - left) / width) as usize).min(columns - 1)] += 1;
    }
    let mut runs: Vec<(usize, usize)> = Vec::new();
    for (c, &k) in count.iter().enumerate() {
        match runs.last_mut() {
            Some(run) if run.1 == c && k > 0 => run.1 = c + 1,
            _ if k > 0 => runs.push((c, c + 1)),
            _ => {}
        }
    }
    let (from, to) = runs.into_iter().max_by_key(|&(a, b)| count[a..b].iter().sum::<usize>())?;
    let highest = (from..to).map(|c| top[c]).fold(f64::NEG_INFINITY, f64::max);
    let tied: Vec<usize> = (from..to).filter(|&c| top[c] == highest).collect();
    let peak = tied[tied.len() / 2];
    // From the peak outward, to the run's end.
    let flank = |step: isize| -> Vec<(f64, f64)> {
        let mut out = Vec::new();
        let mut c = peak as isize;
        while c >= from as isize && c < to as isize {
            out.push((c as f64 * width, top[c as usize]));
            c += step;
        }
        out
    };
    let sides = [flank(-1), flank(1)];
    if sides[0].len() + sides[1].len() < 4 {
        return None;
    }
    // A column's point in the world: its middle, the top of its highest grain.
    let world = |(x, y): (f64, f64)| (left + x + 0.5 * width, floor + y);
    let flanks: Vec<Flank> = sides
        .iter()
        .filter(|f| f.len() >= 2)
        .map(|f| {
            let (slope, mean) = fit(f);
            let on_line = |x: f64| (x, mean.1 + slope * (x - mean.0));
            let (peak, foot) = (f[0].0, f[f.len() - 1].0);
            Flank { peak: world(on_line(peak)), foot: world(on_line(foot)), angle: slope.abs().atan().to_degrees() }
        })
        .collect();
    if flanks.is_empty() {
        return None;
    }
    let angle = flanks.iter().map(|f| f.angle).sum::<f64>() / flanks.len() as f64;
    Some(Heap { angle, flanks, apart })
}

/// The least-squares line through the points `(x, y)` (at least two,
/// distinct x): its slope, and the points' mean, which it passes through.
fn fit(points: &[(f64, f64)]) -> (f64, (f64, f64)) {
    let n = points.len() as f64;
    let (mx, my) = points.iter().fold((0.0, 0.0), |a, p| (a.0 + p.0 / n, a.1 + p.1 / n));
    let (sxy, sxx) = points.iter().fold((0.0, 0.0), |a, p| (a.0 + (p.0 - mx) * (p.1 - my), a.1 + (p.0 - mx).powi(2)));
    (sxy / sxx, (mx, my))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::body::BodyKind;
    use crate::testing::body;
    use nalgebra::Vector2;

    fn grains(centres: &[(f64, f64)], r: f64) -> (Model, State) {
        let bodies =
            centres.iter().enumerate().map(|(i, _)| body(&format!("g{i}"), BodyKind::Particle, 1.0, r)).collect();
        let model = Model::new(bodies, vec![], Vector2::new(0.0, -9.81));
        let q = centres.iter().flat_map(|&(x, y)| [x, y]).collect::<Vec<_>>();
        let state = State { qd: vec![0.0; q.len()], q, t: 0.0 };
        (model, state)
    }

    #[test]
    fn a_triangle_of_discs_stands_at_its_slope_and_a_layer_is_flat() {
        // A triangular stack of discs r = 0.5 touching: rows of 7, 6, ..., 1,
        // each row √3/2 above the last, shifted half a diameter: its flanks
        // stand at 60°. Columns one diameter wide read the profile in steps
        // (the fit's ends at the foot and the peak are flat): within 3°.
        let mut c = vec![];
        for row in 0..7 {
            for k in 0..7 - row {
                c.push((row as f64 * 0.5 + k as f64, 0.5 + row as f64 * 3f64.sqrt() / 2.0));
            }
        }
        let (m, s) = grains(&c, 0.5);
        let a = repose_angle(&m, &s).unwrap();
        assert!((a - 60.0).abs() < 3.0, "triangle: {a}°");
        // Its flanks' lines, drawn in the world: from the peak's column
        // (x = 3.5, the top at 6.2) down to each foot's (x = 0.5 or 6.5,
        // the top at 1), the stepped profile's fit within a grain and a half.
        let h = heap(&m, &s).unwrap();
        assert_eq!(h.flanks.len(), 2);
        for f in &h.flanks {
            assert!(f.peak.1 > f.foot.1 + 4.0 && (f.peak.0 - 3.5).abs() < 0.6, "{f:?}");
            assert!((f.foot.0 - 3.5).abs() > 2.4 && f.foot.1 < 2.5, "{f:?}");
        }
        // One flat layer.
        let flat: Vec<_> = (0..12).map(|k| (k as f64, 0.5)).collect();
        let (m, s) = grains(&flat, 0.5);
        assert!(repose_angle(&m, &s).unwrap() < 1e-9);
        // A grain flying is not in the heap; a grain rolled away past an
        // empty column is not either.
        let mut away = flat.clone();
        away.push((30.0, 0.5));
        away.push((6.0, 4.0));
        let (m, mut s) = grains(&away, 0.5);
        let n = s.qd.len();
        s.qd[n - 1] = -3.0;
        assert!(repose_angle(&m, &s).unwrap() < 1e-9);
        assert_eq!(heap(&m, &s).unwrap().apart, 1, "the one in flight");
        // A column at the top of its fall, 5 mm gaps between grains of
        // 3 cm, over a layer: not in the heap (its lowest grain is not
        // either, 1 cm above the layer).
        let mut poured: Vec<(f64, f64)> = (0..12).map(|k| (0.06 * k as f64, 0.03)).collect();
        poured.extend((0..10).map(|k| (0.33, 0.13 + 0.065 * k as f64)));
        let (m, s) = grains(&poured, 0.03);
        let h = heap(&m, &s).unwrap();
        assert!(h.apart == 10 && h.angle < 1e-9, "{h:?}");
        // Two grains are no heap.
        let (m, s) = grains(&[(0.0, 0.5), (1.0, 0.5)], 0.5);
        assert_eq!(repose_angle(&m, &s), None);
    }
}
