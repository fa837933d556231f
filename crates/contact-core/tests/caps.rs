//! Every step finishes within bounded work: the caps on events per step, on the
//! solves of each algorithm and on the pivots of the exact solver hold, and a
//! step that reaches one still ends in a finite state.
//!
//! The bounds, per sub-step (a step is split by at most `max_per_step` events):
//! Platt and Platt improved solve eq. (6) once (twice at the first step); Right adds one constraint per
//! solve and never removes one, so it solves at most `m + 1` times (`m` rows);
//! Exact runs at most 40 block rounds per island, then shrinks its clamped set
//! (each round drops one at least) and pivots at most `20 m + 20` times
//! (`Lcp::capped` says when it stopped there).

use contact_core::constraint::SparseRow;
use contact_core::lcp::solve_lcp;
use contact_core::scene::{self, Overrides};
use contact_core::schur::SchurGraph;
use contact_core::{Algorithm, World};

fn scene_world(name: &str, balls: Option<usize>) -> (World, f64) {
    let path = format!("{}/../../assets/scenes/{name}", env!("CARGO_MANIFEST_DIR"));
    let mut s = scene::load(std::path::Path::new(&path), &Overrides { balls, ..Overrides::default() }).expect("loads");
    // Event caps are the event-driven scheme's (the pile opens under time-stepping).
    s.world.settings.scheme = contact_core::Scheme::EventDriven;
    (s.world, s.dt)
}

fn finite(w: &World) -> bool {
    w.state.q.iter().chain(&w.state.qd).all(|v| v.is_finite())
}

/// A 30-ball pile lands under Right with up to 5 impacts in a step: with the
/// cap at 1, 3 and the default 64, no step has more events than the cap, and
/// each ends finite. (Right, not the scene's Exact, whose landing has at most
/// 3 in a step: the cap of 4 would not be reached.)
#[test]
fn events_per_step_never_exceed_the_cap() {
    for cap in [1, 3, 64] {
        let (mut w, dt) = scene_world("ball-pile.ron", Some(30));
        w.settings.algorithm = Algorithm::Right;
        w.settings.events.max_per_step = cap;
        let mut most = 0;
        for _ in 0..400 {
            let r = w.step(dt);
            assert!(r.events.len() <= cap, "cap {cap}: {} events in the step to t = {}", r.events.len(), r.t);
            assert!(finite(&w) && r.status == contact_core::StepStatus::Ok, "cap {cap} at t = {}", r.t);
            most = most.max(r.events.len());
        }
        assert!(most >= cap.min(4), "cap {cap}: the landing should reach it (most {most})");
    }
}

/// A 30-ball pile falling and settling, under every algorithm: the solves of
/// each step stay within the bound of its algorithm.
#[test]
fn solves_per_step_stay_within_each_algorithms_bound() {
    for alg in Algorithm::ALL {
        let (mut w, dt) = scene_world("ball-pile.ron", Some(30));
        w.settings.algorithm = alg;
        for _ in 0..800 {
            let r = w.step(dt);
            let m = r.g.len();
            let per_sub_step = match alg {
                // (Platt improved solves with E alone once more at its first step.)
                Algorithm::Platt | Algorithm::PlattImproved => 2,
                Algorithm::Right => m + 1,
                Algorithm::Exact => 40 * m + m + 20 * m + 20 + 1,
            };
            let bound = (r.events.len() + 1) * per_sub_step;
            assert!(r.solves <= bound, "{alg:?} at t = {}: {} solves > {bound}", r.t, r.solves);
            assert!(finite(&w), "{alg:?} at t = {}", r.t);
        }
    }
}

/// Forty copies of one contact row (a rank-one `A`), all pushed: the pivoting
/// cannot make them independent, yet it ends within its cap with finite `λ`
/// that hold the row: `a = A λ − b ≥ −tol` on every copy.
#[test]
fn the_exact_solver_ends_on_a_fully_dependent_problem() {
    let row = SparseRow::from_entries(&[(0, 1.0), (1, -1.0)]);
    let rows: Vec<&SparseRow> = (0..40).map(|_| &row).collect();
    let g = SchurGraph::new(&rows, &[1.0, 1.0]);
    let b: Vec<f64> = (0..40).map(|i| 1.0 + 0.01 * i as f64).collect();
    for warm in [vec![], vec![true; 40], (0..40).map(|i| i % 2 == 0).collect()] {
        let lcp = solve_lcp(&g, &b, 0, &warm, 1e-9);
        assert!(lcp.lambda.iter().all(|l| l.is_finite() && *l >= 0.0), "{:?}", lcp.lambda);
        assert!(lcp.rounds.len() <= 40 + 40 + 20 * 40 + 20, "{} rounds", lcp.rounds.len());
        let pushed: f64 = lcp.lambda.iter().sum::<f64>() * 2.0;
        assert!(pushed >= b[39] - 1e-6, "the copies hold the largest push: A λ = {pushed}");
    }
}
