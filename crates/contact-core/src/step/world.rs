//! The world: a model, its state, the solver settings, and `World::step(h)`.
//!
//! One step of length `h`:
//!
//! 1. assemble eq. (6) at `(q, q̇)` with Baumgarte's `d` (eq. 5) ([`crate::kkt`]);
//!    mark the active inequalities, and give the speculative ones the `d_k` that
//!    lands them at the end of the step ([`crate::speculative`]);
//! 2. let the selected algorithm choose `F⁺` and solve for `q̈` and `λ`
//!    ([`Algorithm::solver`], with a [`SolveContext`] and the world's [`ActiveSet`]);
//! 3. integrate with `q̈` held over the step (see [`Integrator`]);
//! 4. if event handling is on and an inactive inequality ends violated, rewind to
//!    the first activation inside the step, resolve the impact and go on with the
//!    rest of the step ([`crate::events`], impulses in [`crate::impulse`]);
//!    touching contacts that approach get their impact before step 1;
//! 5. let the algorithm update `F⁺` for the next step (Algorithms 1–2).
//!
//! Each phase takes the parts of the world it reads — the [`Model`], the
//! [`Settings`], the [`State`] it may change — and none of them knows the
//! [`World`]: this module only sequences them.
//!
//! The engine takes its state explicitly and knows nothing of any app; a
//! [`Snapshot`] taken at a step boundary and restored reproduces the run bit for bit.
//! [`Integrator`] and [`Settings`] are re-exported here, where earlier versions
//! defined them.

use crate::active_set::{ActiveSet, SolveContext};
use crate::choice::Algorithm;
use crate::constraint::ConstraintKind;
use crate::contacts::ConstraintKey;
use crate::events::{self, Event, TrialStep};
use crate::kkt::{ContactProblem, KktSolution};
use crate::model::{Model, State};
pub use crate::settings::{Integrator, Scheme, Settings};
use crate::sleep::Sleep;
use crate::speculative::{active_flags, horizon, landing};
use crate::trace::Trace;

/// Past these a step is reported as diverged: no scene of the lab moves a body
/// faster than [`DIVERGED_SPEED`] or violates a constraint by [`DIVERGED_VIOLATION`]
/// (in the scene's units, [`crate::units::Units`]: m/s and m by default).
pub const DIVERGED_SPEED: f64 = 1e4;
/// See [`DIVERGED_SPEED`] (length units).
pub const DIVERGED_VIOLATION: f64 = 10.0;

/// Whether a step produced a state worth going on from.
#[derive(Clone, Debug, PartialEq)]
pub enum StepStatus {
    Ok,
    /// A solve of the step stopped without a complementary answer (Exact at
    /// its pivot cap, or on constraints that cannot all hold): the step was
    /// taken with the last answer, and the run should stop here.
    Unsolved {
        /// What stopped, where (the island's rows) and at what cap, in a sentence.
        cause: String,
    },
    /// No finite state (the state was left as it was before the step), or a
    /// speed past [`DIVERGED_SPEED`] or a violation past [`DIVERGED_VIOLATION`].
    Diverged {
        /// The constraint violated most at the end of the step, if any.
        constraint: Option<usize>,
        /// What went wrong and the likely cause, in a sentence.
        cause: String,
    },
}

/// What happened during one call of [`World::step`].
#[derive(Clone, Debug)]
pub struct StepReport {
    /// [`StepStatus::Ok`], or why the run should stop here.
    pub status: StepStatus,
    /// Time at the end of the step.
    pub t: f64,
    pub h: f64,
    pub algorithm: Algorithm,
    /// `handled[k]`: constraint `k` was in `E ∪ F⁺` for the last solve of the step.
    pub handled: Vec<bool>,
    /// `λ_k` of the last solve (0 when not handled).
    pub lambda: Vec<f64>,
    /// `J_k q̈ − d_k` of the last solve, for every constraint.
    pub tendency: Vec<f64>,
    /// `q̈` of the last solve.
    pub qdd: Vec<f64>,
    /// `λ_t` of the last solve: the friction force of each contact with
    /// `μ > 0` along its tangent ([`crate::tangent`]); empty without friction.
    pub friction: Vec<f64>,
    /// The energy friction took out during the step between impacts,
    /// `−Σ_k h λ_{t,k} v_{t,k}⁺ ≥ 0`, in J (impacts' losses are in `events`).
    pub friction_work: f64,
    /// `g_k(q)` at the end of the step.
    pub g: Vec<f64>,
    /// `max(0, −g_k)` over inequalities and `|g_k|` over equalities, at the end.
    pub max_violation: f64,
    /// Smallest `λ_k` among handled inequalities (`None` when none is handled).
    pub min_lambda: Option<f64>,
    /// Solves of eq. (6) in the step (all sub-steps).
    pub solves: usize,
    pub kinetic_energy: f64,
    /// [`Model::total_energy`] after the step, in J.
    pub total_energy: f64,
    /// Work of the user's forces (the mouse springs) over the step, in J.
    pub user_work: f64,
    /// Largest `|J_S q̈ − d_S|` over the handled rows of every solve.
    pub kkt_residual: f64,
    /// `max_k |min(λ_k, J_k q̈ − d_k)|` over active inequalities: 0 exactly when
    /// `λ ≥ 0`, `J q̈ − d ≥ 0` and their product is 0.
    pub complementarity_error: f64,
    /// Rewinds to a first activation and the impacts resolved there.
    pub events: Vec<Event>,
    /// One trace per sub-step (one unless events split the step).
    pub traces: Vec<Trace>,
}

/// A state to come back to: restoring it reproduces the run bit for bit.
#[derive(Clone, Debug, PartialEq)]
pub struct Snapshot {
    pub state: State,
    pub active_set: ActiveSet,
    pub steps: u64,
    /// The keys of the generated contact rows then ([`crate::contacts`]).
    pub contact_keys: Option<Vec<ConstraintKey>>,
    /// Which islands sleep, and the velocities they keep aside ([`crate::sleep`]).
    pub sleep: Sleep,
}

/// A model, its state and the settings of the solver.
#[derive(Clone, Debug)]
pub struct World {
    pub model: Model,
    pub state: State,
    pub settings: Settings,
    pub active_set: ActiveSet,
    /// Number of steps taken.
    pub steps: u64,
    /// Sleeping islands ([`crate::sleep`]; nothing sleeps unless `settings.sleep` is on).
    pub sleep: Sleep,
}

impl World {
    pub fn new(model: Model, state: State, settings: Settings) -> Self {
        let active_set = ActiveSet::new(model.constraints.len());
        World { model, state, settings, active_set, steps: 0, sleep: Sleep::default() }
    }

    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            state: self.state.clone(),
            active_set: self.active_set.clone(),
            steps: self.steps,
            contact_keys: self.model.contacts.as_ref().map(|g| g.keys.clone()),
            sleep: self.sleep.clone(),
        }
    }

    /// A hash of the exact bits of `q`, `q̇`, `t` and the handled set: equal
    /// hashes, same trajectory (FNV-1a, stable across platforms and Rust versions).
    pub fn state_hash(&self) -> u64 {
        let s = &self.state;
        let bits = s.q.iter().chain(&s.qd).chain([&s.t]).map(|v| v.to_bits());
        let flags = self.active_set.handled.iter().map(|&h| u64::from(h));
        bits.chain(flags).fold(0xcbf2_9ce4_8422_2325, |h, w| {
            w.to_le_bytes().iter().fold(h, |h, b| (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3))
        })
    }

    pub fn restore(&mut self, s: &Snapshot) {
        if let Some(keys) = &s.contact_keys {
            self.model.set_contact_rows(keys.clone());
        }
        self.state = s.state.clone();
        self.active_set = s.active_set.clone();
        self.steps = s.steps;
        self.sleep = s.sleep.clone();
    }

    /// Makes rows of the generated contacts near enough to matter in a step of
    /// `h` ([`crate::contacts`]), carrying `F⁺` over by key.
    fn refresh_contacts(&mut self, h: f64) {
        let Some(generator) = &self.model.contacts else { return };
        // The fastest material point, corners turning included (issue 36:
        // a rod spinning at 200 rad/s with its centroid still swept through
        // a post with no row when only the centroid's speed counted).
        let vmax = (0..self.model.bodies.len())
            .filter(|&b| self.model.bodies[b].is_dynamic())
            .map(|b| self.model.bodies[b].sweep_speed(&self.state.q, &self.state.qd))
            .fold(0.0, f64::max);
        let margin = generator.margin.max(4.0 * h * vmax);
        let keep: Vec<ConstraintKey> = (0..self.active_set.handled.len())
            .filter(|&k| self.active_set.handled[k])
            .filter_map(|k| self.model.key(k))
            .collect();
        let keys = generator.candidates(&self.model.bodies, &self.state, margin, &keep);
        if let Some(remap) = self.model.set_contact_rows(keys) {
            self.active_set.handled = remap.apply(&self.active_set.handled, false);
            if !self.active_set.impulse.is_empty() {
                self.active_set.impulse = remap.apply(&self.active_set.impulse, 0.0);
            }
            if !self.active_set.friction.is_empty() {
                self.active_set.friction = remap.apply(&self.active_set.friction, 0.0);
            }
            if !self.active_set.rolling.is_empty() {
                self.active_set.rolling = remap.apply(&self.active_set.rolling, 0.0);
            }
        }
    }

    /// Advances the world by `h` seconds. Always finishes, never yields NaN: a
    /// non-finite result leaves the state where it was and says so in the report.
    pub fn step(&mut self, h: f64) -> StepReport {
        self.refresh_contacts(h);
        if self.settings.scheme == Scheme::TimeStepping {
            return self.time_step(h);
        }
        // Rolling resistance lives at the velocity level (the box cone of
        // [`crate::cone_edges`]); the paper's scheme solves forces.
        if self.model.has_rolling() {
            let cause = "rolling resistance is solved by time-stepping only (the velocity level, Moreau–Jean): \
                         switch the scheme to time-stepping, or set μ_r to 0";
            return self.idle_report(h, StepStatus::Unsolved { cause: cause.into() });
        }
        // Time-stepping's impulses are its own warm start, not this scheme's.
        self.active_set.impulse.clear();
        self.active_set.friction.clear();
        self.active_set.rolling.clear();
        let asleep = self.sleep.begin_step(&self.settings.sleep, &self.model, &mut self.state);
        if asleep.any
            && self.model.bodies.iter().enumerate().all(|(b, body)| !body.is_dynamic() || self.sleep.is_asleep(b))
        {
            return self.quiet_step(h);
        }
        // The points the user's forces start from (the mouse's work), when any acts.
        let pushed = self.model.bodies.iter().any(|b| b.is_pushed());
        let start = pushed.then(|| self.state.clone());
        // The energy guard with friction (below), on piles: on a small scene
        // Baumgarte's drift is a larger share of a small energy (Painlevé's
        // rod under Exact: +4.7e-6 J in one step at t = 0.766 s, of 1e-4 J).
        let guarded = self.model.has_friction() && self.model.constraints.len() > FRICTION_PILE_ROWS;
        let energy0 = guarded.then(|| (self.model.total_energy(&self.state), self.model.kinetic_energy(&self.state)));
        let algorithm = self.settings.algorithm;
        let solver = algorithm.solver();
        let mut remaining = h;
        let mut traces = Vec::new();
        let mut events = Vec::new();
        let (mut solves, mut kkt_residual, mut comp) = (0, 0.0_f64, 0.0_f64);
        let mut friction_work = 0.0;
        // Separating rows that come back within the first event sample: held active.
        let mut hold: Vec<usize> = Vec::new();
        // The handled flags of sleeping rows, put back after the step.
        let kept = asleep.kept_flags(&self.active_set.handled);
        let (problem, sol, g) = loop {
            // Touching contacts that approach get their impact before the solve.
            if let Some(event) =
                events::touching_impact(&self.model, &self.settings, &mut self.state, &events, remaining)
            {
                events.push(event);
            }
            let mut problem = ContactProblem::new(&self.model, &self.state, self.settings.tau);
            problem.h = remaining;
            let mut active = active_flags(&self.settings, &self.state.qd, &mut problem, remaining, h);
            hold.retain(|&k| !asleep.any || !asleep.rows[k]);
            for &k in &hold {
                active[k] = true;
                problem.d[k] = landing(&self.settings, &self.state.qd, &problem.rows[k], horizon(remaining, h), h);
            }
            asleep.set_aside(&mut active, &mut self.active_set.handled);
            let ctx = SolveContext { problem: &problem, active: &active, tol: self.settings.tol };
            let mut trace = Trace::new(algorithm);
            let mut sol = solver.solve(&ctx, &mut self.active_set, &mut trace);
            asleep.hold_still(&mut sol.qdd);
            solves += trace.solves();
            kkt_residual = kkt_residual.max(sol.residual);
            comp = comp.max(complementarity_error(&problem, &active, &sol));
            if !sol.qdd.iter().all(|v| v.is_finite()) {
                traces.push(trace);
                break (problem, sol, self.model.constraint_values(&self.state.q));
            }
            // Painlevé: contacts that slide with no consistent force take the
            // impulse of an impact without collision, once a step, and the
            // step is solved again from there ([`crate::friction`]).
            if !sol.inconsistent.is_empty() && !events.iter().any(|e: &Event| !e.without_collision.is_empty()) {
                traces.push(trace);
                events.push(events::without_collision(&self.model, &self.settings, &mut self.state, &sol.inconsistent));
                continue;
            }
            let trial = self.settings.integrator.advance(&self.state, &sol.qdd, remaining);
            // A finite q̈ can still overflow the state (a step of 1e308 s): not taken.
            let overflow = !trial.q.iter().chain(&trial.qd).chain([&trial.t]).all(|v| v.is_finite());
            if overflow {
                traces.push(trace);
                let g = self.model.constraint_values(&self.state.q);
                break (problem, KktSolution { qdd: vec![f64::NAN; sol.qdd.len()], ..sol }, g);
            }
            let g_trial = self.model.constraint_values(&trial.q);
            // What friction takes out over `s` of this sub-step: its constant
            // force λ_t against the slip, which runs linearly from v_t = J_t q̇
            // to v_t⁺ = v_t + s (J_t q̈ + J̇_t q̇): −s Σ λ_t (v_t + v_t⁺)/2, the
            // exact change of ½ q̇ᵀ M q̇ it makes (the slip at the end alone
            // missed ½ s² λ_t J_t q̈ a sub-step: a ball sliding to rest lost
            // 2 J and the sum said 1.997 J).
            let dissipated = |s: f64, qd: &[f64]| -> f64 {
                sol.friction
                    .iter()
                    .zip(&problem.tangents)
                    .filter_map(|(l, t)| {
                        t.as_ref().map(|t| -s * l * (t.row.dot(qd) + 0.5 * s * (t.row.dot(&sol.qdd) + t.jd_qd)))
                    })
                    .sum::<f64>()
            };
            let qd_start = self.state.qd.clone();
            // Step 4: a rewind to the first activation inside the step.
            let held = hold.len();
            // Sleeping rows are watched by no event (they do not move).
            let watched = asleep.watched(&active);
            let search =
                TrialStep { active: &watched, rows: &problem.rows, qdd: &sol.qdd, g_trial: &g_trial, h: remaining };
            let event =
                events::first_activation(&self.model, &self.settings, &mut self.state, &search, &events, &mut hold);
            if event.is_none() && hold.len() > held {
                // Solve again with those rows held (this solve's q̈ is not used).
                traces.push(trace);
                continue;
            }
            if let Some(event) = event {
                friction_work += dissipated(event.dt, &qd_start);
                // Holds were aimed at the end of the step from its old start:
                // after the rewind they are decided afresh.
                hold.clear();
                remaining -= event.dt;
                let g_now = self.model.constraint_values(&self.state.q);
                solver.after_step(&ctx, &sol, &g_now, &mut self.active_set, &mut trace);
                traces.push(trace);
                events.push(event);
                continue;
            }
            friction_work += dissipated(remaining, &qd_start);
            self.state = trial;
            flush_tiny(&mut self.state.qd);
            solver.after_step(&ctx, &sol, &g_trial, &mut self.active_set, &mut trace);
            traces.push(trace);
            break (problem, sol, g_trial);
        };
        asleep.restore_flags(&kept, &mut self.active_set.handled);
        self.sleep.end_step(&self.settings.sleep, &self.model, &self.state, h);
        self.steps += 1;
        let max_violation = max_violation(&g, &problem.kinds);
        let handled: Vec<bool> =
            (0..g.len()).map(|k| self.active_set.handled[k] || problem.kinds[k] == ConstraintKind::Equality).collect();
        let last = traces.last().and_then(|t| t.iterations.last());
        let last_handled: Vec<bool> = match last {
            Some(it) => (0..g.len()).map(|k| it.handled.contains(&k)).collect(),
            None => handled,
        };
        let min_lambda = (0..g.len())
            .filter(|&k| last_handled[k] && problem.kinds[k] == ConstraintKind::Inequality)
            .map(|k| sol.lambda[k])
            .min_by(f64::total_cmp);
        let status = match self.divergence(&g, &problem.kinds, max_violation, sol.qdd.iter().all(|v| v.is_finite()), h)
        {
            StepStatus::Ok => unsolved(&traces).unwrap_or(StepStatus::Ok),
            diverged => diverged,
        };
        let user_work = start.map_or(0.0, |s| self.model.user_work(&s, &self.state));
        let (e1, k1) = (self.model.total_energy(&self.state), self.model.kinetic_energy(&self.state));
        // With friction every force does negative work and no impact makes
        // energy: a step whose energy rises past round-off and Baumgarte's
        // drift made it from a wrong answer (issue 46: the 100-ball pile with
        // μ = 0.3 went from 37.6 J to 380 J in one step, reported Ok).
        let status = match (status, energy0) {
            (StepStatus::Ok, Some((e0, k0))) => {
                let rise = e1 - e0 - user_work;
                if rise > ENERGY_GUARD * (k0 + k1) + 1e-6 * e0.abs() + 1e-12 {
                    StepStatus::Diverged {
                        constraint: None,
                        cause: format!(
                            "the step made {rise:.3e} J with friction acting (from {e0:.6} J to {e1:.6} J): an answer \
                             of its Coulomb problems that no law gives; time-stepping solves them at the velocity \
                             level, where an answer always exists"
                        ),
                    }
                } else {
                    StepStatus::Ok
                }
            }
            (status, _) => status,
        };
        StepReport {
            status,
            t: self.state.t,
            h,
            algorithm,
            tendency: (0..g.len()).map(|k| problem.tendency(k, &sol.qdd)).collect(),
            handled: last_handled,
            lambda: sol.lambda,
            qdd: sol.qdd,
            friction: sol.friction,
            friction_work,
            g,
            max_violation,
            min_lambda,
            solves,
            kinetic_energy: k1,
            total_energy: e1,
            user_work,
            kkt_residual,
            complementarity_error: comp,
            events,
            traces,
        }
    }
}

impl World {
    /// A Moreau–Jean step ([`crate::timestep`]): `λ` in the report is the
    /// step's mean force `P/h`, `q̈` the mean `(q̇⁺ − q̇)/h`, the tendency the
    /// velocity problem's slack `J q̇⁺ + c`; one trace, no events. Sleeping
    /// islands are not put to sleep under it (every body steps).
    fn time_step(&mut self, h: f64) -> StepReport {
        let before = self.state.clone();
        let pushed = self.model.bodies.iter().any(|b| b.is_pushed());
        // The last step's impulses on the rows it held (none after an
        // event-driven step: the flags alone, which start at zero impulse).
        let handled = &self.active_set.handled;
        let held = |p: &[f64]| -> Vec<f64> {
            (0..handled.len()).map(|k| if handled[k] { p.get(k).copied().unwrap_or(0.0) } else { 0.0 }).collect()
        };
        let (warm, warm_t, warm_m) =
            (held(&self.active_set.impulse), held(&self.active_set.friction), held(&self.active_set.rolling));
        let out = crate::timestep::step(&self.model, &self.settings, &mut self.state, &warm, &warm_t, &warm_m, h);
        let finite = self.state.q.iter().chain(&self.state.qd).all(|v| v.is_finite());
        if !finite {
            self.state = before.clone();
        }
        flush_tiny(&mut self.state.qd);
        let m = out.impulse.len();
        let kinds = &out.problem.kinds;
        for ((handled, held), kind) in self.active_set.handled.iter_mut().zip(&out.held).zip(kinds).take(m) {
            *handled = *held && *kind == ConstraintKind::Inequality;
        }
        self.active_set.impulse = (0..m).map(|k| if out.held[k] { out.impulse[k] } else { 0.0 }).collect();
        self.active_set.friction =
            (0..out.friction.len()).map(|k| if out.held[k] { out.friction[k] } else { 0.0 }).collect();
        self.active_set.rolling =
            (0..out.rolling.len()).map(|k| if out.held[k] { out.rolling[k] } else { 0.0 }).collect();
        self.steps += 1;
        // The step's own `g` at its end; the start's where it was not taken.
        let g = if finite { out.g } else { self.model.constraint_values(&self.state.q) };
        let max_violation = max_violation(&g, kinds);
        let handled: Vec<bool> = (0..m).map(|k| kinds[k] == ConstraintKind::Equality || out.impulse[k] > 0.0).collect();
        let lambda: Vec<f64> = out.impulse.iter().map(|p| p / h).collect();
        let qdd: Vec<f64> = self.state.qd.iter().zip(&before.qd).map(|(a, b)| (a - b) / h).collect();
        let min_lambda = (0..m)
            .filter(|&k| handled[k] && kinds[k] == ConstraintKind::Inequality)
            .map(|k| lambda[k])
            .min_by(f64::total_cmp);
        let complementarity_error = out
            .rows
            .iter()
            .filter(|&&k| kinds[k] == ConstraintKind::Inequality)
            .map(|&k| (out.impulse[k] / h).min(out.slack[k] / h).abs())
            .fold(0.0, f64::max);
        let mut trace = Trace::new(Algorithm::Exact);
        let islands = out.islands;
        trace.time_step = Some(format!(
            "one velocity problem on {} rows in {} island{} (v⁺ = v_free + M⁻¹JᵀP, 0 ≤ P ⊥ J v⁺ + g/h ≥ 0){}{}",
            out.rows.len(),
            islands,
            if islands == 1 { "" } else { "s" },
            if out.bounced > 0 { format!("; Newton's restitution on {} row(s)", out.bounced) } else { String::new() },
            if out.solves > 1 {
                format!("; {} solves (rows its answer would close joined)", out.solves)
            } else {
                String::new()
            },
        ));
        trace.capped = out.capped;
        let taking: Vec<usize> = (0..m).filter(|&k| handled[k]).collect();
        let detail = taking.len() <= Trace::DETAIL;
        trace.iterations.push(crate::trace::Iteration {
            lambda: if detail { taking.iter().map(|&k| (k, out.impulse[k])).collect() } else { Vec::new() },
            handled: taking,
            ..Default::default()
        });
        let status = if finite {
            match self.divergence(&g, kinds, max_violation, true, h) {
                StepStatus::Ok => unsolved(std::slice::from_ref(&trace)).unwrap_or(StepStatus::Ok),
                diverged => diverged,
            }
        } else {
            self.divergence(&g, kinds, max_violation, false, h)
        };
        StepReport {
            status,
            t: self.state.t,
            h,
            algorithm: Algorithm::Exact,
            handled,
            lambda,
            tendency: out.slack,
            qdd,
            friction: out.friction.iter().map(|p| p / h).collect(),
            friction_work: out.friction_work,
            g,
            max_violation,
            min_lambda,
            solves: out.solves,
            kinetic_energy: self.model.kinetic_energy(&self.state),
            total_energy: self.model.total_energy(&self.state),
            user_work: if pushed { self.model.user_work(&before, &self.state) } else { 0.0 },
            kkt_residual: 0.0,
            complementarity_error,
            events: Vec::new(),
            traces: vec![trace],
        }
    }

    /// Whether row `k` acts on a sleeping body ([`crate::sleep`]).
    pub fn row_asleep(&self, k: usize) -> bool {
        self.model.constraints.get(k).is_some_and(|c| c.bodies().iter().any(|&b| self.sleep.is_asleep(b)))
    }

    /// A step where every body sleeps: nothing moves, only the clock. No row
    /// is solved (λ = 0, `q̈ = 0`); handled flags stay as they were.
    fn quiet_step(&mut self, h: f64) -> StepReport {
        self.state.t += h;
        self.steps += 1;
        self.idle_report(h, StepStatus::Ok)
    }

    /// The report of a step that moved nothing, with `status`.
    fn idle_report(&self, h: f64, status: StepStatus) -> StepReport {
        let g = self.model.constraint_values(&self.state.q);
        let kinds: Vec<ConstraintKind> = self.model.constraints.iter().map(|c| c.kind).collect();
        let max_violation = max_violation(&g, &kinds);
        let m = g.len();
        StepReport {
            status,
            t: self.state.t,
            h,
            algorithm: self.settings.algorithm,
            handled: (0..m).map(|k| self.active_set.handled[k] || kinds[k] == ConstraintKind::Equality).collect(),
            lambda: vec![0.0; m],
            tendency: vec![0.0; m],
            qdd: vec![0.0; self.model.ndofs()],
            friction: Vec::new(),
            friction_work: 0.0,
            g,
            max_violation,
            min_lambda: None,
            solves: 0,
            kinetic_energy: 0.0,
            total_energy: self.model.total_energy(&self.state),
            user_work: 0.0,
            kkt_residual: 0.0,
            complementarity_error: 0.0,
            events: Vec::new(),
            traces: vec![Trace::new(self.settings.algorithm)],
        }
    }

    /// Settings known to be unstable or unsafe for this world now, one sentence
    /// each (empty: none), for a step `h` and Baumgarte's `tau`:
    ///
    /// * `τ` at or below the stable bound of eq. (5) for the integrator
    ///   ([`Integrator::min_tau_over_h`]: `1.207 h` for semi-implicit Euler,
    ///   `h` for the constant-acceleration step);
    /// * `h (|v| + |ω| R) > r`: the fastest material point (a turning
    ///   body's corners included) moves farther in a step than the smallest
    ///   radius of a ball or a disc (fixed ones too: a peg) or inradius of a
    ///   shape, so a contact may be crossed between two samples.
    pub fn stability_warnings(&self, tau: f64, h: f64) -> Vec<String> {
        let mut out = Vec::new();
        if let Some(warning) = self.settings.integrator.tau_warning(tau, h) {
            out.push(warning);
        }
        let bodies = &self.model.bodies;
        let (q, qd) = (&self.state.q, &self.state.qd);
        // The fastest material point (a spin counts at its corners) ...
        let fastest = (0..bodies.len())
            .filter(|&b| bodies[b].is_dynamic())
            .map(|b| (b, bodies[b].sweep_speed(q, qd)))
            .max_by(|x, y| x.1.total_cmp(&y.1));
        // ... against the smallest thing it may cross: a ball's or a disc's
        // radius, fixed ones included (a peg), or a shape's inradius.
        let size = |b: &crate::body::Body| match b.shape() {
            Some(shape) => shape.inradius(),
            None => b.radius,
        };
        let smallest = (0..bodies.len())
            .map(|b| (b, size(&bodies[b])))
            .filter(|(_, r)| *r > 0.0)
            .min_by(|x, y| x.1.total_cmp(&y.1));
        if let (Some((f, speed)), Some((s, r))) = (fastest, smallest)
            && h * speed > r
        {
            let spin = bodies[f].angle(q, qd).1;
            let how = if spin.abs() * bodies[f].reach() > bodies[f].kinematics(q, qd).v.norm() {
                format!("`{}` spins at {spin:.3} rad/s: its corners move at {speed:.3} m/s", bodies[f].name)
            } else {
                format!("the fastest body, `{}`, moves at {speed:.3} m/s", bodies[f].name)
            };
            out.push(format!(
                "h = {h:e} s: {how}, {:.3e} m in a step, more than `{}`'s size ({r:e} m): a contact may be crossed \
                 between two samples; use h ≤ {:.1e} s",
                h * speed,
                bodies[s].name,
                r / speed
            ));
        }
        out
    }

    /// [`StepStatus`] of the step that just ended (see [`DIVERGED_SPEED`]).
    fn divergence(&self, g: &[f64], kinds: &[ConstraintKind], max_violation: f64, solved: bool, h: f64) -> StepStatus {
        let speed =
            self.state.qd.iter().fold(0.0_f64, |m, v| if v.is_finite() { m.max(v.abs()) } else { f64::INFINITY });
        let finite =
            solved && self.state.q.iter().all(|v| v.is_finite()) && speed.is_finite() && self.state.t.is_finite();
        let units = self.settings.units;
        let (speed_bound, violation_bound) = (units.speed(DIVERGED_SPEED), units.length(DIVERGED_VIOLATION));
        if finite && speed <= speed_bound && max_violation <= violation_bound {
            return StepStatus::Ok;
        }
        let violation = |k: usize| if kinds[k] == ConstraintKind::Inequality { -g[k] } else { g[k].abs() };
        let constraint =
            (0..g.len()).filter(|&k| violation(k).is_finite()).max_by(|&a, &b| violation(a).total_cmp(&violation(b)));
        let what = if !finite {
            "no finite state (the step was not taken)".to_string()
        } else if speed > speed_bound {
            format!("a speed of {speed:.3e} m/s, past {speed_bound:e}")
        } else {
            format!("a violation of {max_violation:.3e} m, past {violation_bound} m")
        };
        let tau = self.settings.tau;
        let why = if self.settings.scheme == Scheme::TimeStepping {
            // No Baumgarte term under Moreau–Jean: τ plays no part.
            format!(
                "h = {h:e} s may be too large for this scene under time-stepping (Moreau–Jean, whose \
                 targets are gaps over h: τ plays no part), or a force too strong; try a smaller h"
            )
        } else if let Some(warning) = self.settings.integrator.tau_warning(tau, h) {
            warning
        } else if self.model.has_friction() && g.len() > FRICTION_PILE_ROWS {
            // Issue 46: the 100-ball pile with μ = 0.3 diverged at h = 1 ms
            // (1.3e4 m/s at t = 0.393 s), where a smaller h does not help.
            format!(
                "with friction on {} rows, the event-driven scheme's Coulomb problems (at the acceleration \
                 level, and its impacts) can miss on a pile; time-stepping solves them at the velocity level, \
                 where an answer always exists (a smaller h is not the remedy here)",
                g.len()
            )
        } else {
            format!("h = {h:e} s may be too large for this scene, or a force too strong; try a smaller h or a larger τ")
        };
        StepStatus::Diverged { constraint, cause: format!("{what}; {why}") }
    }
}

/// The share of the step's kinetic energy (before plus after) by which its
/// total energy may rise with friction acting (Baumgarte's drift and
/// round-off are far below; the pile's wrong answers were ten times above).
const ENERGY_GUARD: f64 = 0.1;

/// Rows past which a diverged event-driven step with friction is named a
/// pile's (its cause is then not `h`).
const FRICTION_PILE_ROWS: usize = 20;

/// [`StepStatus::Unsolved`] when a solve of the step stopped short.
fn unsolved(traces: &[Trace]) -> Option<StepStatus> {
    let cap = traces.iter().find_map(|t| t.capped)?;
    Some(StepStatus::Unsolved { cause: format!("{}; the step kept its last answer", cap.sentence()) })
}

impl StepStatus {
    /// Why the run should stop after this step (`None`: it goes on).
    pub fn stop_cause(&self) -> Option<&str> {
        match self {
            StepStatus::Ok => None,
            StepStatus::Diverged { cause, .. } | StepStatus::Unsolved { cause } => Some(cause),
        }
    }
}

/// `max(0, −g_k)` over inequalities and `|g_k|` over equalities.
fn max_violation(g: &[f64], kinds: &[ConstraintKind]) -> f64 {
    g.iter().zip(kinds).map(|(g, k)| k.violation(*g)).fold(0.0, f64::max)
}

/// `max_k |min(λ_k, J_k q̈ − d_k)|` over the active inequalities.
pub fn complementarity_error(problem: &ContactProblem, active: &[bool], sol: &KktSolution) -> f64 {
    (0..active.len())
        .filter(|&k| active[k])
        .map(|k| sol.lambda[k].min(problem.tendency(k, &sol.qdd)).abs())
        .fold(0.0, f64::max)
}

/// Velocities below this (in m/s or 1/s) are zero. A damped body's velocity
/// decays geometrically; past ~1e-154 its square (the kinetic energy, the
/// damping force times a step) is a subnormal float, and arithmetic on
/// subnormals is ~100× slower: the billiard corner's step took 18 µs at the
/// start of an hour-long soak and 160 µs at its end, balls long at rest.
const TINY_SPEED: f64 = 1e-100;

fn flush_tiny(qd: &mut [f64]) {
    for v in qd {
        if v.abs() < TINY_SPEED {
            *v = 0.0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lcp::{Cap, Stop};

    /// A step any of whose solves stopped short ends with [`StepStatus::Unsolved`],
    /// naming the island and the cap; one whose solves all ended does not.
    #[test]
    fn a_capped_trace_makes_the_step_unsolved() {
        let mut traces = vec![Trace::new(Algorithm::Exact), Trace::new(Algorithm::Exact)];
        assert_eq!(unsolved(&traces), None);
        traces[1].capped = Some(Cap { rows: 812, pivots: 16260, why: Stop::Pivots });
        let status = unsolved(&traces).expect("unsolved");
        let cause = status.stop_cause().expect("a cause").to_string();
        assert!(cause.contains("cap of 16260 pivots on an island of 812 rows"), "{cause}");
        assert_eq!(StepStatus::Ok.stop_cause(), None);
    }
}
