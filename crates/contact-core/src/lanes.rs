//! Compare mode: one state forked into one lane per algorithm, the lanes
//! stepped in lockstep on the same inputs, so the algorithms of the paper
//! (Platt, Algorithm 1; Platt improved, Algorithm 2; Right, Algorithm 3) and
//! the exact complementarity solution part from the same instant.
//!
//! A lane is a [`World`] of its own with its algorithm pinned: it is given every
//! [`Input`] its source is given — the springs (whose force each lane computes
//! from its own state), forces, coordinates, settings other than the algorithm,
//! the step `h` — and takes the same steps. Forking is what a live switch of the
//! algorithm does ([`World::settings`]), so a lane forked from a snapshot is
//! the run started alone from that snapshot with that algorithm, bit for bit.
//!
//! A lane whose step diverges ([`StepStatus::Diverged`]) keeps its last good
//! state and stops; the others go on.

use crate::choice::Algorithm;
use crate::constraint::ConstraintKind;
use crate::input::{self, Input, Spring};
use crate::world::{StepReport, StepStatus, World};

/// One algorithm's run in compare mode.
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
    /// A lane that starts at `world`'s state under `algorithm`, with the step `h`
    /// and the springs acting now.
    pub fn fork(world: &World, algorithm: Algorithm, h: f64, springs: &[Spring]) -> Lane {
        let mut world = world.clone();
        world.settings.algorithm = algorithm;
        Lane { world, springs: springs.to_vec(), h, max_penetration: 0.0, report: None, diverged: None }
    }

    pub fn algorithm(&self) -> Algorithm {
        self.world.settings.algorithm
    }

    /// An input given to the lane's source; the lane keeps its algorithm.
    pub fn give(&mut self, input: &Input) {
        let algorithm = self.algorithm();
        input.apply(&mut self.world, &mut self.springs, &mut self.h);
        self.world.settings.algorithm = algorithm;
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
        let mut lanes: Vec<Lane> = Algorithm::ALL.iter().map(|&a| Lane::fork(&main, a, h, &[])).collect();
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
            let right = lanes.iter().find(|l| l.algorithm() == Algorithm::Right).unwrap();
            assert_eq!(right.world.state_hash(), main.state_hash(), "step {step}");
        }
        let platt = &lanes[0];
        let right = &lanes[2];
        assert!(platt.max_penetration > 1e-6, "Platt sinks: {}", platt.max_penetration);
        assert!(right.max_penetration < 1e-12, "Right holds: {}", right.max_penetration);
        assert!(platt.distance(&right.world) > 0.0);
    }
}
