//! Rewinding to the first activation of an inequality inside a step.
//!
//! A trial step from `(q, q̇)` over `h` with `q̈` held constant follows the
//! integrator's path `q(s)`, `s ∈ [0, h]` ([`crate::Integrator::advance`]). If an
//! inequality that was inactive at the start (apart, or touching but separating)
//! ends violated (`g_k(q(h)) < 0`), the step went too far. For each such `k` the
//! function `s ↦ g_k(q(s))` changes sign on `(0, h]` (for a separating contact,
//! after the first of 32 samples where it is apart); a bracketing root finder (Illinois,
//! the regula falsi that halves the retained end's value, with a bisection
//! fallback; a separating one that dips inside before any sample sees it apart
//! is held active and the step solved again) locates its root to `|g| ≤ 1e-12` or a bracket `≤ 1e-13 s`, keeping
//! the end where `g ≥ 0` so nothing penetrates. The earliest root `s*` is the
//! event: the whole state is rewound to the start, advanced by `s*`, the impact
//! is resolved ([`crate::impulse`]), and the step goes on with `h − s*`.
//!
//! Touching contacts that approach at the start of a step (they drifted into the
//! tolerance band, or a scene starts them so) get their impact right away
//! (`touching_impact`): without it, the acceleration-level solve would let them
//! sink by about `v τ` before Baumgarte pushes back.
//!
//! **Gaps that are not monotone** (issue 36). On a body that turns a gap
//! can enter and leave zero between the two ends of a step: a corner
//! crossing a small disc, a spinning rod's end crossing a post. Such rows
//! are searched by halving the step where a bound allows a dip: every gap
//! is a distance of a point to a feature, so `|ġ| ≤ L = Σ_b (|v_b| + |ω_b|
//! R_b) + |ω| g` (the larger of each end's speeds), and a piece `[a, b]`
//! apart at both ends cannot reach zero unless `g(a) + g(b) < L (b − a)`
//! (conservative advancement's bound, pieces of `h/1024` at the finest,
//! earliest first). A crossing row on such a body is checked the same way
//! for an earlier dip before its root, and a landing the solve held that
//! bends below the surface by the step's end lands at its root instead.
//! A ball's rows keep the end's sign (their gaps bend only by `v²/r`).
//!
//! Zeno guards: at most `max_per_step` events in one step (after that the rest of
//! the step is taken and Baumgarte mends what is left); an approach speed below
//! `min_impact_speed` makes the impact plastic (`e = 0`); and so does a second
//! impact on the same constraint within one step: a rebound shorter than the
//! step is below the time resolution of the simulation, and letting it bounce
//! again makes stacks cascade into dozens of micro-impacts a step.
//!
//! Both searches take what they read explicitly: the [`Model`], the
//! [`Settings`], the [`State`] they rewind and give the impact to, and for the
//! rewind the trial step (`q̈`, the active rows, `g` at its end). The impulses
//! are [`crate::impulse`]'s, from the model, the state's velocities and the
//! impact parameters of the settings. [`EventSettings`] is
//! re-exported here, where earlier versions defined it.

use crate::constraint::RowEval;
use crate::impulse::{self, Impact, ImpulseMode};
use crate::model::{Model, State};
pub use crate::settings::EventSettings;
use crate::settings::Settings;
use crate::speculative::speculative;
use crate::units::RESTING_SPEED;

/// One rewind to a first activation and the impact resolved there.
#[derive(Clone, Debug, PartialEq)]
pub struct Event {
    /// Time of the activation.
    pub t: f64,
    /// Offset of the activation from the start of the sub-step.
    pub dt: f64,
    /// The constraints that activated (reached `g = 0`) at `t`.
    pub constraints: Vec<usize>,
    /// `(k, −J_k q̇⁻)` for each contact approaching at `t` (positive: approaching).
    pub approach_speed: Vec<(usize, f64)>,
    /// `(k, P_k)`: the impulse on each contact, in N·s.
    pub impulse: Vec<(usize, f64)>,
    /// `(k, P_t)`: the friction impulse on each contact with `μ > 0`, in N·s.
    pub friction: Vec<(usize, f64)>,
    /// Painlevé's impact without collision: no contact closed, but a contact
    /// slid with no consistent force ([`crate::friction`]); these are its rows.
    pub without_collision: Vec<usize>,
    pub mode: ImpulseMode,
    /// Kinetic energy the impact took out, `½ q̇⁻ᵀ M q̇⁻ − ½ q̇⁺ᵀ M q̇⁺`, in J
    /// (0 for an elastic impact; negative would mean the law created energy).
    pub energy_lost: f64,
}

/// A trial step from the current state: `q̈` held over `h`, the rows its solve
/// held active, and `g_k` at its end.
pub(crate) struct TrialStep<'a> {
    /// `active[k]`: row `k` was active in the solve (an event is a row that was not).
    pub active: &'a [bool],
    /// The rows of the solve, evaluated at the start of the trial step.
    pub rows: &'a [RowEval],
    /// `q̈` of the solve, held over the step.
    pub qdd: &'a [f64],
    /// `g_k(q(h))` at the end of the trial step.
    pub g_trial: &'a [f64],
    /// The length of the trial step.
    pub h: f64,
}

/// If the trial step crosses an inactive inequality, rewinds `state` to the first
/// activation, resolves the impact and returns the event; otherwise `None`.
/// A row touching and separating at the start whose path dips inside before any
/// sample finds it apart (a hop shorter than `h/32`) has no activation to rewind
/// to: it is pushed on `hold`, and the step is solved again with it active.
pub(crate) fn first_activation(
    model: &Model,
    settings: &Settings,
    state: &mut State,
    trial: &TrialStep,
    earlier: &[Event],
    hold: &mut Vec<usize>,
) -> Option<Event> {
    let TrialStep { active, rows, qdd, g_trial, h } = *trial;
    let held_before = hold.len();
    let ev = &settings.events;
    if !ev.enabled || earlier.len() >= ev.max_per_step {
        return None;
    }
    let start = state.clone();
    let integrator = settings.integrator;
    let g0 = model.constraint_values(&start.q);
    let tol = settings.tol;
    let roots = RootTol { g: settings.units.length(G_TOL), t: settings.units.time(T_TOL) };
    let g_tol = roots.g;
    // Inactive at the start and not violated: apart, or touching and separating.
    let mut crossing: Vec<usize> = (0..g_trial.len())
        .filter(|&k| model.constraints[k].is_inequality() && !active[k] && g0[k] >= -tol.active && g_trial[k] < 0.0)
        .collect();
    let g_at = |k: usize, s: f64| -> f64 {
        let st = integrator.advance(&start, qdd, s);
        model.constraints[k].eval(&model.bodies, &st.q, &st.qd).g
    };
    // Rows on bodies that turn, apart at both ends, that may dip between.
    let sweep = Sweep::new(model, &start, qdd, h);
    let dips: Vec<(usize, f64)> = (0..g_trial.len())
        .filter(|&k| model.constraints[k].is_inequality() && !active[k] && g0[k] > g_tol && g_trial[k] >= 0.0)
        .filter_map(|k| {
            let speed = sweep.speed(model, k, g0[k].max(g_trial[k]))?;
            dip(|s| g_at(k, s), (0.0, g0[k]), (h, g_trial[k]), speed, roots).map(|s| (k, s))
        })
        .collect();
    // A landing held by the solve on a body that turns may bend below the
    // surface by the step's end (a spin of 200 rad/s does by 2e-5 m in a
    // millisecond): it lands at its root instead, where the impact stops it.
    let resting = settings.units.speed(RESTING_SPEED);
    let landing: Vec<usize> = (0..rows.len())
        .filter(|&k| active[k] && model.constraints[k].is_inequality() && g0[k] >= 0.0)
        .filter(|&k| rows[k].row.dot(&start.qd) < -resting)
        .collect();
    // (Held apart at the start, approaching or not: a spin brings it back.)
    let bent: Vec<usize> = (0..rows.len())
        .filter(|&k| active[k] && model.constraints[k].is_inequality() && g0[k] > 0.5 * tol.active)
        .filter(|&k| sweep.speed(model, k, g0[k]).is_some())
        .collect();
    let mut first = dips.iter().map(|d| d.1).fold(f64::INFINITY, f64::min);
    crossing.extend(dips.iter().map(|d| d.0));
    let dipped = |k: &usize| dips.iter().any(|d| d.0 == *k);
    for &k in crossing.iter().filter(|k| !dipped(k)) {
        let (mut a, mut fa) = (0.0, g0[k]);
        if fa <= g_tol {
            // Touching and separating (just bounced): bracket from the first sample
            // where it is apart. None apart: it never left, nothing to locate.
            let apart = (1..=SAMPLES)
                .map(|i| h * i as f64 / SAMPLES as f64)
                .map(|s| (s, g_at(k, s)))
                .find(|(_, g)| *g > g_tol || *g < 0.0);
            match apart {
                Some((s, g)) if g > g_tol => (a, fa) = (s, g),
                // Held only when it would end clearly inside: within half the
                // active tolerance Baumgarte mends it (a settled pile has many).
                _ => {
                    // From the surface or from round-off below it (a resting
                    // row Baumgarte leaves at −1e-14 m).
                    if g0[k] >= -tol.active && g_trial[k] < -0.5 * tol.active && !hold.contains(&k) {
                        hold.push(k);
                    }
                    continue;
                }
            }
        }
        let mut s = root(|s| g_at(k, s), a, fa, h, g_trial[k], roots);
        // On a body that turns the gap may have dipped inside earlier.
        if let Some(speed) = sweep.speed(model, k, fa) {
            let at = (s, g_at(k, s));
            if let Some(earlier) = dip(|s| g_at(k, s), (a, fa), at, speed, roots) {
                s = earlier;
            }
        }
        first = first.min(s);
    }
    // A row newly held takes precedence over a rewind to another row: the step
    // is solved again with it held, and the other row's crossing is located on
    // that solve's path (rewound first, the hold's landing would aim at g = 0
    // from wherever the rewind left the row, and launch it).
    if hold.len() > held_before {
        return None;
    }
    // A row the solve held (a speculative landing) lands at the end of the
    // step on a path that may dip below the surface on the way (by up to
    // `|v| h / 4`); a cut at `first` would leave it there. If it is inside at
    // `first` by more than half the active tolerance, the event is where it reaches the surface instead: it is
    // touching and approaching there, and the impact stops it.
    let dip = if first.is_finite() {
        dipping(&landing, &g0, first, -0.5 * tol.active, roots, g_at)
    } else {
        dipping(&bent, &g0, h, -0.5 * tol.active, roots, g_at)
    };
    match dip {
        Some((s, _)) => first = s,
        None if !first.is_finite() => return None,
        None => {}
    }
    let at: State = integrator.advance(&start, qdd, first);
    let g_now = model.constraint_values(&at.q);
    // Every crossing constraint that is (numerically) touching at `first` activates.
    let mut constraints: Vec<usize> = crossing.iter().copied().filter(|&k| g_now[k] <= settings.tol.active).collect();
    constraints.extend(dip.map(|(_, k)| k));
    *state = at;
    Some(impact_event(model, settings, state, earlier, (&g_now, h - first), first, constraints))
}

/// A bound on how fast the gaps of rows on bodies that turn change over a
/// trial step (issue 36, finding 3): a corner–disc distance, or a corner
/// against the line of a turning edge, is not monotone over a step, and a
/// corner can enter a small disc and leave it between two samples. Each
/// body's material points move at most at `|v| + |ω| R` (`R` its reach),
/// the larger of the two ends (a speed held under a constant `q̈` is convex
/// in time).
struct Sweep {
    /// `(speed, spin)` bounds of each body; zeros for a fixed one.
    bodies: Vec<(f64, f64)>,
}

impl Sweep {
    fn new(model: &Model, start: &State, qdd: &[f64], h: f64) -> Sweep {
        let qd_end: Vec<f64> = start.qd.iter().zip(qdd).map(|(v, a)| v + h * a).collect();
        let bodies = model
            .bodies
            .iter()
            .map(|b| {
                if !b.is_dynamic() {
                    return (0.0, 0.0);
                }
                let (_, w0) = b.angle(&start.q, &start.qd);
                let (_, w1) = b.angle(&start.q, &qd_end);
                let spin = w0.abs().max(w1.abs());
                let v = b.kinematics(&start.q, &start.qd).v.norm().max(b.kinematics(&start.q, &qd_end).v.norm());
                (v + spin * b.reach(), spin)
            })
            .collect();
        Sweep { bodies }
    }

    /// A bound `L` on `|ġ_k|` over the step for a row on a body that turns
    /// (`None` for the others: a ball's rows are left to the end's sign), its
    /// gap at most `gap` from the bodies' reach. Every gap of a row is a
    /// distance of a point to a feature (a line, an end, a disc), which
    /// changes no faster than the point moves relative to the feature's
    /// body: `|ġ| ≤ Σ_b (|v_b| + |ω_b| R_b) + |ω| gap`.
    fn speed(&self, model: &Model, k: usize, gap: f64) -> Option<f64> {
        let turns = |b: &usize| model.bodies[*b].shape().is_some();
        let ids = model.constraints[k].bodies();
        if !ids.iter().any(turns) {
            return None;
        }
        Some(ids.iter().map(|b| self.bodies[*b].0 + self.bodies[*b].1 * gap.abs()).sum())
    }
}

/// Halvings of a trial step searched for a dip (pieces of `h/1024` at most).
const DIP_DEPTH: u32 = 10;

/// The first time `g` is below 0 between `(a, g(a))`, apart, and `(b,
/// g(b))`, with `|ġ| ≤ speed`. A piece apart at both ends cannot reach 0
/// unless `g(a) + g(b) < speed (b − a)`, so only such pieces are halved; a
/// piece that ends inside holds a root, and is halved too, for the
/// earliest. Pieces are taken earliest first, down to [`DIP_DEPTH`] (a dip
/// missed there is shallower than `speed h / 2¹¹`); the root of the first
/// bracket is then located.
fn dip(g: impl Fn(f64) -> f64, a: (f64, f64), b: (f64, f64), speed: f64, roots: RootTol) -> Option<f64> {
    let mut pieces = vec![(a, b, 0)];
    while let Some(((a, ga), (b, gb), depth)) = pieces.pop() {
        let bracket = gb < 0.0;
        if bracket && depth >= DIP_DEPTH {
            return Some(root(&g, a, ga, b, gb, roots));
        }
        if !bracket && (ga + gb >= speed * (b - a) || depth >= DIP_DEPTH) {
            continue;
        }
        let m = 0.5 * (a + b);
        let gm = g(m);
        if gm >= 0.0 {
            pieces.push(((m, gm), (b, gb), depth + 1));
        }
        pieces.push(((a, ga), (m, gm), depth + 1));
    }
    None
}

/// The earliest time before `cut` where one of the `landing` rows (held by the
/// solve, at or above the surface at the start, approaching) that is below
/// `below` at `cut` (deeper than Baumgarte mends at once: half the active
/// tolerance) reaches `g = 0`, and that row.
fn dipping(
    landing: &[usize],
    g0: &[f64],
    cut: f64,
    below: f64,
    roots: RootTol,
    g_at: impl Fn(usize, f64) -> f64,
) -> Option<(f64, usize)> {
    landing
        .iter()
        .filter_map(|&k| {
            let at_cut = g_at(k, cut);
            (at_cut < below).then(|| (root(|s| g_at(k, s), 0.0, g0[k], cut, at_cut, roots), k))
        })
        .min_by(|a, b| a.0.total_cmp(&b.0))
}

/// The impulse of Painlevé's impact without collision for the contacts
/// `sliding` that have no consistent force ([`crate::friction`]).
pub(crate) fn without_collision(model: &Model, settings: &Settings, state: &mut State, sliding: &[usize]) -> Event {
    let g = model.constraint_values(&state.q);
    let before = model.kinetic_energy(state);
    let result = impulse::without_collision(model, state, &impact(settings), &g);
    Event {
        t: state.t,
        dt: 0.0,
        constraints: sliding.to_vec(),
        approach_speed: Vec::new(),
        impulse: result.impulse,
        friction: result.friction,
        without_collision: sliding.to_vec(),
        mode: settings.events.impulses,
        energy_lost: before - model.kinetic_energy(state),
    }
}

/// Resolves the impact of touching inequalities (`g_k ≤ tol`) that approach
/// (`J_k q̇ < −v_tol`): the ones that drifted into contact within the tolerance,
/// or started a scene in contact with a velocity. Returns the event, if any.
/// Slow ones are left to the solve as speculative contacts ([`speculative`]).
pub(crate) fn touching_impact(
    model: &Model,
    settings: &Settings,
    state: &mut State,
    earlier: &[Event],
    h: f64,
) -> Option<Event> {
    if !settings.events.enabled || earlier.len() >= settings.events.max_per_step {
        return None;
    }
    let (q, qd) = (&state.q, &state.qd);
    let rows = model.eval_constraints(q, qd);
    let approaching: Vec<usize> = (0..rows.len())
        .filter(|&k| {
            let v = rows[k].row.dot(qd);
            model.constraints[k].is_inequality()
                && rows[k].g <= settings.tol.active
                && v < -settings.units.speed(RESTING_SPEED)
                && !speculative(settings, rows[k].g, v, 0.0, h)
        })
        .collect();
    if approaching.is_empty() {
        return None;
    }
    let g: Vec<f64> = rows.iter().map(|r| r.g).collect();
    Some(impact_event(model, settings, state, earlier, (&g, h), 0.0, approaching))
}

/// The impact on `constraints` at `state` (`q̇` changed: [`impulse::resolve`]
/// with `g` the values there and `left` of the step), as the event of the
/// step that reached it after `dt`, with the energy it took.
fn impact_event(
    model: &Model,
    settings: &Settings,
    state: &mut State,
    earlier: &[Event],
    (g, left): (&[f64], f64),
    dt: f64,
    constraints: Vec<usize>,
) -> Event {
    let before = model.kinetic_energy(state);
    let result = impulse::resolve(model, state, &impact(settings), g, &hit_before(model, earlier), left);
    Event {
        t: state.t,
        dt,
        constraints,
        approach_speed: result.approach_speed,
        impulse: result.impulse,
        friction: result.friction,
        without_collision: Vec::new(),
        mode: settings.events.impulses,
        energy_lost: before - model.kinetic_energy(state),
    }
}

/// What an impact reads of the settings: `τ`, the active tolerance, the
/// restitution, the minimum impact speed and the impulse mode.
fn impact(settings: &Settings) -> Impact {
    let ev = &settings.events;
    Impact {
        tau: settings.tau,
        active: settings.tol.active,
        restitution: ev.restitution,
        min_impact_speed: ev.min_impact_speed,
        mode: ev.impulses,
        units: settings.units,
    }
}

/// `hit[k]`: constraint `k` took an impulse in an earlier event of this step.
fn hit_before(model: &Model, earlier: &[Event]) -> Vec<bool> {
    let mut hit = vec![false; model.constraints.len()];
    for (k, _) in earlier.iter().flat_map(|e| &e.impulse) {
        hit[*k] = true;
    }
    hit
}

/// A root is located when `0 ≤ g ≤ G_TOL` (length units, [`crate::units::Units`]) ...
pub(crate) const G_TOL: f64 = 1e-12;
/// ... or when its bracket is narrower than `T_TOL` (time units).
const T_TOL: f64 = 1e-13;

/// When [`illinois`] stops: `0 ≤ g ≤ g` or a bracket narrower than `t`.
#[derive(Clone, Copy)]
struct RootTol {
    g: f64,
    t: f64,
}
/// Samples of a trial step searched for the moment a separating contact is apart.
const SAMPLES: usize = 32;

/// Root of `f` in `[a, b]` with `f(a) > 0 > f(b)`, by the Illinois method with a
/// bisection fallback. Returns a point where `f ≥ 0` (the left end of the final bracket).
pub fn illinois(f: impl Fn(f64) -> f64, a: f64, fa: f64, b: f64, fb: f64) -> f64 {
    root(f, a, fa, b, fb, RootTol { g: G_TOL, t: T_TOL })
}

/// [`illinois`] with the tolerances `tol` (the scene's units).
fn root(f: impl Fn(f64) -> f64, mut a: f64, mut fa: f64, mut b: f64, mut fb: f64, tol: RootTol) -> f64 {
    let mut side = 0i8;
    for i in 0..200 {
        if b - a <= tol.t || fa <= tol.g {
            break;
        }
        let width = b - a;
        let mut c = (a * fb - b * fa) / (fb - fa);
        // Fallback: bisection when the secant point is unusable or every 8th step.
        if !c.is_finite() || c <= a || c >= b || i % 8 == 7 {
            c = 0.5 * (a + b);
        }
        let fc = f(c);
        if fc >= 0.0 {
            a = c;
            fa = fc;
            if side == 1 {
                fb *= 0.5;
            }
            side = 1;
        } else {
            b = c;
            fb = fc;
            if side == -1 {
                fa *= 0.5;
            }
            side = -1;
        }
        debug_assert!(b - a <= width);
    }
    a
}

#[cfg(test)]
mod tests {
    use super::illinois;

    #[test]
    fn illinois_finds_roots_and_stays_on_the_allowed_side() {
        type Case = (fn(f64) -> f64, f64);
        let cases: [Case; 3] =
            [(|s| 0.3 - s, 0.3), (|s| 1.0 - (s * 4.0).exp() / 2.0, (2.0f64).ln() / 4.0), (|s| (0.1 - s).powi(3), 0.1)];
        for (f, root) in cases {
            let r = illinois(f, 0.0, f(0.0), 1.0, f(1.0));
            assert!(f(r) >= 0.0);
            assert!((r - root).abs() < 1e-4 || f(r) < 1e-12, "root {r} vs {root}");
            assert!(r <= root + 1e-13);
        }
    }
}
