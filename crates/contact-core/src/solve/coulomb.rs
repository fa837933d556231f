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
//!
//! **Files.** This one holds the problem, its statuses, the pivoting and the
//! contract; `coulomb/enumeration.rs` every status tried and a status's own
//! answer solved completely, `coulomb/status_system.rs` the linear algebra
//! of a status's system, `coulomb/dense_lemke.rs` Lemke's method on a dense
//! tableau.

use nalgebra::{DMatrix, DVector};

use crate::lcg::Lcg;
use crate::schur::{Envelope, SchurGraph};

mod dense_lemke;
mod enumeration;
mod status_system;

pub use dense_lemke::{LEMKE_PIVOTS, LemkeEnd, PERTURB, PIVOT_TOL, lemke, perturbed};
pub use enumeration::ENUMERATION_LIMIT;
use status_system::{MAX_WOODBURY, regularized_solve, regularized_solve_many, sparse_solve};

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
