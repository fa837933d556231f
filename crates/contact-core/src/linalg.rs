//! Solving `A x = b` for the symmetric positive semi-definite `A = J M⁻¹ Jᵀ`.
//!
//! Rows of `J` become linearly dependent all the time (a ball touching two balls
//! and a cushion), and then `A` is singular. We factor `Pᵀ A P = L Lᵀ` with
//! diagonal (complete) pivoting: at each step the largest remaining diagonal is
//! eliminated, and when it falls below `rel_tol · max diag(A)` the remaining rows
//! are dependent on those already taken. They get `x_i = 0`; the rest is solved
//! exactly. For a consistent system (redundant rows) this is an exact solution;
//! for an inconsistent one it is finite and the caller reports the residual.
//! Non-finite input gives `x = 0` and `finite = false`: never NaN out.

/// The result of [`solve_psd`].
#[derive(Clone, Debug)]
pub struct PsdSolution {
    pub x: Vec<f64>,
    /// Number of pivots accepted (the numerical rank of `A`).
    pub rank: usize,
    /// Indices whose pivot was too small: their rows depend on the others.
    pub dropped: Vec<usize>,
    /// False when `A` or `b` held a NaN or an infinity.
    pub finite: bool,
}

/// Relative pivot threshold used by the solvers.
pub const PIVOT_TOL: f64 = 1e-11;

/// Solves `A x = b` for a dense symmetric PSD `A` given row-major (`m × m`).
pub fn solve_psd(a: &[f64], b: &[f64], rel_tol: f64) -> PsdSolution {
    let m = b.len();
    debug_assert_eq!(a.len(), m * m);
    if !a.iter().chain(b).all(|v| v.is_finite()) {
        return PsdSolution { x: vec![0.0; m], rank: 0, dropped: (0..m).collect(), finite: false };
    }
    let mut l = a.to_vec(); // working copy; the factor is built in place
    let mut perm: Vec<usize> = (0..m).collect();
    let max_diag = (0..m).map(|i| a[i * m + i]).fold(0.0_f64, f64::max);
    let threshold = rel_tol * max_diag.max(f64::MIN_POSITIVE);
    let mut rank = 0;
    for k in 0..m {
        // Pivot: the largest remaining diagonal entry.
        let (p, &piv) =
            (k..m).map(|i| (i, &l[perm[i] * m + perm[i]])).max_by(|x, y| x.1.total_cmp(y.1)).expect("k < m");
        if piv <= threshold {
            break;
        }
        perm.swap(k, p);
        let pk = perm[k];
        let d = piv.sqrt();
        l[pk * m + pk] = d;
        for &pi in &perm[k + 1..m] {
            l[pi * m + pk] /= d;
        }
        // Schur complement update of the trailing block (lower triangle by permuted index).
        for i in k + 1..m {
            let pi = perm[i];
            let lik = l[pi * m + pk];
            for &pj in &perm[k + 1..=i] {
                let v = lik * l[pj * m + pk];
                l[pi * m + pj] -= v;
                if pi != pj {
                    l[pj * m + pi] -= v;
                }
            }
        }
        rank += 1;
    }
    // Forward then backward substitution on the first `rank` permuted indices.
    let mut y = vec![0.0; rank];
    for i in 0..rank {
        let pi = perm[i];
        let s: f64 = (0..i).map(|j| l[pi * m + perm[j]] * y[j]).sum();
        y[i] = (b[pi] - s) / l[pi * m + pi];
    }
    let mut x = vec![0.0; m];
    for i in (0..rank).rev() {
        let pi = perm[i];
        let s: f64 = (i + 1..rank).map(|j| l[perm[j] * m + pi] * x[perm[j]]).sum();
        x[pi] = (y[i] - s) / l[pi * m + pi];
    }
    let mut dropped: Vec<usize> = perm[rank..].to_vec();
    dropped.sort_unstable();
    PsdSolution { x, rank, dropped, finite: true }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matvec(a: &[f64], x: &[f64]) -> Vec<f64> {
        let m = x.len();
        (0..m).map(|i| (0..m).map(|j| a[i * m + j] * x[j]).sum()).collect()
    }

    #[test]
    fn solves_a_regular_system() {
        let a = [4.0, 1.0, 0.5, 1.0, 3.0, 0.2, 0.5, 0.2, 2.0];
        let b = [1.0, -2.0, 0.5];
        let s = solve_psd(&a, &b, PIVOT_TOL);
        assert_eq!(s.rank, 3);
        let r = matvec(&a, &s.x);
        for i in 0..3 {
            assert!((r[i] - b[i]).abs() < 1e-12);
        }
    }

    /// A duplicated row (rank 2 of 3) with a consistent right-hand side is solved exactly.
    #[test]
    fn redundant_rows_are_dropped_and_the_rest_solved() {
        // J = [[1,0],[0,1],[1,0]] → A = J Jᵀ.
        let a = [1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0];
        let b = [2.0, 3.0, 2.0];
        let s = solve_psd(&a, &b, PIVOT_TOL);
        assert_eq!(s.rank, 2);
        assert_eq!(s.dropped.len(), 1);
        let r = matvec(&a, &s.x);
        for i in 0..3 {
            assert!((r[i] - b[i]).abs() < 1e-12, "{r:?}");
        }
    }

    #[test]
    fn nan_input_gives_zero_not_nan() {
        let s = solve_psd(&[f64::NAN, 0.0, 0.0, 1.0], &[1.0, 1.0], PIVOT_TOL);
        assert!(!s.finite);
        assert!(s.x.iter().all(|v| *v == 0.0));
        let z = solve_psd(&[0.0; 4], &[1.0, 1.0], PIVOT_TOL);
        assert_eq!(z.rank, 0);
        assert!(z.x.iter().all(|v| v.is_finite()));
    }
}
