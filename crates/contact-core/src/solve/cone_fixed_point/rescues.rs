//! The rescues of [`super`] where its fixed point stalls: the statuses the
//! iterate holds made exact (`polish`), Gauss–Seidel over the contacts with
//! exact corrections (`Sweep`), and Coulomb's problem on a dense `A` for a
//! small island (`Exact`). The math and the order they are tried in are in
//! [`super`]'s docs, "Where it stalls" and "The complete method".

use super::*;

/// Coulomb's problem of the same rows on a dense `A`
/// ([`crate::coulomb::Problem`]: normal rows, then a tangential row per
/// contact with friction): the last resort on a small island (module docs).
pub(super) struct Exact {
    problem: Problem,
    /// The tangential row of each normal row with friction.
    tangent_of: Vec<Option<usize>>,
}

impl Exact {
    /// Whether the island's rows (normal and tangential) are at most `limit`.
    pub(super) fn fits(rows: &Rows, contacts: &[usize], limit: usize) -> bool {
        rows.normal.len() + contacts.len() <= limit
    }

    /// `None` past `limit` rows; `contacts`: the normal rows with friction.
    pub(super) fn new(
        rows: &Rows,
        minv: &[f64],
        vfree: &[f64],
        c: &[f64],
        contacts: &[usize],
        limit: usize,
    ) -> Option<Exact> {
        if !Exact::fits(rows, contacts, limit) {
            return None;
        }
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
        let b = jrows.iter().enumerate().map(|(i, r)| -(r.dot(vfree) + if i < n { c[i] } else { 0.0 })).collect();
        let problem = Problem::new(dense_a(&jrows, minv), b, rows.neq, n, friction);
        Some(Exact { problem, tangent_of })
    }

    /// The complete answer ([`crate::coulomb::Problem::solve`]: pivoting
    /// from `modes`, Lemke's method, the enumeration where small), as edge
    /// impulses.
    pub(super) fn solve(&self, modes: Vec<Mode>, edge: &[Edge]) -> Option<Vec<f64>> {
        let lambda = self.problem.solve(modes).ok()?.lambda;
        Some(edge_impulses(edge, |row| (lambda[row], self.tangent_of[row].map_or(0.0, |t| lambda[t]), 0.0)))
    }
}

/// The rows of [`nsgs`]: the normal rows, then each friction contact's
/// tangential row, with `b = −(J v_free + c)` (no target on `t`).
pub(super) struct Sweep {
    pub(super) graph: SchurGraph,
    pub(super) b: Vec<f64>,
    pub(super) pairs: Vec<Pair>,
    /// The tangential row of each normal row with friction.
    tangent_of: Vec<usize>,
    pub(super) max_sweeps: usize,
}

impl Sweep {
    pub(super) fn new(rows: &Rows, minv: &[f64], vfree: &[f64], c: &[f64], contacts: &[usize]) -> Sweep {
        let n = rows.normal.len();
        let mut all: Vec<&SparseRow> = rows.normal.clone();
        let mut pairs = Vec::new();
        let mut tangent_of = vec![usize::MAX; n];
        for &i in contacts {
            let (t, mu) = rows.tangent[i].expect("a friction contact");
            pairs.push(Pair { normal: i, tangent: all.len(), mu });
            tangent_of[i] = all.len();
            all.push(t);
        }
        let b = all.iter().enumerate().map(|(i, r)| -(r.dot(vfree) + if i < n { c[i] } else { 0.0 })).collect();
        let graph = SchurGraph::new(&all, minv);
        let nonzeros = graph.len() + graph.adj.iter().map(Vec::len).sum::<usize>();
        Sweep { graph, b, pairs, tangent_of, max_sweeps: (SWEEP_WORK / nonzeros.max(1)).clamp(CHUNK, MAX_SWEEPS) }
    }

    /// `(P_n, P_t)` rows from edge impulses.
    pub(super) fn impulses(&self, edge: &[Edge], pi: &[f64]) -> Vec<f64> {
        let mut lambda = vec![0.0; self.graph.len()];
        for (e, p) in edge.iter().zip(pi) {
            lambda[e.row] += p;
            if e.sign != 0.0 {
                lambda[self.tangent_of[e.row]] += e.sign * e.mu * p;
            }
        }
        lambda
    }

    /// Edge impulses `π± = (P_n ± P_t/μ)/2` from rows.
    pub(super) fn edges(&self, edge: &[Edge], lambda: &[f64]) -> Vec<f64> {
        let tangent = |row: usize| self.tangent_of[row];
        edge_impulses(edge, |row| {
            (lambda[row], if tangent(row) == usize::MAX { 0.0 } else { lambda[tangent(row)] }, 0.0)
        })
    }
}

/// The exact answer nearest `pi` with the statuses it holds, and with
/// those its answer holds in turn, up to [`POLISH_ROUNDS`] times, until
/// `holds` (the contract) takes one (module docs).
///
/// An edge holds where its impulse outweighs its gap `w_e`, each relative
/// to the largest of its kind (round-off leaves 1e-15 on edges apart; a
/// negative impulse lets go, a negative gap comes on); a contact held by
/// one edge whose slip runs the wrong way sticks (both edges). On the held
/// edges `S` (and every equality) the equations of those statuses, `ρ_e ·
/// v⁺ + c_e = 0` with `ρ_e = n` on a contact that slides (`u_n = 0`), `ρ_e
/// = r_e` where it sticks or has no friction, are linear in `π_S`: `B π_S =
/// −(ρ v_free + c)` with `B_ef = ρ_e M⁻¹ r_fᵀ`, unsymmetric and, on a
/// hyperstatic pile, singular. The correction is its least-norm solution
/// `δ = Bᵀ (B Bᵀ + ε D)⁻¹ res`, refined twice: the impulses move the least
/// that makes the statuses exact, so the statically indeterminate spread
/// `pi` chose is kept. `None` past [`DENSE_ROWS`] held edges, where `B Bᵀ`
/// does not factor, or where no round holds.
#[allow(clippy::too_many_arguments)]
pub(super) fn polish(
    rows: &Rows,
    sparse: &[SparseRow],
    edge: &[Edge],
    minv: &[f64],
    vfree: &[f64],
    c: &[f64],
    pi: &[f64],
    rounds: usize,
    holds: impl Fn(&[f64]) -> bool,
) -> Option<Vec<f64>> {
    let mut current = pi.to_vec();
    for round in 0..rounds {
        let v = velocity(sparse, minv, vfree, &current);
        let slip: Vec<f64> = rows.tangent.iter().map(|t| t.map_or(0.0, |(t, _)| t.dot(&v))).collect();
        let gap: Vec<f64> =
            sparse.iter().zip(edge).map(|(r, e)| r.dot(&v) + c[e.row] + e.mu * slip[e.row].abs()).collect();
        let pmax = current.iter().fold(f64::MIN_POSITIVE, |m, p| m.max(p.abs()));
        let gmax = gap.iter().fold(f64::MIN_POSITIVE, |m, g| m.max(g.abs()));
        // A held edge the last solve left apart (its statuses asked for
        // more than the equations could give: least squares spread the
        // conflict over them) lets go.
        let apart = CONTRACT_GAP * gmax;
        let mut on: Vec<bool> =
            (0..edge.len()).map(|e| edge[e].row < rows.neq || current[e] / pmax > gap[e] / gmax).collect();
        if round > 0 {
            let widest = (0..edge.len())
                .filter(|&e| on[e] && edge[e].row >= rows.neq)
                .max_by(|&a, &b| gap[a].total_cmp(&gap[b]));
            if let Some(e) = widest.filter(|&e| gap[e] > apart) {
                on[e] = false;
            }
        }
        let mut held = vec![0u8; rows.normal.len()];
        for e in (0..edge.len()).filter(|&e| on[e]) {
            held[edge[e].row] += 1;
        }
        // One edge held, the slip against it (`r⁻` holds a slip along `+t`): it sticks.
        for e in 0..edge.len() {
            let row = edge[e].row;
            if on[e] && edge[e].sign != 0.0 && held[row] == 1 && edge[e].sign * slip[row] > 0.0 {
                held[row] = 2;
                on[if edge[e].sign > 0.0 { e + 1 } else { e - 1 }] = true;
            }
        }
        let set: Vec<usize> = (0..edge.len()).filter(|&e| on[e]).collect();
        let k = set.len();
        if k == 0 || k > DENSE_ROWS {
            return None;
        }
        // The equation's row: `n` where one edge of a friction contact holds.
        let rho: Vec<SparseRow> = set
            .iter()
            .map(|&e| if edge[e].sign != 0.0 && held[edge[e].row] == 1 { *rows.normal[edge[e].row] } else { sparse[e] })
            .collect();
        let b = DMatrix::from_fn(k, k, |i, j| rho[i].weighted_dot(&sparse[set[j]], minv));
        let residual = |pi: &[f64]| -> DVector<f64> {
            let v = velocity(sparse, minv, vfree, pi);
            DVector::from_iterator(k, set.iter().zip(&rho).map(|(&e, r)| -(r.dot(&v) + c[edge[e].row])))
        };
        let mut normal = &b * b.transpose();
        let scale = (0..k).map(|i| normal[(i, i)]).fold(0.0, f64::max).max(f64::MIN_POSITIVE);
        for i in 0..k {
            normal[(i, i)] += 1e-12 * normal[(i, i)].max(1e-6 * scale);
        }
        let chol = normal.cholesky()?;
        current.iter_mut().zip(&on).for_each(|(p, on)| *p = if *on { *p } else { 0.0 });
        for _ in 0..3 {
            let delta = b.transpose() * chol.solve(&residual(&current));
            for (&e, d) in set.iter().zip(delta.iter()) {
                current[e] += d;
            }
        }
        if !current.iter().all(|x| x.is_finite()) {
            return None;
        }
        if round + 1 == rounds || holds(&current) {
            return Some(current);
        }
    }
    None
}
