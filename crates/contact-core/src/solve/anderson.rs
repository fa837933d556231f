//! Anderson's acceleration of a fixed-point iteration `x ↦ G(x)` (type II,
//! Walker & Ni 2011): from the last `depth + 1` pairs `(x_k, G(x_k))`, the
//! combination of the `G(x_k)` whose residuals `f_k = G(x_k) − x_k`
//! combine to the least norm,
//!
//! ```text
//! γ = argmin ‖f_k − ΔF γ‖,   x_{k+1} = G(x_k) − ΔG γ
//! ```
//!
//! (`ΔF`, `ΔG`: the differences of successive residuals and images). On a
//! map that is affine near its fixed point this is a Krylov method (GMRES
//! in exact arithmetic); on a piecewise affine one it restarts where the
//! residual stops falling. The caller projects the result back onto its
//! own set (shifts non-negative, impulses in their cones):
//! [`crate::cone_fixed_point`] on the shifts, [`crate::nsgs`] on the
//! impulses of a Gauss–Seidel sweep.

use nalgebra::{DMatrix, DVector};

/// The memory of one iteration.
#[derive(Clone, Debug)]
pub struct Anderson {
    depth: usize,
    /// Iterations without the residual halving that count as a stall.
    stall: usize,
    /// `G(x_k)` and `f_k`, oldest first.
    g: Vec<Vec<f64>>,
    f: Vec<Vec<f64>>,
    /// The least residual seen and the iterations since it halved.
    best: f64,
    /// Iterations since the residual last halved.
    pub stalled: usize,
}

impl Anderson {
    /// A memory of `depth` differences; after `2 stall` iterations without
    /// the residual halving it starts again from the current pair.
    pub fn new(depth: usize, stall: usize) -> Self {
        Anderson { depth, stall, g: Vec::new(), f: Vec::new(), best: 0.0, stalled: 0 }
    }

    /// The next iterate from `x` and `g = G(x)` (the plain `g` where the
    /// least squares problem is singular or the combination not finite).
    pub fn next(&mut self, x: &[f64], g: &[f64]) -> Vec<f64> {
        let f: Vec<f64> = g.iter().zip(x).map(|(g, x)| g - x).collect();
        let norm = f.iter().map(|v| v * v).sum::<f64>().sqrt();
        if self.g.is_empty() || norm < 0.5 * self.best {
            self.best = norm;
            self.stalled = 0;
        } else {
            self.stalled += 1;
        }
        // No progress: the memory starts again from here.
        if self.stalled >= 2 * self.stall {
            self.g.clear();
            self.f.clear();
            self.stalled = 0;
            self.best = norm;
        }
        self.g.push(g.to_vec());
        self.f.push(f.clone());
        if self.g.len() > self.depth + 1 {
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
        if out.iter().all(|v| v.is_finite()) { out } else { g.to_vec() }
    }
}
