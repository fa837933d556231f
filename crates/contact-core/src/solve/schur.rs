//! The Schur complement `A = J M⁻¹ Jᵀ` of eq. (6), kept sparse, and its Cholesky
//! factor in envelope (skyline) storage, grown one row at a time.
//!
//! `A_kl = J_k M⁻¹ J_lᵀ` is non-zero only when rows `k` and `l` share a
//! coordinate: a ball of a pile touches at most six others, so a row of `A` has
//! a handful of entries whatever the number of contacts. [`SchurGraph`] lists
//! them for a list of candidate rows (`m × m`, stored as adjacency lists).
//!
//! [`Envelope`] factors `A_SS = L Lᵀ` for a subset `S` taken in a given order.
//! Row `i` of `L` is stored from its first non-zero column `first(i)` (the first
//! earlier row of `S` it shares a coordinate with) to the diagonal:
//!
//! ```text
//! L_ij = (A_ij − Σ_{m = max(first(i), first(j))}^{j−1} L_im L_jm) / L_jj,   first(i) ≤ j < i
//! L_ii = √(A_ii − Σ_j L_ij²)
//! ```
//!
//! so a row costs `O(w²)` for an envelope of width `w`, and adding a row never
//! touches the rows before it: Algorithm 3 grows `F⁺` by appending rows. When
//! the rows are taken in an order that follows space (islands apart, rows sorted
//! along the pile), `w` stays near the number of contacts in one layer.
//!
//! A row whose pivot `A_ii − Σ L_ij²` falls below `rel_tol · A_ii` depends on the
//! rows already taken (a ball touching two balls and a cushion, a duplicated
//! row): it is not added, and the caller gives it `λ = 0`. Never a square root
//! of a negative number, never NaN.

use crate::constraint::SparseRow;

/// Relative pivot threshold below which a row counts as dependent.
pub const PIVOT_TOL: f64 = 1e-11;

/// A row with more than this many rows after it in the factor is removed by
/// a rank-one update ([`Envelope::remove`]); nearer the end the rows after it
/// are factored again (the result is the same to round-off; small problems,
/// the paper's, keep the bits of a fresh factorization).
const UPDATE_TAIL: usize = 64;

/// The non-zero entries of `A = J M⁻¹ Jᵀ` among `m` candidate rows.
#[derive(Clone, Debug, Default)]
pub struct SchurGraph {
    /// `A_ii`.
    pub diag: Vec<f64>,
    /// `(j, A_ij)` for every `j ≠ i` sharing a coordinate with `i` where
    /// `A_ij ≠ 0`, sorted by `j`.
    pub adj: Vec<Vec<(usize, f64)>>,
}

impl SchurGraph {
    /// Builds the entries among `rows` (local index `i` is `rows[i]`) for the
    /// diagonal `minv` of `M⁻¹`. `O(m · degree)`.
    ///
    /// Each `A_ij` is the sum of the products `J_ic M⁻¹_c J_jc` over the
    /// columns `c` the rows share, in row `i`'s order, exactly as
    /// [`SparseRow::weighted_dot`] sums them (bit for bit). Each pair is
    /// visited once, from its lower row: a product is the same whichever
    /// row comes first (`x y = y x` in floating point), so where the shared
    /// columns come in the same order in both rows (one body shared, its
    /// columns in the body's order, as every contact row has them) `A_ji`
    /// is `A_ij`; otherwise (two bodies shared, listed the other way round)
    /// `A_ji` is summed again in row `j`'s order. Half the products of one
    /// visit per ordered pair: on the 55-box pyramid's 600 edges, this was a
    /// third of a step.
    pub fn new(rows: &[&SparseRow], minv: &[f64]) -> Self {
        let m = rows.len();
        // Rows touching each coordinate.
        let mut by_coord: Vec<Vec<usize>> = vec![Vec::new(); minv.len()];
        for (i, r) in rows.iter().enumerate() {
            for (c, _) in r.entries() {
                if minv[*c] != 0.0 {
                    by_coord[*c].push(i);
                }
            }
        }
        let mut adj: Vec<Vec<(usize, f64)>> = vec![Vec::new(); m];
        let mut diag = vec![0.0; m];
        // Row `i`'s position of each of its coordinates, and the last row
        // that listed each neighbour: no 36 comparisons a pair, no sort of
        // every coordinate's rows.
        let mut position = vec![usize::MAX; minv.len()];
        let mut listed = vec![usize::MAX; m];
        let mut later = Vec::new();
        for (i, r) in rows.iter().enumerate() {
            diag[i] = r.weighted_dot(r, minv);
            let own = r.entries();
            for (p, (c, _)) in own.iter().enumerate() {
                position[*c] = p;
            }
            later.clear();
            for (c, _) in own {
                for &j in &by_coord[*c] {
                    if j > i && listed[j] != i {
                        listed[j] = i;
                        later.push(j);
                    }
                }
            }
            later.sort_unstable();
            // `adj[i]` already holds its lower neighbours, in order (pushed
            // below while they were row `i` of this loop).
            for &j in &later {
                // A coordinate the other row lacks adds `+0.0`, which leaves
                // the sum as it was (a non-zero sum is the same bits).
                let mut terms = [0.0; 6];
                let (mut last, mut same_order) = (None, true);
                for (c, b) in rows[j].entries() {
                    let p = position[*c];
                    if p != usize::MAX {
                        terms[p] = own[p].1 * b * minv[*c];
                        same_order &= last.is_none_or(|l| l < p);
                        last = Some(p);
                    }
                }
                let a_ij = terms[..own.len()].iter().fold(0.0, |s, t| s + t);
                let a_ji = if same_order {
                    a_ij
                } else {
                    rows[j].entries().iter().fold(0.0, |s, (c, b)| {
                        let p = position[*c];
                        s + if p == usize::MAX { 0.0 } else { b * own[p].1 * minv[*c] }
                    })
                };
                if a_ij != 0.0 {
                    adj[i].push((j, a_ij));
                }
                if a_ji != 0.0 {
                    adj[j].push((i, a_ji));
                }
            }
            for (c, _) in own {
                position[*c] = usize::MAX;
            }
        }
        SchurGraph { diag, adj }
    }

    pub fn len(&self) -> usize {
        self.diag.len()
    }

    pub fn is_empty(&self) -> bool {
        self.diag.is_empty()
    }

    /// `y = A x`.
    pub fn mul(&self, x: &[f64]) -> Vec<f64> {
        (0..self.len()).map(|i| self.row(i, x)).collect()
    }

    /// `(A x)_i`.
    pub fn row(&self, i: usize, x: &[f64]) -> f64 {
        self.diag[i] * x[i] + self.adj[i].iter().map(|(j, v)| v * x[*j]).sum::<f64>()
    }

    /// The graph of the rows `set` (sorted local indices of this one), numbered
    /// `0..set.len()` in that order.
    pub fn restrict(&self, set: &[usize]) -> SchurGraph {
        let mut local = vec![usize::MAX; self.len()];
        for (l, &i) in set.iter().enumerate() {
            local[i] = l;
        }
        SchurGraph {
            diag: set.iter().map(|&i| self.diag[i]).collect(),
            adj: set
                .iter()
                .map(|&i| {
                    self.adj[i].iter().filter(|(j, _)| local[*j] != usize::MAX).map(|(j, a)| (local[*j], *a)).collect()
                })
                .collect(),
        }
    }

    /// Connected components ("islands") of the graph of the non-zero `A_ij`
    /// ([`SchurGraph::adj`]): rows linked by none, directly or through other
    /// rows, are independent problems (two rows on one ball at right angles
    /// have `A_ij = 0`). Returns the component of every row, numbered in order
    /// of their smallest row.
    pub fn islands(&self) -> Vec<usize> {
        let m = self.len();
        let mut island = vec![usize::MAX; m];
        let mut next = 0;
        let mut stack = Vec::new();
        for s in 0..m {
            if island[s] != usize::MAX {
                continue;
            }
            island[s] = next;
            stack.push(s);
            while let Some(i) = stack.pop() {
                for (j, _) in &self.adj[i] {
                    if island[*j] == usize::MAX {
                        island[*j] = next;
                        stack.push(*j);
                    }
                }
            }
            next += 1;
        }
        island
    }
}

impl SchurGraph {
    /// The least `λ` whose force is that of `mu` (`A λ = A μ`), in the
    /// metric `D = diag(A)`: iterated Tikhonov from `λ₀ = 0`,
    /// `λ_{j+1} = λ_j + (A + ε D)⁻¹ A (μ − λ_j)`, `ε = shift`, `rounds`
    /// rounds. Along an eigenvector of `D⁻¹ A` of eigenvalue `σ` the error
    /// shrinks by `ε/(σ + ε)` a round: what lies in `A`'s null space (a
    /// self-stress, `Jᵀ λ = 0`) is dropped, the rest kept to `(ε/σ)^rounds`
    /// ([`crate::kkt`], [`crate::exact`]).
    pub fn least_with_force(&self, mu: &[f64], shift: f64, rounds: usize) -> Vec<f64> {
        let reg = self.regularized(shift);
        let mut x = vec![0.0; self.len()];
        for _ in 0..rounds {
            let gap: Vec<f64> = mu.iter().zip(&x).map(|(m, x)| m - x).collect();
            let r = self.mul(&gap);
            let dx = reg.solve(&reg.order.iter().map(|&i| r[i]).collect::<Vec<_>>());
            for (p, &i) in reg.order.iter().enumerate() {
                x[i] += dx[p];
            }
        }
        x
    }

    /// `(A + ε D)⁻¹ b` (`D = diag(A)`, `ε = shift`), every row.
    pub fn solve_regularized(&self, b: &[f64], shift: f64) -> Vec<f64> {
        let reg = self.regularized(shift);
        let y = reg.solve(&reg.order.iter().map(|&i| b[i]).collect::<Vec<_>>());
        let mut x = vec![0.0; self.len()];
        for (p, &i) in reg.order.iter().enumerate() {
            x[i] = y[p];
        }
        x
    }

    /// The factor of `A + ε D` on every row, in [`Self::ordering`].
    fn regularized(&self, shift: f64) -> Envelope {
        let all: Vec<usize> = (0..self.len()).collect();
        let mut reg = Envelope::new(self.len(), shift);
        for i in self.ordering(&all) {
            reg.push(self, i, 0.0);
        }
        reg
    }
}

impl SchurGraph {
    /// The order to factor the rows `idx` in: reverse Cuthill–McKee ([`Self::rcm`])
    /// for a large set, where it narrows the envelope; a small one (up to 32
    /// rows) as given, so hand-checked cases stay exact (Platt's first step on
    /// the wedge: q̈ = 0 exactly, not 1e-16).
    pub fn ordering(&self, idx: &[usize]) -> Vec<usize> {
        if idx.len() > 32 { self.rcm(idx) } else { idx.to_vec() }
    }

    /// The rows `idx` in reverse Cuthill–McKee order: breadth first from a row of
    /// least degree, neighbours by increasing degree, reversed. Rows that share
    /// a body end up close together, so the envelope of `L` stays about as wide
    /// as one layer of a pile (sorting by key would put a ball's floor row far
    /// from its ball rows and the envelope would span the whole problem).
    pub fn rcm(&self, idx: &[usize]) -> Vec<usize> {
        let m = self.len();
        let mut in_set = vec![false; m];
        idx.iter().for_each(|&i| in_set[i] = true);
        // Each row's degree in the set, counted once (the sorts' keys, unique
        // with the row's index: the order is the same whichever sort).
        let mut degree = vec![0; m];
        for &i in idx {
            degree[i] = self.adj[i].iter().filter(|(j, _)| in_set[*j]).count();
        }
        let mut starts: Vec<usize> = idx.to_vec();
        starts.sort_unstable_by_key(|&i| (degree[i], i));
        let mut seen = vec![false; m];
        let mut order = Vec::with_capacity(idx.len());
        for s in starts {
            if seen[s] {
                continue;
            }
            seen[s] = true;
            let mut head = order.len();
            order.push(s);
            while head < order.len() {
                let i = order[head];
                head += 1;
                let mut next: Vec<usize> =
                    self.adj[i].iter().map(|(j, _)| *j).filter(|&j| in_set[j] && !seen[j]).collect();
                next.sort_unstable_by_key(|&j| (degree[j], j));
                for j in next {
                    seen[j] = true;
                    order.push(j);
                }
            }
        }
        order.reverse();
        order
    }
}

/// `L` with `A_SS = L Lᵀ`, rows in the order they were added (see module docs).
#[derive(Clone, Debug, Default)]
pub struct Envelope {
    /// Local (graph) index of the row at each factor position.
    pub order: Vec<usize>,
    /// Factor position of each local index (`usize::MAX`: not in the factor).
    pos: Vec<usize>,
    /// First stored column of each factor row.
    first: Vec<usize>,
    /// Offset of each factor row in `vals`; row `i` holds `L[i, first(i)..=i]`.
    start: Vec<usize>,
    vals: Vec<f64>,
    /// `A_ii (1 + ε)` on the diagonal: the relative `ε` (0: the exact `A_SS`).
    shift: f64,
    /// The least `pivot / A_ii` of the rows pushed (1 when none): how near
    /// to dependent the rows taken are.
    least_pivot: f64,
}

impl Envelope {
    /// An empty factor over a graph of `m` rows, with each `A_ii` made `A_ii (1 + shift)`.
    pub fn new(m: usize, shift: f64) -> Self {
        Envelope { pos: vec![usize::MAX; m], shift, least_pivot: 1.0, ..Default::default() }
    }

    pub fn len(&self) -> usize {
        self.order.len()
    }

    pub fn is_empty(&self) -> bool {
        self.order.is_empty()
    }

    pub fn contains(&self, i: usize) -> bool {
        self.pos[i] != usize::MAX
    }

    /// Appends local row `i`. Returns false (and leaves the factor as it was) when
    /// its pivot is below `rel_tol · A_ii`: the row depends on those taken.
    pub fn push(&mut self, g: &SchurGraph, i: usize, rel_tol: f64) -> bool {
        let n = self.order.len();
        let aii = g.diag[i] * (1.0 + self.shift);
        if !(aii.is_finite() && aii > 0.0) {
            return false;
        }
        // A_{S,i} in factor positions, straight into the new row's place at
        // the end of `vals` (no allocation a row: a pile's step pushes
        // thousands).
        let first = g.adj[i].iter().map(|(j, _)| self.pos[*j]).filter(|p| *p != usize::MAX).min().unwrap_or(n);
        let width = n - first;
        let base = self.vals.len();
        self.vals.resize(base + width, 0.0);
        for (j, v) in &g.adj[i] {
            if self.pos[*j] != usize::MAX {
                self.vals[base + self.pos[*j] - first] = *v;
            }
        }
        let (rows, y) = self.vals.split_at_mut(base);
        // Forward substitution L[first..n, first..n] y = A_{S,i}: y_j for j ≥ first.
        // (On slices, in the same order: no bounds check in the inner loop.)
        for j in first..n {
            let (fj, sj) = (self.first[j], self.start[j]);
            let lo = fj.max(first);
            let (done, rest) = y.split_at_mut(j - first);
            let mut s = rest[0];
            for (l, x) in rows[sj + (lo - fj)..sj + (j - fj)].iter().zip(&done[lo - first..]) {
                s -= l * x;
            }
            rest[0] = s / rows[sj + (j - fj)];
        }
        let pivot = aii - y.iter().map(|v| v * v).sum::<f64>();
        if !(pivot.is_finite() && pivot > rel_tol * aii) {
            self.vals.truncate(base);
            return false;
        }
        self.least_pivot = self.least_pivot.min(pivot / aii);
        self.first.push(first);
        self.start.push(base);
        self.vals.push(pivot.sqrt());
        self.pos[i] = n;
        self.order.push(i);
        true
    }

    /// The least `pivot / A_ii` of the rows pushed (1 for none; rows
    /// refactored by [`Envelope::remove`] are not counted again).
    pub fn least_pivot(&self) -> f64 {
        self.least_pivot
    }

    /// The factor position of local row `i`.
    pub fn position(&self, i: usize) -> Option<usize> {
        (self.pos[i] != usize::MAX).then_some(self.pos[i])
    }

    /// Keeps the first `n` rows of the factor (those after do not change
    /// them: each row depends only on the rows before it), as if only they
    /// had been pushed; [`Envelope::least_pivot`] still counts the rows
    /// taken off.
    pub fn truncate(&mut self, n: usize) {
        if n >= self.order.len() {
            return;
        }
        for &j in &self.order[n..] {
            self.pos[j] = usize::MAX;
        }
        self.vals.truncate(self.start[n]);
        self.order.truncate(n);
        self.first.truncate(n);
        self.start.truncate(n);
    }

    /// Takes local row `i` out: the rows before it are unchanged (they do not
    /// depend on later ones), the rows after it are factored again. Returns
    /// those that no longer pass the pivot test.
    pub fn remove(&mut self, g: &SchurGraph, i: usize, rel_tol: f64) -> Vec<usize> {
        let Some(p) = self.position(i) else { return Vec::new() };
        if self.order.len() - p > UPDATE_TAIL {
            self.remove_by_update(p);
            return Vec::new();
        }
        let tail: Vec<usize> = self.order[p + 1..].to_vec();
        self.truncate(p);
        tail.into_iter().filter(|&j| !self.push(g, j, rel_tol)).collect()
    }

    /// Takes out the row at factor position `p` by a rank-one update of the
    /// rows after it instead of factoring them again. With `L = [L₁₁ 0 0;
    /// l₂ᵀ d 0; L₃₁ v L₃₃]`, the factor without row and column `p` keeps `L₁₁`
    /// and `L₃₁`, and its last block is `L₃₃'` with `L₃₃' L₃₃'ᵀ = L₃₃ L₃₃ᵀ + v vᵀ`,
    /// column by column (Gill, Golub, Murray & Saunders 1974, method C1):
    ///
    /// ```text
    /// r = √(L_kk² + v_k²),  c = r / L_kk,  s = v_k / L_kk,  L_kk ← r
    /// L_ik ← (L_ik + s v_i) / c,   v_i ← c v_i − s L_ik        (i > k)
    /// ```
    ///
    /// `v` only has entries where the envelope does, so nothing fills in, and
    /// the pivots only grow: no row fails the pivot test. `O(tail · w)` for an
    /// envelope of width `w`, against `O(tail · w²)` to factor the tail again.
    fn remove_by_update(&mut self, p: usize) {
        let n = self.order.len();
        let at = |f: &Self, i: usize, k: usize| f.start[i] + (k - f.first[i]);
        // The last row reaching back to each column.
        let mut reach: Vec<usize> = (0..n).collect();
        for i in p + 1..n {
            for r in &mut reach[self.first[i]..i] {
                *r = (*r).max(i);
            }
        }
        let mut v = vec![0.0; n];
        for (i, vi) in v.iter_mut().enumerate().take(reach[p] + 1).skip(p + 1) {
            if self.first[i] <= p {
                *vi = self.vals[at(self, i, p)];
            }
        }
        for k in p + 1..n {
            if v[k] == 0.0 {
                continue;
            }
            let dk = at(self, k, k);
            let lkk = self.vals[dk];
            let r = lkk.hypot(v[k]);
            let (c, s) = (r / lkk, v[k] / lkk);
            self.vals[dk] = r;
            // Rows below k, read from three arrays at once.
            #[allow(clippy::needless_range_loop)]
            for i in k + 1..=reach[k] {
                if self.first[i] <= k {
                    let e = at(self, i, k);
                    let l = (self.vals[e] + s * v[i]) / c;
                    self.vals[e] = l;
                    v[i] = c * v[i] - s * l;
                }
            }
        }
        // Drop row p and column p; the rows after it move up by one.
        let mut vals = Vec::with_capacity(self.vals.len());
        let (mut first, mut start) = (Vec::with_capacity(n - 1), Vec::with_capacity(n - 1));
        for i in (0..n).filter(|&i| i != p) {
            let (fi, si) = (self.first[i], self.start[i]);
            let row = &self.vals[si..=si + (i - fi)];
            start.push(vals.len());
            if i < p {
                first.push(fi);
                vals.extend_from_slice(row);
            } else if fi > p {
                first.push(fi - 1);
                vals.extend_from_slice(row);
            } else {
                // Columns fi..i without column p (when fi = p, the row now
                // starts at the next column, which is numbered p after the shift).
                first.push(fi);
                vals.extend(row.iter().enumerate().filter(|(m, _)| fi + m != p).map(|(_, x)| *x));
            }
        }
        let removed = self.order.remove(p);
        self.pos[removed] = usize::MAX;
        for (q, &j) in self.order.iter().enumerate().skip(p) {
            self.pos[j] = q;
        }
        self.vals = vals;
        self.first = first;
        self.start = start;
    }

    /// Solves `A_SS x = b` with `b` and `x` indexed by factor position.
    pub fn solve(&self, b: &[f64]) -> Vec<f64> {
        let n = self.order.len();
        let mut y = b.to_vec();
        for i in 0..n {
            let (fi, si) = (self.first[i], self.start[i]);
            let mut s = y[i];
            for (l, yj) in self.vals[si..si + (i - fi)].iter().zip(&y[fi..i]) {
                s -= l * yj;
            }
            y[i] = s / self.vals[si + (i - fi)];
        }
        for i in (0..n).rev() {
            let (fi, si) = (self.first[i], self.start[i]);
            y[i] /= self.vals[si + (i - fi)];
            let xi = y[i];
            for (yj, l) in y[fi..i].iter_mut().zip(&self.vals[si..si + (i - fi)]) {
                *yj -= l * xi;
            }
        }
        y
    }

    /// Stored entries of `L` (a measure of the work a solve takes).
    pub fn stored(&self) -> usize {
        self.vals.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The envelope factor solves `A x = b` like a dense solve, and rejects a
    /// dependent row (a sum of two others) without disturbing the rest.
    #[test]
    fn envelope_solves_and_rejects_dependent_rows() {
        let rows = [
            SparseRow::from_entries(&[(0, 1.0), (1, 0.5)]),
            SparseRow::from_entries(&[(1, 1.0), (2, -1.0)]),
            SparseRow::from_entries(&[(2, 2.0), (3, 1.0)]),
            SparseRow::from_entries(&[(0, 1.0), (1, 1.5), (2, -1.0)]), // rows[0] + rows[1]
            SparseRow::from_entries(&[(3, 1.0), (4, 1.0)]),
        ];
        let refs: Vec<&SparseRow> = rows.iter().collect();
        let minv = [1.0, 0.5, 2.0, 1.0, 0.25];
        let g = SchurGraph::new(&refs, &minv);
        let mut f = Envelope::new(rows.len(), 0.0);
        let taken: Vec<bool> = (0..rows.len()).map(|i| f.push(&g, i, 1e-11)).collect();
        assert_eq!(taken, [true, true, true, false, true]);
        // Check A_SS x = b on the taken rows.
        let b = [1.0, -2.0, 0.5, 3.0];
        let x = f.solve(&b);
        let mut full = vec![0.0; rows.len()];
        for (p, &i) in f.order.iter().enumerate() {
            full[i] = x[p];
        }
        let ax = g.mul(&full);
        for (p, &i) in f.order.iter().enumerate() {
            assert!((ax[i] - b[p]).abs() < 1e-12, "row {i}: {} vs {}", ax[i], b[p]);
        }
        assert_eq!(g.islands(), vec![0; 5]);
    }

    /// Removing a row from the middle leaves the factor of the remaining rows.
    #[test]
    fn removing_a_row_equals_factoring_without_it() {
        let rows = [
            SparseRow::from_entries(&[(0, 1.0), (1, 0.5)]),
            SparseRow::from_entries(&[(1, 1.0), (2, -1.0)]),
            SparseRow::from_entries(&[(2, 2.0), (3, 1.0)]),
            SparseRow::from_entries(&[(3, 1.0), (4, 1.0)]),
            SparseRow::from_entries(&[(0, -1.0), (4, 0.3)]),
        ];
        let refs: Vec<&SparseRow> = rows.iter().collect();
        let g = SchurGraph::new(&refs, &[1.0, 0.5, 2.0, 1.0, 0.25]);
        let mut f = Envelope::new(5, 0.0);
        (0..5).for_each(|i| assert!(f.push(&g, i, 1e-11)));
        assert!(f.remove(&g, 2, 1e-11).is_empty());
        let mut fresh = Envelope::new(5, 0.0);
        [0, 1, 3, 4].iter().for_each(|&i| assert!(fresh.push(&g, i, 1e-11)));
        assert_eq!(f.order, fresh.order);
        let b = [1.0, 2.0, -1.0, 0.5];
        for (x, y) in f.solve(&b).iter().zip(fresh.solve(&b)) {
            assert!((x - y).abs() < 1e-14);
        }
    }

    /// A row far from the end is removed by a rank-one update: the factor
    /// solves like a fresh factorization of the rows left, and rows pushed
    /// after the removal extend it correctly.
    #[test]
    fn removing_by_rank_one_update_equals_factoring_again() {
        // 150 rows on 150 coordinates, row i on coordinates i, i + 1 and i + 3:
        // triangular with a unit diagonal, so independent; an envelope a few rows wide.
        let n = 150;
        let rows: Vec<SparseRow> = (0..n)
            .map(|i| {
                let e: Vec<(usize, f64)> =
                    [(i, 1.0), (i + 1, 0.3), (i + 3, -0.2)].into_iter().filter(|(c, _)| *c < n).collect();
                SparseRow::from_entries(&e)
            })
            .collect();
        let refs: Vec<&SparseRow> = rows.iter().collect();
        let minv: Vec<f64> = (0..n).map(|i| 1.0 + (i % 5) as f64 * 0.3).collect();
        let g = SchurGraph::new(&refs, &minv);
        let m = rows.len();
        let order = g.rcm(&(0..m).collect::<Vec<_>>());
        let mut f = Envelope::new(m, 0.0);
        order.iter().for_each(|&i| assert!(f.push(&g, i, 1e-11)));
        // Two removals far from the end, then a row pushed back.
        let (gone, back) = (order[5], order[40]);
        assert!(f.order.len() - 5 > UPDATE_TAIL);
        assert!(f.remove(&g, gone, 1e-11).is_empty());
        assert!(f.remove(&g, back, 1e-11).is_empty());
        assert!(f.push(&g, back, 1e-11));
        let mut fresh = Envelope::new(m, 0.0);
        f.order.iter().for_each(|&i| assert!(fresh.push(&g, i, 1e-11)));
        let b: Vec<f64> = (0..f.len()).map(|p| ((p * 7) % 11) as f64 - 5.0).collect();
        let (x, y) = (f.solve(&b), fresh.solve(&b));
        let scale = y.iter().fold(0.0_f64, |a, v| a.max(v.abs()));
        for p in 0..f.len() {
            assert!((x[p] - y[p]).abs() <= 1e-10 * scale, "position {p}: {} vs {}", x[p], y[p]);
        }
        // The same envelope but for leading entries the removal left at zero.
        assert!(
            f.stored() >= fresh.stored() && f.stored() <= fresh.stored() + 2,
            "{} vs {}",
            f.stored(),
            fresh.stored()
        );
        assert!(!f.contains(gone) && f.position(back) == Some(f.len() - 1));
    }

    /// Every entry is `weighted_dot`'s, bit for bit, in both directions:
    /// rows on two bodies of three coordinates each, some listing their
    /// bodies the other way round (the sum then taken again in the other
    /// row's order), some on one body, with a fixed coordinate (`M⁻¹ = 0`).
    #[test]
    fn entries_are_weighted_dots_bit_for_bit_both_ways() {
        let mut seed = 7_u64;
        let mut next = || {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((seed >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
        };
        let bodies = 6;
        let rows: Vec<SparseRow> = (0..80)
            .map(|k| {
                let a = k % bodies;
                let b = (k * 7 + 3) % bodies;
                let mut e: Vec<(usize, f64)> = (0..3).map(|c| (3 * a + c, next())).collect();
                if b != a && k % 5 != 0 {
                    let other: Vec<(usize, f64)> = (0..3).map(|c| (3 * b + c, next())).collect();
                    if next() > 0.0 {
                        e.extend(other)
                    } else {
                        e.splice(0..0, other);
                    }
                }
                SparseRow::from_entries(&e)
            })
            .collect();
        let refs: Vec<&SparseRow> = rows.iter().collect();
        let minv: Vec<f64> = (0..3 * bodies).map(|c| if c == 4 { 0.0 } else { 0.5 + next().abs() }).collect();
        let g = SchurGraph::new(&refs, &minv);
        for i in 0..rows.len() {
            assert_eq!(g.diag[i].to_bits(), rows[i].weighted_dot(&rows[i], &minv).to_bits());
            let want: Vec<(usize, u64)> = (0..rows.len())
                .filter(|&j| j != i)
                .map(|j| (j, rows[i].weighted_dot(&rows[j], &minv)))
                .filter(|(_, v)| *v != 0.0)
                .map(|(j, v)| (j, v.to_bits()))
                .collect();
            let got: Vec<(usize, u64)> = g.adj[i].iter().map(|(j, v)| (*j, v.to_bits())).collect();
            assert_eq!(got, want, "row {i}");
        }
    }

    #[test]
    fn rows_without_shared_coordinates_are_separate_islands() {
        let rows = [
            SparseRow::from_entries(&[(0, 1.0)]),
            SparseRow::from_entries(&[(2, 1.0)]),
            SparseRow::from_entries(&[(0, 1.0), (1, 1.0)]),
            SparseRow::from_entries(&[(3, 1.0)]),
        ];
        let refs: Vec<&SparseRow> = rows.iter().collect();
        let g = SchurGraph::new(&refs, &[1.0; 4]);
        assert_eq!(g.islands(), vec![0, 1, 0, 2]);
    }
}
