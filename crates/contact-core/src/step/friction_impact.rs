//! Impacts with friction: Moreau's law with Coulomb's cone at the velocity
//! level, and the impulse of Painlevé's "impact without collision".
//!
//! With impulses `P_n` along the normal rows and `P_t` along the tangential
//! rows of the contacts with `μ > 0` ([`crate::tangent`]),
//! `q̇⁺ = q̇⁻ + M⁻¹ (J_nᵀ P_n + J_tᵀ P_t)`, the impact solves, by
//! [`crate::coulomb`],
//!
//! ```text
//! normal:      v_n⁺ + e v_n⁻ ≥ 0,  P_n ≥ 0,  P_n (v_n⁺ + e v_n⁻) = 0   (v_n⁺ = 0 on equalities)
//! tangential:  v_t⁺ = 0 and |P_t| ≤ μ P_n,  or  P_t = −μ P_n sign(v_t⁺)
//! ```
//!
//! the velocity-level problem of Stewart–Trinkle and Anitescu–Potra, with
//! Newton's restitution on the normal. With `e = 0` it is dissipative: the
//! impulse is the one of least kinetic energy after the impact that the cone
//! allows. With `e > 0` it is not always: Kane's example (a double pendulum
//! striking a rough floor) gains energy under Newton's restitution with
//! friction (a rod striking a rough floor at `e = 1` does in a third of
//! random impacts, `tests/friction.rs`). So the kinetic energy is checked
//! after the impact, and an impact that would create energy takes the
//! largest share `s ∈ [0, 1]` of its restitution (`s e` on every row,
//! bisected to 1e-9) that does not: **no impact creates energy**, whatever
//! `e` and `μ`, and the plastic impact (`s = 0`) is always there.
//!
//! Each island (rows linked through a body, [`crate::friction`]) is its own
//! problem. Where pivoting and Lemke's method both fail, every status is
//! tried ([`crate::coulomb`]'s enumeration, up to
//! [`crate::coulomb::ENUMERATION_LIMIT`]); one with no answer even so leaves
//! the whole impact to the frictionless law of [`crate::impulse`].
//!
//! The rows are the equalities and the touching contacts; the speculative
//! rows of the frictionless law ([`crate::impulse`]) are left to the next
//! event. Each contact starts as one that sticks: the start is the impulse
//! that stops every slip,
//!
//! ```text
//! v_n⁺ = −e v_n⁻ (0 on the rows that do not approach),  v_t⁺ = 0,  |P_t| ≤ μ P_n,  P_n ≥ 0
//! ```
//!
//! With two corners on a body (four rows, three coordinates) `A` is
//! singular and these impulses are a line: the one of least norm may leave
//! the cone at a corner where another inside it exists. So where pivoting's
//! impulse does not stop every slip, the start is solved completely
//! ([`crate::coulomb::Problem::solve_status`], over the whole line) and
//! taken if it holds: a contact that slides past Painlevé's bound
//! ([`crate::friction`]) takes the impulse that stops its slip whenever the
//! cone allows one (the impact without collision: `v_n⁻ = 0`, and yet an
//! impulse). Where none does and pivoting found no impulse at all (the
//! trivial `P = 0`, always an answer when nothing approaches, which leaves
//! the step with no consistent force), the answer nearest the start
//! ([`crate::coulomb::Problem::enumerate`]). With `e = 0` none of these
//! makes energy: `Pᵀ v⁺ ≤ 0` by complementarity, so `½ q̇⁺ᵀ M q̇⁺ = ½ q̇⁻ᵀ
//! M q̇⁻ + Pᵀ v⁺ − ½ Pᵀ A P`; with `e > 0` the check above holds.

use crate::constraint::SparseRow;
use crate::coulomb::{DENSE_ROWS, FrictionContact, Problem, dense_a};
use crate::friction::islands;
use crate::kkt::ContactProblem;
use crate::model::State;

/// The impulses of an impact with friction: `(k, P_n)` and `(k, P_t)`.
pub(crate) struct Impulses {
    pub normal: Vec<(usize, f64)>,
    pub tangential: Vec<(usize, f64)>,
}

/// Whether a kinetic energy of `after` is more than `before`, past round-off.
pub(crate) fn gains(before: f64, after: f64) -> bool {
    after > before * (1.0 + 1e-12) + f64::MIN_POSITIVE
}

/// The answer at the largest share `s ∈ [0, 1]` of the restitution that
/// creates no energy, by `bisections` halvings of `[0, 1]`: `keeps(s)` is
/// the answer at `s` where it creates none, and `plastic` the one at `s = 0`,
/// taken where no share does. Impacts with friction (here) and time-stepping
/// ([`crate::timestep`]) both take it.
pub(crate) fn largest_share<T>(plastic: T, bisections: usize, mut keeps: impl FnMut(f64) -> Option<T>) -> T {
    let (mut lo, mut hi, mut best) = (0.0, 1.0, plastic);
    for _ in 0..bisections {
        let mid = 0.5 * (lo + hi);
        match keeps(mid) {
            Some(answer) => (lo, best) = (mid, answer),
            None => hi = mid,
        }
    }
    best
}

/// The answer at the largest share `s ∈ [0, 1]` of the restitution that
/// creates no energy, as [`largest_share`], by the regula falsi with the
/// Illinois rule (Dowell & Jarratt 1971) on the energy a share creates:
/// `at(s)` is that energy's excess at `s` (≤ 0: none) and the answer,
/// or `None` where `s` has no answer; `plastic` is the answer at `s = 0`
/// with its excess (≤ 0 but for round-off), `full` the answer at `s = 1`
/// with its excess (> 0: why the share is sought). The bracket `[lo, hi]`
/// keeps a share that creates none at `lo`. A new share is, first,
/// `between(lo's answer, hi's answer)`: how far along the straight line
/// between the two answers' velocities the energy stops keeping (on one
/// piece of the answer, which is affine in its share there, that is the
/// share itself; a hair short of it, so the share keeps); where that gives
/// none, where the line through the bracket's excesses crosses 0 (its
/// middle where one is unknown, never within 1/64 of the bracket's ends).
/// Where the same end moves twice the other's excess is halved; after two
/// shares in a row that create energy the answers' line is not taken again
/// (a 290-ball pile's rebound took 24 solves, 35 ms, each guess halfway from
/// the last one to the share and the bracket's lower end at 0; now 7). It stops
/// when the bracket is narrower than `width`, when the share kept is
/// within `close` of creating energy, or after `solves` shares.
///
/// On a landing pile of 1000 balls the bisection took 24 solves of 26 ms
/// (the interior point) in one step; this takes 2 besides the plastic one.
pub(crate) fn largest_share_falsi<T>(
    (plastic, at_plastic): (T, f64),
    (full, at_full): (T, f64),
    solves: usize,
    width: f64,
    close: f64,
    between: impl Fn(&T, &T) -> Option<f64>,
    mut at: impl FnMut(f64) -> Option<(f64, T)>,
) -> T {
    let (mut lo, mut hi, mut best, mut above) = (0.0, 1.0, plastic, Some(full));
    // The plastic share creates none, as far as the bracket is concerned.
    // `e_lo`, `e_hi`: the excesses the line goes through (the Illinois rule
    // halves them); `kept`: the true one at `lo`.
    let (mut e_lo, mut e_hi) = (at_plastic.min(0.0), at_full);
    let mut kept = e_lo;
    let mut moved: Option<bool> = None;
    // Shares in a row that created energy: from two on, the answers'
    // straight line is not taken again in this search (it keeps landing on
    // the same side, and the bracket's other end never moves).
    let mut over = 0;
    for _ in 0..solves {
        let w = hi - lo;
        if w <= width || (lo > 0.0 && -kept <= close) {
            break;
        }
        let along =
            above.as_ref().filter(|_| over < 2).and_then(|a| between(&best, a)).filter(|t| *t > 0.0 && *t < 1.0);
        let line = lo + w * (-e_lo / (e_hi - e_lo));
        let s = if let Some(t) = along {
            (lo + w * t * (1.0 - SHORT)).clamp(lo + w * SHORT, hi - w * SHORT)
        } else if e_hi.is_finite() && e_hi > e_lo && line.is_finite() {
            line.clamp(lo + w / 64.0, hi - w / 64.0)
        } else {
            0.5 * (lo + hi)
        };
        match at(s) {
            Some((e, answer)) if e <= 0.0 => {
                (lo, e_lo, kept, best) = (s, e, e, answer);
                if moved == Some(true) {
                    e_hi *= 0.5;
                }
                moved = Some(true);
            }
            found => {
                (hi, e_hi) = (s, found.as_ref().map_or(f64::NAN, |(e, _)| *e));
                above = found.map(|(_, a)| a);
                over += 1;
                if moved == Some(false) {
                    e_lo *= 0.5;
                }
                moved = Some(false);
            }
        }
    }
    best
}

/// How far short of the line's crossing [`largest_share_falsi`] aims, as a
/// part of the bracket (and the least it moves from either end).
const SHORT: f64 = 1e-7;

/// Where, from 0 to 1, `excess` (convex along a line: a kinetic energy
/// less a linear work) first passes 0, by 60 halvings (no solve: `excess`
/// is the energy of a velocity on the line); `None` where it is above 0 at
/// 0 or not above it at 1.
pub(crate) fn crossing(excess: impl Fn(f64) -> f64) -> Option<f64> {
    if excess(0.0) > 0.0 || excess(1.0) <= 0.0 {
        return None;
    }
    let (mut a, mut b) = (0.0, 1.0);
    for _ in 0..60 {
        let m = 0.5 * (a + b);
        if excess(m) <= 0.0 { a = m } else { b = m }
    }
    Some(a)
}

/// Resolves the impact on `rows` (equalities first, `neq` of them, then
/// touching contacts) at `state`, island by island, changing `q̇` only;
/// `e(k, v)` is the restitution row `k` asks for at normal velocity `v`.
/// `None` (and `q̇` untouched) when an island has no answer: the caller
/// takes the frictionless law ([`crate::impulse`]).
pub(crate) fn resolve(
    problem: &ContactProblem,
    state: &mut State,
    rows: &[usize],
    neq: usize,
    e: impl Fn(usize, f64) -> f64,
) -> Option<Impulses> {
    let mut qd = state.qd.clone();
    let mut out = Impulses { normal: Vec::new(), tangential: Vec::new() };
    for island in islands(problem, rows) {
        let sub: Vec<usize> = island.iter().map(|&i| rows[i]).collect();
        let sub_neq = island.iter().take_while(|&&i| i < neq).count();
        island_impact(problem, &mut qd, &sub, sub_neq, &e, &mut out)?;
    }
    state.qd = qd;
    Some(out)
}

/// One island of [`resolve`]: its impulses into `out`, `q̇` changed.
fn island_impact(
    problem: &ContactProblem,
    qd: &mut Vec<f64>,
    rows: &[usize],
    neq: usize,
    e: &impl Fn(usize, f64) -> f64,
    out: &mut Impulses,
) -> Option<()> {
    let mut jrows: Vec<&SparseRow> = rows.iter().map(|&k| &problem.rows[k].row).collect();
    let v: Vec<f64> = jrows.iter().map(|r| r.dot(qd)).collect();
    let mut contacts = Vec::new();
    let mut vt = Vec::new();
    for (i, &k) in rows.iter().enumerate().skip(neq) {
        if let Some(t) = &problem.tangents[k] {
            contacts.push(FrictionContact {
                normal: i,
                tangent: rows.len() + contacts.len(),
                mu: problem.mu[k],
                sliding: None,
            });
            jrows.push(&t.row);
            vt.push(t.row.dot(qd));
        }
    }
    // Past the dense problem's bound: no answer here (the caller takes the
    // frictionless one and says so).
    if jrows.len() > DENSE_ROWS {
        return None;
    }
    let a = dense_a(&jrows, &problem.minv);
    // The restitution scaled by `share` ∈ [0, 1].
    let b_with = |share: f64| -> Vec<f64> {
        let mut b: Vec<f64> = (0..rows.len())
            .map(|i| {
                let e = if share > 0.0 && i >= neq && v[i] < 0.0 { share * e(rows[i], v[i]) } else { 0.0 };
                -(1.0 + e) * v[i]
            })
            .collect();
        b.extend(vt.iter().map(|v| -v));
        b
    };
    let before = problem.kinetic(qd);
    let warm: Vec<bool> = (0..rows.len()).map(|i| i >= neq).collect();
    // Pivoting from every contact sticking; where its impulse does not stop
    // every slip, the start itself, solved completely: the one that does,
    // whenever the cone allows one; where it does not and pivoting found
    // no impulse at all, the answer nearest the start (module docs).
    // One problem, its `b` set for each solve (a copy of a dense `A` each
    // time cost a 210-box pyramid 46 MB a step).
    let mut p = Problem::new(a, Vec::new(), neq, rows.len(), contacts.clone());
    let mut solve = |b: Vec<f64>| -> Option<Vec<f64>> {
        p.b = b;
        let start = p.start(&warm);
        let pivoted = p.solve(start.clone()).ok().map(|ans| ans.lambda);
        if let Some(lambda) = pivoted.as_ref().filter(|l| p.holds_with(&start, l)) {
            return Some(lambda.clone());
        }
        if let Some(lambda) = p.solve_status(&start) {
            return Some(lambda);
        }
        match pivoted {
            Some(lambda) if p.is_zero(&lambda) => p.enumerate(&start).map(|ans| ans.lambda).or(Some(lambda)),
            other => other,
        }
    };
    let after = |lambda: &[f64]| -> Vec<f64> {
        let mut out = qd.clone();
        for (r, l) in jrows.iter().zip(lambda) {
            for (i, x) in r.entries() {
                out[*i] += l * x * problem.minv[*i];
            }
        }
        out
    };
    let mut lambda = solve(b_with(1.0))?;
    let mut qd_after = after(&lambda);
    let makes_energy = |qd: &[f64]| gains(before, problem.kinetic(qd));
    // Newton's restitution with friction can create energy (Kane): then the
    // largest share of it that does not, by bisection (`e = 0` never does).
    // (Only a restitution can be scaled: a plastic island's answer stands.)
    let restitution = (neq..rows.len()).any(|i| v[i] < 0.0 && e(rows[i], v[i]) > 0.0);
    if restitution && makes_energy(&qd_after) {
        let plastic = solve(b_with(0.0))?;
        lambda = largest_share(plastic, 30, |share| solve(b_with(share)).filter(|l| !makes_energy(&after(l))));
        qd_after = after(&lambda);
    }
    *qd = qd_after;
    out.normal.extend(rows.iter().zip(&lambda).filter(|(_, p)| **p != 0.0).map(|(&k, p)| (k, *p)));
    out.tangential.extend(contacts.iter().map(|c| (rows[c.normal], lambda[c.tangent])).filter(|(_, p)| *p != 0.0));
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// On an excess with a kink (two quadratic pieces, as an answer's
    /// energy is piecewise quadratic in its share), the regula falsi keeps
    /// a share that creates no energy, within the bisection's precision of
    /// the largest, in half the solves at most; where a share has no answer it
    /// bisects past it.
    #[test]
    fn the_regula_falsi_finds_the_largest_share_in_few_solves() {
        // Continuous, with a kink at 0.4; its root near 0.828.
        let excess = |s: f64| {
            if s < 0.4 { -0.5 + 0.3 * s * s } else { -0.452 + 0.2 * (s - 0.4) + 2.0 * (s - 0.4).powi(2) }
        };
        let root = {
            let (mut lo, mut hi) = (0.4, 1.0);
            for _ in 0..200 {
                let mid = 0.5 * (lo + hi);
                if excess(mid) <= 0.0 { lo = mid } else { hi = mid }
            }
            lo
        };
        let width = 1.0 / (1u64 << 24) as f64;
        let mut solves = 0;
        let none = |_: &f64, _: &f64| None;
        let share = largest_share_falsi((0.0, excess(0.0)), (1.0, excess(1.0)), 24, width, 0.0, none, |s| {
            solves += 1;
            Some((excess(s), s))
        });
        assert!(excess(share) <= 0.0, "share {share} creates {}", excess(share));
        assert!(root - share <= width, "share {share}, largest {root}");
        assert!(solves <= 12, "{solves} solves, where the bisection takes 24");
        // No answer past 0.65: the largest share with one is below it.
        let share = largest_share_falsi((0.0, excess(0.0)), (1.0, excess(1.0)), 24, width, 0.0, none, |s| {
            (s < 0.65).then(|| (excess(s), s))
        });
        assert!(share < 0.65 && 0.65 - share <= 1e-3, "share {share}");
        // Where the answers' line is the share itself (an answer affine in
        // its share), `between` finds the largest share in one solve, a
        // hair short of it ([`SHORT`] of the way), and it keeps.
        let mut solves = 0;
        let along = |lo: &f64, hi: &f64| crossing(|t| excess(lo + t * (hi - lo)));
        let share = largest_share_falsi((0.0, excess(0.0)), (1.0, excess(1.0)), 24, width, 1e-6, along, |s| {
            solves += 1;
            Some((excess(s), s))
        });
        assert!(excess(share) <= 0.0 && root - share <= SHORT, "share {share}, largest {root}");
        assert_eq!(solves, 1);
        // Where the answers' line keeps aiming past the largest share (the
        // answer not affine in its share between the bracket's ends: a
        // 290-ball pile's rebound took 24 solves, each halfway between the
        // share and the last guess, the bracket's lower end never moving),
        // the line through the excesses takes over after two such guesses.
        let mut solves = 0;
        let past = |lo: &f64, hi: &f64| Some((0.5 * (root + hi) - lo) / (hi - lo));
        let share = largest_share_falsi((0.0, excess(0.0)), (1.0, excess(1.0)), 24, width, 1e-9, past, |s| {
            solves += 1;
            Some((excess(s), s))
        });
        assert!(excess(share) <= 0.0 && root - share <= 1e-6, "share {share}, largest {root}, {solves} solves");
        assert!(solves <= 12, "{solves} solves");
    }
}
