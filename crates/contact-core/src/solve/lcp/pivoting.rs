//! The pivoting of [`super`] on one island: block moves of every infeasible
//! index at once, Murty's single moves when they stop improving
//! (`Work::block`), and Dantzig's principal pivoting (Baraff 1994) from a
//! feasible start (`Work::shrink`, `Work::dantzig`), with their budgets. The
//! math is in [`super`]'s docs.

use super::*;

/// Rounds of block moves allowed without progress before single moves.
const BLOCK_TRIES: usize = 3;

/// Dantzig's pivots on an island of `m` rows: at most `PIVOTS_PER_ROW m + 20`.
const PIVOTS_PER_ROW: usize = 20;

/// Dantzig's pivots on an island of `m` rows before the interior point
/// finishes it: `BUDGET_PIVOTS + m / BUDGET_ROWS_PER_PIVOT`. Counted, not
/// timed, so a replay takes the same path bit for bit.
const BUDGET_PIVOTS: usize = 64;
const BUDGET_ROWS_PER_PIVOT: usize = 2;

/// Rounds of block moves tried on an island before falling back to single pivots.
const BLOCK_ROUNDS: usize = 40;

/// The same on a large island (more than `LARGE_ISLAND` rows), warm or
/// predicted, before the interior point finishes it. Its block moves find a
/// set near the answer when one is (a settled pile: one round); past that
/// they clamp dependent rows together, and each round is a factorization of
/// the island. The interior point on faer's Cholesky takes 15–17 iterations
/// there, 1.1–1.8 ms on 600 rows. A 300-ball pile's first 1.5 s (release,
/// median / worst a step): 40 block rounds then Dantzig's pivoting to its
/// budget, 25 / 205 ms (1000–1600 rounds in its slowest steps); 3 block
/// rounds then the interior point, 13 / 312 ms; 1 round, 64 / 311 ms.
const LARGE_ROUNDS: usize = 3;

/// A settling island's block moves stop when `λ` grows this many times past
/// the warm round's: dependent rows were clamped together.
const EXPLOSION: f64 = 1e3;

impl Work<'_> {
    /// Block principal pivoting on one island (see the module docs). False when
    /// it did not converge within [`BLOCK_ROUNDS`], or, with `guard`, as soon
    /// as `λ` grows [`EXPLOSION`] times past the warm round's.
    pub(super) fn block(&mut self, lp: &mut Lcp, idx: &[usize], guard: bool) -> bool {
        let rounds = if idx.len() > LARGE_ISLAND { LARGE_ROUNDS } else { BLOCK_ROUNDS };
        let (mut best, mut tries) = (usize::MAX, BLOCK_TRIES);
        let mut first_scale = 0.0;
        for round in 0..rounds {
            self.solve_clamped(lp, idx);
            let tol = self.tol(lp, idx);
            let clamped = self.clamped_list(lp);
            let scale = idx.iter().map(|&i| lp.lambda[i].abs()).fold(0.0, f64::max);
            if round == 0 {
                first_scale = scale;
            } else if guard && scale > EXPLOSION * first_scale.max(f64::MIN_POSITIVE) {
                // Dependent rows entered together (a hyperstatic pile): no use going on.
                return false;
            }
            let infeasible: Vec<usize> = idx
                .iter()
                .copied()
                .filter(|&i| {
                    i >= self.neq && if lp.clamped[i] { lp.lambda[i] < -1e-12 * scale } else { lp.a[i] < -tol }
                })
                .collect();
            if infeasible.is_empty() {
                self.record(lp, Vec::new(), Vec::new(), clamped);
                return true;
            }
            let moves: Vec<usize> = if infeasible.len() < best {
                best = infeasible.len();
                tries = BLOCK_TRIES;
                infeasible
            } else if tries > 0 {
                tries -= 1;
                infeasible
            } else {
                vec![*infeasible.last().expect("not empty")]
            };
            let (mut entered, mut left) = (Vec::new(), Vec::new());
            for i in moves {
                if lp.clamped[i] {
                    left.push((i, lp.lambda[i]));
                } else {
                    entered.push((i, lp.a[i]));
                }
                lp.clamped[i] = !lp.clamped[i];
            }
            self.record(lp, entered, left, clamped);
        }
        false
    }

    /// Releases clamped inequalities with `λ < 0` until none is left: the start
    /// Dantzig's pivoting needs (`λ_C ≥ 0`, `a_C = 0`). `C` only shrinks, so it ends.
    pub(super) fn shrink(&mut self, lp: &mut Lcp, idx: &[usize]) {
        loop {
            self.solve_clamped(lp, idx);
            let negative: Vec<usize> =
                idx.iter().copied().filter(|&i| i >= self.neq && lp.clamped[i] && lp.lambda[i] < 0.0).collect();
            if negative.is_empty() {
                return;
            }
            let clamped = self.clamped_list(lp);
            let left = negative.iter().map(|&i| (i, lp.lambda[i])).collect();
            for &i in &negative {
                lp.clamped[i] = false;
            }
            self.record(lp, Vec::new(), left, clamped);
        }
    }

    /// Dantzig's principal pivoting (Baraff 1994) on one island, from a clamped
    /// set with `λ_C ≥ 0` (`E` alone on a small cold problem):
    /// each inequality `d` with `a_d < 0` is driven to zero along
    ///
    /// ```text
    /// Δλ_d = 1,   Δλ_C = −A_CC⁻¹ A_Cd,   Δa = A Δλ
    /// ```
    ///
    /// by the largest step that keeps `λ_C ≥ 0` and `a_N ≥ 0` (the ratio test);
    /// the blocking index changes side and the drive resumes until `a_d = 0`.
    /// Rows with `a_i ≥ −tol` are not driven.
    pub(super) fn dantzig(&mut self, lp: &mut Lcp, idx: &[usize]) {
        self.solve_clamped(lp, idx);
        let max_pivots = self.limits.cap.unwrap_or(PIVOTS_PER_ROW * idx.len() + 20);
        let budget = self.limits.budget.unwrap_or(BUDGET_PIVOTS + idx.len() / BUDGET_ROWS_PER_PIVOT);
        let mut pivots = 0;
        let mut f = self.factor(lp, idx);
        loop {
            let tol = self.tol(lp, idx);
            let next = idx
                .iter()
                .copied()
                .filter(|&i| i >= self.neq && !lp.clamped[i] && lp.a[i] < -tol)
                .min_by(|&i, &j| lp.a[i].total_cmp(&lp.a[j]));
            let Some(d) = next else { return };
            let a_start = lp.a[d];
            loop {
                if pivots >= max_pivots {
                    lp.capped = Some(Cap { rows: idx.len(), pivots, why: Stop::Pivots });
                    return;
                }
                if pivots >= budget {
                    self.interior(lp, idx, pivots, true);
                    return;
                }
                pivots += 1;
                // Δλ on C ∪ {d}.
                let mut rhs = vec![0.0; f.len()];
                for (i, v) in &self.graph.adj[d] {
                    if let Some(p) = f.position(*i) {
                        rhs[p] = -v;
                    }
                }
                let x = f.solve(&rhs);
                let mut support: Vec<(usize, f64)> = f.order.iter().copied().zip(x).collect();
                support.push((d, 1.0));
                // Δa = A Δλ on the rows the support touches.
                let mut touched = Vec::new();
                for &(j, dl) in &support {
                    for &(i, v) in self.graph.adj[j].iter().chain([&(j, self.graph.diag[j] * (1.0 + self.eps))]) {
                        if self.da[i] == 0.0 {
                            touched.push(i);
                        }
                        self.da[i] += v * dl;
                    }
                }
                let tiny = 1e-14;
                let mut best: Option<(f64, usize)> = None;
                let mut consider = |s: f64, i: usize| {
                    if best.is_none_or(|(bs, _)| s < bs) {
                        best = Some((s.max(0.0), i));
                    }
                };
                if self.da[d] > tiny {
                    consider(-lp.a[d] / self.da[d], d);
                }
                for &(i, dl) in &support[..support.len() - 1] {
                    if i >= self.neq && dl < -tiny {
                        consider(-lp.lambda[i] / dl, i);
                    }
                }
                for &i in &touched {
                    if !lp.clamped[i] && i != d && i >= self.neq && self.da[i] < -tiny && lp.a[i] >= -tol {
                        consider(-lp.a[i] / self.da[i], i);
                    }
                }
                let Some((s, j)) = best else {
                    // Nothing blocks and a_d cannot rise: the constraints are infeasible.
                    for &i in &touched {
                        self.da[i] = 0.0;
                    }
                    lp.capped = Some(Cap { rows: idx.len(), pivots, why: Stop::Infeasible });
                    return;
                };
                for &(i, dl) in &support {
                    lp.lambda[i] += s * dl;
                }
                for &i in &touched {
                    lp.a[i] += s * self.da[i];
                    self.da[i] = 0.0;
                }
                // Each pivot is one solve with the clamped set after it.
                let entering = j == d || !lp.clamped[j];
                if entering {
                    lp.clamped[j] = true;
                    lp.a[j] = 0.0;
                    if !f.push(self.graph, j, 0.0) {
                        f = self.factor(lp, idx);
                    }
                } else {
                    lp.clamped[j] = false;
                    lp.lambda[j] = 0.0;
                    for i in f.remove(self.graph, j, 0.0) {
                        lp.clamped[i] = false;
                    }
                }
                let clamped = self.clamped_list(lp);
                if entering {
                    self.record(lp, vec![(j, if j == d { a_start } else { 0.0 })], Vec::new(), clamped);
                } else {
                    self.record(lp, Vec::new(), vec![(j, 0.0)], clamped);
                }
                if j == d {
                    break;
                }
            }
        }
    }
}
