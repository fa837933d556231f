//! Coulomb friction at the acceleration level, the exact solver's
//! ([`crate::exact`]): the step's contact problem with a tangential row per
//! contact with `μ > 0` ([`crate::tangent`]), solved by [`crate::coulomb`].
//!
//! For a candidate contact `k` (touching, not separating) with slip `v_t`
//! at the start of what is left of the step, `h`:
//!
//! ```text
//! normal row:      a_n = J_n q̈ − d_n                       (eq. 6, Baumgarte's d_n of eq. 5)
//! tangential row:  w_t = J_t q̈ + J̇_t q̇ + v_t / h = v_t⁺ / h  (v_t⁺ = v_t + h v̇_t, the slip at the step's end)
//! ```
//!
//! * A contact that **slides** (`|v_t|` above 1 mm/s, in the scene's units)
//!   takes Coulomb's sliding force `λ_t = −μ λ_n sign(v_t)`: its normal
//!   column becomes `J_nᵀ − μ sign(v_t) J_tᵀ`. If its slip would reverse
//!   within the step (`sign(v_t) w_t < 0`) it is solved again as one that
//!   may stick: it stops within the step, and sticks if the cone holds it.
//! * A contact that **may stick** has its own `λ_t`, with `w_t = 0` while
//!   `|λ_t| ≤ μ λ_n` and the slip `v_t⁺` against `λ_t` otherwise. Aiming at
//!   `v_t⁺ = 0` rather than `v̇_t = 0` is Baumgarte's eq. (5) on the
//!   tangential row with `τ = h` on its velocity, and without its position
//!   term: a sticking block's slip is put back to 0 every step, so it never
//!   creeps, and there is no position it would be pulled back to.
//!
//! **Painlevé.** With a sliding contact the matrix is not a P-matrix, and
//! past Painlevé's bound (a rod sliding on a rough floor, `μ` large) there is
//! no `λ ≥ 0` at all: a rod at 60° with half-length `l`, `μ = 2`, has
//! `a_n = (1 + 3cos²θ − 3μ sinθ cosθ) λ_n/m − g + l θ̇² sinθ`, a negative
//! coefficient, and no answer while `l θ̇² sinθ < g` (`θ̇ < 4.760` rad/s at
//! `l = 0.5` m). Lemke's method ends on a ray there, which proves nothing
//! once a contact slides; the enumeration of every status does
//! ([`crate::coulomb`], up to [`crate::coulomb::ENUMERATION_LIMIT`]; past
//! it the ray is taken as it comes, and [`Failure::Inconsistent`] says which
//! test it was). Then the solution lists the contacts in
//! [`KktSolution::inconsistent`]: those past Painlevé's bound, or every
//! sliding one where they are inconsistent together. The step takes an
//! impulse at the velocity level first (impact without collision,
//! [`crate::friction_impact`]) and solves again from there.
//!
//! The paper's three algorithms are written for frictionless rows: friction
//! is this solver's alone, and the algorithms ignore `μ` (the app says so
//! where the algorithm is chosen).

use crate::constraint::SparseRow;
use crate::coulomb::{Change, DENSE_ROWS, Failure, FrictionContact, Method, Mode, Problem, dense_a};
use crate::kkt::{ContactProblem, KktSolution};
use crate::lcp::{Cap, Stop, contract_ratio, least_squares, solve_lcp};
use crate::trace::{Change as TraceChange, Iteration, Reason, Trace};
use crate::union_find::UnionFind;

/// A contact slides above this fraction of the separating speed
/// ([`crate::active_set::Tolerances`]): 1 mm/s in SI units. Below, it is
/// one that may stick: a contact held at `v_t⁺ = 0` keeps a slip of
/// `O(h²)` from its turning rows (µm/s), which must not count as sliding.
pub const SLIDING: f64 = 1.0;

/// The answer of the frictional problem on the candidates `cand` (the
/// equalities first, `neq` of them), warm-started from `warm` (each
/// candidate's handled flag at the last step), with `sliding` the slip
/// above which a contact slides. Returns the solution and each candidate's
/// handled flag (its normal row on).
pub fn solve(
    p: &ContactProblem,
    cand: &[usize],
    neq: usize,
    warm: &[bool],
    sliding: f64,
    trace: &mut Trace,
) -> (KktSolution, Vec<bool>) {
    let mut lambda = vec![0.0; p.nconstraints()];
    let mut friction = vec![0.0; p.nconstraints()];
    let mut handled = vec![false; cand.len()];
    let mut inconsistent = Vec::new();
    let free = p.accelerations(&[]);
    let mut island_rounds: Vec<Vec<Iteration>> = Vec::new();
    // Local rows: an island's normal rows (equalities first), then tangents.
    for normals in islands(p, cand) {
        let neq_local = normals.iter().take_while(|&&i| i < neq).count();
        let mut rows: Vec<&SparseRow> = normals.iter().map(|&i| &p.rows[cand[i]].row).collect();
        let mut b: Vec<f64> = normals.iter().map(|&i| p.d[cand[i]] - p.rows[cand[i]].row.dot(&free)).collect();
        let mut contacts = Vec::new();
        for (l, &i) in normals.iter().enumerate() {
            let k = cand[i];
            if i < neq {
                continue;
            }
            if let Some(t) = &p.tangents[k] {
                let slip = t.g;
                let target = if p.h.is_finite() { slip / p.h } else { 0.0 };
                contacts.push(FrictionContact {
                    normal: l,
                    tangent: normals.len() + contacts.len(),
                    mu: p.mu[k],
                    sliding: (slip.abs() > sliding).then(|| slip.signum()),
                });
                rows.push(&t.row);
                b.push(-t.jd_qd - target - t.row.dot(&free));
            }
        }
        let m = rows.len();
        // An island past the dense problem's bound takes its frictionless
        // answer, and the step says so (`Stop::Friction`).
        let too_large = m > DENSE_ROWS && !contacts.is_empty();
        // The island's frictionless answer (the exact LCP of eq. 6): where no
        // row was handled at the last step (a first contact, the first step)
        // its handled set is the start, each contact sticking; a pile at rest
        // is then confirmed in one round. It is also the fallback.
        let ks: Vec<usize> = normals.iter().map(|&i| cand[i]).collect();
        // Its `A` and `b` of eq. (6), built once, when first asked for.
        let normal_rows = std::cell::OnceCell::new();
        let lcp_data = || normal_rows.get_or_init(|| (p.graph(&ks), p.rhs(&ks, &free)));
        let frictionless = || {
            let (graph, b) = lcp_data();
            solve_lcp(graph, b, neq_local, &[], 0.0)
        };
        let mut warm_local: Vec<bool> = normals.iter().map(|&i| warm[i]).collect();
        if contacts.is_empty() || too_large {
            // No friction in this island: the frictionless exact LCP, as ever,
            // held to its contract, targets that conflict taken off (as in
            // `exact`, whose polish alone it skips).
            let mut lcp = frictionless();
            let (graph, b) = lcp_data();
            if lcp.capped.is_none() {
                if let Some(c) = least_squares(graph, b, neq_local, &lcp.lambda, &lcp.clamped) {
                    trace.conflict.extend(c.rows.iter().map(|&l| ks[l]));
                    trace.conflict_miss = trace.conflict_miss.max(c.worst);
                    lcp = c.lcp;
                } else {
                    let ratio = contract_ratio(graph, b, neq_local, &lcp.lambda);
                    if ratio > 1.0 {
                        lcp.capped = Some(Cap { rows: normals.len(), pivots: 0, why: Stop::Contract(ratio) });
                    }
                }
            }
            for (l, &i) in normals.iter().enumerate() {
                lambda[cand[i]] = lcp.lambda[l];
                handled[i] = lcp.clamped[l];
            }
            trace.capped = trace.capped.or(lcp.capped);
            if too_large {
                trace.capped = trace.capped.or(Some(Cap { rows: m, pivots: 0, why: Stop::Friction }));
            }
            continue;
        }
        let a = dense_a(&rows, &p.minv);
        let mut problem = Problem::new(a, b, neq_local, normals.len(), contacts);
        if !warm_local[neq_local..].iter().any(|w| *w) {
            warm_local = frictionless().clamped;
        }
        // Targets that conflict (lcp::least_squares): where a row overlaps
        // (g < 0), the frictionless answer shows whether its targets can be
        // met at all, and the part no force meets is taken off them before
        // friction is solved: a squeeze that pushes on nothing holds nothing
        // up (issue 36, finding 7: a box hung between two walls on 94 kN).
        if normals.iter().any(|&i| i >= neq && p.rows[cand[i]].g < 0.0) {
            let (graph, b) = lcp_data();
            let probe = solve_lcp(graph, b, neq_local, &warm_local, 0.0);
            if probe.capped.is_none()
                && let Some(c) = least_squares(graph, b, neq_local, &probe.lambda, &probe.clamped)
            {
                problem.b[..normals.len()].copy_from_slice(&c.targets);
                warm_local = c.lcp.clamped;
                trace.conflict.extend(c.rows.iter().map(|&l| ks[l]));
                trace.conflict_miss = trace.conflict_miss.max(c.worst);
            }
        }
        // A slide past Painlevé's bound starts apart: where the foot may
        // lift (l θ̇² sin θ > g) that is the answer taken (docs/friction.md),
        // not the other, pushed one.
        for c in problem.painleve() {
            warm_local[problem.contacts[c].normal] = false;
        }
        let mut start = problem.start(&warm_local);
        let answer = loop {
            match problem.solve(start.clone()) {
                Ok(ans) => {
                    // A slide whose slip would reverse within the step stops in it.
                    let w = problem.w(&ans.lambda);
                    let reversing: Vec<usize> = (0..problem.contacts.len())
                        .filter(|&c| {
                            let fc = problem.contacts[c];
                            fc.sliding.is_some_and(|s| ans.modes[fc.normal].is_on() && s * w[fc.tangent] < 0.0)
                        })
                        .collect();
                    if reversing.is_empty() {
                        break ans;
                    }
                    for c in reversing {
                        problem.contacts[c].sliding = None;
                    }
                    start = ans.modes;
                }
                Err(Failure::Inconsistent { blamed: cs, proof }) if !cs.is_empty() => {
                    // No answer with these slides (Painlevé): the step takes an
                    // impulse first. For now, the same contacts as ones that may
                    // stick (the answer the step would use if it could not).
                    let row = |c: usize| cand[normals[problem.contacts[c].normal]];
                    inconsistent.extend(cs.iter().map(|&c| row(c)));
                    trace.past_bound.extend(problem.painleve().into_iter().map(row));
                    trace.proof = Some(proof.sentence());
                    for fc in &mut problem.contacts {
                        fc.sliding = None;
                    }
                    start = problem.start(&warm_local);
                }
                Err(Failure::Inconsistent { .. } | Failure::Unsolved) => {
                    // No answer found with friction and no slide to blame: the
                    // island's frictionless answer, and the trace says so.
                    let lcp = frictionless();
                    let mut lambda = lcp.lambda.clone();
                    lambda.resize(m, 0.0);
                    let modes = lcp.clamped.iter().map(|&c| if c { Mode::On } else { Mode::Off }).collect();
                    trace.capped.get_or_insert(Cap { rows: normals.len(), pivots: 0, why: Stop::Friction });
                    break crate::coulomb::Answer { lambda, modes, rounds: Vec::new(), method: Method::Lemke };
                }
            }
        };
        // Every answer is held to the contract (module docs of `coulomb`).
        let ratio = problem.contract_ratio(&answer);
        if ratio > 1.0 && !answer.rounds.is_empty() {
            trace.capped.get_or_insert(Cap { rows: normals.len(), pivots: 0, why: Stop::Contract(ratio) });
        }
        let global = |l: usize| cand[normals[l]];
        // Each round as the island saw it, in constraint indices.
        let rounds: Vec<Iteration> = answer
            .rounds
            .iter()
            .map(|round| {
                let mut it = Iteration {
                    handled: (0..normals.len()).filter(|&l| round.modes[l].is_on()).map(global).collect(),
                    lambda: (0..normals.len())
                        .filter(|&l| round.modes[l].is_on())
                        .map(|l| (global(l), round.lambda[l]))
                        .collect(),
                    tendency: (0..normals.len()).map(|l| (global(l), round.w[l])).collect(),
                    ..Default::default()
                };
                for &(l, change) in &round.changes {
                    let (constraint, reason) = (global(l), reason(change));
                    match change {
                        Change::Leaves { .. } => it.removed.push(TraceChange { constraint, reason }),
                        _ => it.added.push(TraceChange { constraint, reason }),
                    }
                }
                it
            })
            .collect();
        island_rounds.push(rounds);
        for (l, &i) in normals.iter().enumerate() {
            lambda[cand[i]] = answer.lambda[l];
            handled[i] = answer.modes[l].is_on();
        }
        for fc in &problem.contacts {
            friction[cand[normals[fc.normal]]] = answer.lambda[fc.tangent];
        }
    }
    // The trace's rounds are the step's: round r holds every island's r-th
    // round, or its last if it finished before (as the frictionless pivoting's).
    let nrounds = island_rounds.iter().map(Vec::len).max().unwrap_or(0);
    for r in 0..nrounds {
        let mut it = Iteration::default();
        for rounds in island_rounds.iter().filter(|v| !v.is_empty()) {
            let own = &rounds[r.min(rounds.len() - 1)];
            it.handled.extend(&own.handled);
            it.lambda.extend(&own.lambda);
            it.tendency.extend(&own.tendency);
            if r < rounds.len() {
                it.added.extend(&own.added);
                it.removed.extend(&own.removed);
            }
        }
        it.handled.sort_unstable();
        trace.iterations.push(it);
    }
    let qdd = p.accelerations_with_friction(&lambda, &friction);
    let residual =
        cand.iter().zip(&handled).filter(|(_, h)| **h).map(|(&k, _)| p.tendency(k, &qdd).abs()).fold(0.0, f64::max);
    trace.inconsistent = inconsistent.clone();
    (KktSolution { qdd, lambda, residual, dependent: Vec::new(), friction, inconsistent }, handled)
}

/// The trace's reason for a change of status.
fn reason(change: Change) -> Reason {
    match change {
        Change::Enters { w } => Reason::Tendency { a: w },
        Change::Leaves { lambda } => Reason::NonPositiveMultiplier { lambda },
        Change::Slips { ratio } => Reason::Slips { ratio },
        Change::Sticks { w } => Reason::Sticks { w },
    }
}

/// The candidates (local indices into `cand`) split into islands: rows that
/// share a coordinate are in one island (directly or through others).
pub(crate) fn islands(p: &ContactProblem, cand: &[usize]) -> Vec<Vec<usize>> {
    let n = p.ndofs();
    let mut sets = UnionFind::new(n);
    let columns = |k: usize| -> Vec<usize> {
        let mut c: Vec<usize> =
            p.rows[k].row.entries().iter().filter(|(i, _)| p.minv[*i] > 0.0).map(|(i, _)| *i).collect();
        if let Some(t) = &p.tangents[k] {
            c.extend(t.row.entries().iter().filter(|(i, _)| p.minv[*i] > 0.0).map(|(i, _)| *i));
        }
        c
    };
    for &k in cand {
        let c = columns(k);
        for w in c.windows(2) {
            sets.join(w[0], w[1]);
        }
    }
    let mut by_root: Vec<(usize, Vec<usize>)> = Vec::new();
    for (i, &k) in cand.iter().enumerate() {
        let root = columns(k).first().map(|&c| sets.root(c)).unwrap_or(usize::MAX - i);
        match by_root.iter_mut().find(|(r, _)| *r == root) {
            Some((_, v)) => v.push(i),
            None => by_root.push((root, vec![i])),
        }
    }
    by_root.into_iter().map(|(_, v)| v).collect()
}
