//! Coulomb friction in the plane as a complementarity problem, exact: the
//! statuses of the contacts by pivoting, Lemke's method where pivoting
//! cycles, and the enumeration of every status where Lemke's method fails
//! ([`crate::friction`] sets the problems up; this module only sees `A` and
//! `b`).
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
//! tangential unknown and no condition on `w_t`: its normal column is
//! `A_{·n} − s μ A_{·t}`, which makes the matrix unsymmetric and, past
//! Painlevé's bound, not even copositive. Then the problem may have no
//! solution ([`Failure::Inconsistent`]).
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
//! which ends, on a solution or on a ray. Its `q` is moved by a hair
//! ([`PERTURB`] of its largest entry, deterministic) so that the ties of a
//! degenerate pile are broken once and not by round-off, pivots below
//! [`PIVOT_TOL`] of their column are taken as zero, and the statuses it
//! ends on are solved again exactly by pivoting from them (one round where
//! they are right): on a heap of 115–160 discs that roll, its answer had
//! been 1e8 times off the contract, now it meets it in most steps.
//!
//! **A ray is not a proof.** Lemke's ray proves that no solution exists for
//! a copositive-plus matrix. Once a contact slides the matrix is not
//! copositive, and with dependent rows (below) it is degenerate: of 140 000
//! random problems (`tests/friction_enumeration.rs`), 372 where an answer
//! exists ended on a ray, 9 more at the cap or on a non-answer. So where it
//! ends without an answer (a ray, its cap of pivots, or an answer that
//! misses the contract), every status vector is tried, nearest the start
//! first ([`Problem::enumerate`]):
//!
//! ```text
//! equality:              on
//! without friction:      off, on
//! sliding (s fixed):     off, slip s
//! may stick:             off, stick, slip +1, slip −1
//! ```
//!
//! up to [`ENUMERATION_LIMIT`] `= 4⁸ = 65 536` vectors (8 contacts that may
//! stick, 16 that slide), half a second at worst. Each is solved completely
//! ([`Problem::solve_status`]): its system by Gaussian elimination with
//! complete pivoting; where that is singular, its solutions `x₀ + N y` over
//! the null space, the `y` deepest inside the status's inequalities by a
//! small linear program. No status holding proves that no answer exists
//! ([`Proof::Enumeration`]); past the limit a ray is taken as it comes and
//! the failure says so ([`Proof::LemkeRay`]).
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
//! **The contract.** Pivoting stops when every condition above holds to
//! `ε_w = 1e-9 (‖A‖ ‖λ‖ + ‖b‖)` on `w` and `ε_w/‖A‖` on `λ`: the form of
//! the frictionless solver's ([`crate::lcp::CONTRACT`]), with `‖λ‖` and
//! `‖b‖` the 2-norms of the island where [`crate::lcp`] takes the largest
//! entries (so up to `√m` looser on an island of `m` rows; `‖A‖` is the
//! largest row sum in both).
//! Where `A` is singular, a status whose system does not hold, solved
//! through its regularization, gives `λ ~ 1e10 ‖b‖/‖A‖` with `w ≠ 0` on its
//! rows, and that contract, relative to `‖A‖ ‖λ‖`, accepts it. So every
//! answer, whatever found it, is held to the strict contract: the same
//! conditions with `‖A‖ ‖λ‖` counted up to `10³ ‖b‖`
//! ([`Problem::strict_ratio`]). One that misses it is not an answer; it is
//! returned only where nothing else is and the island is too large to
//! enumerate.

use nalgebra::{DMatrix, DVector};

use crate::lcg::Lcg;
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
    /// `‖A‖∞`, the largest row sum of `|A_ij|`, taken once: every contract
    /// check needs it, and on a 210-box pyramid (2400 rows, dense) taking
    /// it at each check was 39 % of a step.
    norm_a: f64,
    /// Row by row, the columns `j` with `A_ij ≠ 0` (the diagonal too) and
    /// their values, by increasing `j`: `A λ` and the sparse solve read `A`
    /// through them (on a pile, a row has a handful of non-zeros among
    /// thousands). Summed in the order of `j`, `A λ` is the dense product's
    /// bit for bit (a zero term adds nothing).
    nz: Vec<Vec<(usize, f64)>>,
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

/// Which method found an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// Pivoting on the statuses.
    Pivoting,
    /// Lemke's method (pivoting cycled).
    Lemke,
    /// The enumeration of every status ([`Problem::enumerate`]): pivoting
    /// cycled and Lemke's method ended on a ray or at its cap.
    Enumeration,
}

/// A complementary answer.
#[derive(Clone, Debug)]
pub struct Answer {
    /// `λ` over every row (tangential rows: the friction force `λ_t`).
    pub lambda: Vec<f64>,
    /// The status of each normal row.
    pub modes: Vec<Mode>,
    pub rounds: Vec<Round>,
    /// The method that found it.
    pub method: Method,
}

/// What shows that no answer exists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proof {
    /// Every status vector of the island was tried, this many, and none
    /// holds ([`Problem::enumerate`]): a proof, to the contract.
    Enumeration { statuses: usize },
    /// Lemke's method ended on a ray, and the island has more statuses than
    /// [`ENUMERATION_LIMIT`]. Not a proof where a contact slides or `A` is
    /// singular (module docs).
    LemkeRay,
}

impl Proof {
    /// The test, in words (for a trace or a report).
    pub fn sentence(&self) -> String {
        match self {
            Proof::Enumeration { statuses } => format!("enumeration of all {statuses} statuses"),
            Proof::LemkeRay => "Lemke's ray (not a proof: the island is too large to enumerate)".to_string(),
        }
    }
}

/// Why no answer came.
#[derive(Clone, Debug, PartialEq)]
pub enum Failure {
    /// No `λ` satisfies the conditions. `blamed`: with sliding contacts
    /// (Painlevé's paradox), those whose push drives them in (`A_nn − s μ
    /// A_nt ≤ 0`, [`Problem::painleve`]), else every sliding one (indices
    /// into [`Problem::contacts`]); empty with no sliding contact. `proof`:
    /// what established it.
    Inconsistent { blamed: Vec<usize>, proof: Proof },
    /// Pivoting cycled, Lemke's method reached its cap, and the island is too
    /// large to enumerate: a numerical failure.
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

/// The most rows (normal and tangential) a problem with friction is built
/// for: its `A` is dense, 134 MB at this bound. A larger island (a fuzzed
/// scene whose margin takes every pair of corners: 85,000 rows, 58 GB) is
/// solved without friction, and the step says so ([`crate::lcp::Stop::Friction`]).
pub const DENSE_ROWS: usize = 4096;

/// Relative regularization of each LU (module docs).
const EPS: f64 = 1e-10;
/// The relative contract (module docs).
const CONTRACT: f64 = 1e-9;

impl Problem {
    /// The problem `A λ − b = w` of the module docs over `nnormal` normal
    /// rows (the first `neq` of them equalities) and the tangential rows of
    /// `contacts`. (`a` is not to be changed after: its norm is kept.)
    pub fn new(a: DMatrix<f64>, b: Vec<f64>, neq: usize, nnormal: usize, contacts: Vec<FrictionContact>) -> Problem {
        // Column by column (the storage's order: rows across a column-major
        // matrix of 2400 rows missed the cache on every read).
        let m = a.nrows();
        let mut sums = vec![0.0; m];
        let mut nz: Vec<Vec<(usize, f64)>> = vec![Vec::new(); m];
        for (j, column) in a.column_iter().enumerate() {
            for (i, &v) in column.iter().enumerate() {
                sums[i] += v.abs();
                if v != 0.0 {
                    nz[i].push((j, v));
                }
            }
        }
        let norm_a = sums.into_iter().fold(0.0, f64::max);
        Problem { a, b, neq, nnormal, contacts, norm_a, nz }
    }

    fn m(&self) -> usize {
        self.b.len()
    }

    /// `w = A λ − b`.
    pub fn w(&self, lambda: &[f64]) -> Vec<f64> {
        if lambda.iter().any(|l| !l.is_finite()) {
            // As the dense product would: 0 · ∞ is NaN in every row.
            let l = DVector::from_column_slice(lambda);
            return (&self.a * l).iter().zip(&self.b).map(|(a, b)| a - b).collect();
        }
        self.nz.iter().zip(&self.b).map(|(row, b)| row.iter().fold(0.0, |s, &(j, v)| s + v * lambda[j]) - b).collect()
    }

    /// `(ε_w, ε_λ)` of the contract at `λ`.
    fn tolerances(&self, lambda: &[f64]) -> (f64, f64) {
        self.tolerances_with(lambda, false)
    }

    /// `(ε_w, ε_λ)` at `λ`, `ε_w = 1e-9 (‖A‖ ‖λ‖ + ‖b‖)` and `ε_λ = ε_w /
    /// ‖A‖`; `strict`: with `‖A‖ ‖λ‖` counted up to `10³ ‖b‖`
    /// ([`Problem::strict_ratio`]).
    fn tolerances_with(&self, lambda: &[f64], strict: bool) -> (f64, f64) {
        let norm_a = self.norm_a;
        let nl = lambda.iter().map(|x| x * x).sum::<f64>().sqrt();
        let nb = self.b.iter().map(|x| x * x).sum::<f64>().sqrt();
        let mut forces = norm_a * nl;
        if strict {
            forces = forces.min(crate::lcp::SELF_STRESS * nb);
        }
        let ew = CONTRACT * (forces + nb).max(f64::MIN_POSITIVE);
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
        let sparse = if slips.len() <= MAX_WOODBURY { sparse_solve(self, &rows, &rhs, &slips) } else { None };
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
    /// contact that slides takes no impulse), then Lemke's method, each
    /// answer held to the strict contract ([`Self::strict_ratio`]); then
    /// the enumeration of every status (up to [`ENUMERATION_LIMIT`]),
    /// nearest `modes` first, which alone proves that no answer exists.
    pub fn solve(&self, modes: Vec<Mode>) -> Result<Answer, Failure> {
        let mut rounds = Vec::new();
        let off: Vec<Mode> = (0..self.nnormal).map(|i| if i < self.neq { Mode::On } else { Mode::Off }).collect();
        let first = modes.clone();
        let starts = if modes == off { vec![modes] } else { vec![modes, off] };
        // An answer to the contract alone (a singular system that does not
        // hold, solved by its regularization into a huge λ): the last resort.
        let mut loose: Option<Answer> = None;
        for start in starts {
            if let Some((lambda, modes)) = self.pivot(start, &mut rounds) {
                if self.strict_ratio(&lambda) <= 1.0 {
                    return Ok(Answer { lambda, modes, rounds, method: Method::Pivoting });
                }
                loose.get_or_insert(Answer { lambda, modes, rounds: Vec::new(), method: Method::Pivoting });
            }
        }
        let lemke = self.lemke();
        // The exact answer of the statuses Lemke's method found (its pivots
        // drift in round-off, and it solves a perturbed `q`), or its own.
        let lemke = lemke.map(|answer| {
            let mut r = Vec::new();
            match self.pivot(answer.modes.clone(), &mut r) {
                Some((lambda, modes)) if self.strict_ratio(&lambda) <= 1.0 => {
                    Answer { lambda, modes, rounds: Vec::new(), method: Method::Lemke }
                }
                _ => answer,
            }
        });
        let answer = match lemke {
            Ok(answer) if self.strict_ratio(&answer.lambda) <= 1.0 => Ok(answer),
            // A ray proves nothing once a contact slides or `A` is singular:
            // every status is tried where there are few enough.
            other => {
                let end = match other {
                    Ok(answer) => {
                        loose.get_or_insert(answer);
                        LemkeEnd::Cap
                    }
                    Err(end) => end,
                };
                let statuses = self.statuses();
                if statuses <= ENUMERATION_LIMIT {
                    self.enumerate(&first).ok_or_else(|| Failure::Inconsistent {
                        blamed: self.blamed(),
                        proof: Proof::Enumeration { statuses },
                    })
                } else if let Some(answer) = loose.take() {
                    Ok(answer)
                } else {
                    Err(match end {
                        LemkeEnd::Ray => Failure::Inconsistent { blamed: self.blamed(), proof: Proof::LemkeRay },
                        LemkeEnd::Cap => Failure::Unsolved,
                    })
                }
            }
        };
        let mut answer = answer?;
        // The answer is the last round (no change after it).
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
    fn lemke(&self) -> Result<Answer, LemkeEnd> {
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
            let x = regularized_solve_many(&aee, &rhs).ok_or(LemkeEnd::Cap)?;
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
        let z = lemke(&mm, &q)?;
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
        Ok(Answer { lambda, modes, rounds: Vec::new(), method: Method::Lemke })
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
    /// The strict one, whose tolerances the data bound
    /// ([`Self::strict_ratio`]): the pivoting's own is relative to `‖λ‖`.
    pub fn contract_ratio(&self, answer: &Answer) -> f64 {
        self.strict_ratio(&answer.lambda)
    }

    /// [`Self::contract_ratio`] of `λ` alone: every condition of the module
    /// docs, whatever the statuses.
    pub fn ratio(&self, lambda: &[f64]) -> f64 {
        self.ratio_with(lambda, self.tolerances(lambda))
    }

    /// [`Self::ratio`] to the strict contract, its tolerances bounded by
    /// the data: `ε_w = 1e-9 (min(‖A‖ ‖λ‖, 10³ ‖b‖) + ‖b‖)`, `ε_λ = ε_w /
    /// ‖A‖`. Where `A` is singular, a system that does not hold, solved
    /// through its regularization, gives a huge `λ` (`~1e10 ‖b‖/‖A‖`) with
    /// `w ≠ 0` on its rows that the contract's `1e-9 ‖A‖ ‖λ‖` accepts; a
    /// `λ` that large is held to `1e-6 ‖b‖` here.
    pub fn strict_ratio(&self, lambda: &[f64]) -> f64 {
        self.ratio_with(lambda, self.tolerances_with(lambda, true))
    }

    fn ratio_with(&self, lambda: &[f64], (ew, el): (f64, f64)) -> f64 {
        let w = self.w(lambda);
        let mut worst = 0.0_f64;
        for i in 0..self.nnormal {
            if i < self.neq {
                worst = worst.max(w[i].abs() / ew);
            } else {
                worst = worst.max(-w[i] / ew).max(-lambda[i] / el);
                worst = worst.max((lambda[i].max(0.0) * w[i].max(0.0)) / (ew * lambda[i].abs().max(el)));
            }
        }
        for fc in &self.contacts {
            let (ln, lt, wt) = (lambda[fc.normal], lambda[fc.tangent], w[fc.tangent]);
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

/// The most status vectors an island may have for [`Problem::enumerate`]:
/// `4⁸` (8 contacts that may stick, or 16 that slide, or 16 rows without
/// friction). Past it, a ray of Lemke's method is taken as it comes
/// ([`Proof::LemkeRay`]).
pub const ENUMERATION_LIMIT: usize = 1 << 16;

/// A pivot below this fraction of the largest entry of a status's system
/// counts as zero ([`rank_revealing`]): that system is singular.
const RANK: f64 = 1e-10;

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

impl Problem {
    /// Whether `λ` is no force at all: every entry within the strict
    /// contract's `ε_λ` of 0.
    pub fn is_zero(&self, lambda: &[f64]) -> bool {
        let (_, el) = self.tolerances_with(&vec![0.0; lambda.len()], true);
        lambda.iter().all(|l| l.abs() <= el)
    }

    /// Whether `λ` is an answer with the statuses `modes`: complementary to
    /// the strict contract ([`Self::strict_ratio`]), and `w = 0` there on
    /// every row on and every tangent that sticks, `λ = 0` on every row off.
    pub fn holds_with(&self, modes: &[Mode], lambda: &[f64]) -> bool {
        if self.strict_ratio(lambda) > 1.0 {
            return false;
        }
        let (ew, el) = self.tolerances_with(lambda, true);
        let w = self.w(lambda);
        let of = self.contact_of();
        (0..self.nnormal).all(|i| match modes[i] {
            Mode::Off => lambda[i].abs() <= el,
            Mode::Stick => w[i].abs() <= ew && of[i].is_some_and(|c| w[self.contacts[c].tangent].abs() <= ew),
            _ => w[i].abs() <= ew,
        })
    }
}

/// `K x = r` by Gaussian elimination with complete pivoting, `P K Q = L U`:
/// a solution `x₀` (the free unknowns 0, refined once) and a basis of the
/// null space of `K` (unit columns), its rank the pivots above [`RANK`]
/// of the largest entry. Where `r` is not in the range of `K`, `x₀` leaves
/// a residual (the contract then rejects it).
fn rank_revealing(k: &DMatrix<f64>, r: &[f64]) -> (Vec<f64>, Vec<Vec<f64>>) {
    let n = r.len();
    let mut u: Vec<Vec<f64>> = (0..n).map(|i| (0..n).map(|j| k[(i, j)]).collect()).collect();
    let mut perm_r: Vec<usize> = (0..n).collect();
    let mut perm_c: Vec<usize> = (0..n).collect();
    let mut lower = vec![vec![0.0; n]; n];
    let largest = u.iter().flatten().fold(0.0_f64, |a, b| a.max(b.abs()));
    let mut rank = 0;
    while rank < n {
        let (mut pi, mut pj, mut best) = (rank, rank, 0.0);
        for (i, row) in u.iter().enumerate().skip(rank) {
            for (j, v) in row.iter().enumerate().skip(rank) {
                if v.abs() > best {
                    (pi, pj, best) = (i, j, v.abs());
                }
            }
        }
        if best <= RANK * largest || best == 0.0 {
            break;
        }
        u.swap(rank, pi);
        lower.swap(rank, pi);
        perm_r.swap(rank, pi);
        for row in &mut u {
            row.swap(rank, pj);
        }
        perm_c.swap(rank, pj);
        let (above, below) = u.split_at_mut(rank + 1);
        let pivot_row = &above[rank];
        for (i, row) in below.iter_mut().enumerate() {
            let f = row[rank] / pivot_row[rank];
            lower[rank + 1 + i][rank] = f;
            if f != 0.0 {
                for (x, p) in row[rank..].iter_mut().zip(&pivot_row[rank..]) {
                    *x -= f * p;
                }
            }
        }
        rank += 1;
    }
    // x with the free unknowns at `free`: U_BB x_B = (L⁻¹ P rhs)_B − U_BF free.
    let solve = |rhs: &[f64], free: &[f64]| -> Vec<f64> {
        let mut y: Vec<f64> = perm_r.iter().map(|&i| rhs[i]).collect();
        for i in 0..n {
            for j in 0..i.min(rank) {
                y[i] -= lower[i][j] * y[j];
            }
        }
        let mut xq = vec![0.0; n];
        xq[rank..].copy_from_slice(free);
        for i in (0..rank).rev() {
            let s: f64 = (i + 1..n).map(|j| u[i][j] * xq[j]).sum();
            xq[i] = (y[i] - s) / u[i][i];
        }
        let mut x = vec![0.0; n];
        for (p, &c) in perm_c.iter().enumerate() {
            x[c] = xq[p];
        }
        x
    };
    let zeros = vec![0.0; n - rank];
    let mut x = solve(r, &zeros);
    let residual: Vec<f64> = (0..n).map(|i| r[i] - (0..n).map(|j| k[(i, j)] * x[j]).sum::<f64>()).collect();
    for (xi, d) in x.iter_mut().zip(solve(&residual, &zeros)) {
        *xi += d;
    }
    let null = (0..n - rank)
        .map(|f| {
            let mut free = vec![0.0; n - rank];
            free[f] = 1.0;
            let mut col = solve(&vec![0.0; n], &free);
            let norm = col.iter().map(|v| v * v).sum::<f64>().sqrt();
            col.iter_mut().for_each(|v| *v /= norm);
            col
        })
        .collect();
    (x, null)
}

/// The `y ∈ ℝᵈ` deepest inside `g_i·y ≥ h_i` (every `i`): the largest
/// margin `τ ≤ cap` with `g_i·y − τ ≥ h_i`, by the simplex method on a
/// dense tableau (Bland's rule, so no cycling), from `y = 0`. `None` if the
/// simplex stops short (its cap of pivots, which Bland's rule should not
/// reach).
fn deepest(g: &[Vec<f64>], h: &[f64], d: usize, cap: f64) -> Option<Vec<f64>> {
    let p = h.len();
    if p == 0 {
        return Some(vec![0.0; d]);
    }
    // Columns: y⁺ (d), y⁻ (d), u = cap − τ, the slacks s (p), then the
    // right-hand side. Row i: −g_i y⁺ + g_i y⁻ − u + s_i = −h_i − cap.
    let (u_col, cols) = (2 * d, 2 * d + 1 + p);
    let mut t = vec![vec![0.0; cols + 1]; p];
    for i in 0..p {
        for j in 0..d {
            t[i][j] = -g[i][j];
            t[i][d + j] = g[i][j];
        }
        t[i][u_col] = -1.0;
        t[i][u_col + 1 + i] = 1.0;
        t[i][cols] = -h[i] - cap;
    }
    let mut basis: Vec<usize> = (0..p).map(|i| u_col + 1 + i).collect();
    let pivot = |t: &mut Vec<Vec<f64>>, r: usize, c: usize| {
        let v = t[r][c];
        t[r].iter_mut().for_each(|x| *x /= v);
        let row = t[r].clone();
        for (i, ti) in t.iter_mut().enumerate() {
            let f = ti[c];
            if i != r && f != 0.0 {
                ti.iter_mut().zip(&row).for_each(|(x, y)| *x -= f * y);
            }
        }
    };
    // Feasible start: u enters where the right-hand side is lowest.
    let (r0, low) = (0..p).map(|i| (i, t[i][cols])).min_by(|a, b| a.1.total_cmp(&b.1))?;
    if low < 0.0 {
        pivot(&mut t, r0, u_col);
        basis[r0] = u_col;
    }
    // Minimize u (Bland: the first column that lowers it, the first row of the ratio test).
    const EPS: f64 = 1e-12;
    for _ in 0..50 * (p + cols) {
        let reduced = |j: usize| -> f64 {
            let cost = f64::from(u8::from(j == u_col));
            cost - (0..p).filter(|&i| basis[i] == u_col).map(|i| t[i][j]).sum::<f64>()
        };
        let Some(entering) = (0..cols).find(|&j| !basis.contains(&j) && reduced(j) < -EPS) else {
            let mut y = vec![0.0; d];
            for (i, &b) in basis.iter().enumerate() {
                if b < d {
                    y[b] += t[i][cols];
                } else if b < 2 * d {
                    y[b - d] -= t[i][cols];
                }
            }
            return Some(y);
        };
        let mut best: Option<(usize, f64)> = None;
        for i in 0..p {
            let c = t[i][entering];
            if c > EPS {
                let ratio = t[i][cols] / c;
                let better = match best {
                    None => true,
                    Some((bi, br)) => {
                        ratio < br - EPS * br.abs().max(1.0)
                            || (ratio <= br + EPS * br.abs().max(1.0) && basis[i] < basis[bi])
                    }
                };
                if better {
                    best = Some((i, ratio));
                }
            }
        }
        // u ≥ 0 bounds the objective: no ray (rounding aside).
        let (r, _) = best?;
        pivot(&mut t, r, entering);
        basis[r] = entering;
    }
    None
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
    problem: &Problem,
    rows: &[usize],
    r: &DVector<f64>,
    slips: &[(usize, usize, f64)],
) -> Option<DVector<f64>> {
    let a = &problem.a;
    let n = rows.len();
    // Each row's non-zeros among `rows`, by their place there.
    let mut place = vec![usize::MAX; problem.m()];
    for (li, &i) in rows.iter().enumerate() {
        place[i] = li;
    }
    let g = SchurGraph {
        diag: rows.iter().map(|&i| a[(i, i)]).collect(),
        adj: rows
            .iter()
            .enumerate()
            .map(|(li, &i)| {
                let mut adj: Vec<(usize, f64)> = problem.nz[i]
                    .iter()
                    .filter(|&&(j, _)| place[j] != usize::MAX && place[j] != li)
                    .map(|&(j, v)| (place[j], v))
                    .collect();
                adj.sort_unstable_by_key(|&(lj, _)| lj);
                adj
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

/// Lemke's relative perturbation of `q` ([`lemke`]).
pub const PERTURB: f64 = 1e-11;
/// Lemke's pivot tolerance, relative to the entering column's largest entry.
pub const PIVOT_TOL: f64 = 1e-9;
/// Lemke's pivots, per unknown (an answer takes about 1.05 n on a heap of
/// 140 discs, at most 1.35 n; the cap was 50 n, 33 s where it was reached).
pub const LEMKE_PIVOTS: usize = 5;

/// `q` moved by a deterministic hair (`by` of its largest entry,
/// times a number in `[0.5, 1)` from a fixed [`Lcg`]): the ties of a
/// degenerate pile (rows at zero, statuses at the cone's edge) that
/// round-off would break at random are broken once. The caller solves the
/// statuses found exactly.
pub fn perturbed(q: &[f64], by: f64) -> Vec<f64> {
    let qs = q.iter().map(|x| x.abs()).fold(0.0, f64::max);
    let mut rng = Lcg::new(12345);
    q.iter().map(|x| x + by * qs * (0.5 + 0.5 * rng.next())).collect()
}

/// How Lemke's method ended without an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LemkeEnd {
    /// On a ray: no answer exists (for the matrices here, Painlevé).
    Ray,
    /// At its pivot cap (`5 n + 100`): a numerical failure.
    Cap,
}

/// Lemke's complementary pivoting for `w = M z + q ≥ 0`, `z ≥ 0`, `zᵀ w = 0`
/// (covering vector `1`).
pub fn lemke(m: &DMatrix<f64>, q: &[f64]) -> Result<Vec<f64>, LemkeEnd> {
    let n = q.len();
    if q.iter().all(|&x| x >= 0.0) {
        return Ok(vec![0.0; n]);
    }
    let qp = perturbed(q, PERTURB);
    // Tableau [I | −M | −1 | q]; variables w_0..n, z_0..n, z₀ = 2n.
    let cols = 2 * n + 2;
    let mut t = DMatrix::zeros(n, cols);
    for i in 0..n {
        t[(i, i)] = 1.0;
        for j in 0..n {
            t[(i, n + j)] = -m[(i, j)];
        }
        t[(i, 2 * n)] = -1.0;
        t[(i, 2 * n + 1)] = qp[i];
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
    for _ in 0..(LEMKE_PIVOTS * n + 100) {
        let entering = if leaving < n { leaving + n } else { leaving - n };
        // Ratio test, lexicographic (ties broken by the rows of B⁻¹, the w
        // columns of the tableau, divided by the pivot): no cycling on the
        // degenerate problems of hyperstatic contacts. z₀ leaves first on a tie.
        let mut best: Option<(usize, f64)> = None;
        // A pivot below PIVOT_TOL of its column's largest is round-off.
        let tiny = PIVOT_TOL * (0..n).map(|i| t[(i, entering)].abs()).fold(0.0, f64::max);
        for i in 0..n {
            let c = t[(i, entering)];
            if c <= tiny {
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
        let mut rng = Lcg::new(seed);
        let mut rnd = || rng.range(-1.0, 1.0);
        // J (2 rows a contact) random, M = I: A = J Jᵀ, PSD.
        let m = 2 * ncontacts;
        let j = DMatrix::from_fn(m, ndofs, |_, _| rnd());
        let a = &j * j.transpose();
        let b: Vec<f64> = (0..m).map(|_| rnd()).collect();
        let contacts = (0..ncontacts)
            .map(|c| FrictionContact { normal: c, tangent: ncontacts + c, mu: 0.2 + 0.8 * rnd().abs(), sliding: None })
            .collect();
        Problem::new(a, b, 0, ncontacts, contacts)
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
        let p = Problem::new(
            a,
            vec![9.81, 0.0],
            0,
            1,
            vec![FrictionContact { normal: 0, tangent: 1, mu: 2.0, sliding: Some(1.0) }],
        );
        let proof = Proof::Enumeration { statuses: 2 };
        assert_eq!(p.solve(p.start(&[])).unwrap_err(), Failure::Inconsistent { blamed: vec![0], proof });
        // Pulled out (b_n < 0): the rod lifts, λ = 0.
        let lifting = Problem { b: vec![-1.0, 0.0], ..p };
        assert_eq!(lifting.solve(lifting.start(&[])).unwrap().lambda, vec![0.0, 0.0]);
    }
}
