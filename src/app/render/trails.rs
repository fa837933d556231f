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

/// The recent path of a body's point.
#[derive(Component, Clone, Debug, Default)]
pub struct Trail(pub VecDeque<DVec2>);

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

pub fn record_trails(mut bodies: Query<(&PointMotion, &mut Trail)>) {
    let keep = trail_points(bodies.iter().len());
    for (m, mut trail) in &mut bodies {
        if trail.0.back().is_none_or(|last| (*last - m.current).length() > 1e-4) {
            trail.0.push_back(m.current);
            while trail.0.len() > keep {
                trail.0.pop_front();
            }
        }
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
