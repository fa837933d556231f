//! Sleeping islands (after Box2D's): a group of bodies that has been still for
//! a while is left out of eq. (6) until something touches it.
//!
//! An *island* is a connected component of the dynamic bodies, two bodies
//! being connected when a row of the model (an explicit constraint, or a
//! generated contact, which exists as soon as two balls come within the
//! contact margin: [`crate::contacts`]) acts on both. Fixed bodies and walls
//! join nothing. A body is *still* when its point moves slower than
//! [`SleepSettings::speed`] and no user force pulls it; an island whose bodies
//! have all been still for [`SleepSettings::time`] falls asleep at the start
//! of the next step:
//!
//! * its velocities are kept aside and set to 0 in the state, so a step leaves
//!   its `q` bit for bit as it was (`q⁺ = q + h (q̇ + h q̈)` with `q̇ = q̈ = 0`);
//! * its inequality rows are not active ([`Asleep::set_aside`] clears the flags
//!   of `speculative::active_flags`):
//!   no algorithm handles them, no event looks at them, and their handled
//!   flags are kept as they were, so the solve that follows the wake is warm;
//! * its coordinates get `q̈ = 0` whatever the solve says (its equalities, which
//!   are always handled, still cost their rows; they do not move anything).
//!
//! It wakes, whole, at the start of a step where one of these holds: a row
//! joins it to an awake body (something came within the contact margin), one
//! of its bodies was moved or given a velocity from outside (the app's drag,
//! a cue shot: the state no longer equals what was frozen), a user force acts
//! on it, or its forces changed (gravity, a body's constant force or mass).
//! Waking puts the kept velocities back: the island's `(q, q̇)` are bit for
//! bit those it fell asleep with, but for a body written from outside, which
//! keeps what was written (a cue shot's velocity is the shot's).
//!
//! A frictionless pile is never exactly at rest under Baumgarte's eq. (5) and
//! round-off, so the default speed is 1 mm/s (the separating tolerance,
//! [`crate::active_set::Tolerances`]) and the time 0.5 s (Box2D's). Off by
//! default: the paper's scenes and the pinned runs never sleep.

use std::borrow::Cow;

use nalgebra::Vector2;
use serde::{Deserialize, Serialize};

use crate::model::{Model, State};
use crate::union_find::UnionFind;

/// When an island falls asleep.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SleepSettings {
    pub enabled: bool,
    /// A body slower than this (speed units, m/s) is still.
    pub speed: f64,
    /// An island still for this long (s) sleeps.
    pub time: f64,
}

impl Default for SleepSettings {
    fn default() -> Self {
        SleepSettings { enabled: false, speed: 1e-3, time: 0.5 }
    }
}

/// What a body was when its island fell asleep: waking restores its velocity,
/// and any change to the rest wakes it.
#[derive(Clone, Debug, PartialEq)]
struct Frozen {
    q: Vec<f64>,
    qd: Vec<f64>,
    force: Vector2<f64>,
    mass: f64,
    /// A ball grown or shrunk overlaps or leaves its neighbours: it wakes.
    radius: f64,
}

/// The sleep state of every body, carried across steps (in the
/// [`crate::world::Snapshot`], so a restore replays it).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Sleep {
    /// Seconds each body has been still (0 while it moves).
    still: Vec<f64>,
    /// `Some` while the body sleeps.
    frozen: Vec<Option<Frozen>>,
    /// Gravity when the first sleeping island fell asleep.
    gravity: Option<Vector2<f64>>,
}

/// Which rows and coordinates sleep during one step.
#[derive(Clone, Debug, Default)]
pub struct Asleep {
    pub rows: Vec<bool>,
    pub coords: Vec<bool>,
    /// Whether anything sleeps at all (all flags false otherwise).
    pub any: bool,
}

impl Asleep {
    /// The handled flags of the sleeping rows, to put back after the step.
    pub fn kept_flags(&self, handled: &[bool]) -> Vec<(usize, bool)> {
        if !self.any {
            return Vec::new();
        }
        (0..self.rows.len()).filter(|&k| self.rows[k]).map(|k| (k, handled[k])).collect()
    }

    /// Clears `active[k]` and `handled[k]` of every sleeping row (a row acting on
    /// a sleeping body), and nothing when nothing sleeps: no algorithm handles a
    /// sleeping inequality. Equalities are solved whatever their flags (their
    /// coordinates' `q̈` is zeroed after, [`Asleep::hold_still`]). The caller keeps
    /// the handled flags before ([`Asleep::kept_flags`]) and puts them back after
    /// the step ([`Asleep::restore_flags`]).
    pub fn set_aside(&self, active: &mut [bool], handled: &mut [bool]) {
        if self.any {
            for k in (0..self.rows.len()).filter(|&k| self.rows[k]) {
                active[k] = false;
                handled[k] = false;
            }
        }
    }

    /// `q̈ = 0` on the sleeping coordinates.
    pub fn hold_still(&self, qdd: &mut [f64]) {
        if self.any {
            qdd.iter_mut().zip(&self.coords).filter(|(_, c)| **c).for_each(|(a, _)| *a = 0.0);
        }
    }

    /// `active` with the sleeping rows marked too: the event search skips
    /// active rows, and sleeping ones do not move. `active` itself (no copy)
    /// when nothing sleeps.
    pub fn watched<'a>(&self, active: &'a [bool]) -> Cow<'a, [bool]> {
        if !self.any {
            return Cow::Borrowed(active);
        }
        Cow::Owned(active.iter().zip(&self.rows).map(|(a, s)| *a || *s).collect())
    }

    /// Puts back the flags [`Asleep::kept_flags`] kept.
    pub fn restore_flags(&self, kept: &[(usize, bool)], handled: &mut [bool]) {
        for &(k, h) in kept {
            handled[k] = h;
        }
    }
}

impl Sleep {
    /// Whether body `b` sleeps.
    pub fn is_asleep(&self, b: usize) -> bool {
        self.frozen.get(b).is_some_and(Option::is_some)
    }

    /// Number of sleeping bodies.
    pub fn sleeping_bodies(&self) -> usize {
        self.frozen.iter().filter(|f| f.is_some()).count()
    }

    /// Wakes every body (restoring the velocities kept aside).
    pub fn wake_all(&mut self, state: &mut State, model: &Model) {
        for b in 0..self.frozen.len() {
            self.wake(b, state, model);
        }
    }

    fn wake(&mut self, b: usize, state: &mut State, model: &Model) {
        if let Some(f) = self.frozen[b].take() {
            let o = model.bodies[b].offset;
            // A body written from outside while asleep (a cue shot, a drag, the
            // input log's coordinates) keeps what was written; the others get
            // the velocities they fell asleep with.
            if !written(state, o, &f) {
                state.qd[o..o + f.qd.len()].copy_from_slice(&f.qd);
            }
            self.still[b] = 0.0;
        }
    }

    /// At the start of a step: wakes the islands that must wake, puts to sleep
    /// those still long enough, and says what sleeps for the step.
    pub fn begin_step(&mut self, settings: &SleepSettings, model: &Model, state: &mut State) -> Asleep {
        let n = model.bodies.len();
        if self.still.len() != n {
            // A new model (or the first step): everything awake. Velocities
            // kept from a model of another size belong to a state that is
            // being replaced; they cannot be matched to its bodies.
            *self = Sleep { still: vec![0.0; n], frozen: vec![None; n], gravity: None };
        }
        if !settings.enabled {
            if self.sleeping_bodies() > 0 {
                self.wake_all(state, model);
            }
            return Asleep::default();
        }
        if self.gravity.is_some_and(|g| g != model.gravity) {
            self.wake_all(state, model);
        }
        let island = islands(model);
        let nislands = island.iter().flatten().map(|i| i + 1).max().unwrap_or(0);
        // An island wakes when any of its bodies is awake or was disturbed.
        let mut wake = vec![false; nislands];
        for (b, i) in island.iter().enumerate() {
            let Some(i) = *i else { continue };
            wake[i] |= self.frozen[b].as_ref().is_none_or(|f| disturbed(model, state, b, f));
        }
        // Bodies woken here have been still for 0 s: their island stays awake.
        let mut ready = vec![true; nislands];
        for (b, i) in island.iter().enumerate() {
            let Some(i) = *i else { continue };
            if wake[i] {
                self.wake(b, state, model);
                ready[i] &= self.still[b] >= settings.time;
            }
        }
        // Islands all of whose bodies are awake and still long enough fall asleep.
        for (b, i) in island.iter().enumerate() {
            let Some(i) = *i else { continue };
            if ready[i] && self.frozen[b].is_none() {
                let body = &model.bodies[b];
                let (o, k) = (body.offset, body.dofs());
                let f = Frozen {
                    q: state.q[o..o + k].to_vec(),
                    qd: state.qd[o..o + k].to_vec(),
                    force: body.force,
                    mass: body.mass,
                    radius: body.radius,
                };
                state.qd[o..o + k].iter_mut().for_each(|v| *v = 0.0);
                self.frozen[b] = Some(f);
            }
        }
        let any = self.frozen.iter().any(Option::is_some);
        self.gravity = any.then_some(model.gravity);
        if !any {
            return Asleep::default();
        }
        let mut coords = vec![false; model.ndofs()];
        for (b, body) in model.bodies.iter().enumerate() {
            if self.frozen[b].is_some() {
                coords[body.offset..body.offset + body.dofs()].iter_mut().for_each(|c| *c = true);
            }
        }
        let rows = model.constraints.iter().map(|c| c.bodies().iter().any(|&b| self.frozen[b].is_some())).collect();
        Asleep { rows, coords, any }
    }

    /// At the end of a step of `h`: counts how long each awake body has been still.
    pub fn end_step(&mut self, settings: &SleepSettings, model: &Model, state: &State, h: f64) {
        if !settings.enabled {
            return;
        }
        for (b, body) in model.bodies.iter().enumerate() {
            if !body.is_dynamic() || self.frozen[b].is_some() {
                continue;
            }
            let pulled = body.is_pushed();
            let slow = model.velocity(b, state).norm() < settings.speed;
            self.still[b] = if slow && !pulled { self.still[b] + h } else { 0.0 };
        }
    }
}

/// Whether the coordinates of a sleeping body (its first at `o`) were written
/// from outside since it fell asleep: its `q` moved or its `q̇` (0 while
/// asleep) is not 0.
fn written(state: &State, o: usize, f: &Frozen) -> bool {
    let k = f.q.len();
    state.q[o..o + k] != f.q[..] || state.qd[o..o + k].iter().any(|v| *v != 0.0)
}

/// Whether sleeping body `b` was changed from outside since it fell asleep.
fn disturbed(model: &Model, state: &State, b: usize, f: &Frozen) -> bool {
    let body = &model.bodies[b];
    let (o, k) = (body.offset, body.dofs());
    let pulled = body.is_pushed();
    debug_assert_eq!(k, f.q.len());
    pulled || body.force != f.force || body.mass != f.mass || body.radius != f.radius || written(state, o, f)
}

/// The island of every dynamic body (`None` for fixed bodies), by union-find
/// over the bodies each row acts on.
fn islands(model: &Model) -> Vec<Option<usize>> {
    let n = model.bodies.len();
    let mut sets = UnionFind::new(n);
    for c in &model.constraints {
        let bodies = c.bodies();
        let mut dynamic = bodies.iter().copied().filter(|&b| model.bodies[b].is_dynamic());
        if let (Some(a), Some(b)) = (dynamic.next(), dynamic.next()) {
            sets.join(a, b);
        }
    }
    let mut label = vec![usize::MAX; n];
    let mut next = 0;
    (0..n)
        .map(|b| {
            if !model.bodies[b].is_dynamic() {
                return None;
            }
            let r = sets.root(b);
            if label[r] == usize::MAX {
                label[r] = next;
                next += 1;
            }
            Some(label[r])
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::body::{Body, BodyKind};
    use crate::constraint::{Constraint, ConstraintKind, Geometry};

    fn ball(name: &str) -> Body {
        Body {
            name: name.into(),
            kind: BodyKind::Particle,
            mass: 1.0,
            radius: 0.1,
            force: Vector2::zeros(),
            damping: 0.0,
            user_force: Vector2::zeros(),
            user_torque: 0.0,
            offset: 0,
        }
    }

    fn contact(a: usize, b: usize) -> Constraint {
        Constraint {
            name: format!("c{a}{b}"),
            kind: ConstraintKind::Inequality,
            geometry: Geometry::Contact { a, b },
            restitution: None,
            friction: 0.0,
            rolling: 0.0,
        }
    }

    #[test]
    fn rows_join_bodies_into_islands_and_fixed_bodies_join_nothing() {
        let mut anchor = ball("anchor");
        anchor.kind = BodyKind::Fixed { position: (0.0, 0.0) };
        let bodies = vec![ball("a"), ball("b"), anchor, ball("c"), ball("d")];
        // a–b, b–anchor, anchor–c: the anchor does not join b and c.
        let rows = vec![contact(0, 1), contact(1, 2), contact(2, 3)];
        let model = Model::new(bodies, rows, Vector2::zeros());
        assert_eq!(islands(&model), vec![Some(0), Some(0), None, Some(1), Some(2)]);
    }
}
