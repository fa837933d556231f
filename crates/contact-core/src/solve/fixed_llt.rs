//! A sparse Cholesky factorization `A = L Lᵀ` factored again and again on one
//! pattern: the interior point's Newton matrix `A + D` ([`crate::ipm`]),
//! whose values change every iteration and whose pattern never does.
//!
//! faer analyses the pattern once (AMD ordering, the elimination tree, `L`'s
//! structure), but each numeric factorization of its simplicial (up-looking)
//! kind still permutes `A` into that ordering and walks the elimination tree
//! for every row of `L` (`ereach`): a fifth of a 1000-ball landing's step,
//! the factorization itself a third. Here both are done once: the permuted
//! pattern with, for each of its entries, where its value comes from, and
//! each row's reach in faer's own order. The numeric loop is faer's
//! (`factorize_simplicial_numeric_cholesky`, the `LLᵀ` case) operation for
//! operation, so `L` is the same to the bit, and faer's solve takes it
//! from there; where faer would choose its supernodal kind (large dense
//! fronts) this type is not built and faer factors as before.
//!
//! An analysis outlives its solve: each thread keeps its four most recent
//! ([`FixedLlt::recycle`]) for the next solve on the same pattern
//! ([`FixedLlt::analysed`]), the friction fixed point's 5–25 solves of one
//! island a step above all. Tried and left out: the rows of independent
//! subtrees on several threads (bit for bit, but slower on a 1000-ball
//! island, whose separators hold 40–70 % of the work; docs/performance.md).

use faer::dyn_stack::{MemBuffer, MemStack};
use faer::sparse::SparseColMatRef;
use faer::sparse::linalg::cholesky::{LltRef, SymbolicCholesky, SymbolicCholeskyRaw, factorize_symbolic_cholesky};
use faer::sparse::utils::permute_self_adjoint_to_unsorted;
use faer::{Conj, MatMut, Side};

/// `L Lᵀ` of a symmetric matrix given by its lower triangle in compressed
/// columns, refactored on that pattern by [`FixedLlt::factor`].
pub struct FixedLlt {
    symbolic: SymbolicCholesky<usize>,
    /// The permuted upper triangle, in the order faer's permutation writes
    /// it: column pointers, row indices, and each entry's index among the
    /// source's values.
    col_ptr: Vec<usize>,
    row_idx: Vec<usize>,
    source: Vec<usize>,
    /// Each row `k` of `L`: the columns `j < k` it reaches, in the order
    /// faer's `ereach` gives them (flattened).
    reach_ptr: Vec<usize>,
    reach: Vec<usize>,
    /// `L`'s values in faer's simplicial layout (each column's diagonal first).
    values: Vec<f64>,
    x: Vec<f64>,
    next: Vec<usize>,
    /// The source's pattern (lower triangle: column pointers, row indices),
    /// by which a recycled analysis is found again ([`FixedLlt::recycle`]).
    pattern: (Vec<usize>, Vec<usize>),
}

/// Analyses kept for reuse, on each thread: the most recent first.
const KEPT: usize = 4;

thread_local! {
    static KEPT_ANALYSES: std::cell::RefCell<Vec<FixedLlt>> = const { std::cell::RefCell::new(Vec::new()) };
}

impl FixedLlt {
    /// The analysis of `a`'s pattern (its lower triangle); `None` where faer
    /// chooses its supernodal factorization or the analysis fails.
    pub fn new(a: SparseColMatRef<'_, usize, f64>) -> Option<Self> {
        let n = a.nrows();
        let symbolic =
            factorize_symbolic_cholesky(a.symbolic(), Side::Lower, Default::default(), Default::default()).ok()?;
        let SymbolicCholeskyRaw::Simplicial(simplicial) = symbolic.raw() else { return None };
        let (l_ptr, l_row) = (simplicial.col_ptr(), simplicial.row_idx());
        // The permuted upper triangle, its values the source's indices.
        let nnz = a.compute_nnz();
        let index: Vec<f64> = (0..nnz).map(|p| p as f64).collect();
        let indexed = SparseColMatRef::new(a.symbolic(), &index);
        let (mut val, mut col_ptr, mut row_idx) = (vec![0.0; nnz], vec![0usize; n + 1], vec![0usize; nnz]);
        let perm = symbolic.perm()?;
        let mut buffer = MemBuffer::new(faer::sparse::utils::permute_self_adjoint_scratch::<usize>(n));
        permute_self_adjoint_to_unsorted(
            &mut val,
            &mut col_ptr,
            &mut row_idx,
            indexed,
            perm,
            Side::Lower,
            Side::Upper,
            MemStack::new(&mut buffer),
        );
        let source: Vec<usize> = val.iter().map(|v| *v as usize).collect();
        // The elimination tree: each column's first row below its diagonal.
        let parent: Vec<Option<usize>> =
            (0..n).map(|j| (l_ptr[j + 1] > l_ptr[j] + 1).then(|| l_row[l_ptr[j] + 1])).collect();
        let len_val = l_row.len();
        // faer's `ereach`, row by row: each path from a row of `A` up the
        // tree, the later paths in front.
        let (mut reach_ptr, mut reach) = (vec![0usize], Vec::new());
        let mut visited = vec![usize::MAX; n];
        let mut stack = vec![0usize; n];
        let mut path = Vec::with_capacity(n);
        for k in 0..n {
            let mut top = n;
            visited[k] = k;
            for &i0 in &row_idx[col_ptr[k]..col_ptr[k + 1]] {
                if i0 >= k {
                    continue;
                }
                path.clear();
                let mut i = i0;
                while visited[i] != k {
                    path.push(i);
                    visited[i] = k;
                    i = parent[i]?;
                }
                stack[top - path.len()..top].copy_from_slice(&path);
                top -= path.len();
            }
            reach.extend_from_slice(&stack[top..]);
            reach_ptr.push(reach.len());
        }
        Some(FixedLlt {
            values: vec![0.0; len_val],
            symbolic,
            col_ptr,
            row_idx,
            source,
            reach_ptr,
            reach,
            x: vec![0.0; n],
            next: vec![0; n],
            pattern: (a.symbolic().col_ptr().to_vec(), a.symbolic().row_idx().to_vec()),
        })
    }

    /// [`FixedLlt::new`], or an analysis of the same pattern that this
    /// thread recycled: the fixed point of a friction step solves its edges'
    /// problem 5–25 times on one island, and a resting island keeps its
    /// rows from step to step, where faer's analysis (AMD) costs as much as
    /// 6–8 factorizations. The same pattern gives the same analysis, so the
    /// answers are the same to the bit whichever way it came.
    pub fn analysed(a: SparseColMatRef<'_, usize, f64>) -> Option<Self> {
        let (ptr, row) = (a.symbolic().col_ptr(), a.symbolic().row_idx());
        let kept = KEPT_ANALYSES.with(|kept| {
            let mut kept = kept.borrow_mut();
            let at = kept.iter().position(|f| f.pattern.0 == ptr && f.pattern.1 == row)?;
            Some(kept.remove(at))
        });
        kept.or_else(|| FixedLlt::new(a))
    }

    /// Keeps this analysis for [`FixedLlt::analysed`] on this thread (the
    /// four most recent, `KEPT`).
    pub fn recycle(self) {
        KEPT_ANALYSES.with(|kept| {
            let mut kept = kept.borrow_mut();
            kept.insert(0, self);
            kept.truncate(KEPT);
        });
    }

    /// Factors the matrix whose lower triangle has the values `a` (the
    /// pattern [`FixedLlt::new`] analysed); false where a pivot is not
    /// positive (not positive definite to the machine).
    pub fn factor(&mut self, a: &[f64]) -> bool {
        let n = self.x.len();
        let SymbolicCholeskyRaw::Simplicial(simplicial) = self.symbolic.raw() else { return false };
        let (l_ptr, l_row) = (simplicial.col_ptr(), simplicial.row_idx());
        let (x, values, next) = (&mut self.x, &mut self.values, &mut self.next);
        x.fill(0.0);
        next.copy_from_slice(&l_ptr[..n]);
        for k in 0..n {
            let column = self.col_ptr[k]..self.col_ptr[k + 1];
            for (&i, &p) in self.row_idx[column.clone()].iter().zip(&self.source[column]) {
                x[i] += a[p];
            }
            let mut d = x[k];
            x[k] = 0.0;
            for &j in &self.reach[self.reach_ptr[k]..self.reach_ptr[k + 1]] {
                let j_start = l_ptr[j];
                next[j] += 1;
                let row = next[j];
                let xj = x[j];
                x[j] = 0.0;
                let lkj = xj * values[j_start].recip();
                let range = j_start + 1..row;
                for (&i, &lij) in l_row[range.clone()].iter().zip(&values[range]) {
                    x[i] -= lij * lkj;
                }
                d -= lkj * lkj;
                values[row] = lkj;
            }
            // Not `d <= 0.0`: a NaN pivot fails too.
            if d.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) {
                return false;
            }
            values[l_ptr[k]] = d.sqrt();
        }
        true
    }

    /// `rhs` overwritten by `A⁻¹ rhs`, with the last factorization.
    pub fn solve(&self, rhs: &mut [f64]) {
        let n = rhs.len();
        let rhs = MatMut::from_column_major_slice_mut(rhs, n, 1);
        let par = faer::get_global_parallelism();
        let mut scratch = MemBuffer::new(self.symbolic.solve_in_place_scratch::<f64>(1, par));
        LltRef::<usize, f64>::new(&self.symbolic, &self.values).solve_in_place_with_conj(
            Conj::No,
            rhs,
            par,
            MemStack::new(&mut scratch),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lcg::Lcg;
    use faer::linalg::solvers::Solve;
    use faer::sparse::linalg::solvers::{Llt, SymbolicLlt};
    use faer::sparse::{SparseColMat, Triplet};

    /// The lower triangle of a random sparse symmetric matrix on the graph
    /// of a ball pile's contacts (a grid of `w × h` nodes, each linked to its
    /// right, upper and diagonal neighbours, some links left out), with
    /// `shift` added to the diagonal over its rows' sums.
    fn pile(rng: &mut Lcg, w: usize, h: usize, shift: f64) -> SparseColMat<usize, f64> {
        let n = w * h;
        let mut sum = vec![0.0; n];
        let mut entries = Vec::new();
        for y in 0..h {
            for x in 0..w {
                let i = y * w + x;
                for (dx, dy) in [(1, 0), (0, 1), (1, 1)] {
                    if x + dx < w && y + dy < h && rng.next() < 0.8 {
                        let j = (y + dy) * w + x + dx;
                        let v = rng.range(-1.0, 1.0);
                        entries.push(Triplet::new(j, i, v));
                        sum[i] += v.abs();
                        sum[j] += v.abs();
                    }
                }
            }
        }
        entries.extend((0..n).map(|i| Triplet::new(i, i, sum[i] + shift)));
        SparseColMat::try_new_from_triplets(n, n, &entries).unwrap()
    }

    /// faer's own factorization and solve, for comparison.
    fn faer_solve(a: &SparseColMat<usize, f64>, rhs: &[f64]) -> Option<Vec<f64>> {
        let symbolic = SymbolicLlt::try_new(a.symbolic(), Side::Lower).ok()?;
        let llt = Llt::try_new_with_symbolic(symbolic, a.as_ref(), Side::Lower).ok()?;
        let mut x = faer::Mat::<f64>::from_fn(rhs.len(), 1, |i, _| rhs[i]);
        llt.solve_in_place(x.as_mut());
        Some((0..rhs.len()).map(|i| x[(i, 0)]).collect())
    }

    /// On piles of 1 to 2500 rows, refactored with new values on the same
    /// pattern, the answer is faer's to the bit (the interior point's
    /// answers, and so every pinned trajectory, are unchanged) and solves
    /// the system to round-off; the same with an analysis recycled (the
    /// sizes twice over).
    #[test]
    fn the_same_answer_as_faer_to_the_bit() {
        let mut rng = Lcg::new(48);
        let sizes = [(1, 1), (2, 3), (7, 5), (20, 12), (50, 50)];
        let piles: Vec<_> = sizes.iter().map(|&(w, h)| pile(&mut rng, w, h, 1e-3)).collect();
        // The second pass from the largest: each but the first size's
        // analysis is still kept (the four most recent) when it comes back.
        let order = (0..sizes.len()).chain((0..sizes.len()).rev());
        for (k, reused) in order.zip((0..2 * sizes.len()).map(|n| n >= sizes.len() && n + 1 < 2 * sizes.len())) {
            let ((w, h), mut a) = (sizes[k], piles[k].clone());
            let kept = KEPT_ANALYSES.with(|kept| kept.borrow().iter().any(|f| f.pattern.1 == a.symbolic().row_idx()));
            assert_eq!(kept, reused, "{w}×{h}");
            let mut fixed = FixedLlt::analysed(a.as_ref()).expect("a pile's pattern is simplicial");
            for _ in 0..3 {
                // New values on the pattern, the diagonal kept dominant.
                let n = a.nrows();
                let (ptr, row) = (a.symbolic().col_ptr().to_vec(), a.symbolic().row_idx().to_vec());
                let mut sum = vec![0.0; n];
                let vals = a.val_mut();
                for j in 0..n {
                    for p in ptr[j]..ptr[j + 1] {
                        if row[p] != j {
                            vals[p] = rng.range(-1.0, 1.0);
                            sum[j] += vals[p].abs();
                            sum[row[p]] += vals[p].abs();
                        }
                    }
                }
                for j in 0..n {
                    let p = (ptr[j]..ptr[j + 1]).find(|&p| row[p] == j).unwrap();
                    vals[p] = sum[j] + rng.range(1e-6, 1.0);
                }
                let rhs: Vec<f64> = (0..n).map(|_| rng.range(-1.0, 1.0)).collect();
                assert!(fixed.factor(a.val()));
                let mut x = rhs.clone();
                fixed.solve(&mut x);
                let theirs = faer_solve(&a, &rhs).unwrap();
                assert!(x.iter().zip(&theirs).all(|(p, q)| p.to_bits() == q.to_bits()), "{w}×{h}");
                // A x = rhs, from the lower triangle.
                let mut r = rhs.clone();
                for j in 0..n {
                    let column = ptr[j]..ptr[j + 1];
                    for (&i, &v) in row[column.clone()].iter().zip(&a.val()[column]) {
                        r[i] -= v * x[j];
                        if i != j {
                            r[j] -= v * x[i];
                        }
                    }
                }
                assert!(r.iter().all(|r| r.abs() < 1e-12), "{w}×{h}");
            }
            fixed.recycle();
        }
    }

    /// A matrix that is not positive definite is refused, as faer refuses it.
    #[test]
    fn an_indefinite_matrix_is_refused() {
        let mut rng = Lcg::new(7);
        let mut a = pile(&mut rng, 6, 6, 0.0);
        let mut fixed = FixedLlt::new(a.as_ref()).unwrap();
        assert!(fixed.factor(a.val()));
        let (ptr, row) = (a.symbolic().col_ptr().to_vec(), a.symbolic().row_idx().to_vec());
        let p = (ptr[20]..ptr[21]).find(|&p| row[p] == 20).unwrap();
        a.val_mut()[p] = -1.0;
        assert!(!fixed.factor(a.val()));
        assert!(faer_solve(&a, &[1.0; 36]).is_none());
    }
}
