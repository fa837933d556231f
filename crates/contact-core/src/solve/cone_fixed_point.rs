//! Coulomb friction at the velocity level as a fixed point of frictionless
//! problems on the cone's edges (De Saxcé's bipotential; Acary, Cadoux,
//! Lemaréchal & Malick 2011), exact in the plane: time-stepping's solver for
//! islands with friction ([`crate::timestep`]).
//!
//! A contact with normal row `n`, tangential row `t` and coefficient `μ`
//! (in the rows' own units, [`crate::kkt::ContactProblem::mu`]) has, in the
//! plane, a cone with two edges. Its impulse is `P = π⁺ e⁺ + π⁻ e⁻` along
//! the edge rows
//!
//! ```text
//! r⁺ = n + μ t,   r⁻ = n − μ t          (P_n = π⁺ + π⁻,  P_t = μ (π⁺ − π⁻))
//! ```
//!
//! and `π± ≥ 0` is exactly `|P_t| ≤ μ P_n`. With `u_n = n·v⁺ + c` (the
//! target `c` of [`crate::timestep`]) and `u_t = t·v⁺`, Coulomb's law is the
//! complementarity problem on the edges with De Saxcé's shift `s = μ |u_t|`:
//!
//! ```text
//! 0 ≤ π± ⊥ w± = r±·v⁺ + c + s = u_n ± μ u_t + μ |u_t| ≥ 0        (1)
//! ```
//!
//! (sliding with `u_t > 0`: `w⁺ = u_n + 2μ u_t > 0` so `π⁺ = 0` and `P_t =
//! −μ P_n`, against the slip, with `w⁻ = u_n`, `π⁻ u_n = 0`; sticking: both
//! edges held, `u_t = 0`, `u_n = 0`; apart: `π = 0`, `u_n ≥ μ|u_t| ∓ μ u_t ≥
//! 0`). For a **fixed** shift `s`, (1) is the frictionless problem of
//! [`crate::lcp`] on the edge rows, `a = A π − b` with `A = R M⁻¹ Rᵀ`
//! symmetric positive semi-definite and `b = −(R v_free + c + s)`: the
//! optimality conditions of the strictly convex
//! `min ½‖v − v_free‖²_M  s.t.  r±·v + c + s ≥ 0`, so `v⁺(s)` is unique
//! (Anitescu's convex relaxation when `s = 0`). Coulomb's answer is a fixed
//! point of
//!
//! ```text
//! s ↦ G(s) = μ |t · v⁺(s)|                                          (2)
//! ```
//!
//! which exists (Brouwer: `G` is continuous and bounded on a box), and every
//! fixed point is an answer. Each evaluation of `G` is one sparse,
//! warm-started frictionless solve ([`crate::lcp::solve_lcp_from`] from the
//! last iterate's `π`: on a pile that keeps its set, one proximal round on
//! one factorization), so the cost follows the non-zeros; there is no dense
//! `A` and no enumeration. The iteration on `s` is accelerated by Anderson's
//! method (Walker & Ni 2011; depth [`DEPTH`]): the plain iteration contracts
//! at about `3μ²` for a disc that slides, and diverges past `μ ≈ 0.58`.
//!
//! **Where it stalls.** `G` is piecewise affine, and at a status on the
//! edge between stick and slip (a contact whose slip follows its own shift
//! one for one, `G(s) − s` constant at 4e-9 m/s on a 30-ball pile) the
//! iteration stops improving. Then the statuses the iterate holds (off, on,
//! stick, slip `±`) are solved exactly by pivoting on them
//! ([`crate::coulomb::Problem::pivot_from`], a dense `A` up to
//! [`crate::coulomb::DENSE_ROWS`] rows), up to [`POLISHES`] times; and at
//! the last evaluation, completely ([`crate::coulomb::Problem::solve`]:
//! pivoting, Lemke's method, the enumeration where small). Each answer is
//! held to the contract below before it is taken.
//!
//! **The contract** is the frictionless one ([`crate::lcp::CONTRACT`]) on
//! (1) with `s` taken from the answer's own `v⁺` (not the iterate's): the
//! edge impulses `π± ≥ −ε_π` (the cone), `w± ≥ −ε_a` (no penetration),
//! `|π± w±| ≤ ε_c` (normal complementarity, zero slip where it sticks,
//! `|P_t| = μ P_n` against the slip where it slides), with tolerances from
//! the island's own data. It is the stopping test; an iteration that has
//! not met it after [`MAX_ITERATIONS`] evaluations stops with its ratio
//! ([`crate::lcp::Stop::FixedPoint`]), and the caller says so: nothing
//! loose passes as an answer.
//!
//! Equalities (rods, pins) and contacts without friction are one row each,
//! as in the frictionless problem.

use nalgebra::{DMatrix, DVector};

use crate::constraint::SparseRow;
use crate::coulomb::{DENSE_ROWS, FrictionContact, Mode, Problem, dense_a};
use crate::lcp::{self, Cap, Stop, solve_lcp_from};
use crate::schur::SchurGraph;

/// Evaluations of `G` before the fixed point gives up.
pub const MAX_ITERATIONS: usize = 60;
/// Anderson's memory: the last `DEPTH` differences of iterates.
pub const DEPTH: usize = 6;

/// The rows of one velocity problem: normal rows (equalities first, `neq`
/// of them), each with its tangential row and `μ` where it has friction.
pub struct Rows<'a> {
    pub normal: Vec<&'a SparseRow>,
    pub tangent: Vec<Option<(&'a SparseRow, f64)>>,
    pub neq: usize,
}

/// The answer of [`solve`], per normal row.
#[derive(Clone, Debug)]
pub struct Answer {
    /// `v⁺`.
    pub qd: Vec<f64>,
    /// `P_n` (`π⁺ + π⁻` on a contact with friction).
    pub normal: Vec<f64>,
    /// `P_t = μ (π⁺ − π⁻)` (0 without friction).
    pub tangent: Vec<f64>,
    /// Rows the last solve held (an edge of it clamped with `π > 0`).
    pub held: Vec<bool>,
    /// Evaluations of `G` (frictionless solves).
    pub iterations: usize,
    /// Islands of the edge problem.
    pub islands: usize,
    /// Where the solve or the fixed point stopped short (`None`: the
    /// contract holds).
    pub capped: Option<Cap>,
}

/// One edge: its normal row, `+1`, `−1` for the cone's edges, `0` for a
/// row without friction, and the contact's `μ` (0 without friction).
#[derive(Clone, Copy)]
struct Edge {
    row: usize,
    sign: f64,
    mu: f64,
}

/// The edges of `rows`, their sparse rows, and each friction contact's
/// normal row (the order of the shift `s`).
fn edges(rows: &Rows) -> (Vec<Edge>, Vec<SparseRow>, Vec<usize>) {
    let mut list = Vec::new();
    let mut sparse = Vec::new();
    let mut contacts = Vec::new();
    for (i, n) in rows.normal.iter().enumerate() {
        match rows.tangent[i] {
            Some((t, mu)) if i >= rows.neq && mu > 0.0 => {
                contacts.push(i);
                for sign in [1.0, -1.0] {
                    let mut r = **n;
                    for (c, v) in t.entries() {
                        r.push(*c, sign * mu * v);
                    }
                    list.push(Edge { row: i, sign, mu });
                    sparse.push(r);
                }
            }
            _ => {
                list.push(Edge { row: i, sign: 0.0, mu: 0.0 });
                sparse.push(**n);
            }
        }
    }
    (list, sparse, contacts)
}

/// Solves (1) for `v⁺ = v_free + M⁻¹ Σ π_e r_eᵀ` with targets `c` (per
/// normal row), from `warm_n`, `warm_t` (the last step's `P_n`, `P_t`, 0 where
/// none) and the shift `slip0` (`μ |u_t|` at the step's start, per normal row).
pub fn solve(
    rows: &Rows,
    minv: &[f64],
    vfree: &[f64],
    c: &[f64],
    warm_n: &[f64],
    warm_t: &[f64],
    slip0: &[f64],
) -> Answer {
    let n = rows.normal.len();
    let (edge, sparse, contacts) = edges(rows);
    let refs: Vec<&SparseRow> = sparse.iter().collect();
    let graph = SchurGraph::new(&refs, minv);
    let neq = rows.neq;
    // The edges' start: `π± = (P_n ± P_t/μ)/2`, clipped to the cone.
    let mut pi: Vec<f64> = edge
        .iter()
        .map(|e| {
            let (pn, pt) = (warm_n[e.row], warm_t[e.row]);
            if e.sign == 0.0 { pn } else { (0.5 * (pn + e.sign * pt / e.mu)).max(0.0) }
        })
        .collect();
    let base: Vec<f64> = sparse.iter().zip(&edge).map(|(r, e)| r.dot(vfree) + c[e.row]).collect();
    let mut s: Vec<f64> = contacts.iter().map(|&i| slip0[i].max(0.0)).collect();
    let mut slot = vec![usize::MAX; n];
    for (j, &i) in contacts.iter().enumerate() {
        slot[i] = j;
    }
    let rhs = |s: &[f64]| -> Vec<f64> {
        base.iter().zip(&edge).map(|(b, e)| -(b + if e.sign == 0.0 { 0.0 } else { s[slot[e.row]] })).collect()
    };
    let velocity = |pi: &[f64]| -> Vec<f64> {
        let mut v = vfree.to_vec();
        for (r, p) in sparse.iter().zip(pi) {
            if *p != 0.0 {
                for (i, x) in r.entries() {
                    v[*i] += p * x * minv[*i];
                }
            }
        }
        v
    };
    let shift = |v: &[f64]| -> Vec<f64> {
        contacts
            .iter()
            .map(|&i| {
                let (t, mu) = rows.tangent[i].expect("a friction contact");
                mu * t.dot(v).abs()
            })
            .collect()
    };
    // An exact answer, taken where it meets the contract: `(π, v⁺)`.
    let accept = |exact: Vec<f64>| -> Option<(Vec<f64>, Vec<f64>)> {
        let v = velocity(&exact);
        (lcp::contract_ratio(&graph, &rhs(&shift(&v)), neq, &exact) <= 1.0).then_some((exact, v))
    };
    // Coulomb's problem on a dense `A`, built at the first stall (its `A`
    // and `b` do not change with the iterate).
    let mut dense: Option<Option<Exact>> = None;
    let mut anderson = Anderson::default();
    let mut polished = 0;
    let mut iterations = 0;
    let mut last_ratio = f64::INFINITY;
    loop {
        iterations += 1;
        let lcp = solve_lcp_from(&graph, &rhs(&s), neq, &pi, 0.0);
        pi = lcp.lambda;
        let v = velocity(&pi);
        let g = shift(&v);
        let held_edge = lcp.clamped;
        // The contract on (1) with the answer's own shift.
        let ratio = if lcp.capped.is_some() { f64::INFINITY } else { lcp::contract_ratio(&graph, &rhs(&g), neq, &pi) };
        let done = ratio <= 1.0;
        let last = iterations >= MAX_ITERATIONS;
        // Stalled (the residual has not halved for a while): the exact
        // answer of the statuses the iterate holds, by pivoting, up to
        // `POLISHES` times; at the last evaluation, completely (pivoting,
        // Lemke's method, the enumeration where small).
        let stalled = anderson.stalled + 1 >= STALL && polished < POLISHES;
        let exact = if !done && lcp.capped.is_none() && !contacts.is_empty() && (last || stalled) {
            let dense = dense.get_or_insert_with(|| Exact::new(rows, minv, vfree, c, &contacts)).as_ref();
            let modes = statuses(neq, &slot, &edge, &pi, &held_edge);
            dense.and_then(|p| p.solve(modes, &edge, last)).and_then(accept)
        } else {
            None
        };
        if last {
            if let Some((exact, v)) = exact {
                let held_edge: Vec<bool> = exact.iter().map(|p| *p > 0.0).collect();
                return finish(n, &graph, &edge, &exact, &held_edge, v, iterations + 1, None);
            }
        }
        if done || lcp.capped.is_some() || last || contacts.is_empty() {
            let capped = if done {
                None
            } else if let Some(cap) = lcp.capped {
                Some(cap)
            } else {
                Some(Cap { rows: edge.len(), pivots: iterations, why: Stop::FixedPoint(ratio.min(last_ratio)) })
            };
            return finish(n, &graph, &edge, &pi, &held_edge, v, iterations, capped);
        }
        last_ratio = last_ratio.min(ratio);
        if stalled {
            polished += 1;
            anderson = Anderson::default();
            if let Some((exact, v)) = exact {
                pi = exact;
                s = shift(&v);
                continue;
            }
        }
        s = anderson.next(&s, &g);
    }
}

/// The statuses the edges hold (off, on, stick: both edges, slip: one),
/// per normal row; `slot[i]` is `usize::MAX` on a row without friction.
fn statuses(neq: usize, slot: &[usize], edge: &[Edge], pi: &[f64], held: &[bool]) -> Vec<Mode> {
    let n = slot.len();
    let mut on = vec![[false; 2]; n];
    for ((e, p), h) in edge.iter().zip(pi).zip(held) {
        if *h && (*p > 0.0 || e.row < neq) {
            on[e.row][usize::from(e.sign < 0.0)] = true;
        }
    }
    (0..n)
        .map(|i| match (i < neq, slot[i] != usize::MAX, on[i]) {
            (true, _, _) => Mode::On,
            (false, false, [true, _]) => Mode::On,
            (false, false, [false, _]) => Mode::Off,
            (false, true, [true, true]) => Mode::Stick,
            // The `+` edge pushes along `+t`: the slip is along `−t`.
            (false, true, [true, false]) => Mode::Slip(-1.0),
            (false, true, [false, true]) => Mode::Slip(1.0),
            (false, true, [false, false]) => Mode::Off,
        })
        .collect()
}

/// Coulomb's problem of the same rows on a dense `A`
/// ([`crate::coulomb::Problem`]: normal rows, then a tangential row per
/// contact with friction), whose statuses are solved exactly where the fixed
/// point stalls (module docs).
struct Exact {
    problem: Problem,
    /// The tangential row of each normal row with friction.
    tangent_of: Vec<Option<usize>>,
}

impl Exact {
    /// `None` past [`DENSE_ROWS`] rows; `contacts`: the normal rows with friction.
    fn new(rows: &Rows, minv: &[f64], vfree: &[f64], c: &[f64], contacts: &[usize]) -> Option<Exact> {
        let n = rows.normal.len();
        let mut jrows: Vec<&SparseRow> = rows.normal.clone();
        let mut tangent_of = vec![None; n];
        let mut friction = Vec::new();
        for &i in contacts {
            let (t, mu) = rows.tangent[i].expect("a friction contact");
            friction.push(FrictionContact { normal: i, tangent: jrows.len(), mu, sliding: None });
            tangent_of[i] = Some(jrows.len());
            jrows.push(t);
        }
        if jrows.len() > DENSE_ROWS {
            return None;
        }
        let b = jrows.iter().enumerate().map(|(i, r)| -(r.dot(vfree) + if i < n { c[i] } else { 0.0 })).collect();
        let problem = Problem::new(dense_a(&jrows, minv), b, rows.neq, n, friction);
        Some(Exact { problem, tangent_of })
    }

    /// The answer from `modes`, by pivoting on them alone
    /// ([`crate::coulomb::Problem::pivot_from`]: the exact equations of
    /// those statuses, `u_n = 0` on a contact that slides where the fixed
    /// point leaves `u_n = G(s) − s`), or `complete`ly
    /// ([`crate::coulomb::Problem::solve`]), as edge impulses.
    fn solve(&self, modes: Vec<Mode>, edge: &[Edge], complete: bool) -> Option<Vec<f64>> {
        let lambda = if complete { self.problem.solve(modes).ok()?.lambda } else { self.problem.pivot_from(modes)? };
        Some(
            edge.iter()
                .map(|e| match self.tangent_of[e.row] {
                    Some(t) if e.sign != 0.0 => 0.5 * (lambda[e.row] + e.sign * lambda[t] / e.mu),
                    _ => lambda[e.row],
                })
                .collect(),
        )
    }
}

/// The answer per normal row from the edges' impulses `pi`.
#[allow(clippy::too_many_arguments)]
fn finish(
    n: usize,
    graph: &SchurGraph,
    edge: &[Edge],
    pi: &[f64],
    held_edge: &[bool],
    qd: Vec<f64>,
    iterations: usize,
    capped: Option<Cap>,
) -> Answer {
    let mut normal = vec![0.0; n];
    let mut tangent = vec![0.0; n];
    let mut held = vec![false; n];
    for ((e, p), h) in edge.iter().zip(pi).zip(held_edge) {
        normal[e.row] += p;
        if e.sign != 0.0 {
            tangent[e.row] += e.sign * e.mu * p;
        }
        held[e.row] |= *h && *p > 0.0;
    }
    let islands = graph.islands().into_iter().max().map_or(0, |i| i + 1);
    Answer { qd, normal, tangent, held, iterations, islands, capped }
}

/// Anderson's acceleration of `x ↦ G(x)` (type II, Walker & Ni 2011), kept
/// non-negative: from the last `DEPTH + 1` pairs `(x_k, G(x_k))`, the
/// combination of the `G(x_k)` whose residuals `G(x_k) − x_k` combine to
/// the least norm.
#[derive(Default)]
struct Anderson {
    /// `G(x_k)` and `f_k = G(x_k) − x_k`, oldest first.
    g: Vec<Vec<f64>>,
    f: Vec<Vec<f64>>,
    /// The least residual seen and the iterations since it fell.
    best: f64,
    stalled: usize,
}

/// Iterations without the residual halving that make a stall.
const STALL: usize = 4;
/// Exact solves of the statuses held ([`Exact::solve`]) a solve may take.
const POLISHES: usize = 4;

impl Anderson {
    fn next(&mut self, x: &[f64], g: &[f64]) -> Vec<f64> {
        let f: Vec<f64> = g.iter().zip(x).map(|(g, x)| g - x).collect();
        let norm = f.iter().map(|v| v * v).sum::<f64>().sqrt();
        if self.g.is_empty() || norm < 0.5 * self.best {
            self.best = norm;
            self.stalled = 0;
        } else {
            self.stalled += 1;
        }
        // No progress: the memory starts again from here.
        if self.stalled >= 2 * STALL {
            self.g.clear();
            self.f.clear();
            self.stalled = 0;
            self.best = norm;
        }
        self.g.push(g.to_vec());
        self.f.push(f.clone());
        if self.g.len() > DEPTH + 1 {
            self.g.remove(0);
            self.f.remove(0);
        }
        let k = self.g.len() - 1;
        if k == 0 {
            return g.to_vec();
        }
        // ΔF γ ≈ f_k in least squares (normal equations, a relative ridge).
        let dim = f.len();
        let df = DMatrix::from_fn(dim, k, |r, j| self.f[j + 1][r] - self.f[j][r]);
        let mut gram = df.transpose() * &df;
        let ridge = 1e-12 * (0..k).map(|j| gram[(j, j)]).fold(0.0, f64::max) + f64::MIN_POSITIVE;
        for j in 0..k {
            gram[(j, j)] += ridge;
        }
        let rhs = df.transpose() * DVector::from_column_slice(&f);
        let Some(gamma) = gram.cholesky().map(|c| c.solve(&rhs)) else { return g.to_vec() };
        let mut out = g.to_vec();
        for j in 0..k {
            for (r, o) in out.iter_mut().enumerate() {
                *o -= gamma[j] * (self.g[j + 1][r] - self.g[j][r]);
            }
        }
        if out.iter().all(|v| v.is_finite()) {
            out.iter_mut().for_each(|v| *v = v.max(0.0));
            out
        } else {
            g.to_vec()
        }
    }
}
