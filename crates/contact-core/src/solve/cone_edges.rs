//! The cone's edges of planar Coulomb friction: the rows of a velocity
//! problem with friction ([`Rows`]), each contact's two edge rows `r± = n ±
//! μ t` ([`edges`], the form of [`crate::cone_fixed_point`]'s eq. (1)), and
//! the velocity their impulses give, `v⁺ = v_free + M⁻¹ Σ π_e r_eᵀ`
//! ([`velocity`]): what the fixed point and Newton's method on the statuses
//! ([`crate::status_newton`]) share.

use crate::constraint::SparseRow;

/// The rows of one velocity problem: normal rows (equalities first, `neq`
/// of them), each with its tangential row and `μ` where it has friction.
pub struct Rows<'a> {
    pub normal: Vec<&'a SparseRow>,
    pub tangent: Vec<Option<(&'a SparseRow, f64)>>,
    pub neq: usize,
}

/// One edge: its normal row, `+1`, `−1` for the cone's edges, `0` for a
/// row without friction, and the contact's `μ` (0 without friction).
#[derive(Clone, Copy)]
pub struct Edge {
    pub row: usize,
    pub sign: f64,
    pub mu: f64,
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
