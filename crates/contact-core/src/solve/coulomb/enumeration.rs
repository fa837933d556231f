//! Every status tried ([`Problem::enumerate`], up to [`ENUMERATION_LIMIT`]
//! status vectors), and a status vector's own answer solved completely
//! ([`Problem::solve_status`]): the oracle of the small islands, and the
//! last resort of [`super`]'s solve.

use super::status_system::{deepest, rank_revealing};
use super::*;

/// The most status vectors an island may have for [`Problem::enumerate`]:
/// `4⁸` (8 contacts that may stick, or 16 that slide, or 16 rows without
/// friction). Past it, a ray of Lemke's method is taken as it comes
/// ([`Proof::LemkeRay`]).
pub const ENUMERATION_LIMIT: usize = 1 << 16;

impl Problem {
    /// The statuses normal row `i` may take (`of`: [`Self::contact_of`]):
    /// on for an equality; off or on without friction; off or its slip for
    /// a contact that slides; off, stick, or slip either way for one that
    /// may stick.
    fn choices(&self, of: &[Option<usize>], i: usize) -> Vec<Mode> {
        if i < self.neq {
            return vec![Mode::On];
        }
        match of[i].map(|c| self.contacts[c]) {
            None => vec![Mode::Off, Mode::On],
            Some(FrictionContact { sliding: Some(s), .. }) => vec![Mode::Off, Mode::Slip(s)],
            Some(_) => vec![Mode::Off, Mode::Stick, Mode::Slip(1.0), Mode::Slip(-1.0)],
        }
    }

    /// The number of status vectors (saturating): the product of each normal
    /// row's choices.
    pub fn statuses(&self) -> usize {
        let of = self.contact_of();
        (0..self.nnormal).fold(1usize, |n, i| n.saturating_mul(self.choices(&of, i).len()))
    }

    /// Every status vector, nearest `start` first (fewest rows changed, then
    /// in order), each solved by [`Self::solve_status`]: the first answer,
    /// or `None` when no status holds, which proves that no answer exists
    /// (to the strict contract). `None` too past [`ENUMERATION_LIMIT`]
    /// statuses, untried.
    pub fn enumerate(&self, start: &[Mode]) -> Option<Answer> {
        if self.statuses() > ENUMERATION_LIMIT {
            return None;
        }
        let of = self.contact_of();
        // Each row's choices with its start first.
        let choices: Vec<Vec<Mode>> = (0..self.nnormal)
            .map(|i| {
                let mut c = self.choices(&of, i);
                if let Some(p) = start.get(i).and_then(|m| c.iter().position(|x| x == m)) {
                    c[..=p].rotate_right(1);
                }
                c
            })
            .collect();
        let total = choices.iter().map(Vec::len).product::<usize>();
        // The status vectors by their distance from the start (a digit 0 is the start's).
        let digits = |mut index: usize| -> Vec<usize> {
            choices
                .iter()
                .map(|c| {
                    let d = index % c.len();
                    index /= c.len();
                    d
                })
                .collect()
        };
        let mut by_distance: Vec<Vec<usize>> = vec![Vec::new(); self.nnormal + 1];
        for index in 0..total {
            by_distance[digits(index).iter().filter(|&&d| d != 0).count()].push(index);
        }
        for index in by_distance.into_iter().flatten() {
            let modes: Vec<Mode> = digits(index).iter().zip(&choices).map(|(&d, c)| c[d]).collect();
            if let Some(lambda) = self.solve_status(&modes) {
                return Some(Answer { lambda, modes, rounds: Vec::new(), method: Method::Enumeration });
            }
        }
        None
    }

    /// The answer with the statuses `modes`, if one holds (to the strict
    /// contract, [`Self::strict_ratio`]): complete for one status vector.
    ///
    /// ```text
    /// unknowns x:  λ on the rows on, λ_t of the contacts that stick;  λ = L x  (λ_t = −s μ λ_n on a slip)
    /// K x = r:     w = A L x − b = 0 on the rows of the unknowns
    /// G x ≥ h:     λ_n ≥ 0 on;  μ λ_n ∓ λ_t ≥ 0 stick;  w_n ≥ 0 off;  s w_t ≥ 0 slip (of a contact that may stick)
    /// ```
    ///
    /// `K x = r` by Gaussian elimination with complete pivoting
    /// (`rank_revealing`): `x₀`, and where `K` is singular (dependent
    /// rows) the null space `N`. Its other solutions `x₀ + N y` must hold it
    /// too (the residual of `x₀`, to the strict contract), and the `y`
    /// deepest inside `G (x₀ + N y) ≥ h` comes from a small linear program
    /// (`deepest`, the rows of `w` divided by `‖A‖`).
    pub fn solve_status(&self, modes: &[Mode]) -> Option<Vec<f64>> {
        let of = self.contact_of();
        let m = self.m();
        // Unknowns: the rows on, then the tangents that stick; `λ = L x`.
        let mut rows: Vec<usize> = (0..self.nnormal).filter(|&i| modes[i].is_on()).collect();
        rows.extend(self.contacts.iter().filter(|c| modes[c.normal] == Mode::Stick).map(|c| c.tangent));
        let n = rows.len();
        let position = |r: usize| rows.iter().position(|&x| x == r);
        let mut l: Vec<Vec<(usize, f64)>> = rows.iter().map(|&r| vec![(r, 1.0)]).collect();
        for fc in &self.contacts {
            if let (Mode::Slip(s), Some(j)) = (modes[fc.normal], position(fc.normal)) {
                l[j].push((fc.tangent, -s * fc.mu));
            }
        }
        let lambda_of = |x: &[f64]| -> Vec<f64> {
            let mut lambda = vec![0.0; m];
            for (col, xj) in l.iter().zip(x) {
                for &(r, c) in col {
                    lambda[r] += c * xj;
                }
            }
            lambda
        };
        // `A L`, and the system: w = 0 on the unknowns' rows.
        let al = DMatrix::from_fn(m, n, |e, j| l[j].iter().map(|&(r, c)| c * self.a[(e, r)]).sum::<f64>());
        let k = DMatrix::from_fn(n, n, |i, j| al[(rows[i], j)]);
        let r: Vec<f64> = rows.iter().map(|&i| self.b[i]).collect();
        let (x0, null) = rank_revealing(&k, &r);
        let lambda = lambda_of(&x0);
        if self.strict_ratio(&lambda) <= 1.0 {
            return Some(lambda);
        }
        // A singular system must hold (`r` in the range of `K`): its other
        // solutions `x₀ + N y` keep its residual.
        let (ew, _) = self.tolerances_with(&lambda, true);
        let residual =
            (0..n).map(|i| ((0..n).map(|j| k[(i, j)] * x0[j]).sum::<f64>() - r[i]).abs()).fold(0.0, f64::max);
        if null.is_empty() || residual > ew {
            return None;
        }
        // The status's inequalities `g·x ≥ h`, in units of λ (rows of `w`
        // divided by ‖A‖).
        let norm_a = (0..m)
            .map(|i| self.a.row(i).iter().map(|x| x.abs()).sum::<f64>())
            .fold(0.0, f64::max)
            .max(f64::MIN_POSITIVE);
        let unit = |j: usize| -> Vec<f64> { (0..n).map(|i| f64::from(u8::from(i == j))).collect() };
        let w_row = |e: usize, sign: f64| -> (Vec<f64>, f64) {
            ((0..n).map(|j| sign * al[(e, j)] / norm_a).collect(), sign * self.b[e] / norm_a)
        };
        let mut ineq: Vec<(Vec<f64>, f64)> = Vec::new();
        for i in self.neq..self.nnormal {
            let Some(j) = position(i) else {
                ineq.push(w_row(i, 1.0)); // off: w_n ≥ 0
                continue;
            };
            ineq.push((unit(j), 0.0)); // on: λ_n ≥ 0
            let Some(fc) = of[i].map(|c| self.contacts[c]) else { continue };
            match modes[i] {
                Mode::Stick => {
                    let t = position(fc.tangent).expect("a stick's tangent is an unknown");
                    for sign in [1.0, -1.0] {
                        let mut g = unit(j);
                        g[j] = fc.mu;
                        g[t] = -sign;
                        ineq.push((g, 0.0)); // μ λ_n ∓ λ_t ≥ 0
                    }
                }
                Mode::Slip(s) if fc.sliding.is_none() => ineq.push(w_row(fc.tangent, s)), // s w_t ≥ 0
                _ => {}
            }
        }
        // In y: g·N y ≥ h − g·x₀.
        let g: Vec<Vec<f64>> = ineq
            .iter()
            .map(|(g, _)| null.iter().map(|col| g.iter().zip(col).map(|(a, b)| a * b).sum()).collect())
            .collect();
        let h: Vec<f64> = ineq.iter().map(|(g, h)| h - g.iter().zip(&x0).map(|(a, b)| a * b).sum::<f64>()).collect();
        let scale =
            x0.iter().map(|v| v * v).sum::<f64>().sqrt() + self.b.iter().map(|v| v * v).sum::<f64>().sqrt() / norm_a;
        let y = deepest(&g, &h, null.len(), scale.max(f64::MIN_POSITIVE))?;
        let mut x = x0;
        for (col, yc) in null.iter().zip(&y) {
            for (xi, ci) in x.iter_mut().zip(col) {
                *xi += ci * yc;
            }
        }
        let lambda = lambda_of(&x);
        (self.strict_ratio(&lambda) <= 1.0).then_some(lambda)
    }
}
