//! The cone's edges of planar Coulomb friction: the rows of a velocity
//! problem with friction ([`Rows`]), each contact's two edge rows `r± = n ±
//! μ t` ([`edges`], the form of [`crate::cone_fixed_point`]'s eq. (1)), and
//! the velocity their impulses give, `v⁺ = v_free + M⁻¹ Σ π_e r_eᵀ`
//! ([`velocity`]): what the fixed point and Newton's method on the statuses
//! ([`crate::status_newton`]) share.
//!
//! A contact with rolling resistance ([`crate::rolling`]: a rolling row `m`
//! and its `μ_r`) has the box cone `|P_t| ≤ μ P_n`, `|P_m| ≤ μ_r P_n`,
//! whose section is a rectangle: four edges `r = n ± μ t ± μ_r m`, and
//!
//! ```text
//! P_n = Σ π,   P_t = μ Σ s_t π,   P_m = μ_r Σ s_m π      (s_t, s_m = ±1 the edge's signs)
//! ```
//!
//! with `π ≥ 0` exactly the box. Its dual cone is `w_n ≥ μ |w_t| + μ_r
//! |w_m|`, so De Saxcé's shift of eq. (1) becomes `μ |u_t| + μ_r |u_m|`:
//! each edge's `w = u_n ± μ u_t ± μ_r u_m + μ |u_t| + μ_r |u_m| ≥ 0`, and
//! complementarity on the four edges is Coulomb's law on `t` and the same
//! law, with `μ_r`, on `m`.

use crate::constraint::SparseRow;

/// The rows of one velocity problem: normal rows (equalities first, `neq`
/// of them), each with its tangential row and `μ` where it has friction.
pub struct Rows<'a> {
    pub normal: Vec<&'a SparseRow>,
    pub tangent: Vec<Option<(&'a SparseRow, f64)>>,
    /// Each normal row's rolling row and `μ_r`, where it has rolling
    /// resistance (only beside a tangential row).
    pub roll: Vec<Option<(&'a SparseRow, f64)>>,
    pub neq: usize,
}

impl Rows<'_> {
    /// Whether a contact has rolling resistance: its four edges have no
    /// single tangential status, and only the fixed point and Lemke's
    /// method on Anitescu–Potra's problem solve it.
    pub fn rolls(&self) -> bool {
        self.roll.iter().any(Option::is_some)
    }

    /// De Saxcé's shift of normal row `i` at the velocity `v`, `μ |t·v| +
    /// μ_r |m·v|` (0 without friction).
    pub fn shift(&self, i: usize, v: &[f64]) -> f64 {
        let Some((t, mu)) = self.tangent[i] else { return 0.0 };
        mu * t.dot(v).abs() + self.roll[i].map_or(0.0, |(m, mu_r)| mu_r * m.dot(v).abs())
    }
}

/// One edge: its normal row, `+1`, `−1` for the cone's edges, `0` for a
/// row without friction, and the contact's `μ` (0 without friction); with
/// rolling resistance, the edge's sign along the rolling row (`0` without)
/// and the contact's `μ_r`.
#[derive(Clone, Copy)]
pub struct Edge {
    pub row: usize,
    pub sign: f64,
    pub mu: f64,
    pub roll: f64,
    pub mu_r: f64,
}

impl Edge {
    /// The impulse of this edge of a contact with friction (`sign ≠ 0`) for
    /// its `(P_n, P_t, P_m)` inside its cone: `P_n/2 (1 + s_t x)`, times
    /// `(1 + s_m y)/2` with rolling, where `x = P_t/(μ P_n)`, `y = P_m/(μ_r
    /// P_n)`: the edges sum back to the impulse (a point of the rectangle as
    /// the mean of its corners, weighted).
    pub fn share(&self, pn: f64, pt: f64, pm: f64) -> f64 {
        let along = 0.5 * (pn + self.sign * pt / self.mu);
        if self.roll == 0.0 || pn <= 0.0 {
            return along;
        }
        along * 0.5 * (1.0 + self.roll * pm / (self.mu_r * pn))
    }
}

/// The edges of `rows`, their sparse rows, and each friction contact's
/// normal row (the order of the shift `s`).
pub fn edges(rows: &Rows) -> (Vec<Edge>, Vec<SparseRow>, Vec<usize>) {
    let mut list = Vec::new();
    let mut sparse = Vec::new();
    let mut contacts = Vec::new();
    for (i, n) in rows.normal.iter().enumerate() {
        match rows.tangent[i] {
            Some((t, mu)) if i >= rows.neq && mu > 0.0 => {
                contacts.push(i);
                let roll = rows.roll[i].filter(|(_, mu_r)| *mu_r > 0.0);
                let turns: &[f64] = if roll.is_some() { &[1.0, -1.0] } else { &[0.0] };
                for sign in [1.0, -1.0] {
                    for &turn in turns {
                        let mut r = **n;
                        for (c, v) in t.entries() {
                            r.push(*c, sign * mu * v);
                        }
                        let mut mu_r = 0.0;
                        if let Some((m, coefficient)) = roll {
                            mu_r = coefficient;
                            for (c, v) in m.entries() {
                                r.push(*c, turn * mu_r * v);
                            }
                        }
                        list.push(Edge { row: i, sign, mu, roll: turn, mu_r });
                        sparse.push(r);
                    }
                }
            }
            _ => {
                list.push(Edge { row: i, sign: 0.0, mu: 0.0, roll: 0.0, mu_r: 0.0 });
                sparse.push(**n);
            }
        }
    }
    (list, sparse, contacts)
}

/// `v⁺ = v_free + M⁻¹ Σ π_e r_eᵀ`.
pub fn velocity(sparse: &[SparseRow], minv: &[f64], vfree: &[f64], pi: &[f64]) -> Vec<f64> {
    let mut v = vfree.to_vec();
    for (r, p) in sparse.iter().zip(pi) {
        if *p != 0.0 {
            for (i, x) in r.entries() {
                v[*i] += p * x * minv[*i];
            }
        }
    }
    v
}
