//! The factorization of `A_CC = J_C M⁻¹ J_Cᵀ (+ εI)` on a landing pile's
//! clamped set: contact-core's envelope Cholesky in reverse Cuthill–McKee
//! order (`schur.rs`, what the LCP pivots on) against faer's sparse Cholesky
//! with its AMD ordering (symbolic analysis once, numeric factorization
//! reused across steps as a solver would), on the same matrix.
//!
//! `cargo run --release --bin factor -- --balls 300 --at 0.6,1.0,1.5`
//!
//! The pile is dropped from the scene's own start and stepped with Exact
//! (untimed) to each time; there the next step's final handled set `C` is
//! taken, and `A_CC` assembled at the step's start.

use std::hint::black_box;
use std::path::Path;
use std::time::Instant;

use clap::Parser;
use contact_core::scene::{self, Overrides};
use contact_core::schur::{Envelope, PIVOT_TOL};
use contact_core::{Algorithm, ContactProblem};
use faer::Side;
use faer::linalg::solvers::Solve;
use faer::sparse::linalg::solvers::{Llt, SymbolicLlt};
use faer::sparse::{SparseColMat, Triplet};

#[derive(Parser, Debug)]
struct Args {
    /// Balls in the pile.
    #[arg(long, default_value_t = 300)]
    balls: usize,
    /// Simulated times (s) at which to take the matrix, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "0.6,1.0")]
    at: Vec<f64>,
    /// Repetitions of each timed operation (the median is printed).
    #[arg(long, default_value_t = 20)]
    reps: usize,
}

fn median_us(mut f: impl FnMut(), reps: usize) -> f64 {
    let mut t: Vec<f64> = (0..reps)
        .map(|_| {
            let s = Instant::now();
            f();
            s.elapsed().as_secs_f64() * 1e6
        })
        .collect();
    t.sort_by(f64::total_cmp);
    t[t.len() / 2]
}

fn main() {
    let args = Args::parse();
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/scenes/ball-pile.ron");
    #[allow(clippy::needless_update)]
    let s = scene::load(&path, &Overrides { balls: Some(args.balls), ..Default::default() }).expect("scene");
    let h = s.dt;
    let mut w = s.world;
    w.settings.algorithm = Algorithm::Exact;
    println!(
        "| N | t (s) | rows C | nnz(A) lower | envelope stored | envelope factor+solve (µs) | faer AMD symbolic (µs) | faer L nnz | faer numeric (µs) | faer solve (µs) | faer numeric+solve / envelope |"
    );
    println!("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    let mut times = args.at.clone();
    times.sort_by(f64::total_cmp);
    for at in times {
        while w.state.t + 0.5 * h < at {
            w.step(h);
        }
        let before = w.state.clone();
        let r = w.clone().step(h);
        let set: Vec<usize> = (0..r.handled.len()).filter(|&k| r.handled[k]).collect();
        let p = ContactProblem::new(&w.model, &before, w.settings.tau);
        let g = p.graph(&set);
        let m = g.len();
        let eps = 1e-10 * g.diag.iter().fold(0.0_f64, |x, y| x.max(*y));
        let b: Vec<f64> = (0..m).map(|i| 1.0 + (i % 7) as f64).collect();
        // The envelope, in reverse Cuthill–McKee order, as the LCP builds it.
        let all: Vec<usize> = (0..m).collect();
        let order = g.ordering(&all);
        let build = || {
            let mut e = Envelope::new(m, eps);
            for &i in &order {
                e.push(&g, i, PIVOT_TOL);
            }
            e
        };
        let env = build();
        let env_us = median_us(|| {
            let e = build();
            black_box(e.solve(&b));
        }, args.reps);
        // faer: the same matrix, lower triangle, ε on the diagonal.
        let mut trip = Vec::new();
        for i in 0..m {
            trip.push(Triplet::new(i, i, g.diag[i] + eps));
            for &(j, v) in &g.adj[i] {
                if j < i {
                    trip.push(Triplet::new(i, j, v));
                }
            }
        }
        let a = SparseColMat::<usize, f64>::try_new_from_triplets(m, m, &trip).expect("matrix");
        let sym_us = median_us(|| {
            black_box(SymbolicLlt::try_new(a.symbolic(), Side::Lower).expect("symbolic"));
        }, args.reps);
        let sym = SymbolicLlt::try_new(a.symbolic(), Side::Lower).expect("symbolic");
        let num_us = median_us(|| {
            black_box(Llt::try_new_with_symbolic(sym.clone(), a.as_ref(), Side::Lower).expect("numeric"));
        }, args.reps);
        let llt = Llt::try_new_with_symbolic(sym.clone(), a.as_ref(), Side::Lower).expect("numeric");
        let rhs = faer::Mat::<f64>::from_fn(m, 1, |i, _| b[i]);
        let solve_us = median_us(|| {
            black_box(llt.solve(&rhs));
        }, args.reps);
        // Residuals of (A + εI) x = b for both (the solutions may differ along
        // the near null space of a hyperstatic pile's A; the residuals may not).
        let solved = llt.solve(&rhs);
        let x: Vec<f64> = (0..m).map(|i| solved[(i, 0)]).collect();
        let xe_pos = env.solve(&env.order.iter().map(|&i| b[i]).collect::<Vec<_>>());
        let mut xe = vec![0.0; m];
        for (p, &i) in env.order.iter().enumerate() {
            xe[i] = xe_pos[p];
        }
        let residual = |x: &[f64]| {
            let ax = g.mul(x);
            (0..m).map(|i| (ax[i] + eps * x[i] - b[i]).abs()).fold(0.0, f64::max)
        };
        let (rf, re) = (residual(&x), residual(&xe));
        println!(
            "| {} | {at:.2} | {m} | {} | {} | {env_us:.1} | {sym_us:.1} | {} | {num_us:.1} | {solve_us:.1} | {:.2} |",
            args.balls,
            trip.len(),
            env.stored(),
            faer::sparse::linalg::cholesky::factorize_symbolic_cholesky(
                a.symbolic(),
                Side::Lower,
                Default::default(),
                Default::default()
            )
            .expect("symbolic")
            .len_val(),
            (num_us + solve_us) / env_us,
        );
        eprintln!(
            "t = {at}: {} of {m} rows in the envelope; max residual |(A + εI) x − b|: faer {rf:.1e}, envelope {re:.1e} (|b| ≤ 7); symbolic + numeric + solve / envelope = {:.2}",
            env.len(),
            (sym_us + num_us + solve_us) / env_us
        );
    }
}
