//! Coulomb's problem on the cone's edges by a semismooth Newton method on
//! Alart–Curnier's statuses, with proximal steps: on a large island with
//! friction, from the cone fixed point's iterate where its statuses stand
//! still and again before Lemke's walk ([`crate::cone_fixed_point`]).
//!
//! In the edge form of [`crate::cone_fixed_point`] (`P_n = π⁺ + π⁻`, `P_t =
//! μ (π⁺ − π⁻)`, `u_n = n·v⁺ + c`, `u_t = t·v⁺`), Alart & Curnier (1991)
//! write Coulomb's law as the zero of
//!
//! ```text
//! F_n = P_n − max(0, P_n − r_n u_n)
//! F_t = P_t − proj[−μ P̂_n, μ P̂_n](P_t − r_t u_t),   P̂_n = max(0, P_n − r_n u_n)     (1)
//! ```
//!
//! (`r_n = 1/(n M⁻¹ nᵀ)`, `r_t = 1/(t M⁻¹ tᵀ)`). `F` is piecewise linear, and
//! each piece is a status: **apart** (`P̂_n = 0`: `π± = 0`), **stick**
//! (`|P_t − r_t u_t| ≤ μ P̂_n`: `u_n = u_t = 0`, both edges held, `r±·v⁺ + c
//! = 0`), **slide** (the rest: `u_n = 0` on the one edge held, the one
//! along `sign(P_t − r_t u_t)`, the other edge 0). Rows without friction are
//! apart or held (`n·v⁺ + c = 0`), equalities always held. Newton's step on
//! (1) from an iterate is exactly the solve of its statuses' equations
//! (the primal-dual active set method of Hintermüller, Ito & Kunisch 2002),
//! linear in the held edges' impulses `π_S`:
//!
//! ```text
//! B π_S = −(ρ v_free + c),   B_ef = ρ_e M⁻¹ r_fᵀ                            (2)
//! ```
//!
//! with `ρ_e = n` on an edge that slides, `r_e` otherwise: unsymmetric where
//! a contact slides, sparse (two edges couple where they share a body), and
//! singular on a hyperstatic pile, whose sticking rows outnumber its
//! coordinates. So (2) is solved by proximal steps (Rockafellar 1976), each
//! `(B + ε D) δ = −(ρ v⁺(π) + c)` on one sparse LU factorization (`D` the
//! diagonal of `B`, `ε` = [`REGULARIZATION`]): they converge to the answer
//! of (2) nearest the iterate, which keeps the statically indeterminate
//! spread the last step's impulses chose, where a least-norm or basic
//! answer would spread it with negative entries. After each step the
//! answer is held to the caller's contract (the cone, complementarity on
//! each edge with the answer's own shift: [`crate::lcp::contract_ratio_above`]).
//!
//! **Rolling resistance** ([`crate::rolling`], the box cone's four edges
//! `n ± μ t ± μ_r m` of [`crate::cone_edges`]) adds the same law on the
//! rolling row, `F_m = P_m − proj[−μ_r P̂_n, μ_r P̂_n](P_m − r_m u_m)`: each
//! of `t` and `m` sticks or slides on its own, and the edges held are those
//! whose signs along `t` and `m` the statuses allow (all four where both
//! stick, two where one slides, one where both do). A held edge's equation
//! is `n`, plus `± μ t` where `t` sticks, plus `± μ_r m` where `m` sticks:
//! without rolling resistance, exactly the `n` and `r_e` above. So a status
//! is the set of held edges, and is compared as such.
//!
//! Newton's method on (1) converges where it starts near the answer's
//! statuses; it is not globally convergent: after [`ITERATIONS`] sets of
//! statuses it gives up, and the caller goes on with its complete methods.
//!
//! **Where it starts.** From the last step's impulses it met the contract
//! on 22 of 154 large islands of a 300-ball pile landing at μ = 0.3 (the
//! statuses jump by a third of the held edges from one set to the next):
//! not worth its factorizations. From the fixed point's iterate where its
//! statuses stand still ([`crate::cone_fixed_point`]) it met it on 184 of
//! 321, 108 of them in one or two sets, where the dense least-norm `polish`
//! it replaces there on large islands costs the cube of the held edges.
//! Release, time-stepping, μ = 0.3 from the drop: 100 balls over 2 s, mean
//! step 10.6 → 5.6 ms (steps over 100 ms: 73 → 23); 280, 300 and 320 balls
//! over 0.5 s, mean 47–48 → 24–27 ms, worst 1.6–1.8 s → 0.8–0.95 s. Tried
//! and left out: taking only the changes with the largest residual where
//! a set came out worse (a quarter as many each time, with or without
//! barring the changes tried): 32–40 ms on the 300 balls, one wrong change
//! of a status still sends the next answer 1e7 times off. Tried once more
//! before Lemke's walk (0.2–1.4 s), it took the 300 balls' first 0.6 s from
//! a mean of 340 to 185 ms (worst 27 → 7.8 s).

use faer::Mat;
use faer::linalg::solvers::Solve;
use faer::sparse::linalg::solvers::{Lu, SymbolicLu};
use faer::sparse::{SparseColMat, Triplet};

use crate::cone_edges::{Edge, Rows, velocity};
use crate::constraint::SparseRow;

/// Statuses (Newton steps on (1)) tried before giving up.
pub const ITERATIONS: usize = 8;
/// Proximal steps on one factorization of (2).
pub const STEPS: usize = 3;
/// The proximal term `ε`, relative to each row's diagonal of (2).
pub const REGULARIZATION: f64 = 1e-6;

/// The answer's edge impulses, or `None`
/// where no iterate came within the caller's contract (`ratio`, its
/// multiple of the tolerances, at most 1).
///
/// Each set of statuses takes up to [`STEPS`] proximal steps; where (1)
/// then asks no change, the steps go on only while the last set came ten
/// times nearer the contract.
#[allow(clippy::too_many_arguments)]
pub fn solve(
    rows: &Rows,
    edge: &[Edge],
    sparse: &[SparseRow],
    minv: &[f64],
    vfree: &[f64],
    c: &[f64],
    start: &[f64],
    ratio: impl Fn(&[f64]) -> f64,
) -> Option<Vec<f64>> {
    let n = rows.normal.len();
    let mut first = vec![usize::MAX; n];
    for (e, ed) in edge.iter().enumerate().rev() {
        first[ed.row] = e;
    }
    let inverse = |r: &SparseRow| 1.0 / r.weighted_dot(r, minv).max(f64::MIN_POSITIVE);
    let rn: Vec<f64> = rows.normal.iter().map(|r| inverse(r)).collect();
    let rt: Vec<f64> = rows.tangent.iter().map(|t| t.map_or(0.0, |(t, _)| inverse(t))).collect();
    let rm: Vec<f64> = rows.roll.iter().map(|m| m.map_or(0.0, |(m, _)| inverse(m))).collect();
    let mut pi = start.to_vec();
    // The statuses `pi` was solved with (`None`: the start): the held edges.
    let mut solved: Option<Vec<bool>> = None;
    let mut last_ratio = f64::INFINITY;
    // Whether the last set's answer came 10 times nearer the contract: its
    // proximal steps go on where (1) asks no change.
    let mut improving = false;
    let mut factored: Option<(Vec<bool>, Lu<usize, f64>)> = None;
    for _ in 0..ITERATIONS {
        let v = velocity(sparse, minv, vfree, &pi);
        let mut on = vec![false; edge.len()];
        let mut stick = vec![(false, false); n];
        for i in 0..n {
            let r = Reach { normal: rn[i], tangent: rt[i], roll: rm[i] };
            stick[i] = status(rows, edge, first[i], i, r, c[i], &v, &pi, &mut on);
        }
        if solved.as_ref() == Some(&on) && !improving {
            return None;
        }
        let set: Vec<usize> = (0..edge.len()).filter(|&e| on[e]).collect();
        if set.is_empty() {
            return None;
        }
        // The equation's row of each held edge (module docs): `r_e` where
        // the contact sticks, `n` where it slides, and with rolling
        // resistance `n` with the terms of what sticks (built only on an
        // island that has any).
        let rolled: Vec<Option<SparseRow>> = if !rows.rolls() {
            Vec::new()
        } else {
            set.iter()
                .map(|&e| {
                    let ed = edge[e];
                    let (t_sticks, m_sticks) = stick[ed.row];
                    (ed.roll != 0.0 && !(t_sticks && m_sticks)).then(|| {
                        let mut r = *rows.normal[ed.row];
                        let (t, m) = (rows.tangent[ed.row], rows.roll[ed.row]);
                        if let Some((t, _)) = t.filter(|_| t_sticks) {
                            t.entries().iter().for_each(|(j, x)| r.push(*j, ed.sign * ed.mu * x));
                        }
                        if let Some((m, _)) = m.filter(|_| m_sticks) {
                            m.entries().iter().for_each(|(j, x)| r.push(*j, ed.roll * ed.mu_r * x));
                        }
                        r
                    })
                })
                .collect()
        };
        let eq_row = |k: usize, e: usize| {
            let row = edge[e].row;
            match rolled.get(k).and_then(Option::as_ref) {
                Some(r) => r,
                None if edge[e].sign != 0.0 && !stick[row].0 => rows.normal[row],
                None => &sparse[e],
            }
        };
        if factored.as_ref().is_none_or(|(s, _)| *s != on) {
            let lu = factor(&set, sparse, minv, eq_row)?;
            factored = Some((on.clone(), lu));
        }
        let lu = &factored.as_ref().expect("factored above").1;
        pi.iter_mut().zip(&on).for_each(|(p, on)| *p = if *on { *p } else { 0.0 });
        let mut r = f64::INFINITY;
        for _ in 0..STEPS {
            let v = velocity(sparse, minv, vfree, &pi);
            let mut x = Mat::<f64>::zeros(set.len(), 1);
            for (k, &e) in set.iter().enumerate() {
                x[(k, 0)] = -(eq_row(k, e).dot(&v) + c[edge[e].row]);
            }
            lu.solve_in_place(x.as_mut());
            for (k, &e) in set.iter().enumerate() {
                pi[e] += x[(k, 0)];
            }
            if !pi.iter().all(|p| p.is_finite()) {
                return None;
            }
            r = ratio(&pi);
            if r <= 1.0 {
                return Some(pi);
            }
        }
        improving = r < 0.1 * last_ratio;
        last_ratio = r;
        solved = Some(on);
    }
    None
}

/// `1/(ρ M⁻¹ ρᵀ)` of a contact's normal, tangential and rolling rows: the
/// steps `r_n`, `r_t`, `r_m` of (1).
#[derive(Clone, Copy)]
struct Reach {
    normal: f64,
    tangent: f64,
    roll: f64,
}

/// The status (1) asks of row `i` at `pi` (velocity `v`; its first edge
/// `e`, the `+ +` one where it has friction), as its held edges in `on`;
/// returns whether its `t` and its `m` stick.
#[allow(clippy::too_many_arguments)]
fn status(
    rows: &Rows,
    edge: &[Edge],
    e: usize,
    i: usize,
    r: Reach,
    c: f64,
    v: &[f64],
    pi: &[f64],
    on: &mut [bool],
) -> (bool, bool) {
    if i < rows.neq {
        on[e] = true;
        return (false, false);
    }
    let un = rows.normal[i].dot(v) + c;
    if edge[e].sign == 0.0 {
        on[e] = pi[e] - r.normal * un > 0.0;
        return (false, false);
    }
    let own = e..edge.len().min(e + if edge[e].roll != 0.0 { 4 } else { 2 });
    let closed = pi[own.clone()].iter().sum::<f64>() - r.normal * un;
    if closed <= 0.0 {
        return (false, false);
    }
    // Each direction's trial impulse `P − r u` against its bound `μ P̂_n`:
    // inside, it sticks (both signs held); past it, the edge pushing along
    // the trial holds (friction along `sign(trial)`, the slip against it).
    let trial = |along: fn(&Edge) -> f64, coefficient: f64, row: &SparseRow, reach: f64| {
        let p: f64 = own.clone().map(|f| along(&edge[f]) * pi[f]).sum();
        let trial = coefficient * p - reach * row.dot(v);
        if trial.abs() <= coefficient * closed { None } else { Some(trial.signum()) }
    };
    let (t, mu) = rows.tangent[i].expect("a friction contact");
    let slide = trial(|f| f.sign, mu, t, r.tangent);
    let roll = rows.roll[i].and_then(|(m, mu_r)| trial(|f| f.roll, mu_r, m, r.roll));
    for f in own {
        on[f] = slide.is_none_or(|s| s == edge[f].sign) && roll.is_none_or(|s| s == edge[f].roll);
    }
    (slide.is_none(), roll.is_none())
}

/// The sparse LU of `B + ε D` of (2) on the held edges `set`.
fn factor<'a>(
    set: &[usize],
    sparse: &[SparseRow],
    minv: &[f64],
    eq_row: impl Fn(usize, usize) -> &'a SparseRow,
) -> Option<Lu<usize, f64>> {
    // The held edges touching each coordinate, with their entry there.
    let mut by_coordinate: Vec<Vec<(usize, f64)>> = vec![Vec::new(); minv.len()];
    for (k, &e) in set.iter().enumerate() {
        for (j, x) in sparse[e].entries() {
            by_coordinate[*j].push((k, *x));
        }
    }
    let mut entries = Vec::new();
    for (k, &e) in set.iter().enumerate() {
        let mut diagonal = 0.0;
        for (j, x) in eq_row(k, e).entries() {
            for &(f, y) in &by_coordinate[*j] {
                let b = x * minv[*j] * y;
                entries.push(Triplet::new(k, f, b));
                if f == k {
                    diagonal += b;
                }
            }
        }
        entries.push(Triplet::new(k, k, REGULARIZATION * diagonal.abs().max(f64::MIN_POSITIVE)));
    }
    let m = set.len();
    let b = SparseColMat::<usize, f64>::try_new_from_triplets(m, m, &entries).ok()?;
    let symbolic = SymbolicLu::try_new(b.symbolic()).ok()?;
    Lu::try_new_with_symbolic(symbolic, b.as_ref()).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cone_edges::edges;
    use crate::lcp;
    use crate::schur::SchurGraph;

    /// A disc of mass 2 on the floor (`x`, `y`), each contact's normal `+y`
    /// and tangent `+x` with `μ = 0.5`, pushed by `vfree`, from the edge
    /// impulses `start`: the answer and its velocity, or `None`.
    fn disc_on_floor(contacts: usize, vfree: [f64; 2], start: &[f64]) -> Option<(Vec<f64>, Vec<f64>)> {
        let (n, t) = (SparseRow::from_entries(&[(1, 1.0)]), SparseRow::from_entries(&[(0, 1.0)]));
        let rows = Rows {
            normal: vec![&n; contacts],
            tangent: vec![Some((&t, 0.5)); contacts],
            roll: vec![None; contacts],
            neq: 0,
        };
        let (edge, sparse, _) = edges(&rows);
        let (minv, c) = ([0.5, 0.5], vec![0.0; contacts]);
        let refs: Vec<&SparseRow> = sparse.iter().collect();
        let graph = SchurGraph::new(&refs, &minv);
        // The contract of `cone_fixed_point`: (1) with the answer's own shift.
        let ratio = |p: &[f64]| {
            let v = velocity(&sparse, &minv, &vfree, p);
            let b: Vec<f64> = sparse.iter().map(|r| -(r.dot(&vfree) + 0.5 * t.dot(&v).abs())).collect();
            lcp::contract_ratio_above(&graph, &b, 0, p, 0.0)
        };
        let pi = solve(&rows, &edge, &sparse, &minv, &vfree, &c, start, ratio)?;
        let v = velocity(&sparse, &minv, &vfree, &pi);
        Some((pi, v))
    }

    /// Sliding: `P_n = 0.02` stops the fall, `P_t = −μ P_n` slows the slide
    /// to `2 − 0.5 · 0.01 = 1.995` m/s, from no impulse at all, to the
    /// contract (1e-9 of the data; the proximal term leaves 1e-12).
    #[test]
    fn a_disc_pressed_while_it_slides_takes_the_cone_edge_against_its_slip() {
        let (pi, v) = disc_on_floor(1, [2.0, -0.01], &[0.0, 0.0]).expect("an answer");
        assert!(pi[0] == 0.0 && (pi[1] - 0.02).abs() < 1e-11, "π = {pi:?}");
        assert!((v[0] - 1.995).abs() < 1e-11 && v[1].abs() < 1e-11, "v = {v:?}");
    }

    /// Sticking on two coincident contacts (four edges held on two
    /// coordinates, a singular (2)): the proximal steps keep the spread of
    /// the start, 3 : 1, every edge nonnegative, and stop the disc.
    #[test]
    fn a_hyperstatic_disc_that_sticks_keeps_its_start_spread_and_stops() {
        // Start: P_n = 0.015 and 0.005, P_t = −0.003 and −0.001 (π± = (P_n ± P_t/μ)/2).
        let start = [0.0045, 0.0105, 0.0015, 0.0035];
        let (pi, v) = disc_on_floor(2, [0.002, -0.01], &start).expect("an answer");
        assert!(v[0].abs() < 1e-11 && v[1].abs() < 1e-11, "v = {v:?}");
        assert!(pi.iter().all(|p| *p >= 0.0), "π = {pi:?}");
        let (pn, pt) = (pi.iter().sum::<f64>(), 0.5 * (pi[0] - pi[1] + pi[2] - pi[3]));
        assert!((pn - 0.02).abs() < 1e-11 && (pt + 0.004).abs() < 1e-11, "P_n = {pn}, P_t = {pt}");
        let spread = (pi[0] + pi[1]) / (pi[2] + pi[3]);
        assert!((spread - 3.0).abs() < 1e-9, "spread {spread}");
    }
}
