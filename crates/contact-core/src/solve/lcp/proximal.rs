//! The warm start of [`super`]: from a previous answer (a time step's start,
//! or the friction fixed point's last evaluation), proximal-point steps on
//! the rows it held, one factorization a round (`Work::proximal`, the thinned
//! retry `Work::thinned`); and the finish of every island's answer, its
//! clamped set made a basis where it can be (`Work::basis`) or refined on
//! its set (`Work::refine`). The math is in [`super`]'s docs, "From a
//! previous answer" and "The finish".

use super::*;

/// Refinement steps of an island's final answer (`Work::refine`).
const REFINE: usize = 2;

/// The rows of a last step's answer taken as not held, relative to the
/// island's largest impulse ([`solve_lcp_from_step`]).
const THIN: f64 = 1e-6;

/// Rounds of proximal steps from a previous answer ([`solve_lcp_from`]), each
/// one factorization, before the warm set's block rounds take over.
const PROXIMAL_ROUNDS: usize = 4;

/// A proximal round that moves more than one in this many of its clamped rows
/// gives up at once ([`Work::proximal`]): a 1000-ball column still
/// compressing sent 1100–1400 of 2250 negative in the first round, and its
/// block moves oscillated through all 4 rounds (91.6 → 59.6 ms a step at
/// t = 1.2 s); a settling 290-ball pile moves fewer, and converges. One in 8
/// was too few for it (2.3 → 10.6 ms a step).
const PROXIMAL_MOVES: usize = 3;

/// On a large island, the proximal rounds go on past [`PROXIMAL_ROUNDS`], up
/// to this many, while each moves at most one in [`PROXIMAL_LATE_MOVES`] of
/// its clamped rows: a 1000-ball pile at rest needs 5–7 rounds of a few
/// rows each to shed the contacts its gaps' round-off leaves open.
const PROXIMAL_LATE_ROUNDS: usize = 16;
const PROXIMAL_LATE_MOVES: usize = 64;

/// A large island's proximal steps regularize with `ρ A_ii` instead of
/// `ε A_ii` ([`REGULARIZATION`]), and take up to [`PROXIMAL_STEPS`] of them
/// on the factor: a pile of a thousand balls at rest holds 2280 contacts on
/// 2000 coordinates, and its targets (gaps of 1e-12 m over a step) leave
/// `b_C` off the range of `A_CC` by 5e-9 m/s, which `1/ε` turned into
/// impulses 10 times the answer's and hundreds of rows negative, every step.
const PROXIMAL_REGULARIZATION: f64 = 1e-6;
const PROXIMAL_STEPS: usize = 4;

/// A large island's proximal answer holds where `|a_C|` is within this
/// many times the solver's tolerance (a tenth of the contract): that same
/// 5e-9 m/s is 1.5 of it, and only shedding the right contacts (the
/// rounds) brings it to 1e-10.
const PROXIMAL_HOLD: f64 = 5.0;

impl Work<'_> {
    /// [`Work::proximal`] from `start` without its rows below [`THIN`] of the
    /// island's largest (not held), where it has any such row above 0
    /// ([`solve_lcp_from_step`]); `C` back at `start`'s rows where it fails.
    pub(super) fn thinned(&mut self, lp: &mut Lcp, idx: &[usize], start: &[f64]) -> bool {
        let cut = THIN * idx.iter().map(|&i| start[i]).fold(0.0, f64::max);
        if !idx.iter().any(|&i| i >= self.neq && start[i] > 0.0 && start[i] <= cut) {
            return false;
        }
        let mut thin = start.to_vec();
        for &i in idx {
            if i >= self.neq && thin[i] <= cut {
                thin[i] = 0.0;
            }
            lp.clamped[i] = i < self.neq || thin[i] > 0.0;
        }
        if self.proximal(lp, idx, &thin) {
            return true;
        }
        for &i in idx {
            lp.clamped[i] = i < self.neq || start[i] > 0.0;
        }
        false
    }

    /// One proximal-point step on the clamped rows factored in `f`
    /// (`A_CC (1 + ε)`): `λ_C ← λ_C + (A_CC (1 + ε))⁻¹ (b_C − A_C λ)`, the
    /// residual taken with the true `A`.
    fn correct(&self, f: &Envelope, lambda: &mut [f64]) {
        let r: Vec<f64> = f.order.iter().map(|&i| self.b[i] - self.graph.row(i, lambda)).collect();
        let dx = f.solve(&r);
        for (p, &i) in f.order.iter().enumerate() {
            lambda[i] += dx[p];
        }
    }

    /// From a previous answer `λ⁰` on its rows held (`C`, the warm set):
    /// `λ_C ← λ_C + (A_CC (1 + ε))⁻¹ (b_C − A_C λ)` twice from `λ⁰_C`, one
    /// factorization. For a singular, consistent `A_CC` (a hyperstatic pile
    /// at rest: `b_C` is `J_C` times a velocity, less gaps at round-off) this
    /// goes to the answer nearest `λ⁰`, so an interior `λ⁰` (the interior
    /// point's, positive on every held row) stays positive while the pile
    /// barely moves, where the basic answer of a set (pivoting's) has
    /// negative entries on a hyperstatic set's noise. Kept when complementary
    /// (`λ_C ≥ 0`, `|a_C| ≤ tol`, `a_N ≥ −tol`). Otherwise the rows with
    /// `λ_i < 0` leave `C` (at `λ_i = 0`), those with `a_i < −tol` join it,
    /// and the same steps go on from there, at most [`PROXIMAL_ROUNDS`]
    /// times (a pile creeping: a contact opens or closes). When that does not
    /// end, or `C` cannot hold (`|a_C| > tol` at `λ_C ≥ 0`), `λ` is left at 0
    /// on the island, `C` at the warm set, and false is returned.
    ///
    /// A large island (more than [`LARGE_ISLAND`] rows) whose `b_C` is off
    /// the range of a singular `A_CC` (a pile at rest, its gaps' round-off)
    /// takes up to [`PROXIMAL_STEPS`] steps regularized by
    /// [`PROXIMAL_REGULARIZATION`], holds within [`PROXIMAL_HOLD`] times
    /// `tol`, and goes on for up to [`PROXIMAL_LATE_ROUNDS`] rounds while
    /// they move few rows: the settled 1000-ball pile went from the interior
    /// point every step (28 ms) to one or two factorizations (a median of
    /// 6.4 ms, release, 29 Nov 2026).
    pub(super) fn proximal(&mut self, lp: &mut Lcp, idx: &[usize], start: &[f64]) -> bool {
        let g = self.graph;
        let large = idx.len() > LARGE_ISLAND;
        let (rho, steps, hold, rounds) = if large {
            (PROXIMAL_REGULARIZATION, PROXIMAL_STEPS, PROXIMAL_HOLD, PROXIMAL_LATE_ROUNDS)
        } else {
            (self.eps, REFINE, 1.0, PROXIMAL_ROUNDS)
        };
        for &i in idx {
            lp.lambda[i] = if lp.clamped[i] { start[i] } else { 0.0 };
        }
        let worst_clamped =
            |lp: &Lcp| idx.iter().filter(|&&i| lp.clamped[i]).map(|&i| lp.a[i].abs()).fold(0.0, f64::max);
        // The last round's factor and its rows (the clamped set it left):
        // the next factors again only from the first row of `idx` whose
        // side changed (a row depends only on those before it, so this is
        // bit for bit a fresh factorization; a standing 55-box pyramid at
        // μ = 0.3 sheds an edge at −1e-8 in two steps of three).
        let mut last: Option<(Envelope, Vec<bool>)> = None;
        for round in 0..rounds {
            let f = match last.take() {
                None => self.factor_with(lp, idx, rho),
                Some((mut f, had)) => {
                    let k = idx.iter().zip(&had).position(|(&i, h)| lp.clamped[i] != *h).unwrap_or(idx.len());
                    f.truncate(had[..k].iter().filter(|h| **h).count());
                    self.push_clamped(&mut f, lp, &idx[k..]);
                    f
                }
            };
            // The island's sides the factor holds, in `idx`'s order.
            let had: Vec<bool> = idx.iter().map(|&i| lp.clamped[i]).collect();
            for &i in idx {
                if !lp.clamped[i] {
                    lp.lambda[i] = 0.0;
                }
            }
            // The steps `REFINE` at least, then while `|a_C|` is over half
            // the tolerance.
            let mut tol = 0.0;
            for k in 0..steps {
                self.correct(&f, &mut lp.lambda);
                if k + 1 >= REFINE {
                    for &i in idx {
                        lp.a[i] = g.row(i, &lp.lambda) - self.b[i];
                    }
                    tol = self.tol(lp, idx);
                    if worst_clamped(lp) <= 0.5 * tol {
                        break;
                    }
                }
            }
            let scale = idx.iter().map(|&i| lp.lambda[i].abs()).fold(0.0, f64::max);
            let clamped = self.clamped_list(lp);
            let (mut entered, mut left, mut holds) = (Vec::new(), Vec::new(), true);
            for &i in idx {
                let (l, a) = (lp.lambda[i], lp.a[i]);
                if i < self.neq {
                    holds &= a.abs() <= hold * tol;
                } else if lp.clamped[i] {
                    if l < -1e-12 * scale {
                        left.push((i, l));
                    } else {
                        holds &= a.abs() <= hold * tol;
                    }
                } else if a < -tol {
                    entered.push((i, a));
                }
            }
            // Rows by the third changing side (a column still compressing,
            // far from the last impulses): block moves from here oscillate,
            // and each round is a factorization; the warm set's path takes it.
            let moves = entered.len() + left.len();
            let most = if round < PROXIMAL_ROUNDS { PROXIMAL_MOVES } else { PROXIMAL_LATE_MOVES };
            if !holds || moves * most > clamped_count(lp, idx) {
                break;
            }
            let done = moves == 0;
            for &(i, _) in &left {
                lp.clamped[i] = false;
                lp.lambda[i] = 0.0;
            }
            for &(i, _) in &entered {
                lp.clamped[i] = true;
            }
            self.record(lp, entered, left, clamped);
            if done {
                return true;
            }
            last = Some((f, had));
        }
        for &i in idx {
            lp.lambda[i] = 0.0;
            lp.a[i] = -self.b[i];
            lp.clamped[i] = i < self.neq || start[i] > 0.0;
        }
        false
    }

    /// Refines an island's answer on its final clamped set: the regularized
    /// factor `A_CC (1 + ε)` solves for the residual of the true `A`,
    ///
    /// ```text
    /// λ_C ← λ_C + (A_CC (1 + ε))⁻¹ (b_C − A_C λ)      (twice)
    /// ```
    ///
    /// (a proximal-point step: each shrinks `a_C` by a factor of about `ε`
    /// relative to the row's scale, and for a singular, consistent `A_CC` it
    /// converges to an exact solution). Without it a row's `a_C` stays off by
    /// `ε A_ii λ_i`, which masses spanning decades turn into 1e-9 m/s² on a
    /// light ball. `a` is then taken with the true `A`.
    pub(super) fn refine(&self, lp: &mut Lcp, idx: &[usize]) {
        let g = self.graph;
        if self.basis(lp, idx) {
            return;
        }
        let f = self.factor(lp, idx);
        let residual = |l: &[f64]| f.order.iter().map(|&i| (self.b[i] - g.row(i, l)).abs()).fold(0.0, f64::max);
        let mut worst = residual(&lp.lambda);
        for _ in 0..REFINE {
            let before: Vec<f64> = f.order.iter().map(|&i| lp.lambda[i]).collect();
            self.correct(&f, &mut lp.lambda);
            // A clamped set that is not consistent (`b_C` off the range of a
            // singular `A_CC` by round-off) sends the step along the null
            // space: kept only when it lowers the residual and keeps `λ_C ≥ 0`.
            let after = residual(&lp.lambda);
            if after.partial_cmp(&worst) != Some(std::cmp::Ordering::Less)
                || f.order.iter().any(|&i| i >= self.neq && lp.lambda[i] < 0.0)
            {
                for (p, &i) in f.order.iter().enumerate() {
                    lp.lambda[i] = before[p];
                }
                break;
            }
            worst = after;
        }
        for &i in idx {
            lp.a[i] = g.row(i, &lp.lambda) - self.b[i];
        }
    }

    /// The crossover to a basis: the clamped rows factored exactly (no `ε`),
    /// each row whose pivot falls below [`PIVOT_TOL`] of its `A_ii` left out
    /// (it depends on the rows before it: a hyperstatic pile's extra
    /// contacts), and `A_BB λ_B = b_B` solved on the independent rows `B`
    /// that are left. Kept, with `C = B`, when it is complementary to the
    /// tolerance (the rows left out included: `b_C` is then consistent). A
    /// basis is what the next step's warm start needs: a dependent clamped set
    /// whose `b_C` drifts off the range of `A_CC` sends the regularized solve
    /// to `λ` 1e3 times the answer.
    pub(super) fn basis(&self, lp: &mut Lcp, idx: &[usize]) -> bool {
        let g = self.graph;
        let mut f = Envelope::new(lp.lambda.len(), 0.0);
        for &i in idx {
            if lp.clamped[i] {
                f.push(g, i, PIVOT_TOL);
            }
        }
        let x = f.solve(&f.order.iter().map(|&i| self.b[i]).collect::<Vec<_>>());
        if f.order.iter().zip(&x).any(|(&i, &l)| i >= self.neq && l < 0.0) {
            return false;
        }
        let saved: Vec<f64> = idx.iter().map(|&i| lp.lambda[i]).collect();
        for &i in idx {
            lp.lambda[i] = 0.0;
        }
        for (p, &i) in f.order.iter().enumerate() {
            lp.lambda[i] = x[p];
        }
        let tol = self.tol(lp, idx);
        let ok = idx.iter().all(|&i| {
            let a = g.row(i, &lp.lambda) - self.b[i];
            if f.contains(i) {
                true
            } else if i < self.neq || lp.clamped[i] {
                a.abs() <= tol
            } else {
                a >= -tol
            }
        });
        if !ok {
            for (&i, &l) in idx.iter().zip(&saved) {
                lp.lambda[i] = l;
            }
            return false;
        }
        for &i in idx {
            lp.clamped[i] = i < self.neq || f.contains(i);
            lp.a[i] = g.row(i, &lp.lambda) - self.b[i];
        }
        true
    }
}
