//! Collisions at the velocity level.
//!
//! When an inequality activates with an approaching velocity (`J_k q̇⁻ < 0`), the
//! acceleration-level algorithms alone let the bodies sink by about `v τ` before
//! Baumgarte pushes them back. So the impact is resolved first, with impulses
//! `P ≥ 0` along the constraint rows:
//!
//! ```text
//! q̇⁺ = q̇⁻ + M⁻¹ Jᵀ P,      v⁺ = J q̇⁺ = v⁻ + A P,      A = J M⁻¹ Jᵀ
//! ```
//!
//! The rows of an impact: the equalities, the *touching* inequalities
//! (`g_k ≤ tol.active`), and, for the sequential mode and the simultaneous
//! mode's plastic pass only, *speculative* inequalities a little apart (`g_k`
//! within twice the distance the impact speed covers in the rest `h` of the
//! step), which may approach but not close within the step,
//! `v⁺_k ≥ −(g_k − tol/2)/h`: in a pile, the ball a micrometre away from the one
//! just hit would otherwise be crossed at once, and the next event rewind to a
//! microsecond later, dozens of times a step.
//!
//! `e_k` is the restitution, 0 (plastic) for contacts that approach slower than
//! the minimum impact speed, that took an impulse earlier in the step, and for
//! sub-step hops: a rebound at `e_k v⁻_k` against the free normal acceleration
//! `a_k = J_k q̈_free + J̇_k q̇ < 0` (what gravity and the forces would do with the
//! equalities held) lands again after `2 e_k v⁻_k / |a_k|`; when that is shorter
//! than what is left of the step, it would land inside the step with no rewind.
//! Such a hop is below the time resolution of the simulation (its height is at
//! most `|a_k| h² / 8`, 1.2e-6 m at h = 1 ms under gravity), so it is plastic.
//!
//! # Simultaneous: Moreau's impact law, island by island
//!
//! The rows of the impact, speculative ones included, are cut wherever
//! `A_ij = 0`: an island is a connected component of the rows linked by a
//! non-zero `A_ij`, directly or through other rows. An island is *hit* when one
//! of its touching rows approaches. Only the hit islands are solved.
//!
//! **Passes of Moreau's law** (J. J. Moreau, 1988), on the equalities and the
//! touching rows of the hit islands that do not separate (a separating row,
//! `v⁻_k > 0`, leaves the pass, as the speculative rows do):
//!
//! ```text
//! v⁺_k + e v⁻_k ≥ 0,   P_k ≥ 0,   P_k (v⁺_k + e v⁻_k) = 0     (touching inequalities)
//! v⁺_k + e v⁻_k = 0                                            (equalities)
//! ```
//!
//! with `v⁻_k` each row's velocity before the pass (`≤ 0` for the rows in it):
//! a resting row (`v⁻_k = 0`) stays at `v⁺_k ≥ 0`. A row that approaches after
//! a pass (a ball that leaves a neighbour, then is caught up) gets the next
//! pass with its own `v⁻` and `e`; a row struck in an earlier pass that
//! approaches again is plastic. Each pass is Moreau's law on its rows, so each
//! is dissipative (below); an impact ends when no touching row approaches.
//! Three touching balls, `e = 0.8`, A at 3 m/s on B while C leaves B at 0.5
//! m/s: A–B first (A 0.3, B 2.7), then B catches C (B 0.72, C 2.48).
//!
//! For the rows of a pass, with `w = q̇⁺ + e q̇⁻` this reads `w/(1+e) = P_K(q̇⁻)`,
//! the projection in the metric `M` on the cone `K = {u : J_eq u = 0, J_t u ≥ 0}`, so
//!
//! ```text
//! q̇⁺ = P_K(q̇⁻) − e P_K°(q̇⁻),     ‖q̇⁺‖²_M = ‖P_K‖²_M + e² ‖P_K°‖²_M ≤ ‖q̇⁻‖²_M
//! ```
//!
//! (`K°` the polar cone; `q̇⁻ = P_K + P_K°`, the two `M`-orthogonal): the kinetic
//! energy cannot grow, and the problem is always feasible (`w = P_K`). **One
//! `e` per island** keeps this guarantee, an island of the pass's rows (a hit
//! island may fall apart without its separating and speculative rows): it takes the smallest
//! restitution of its rows that approach at `min_impact_speed` or faster, and
//! one plastic row among them (hit earlier, a sub-step hop) makes it plastic;
//! an island with none that fast is plastic. Rows that rest, separate or
//! approach slower have no say (a row closing at 0.5 mm/s no longer makes a
//! 3 m/s hit beside it plastic).
//!
//! **The plastic projection** of the velocities on
//! `C = {u : J_eq u = 0, J_t u ≥ 0, J_s u ≥ −(g_s − tol/2)/h}`, a convex set that
//! holds 0 (`g_s > tol`), so it cannot add energy either (`‖P_C(x)‖_M ≤ ‖x‖_M`),
//! runs in two cases. Alone, when every island of the first pass is plastic:
//! Moreau's pass would be the projection on `K`, and `C ⊂ K` is the plastic law
//! with the speculative rows that would close within the step, in one solve
//! (27 % less time on a 300-ball landing, where impulses were 81 % of the
//! time). And as the last resort: when the passes leave an equality moving
//! (Moreau's law gives it `−e v⁻`), or do not settle within 32 passes. A
//! speculative row alone never calls it: its closing is the next event's
//! business, so a ball that bounces off a cushion (e = 0.7, 1.5 m/s) with
//! another 0.3 mm behind it leaves the cushion at 1.05 m/s, and meets the
//! other 0.29 ms later in an impact of its own (0.1575 and 0.8925 m/s).
//!
//! A bead between two stops at one `u` hit at `e = 1` reverses in the first
//! pass and is stopped by the second (the stop it approaches again is
//! plastic): the former law, which asked `v⁺ ≥ 0` of the separating stop, was
//! infeasible there (7.6e7 N·s). On Newton's cradle (rows at rest, `v⁻ = 0`),
//! on the wedge and at the paper's impact times, one pass is the whole law.
//!
//! # Sequential
//!
//! Contact by contact, most approaching first, each a two-body impact with its
//! own `e` (`P_k = −(1 + e) v_k / A_kk`, a two-body Moreau impact, which cannot
//! add energy), until no contact approaches. On a cradle with `e = 1` the
//! velocity is passed down the line: the striker stops and the last ball leaves
//! with its speed. A row may be hit again in one sweep, with its own `e` each
//! time: two balls striking a third from both sides at 3 and 1.5 m/s leave at
//! (−1.5, 0, 3) m/s, and a ball striking two that rest against a wall at 3 m/s
//! leaves at −3 m/s and the two at rest (myPhysicsLab's serial law, its
//! `MultipleCollisionTest` 3_1 and 5_0), the energy kept at `e = 1` (a rule
//! that made every second hit plastic lost 10 % and 67 % of it there). The
//! one sweep that would not end by itself, two stops that oppose each other
//! at one `u` passing the velocity back and forth, is cut where it starts: a
//! row picked right after its own reverse (`A_ij² = A_ii A_jj`) is plastic,
//! and the bead stops. A sweep that reaches the cap of `1000 m` picks (a
//! heavy body on light ones passes on a fraction of its momentum per pick) is
//! finished by the plastic problem on the velocities it reached (`v⁺ ≥ 0`,
//! `ΔP ≥ 0`, complementary), so no row is left approaching and no energy is
//! added.

use serde::{Deserialize, Serialize};

use crate::friction;
use crate::friction_impact;
use crate::kkt::ContactProblem;
use crate::lcp::solve_lcp;
use crate::model::{Model, State};
use crate::schur::SchurGraph;
use crate::units::{RESTING_SPEED, Units};

/// How the impulses of simultaneous contacts are computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum ImpulseMode {
    /// Moreau's impact law on the islands hit at the instant (see the module docs).
    #[default]
    Simultaneous,
    /// Impulses propagated contact by contact until none approaches.
    Sequential,
}

impl ImpulseMode {
    pub fn label(self) -> &'static str {
        match self {
            ImpulseMode::Simultaneous => "simultaneous",
            ImpulseMode::Sequential => "sequential",
        }
    }
}

/// What an impact reads of the step's settings ([`crate::settings`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Impact {
    /// Baumgarte's `τ` of eq. (5): the free accelerations of the sub-step hop
    /// test hold the equalities with it.
    pub tau: f64,
    /// The active tolerance (m): an inequality with `g_k ≤ active` takes part in
    /// the impact; those within the band beyond it are speculative rows.
    pub active: f64,
    /// Default restitution `e` (a constraint may override it).
    pub restitution: f64,
    /// Below this approach speed (m/s) an impact is plastic.
    pub min_impact_speed: f64,
    pub mode: ImpulseMode,
    /// The scene's units: the speeds below are in them.
    pub units: Units,
}

/// The impulses of one impact.
pub(crate) struct Resolution {
    pub approach_speed: Vec<(usize, f64)>,
    pub impulse: Vec<(usize, f64)>,
    /// `(k, P_t)`: the friction impulse of each contact with `μ > 0`.
    pub friction: Vec<(usize, f64)>,
}

/// Speeds below this (speed units, [`Units`]) count as separating or resting for the sweep.
const SPEED_EPS: f64 = 1e-12;
/// The sequential sweep stops when no contact approaches faster than this (speed units).
const SWEEP_EPS: f64 = 1e-9;

/// [`SPEED_EPS`], [`SWEEP_EPS`] and [`RESTING_SPEED`] in m/s.
#[derive(Clone, Copy)]
struct Speeds {
    eps: f64,
    sweep: f64,
    resting: f64,
}

impl Speeds {
    fn new(units: &Units) -> Self {
        Speeds { eps: units.speed(SPEED_EPS), sweep: units.speed(SWEEP_EPS), resting: units.speed(RESTING_SPEED) }
    }
}

/// The simultaneous law over the rows of an impact: equalities `0..neq`,
/// touching inequalities `neq..nactive`, speculative ones after, with `graph`
/// their `A = J M⁻¹ Jᵀ` and `v` their velocities `v⁻` before the impact.
struct Moreau<'a> {
    graph: &'a SchurGraph,
    v: &'a [f64],
    neq: usize,
    nactive: usize,
    speeds: Speeds,
}

impl Moreau<'_> {
    /// The impulses (one per row), from `e_row(i)` the restitution a touching
    /// row `i` asks for (0 when plastic; none when it approaches too slowly to
    /// have a say) and `floor(i)` the lowest velocity a row
    /// may leave with when the restitution is spent (0, or the speculative
    /// rows' `−(g − tol/2)/h`). See the module docs.
    fn solve(&self, e_row: impl Fn(usize, f64) -> Option<f64>, floor: impl Fn(usize) -> f64) -> Vec<f64> {
        let (graph, v, neq, nactive) = (self.graph, self.v, self.neq, self.nactive);
        let Speeds { eps: speed_eps, sweep: sweep_eps, .. } = self.speeds;
        let m = v.len();
        let island = graph.islands();
        let nislands = island.iter().map(|i| i + 1).max().unwrap_or(0);
        let mut impulse = vec![0.0; m];
        // The velocities of the rows after the impulses so far: v⁻ + A P.
        let velocities = |impulse: &[f64]| -> Vec<f64> {
            (0..m)
                .map(|i| {
                    v[i] + graph.diag[i] * impulse[i] + graph.adj[i].iter().map(|(j, a)| a * impulse[*j]).sum::<f64>()
                })
                .collect()
        };
        let mut vel = v.to_vec();
        // Rows that took an impulse in an earlier pass: approaching again, they are plastic.
        let mut struck = vec![false; m];
        let mut hit = vec![false; nislands];
        // Every island any pass hit: the last resort looks at them.
        let mut ever_hit = vec![false; nislands];
        let mut all_plastic = false;
        for pass in 0..MAX_PASSES {
            // The islands hit: those holding a touching row that approaches.
            hit.iter_mut().for_each(|h| *h = false);
            for i in neq..nactive {
                if vel[i] < -speed_eps {
                    hit[island[i]] = true;
                }
            }
            if !hit.iter().any(|h| *h) {
                break;
            }
            for (e, h) in ever_hit.iter_mut().zip(&hit) {
                *e |= *h;
            }
            // Moreau on the equalities and the touching rows of the hit islands
            // that do not separate (a separating row leaves the pass, as the
            // speculative rows do; if it approaches after it, the next pass has it).
            let rows: Vec<usize> =
                (0..nactive).filter(|&i| hit[island[i]] && (i < neq || vel[i] <= speed_eps)).collect();
            let sub = graph.restrict(&rows);
            let local = sub.islands();
            // One restitution per island of the pass: the smallest its rows
            // approaching fast enough ask for (none: plastic).
            let mut e_island = vec![f64::INFINITY; local.iter().map(|i| i + 1).max().unwrap_or(0)];
            for (l, &i) in rows.iter().enumerate() {
                if i >= neq
                    && let Some(e) = e_row(i, vel[i])
                {
                    let e = if struck[i] { 0.0 } else { e };
                    e_island[local[l]] = e_island[local[l]].min(e);
                }
            }
            // Every island of the first pass plastic: the projection on `C`
            // below is the plastic law in one solve (and the landing of a pile
            // is mostly that).
            if pass == 0 && e_island.iter().all(|e| !e.is_finite() || *e == 0.0) {
                all_plastic = true;
                break;
            }
            let b: Vec<f64> = rows
                .iter()
                .enumerate()
                .map(|(l, &i)| {
                    let e = e_island[local[l]];
                    let e = if e.is_finite() { e } else { 0.0 };
                    // v⁺ + e v⁻ ≥ 0 (= 0 on an equality): a = A P − b = v⁺ + e v⁻.
                    -(1.0 + e) * vel[i]
                })
                .collect();
            let p = solve_lcp(&sub, &b, neq_in(&rows, neq), &[], sweep_eps).lambda;
            for (&i, p) in rows.iter().zip(&p) {
                impulse[i] += *p;
                struck[i] |= *p > 0.0;
            }
            vel = velocities(&impulse);
        }
        // The plastic projection on `C`, for an impact all plastic from its
        // first pass (with the speculative rows that would close within the
        // step: the plastic law in one solve), and as the last resort when the
        // passes leave an equality moving (Moreau's law gives it `−e v⁻`) or
        // did not settle. A speculative row alone does not call it: its
        // closing is the next event's business.
        let last: Vec<usize> = (0..m).filter(|&i| ever_hit[island[i]]).collect();
        let below = last.iter().any(|&i| {
            if i < neq {
                vel[i].abs() > sweep_eps
            } else if i < nactive || all_plastic {
                vel[i] < floor(i) - sweep_eps
            } else {
                false
            }
        });
        if below {
            let sub = graph.restrict(&last);
            let b: Vec<f64> = last.iter().map(|&i| floor(i) - vel[i]).collect();
            let p2 = solve_lcp(&sub, &b, neq_in(&last, neq), &[], sweep_eps).lambda;
            for (&i, p) in last.iter().zip(&p2) {
                impulse[i] += *p;
            }
        }
        impulse
    }
}

/// Moreau passes of one impact at most (see [`Moreau::solve`]): then the
/// plastic projection.
const MAX_PASSES: usize = 32;

/// How many of the sorted rows `set` are equalities (rows below `neq`).
fn neq_in(set: &[usize], neq: usize) -> usize {
    set.iter().take_while(|&&i| i < neq).count()
}

/// `(k, −a_k)` for the active inequalities `rows` that the free motion pulls
/// together (`a_k < 0`), with `q̈_free` the accelerations with the equalities
/// held (`h` is what is left of the step; none when nothing is left).
fn sub_step_hops(problem: &ContactProblem, rows: &[usize], h: f64) -> Vec<(usize, f64)> {
    if rows.is_empty() || h <= 0.0 {
        return Vec::new();
    }
    let equalities = problem.equalities();
    let free = if equalities.is_empty() { problem.accelerations(&[]) } else { problem.solve(&equalities).qdd };
    if !free.iter().all(|a| a.is_finite()) {
        return Vec::new();
    }
    rows.iter()
        .map(|&k| (k, -(problem.rows[k].row.dot(&free) + problem.rows[k].jd_qd)))
        .filter(|(_, pull)| *pull > 0.0)
        .collect()
}

/// Resolves the impact at `state`, changing `q̇` only, with `g` the values
/// `g_k(q)` there. Constraints with `plastic[k]` (hit earlier in the step) get
/// `e = 0`. `h` is what is left of the step (for the speculative rows).
pub(crate) fn resolve(
    model: &Model,
    state: &mut State,
    impact: &Impact,
    g: &[f64],
    plastic: &[bool],
    h: f64,
) -> Resolution {
    resolve_except(model, state, impact, g, plastic, h, &[])
}

/// [`resolve`] without the rows `except[k]` (all rows when empty). The
/// islands that hold a touching contact with friction take Moreau's law with
/// Coulomb's cone ([`crate::friction_impact`]); then the others the
/// frictionless law below, from the velocities that left.
fn resolve_except(
    model: &Model,
    state: &mut State,
    impact: &Impact,
    g: &[f64],
    plastic: &[bool],
    h: f64,
    except: &[bool],
) -> Resolution {
    let problem = ContactProblem::new(model, state, impact.tau);
    let speeds = Speeds::new(&impact.units);
    let qd = &state.qd;
    let ineq = |k: usize| model.constraints[k].is_inequality();
    let speed = (0..g.len())
        .filter(|&k| ineq(k) && g[k] <= impact.active)
        .map(|k| -problem.rows[k].row.dot(qd))
        .fold(0.0, f64::max);
    let band = impact.active + 2.0 * h.max(0.0) * speed;
    // Equalities first, then the active inequalities, then the speculative ones.
    let kept = |k: &usize| !except.get(*k).copied().unwrap_or(false);
    let mut rows: Vec<usize> = problem.equalities().into_iter().filter(kept).collect();
    let neq = rows.len();
    rows.extend((0..g.len()).filter(|&k| ineq(k) && g[k] <= impact.active).filter(kept));
    let nactive = rows.len();
    rows.extend((0..g.len()).filter(|&k| ineq(k) && g[k] > impact.active && g[k] <= band && h > 0.0).filter(kept));
    // The lowest normal velocity after the impact each row allows (before restitution).
    let floor = |i: usize, k: usize| if i < nactive { 0.0 } else { -(g[k] - 0.5 * impact.active) / h };
    let v: Vec<f64> = rows.iter().map(|&k| problem.rows[k].row.dot(qd)).collect();
    let approach_speed: Vec<(usize, f64)> = rows[neq..nactive]
        .iter()
        .zip(&v[neq..nactive])
        .filter(|(_, v)| **v < -speeds.eps)
        .map(|(&k, v)| (k, -v))
        .collect();
    let hop = sub_step_hops(&problem, &rows[neq..nactive], h);
    let e = |k: usize, v: f64| -> f64 {
        let e = model.constraints[k].restitution.unwrap_or(impact.restitution);
        let lands_within_step = hop.iter().any(|&(j, a)| j == k && 2.0 * e * -v < a * h);
        if -v < impact.min_impact_speed || plastic[k] || lands_within_step { 0.0 } else { e }
    };
    // The islands with friction on a touching contact: Moreau's law with
    // Coulomb's cone; the rest below, without them.
    let mut rough: Vec<usize> = friction::islands(&problem, &rows[..nactive])
        .into_iter()
        .filter(|island| island.iter().any(|&i| i >= neq && problem.tangents[rows[i]].is_some()))
        .flatten()
        .collect();
    if !rough.is_empty() {
        // Equalities first, as in `rows`.
        rough.sort_unstable();
        let sub: Vec<usize> = rough.iter().map(|&i| rows[i]).collect();
        let sub_neq = rough.iter().take_while(|&&i| i < neq).count();
        if let Some(out) = friction_impact::resolve(&problem, state, &sub, sub_neq, e) {
            let mut skip = if except.is_empty() { vec![false; g.len()] } else { except.to_vec() };
            for &k in &sub {
                skip[k] = true;
            }
            let rest = resolve_except(model, state, impact, g, plastic, h, &skip);
            let mut impulse = out.normal;
            impulse.extend(rest.impulse);
            let mut friction = out.tangential;
            friction.extend(rest.friction);
            return Resolution { approach_speed, impulse, friction };
        }
    }
    let graph = problem.graph(&rows);
    let mut impulse = vec![0.0; rows.len()];
    match impact.mode {
        ImpulseMode::Simultaneous => {
            let law = Moreau { graph: &graph, v: &v, neq, nactive, speeds };
            // Rows approaching slower than `min_impact_speed` have no say in
            // their island's `e` (a row closing at 0.5 mm/s beside one hit at
            // 3 m/s made the whole impact plastic); an island with none
            // faster is plastic.
            let vote = |i: usize, vi: f64| (-vi >= impact.min_impact_speed.max(speeds.resting)).then(|| e(rows[i], vi));
            impulse = law.solve(vote, |i| floor(i, rows[i]));
        }
        ImpulseMode::Sequential => {
            let m = rows.len();
            let mut vel = v.clone();
            let mut capped = true;
            let mut last = None;
            for _ in 0..1000 * m.max(1) {
                // The most approaching inequality, or the most violated equality.
                let below = |i: usize| floor(i, rows[i]) - vel[i];
                let pick = (0..m)
                    .filter(|&i| if i < neq { vel[i].abs() > speeds.sweep } else { below(i) > speeds.sweep })
                    .max_by(|&i, &j| below(i).abs().total_cmp(&below(j).abs()));
                let Some(i) = pick else {
                    capped = false;
                    break;
                };
                let aii = graph.diag[i];
                if aii <= 0.0 {
                    break;
                }
                let p = if i < neq || i >= nactive {
                    (floor(i, rows[i]) - vel[i]) / aii
                } else {
                    // Right after a row that is this one reversed (two stops
                    // at one `u`: `A_ij² = A_ii A_jj`), plastic: the pair
                    // would pass the velocity back and forth to the cap.
                    let pinched = last.is_some_and(|j: usize| {
                        graph.adj[i].iter().any(|(k, aij)| *k == j && aij * aij >= (1.0 - 1e-9) * aii * graph.diag[j])
                    });
                    -(1.0 + if pinched { 0.0 } else { e(rows[i], vel[i]) }) * vel[i] / aii
                };
                last = Some(i);
                impulse[i] += p;
                vel[i] += aii * p;
                for (j, aji) in &graph.adj[i] {
                    vel[*j] += aji * p;
                }
            }
            if capped {
                // The sweep gave up (a heavy body on light ones passes on only a
                // fraction of its momentum per pick): finish with the plastic
                // problem on the velocities it reached, `v⁺ ≥ floor`, `ΔP ≥ 0`,
                // complementary; a projection, so it only removes energy, and
                // no row is left approaching.
                let b: Vec<f64> = (0..m).map(|i| floor(i, rows[i]) - vel[i]).collect();
                let rest = solve_lcp(&graph, &b, neq, &[], speeds.sweep).lambda;
                for (p, dp) in impulse.iter_mut().zip(rest) {
                    *p += dp;
                }
            }
        }
    }
    let mut lambda = vec![0.0; problem.nconstraints()];
    for (i, &k) in rows.iter().enumerate() {
        lambda[k] = impulse[i];
    }
    // q̇⁺ = q̇⁻ + M⁻¹ Jᵀ P
    for (v, dv) in state.qd.iter_mut().zip(problem.velocity_change(&lambda)) {
        *v += dv;
    }
    Resolution {
        approach_speed,
        impulse: rows.iter().zip(&impulse).filter(|(_, p)| **p != 0.0).map(|(&k, p)| (k, *p)).collect(),
        friction: Vec::new(),
    }
}

/// The impulse of Painlevé's impact without collision ([`crate::friction`]):
/// the equalities and the touching contacts at `state`, with `g` their
/// values, plastic, with friction ([`crate::friction_impact`]).
pub(crate) fn without_collision(model: &Model, state: &mut State, impact: &Impact, g: &[f64]) -> Resolution {
    let problem = ContactProblem::new(model, state, impact.tau);
    let mut rows = problem.equalities();
    let neq = rows.len();
    rows.extend((0..g.len()).filter(|&k| model.constraints[k].is_inequality() && g[k] <= impact.active));
    match friction_impact::resolve(&problem, state, &rows, neq, |_, _| 0.0) {
        Some(out) => Resolution { approach_speed: Vec::new(), impulse: out.normal, friction: out.tangential },
        None => Resolution { approach_speed: Vec::new(), impulse: Vec::new(), friction: Vec::new() },
    }
}
