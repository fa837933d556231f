//! Compare mode: one state forked into one lane per method, the lanes
//! stepped in lockstep on the same inputs, so the algorithms of the paper
//! (Platt, Algorithm 1; Platt improved, Algorithm 2; Right, Algorithm 3), the
//! exact complementarity solution, and Moreau–Jean's time-stepping part from
//! the same instant.
//!
//! A [`Method`] is a scheme and an algorithm: the paper's event-driven scheme
//! with each of the four, or time-stepping (whose velocity problem only Exact
//! solves: [`crate::timestep`]). A lane is a [`World`] of its own with its
//! method pinned: it is given every [`Input`] its source is given — the
//! springs (whose force each lane computes from its own state), forces,
//! coordinates, settings other than the scheme and the algorithm, the step
//! `h` — and takes the same steps. Forking is what a live switch of the
//! algorithm or the scheme does ([`World::settings`]), so a lane forked from
//! a snapshot is the run started alone from that snapshot with that method,
//! bit for bit.
//!
//! A lane whose step diverges ([`StepStatus::Diverged`]) keeps its last good
//! state and stops; the others go on.

use crate::choice::Algorithm;
use crate::constraint::ConstraintKind;
use crate::input::{self, Input, Spring};
use crate::settings::{Scheme, Settings};
use crate::world::{StepReport, StepStatus, World};

/// What a lane runs: a scheme and, under the paper's event-driven scheme,
/// one of the four algorithms (time-stepping's solver is always Exact).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Method {
    pub scheme: Scheme,
    pub algorithm: Algorithm,
}

impl Method {
    /// Time-stepping (Moreau–Jean), under Exact.
    pub const TIME_STEPPING: Method = Method { scheme: Scheme::TimeStepping, algorithm: Algorithm::Exact };

    /// Every method, in the order of the panels: the paper's three, Exact,
    /// then time-stepping.
    pub const ALL: [Method; 5] = [
        Method::event_driven(Algorithm::Platt),
        Method::event_driven(Algorithm::PlattImproved),
        Method::event_driven(Algorithm::Right),
        Method::event_driven(Algorithm::Exact),
        Method::TIME_STEPPING,
    ];

    /// The paper's scheme with `algorithm`.
    pub const fn event_driven(algorithm: Algorithm) -> Method {
        Method { scheme: Scheme::EventDriven, algorithm }
    }

    /// The method `settings` run.
    pub fn of(settings: &Settings) -> Method {
        match settings.scheme {
            Scheme::EventDriven => Method::event_driven(settings.algorithm),
            Scheme::TimeStepping => Method::TIME_STEPPING,
        }
    }

    /// How the panels name it: the algorithm's name under event-driven,
    /// "Time-stepping" otherwise.
    pub fn label(self) -> &'static str {
        match self.scheme {
            Scheme::EventDriven => self.algorithm.label(),
            Scheme::TimeStepping => "Time-stepping",
        }
    }

    /// `settings` set to run it.
    pub fn apply(self, settings: &mut Settings) {
        settings.scheme = self.scheme;
        settings.algorithm = self.algorithm;
    }
}

/// One method's run in compare mode.
#[derive(Clone, Debug)]
pub struct Lane {
    pub world: World,
    springs: Vec<Spring>,
    h: f64,
    /// Largest `max(0, −g_k)` over inequalities at a step end since the fork (m).
    pub max_penetration: f64,
    /// The report of the lane's last step.
    pub report: Option<StepReport>,
    /// Why the lane stopped, if one of its steps diverged.
    pub diverged: Option<String>,
}

impl Lane {
    /// A lane that starts at `world`'s state under `method`, with the step `h`
    /// and the springs acting now.
    pub fn fork(world: &World, method: Method, h: f64, springs: &[Spring]) -> Lane {
        let mut world = world.clone();
        method.apply(&mut world.settings);
        Lane { world, springs: springs.to_vec(), h, max_penetration: 0.0, report: None, diverged: None }
    }

    /// The method the lane runs.
    pub fn method(&self) -> Method {
        Method::of(&self.world.settings)
    }

    /// An input given to the lane's source; the lane keeps its method.
    pub fn give(&mut self, input: &Input) {
        let method = self.method();
        input.apply(&mut self.world, &mut self.springs, &mut self.h);
        method.apply(&mut self.world.settings);
    }

    /// One step of `h` (unless the lane diverged): the springs' forces from the
    /// lane's state, then [`World::step`].
    pub fn step(&mut self) {
        if self.diverged.is_some() {
            return;
        }
        let before = self.world.snapshot();
        input::apply_springs(&mut self.world, &self.springs);
        let report = self.world.step(self.h);
        if let StepStatus::Diverged { cause, .. } = &report.status {
            self.diverged = Some(format!("diverged at t = {:.4} s: {cause}", report.t));
            self.world.restore(&before);
            return;
        }
        if let StepStatus::Unsolved { cause } = &report.status {
            // The step was taken with its last answer: kept, and the lane stops.
            self.diverged = Some(format!("stopped at t = {:.4} s: {cause}", report.t));
        }
        let constraints = &self.world.model.constraints;
        let penetration = report
            .g
            .iter()
            .zip(constraints)
            .filter(|(_, c)| c.kind == ConstraintKind::Inequality)
            .map(|(g, _)| -g)
            .fold(0.0, f64::max);
        self.max_penetration = self.max_penetration.max(penetration);
        self.report = Some(report);
    }

    /// `‖q − q_other‖` (Euclidean, over the generalized coordinates).
    pub fn distance(&self, other: &World) -> f64 {
        self.world.state.q.iter().zip(&other.state.q).map(|(a, b)| (a - b) * (a - b)).sum::<f64>().sqrt()
    }

    /// Kinetic plus potential energy now (J).
    pub fn energy(&self) -> f64 {
        let (m, s) = (&self.world.model, &self.world.state);
        m.kinetic_energy(s) + m.potential_energy(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::{InputLog, Recorder};
    use crate::testing::{body, half_plane};
    use crate::{BodyKind, Model, Settings, State};
    use nalgebra::Vector2;

    /// The wedge of figure 1: m = 2, f = (2, −1), no events (the paper's bare algorithms).
    fn wedge() -> World {
        let mut particle = body("particle", BodyKind::Particle, 2.0, 0.0);
        particle.force = Vector2::new(2.0, -1.0);
        let model = Model::new(
            vec![particle],
            vec![half_plane("g1", 0, (1.0, -1.0), 0.0), half_plane("g2", 0, (0.0, 1.0), 0.0)],
            Vector2::zeros(),
        );
        let mut settings = Settings::default();
        settings.events.enabled = false;
        World::new(model, State { q: vec![0.0, 0.0], qd: vec![0.0, 0.0], t: 0.0 }, settings)
    }

    /// Lanes fed the inputs of a run stay in lockstep with it: the lane of the
    /// run's own algorithm equals it bit for bit, the others take the same steps
    /// and part (Platt sinks below the floor, figure 2; Right does not).
    #[test]
    fn lanes_step_in_lockstep_on_the_same_inputs() {
        let mut main = wedge();
        let h = 1e-3;
        let mut lanes: Vec<Lane> =
            Algorithm::ALL.iter().map(|&a| Lane::fork(&main, Method::event_driven(a), h, &[])).collect();
        let mut log = InputLog::default();
        let mut rec = Recorder::new(&main, h);
        let mut seen = 0;
        for step in 0..200u64 {
            let springs = if (50..120).contains(&step) {
                vec![Spring { body: 0, target: (0.5, 0.2), at: (0.0, 0.0) }]
            } else {
                vec![]
            };
            if step == 150 {
                main.model.bodies[0].force = Vector2::new(1.0, -3.0);
            }
            rec.observe(&main, h, &springs, &[], &mut log);
            input::apply_springs(&mut main, &springs);
            main.step(h);
            for lane in &mut lanes {
                for (_, i) in &log.entries[seen..] {
                    lane.give(i);
                }
                lane.step();
            }
            seen = log.entries.len();
            for lane in &lanes {
                assert_eq!(lane.world.steps, main.steps);
            }
            let right = lanes.iter().find(|l| l.method() == Method::event_driven(Algorithm::Right)).unwrap();
            assert_eq!(right.world.state_hash(), main.state_hash(), "step {step}");
        }
        let platt = &lanes[0];
        let right = &lanes[2];
        assert!(platt.max_penetration > 1e-6, "Platt sinks: {}", platt.max_penetration);
        assert!(right.max_penetration < 1e-12, "Right holds: {}", right.max_penetration);
        assert!(platt.distance(&right.world) > 0.0);
    }

    /// A time-stepping lane keeps its scheme when its source switches the
    /// algorithm (a settings input that says event-driven), and takes
    /// Moreau–Jean's steps: on the wedge it holds the particle on the floor
    /// as Right does (no penetration), by velocity problems.
    #[test]
    fn a_time_stepping_lane_keeps_its_scheme_through_settings_inputs() {
        let main = wedge();
        let h = 1e-3;
        let mut lane = Lane::fork(&main, Method::TIME_STEPPING, h, &[]);
        assert_eq!(lane.method().label(), "Time-stepping");
        let mut platt = main.settings.clone();
        platt.algorithm = Algorithm::Platt;
        for step in 0..100 {
            if step == 40 {
                lane.give(&Input::Settings(platt.clone()));
            }
            lane.step();
            assert_eq!(lane.method(), Method::TIME_STEPPING, "step {step}");
        }
        assert!(lane.world.settings.events.enabled == platt.events.enabled, "the rest of the settings is given");
        assert!(lane.max_penetration < 1e-12, "{}", lane.max_penetration);
        let report = lane.report.as_ref().expect("stepped");
        assert!(report.traces.iter().any(|t| t.time_step.is_some()), "its steps are velocity problems");
    }
}
