//! The world: a model, its state, the solver settings, and `World::step(h)`.
//!
//! One step of length `h`:
//!
//! 1. assemble eq. (6) at `(q, q̇)` with Baumgarte's `d` (eq. 5);
//! 2. let the selected algorithm choose `F⁺` and solve for `q̈` and `λ`;
//! 3. integrate with `q̈` held over the step (see [`Integrator`]);
//! 4. if event handling is on and an inactive inequality ends violated, rewind to
//!    the first activation inside the step, resolve the impact and go on with the
//!    rest of the step ([`crate::events`]); touching contacts that approach get
//!    their impact before step 1;
//! 5. let the algorithm update `F⁺` for the next step (Algorithms 1–2).
//!
//! The engine takes its state explicitly and knows nothing of any app; a
//! [`Snapshot`] taken at a step boundary and restored reproduces the run bit for bit.

use serde::{Deserialize, Serialize};

use crate::active_set::{ActiveSet, SolveContext, Tolerances};
use crate::choice::Algorithm;
use crate::contacts::ConstraintKey;
use crate::events::{self, Event, EventSettings};
use crate::kkt::{ContactProblem, KktSolution};
use crate::model::{Model, State};
use crate::trace::Trace;

/// How a step advances `(q, q̇)` with `q̈` held constant over it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Integrator {
    /// Semi-implicit (symplectic) Euler: `q̇⁺ = q̇ + h q̈`, `q⁺ = q + h q̇⁺`.
    /// The default: it keeps the energy of oscillations bounded, and it is the
    /// usual choice of the papers this lab follows.
    #[default]
    SemiImplicitEuler,
    /// The exact flight under a constant `q̈`: `q⁺ = q + h q̇ + ½ h² q̈`,
    /// `q̇⁺ = q̇ + h q̈`. Exact for free fall, so impact times match the analytic ones.
    ConstantAcceleration,
}

impl Integrator {
    /// The state reached after `s` seconds with `q̈` held constant.
    pub fn advance(self, state: &State, qdd: &[f64], s: f64) -> State {
        let qd: Vec<f64> = state.qd.iter().zip(qdd).map(|(v, a)| v + s * a).collect();
        let q = match self {
            Integrator::SemiImplicitEuler => state.q.iter().zip(&qd).map(|(x, v)| x + s * v).collect(),
            Integrator::ConstantAcceleration => {
                state.q.iter().zip(&state.qd).zip(qdd).map(|((x, v), a)| x + s * v + 0.5 * s * s * a).collect()
            }
        };
        State { q, qd, t: state.t + s }
    }
}

/// Everything that decides how a step is computed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    pub algorithm: Algorithm,
    /// Baumgarte's time constant τ of eq. (5), in seconds.
    pub tau: f64,
    pub tol: Tolerances,
    pub integrator: Integrator,
    pub events: EventSettings,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            algorithm: Algorithm::Right,
            tau: 0.01,
            tol: Tolerances::default(),
            integrator: Integrator::default(),
            events: EventSettings::default(),
        }
    }
}

/// Past these a step is reported as diverged: no scene of the lab moves a body
/// faster than [`DIVERGED_SPEED`] or violates a constraint by [`DIVERGED_VIOLATION`].
pub const DIVERGED_SPEED: f64 = 1e4;
/// See [`DIVERGED_SPEED`] (m).
pub const DIVERGED_VIOLATION: f64 = 10.0;

/// Whether a step produced a state worth going on from.
#[derive(Clone, Debug, PartialEq)]
pub enum StepStatus {
    Ok,
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
    /// `g_k(q)` at the end of the step.
    pub g: Vec<f64>,
    /// `max(0, −g_k)` over inequalities and `|g_k|` over equalities, at the end.
    pub max_violation: f64,
    /// Smallest `λ_k` among handled inequalities (`None` when none is handled).
    pub min_lambda: Option<f64>,
    /// Solves of eq. (6) in the step (all sub-steps).
    pub solves: usize,
    pub kinetic_energy: f64,
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
}

impl World {
    pub fn new(model: Model, state: State, settings: Settings) -> Self {
        let active_set = ActiveSet::new(model.constraints.len());
        World { model, state, settings, active_set, steps: 0 }
    }

    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            state: self.state.clone(),
            active_set: self.active_set.clone(),
            steps: self.steps,
            contact_keys: self.model.contacts.as_ref().map(|g| g.keys.clone()),
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
    }

    /// Makes rows of the generated contacts near enough to matter in a step of
    /// `h` ([`crate::contacts`]), carrying `F⁺` over by key.
    fn refresh_contacts(&mut self, h: f64) {
        let Some(generator) = &self.model.contacts else { return };
        let vmax = (0..self.model.bodies.len())
            .filter(|&b| self.model.bodies[b].is_dynamic())
            .map(|b| self.model.velocity(b, &self.state).norm())
            .fold(0.0, f64::max);
        let margin = generator.margin.max(4.0 * h * vmax);
        let keep: Vec<ConstraintKey> = (0..self.active_set.handled.len())
            .filter(|&k| self.active_set.handled[k])
            .filter_map(|k| self.model.key(k))
            .collect();
        let keys = generator.candidates(&self.model.bodies, &self.state, margin, &keep);
        if let Some(remap) = self.model.set_contact_rows(keys) {
            self.active_set.handled = remap.apply(&self.active_set.handled, false);
        }
    }

    /// Active inequalities at the current state (see [`crate::algorithm`]), and
    /// speculative ones ([`World::speculative`]), whose `d_k` becomes the one that
    /// lands them on `g_k = 0` at the end of the step instead of Baumgarte's
    /// (semi-implicit Euler, `g⁺ ≈ g + h v + h² (J q̈ + ½ J̇q̇)`, and then the
    /// normal velocity is `−(g − tol/2)/h`, about zero: a plastic landing):
    ///
    /// ```text
    /// d_k = −(g_k − g⁺ + h J_k q̇)/h² − ½ J̇_k q̇,   g⁺ = tol/2 from apart, clamp(g, tol/4, tol/2) touching
    /// ```
    fn active_flags(&self, problem: &mut ContactProblem, h: f64) -> Vec<bool> {
        let tol = self.settings.tol;
        let qd = &self.state.qd;
        let free = if self.settings.events.enabled { problem.accelerations(&[]) } else { Vec::new() };
        (0..problem.rows.len())
            .map(|k| {
                if problem.kinds[k] != crate::ConstraintKind::Inequality {
                    return false;
                }
                let r = &problem.rows[k];
                let v = r.row.dot(qd);
                let a_free = if free.is_empty() { 0.0 } else { r.row.dot(&free) + r.jd_qd };
                if r.g >= -tol.active && self.speculative(r.g, v, a_free, h) {
                    // Aim a little short of contact (half a tolerance from apart;
                    // a touching one is held where it is, at least a quarter
                    // tolerance out): the prediction is linear in h, and the
                    // curvature it leaves out must not end the step inside.
                    let target = if r.g > tol.active { 0.5 * tol.active } else { r.g.clamp(0.0, 0.5 * tol.active) };
                    let gap = r.g - target + h * v;
                    problem.d[k] = -gap / (h * h) - 0.5 * r.jd_qd;
                    return true;
                }
                r.g < -tol.active || (r.g <= tol.active && v <= tol.separating)
            })
            .collect()
    }

    /// A speculative contact (after Catto's speculative contacts): an inequality
    /// with gap `g ≥ 0`, normal velocity `v` and free gap acceleration `a_free`
    /// that moves slowly (`−v ≤ 10 · min_impact_speed`, 1 cm/s by default) and
    /// either touches and approaches (`v < −1e-9`: Baumgarte's correction would let
    /// it sink by about `v τ`; this one stops it within the step), or is near
    /// enough to close within the step
    /// `h` under the free acceleration plus the one contact forces may add
    /// (bounded by `A = 100 m/s²`, about ten g):
    ///
    /// ```text
    /// g + h min(v, 0) + h² (min(a_free, 0) − A) < tol
    /// ```
    ///
    /// It enters the solve with the `d_k` that keeps `g ≥ 0` at the end of the
    /// step, and the solver, not an event and a rewind, stops it if it closes: a
    /// plastic landing (a rebound slower than one step's flight cannot be resolved
    /// anyway). Neighbours in a pile a micrometre apart, pushed together by the
    /// contact forces of the step, no longer cross and rewind every step (apart
    /// rows for Exact only: Right cannot release them). Faster
    /// approaches stay events with restitution ([`crate::events`]). Only with
    /// events on, the semi-implicit Euler step, and for Right and Exact: the
    /// paper's bare algorithms and Platt's persistent `F⁺` see Baumgarte alone.
    pub(crate) fn speculative(&self, g: f64, v: f64, a_free: f64, h: f64) -> bool {
        let (tol, ev) = (self.settings.tol, &self.settings.events);
        // The constant-acceleration flight cannot both land and stop within a
        // step (it would leave at −v): it keeps events.
        let landing = self.settings.integrator == Integrator::SemiImplicitEuler;
        // Platt's algorithms keep their F⁺ and Baumgarte's d as the paper has them.
        let ours = matches!(self.settings.algorithm, Algorithm::Right | Algorithm::Exact);
        if !ev.enabled || !landing || !ours || h <= 0.0 || -v > SPECULATIVE_SPEED * ev.min_impact_speed {
            return false;
        }
        if g <= tol.active {
            v < -RESTING_SPEED
        } else if self.settings.algorithm == Algorithm::Right {
            // Add-only, Right would hold an apart row it added with λ < 0, pulling
            // two balls together: on a pile of 100 the energy grew without bound.
            false
        } else {
            g + h * v.min(0.0) + h * h * (a_free.min(0.0) - SPECULATIVE_ACCELERATION) < tol.active
        }
    }

    /// The `d_k` that lands a held row (see [`World::step`]) where it is (at
    /// most half the active tolerance out) at the end of a step of `h`, instead of
    /// Baumgarte's: with `gap = g − target + h v`, semi-implicit Euler needs
    /// `J q̈ = −gap/h² − ½ J̇q̇`, the constant-acceleration flight `−2 gap/h² − J̇q̇`.
    fn landing(&self, r: &crate::constraint::RowEval, h: f64) -> f64 {
        let target = r.g.clamp(0.0, 0.5 * self.settings.tol.active);
        let gap = r.g - target + h * r.row.dot(&self.state.qd);
        match self.settings.integrator {
            Integrator::SemiImplicitEuler => -gap / (h * h) - 0.5 * r.jd_qd,
            Integrator::ConstantAcceleration => -2.0 * gap / (h * h) - r.jd_qd,
        }
    }

    /// Advances the world by `h` seconds. Always finishes, never yields NaN: a
    /// non-finite result leaves the state where it was and says so in the report.
    pub fn step(&mut self, h: f64) -> StepReport {
        self.refresh_contacts(h);
        let algorithm = self.settings.algorithm;
        let solver = algorithm.solver();
        let mut remaining = h;
        let mut traces = Vec::new();
        let mut events = Vec::new();
        let (mut solves, mut kkt_residual, mut comp) = (0, 0.0_f64, 0.0_f64);
        // Separating rows that come back within the first event sample: held active.
        let mut hold: Vec<usize> = Vec::new();
        let (problem, sol, g) = loop {
            // Touching contacts that approach get their impact before the solve.
            if let Some(event) = events::touching_impact(self, &events, remaining) {
                events.push(event);
            }
            let mut problem = ContactProblem::new(&self.model, &self.state, self.settings.tau);
            let mut active = self.active_flags(&mut problem, remaining);
            for &k in &hold {
                active[k] = true;
                problem.d[k] = self.landing(&problem.rows[k], remaining);
            }
            let tau = self.settings.tau;
            let warm_slack = self.settings.tol.active / (tau * tau);
            let ctx = SolveContext { problem: &problem, active: &active, tol: self.settings.tol, warm_slack };
            let mut trace = crate::trace::Trace::new(algorithm);
            let sol = solver.solve(&ctx, &mut self.active_set, &mut trace);
            solves += trace.solves();
            kkt_residual = kkt_residual.max(sol.residual);
            comp = comp.max(complementarity_error(&problem, &active, &sol));
            if !sol.qdd.iter().all(|v| v.is_finite()) {
                traces.push(trace);
                break (problem, sol, self.model.constraint_values(&self.state.q));
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
            // Step 4: a rewind to the first activation inside the step.
            let held = hold.len();
            let event = events::first_activation(self, &active, &sol.qdd, &g_trial, remaining, &events, &mut hold);
            if event.is_none() && hold.len() > held {
                // Solve again with those rows held (this solve's q̈ is not used).
                traces.push(trace);
                continue;
            }
            if let Some(event) = event {
                remaining -= event.dt;
                let g_now = self.model.constraint_values(&self.state.q);
                solver.after_step(&ctx, &sol, &g_now, &mut self.active_set, &mut trace);
                traces.push(trace);
                events.push(event);
                continue;
            }
            self.state = trial;
            flush_tiny(&mut self.state.qd);
            solver.after_step(&ctx, &sol, &g_trial, &mut self.active_set, &mut trace);
            traces.push(trace);
            break (problem, sol, g_trial);
        };
        self.steps += 1;
        let max_violation = g.iter().zip(&problem.kinds).map(|(g, k)| k.violation(*g)).fold(0.0, f64::max);
        let handled: Vec<bool> = (0..g.len())
            .map(|k| self.active_set.handled[k] || problem.kinds[k] == crate::ConstraintKind::Equality)
            .collect();
        let last = traces.last().and_then(|t| t.iterations.last());
        let last_handled: Vec<bool> = match last {
            Some(it) => (0..g.len()).map(|k| it.handled.contains(&k)).collect(),
            None => handled,
        };
        let min_lambda = (0..g.len())
            .filter(|&k| last_handled[k] && problem.kinds[k] == crate::ConstraintKind::Inequality)
            .map(|k| sol.lambda[k])
            .min_by(f64::total_cmp);
        let status = self.divergence(&g, &problem.kinds, max_violation, sol.qdd.iter().all(|v| v.is_finite()), h);
        StepReport {
            status,
            t: self.state.t,
            h,
            algorithm,
            tendency: (0..g.len()).map(|k| problem.tendency(k, &sol.qdd)).collect(),
            handled: last_handled,
            lambda: sol.lambda,
            qdd: sol.qdd,
            g,
            max_violation,
            min_lambda,
            solves,
            kinetic_energy: self.model.kinetic_energy(&self.state),
            kkt_residual,
            complementarity_error: comp,
            events,
            traces,
        }
    }
}

impl World {
    /// Settings known to be unstable or unsafe for this world now, one sentence
    /// each (empty: none), for a step `h` and Baumgarte's `tau`:
    ///
    /// * `τ < h`: eq. (5) under an explicit step corrects more than the error
    ///   (the velocity term alone multiplies it by `1 − 2h/τ`, past −1);
    /// * `h v > r`: the fastest body moves farther than the smallest ball's
    ///   radius in a step, and a contact may be crossed between two step ends
    ///   unseen (events look at the ends).
    pub fn stability_warnings(&self, tau: f64, h: f64) -> Vec<String> {
        let mut out = Vec::new();
        if tau < h {
            out.push(format!(
                "τ = {tau:e} s is below h = {h:e} s: Baumgarte's correction overshoots with an explicit step and \
                 the run may diverge; use τ ≥ h (τ ≈ 10 h is the usual choice)"
            ));
        }
        let bodies = &self.model.bodies;
        let dynamic = (0..bodies.len()).filter(|&b| bodies[b].is_dynamic());
        let fastest = dynamic.clone().map(|b| self.model.velocity(b, &self.state).norm()).fold(0.0, f64::max);
        let smallest = dynamic.map(|b| bodies[b].radius).filter(|r| *r > 0.0).fold(f64::INFINITY, f64::min);
        if smallest.is_finite() && h * fastest > smallest {
            out.push(format!(
                "h = {h:e} s lets the fastest body ({fastest:.3} m/s) move {:.3e} m in a step, more than the \
                 smallest radius ({smallest:e} m): a contact may be crossed unseen; use h ≤ {:.1e} s",
                h * fastest,
                smallest / fastest
            ));
        }
        out
    }

    /// [`StepStatus`] of the step that just ended (see [`DIVERGED_SPEED`]).
    fn divergence(
        &self,
        g: &[f64],
        kinds: &[crate::ConstraintKind],
        max_violation: f64,
        solved: bool,
        h: f64,
    ) -> StepStatus {
        let speed =
            self.state.qd.iter().fold(0.0_f64, |m, v| if v.is_finite() { m.max(v.abs()) } else { f64::INFINITY });
        let finite =
            solved && self.state.q.iter().all(|v| v.is_finite()) && speed.is_finite() && self.state.t.is_finite();
        if finite && speed <= DIVERGED_SPEED && max_violation <= DIVERGED_VIOLATION {
            return StepStatus::Ok;
        }
        let violation = |k: usize| if kinds[k] == crate::ConstraintKind::Inequality { -g[k] } else { g[k].abs() };
        let constraint =
            (0..g.len()).filter(|&k| violation(k).is_finite()).max_by(|&a, &b| violation(a).total_cmp(&violation(b)));
        let what = if !finite {
            "no finite state (the step was not taken)".to_string()
        } else if speed > DIVERGED_SPEED {
            format!("a speed of {speed:.3e} m/s, past {DIVERGED_SPEED:e}")
        } else {
            format!("a violation of {max_violation:.3e} m, past {DIVERGED_VIOLATION} m")
        };
        let tau = self.settings.tau;
        let why = if tau < h {
            format!("τ = {tau:e} s is below h = {h:e} s: Baumgarte's correction overshoots; use τ ≥ h")
        } else {
            format!("h = {h:e} s may be too large for this scene, or a force too strong; try a smaller h or a larger τ")
        };
        StepStatus::Diverged { constraint, cause: format!("{what}; {why}") }
    }
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

/// Approaches slower than this many `min_impact_speed` are speculative contacts.
const SPECULATIVE_SPEED: f64 = 10.0;
/// Below this approach speed (m/s) a touching contact rests: Baumgarte keeps it
/// (it could sink by `v τ`, 1e-11 m at most).
pub(crate) const RESTING_SPEED: f64 = 1e-9;
/// The contact acceleration a speculative band allows for, in m/s².
const SPECULATIVE_ACCELERATION: f64 = 100.0;
