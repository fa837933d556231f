//! Coulomb friction in the plane as a complementarity problem, exact: the
//! statuses of the contacts by pivoting, and Lemke's method where pivoting
//! cycles ([`crate::friction`] sets the problems up; this module only sees
//! `A` and `b`).
//!
//! The rows are normal rows (equalities first, then contacts and other
//! inequalities) and, after them, one tangential row per contact with
//! friction ([`crate::tangent`]). With `λ` over all rows,
//! `w = A λ − b` (an acceleration, or a velocity for impulses), and for a
//! contact `k` with normal row `n`, tangential row `t` and coefficient `μ`:
//!
//! ```text
//! normal:       w_n ≥ 0,  λ_n ≥ 0,  λ_n w_n = 0
//! stick:        w_t = 0,  |λ_t| ≤ μ λ_n
//! slip s = ±1:  s w_t ≥ 0,  λ_t = −s μ λ_n       (friction against the slip)
//! ```
//!
//! In the plane the cone has two edges, so this is exactly a linear
//! complementarity problem: with `λ_t = λ⁺ − λ⁻` and a slack `β`,
//!
//! ```text
//! w⁺ =  w_t + β ≥ 0 ⊥ λ⁺ ≥ 0,   w⁻ = −w_t + β ≥ 0 ⊥ λ⁻ ≥ 0,   μ λ_n − λ⁺ − λ⁻ ≥ 0 ⊥ β ≥ 0
//! ```
//!
//! (Stewart–Trinkle, Anitescu–Potra). A contact that *slides* (the caller
//! fixes the direction `s` of its slip, `sliding: Some(s)`) has no
//! tangential unknown: its normal column is `A_{·n} − s μ A_{·t}`, which makes
//! the matrix unsymmetric and, past Painlevé's bound, not even copositive:
//! then the problem may have no solution, and Lemke's method says so by
//! ending on a ray ([`Failure::Inconsistent`]).
//!
//! **Pivoting.** Each contact has a status (off, on, stick, slip `±`); a
//! status fixes a square linear system (`w = 0` on the rows on, `λ_t = −sμλ_n`
//! substituted for a slip), solved by LU. The statuses that break a condition
//! above change (off with `w_n < 0` comes on; on with `λ_n < 0` leaves; stick
//! past `μλ_n` slips against `λ_t`; slip with `s w_t < 0` sticks), all at once
//! while the number of broken conditions falls, else only the first (Murty's
//! least index). Warm-started from the previous step's statuses, a settled
//! pile needs one round. A status seen twice sends the problem to Lemke's
//! method (complementary pivoting on a dense tableau, covering vector `1`),
//! which ends, on a solution or on a ray.
//!
//! **Dependent rows.** A box on a box with friction has four rows (two
//! corners, normal and tangent) for three relative coordinates: `A` is
//! singular and `λ` not unique. Each solve factors `K + ε diag(|K|)` (`ε =
//! 1e-10`) and refines twice, iterated Tikhonov: a solution of the consistent
//! system, with the forces the smallest spread over the dependent rows. `K`
//! is `A` on the rows on, symmetric and sparse, plus one column per slip:
//! the envelope Cholesky of [`crate::schur`] in reverse Cuthill–McKee order,
//! with the slips by the Sherman–Morrison–Woodbury formula (up to 24 slips;
//! a dense LU past that).
//!
//! **The contract.** An answer is accepted when every condition above holds
//! to `ε_w = 1e-9 (‖A‖ ‖λ‖ + ‖b‖)` on `w` and `ε_w/‖A‖` on `λ`, the same
//! relative contract as the frictionless solver ([`crate::lcp::CONTRACT`]).

use nalgebra::{DMatrix, DVector};

use crate::schur::{Envelope, SchurGraph};

/// A friction contact: its rows and coefficient.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FrictionContact {
    /// Index of its normal row.
    pub normal: usize,
    /// Index of its tangential row.
    pub tangent: usize,
    pub mu: f64,
    /// `Some(s)`: it slides with slip direction `s = ±1` (no tangential
    /// unknown); `None`: it may stick or start to slip.
    pub sliding: Option<f64>,
}

/// The problem `w = A λ − b` with its contacts.
#[derive(Clone, Debug)]
pub struct Problem {
    /// Dense `A = J M⁻¹ Jᵀ` over the rows (normal rows, then tangential rows).
    pub a: DMatrix<f64>,
    pub b: Vec<f64>,
    /// The first `neq` rows are equalities (`w = 0`, `λ` free).
    pub neq: usize,
    /// Rows `0..nnormal` are normal rows; the rest are tangential rows.
    pub nnormal: usize,
    pub contacts: Vec<FrictionContact>,
}

/// The status of a normal row.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Mode {
    /// `λ_n = 0`, `w_n ≥ 0` (apart).
    Off,
    /// `w_n = 0`, `λ_n ≥ 0`; frictionless, or an equality.
    On,
    /// A contact with friction that sticks: `w_n = w_t = 0`, `|λ_t| ≤ μλ_n`.
    Stick,
    /// A contact with friction that slips in direction `s`: `λ_t = −s μ λ_n`, `s w_t ≥ 0`.
    Slip(f64),
}

impl Mode {
    pub fn is_on(self) -> bool {
        self != Mode::Off
    }
}

/// Why a status changed in a round.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Change {
    /// An apart row with `w_n < 0` came on.
    Enters { w: f64 },
    /// A row on with `λ_n < 0` left.
    Leaves { lambda: f64 },
    /// A stick needed `|λ_t| = ratio · μλ_n`, more than the cone: it slips.
    Slips { ratio: f64 },
    /// A slip would reverse (`s w_t < 0`): it sticks.
    Sticks { w: f64 },
}

/// One round of pivoting: the statuses solved, their `λ` and `w`, and the changes.
#[derive(Clone, Debug, Default)]
pub struct Round {
    pub modes: Vec<Mode>,
    pub lambda: Vec<f64>,
    pub w: Vec<f64>,
    /// `(normal row, change)`.
    pub changes: Vec<(usize, Change)>,
}

/// A complementary answer.
#[derive(Clone, Debug)]
pub struct Answer {
    /// `λ` over every row (tangential rows: the friction force `λ_t`).
    pub lambda: Vec<f64>,
    /// The status of each normal row.
    pub modes: Vec<Mode>,
    pub rounds: Vec<Round>,
    /// Lemke's method finished it (pivoting cycled).
    pub lemke: bool,
}

/// Why no answer came.
#[derive(Clone, Debug, PartialEq)]
pub enum Failure {
    /// No `λ` satisfies the conditions: Lemke's method ended on a ray. With
    /// sliding contacts, Painlevé's paradox: those whose push drives them in
    /// (`A_nn − s μ A_nt ≤ 0`), else every sliding one (indices into
    /// [`Problem::contacts`]).
    Inconsistent(Vec<usize>),
    /// Pivoting cycled and Lemke's method reached its cap: a numerical failure.
    Unsolved,
}

/// The dense `A = J M⁻¹ Jᵀ` of `rows`, from its sparse entries
/// ([`SchurGraph::new`], `O(m · degree)` rather than `m²` products).
pub fn dense_a(rows: &[&crate::constraint::SparseRow], minv: &[f64]) -> DMatrix<f64> {
    let g = SchurGraph::new(rows, minv);
    let mut a = DMatrix::zeros(rows.len(), rows.len());
    for (i, (d, adj)) in g.diag.iter().zip(&g.adj).enumerate() {
        a[(i, i)] = *d;
        for &(j, v) in adj {
            a[(i, j)] = v;
        }
    }
    a
}

/// Relative regularization of each LU (module docs).
const EPS: f64 = 1e-10;
/// The relative contract (module docs).
const CONTRACT: f64 = 1e-9;

impl Problem {
    fn m(&self) -> usize {
        self.b.len()
    }

    /// `w = A λ − b`.
    pub fn w(&self, lambda: &[f64]) -> Vec<f64> {
        let l = DVector::from_column_slice(lambda);
        (&self.a * l).iter().zip(&self.b).map(|(a, b)| a - b).collect()
    }

    /// `(ε_w, ε_λ)` of the contract at `λ`.
    fn tolerances(&self, lambda: &[f64]) -> (f64, f64) {
        let norm_a = (0..self.m()).map(|i| self.a.row(i).iter().map(|x| x.abs()).sum::<f64>()).fold(0.0, f64::max);
        let nl = lambda.iter().map(|x| x * x).sum::<f64>().sqrt();
        let nb = self.b.iter().map(|x| x * x).sum::<f64>().sqrt();
        let ew = CONTRACT * (norm_a * nl + nb).max(f64::MIN_POSITIVE);
        (ew, if norm_a > 0.0 { ew / norm_a } else { ew })
    }

    /// The contact whose normal row is `i`, if any.
    fn contact_of(&self) -> Vec<Option<usize>> {
        let mut of = vec![None; self.nnormal];
        for (c, fc) in self.contacts.iter().enumerate() {
            of[fc.normal] = Some(c);
        }
        of
    }

    /// Solves the system the statuses fix; `λ` over every row.
    fn solve_modes(&self, modes: &[Mode]) -> Option<Vec<f64>> {
        let of = self.contact_of();
        // Unknowns (and equations): the rows on, and the tangents that stick.
        let mut rows: Vec<usize> = (0..self.nnormal).filter(|&i| modes[i].is_on()).collect();
        rows.extend(self.contacts.iter().filter(|c| modes[c.normal] == Mode::Stick).map(|c| c.tangent));
        let n = rows.len();
        let mut lambda = vec![0.0; self.m()];
        if n == 0 {
            return Some(lambda);
        }
        // The column of unknown `u`: A_{·u}, minus s μ A_{·t} for a normal that slips.
        let column = |e: usize, u: usize| -> f64 {
            let mut v = self.a[(e, u)];
            if u < self.nnormal
                && let (Mode::Slip(s), Some(c)) = (modes[u], of[u])
            {
                let fc = self.contacts[c];
                v -= s * fc.mu * self.a[(e, fc.tangent)];
            }
            v
        };
        let rhs = DVector::from_fn(n, |i, _| self.b[rows[i]]);
        // No slip: the system is `A` on the rows on, symmetric and sparse
        // (a pile): the envelope Cholesky of the frictionless solver. With a
        // slip, the columns are unsymmetric: dense LU.
        // The slips: the column of each slipping normal gets −s μ A_{·t}.
        let slips: Vec<(usize, usize, f64)> = self
            .contacts
            .iter()
            .filter_map(|fc| match modes[fc.normal] {
                Mode::Slip(s) => Some((rows.iter().position(|&r| r == fc.normal)?, fc.tangent, -s * fc.mu)),
                _ => None,
            })
            .collect();
        // A row with no mass behind it (A_ii = 0) or too many slips: dense LU.
        let sparse = if slips.len() <= MAX_WOODBURY { sparse_solve(&self.a, &rows, &rhs, &slips) } else { None };
        let x = match sparse {
            Some(x) => x,
            None => {
                let k = DMatrix::from_fn(n, n, |i, j| column(rows[i], rows[j]));
                regularized_solve(&k, &rhs)?
            }
        };
        for (i, &r) in rows.iter().enumerate() {
            lambda[r] = x[i];
        }
        for fc in &self.contacts {
            if let Mode::Slip(s) = modes[fc.normal] {
                lambda[fc.tangent] = -s * fc.mu * lambda[fc.normal];
            }
        }
        Some(lambda)
    }

    /// The conditions the statuses break at `λ`, `w`: `(normal row, change)`.
    fn broken(&self, modes: &[Mode], lambda: &[f64], w: &[f64]) -> Vec<(usize, Change)> {
        let (ew, el) = self.tolerances(lambda);
        let of = self.contact_of();
        let mut out = Vec::new();
        for i in self.neq..self.nnormal {
            let fc = of[i].map(|c| self.contacts[c]);
            match modes[i] {
                Mode::Off if w[i] < -ew => out.push((i, Change::Enters { w: w[i] })),
                Mode::Off => {}
                _ if lambda[i] < -el => out.push((i, Change::Leaves { lambda: lambda[i] })),
                Mode::Stick => {
                    let fc = fc.expect("a stick is a contact");
                    let lt = lambda[fc.tangent];
                    if lt.abs() > fc.mu * lambda[i] + el {
                        let ratio = if lambda[i] > 0.0 { lt.abs() / (fc.mu * lambda[i]) } else { f64::INFINITY };
                        out.push((i, Change::Slips { ratio }));
                    }
                }
                Mode::Slip(s) => {
                    let fc = fc.expect("a slip is a contact");
                    if fc.sliding.is_none() && s * w[fc.tangent] < -ew {
                        out.push((i, Change::Sticks { w: w[fc.tangent] }));
                    }
                }
                Mode::On => {}
            }
        }
        out
    }

    /// The status a change gives (`of`: [`Self::contact_of`]).
    fn changed(&self, of: &[Option<usize>], modes: &[Mode], lambda: &[f64], i: usize, change: Change) -> Mode {
        let fc = of[i].map(|c| self.contacts[c]);
        match (change, fc) {
            (Change::Enters { .. }, None) => Mode::On,
            (Change::Enters { .. }, Some(fc)) => match fc.sliding {
                Some(s) => Mode::Slip(s),
                None => Mode::Stick,
            },
            (Change::Leaves { .. }, _) => Mode::Off,
            // Friction pushing +t past the cone: the contact slips toward −t.
            (Change::Slips { .. }, Some(fc)) => Mode::Slip(-lambda[fc.tangent].signum()),
            (Change::Sticks { .. }, _) => Mode::Stick,
            (_, None) => modes[i],
        }
    }

    /// The statuses to start from: `warm` where given, else off (on for
    /// equalities), with sliding contacts kept to their slip.
    pub fn start(&self, warm: &[bool]) -> Vec<Mode> {
        let of = self.contact_of();
        (0..self.nnormal)
            .map(|i| {
                if i < self.neq {
                    Mode::On
                } else if !warm.get(i).copied().unwrap_or(false) {
                    Mode::Off
                } else {
                    match of[i].map(|c| self.contacts[c]) {
                        None => Mode::On,
                        Some(FrictionContact { sliding: Some(s), .. }) => Mode::Slip(s),
                        Some(_) => Mode::Stick,
                    }
                }
            })
            .collect()
    }

    /// Solves the problem from the statuses `modes` (see the module docs):
    /// pivoting from them, then from every contact off (apart: a resting
    /// contact that slides takes no impulse), then Lemke's method.
    pub fn solve(&self, modes: Vec<Mode>) -> Result<Answer, Failure> {
        let mut rounds = Vec::new();
        let off: Vec<Mode> = (0..self.nnormal).map(|i| if i < self.neq { Mode::On } else { Mode::Off }).collect();
        let starts = if modes == off { vec![modes] } else { vec![modes, off] };
        for start in starts {
            match self.pivot(start, &mut rounds) {
                Some(lambda_modes) => {
                    let (lambda, modes) = lambda_modes;
                    return Ok(Answer { lambda, modes, rounds, lemke: false });
                }
                None => continue,
            }
        }
        let mut answer = self.lemke()?;
        // Lemke's answer is the last round (no change after it).
        let w = self.w(&answer.lambda);
        rounds.push(Round { modes: answer.modes.clone(), lambda: answer.lambda.clone(), w, changes: Vec::new() });
        answer.rounds = rounds;
        Ok(answer)
    }

    /// Pivoting on the statuses from `modes`, its rounds appended to
    /// `rounds`: the answer, or `None` when a status comes back (a cycle) or
    /// the rounds run out.
    fn pivot(&self, mut modes: Vec<Mode>, rounds: &mut Vec<Round>) -> Option<(Vec<f64>, Vec<Mode>)> {
        let mut seen: Vec<Vec<Mode>> = Vec::new();
        let mut last_broken = usize::MAX;
        let cap = 4 * self.nnormal + 20;
        let of = self.contact_of();
        for _ in 0..cap {
            let lambda = self.solve_modes(&modes)?;
            let w = self.w(&lambda);
            let broken = self.broken(&modes, &lambda, &w);
            seen.push(modes.clone());
            let mut round = Round { modes: modes.clone(), lambda: lambda.clone(), w, changes: Vec::new() };
            if broken.is_empty() {
                rounds.push(round);
                return Some((lambda, modes));
            }
            // All at once while fewer break, else the first (Murty).
            let take = if broken.len() < last_broken { broken.len() } else { 1 };
            last_broken = broken.len();
            let mut next = modes.clone();
            for &(i, change) in &broken[..take] {
                next[i] = self.changed(&of, &modes, &lambda, i, change);
                round.changes.push((i, change));
            }
            rounds.push(round);
            if seen.contains(&next) {
                return None;
            }
            modes = next;
        }
        None
    }

    /// Lemke's method on the problem (module docs).
    fn lemke(&self) -> Result<Answer, Failure> {
        let m = self.m();
        let neq = self.neq;
        // Equalities eliminated: Ā = A − A_·E A_EE⁻¹ A_E·, b̄ = b − A_·E A_EE⁻¹ b_E.
        let (abar, bbar, elim) = if neq > 0 {
            let aee = self.a.view((0, 0), (neq, neq)).into_owned();
            let aer = self.a.view((0, 0), (neq, m)).into_owned();
            let be = DVector::from_fn(neq, |i, _| self.b[i]);
            let mut rhs = DMatrix::zeros(neq, m + 1);
            rhs.view_mut((0, 0), (neq, m)).copy_from(&aer);
            rhs.set_column(m, &be);
            let x = regularized_solve_many(&aee, &rhs).ok_or(Failure::Inconsistent(Vec::new()))?;
            let ab = self.a.view((0, 0), (m, neq)).into_owned() * &x;
            let abar = &self.a - ab.view((0, 0), (m, m));
            let bbar: Vec<f64> = (0..m).map(|i| self.b[i] - ab[(i, m)]).collect();
            (abar, bbar, Some(x))
        } else {
            (self.a.clone(), self.b.clone(), None)
        };
        // Unknowns z: λ_n of each inequality row; λ⁺, λ⁻, β of each contact that may stick.
        let sticks: Vec<usize> = (0..self.contacts.len()).filter(|&c| self.contacts[c].sliding.is_none()).collect();
        let nn = self.nnormal - neq;
        let nz = nn + 3 * sticks.len();
        // λ (over the rows) = L z.
        let mut l = DMatrix::zeros(m, nz);
        let of = self.contact_of();
        for i in neq..self.nnormal {
            l[(i, i - neq)] = 1.0;
            if let Some(c) = of[i]
                && let Some(s) = self.contacts[c].sliding
            {
                l[(self.contacts[c].tangent, i - neq)] = -s * self.contacts[c].mu;
            }
        }
        for (j, &c) in sticks.iter().enumerate() {
            let t = self.contacts[c].tangent;
            l[(t, nn + 3 * j)] = 1.0;
            l[(t, nn + 3 * j + 1)] = -1.0;
        }
        let bl = &abar * &l;
        let mut mm = DMatrix::zeros(nz, nz);
        let mut q = vec![0.0; nz];
        for i in neq..self.nnormal {
            mm.row_mut(i - neq).copy_from(&bl.row(i));
            q[i - neq] = -bbar[i];
        }
        for (j, &c) in sticks.iter().enumerate() {
            let fc = self.contacts[c];
            let (p, n, beta) = (nn + 3 * j, nn + 3 * j + 1, nn + 3 * j + 2);
            mm.row_mut(p).copy_from(&bl.row(fc.tangent));
            mm[(p, beta)] += 1.0;
            q[p] = -bbar[fc.tangent];
            mm.row_mut(n).copy_from(&(-bl.row(fc.tangent)));
            mm[(n, beta)] += 1.0;
            q[n] = bbar[fc.tangent];
            mm[(beta, fc.normal - neq)] = fc.mu;
            mm[(beta, p)] = -1.0;
            mm[(beta, n)] = -1.0;
        }
        let z = lemke(&mm, &q).map_err(|end| match end {
            LemkeEnd::Ray => Failure::Inconsistent(self.blamed()),
            LemkeEnd::Cap => Failure::Unsolved,
        })?;
        let mut lambda: Vec<f64> = (&l * DVector::from_column_slice(&z)).iter().copied().collect();
        if let Some(x) = elim {
            // λ_E = A_EE⁻¹ (b_E − A_E· λ).
            let lz = DVector::from_column_slice(&lambda);
            for e in 0..neq {
                lambda[e] = x[(e, m)] - (0..m).map(|r| x[(e, r)] * lz[r]).sum::<f64>();
            }
        }
        let modes = (0..self.nnormal)
            .map(|i| {
                if i < neq {
                    return Mode::On;
                }
                if lambda[i] <= 0.0 {
                    return Mode::Off;
                }
                match of[i].map(|c| self.contacts[c]) {
                    None => Mode::On,
                    Some(FrictionContact { sliding: Some(s), .. }) => Mode::Slip(s),
                    Some(fc) if lambda[fc.tangent].abs() < fc.mu * lambda[i] * (1.0 - 1e-9) => Mode::Stick,
                    Some(fc) => Mode::Slip(-lambda[fc.tangent].signum()),
                }
            })
            .collect();
        Ok(Answer { lambda, modes, rounds: Vec::new(), lemke: true })
    }

    /// The sliding contacts whose push drives them in: `A_nn − s μ A_nt ≤ 0`
    /// (Painlevé's coefficient).
    pub fn painleve(&self) -> Vec<usize> {
        (0..self.contacts.len())
            .filter(|&c| {
                let fc = self.contacts[c];
                fc.sliding.is_some_and(|s| {
                    self.a[(fc.normal, fc.normal)] - s * fc.mu * self.a[(fc.normal, fc.tangent)] <= 0.0
                })
            })
            .collect()
    }

    /// The contacts to blame when no answer exists: those of
    /// [`Self::painleve`], else every sliding one (several contacts can be
    /// inconsistent together, each coefficient positive).
    fn blamed(&self) -> Vec<usize> {
        let own = self.painleve();
        if own.is_empty() {
            (0..self.contacts.len()).filter(|&c| self.contacts[c].sliding.is_some()).collect()
        } else {
            own
        }
    }

    /// The worst broken condition relative to the contract (≤ 1: complementary).
    pub fn contract_ratio(&self, answer: &Answer) -> f64 {
        let (ew, el) = self.tolerances(&answer.lambda);
        let w = self.w(&answer.lambda);
        let mut worst = 0.0_f64;
        for i in 0..self.nnormal {
            if i < self.neq {
                worst = worst.max(w[i].abs() / ew);
            } else {
                worst = worst.max(-w[i] / ew).max(-answer.lambda[i] / el);
                worst = worst.max((answer.lambda[i].max(0.0) * w[i].max(0.0)) / (ew * answer.lambda[i].abs().max(el)));
            }
        }
        for fc in &self.contacts {
            let (ln, lt, wt) = (answer.lambda[fc.normal], answer.lambda[fc.tangent], w[fc.tangent]);
            worst = worst.max((lt.abs() - fc.mu * ln) / el);
            // Slipping (|w_t| > 0) needs the force on the cone's edge, against the slip.
            if wt.abs() > ew {
                match fc.sliding {
                    Some(s) => worst = worst.max((lt + s * fc.mu * ln).abs() / el),
                    None => worst = worst.max((lt + wt.signum() * fc.mu * ln).abs() / el),
                }
            }
        }
        worst
    }
}

/// Slips beyond this many take the dense LU rather than the Woodbury update.
const MAX_WOODBURY: usize = 24;

/// `K x = r` on the rows `R` of a symmetric `A`, `K = A_RR + U Vᵀ` with one
/// column `U_c = coef_c A_{R t_c}` and `V_c = e_{p_c}` per slip `(p_c, t_c,
/// coef_c)` (`p_c` the position of its normal in `R`): the sparse envelope
/// Cholesky ([`crate::schur`]) of `S = A_RR + ε diag(A_RR)` in reverse
/// Cuthill–McKee order, and the Sherman–Morrison–Woodbury formula
/// `K⁻¹ = S⁻¹ − S⁻¹U (I + Vᵀ S⁻¹ U)⁻¹ Vᵀ S⁻¹` for the slips, then two
/// rounds of refinement on `K` itself (as [`regularized_solve`]).
fn sparse_solve(
    a: &DMatrix<f64>,
    rows: &[usize],
    r: &DVector<f64>,
    slips: &[(usize, usize, f64)],
) -> Option<DVector<f64>> {
    let n = rows.len();
    let g = SchurGraph {
        diag: rows.iter().map(|&i| a[(i, i)]).collect(),
        adj: rows
            .iter()
            .enumerate()
            .map(|(li, &i)| {
                rows.iter()
                    .enumerate()
                    .filter(|&(lj, &j)| lj != li && a[(i, j)] != 0.0)
                    .map(|(lj, &j)| (lj, a[(i, j)]))
                    .collect()
            })
            .collect(),
    };
    if g.diag.iter().any(|d| *d <= 0.0) {
        return None;
    }
    let order = g.ordering(&(0..n).collect::<Vec<_>>());
    let mut env = Envelope::new(n, EPS);
    for &i in &order {
        if !env.push(&g, i, 0.0) {
            return None;
        }
    }
    let solve_s = |r: &[f64]| -> Vec<f64> {
        let by_position: Vec<f64> = order.iter().map(|&i| r[i]).collect();
        let mut x = vec![0.0; n];
        for (p, v) in env.solve(&by_position).into_iter().enumerate() {
            x[order[p]] = v;
        }
        x
    };
    // Woodbury: Y = S⁻¹ U and the capacitance I + Vᵀ Y.
    let k = slips.len();
    let u: Vec<Vec<f64>> = slips.iter().map(|&(_, t, c)| rows.iter().map(|&i| c * a[(i, t)]).collect()).collect();
    let y: Vec<Vec<f64>> = u.iter().map(|col| solve_s(col)).collect();
    let capacitance = DMatrix::from_fn(k, k, |i, j| f64::from(u8::from(i == j)) + y[j][slips[i].0]).lu();
    let solve_k = |r: &[f64]| -> Option<Vec<f64>> {
        let mut x = solve_s(r);
        if k > 0 {
            let vx = DVector::from_fn(k, |c, _| x[slips[c].0]);
            let z = capacitance.solve(&vx)?;
            for (c, yc) in y.iter().enumerate() {
                for (xi, yi) in x.iter_mut().zip(yc) {
                    *xi -= yi * z[c];
                }
            }
        }
        Some(x)
    };
    let mul_k = |x: &[f64]| -> Vec<f64> {
        let mut out = g.mul(x);
        for (c, &(p, _, _)) in slips.iter().enumerate() {
            for (o, ui) in out.iter_mut().zip(&u[c]) {
                *o += ui * x[p];
            }
        }
        out
    };
    let rv: Vec<f64> = r.iter().copied().collect();
    let mut x = solve_k(&rv)?;
    for _ in 0..2 {
        let kx = mul_k(&x);
        let res: Vec<f64> = rv.iter().zip(&kx).map(|(r, a)| r - a).collect();
        for (x, d) in x.iter_mut().zip(solve_k(&res)?) {
            *x += d;
        }
    }
    x.iter().all(|v| v.is_finite()).then(|| DVector::from_vec(x))
}

/// `K x = r` through `K + ε diag(|K|)` and two rounds of refinement (module docs).
fn regularized_solve(k: &DMatrix<f64>, r: &DVector<f64>) -> Option<DVector<f64>> {
    let mut rhs = DMatrix::zeros(r.len(), 1);
    rhs.set_column(0, r);
    regularized_solve_many(k, &rhs).map(|x| x.column(0).into_owned())
}

fn regularized_solve_many(k: &DMatrix<f64>, r: &DMatrix<f64>) -> Option<DMatrix<f64>> {
    let n = k.nrows();
    let scale = (0..n).map(|i| k[(i, i)].abs()).fold(0.0, f64::max).max(f64::MIN_POSITIVE);
    let mut reg = k.clone();
    for i in 0..n {
        reg[(i, i)] += EPS * k[(i, i)].abs().max(1e-6 * scale);
    }
    let lu = reg.lu();
    let mut x = lu.solve(r)?;
    for _ in 0..2 {
        let res = r - k * &x;
        x += lu.solve(&res)?;
    }
    x.iter().all(|v| v.is_finite()).then_some(x)
}

/// How Lemke's method ended without an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LemkeEnd {
    /// On a ray: no answer exists (for the matrices here, Painlevé).
    Ray,
    /// At its pivot cap (`50 n + 100`): a numerical failure.
    Cap,
}

/// Lemke's complementary pivoting for `w = M z + q ≥ 0`, `z ≥ 0`, `zᵀ w = 0`
/// (covering vector `1`).
pub fn lemke(m: &DMatrix<f64>, q: &[f64]) -> Result<Vec<f64>, LemkeEnd> {
    let n = q.len();
    if q.iter().all(|&x| x >= 0.0) {
        return Ok(vec![0.0; n]);
    }
    // Tableau [I | −M | −1 | q]; variables w_0..n, z_0..n, z₀ = 2n.
    let cols = 2 * n + 2;
    let mut t = DMatrix::zeros(n, cols);
    for i in 0..n {
        t[(i, i)] = 1.0;
        for j in 0..n {
            t[(i, n + j)] = -m[(i, j)];
        }
        t[(i, 2 * n)] = -1.0;
        t[(i, 2 * n + 1)] = q[i];
    }
    let mut basis: Vec<usize> = (0..n).collect();
    let pivot = |t: &mut DMatrix<f64>, r: usize, c: usize| {
        let p = t[(r, c)];
        for j in 0..cols {
            t[(r, j)] /= p;
        }
        for i in 0..n {
            if i != r {
                let f = t[(i, c)];
                if f != 0.0 {
                    for j in 0..cols {
                        t[(i, j)] -= f * t[(r, j)];
                    }
                }
            }
        }
    };
    let r0 = (0..n).min_by(|&a, &b| q[a].total_cmp(&q[b])).ok_or(LemkeEnd::Cap)?;
    pivot(&mut t, r0, 2 * n);
    let mut leaving = basis[r0];
    basis[r0] = 2 * n;
    let scale = q.iter().map(|x| x.abs()).fold(0.0, f64::max).max(1.0);
    for _ in 0..(50 * n + 100) {
        let entering = if leaving < n { leaving + n } else { leaving - n };
        // Ratio test, lexicographic (ties broken by the rows of B⁻¹, the w
        // columns of the tableau, divided by the pivot): no cycling on the
        // degenerate problems of hyperstatic contacts. z₀ leaves first on a tie.
        let mut best: Option<(usize, f64)> = None;
        for i in 0..n {
            let c = t[(i, entering)];
            if c <= 1e-12 {
                continue;
            }
            let ratio = t[(i, 2 * n + 1)] / c;
            let better = match best {
                None => true,
                Some((bi, br)) => {
                    if ratio < br - 1e-12 * scale {
                        true
                    } else if ratio > br + 1e-12 * scale {
                        false
                    } else if basis[i] == 2 * n || basis[bi] == 2 * n {
                        basis[i] == 2 * n
                    } else {
                        let cb = t[(bi, entering)];
                        let mut smaller = false;
                        for j in 0..n {
                            let (a, b) = (t[(i, j)] / c, t[(bi, j)] / cb);
                            if (a - b).abs() > 1e-14 {
                                smaller = a < b;
                                break;
                            }
                        }
                        smaller
                    }
                }
            };
            if better {
                best = Some((i, ratio));
            }
        }
        let (r, _) = best.ok_or(LemkeEnd::Ray)?;
        pivot(&mut t, r, entering);
        leaving = basis[r];
        basis[r] = entering;
        if leaving == 2 * n {
            let mut z = vec![0.0; n];
            for (i, &v) in basis.iter().enumerate() {
                if (n..2 * n).contains(&v) {
                    z[v - n] = t[(i, 2 * n + 1)].max(0.0);
                }
            }
            return Ok(z);
        }
    }
    Err(LemkeEnd::Cap)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every status vector of a small problem, tried: the answers that hold
    /// (the brute-force oracle).
    fn brute_force(p: &Problem) -> Vec<Vec<f64>> {
        let choices = |i: usize| -> Vec<Mode> {
            if i < p.neq {
                return vec![Mode::On];
            }
            match p.contact_of()[i].map(|c| p.contacts[c]) {
                None => vec![Mode::Off, Mode::On],
                Some(FrictionContact { sliding: Some(s), .. }) => vec![Mode::Off, Mode::Slip(s)],
                Some(_) => vec![Mode::Off, Mode::Stick, Mode::Slip(1.0), Mode::Slip(-1.0)],
            }
        };
        let mut all: Vec<Vec<Mode>> = vec![Vec::new()];
        for i in 0..p.nnormal {
            all = all
                .into_iter()
                .flat_map(|v| choices(i).into_iter().map(move |c| [v.clone(), vec![c]].concat()))
                .collect();
        }
        all.into_iter()
            .filter_map(|modes| {
                let lambda = p.solve_modes(&modes)?;
                let w = p.w(&lambda);
                p.broken(&modes, &lambda, &w).is_empty().then_some(lambda)
            })
            .collect()
    }

    fn random_problem(seed: u64, ncontacts: usize, ndofs: usize) -> Problem {
        let mut s = seed;
        let mut rnd = || {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((s >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
        };
        // J (2 rows a contact) random, M = I: A = J Jᵀ, PSD.
        let m = 2 * ncontacts;
        let j = DMatrix::from_fn(m, ndofs, |_, _| rnd());
        let a = &j * j.transpose();
        let b: Vec<f64> = (0..m).map(|_| rnd()).collect();
        let contacts = (0..ncontacts)
            .map(|c| FrictionContact { normal: c, tangent: ncontacts + c, mu: 0.2 + 0.8 * rnd().abs(), sliding: None })
            .collect();
        Problem { a, b, neq: 0, nnormal: ncontacts, contacts }
    }

    /// Pivoting (and Lemke where it cycles) finds a complementary answer on
    /// random problems whenever the brute-force oracle finds one, with the
    /// same `J q̈` (the accelerations are unique where `A` is definite).
    #[test]
    fn pivoting_agrees_with_the_oracle() {
        let mut solved = 0;
        for seed in 0..300 {
            let p = random_problem(seed, 1 + (seed % 3) as usize, 6);
            let oracle = brute_force(&p);
            let got = p.solve(p.start(&[]));
            match got {
                Ok(ans) => {
                    assert!(p.contract_ratio(&ans) <= 1.0, "seed {seed}: ratio {}", p.contract_ratio(&ans));
                    assert!(!oracle.is_empty(), "seed {seed}: an answer the oracle did not find");
                    solved += 1;
                }
                Err(_) => assert!(oracle.is_empty(), "seed {seed}: the oracle has {} answers", oracle.len()),
            }
        }
        assert!(solved > 250, "{solved}");
    }

    /// Lemke alone agrees with the oracle too (its own test: pivoting rarely cycles).
    #[test]
    fn lemke_solves_what_the_oracle_solves() {
        for seed in 0..200 {
            let p = random_problem(1000 + seed, 1 + (seed % 3) as usize, 6);
            if brute_force(&p).is_empty() {
                continue;
            }
            let ans = p.lemke().unwrap_or_else(|e| panic!("seed {seed}: Lemke failed: {e:?}"));
            assert!(p.contract_ratio(&ans) <= 1.0, "seed {seed}: ratio {}", p.contract_ratio(&ans));
        }
    }

    /// One sliding contact with `A_nn − μ A_nt < 0` pushed in (`b_n > 0`): no
    /// answer exists (Painlevé), and Lemke ends on a ray.
    #[test]
    fn painleve_has_no_answer() {
        let a = DMatrix::from_row_slice(2, 2, &[1.75, 1.299, 1.299, 1.75]);
        let p = Problem {
            a,
            b: vec![9.81, 0.0],
            neq: 0,
            nnormal: 1,
            contacts: vec![FrictionContact { normal: 0, tangent: 1, mu: 2.0, sliding: Some(1.0) }],
        };
        assert_eq!(p.solve(p.start(&[])).unwrap_err(), Failure::Inconsistent(vec![0]));
        // Pulled out (b_n < 0): the rod lifts, λ = 0.
        let lifting = Problem { b: vec![-1.0, 0.0], ..p };
        assert_eq!(lifting.solve(lifting.start(&[])).unwrap().lambda, vec![0.0, 0.0]);
    }
}
