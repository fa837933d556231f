//! Collisions at the velocity level.
//!
//! When an inequality activates with an approaching velocity (`J_k q̇⁻ < 0`), the
//! acceleration-level algorithms alone let the bodies sink by about `v τ` before
//! Baumgarte pushes them back. So the impact is resolved first, with impulses
//! `P ≥ 0` along the constraint rows:
//!
//! ```text
//! q̇⁺ = q̇⁻ + M⁻¹ Jᵀ P,      v⁺ = J q̇⁺ = v⁻ + A P,      A = J M⁻¹ Jᵀ
//! inequalities:  v⁺_k ≥ −e_k v⁻_k,  P_k ≥ 0,  P_k (v⁺_k + e_k v⁻_k) = 0
//! equalities:    v⁺_k = 0
//! ```
//!
//! over every constraint active at the impact instant. Inequalities a little
//! apart (`g_k` within twice the distance the impact speed covers in the rest
//! `h` of the step) take part too, as speculative rows that may approach but
//! not close within the step, `v⁺_k ≥ −(g_k − tol/2) / h`: in a pile, the ball a
//! micrometre away from the one just hit would otherwise be crossed at once,
//! and the next event rewind to a microsecond later, dozens of times a step. `e_k` is the restitution,
//! 0 (plastic) for contacts that are not approaching faster than the minimum
//! impact speed, and for sub-step hops: a rebound at `e_k v⁻_k` against the
//! free normal acceleration `a_k = J_k q̈_free + J̇_k q̇ < 0` (what gravity and the
//! forces would do with the equalities held) lands again after `2 e_k v⁻_k / |a_k|`;
//! when that is shorter than what is left of the step, it would land inside the
//! step with no rewind (the contact separates at the step's start, and the end
//! sees it below the surface). Such a hop is below the time resolution of the
//! simulation (its height is at most `|a_k| h² / 8`, 1.2e-7 m at h = 1 ms under
//! gravity), so the impact is plastic. Two ways to solve it, and they differ on a line of touching
//! balls (Newton's cradle):
//!
//! * **simultaneous**: the complementarity problem above in one go, with the
//!   pivoting of [`crate::lcp`]. Momentum is conserved; the energy
//!   of a cradle is shared among the balls (no ball is left exactly at rest).
//! * **sequential**: contact by contact, most approaching first, each a
//!   two-body impact with its own `e` (`P_k = −(1 + e) v_k / A_kk`), until no contact
//!   approaches. On a cradle with `e = 1` the velocity is passed down the line:
//!   the striker stops and the last ball leaves with its speed. A sweep that
//!   reaches its cap (`1000 m` picks: a heavy body on light ones passes on only
//!   a fraction of its momentum per pick) is finished by the plastic problem
//!   on the velocities it reached (`v⁺ ≥ 0`, `ΔP ≥ 0`, complementary), so no
//!   row is left approaching and no energy is added.

use serde::{Deserialize, Serialize};

use crate::kkt::ContactProblem;
use crate::lcp::solve_lcp;
use crate::model::{Model, State};
use crate::schur::SchurGraph;
use crate::settings::Units;
use crate::speculative::RESTING_SPEED;

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
    fn solve(&self, e_row: impl Fn(usize) -> Option<f64>, floor: impl Fn(usize) -> f64) -> Vec<f64> {
        let (graph, v, neq, nactive) = (self.graph, self.v, self.neq, self.nactive);
        let Speeds { eps: speed_eps, sweep: sweep_eps, .. } = self.speeds;
        let m = v.len();
        let island = graph.islands();
        let nislands = island.iter().map(|i| i + 1).max().unwrap_or(0);
        // The islands hit: those holding a touching row that approaches.
        let mut hit = vec![false; nislands];
        for i in neq..nactive {
            if v[i] < -speed_eps {
                hit[island[i]] = true;
            }
        }
        let mut impulse = vec![0.0; m];
        // Pass 1, Moreau: the equalities and touching rows of the hit islands.
        let first: Vec<usize> = (0..nactive).filter(|&i| hit[island[i]]).collect();
        if first.is_empty() {
            return impulse;
        }
        let sub = graph.restrict(&first);
        let local = sub.islands();
        // One restitution per island of touching rows: the smallest its
        // approaching rows ask for (none approaching fast enough: plastic).
        let mut e_island = vec![f64::INFINITY; local.iter().map(|i| i + 1).max().unwrap_or(0)];
        for (l, &i) in first.iter().enumerate() {
            if let Some(e) = e_row(i).filter(|_| i >= neq) {
                e_island[local[l]] = e_island[local[l]].min(e);
            }
        }
        let b: Vec<f64> = first
            .iter()
            .enumerate()
            .map(|(l, &i)| {
                let e = e_island[local[l]];
                let e = if e.is_finite() { e } else { 0.0 };
                // v⁺ + e v⁻ ≥ 0 (= 0 on an equality): a = A P − b = v⁺ + e v⁻.
                -(1.0 + e) * v[i]
            })
            .collect();
        let p1 = solve_lcp(&sub, &b, neq_in(&first, neq), &[], sweep_eps, 0.0).lambda;
        for (&i, p) in first.iter().zip(&p1) {
            impulse[i] = *p;
        }
        // Pass 2, plastic, when pass 1 left a row of the hit islands below its
        // floor (a touching row it let close at −e v⁻, an equality at −e v⁻, a
        // speculative row that would close within the step).
        let after: Vec<f64> = (0..m)
            .map(|i| v[i] + graph.diag[i] * impulse[i] + graph.adj[i].iter().map(|(j, a)| a * impulse[*j]).sum::<f64>())
            .collect();
        let second: Vec<usize> = (0..m).filter(|&i| hit[island[i]]).collect();
        let below =
            second.iter().any(|&i| if i < neq { after[i].abs() > sweep_eps } else { after[i] < floor(i) - sweep_eps });
        if below {
            let sub = graph.restrict(&second);
            let b: Vec<f64> = second.iter().map(|&i| floor(i) - after[i]).collect();
            let p2 = solve_lcp(&sub, &b, neq_in(&second, neq), &[], sweep_eps, 0.0).lambda;
            for (&i, p) in second.iter().zip(&p2) {
                impulse[i] += *p;
            }
        }
        impulse
    }
}

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
    let mut rows = problem.equalities();
    let neq = rows.len();
    rows.extend((0..g.len()).filter(|&k| ineq(k) && g[k] <= impact.active));
    let nactive = rows.len();
    rows.extend((0..g.len()).filter(|&k| ineq(k) && g[k] > impact.active && g[k] <= band && h > 0.0));
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
    let graph = problem.graph(&rows);
    let mut impulse = vec![0.0; rows.len()];
    match impact.mode {
        ImpulseMode::Simultaneous => {
            let law = Moreau { graph: &graph, v: &v, neq, nactive, speeds };
            let vote = |i: usize| (v[i] < -speeds.resting).then(|| e(rows[i], v[i]));
            impulse = law.solve(vote, |i| floor(i, rows[i]));
        }
        ImpulseMode::Sequential => {
            let m = rows.len();
            let mut vel = v.clone();
            // Whether a contact was hit before in this impact (its first hit's `e`).
            let mut e_first: Vec<Option<f64>> = vec![None; m];
            let mut capped = true;
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
                    // A second hit on a row in one sweep is plastic: two rows
                    // that oppose each other (a bead between stops at one `u`)
                    // would otherwise pass the velocity back and forth to the cap.
                    let ei = if e_first[i].is_some() { 0.0 } else { *e_first[i].insert(e(rows[i], vel[i])) };
                    -(1.0 + ei) * vel[i] / aii
                };
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
                let rest = solve_lcp(&graph, &b, neq, &[], speeds.sweep, 0.0).lambda;
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
    }
}
