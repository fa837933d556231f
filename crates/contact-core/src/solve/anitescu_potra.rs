//! Anitescu–Potra's complementarity problem for planar Coulomb friction at
//! the velocity level, kept sparse: the complete method of
//! [`crate::cone_fixed_point`] on islands too large for a dense tableau.
//!
//! With `A = J M⁻¹ Jᵀ` over the normal rows `n` and the tangential rows `t`
//! of the contacts with friction, `b = −(J v_free + c)`, and per contact
//! with coefficient `μ` the unknowns `P_n`, `λ⁺`, `λ⁻` (`P_t = λ⁺ − λ⁻`)
//! and the slack `β` (the slip's magnitude):
//!
//! ```text
//! w_n = A_n· P − b_n         ≥ 0 ⊥ P_n ≥ 0
//! w⁺  = A_t· P − b_t + β     ≥ 0 ⊥ λ⁺ ≥ 0
//! w⁻  = −A_t· P + b_t + β    ≥ 0 ⊥ λ⁻ ≥ 0
//! w_β = μ P_n − λ⁺ − λ⁻      ≥ 0 ⊥ β ≥ 0
//! ```
//!
//! (Stewart & Trinkle 1996, Anitescu & Potra 1997; rows without friction keep
//! only their first line). A contact with rolling resistance
//! ([`crate::rolling`]) has a second friction row, its rolling row `m`, with
//! its own `λ⁺, λ⁻, β` and its own bound `μ_r P_n − λ⁺ − λ⁻ ≥ 0`: the box
//! cone is the two bounds at once, and the problem keeps its form. Its matrix
//! is copositive-plus, and the problem has an answer wherever some velocity
//! meets every target (every `c ≥ 0`: `v = 0`; [`crate::cone_fixed_point`] on
//! targets that push out): Lemke's method ([`crate::sparse_lemke`]) finds
//! one. `A` has the sparsity of the contact graph ([`SchurGraph`]), and so
//! has the problem's matrix: four unknowns a contact, a few dozen non-zeros a
//! row.
//!
//! **The covering vector** of Lemke's walk ([`SparseLcp::cover`]) is given in
//! each row's units: 1 on the normal rows and [`TANGENT_COVER`] on the
//! tangential rows (speeds), and `μ / A_nn` on a contact's slip row (an
//! impulse: the friction bound of the impulse that stops a unit of normal
//! speed; `μ_r / A_nn` on a rolling row's). The walk follows the answers of
//! the problem with `z₀ d` added to `q` as `z₀` falls to 0: with the
//! tangential rows covered more than the normal ones, it settles the
//! contacts' normal impulses with the tangential rows still loose, and
//! friction's statuses after. Replayed states of a 300-ball pile collapsing
//! (each stepped once with each cover, so that no path differs): at μ = 0.3
//! (t = 0.55–0.66 s, 28 states) the walks took 4026 pivots on average where
//! they took 6446 with `d = 1`, at μ = 0.5 (t = 0.4–0.6 s, 40 states) 1919
//! where they took 3163. A tangential cover of 10 gave as many pivots with
//! more failed walks (3 of 19 against 1 of 17), one of 30 fewer pivots (3603)
//! and 6 failed walks of 23; with 10 there, a slip rows' cover of 0.1, 0.01
//! or 0.001 gave 4004 to 4101 pivots.
//!
//! The answer goes back to the cone's edges of [`crate::cone_fixed_point`]:
//! `π± = (P_n ± P_t/μ)/2`, clipped into the cone (`|P_t| ≤ μ P_n (1 + ε)`
//! to round-off gives an edge at `−ε`).

use crate::cone_edges::Rows;
use crate::constraint::SparseRow;
use crate::schur::SchurGraph;
use crate::sparse_lemke::{self, LemkeEnd, SparseLcp};

/// The covering vector's entry on a tangential row, the normal rows' being
/// 1 (module docs).
pub const TANGENT_COVER: f64 = 5.0;

/// The problem of an island and where its unknowns sit.
pub struct Problem {
    lcp: SparseLcp,
    /// Normal rows (all inequalities).
    nn: usize,
    /// Per normal row, the friction row `k` of its tangential row and of
    /// its rolling row, where it has them: their unknowns `λ⁺, λ⁻, β` are
    /// `nn + 3k ..`.
    slots: Vec<(Option<usize>, Option<usize>)>,
}

/// Lemke's answer per normal row.
pub struct Answer {
    pub normal: Vec<f64>,
    /// `P_t` (0 without friction).
    pub tangent: Vec<f64>,
    /// `P_m` (0 without rolling resistance).
    pub roll: Vec<f64>,
}

impl Problem {
    /// The problem of `rows` (normal rows, each with its tangential row and
    /// `μ` where it has friction, and its rolling row and `μ_r` where it
    /// has rolling resistance), with targets `c` (per normal row); `None`
    /// where the island has equalities (a rod, a pin: they are no
    /// complementarity rows, and their elimination is dense).
    pub fn new(rows: &Rows, minv: &[f64], vfree: &[f64], c: &[f64]) -> Option<Problem> {
        if rows.neq > 0 {
            return None;
        }
        let nn = rows.normal.len();
        let mut jrows: Vec<&SparseRow> = rows.normal.to_vec();
        let mut slots = vec![(None, None); nn];
        // The contact and `μ` of each friction row of `jrows`.
        let mut friction_rows: Vec<(usize, f64)> = Vec::new();
        for (i, slot) in slots.iter_mut().enumerate() {
            if let Some((t, mu)) = rows.tangent[i]
                && mu > 0.0
            {
                slot.0 = Some(friction_rows.len());
                friction_rows.push((i, mu));
                jrows.push(t);
                if let Some((m, mu_r)) = rows.roll[i]
                    && mu_r > 0.0
                {
                    slot.1 = Some(friction_rows.len());
                    friction_rows.push((i, mu_r));
                    jrows.push(m);
                }
            }
        }
        let k = friction_rows.len();
        let graph = SchurGraph::new(&jrows, minv);
        let b: Vec<f64> =
            jrows.iter().enumerate().map(|(i, r)| -(r.dot(vfree) + if i < nn { c[i] } else { 0.0 })).collect();
        let mut lcp = SparseLcp::new(nn + 3 * k);
        // Row `row` of `A P` into LCP row `to`, times `sign`: a normal
        // column is `P_n`'s, a tangential one `λ⁺ − λ⁻`'s.
        let put = |lcp: &mut SparseLcp, row: usize, to: usize, sign: f64| {
            let entries = std::iter::once((row, graph.diag[row])).chain(graph.adj[row].iter().copied());
            for (j, a) in entries {
                if j < nn {
                    lcp.add(to, j, sign * a);
                } else {
                    let p = nn + 3 * (j - nn);
                    lcp.add(to, p, sign * a);
                    lcp.add(to, p + 1, -sign * a);
                }
            }
        };
        for (i, bi) in b.iter().enumerate().take(nn) {
            put(&mut lcp, i, i, 1.0);
            lcp.q[i] = -bi;
        }
        for (kk, &(i, mu)) in friction_rows.iter().enumerate() {
            let p = nn + 3 * kk;
            let t = nn + kk;
            put(&mut lcp, t, p, 1.0);
            lcp.add(p, p + 2, 1.0);
            lcp.q[p] = -b[t];
            put(&mut lcp, t, p + 1, -1.0);
            lcp.add(p + 1, p + 2, 1.0);
            lcp.q[p + 1] = b[t];
            lcp.add(p + 2, i, mu);
            lcp.add(p + 2, p, -1.0);
            lcp.add(p + 2, p + 1, -1.0);
            lcp.cover[p] = TANGENT_COVER;
            lcp.cover[p + 1] = TANGENT_COVER;
            lcp.cover[p + 2] = mu / graph.diag[i].max(f64::MIN_POSITIVE);
        }
        Some(Problem { lcp, nn, slots })
    }

    /// Lemke's method on the problem: `(P_n, P_t, P_m)` per normal row.
    pub fn solve(&self) -> Result<Answer, LemkeEnd> {
        let nn = self.nn;
        let z = sparse_lemke::lemke(&self.lcp)?;
        let of = |slot: Option<usize>| slot.map_or(0.0, |k| z[nn + 3 * k] - z[nn + 3 * k + 1]);
        Ok(Answer {
            normal: z[..nn].to_vec(),
            tangent: self.slots.iter().map(|s| of(s.0)).collect(),
            roll: self.slots.iter().map(|s| of(s.1)).collect(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coulomb::{self, FrictionContact, dense_a};
    use crate::lcg::Lcg;

    /// A disc jammed between two rough walls, both rows asked to push out
    /// by 1e-9 m/s (left inside by 1e-12 m over a step of 1 ms): no
    /// velocity meets both (`v_x ≥ 1e-9` and `−v_x ≥ 1e-9`), the problem has
    /// no answer, and Lemke's walk ends on a ray, as it must. With each row
    /// only kept from going deeper (`max(c, 0)`, what
    /// [`crate::cone_fixed_point`] walks then) it has one, no row closing
    /// (unsqueezed, the disc may fall: the walls press only as hard as the
    /// answer chooses, the pile's statical indeterminacy).
    #[test]
    fn push_out_targets_no_velocity_meets_end_on_a_ray_and_kept_from_deeper_do_not() {
        let (left, right) = (SparseRow::from_entries(&[(0, 1.0)]), SparseRow::from_entries(&[(0, -1.0)]));
        let up = SparseRow::from_entries(&[(1, 1.0)]);
        let rows = Rows {
            normal: vec![&left, &right],
            tangent: vec![Some((&up, 0.5)), Some((&up, 0.5))],
            roll: vec![None, None],
            neq: 0,
        };
        let (minv, vfree) = ([2.0, 2.0], [0.0, -0.0098]);
        let apart = Problem::new(&rows, &minv, &vfree, &[-1e-9, -1e-9]).expect("no equalities");
        assert_eq!(apart.solve().err(), Some(LemkeEnd::Ray));
        let held = Problem::new(&rows, &minv, &vfree, &[0.0, 0.0]).expect("no equalities");
        let answer = held.solve().expect("an answer");
        let vx = minv[0] * (answer.normal[0] - answer.normal[1]);
        assert!(vx.abs() <= 1e-15, "a row closes or opens: v_x = {vx}");
        for i in 0..2 {
            assert!(answer.normal[i] >= 0.0, "contact {i} pulls");
            assert!(answer.tangent[i].abs() <= 0.5 * answer.normal[i] * (1.0 + 1e-12), "contact {i} outside its cone");
        }
    }

    /// Random contacts on `3 n` coordinates (full row rank: every target is
    /// reachable, so an answer exists), some without friction, the last
    /// normal row doubled where `hyperstatic` (a singular `A`): the answer
    /// meets the dense problem's strict contract (`coulomb`, its own
    /// oracle of Coulomb's law).
    #[test]
    fn lemkes_answer_meets_coulombs_law_on_random_islands() {
        let mut rng = Lcg::new(11);
        for case in 0..200 {
            let n = 2 + case % 9;
            let hyperstatic = case % 3 == 0;
            let dofs = 3 * n;
            let minv: Vec<f64> = (0..dofs).map(|_| rng.range(0.2, 5.0)).collect();
            let row = |rng: &mut Lcg| {
                let cols: Vec<(usize, f64)> =
                    (0..4).map(|_| ((rng.next() * dofs as f64) as usize, rng.range(-1.0, 1.0))).collect();
                SparseRow::from_entries(&cols)
            };
            let mut normal: Vec<SparseRow> = (0..n).map(|_| row(&mut rng)).collect();
            let tangent: Vec<SparseRow> = (0..n).map(|_| row(&mut rng)).collect();
            let mut mu: Vec<f64> = (0..n).map(|_| if rng.next() < 0.2 { 0.0 } else { rng.range(0.05, 2.0) }).collect();
            if hyperstatic {
                normal.push(normal[n - 1]);
                mu.push(0.0);
            }
            let nn = normal.len();
            let vfree: Vec<f64> = (0..dofs).map(|_| rng.range(-2.0, 2.0)).collect();
            let c: Vec<f64> = (0..nn).map(|_| rng.range(-0.5, 0.5)).collect();
            let nrefs: Vec<&SparseRow> = normal.iter().collect();
            let trefs: Vec<Option<(&SparseRow, f64)>> =
                (0..nn).map(|i| (i < n && mu[i] > 0.0).then(|| (&tangent[i], mu[i]))).collect();
            let rows = Rows { normal: nrefs.clone(), tangent: trefs.clone(), roll: vec![None; nn], neq: 0 };
            let problem = Problem::new(&rows, &minv, &vfree, &c).expect("no equalities");
            let answer = problem.solve().unwrap_or_else(|e| panic!("case {case}: {e:?}"));
            let (pn, pt) = (answer.normal, answer.tangent);
            // The dense oracle: normal rows, then one tangential row a contact with friction.
            let mut jrows = nrefs.clone();
            let mut contacts = Vec::new();
            let mut lambda = pn.clone();
            for i in 0..nn {
                if let Some((t, mu)) = trefs[i] {
                    contacts.push(FrictionContact { normal: i, tangent: jrows.len(), mu, sliding: None });
                    jrows.push(t);
                    lambda.push(pt[i]);
                }
            }
            let b = jrows.iter().enumerate().map(|(i, r)| -(r.dot(&vfree) + if i < nn { c[i] } else { 0.0 })).collect();
            let oracle = coulomb::Problem::new(dense_a(&jrows, &minv), b, 0, nn, contacts);
            let ratio = oracle.strict_ratio(&lambda);
            assert!(ratio <= 1.0, "case {case} ({nn} rows, hyperstatic {hyperstatic}): contract missed by {ratio}");
        }
    }
}
