//! Coulomb's velocity problem by non-smooth Gauss–Seidel (Moreau 1988;
//! Jean 1999; Siconos's `fc2d_nsgs`): each contact in turn solved exactly
//! for its own two impulses, the others held. [`crate::cone_fixed_point`]
//! takes it where its fixed point on the shift stalls, to bring the shift
//! near enough for one exact frictionless solve to meet the contract; it
//! never hands an answer out unchecked.
//!
//! The rows are those of [`crate::coulomb`]: normal rows (equalities first),
//! then one tangential row per contact with friction, with `a = A λ − b` the
//! relative velocities (`u_n` with its target, `u_t`). For a contact with
//! rows `n`, `t`, coefficient `μ` and `W` the 2×2 block of `A` on them, the
//! others fixed give `u = W P + q`, and the contact's Coulomb law has an
//! answer in closed form, tried in this order:
//!
//! ```text
//! apart:      P = 0                        where q_n ≥ 0
//! stick:      W P = −q                     where P_n > 0, |P_t| ≤ μ P_n
//! slip σ=±1:  P_t = −σ μ P_n,  u_n = 0     where P_n > 0, σ u_t ≥ 0
//!             (W_nn − σ μ W_nt) P_n = −q_n
//! ```
//!
//! (one of them holds whenever `W` is positive definite and `W_nn > μ
//! |W_nt|`, which a disc's contact always has; past that, Painlevé's bound,
//! the nearest of the three is taken and the contract judges). A row
//! without friction is a projected Gauss–Seidel update, `λ_i ← max(0, λ_i −
//! a_i / A_ii)` (equalities unclamped). Each update keeps `a` current by
//! its column of `A` (the row's neighbours in [`SchurGraph`]), so a sweep
//! costs the non-zeros of `A`.
//!
//! On a pile the sweeps contract at a rate near 1, but they contract where
//! the fixed point on the shift circles (a contact whose slip follows its
//! own shift one for one, held by stuck neighbours: `G − Id` singular
//! there, and Newton's step on it is huge): the statically indeterminate
//! impulses spread over the rows and the slips settle.

use crate::schur::SchurGraph;

/// A contact with friction: its normal row, its tangential row, `μ`, and
/// `A_nt` (0 where the rows share no coordinate).
#[derive(Clone, Copy, Debug)]
pub struct Pair {
    pub normal: usize,
    pub tangent: usize,
    pub mu: f64,
}

/// What [`solve`] reached.
#[derive(Clone, Debug)]
pub struct Sweeps {
    /// `λ` over every row: the last sweep's.
    pub lambda: Vec<f64>,
    /// The sweeps taken.
    pub sweeps: usize,
    /// Whether `done` took it.
    pub done: bool,
}

/// Sweeps between two calls of `done`.
pub const CHECK: usize = 8;

/// Sweeps `a = A λ − b` from `start` (put into the cones) until `done`
/// (asked every [`CHECK`] sweeps) takes it, or `max_sweeps`. `neq`: equalities first; `pairs`: the
/// contacts with friction (every other row from `neq` on is a frictionless
/// inequality).
pub fn solve(
    graph: &SchurGraph,
    b: &[f64],
    neq: usize,
    pairs: &[Pair],
    start: &[f64],
    max_sweeps: usize,
    mut done: impl FnMut(&[f64]) -> bool,
) -> Sweeps {
    let m = graph.len();
    let mut paired = vec![false; m];
    let coupling: Vec<f64> = pairs
        .iter()
        .map(|p| {
            paired[p.normal] = true;
            paired[p.tangent] = true;
            graph.adj[p.normal].iter().find(|(j, _)| *j == p.tangent).map_or(0.0, |(_, v)| *v)
        })
        .collect();
    let update = |lambda: &mut [f64], a: &mut [f64], i: usize, next: f64| {
        let d = next - lambda[i];
        if d != 0.0 {
            lambda[i] = next;
            a[i] += graph.diag[i] * d;
            for (j, v) in &graph.adj[i] {
                a[*j] += v * d;
            }
        }
    };
    // Start inside the cones: λ ≥ 0 on inequalities, |P_t| ≤ μ P_n.
    let mut lambda = start.to_vec();
    for (i, v) in lambda.iter_mut().enumerate() {
        if i >= neq && !paired[i] {
            *v = v.max(0.0);
        }
    }
    for p in pairs {
        lambda[p.normal] = lambda[p.normal].max(0.0);
        let bound = p.mu * lambda[p.normal];
        lambda[p.tangent] = lambda[p.tangent].clamp(-bound, bound);
    }
    let mut a: Vec<f64> = graph.mul(&lambda).iter().zip(b).map(|(x, b)| x - b).collect();
    let mut sweeps = 0;
    loop {
        // Every frictionless row, then every contact.
        for i in 0..m {
            if paired[i] || graph.diag[i] <= 0.0 {
                continue;
            }
            let next = lambda[i] - a[i] / graph.diag[i];
            update(&mut lambda, &mut a, i, if i < neq { next } else { next.max(0.0) });
        }
        for (p, &wnt) in pairs.iter().zip(&coupling) {
            let (n, t) = (p.normal, p.tangent);
            let (wnn, wtt) = (graph.diag[n], graph.diag[t]);
            let qn = a[n] - wnn * lambda[n] - wnt * lambda[t];
            let qt = a[t] - wnt * lambda[n] - wtt * lambda[t];
            let (pn, pt) = local(wnn, wnt, wtt, qn, qt, p.mu);
            update(&mut lambda, &mut a, n, pn);
            update(&mut lambda, &mut a, t, pt);
        }
        sweeps += 1;
        if sweeps % CHECK == 0 && done(&lambda) {
            return Sweeps { lambda, sweeps, done: true };
        }
        if sweeps >= max_sweeps {
            return Sweeps { lambda, sweeps, done: false };
        }
    }
}

/// One contact's Coulomb law for `u = W P + q` (module docs): `(P_n, P_t)`.
pub fn local(wnn: f64, wnt: f64, wtt: f64, qn: f64, qt: f64, mu: f64) -> (f64, f64) {
    if qn >= 0.0 || wnn <= 0.0 {
        return (0.0, 0.0);
    }
    let det = wnn * wtt - wnt * wnt;
    if det > 1e-14 * wnn * wtt {
        let pn = (-qn * wtt + qt * wnt) / det;
        let pt = (-qt * wnn + qn * wnt) / det;
        if pn > 0.0 && pt.abs() <= mu * pn {
            return (pn, pt);
        }
    }
    let mut nearest = (0.0, 0.0, f64::INFINITY);
    for sigma in [1.0, -1.0] {
        let k = wnn - sigma * mu * wnt;
        if k <= 0.0 {
            continue;
        }
        let pn = -qn / k;
        let pt = -sigma * mu * pn;
        let ut = wnt * pn + wtt * pt + qt;
        if sigma * ut >= 0.0 {
            return (pn, pt);
        }
        if (sigma * ut).abs() < nearest.2 {
            nearest = (pn, pt, (sigma * ut).abs());
        }
    }
    (nearest.0, nearest.1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The closed form agrees with the oracle of every status on random
    /// positive definite blocks: the status it returns holds.
    #[test]
    fn the_local_answer_meets_coulombs_law() {
        let mut rng = crate::lcg::Lcg::new(7);
        let mut rnd = || rng.range(-1.0, 1.0);
        for _ in 0..10_000 {
            // W = Jᵀ J of a random 2×3 J (a disc: n and t through its centre or not).
            let j = [[rnd(), rnd(), rnd()], [rnd(), rnd(), rnd()]];
            let dot = |a: &[f64; 3], b: &[f64; 3]| a.iter().zip(b).map(|(x, y)| x * y).sum::<f64>();
            let (wnn, wnt, wtt) = (dot(&j[0], &j[0]), dot(&j[0], &j[1]), dot(&j[1], &j[1]));
            let (qn, qt, mu) = (rnd(), rnd(), 2.0 * rnd().abs());
            if wnn <= mu * wnt.abs() {
                continue;
            }
            let (pn, pt) = local(wnn, wnt, wtt, qn, qt, mu);
            let un = wnn * pn + wnt * pt + qn;
            let ut = wnt * pn + wtt * pt + qt;
            let scale = 1e-9 * (1.0 + pn.abs() + pt.abs());
            assert!(pn >= 0.0 && un >= -scale && (pn * un).abs() <= scale, "normal: {pn} {un}");
            assert!(pt.abs() <= mu * pn + scale, "cone: {pt} {pn}");
            if pn > 0.0 && pt.abs() < mu * pn - scale {
                assert!(ut.abs() <= scale, "sticks with slip {ut}");
            } else if pn > 0.0 {
                assert!(pt * ut <= scale, "slides with the friction along the slip: {pt} {ut}");
            }
        }
    }
}
