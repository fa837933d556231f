//! What the world remembers for a moment: the recent path of each body and a
//! flash where time was rewound to a first activation. Both are recorded in
//! [`crate::app::lab::PhysicsSet::Record`] and forgotten when the state jumps.

use std::collections::VecDeque;

use bevy::math::DVec2;
use bevy::prelude::*;

use crate::app::lab::{Lab, PointMotion, StateJumped, geometry};

/// A rewind to a first activation, drawn as an expanding ring for a moment.
#[derive(Clone, Debug)]
pub struct Flash {
    pub at: DVec2,
    /// `Time<Real>` seconds when it was recorded.
    pub born: f64,
}

#[derive(Resource, Clone, Debug, Default)]
pub struct Flashes(pub Vec<Flash>);

/// Seconds a flash stays on screen.
pub const FLASH_SECONDS: f64 = 0.9;

/// The recent path of a body's point: its points with their simulated times.
#[derive(Component, Clone, Debug, Default)]
pub struct Trail(pub VecDeque<(f64, DVec2)>);

/// Simulated seconds a trail reaches back: a body that comes to rest loses
/// its trail (a heap's grains kept the lines of their fall over the heap
/// at rest, each trail its last points of motion, however old).
const TRAIL_SECONDS: f64 = 1.5;

/// The most points one trail keeps (the billiard's balls: 1.5 s at 1 kHz).
const TRAIL_POINTS: usize = 1500;
/// The most trail points of all bodies together: each line point is drawn every
/// frame, and a 300-ball pile with full trails (450 000 segments) took more of
/// a software renderer's frame than the balls (3.3 frames/s against 7.9 still).
const TRAIL_BUDGET: usize = 24_000;
/// The fewest points a trail keeps however many bodies share the budget.
const TRAIL_MIN: usize = 20;

pub fn clear_trails_on_jump(mut jumped: MessageReader<StateJumped>, mut trails: Query<&mut Trail>) {
    if jumped.read().next().is_some() {
        for mut t in &mut trails {
            t.0.clear();
        }
    }
}

pub fn record_trails(lab: Option<Res<Lab>>, mut bodies: Query<(&PointMotion, &mut Trail)>) {
    let Some(lab) = lab else { return };
    let now = lab.world.state.t;
    let keep = trail_points(bodies.iter().len());
    for (m, mut trail) in &mut bodies {
        remember(&mut trail.0, now, m.current, keep);
    }
}

/// Adds the point `at` of time `now` to a trail where it moved, keeping at
/// most `keep` points and none older than [`TRAIL_SECONDS`] (nor any later
/// than `now`, where time went back).
fn remember(trail: &mut VecDeque<(f64, DVec2)>, now: f64, at: DVec2, keep: usize) {
    while trail.back().is_some_and(|(t, _)| *t > now) {
        trail.pop_back();
    }
    if trail.back().is_none_or(|(_, last)| (*last - at).length() > 1e-4) {
        trail.push_back((now, at));
    }
    while trail.len() > keep || trail.front().is_some_and(|(t, _)| *t < now - TRAIL_SECONDS) {
        trail.pop_front();
    }
}

/// The points each of `bodies` trails keeps: [`TRAIL_BUDGET`] shared, within
/// [`TRAIL_MIN`]…[`TRAIL_POINTS`].
fn trail_points(bodies: usize) -> usize {
    (TRAIL_BUDGET / bodies.max(1)).clamp(TRAIL_MIN, TRAIL_POINTS)
}

pub fn record_flashes(lab: Option<Res<Lab>>, real: Res<Time<Real>>, mut flashes: ResMut<Flashes>) {
    let Some(lab) = lab else { return };
    let Some(report) = &lab.report else { return };
    if report.events.is_empty() {
        return;
    }
    let now = real.elapsed_secs_f64();
    let world = &lab.world;
    let pos = |b: usize| geometry::point(world, b);
    for ev in &report.events {
        for &k in &ev.constraints {
            flashes.0.push(Flash { at: geometry::anchor(world, k, &pos), born: now });
        }
    }
    if flashes.0.len() > 200 {
        let n = flashes.0.len() - 200;
        flashes.0.drain(..n);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A body that moves, then rests: its trail empties once the motion is
    /// older than [`TRAIL_SECONDS`], and never passes `keep` points.
    #[test]
    fn a_trail_forgets_motion_older_than_its_window() {
        let mut trail = VecDeque::new();
        for k in 0..1000 {
            let t = k as f64 * 1e-3;
            remember(&mut trail, t, DVec2::new(0.0, -t), 300);
            assert!(trail.len() <= 300);
        }
        assert_eq!(trail.len(), 300);
        // At rest from t = 1 s: the same point, time going on.
        for k in 1000..2600 {
            remember(&mut trail, k as f64 * 1e-3, DVec2::new(0.0, -0.999), 300);
        }
        assert!(trail.iter().all(|(t, _)| *t >= 2.599 - TRAIL_SECONDS), "{:?}", trail.front());
        assert!(trail.len() <= 1, "{} points kept at rest", trail.len());
        // Time going back (a step back): later points go.
        remember(&mut trail, 0.5, DVec2::new(1.0, 0.0), 300);
        assert!(trail.iter().all(|(t, _)| *t <= 0.5));
    }
}
