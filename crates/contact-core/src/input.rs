//! What a user does to a running world, step by step, so that a run can be
//! replayed bit for bit and several worlds can be driven alike.
//!
//! Between two steps a user may pull bodies with mouse springs, set a body's
//! constant force `f` (eq. 1) by dragging its arrow, set a body's coordinates or
//! velocity (a cue shot), switch the algorithm, change Baumgarte's τ (eq. 5) or
//! another setting, or the step `h`. Each is an [`Input`]; an [`InputLog`] keeps them with the step
//! count they were given at (`World::steps` before the step they act on).
//! [`InputLog::replay`] drives a world from a snapshot with them: same state,
//! same inputs, same bits ([`World::state_hash`]).
//!
//! A mouse spring is a spring-damper toward a target point, its stiffness scaled
//! by the body's mass so every body follows alike (a critically-damped-ish 1.5 Hz):
//!
//! ```text
//! F = m (ω² (x_target − p) − 2ζω ṗ),   ω = 2π · 1.5 Hz,  ζ = 0.7
//! ```
//!
//! computed from the state at the start of each step and written into the body's
//! `user_force`, so it is part of `f` in eq. (1) like any other force. A spring
//! grabbed at a point `at` of a body that turns (its frame) pulls that point:
//! `p` and `ṗ` are the point's, and the body also gets the torque `(p − x) × F`
//! about its centroid (`user_torque`), so a box grabbed by a corner turns.

use nalgebra::Vector2;
use serde::{Deserialize, Serialize};

use crate::model::Coefficients;
use crate::settings::Settings;
use crate::world::{StepReport, World};

/// Spring natural frequency (Hz) and damping ratio.
pub const SPRING_HZ: f64 = 1.5;
pub const SPRING_ZETA: f64 = 0.7;

/// A mouse spring: body `body`'s point at `at` (its frame; its own point by
/// default) pulled toward `target` (m).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Spring {
    pub body: usize,
    pub target: (f64, f64),
    #[serde(default, skip_serializing_if = "is_origin")]
    pub at: (f64, f64),
}

fn is_origin(p: &(f64, f64)) -> bool {
    *p == (0.0, 0.0)
}

impl Spring {
    /// `F = m (ω² (target − p) − 2ζω v)` for a body of mass `mass` at `p` moving at `v`.
    pub fn force_at(&self, mass: f64, p: Vector2<f64>, v: Vector2<f64>) -> Vector2<f64> {
        let w = 2.0 * std::f64::consts::PI * SPRING_HZ;
        let target = Vector2::new(self.target.0, self.target.1);
        (target - p) * (mass * w * w) - v * (mass * 2.0 * SPRING_ZETA * w)
    }

    /// The spring's force at the world's current state (zero for a body that is not there).
    pub fn force(&self, world: &World) -> Vector2<f64> {
        self.force_and_lever(world).0
    }

    /// The force, and where it acts from the body's own point (`(p − x)`).
    fn force_and_lever(&self, world: &World) -> (Vector2<f64>, Vector2<f64>) {
        let Some(body) = world.model.bodies.get(self.body) else { return (Vector2::zeros(), Vector2::zeros()) };
        let (q, qd) = (&world.state.q, &world.state.qd);
        let at = body.kinematics_at(Vector2::new(self.at.0, self.at.1), q, qd);
        let lever = at.p - body.kinematics(q, qd).p;
        (self.force_at(body.mass, at.p, at.v), lever)
    }
}

/// Writes the springs' forces at the current state into the bodies' `user_force`
/// and, for a point away from a turning body's centroid, `user_torque`
/// (every other body's are set to zero).
pub fn apply_springs(world: &mut World, springs: &[Spring]) {
    let forces: Vec<(usize, Vector2<f64>, Vector2<f64>)> = springs
        .iter()
        .map(|s| {
            let (f, lever) = s.force_and_lever(world);
            (s.body, f, lever)
        })
        .collect();
    for b in &mut world.model.bodies {
        b.user_force = Vector2::zeros();
        b.user_torque = 0.0;
    }
    for (b, f, lever) in forces {
        if let Some(body) = world.model.bodies.get_mut(b) {
            body.user_force += f;
            if let crate::body::BodyKind::Rigid { .. } = body.kind {
                body.user_torque += lever.x * f.y - lever.y * f.x;
            }
        }
    }
}

/// One thing a user did between two steps.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Input {
    /// The springs acting from now on (replaces the previous ones).
    Springs(Vec<Spring>),
    /// A body's constant force `f`, in N.
    Force { body: usize, force: (f64, f64) },
    /// A body's generalized coordinates and velocities (a body moved by hand).
    Coords { body: usize, q: Vec<f64>, qd: Vec<f64> },
    /// A body's generalized velocities only (a cue shot): in compare mode every
    /// lane's body gets them where it is.
    Velocity { body: usize, qd: Vec<f64> },
    /// The solver's settings: the algorithm, Baumgarte's τ, tolerances, events.
    Settings(Settings),
    /// The step `h`, in s.
    Dt(f64),
    /// The generated contacts' friction and rolling resistance
    /// ([`crate::model::Model::set_contact_coefficients`]).
    Contacts(Coefficients),
}

impl Input {
    /// Applies the input to `world`; the springs and the step in effect are the caller's.
    pub(crate) fn apply(&self, world: &mut World, springs: &mut Vec<Spring>, h: &mut f64) {
        match self {
            Input::Springs(s) => *springs = s.clone(),
            Input::Force { body, force } => {
                if let Some(b) = world.model.bodies.get_mut(*body) {
                    b.force = Vector2::new(force.0, force.1);
                }
            }
            Input::Coords { body, q, qd } => {
                let Some(b) = world.model.bodies.get(*body) else { return };
                let (o, n) = (b.offset, b.dofs());
                if q.len() == n && qd.len() == n {
                    world.state.q[o..o + n].copy_from_slice(q);
                    world.state.qd[o..o + n].copy_from_slice(qd);
                }
            }
            Input::Velocity { body, qd } => {
                let Some(b) = world.model.bodies.get(*body) else { return };
                let (o, n) = (b.offset, b.dofs());
                if qd.len() == n {
                    world.state.qd[o..o + n].copy_from_slice(qd);
                }
            }
            Input::Settings(settings) => world.settings = settings.clone(),
            Input::Dt(dt) => *h = *dt,
            Input::Contacts(c) => world.model.set_contact_coefficients(c),
        }
    }
}

/// The inputs of a run, in the order they were given.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct InputLog {
    /// `(step, input)`: `input` was given when the world had taken `step` steps.
    pub entries: Vec<(u64, Input)>,
}

impl InputLog {
    pub fn push(&mut self, step: u64, input: Input) {
        self.entries.push((step, input));
    }

    /// Forgets what was given once `step` steps were taken (a restore to that
    /// step starts a new branch).
    pub fn truncate_from(&mut self, step: u64) {
        self.entries.retain(|(s, _)| *s < step);
    }

    /// Steps `world` until it has taken `until` steps, from a step `h0`, applying
    /// the inputs given at each step count first (inputs before the world's
    /// current step count are applied at once, in order: they set the springs,
    /// forces and settings in effect). `each` sees every report.
    pub fn replay(&self, world: &mut World, h0: f64, until: u64, mut each: impl FnMut(&World, &StepReport)) {
        let mut replay = Replay::new(self, h0);
        while world.steps < until {
            let h = replay.prepare(world);
            let report = world.step(h);
            each(world, &report);
        }
    }
}

/// A replay in progress: the springs and the step in effect, the next entry.
pub struct Replay<'a> {
    log: &'a InputLog,
    springs: Vec<Spring>,
    h: f64,
    next: usize,
}

impl<'a> Replay<'a> {
    /// Starts replaying `log` with the step `h0` until it says otherwise.
    pub fn new(log: &'a InputLog, h0: f64) -> Self {
        Replay { log, springs: Vec::new(), h: h0, next: 0 }
    }

    /// Gets `world` ready for its next step: applies the inputs due and writes
    /// the springs' forces. Returns the step `h` to take.
    pub fn prepare(&mut self, world: &mut World) -> f64 {
        while let Some((step, input)) = self.log.entries.get(self.next) {
            if *step > world.steps {
                break;
            }
            input.apply(world, &mut self.springs, &mut self.h);
            self.next += 1;
        }
        apply_springs(world, &self.springs);
        self.h
    }
}

/// Watches a world between steps and logs what changed since the last look:
/// the springs given, the bodies' constant forces, coordinates set from outside
/// the core, the settings (algorithm, τ, ...) and `h`. The app calls it right before each step;
/// whatever path a change took (a panel, a key, a drag, a tour step), it lands
/// in the log.
#[derive(Clone, Debug, Default)]
pub struct Recorder {
    springs: Vec<Spring>,
    forces: Vec<(f64, f64)>,
    settings: Option<Settings>,
    h: Option<f64>,
    contacts: Option<Coefficients>,
}

impl Recorder {
    /// Starts watching `world` as it is now (nothing is logged for it). A
    /// `Recorder::default()` logs everything at its first look instead, so its log
    /// replays from the scene file alone.
    pub fn new(world: &World, h: f64) -> Self {
        Recorder {
            springs: Vec::new(),
            forces: world.model.bodies.iter().map(|b| (b.force.x, b.force.y)).collect(),
            settings: Some(world.settings.clone()),
            h: Some(h),
            contacts: world.model.contact_coefficients(),
        }
    }

    /// Logs the changes made to `world` since the last call; `coords` are the
    /// bodies whose coordinates were set from outside the core (the caller
    /// knows), with whether their positions changed too or only their velocities.
    pub fn observe(&mut self, world: &World, h: f64, springs: &[Spring], coords: &[(usize, bool)], log: &mut InputLog) {
        let step = world.steps;
        if self.h != Some(h) {
            log.push(step, Input::Dt(h));
            self.h = Some(h);
        }
        if self.settings.as_ref() != Some(&world.settings) {
            log.push(step, Input::Settings(world.settings.clone()));
            self.settings = Some(world.settings.clone());
        }
        let contacts = world.model.contact_coefficients();
        if self.contacts != contacts
            && let Some(c) = &contacts
        {
            log.push(step, Input::Contacts(c.clone()));
            self.contacts = contacts;
        }
        self.forces.resize(world.model.bodies.len(), (0.0, 0.0));
        for (i, b) in world.model.bodies.iter().enumerate() {
            let f = (b.force.x, b.force.y);
            if self.forces[i] != f {
                log.push(step, Input::Force { body: i, force: f });
                self.forces[i] = f;
            }
        }
        for &(body, moved) in coords {
            let Some(b) = world.model.bodies.get(body) else { continue };
            let r = b.offset..b.offset + b.dofs();
            let (q, qd) = (world.state.q[r.clone()].to_vec(), world.state.qd[r].to_vec());
            log.push(step, if moved { Input::Coords { body, q, qd } } else { Input::Velocity { body, qd } });
        }
        if self.springs != springs {
            log.push(step, Input::Springs(springs.to_vec()));
            self.springs = springs.to_vec();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{body, half_plane};
    use crate::{Algorithm, BodyKind, Model, State};

    fn ball() -> World {
        let model = Model::new(
            vec![body("ball", BodyKind::Particle, 2.0, 0.1)],
            vec![half_plane("floor", 0, (0.0, 1.0), 0.0)],
            Vector2::new(0.0, -9.81),
        );
        World::new(model, State { q: vec![0.0, 0.5], qd: vec![0.0, 0.0], t: 0.0 }, Settings::default())
    }

    #[test]
    fn a_spring_at_its_target_and_at_rest_pulls_nothing_and_scales_with_mass() {
        let s = Spring { body: 0, target: (1.0, 2.0), at: (0.0, 0.0) };
        assert_eq!(s.force_at(3.0, Vector2::new(1.0, 2.0), Vector2::zeros()), Vector2::zeros());
        let w = 2.0 * std::f64::consts::PI * SPRING_HZ;
        let f = s.force_at(2.0, Vector2::new(0.0, 2.0), Vector2::new(0.0, 1.0));
        assert_eq!(f, Vector2::new(2.0 * w * w, -2.0 * 2.0 * SPRING_ZETA * w));
    }

    #[test]
    fn the_recorder_logs_each_change_once() {
        let mut w = ball();
        let mut rec = Recorder::new(&w, 1e-3);
        let mut log = InputLog::default();
        let springs = [Spring { body: 0, target: (0.3, 0.4), at: (0.0, 0.0) }];
        rec.observe(&w, 1e-3, &springs, &[], &mut log);
        rec.observe(&w, 1e-3, &springs, &[], &mut log);
        w.settings.algorithm = Algorithm::Platt;
        w.model.bodies[0].force = Vector2::new(1.0, 0.0);
        rec.observe(&w, 2e-3, &springs, &[(0, true)], &mut log);
        let kinds: Vec<&Input> = log.entries.iter().map(|(_, i)| i).collect();
        assert_eq!(kinds.len(), 5, "{kinds:?}");
        assert!(matches!(kinds[0], Input::Springs(_)));
        assert!(matches!(kinds[1], Input::Dt(h) if *h == 2e-3));
        assert!(matches!(kinds[2], Input::Settings(s) if s.algorithm == Algorithm::Platt));
        assert!(matches!(kinds[3], Input::Force { body: 0, .. }));
        assert!(matches!(kinds[4], Input::Coords { body: 0, .. }));
    }
}
