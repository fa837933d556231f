//! The paper's examples (sections 3 and 4) and GUIDE §2's sticky corner, run
//! through `World::step` with each algorithm.

use approx::assert_relative_eq;
use contact_core::testing::{sticky_corner, wedge};
use contact_core::{Algorithm, Model, Settings, State, World};

fn world(model_state: (Model, State), algorithm: Algorithm) -> World {
    World::new(model_state.0, model_state.1, Settings { algorithm, ..Settings::default() })
}

/// Runs `steps` steps of `h` and returns the world and the lowest y and x − y seen.
fn run(mut w: World, steps: usize, h: f64) -> (World, f64, f64) {
    let (mut min_y, mut min_g1) = (f64::INFINITY, f64::INFINITY);
    for _ in 0..steps {
        w.step(h);
        min_y = min_y.min(w.state.q[1]);
        min_g1 = min_g1.min(w.state.q[0] - w.state.q[1]);
    }
    (w, min_y, min_g1)
}

/// Section 3: Platt handles both active constraints and solves eq. (11):
/// q̈ = (0, 0), λ = (−2, −1); both are released after the step.
#[test]
fn platt_first_step_is_eq_11_and_releases_both() {
    for m in [1.0, 2.0, 3.0] {
        let mut w = world(wedge(m, (2.0, -1.0)), Algorithm::Platt);
        let r = w.step(1e-3);
        assert_relative_eq!(r.qdd[0], 0.0, epsilon = 1e-12);
        assert_relative_eq!(r.qdd[1], 0.0, epsilon = 1e-12);
        assert_relative_eq!(r.lambda[0], -2.0, epsilon = 1e-12);
        assert_relative_eq!(r.lambda[1], -1.0, epsilon = 1e-12);
        assert_eq!(w.active_set.handled, vec![false, false], "both released for the next step");
    }
}

/// Section 4.1, eq. (12)–(13): Platt improved handles only g2: q̈ = (2/m, 0), λ2 = 1.
#[test]
fn platt_improved_first_step_is_eq_13() {
    for m in [1.0, 2.0, 3.0] {
        let mut w = world(wedge(m, (2.0, -1.0)), Algorithm::PlattImproved);
        let r = w.step(1e-3);
        assert_relative_eq!(r.qdd[0], 2.0 / m, epsilon = 1e-12);
        assert_relative_eq!(r.qdd[1], 0.0, epsilon = 1e-12);
        assert_relative_eq!(r.lambda[1], 1.0, epsilon = 1e-12);
        assert_eq!(r.handled, vec![false, true]);
    }
}

/// Section 4.1, eq. (14)–(15): with f = (−1, −2) Platt improved handles g2 only,
/// q̈ = (−1/m, 0), λ2 = 2, and the particle crosses x − y = 0.
#[test]
fn platt_improved_crosses_g1_on_the_left_wedge() {
    for m in [1.0, 2.0, 3.0] {
        let mut w = world(wedge(m, (-1.0, -2.0)), Algorithm::PlattImproved);
        let r = w.step(1e-3);
        assert_relative_eq!(r.qdd[0], -1.0 / m, epsilon = 1e-12);
        assert_relative_eq!(r.qdd[1], 0.0, epsilon = 1e-12);
        assert_relative_eq!(r.lambda[1], 2.0, epsilon = 1e-12);
        assert!(r.g[0] < 0.0, "x − y = {} after the first step", r.g[0]);
    }
}

/// Section 5 / figures 2–3: from the apex for 0.02 s at h = 1e-3, Platt's particle
/// goes below y = 0, while Right and Exact keep |y| < 1e-8 and slide with ẍ = 2/m.
#[test]
fn wedge_platt_sinks_right_and_exact_slide() {
    for m in [2.0, 3.0] {
        let (w, min_y, _) = run(world(wedge(m, (2.0, -1.0)), Algorithm::Platt), 20, 1e-3);
        assert!(w.state.q[1] < 0.0 && min_y < -1e-7, "Platt m = {m}: final y = {}, min y = {min_y}", w.state.q[1]);
        for alg in [Algorithm::Right, Algorithm::Exact] {
            let mut w = world(wedge(m, (2.0, -1.0)), alg);
            for _ in 0..20 {
                let r = w.step(1e-3);
                assert!(w.state.q[1].abs() < 1e-8, "{alg:?} m = {m}: y = {}", w.state.q[1]);
                assert_relative_eq!(r.qdd[0], 2.0 / m, epsilon = 1e-9);
                assert!(r.qdd[1].abs() < 1e-6);
            }
            assert!(w.state.q[0] > 0.0);
        }
    }
}

/// Section 4.2: Right and Exact keep the particle at the apex when f = (−1, −2)
/// (Right needs three solves: {}, {g2}, {g2, g1}).
#[test]
fn wedge_left_right_and_exact_hold_the_apex() {
    for alg in [Algorithm::Right, Algorithm::Exact] {
        let mut w = world(wedge(2.0, (-1.0, -2.0)), alg);
        for i in 0..20 {
            let r = w.step(1e-3);
            assert!(w.state.q.iter().all(|v| v.abs() < 1e-10), "{alg:?}: q = {:?}", w.state.q);
            assert!(r.lambda[0] > 0.0 && r.lambda[1] > 0.0);
            if i == 0 && alg == Algorithm::Right {
                assert_eq!(r.solves, 3);
                assert_relative_eq!(r.lambda[0], 1.0, epsilon = 1e-12);
                assert_relative_eq!(r.lambda[1], 3.0, epsilon = 1e-12);
            }
        }
    }
    let (_, _, min_g1) = run(world(wedge(2.0, (-1.0, -2.0)), Algorithm::PlattImproved), 20, 1e-3);
    assert!(min_g1 < -1e-7, "Platt improved crosses x − y = 0: min g1 = {min_g1}");
}

/// GUIDE §2: Right adds floor and wall in one pass, gets q̈ = 0 with λ_wall < 0
/// and holds the block forever; Exact releases the wall: q̈ = (0.3·9.81, 0),
/// λ_floor = 9.81, λ_wall = 0.
#[test]
fn sticky_corner_right_holds_exact_releases() {
    let mut right = world(sticky_corner(), Algorithm::Right);
    for _ in 0..500 {
        let r = right.step(1e-3);
        assert!(r.qdd.iter().all(|a| a.abs() < 1e-9));
        assert!(r.lambda[1] < -1.0, "λ_wall = {}", r.lambda[1]);
        assert_eq!(r.min_lambda, Some(r.lambda[1]));
    }
    assert!(right.state.q.iter().all(|v| v.abs() < 1e-12), "held at the corner");

    let mut exact = world(sticky_corner(), Algorithm::Exact);
    let r = exact.step(1e-3);
    assert_relative_eq!(r.qdd[0], 0.3 * 9.81, epsilon = 1e-9);
    assert_relative_eq!(r.qdd[1], 0.0, epsilon = 1e-9);
    assert_relative_eq!(r.lambda[0], 9.81, epsilon = 1e-9);
    assert_eq!(r.lambda[1], 0.0);
    assert!(r.complementarity_error < 1e-9);
    for _ in 0..499 {
        exact.step(1e-3);
    }
    assert!(exact.state.q[0] > 0.3, "slides away: x = {}", exact.state.q[0]);
}

/// Switching algorithm between two steps keeps the state and F⁺: Platt continues
/// from the set Right left.
#[test]
fn switching_algorithms_keeps_the_handled_set() {
    let mut w = world(wedge(2.0, (2.0, -1.0)), Algorithm::Right);
    w.step(1e-3);
    assert_eq!(w.active_set.handled, vec![false, true]);
    w.settings.algorithm = Algorithm::Platt;
    let r = w.step(1e-3);
    assert_eq!(r.handled, vec![false, true], "Platt starts from Right's F⁺, not from every active constraint");
    assert!(w.state.q[1].abs() < 1e-8);
}

/// The trace says what happened, in words.
#[test]
fn trace_reads_like_the_paper() {
    let mut w = world(wedge(2.0, (-1.0, -2.0)), Algorithm::Right);
    let r = w.step(1e-3);
    let lines = r.traces[0].describe(&["g1".into(), "g2".into()]);
    let text = lines.join("\n");
    assert!(text.contains("iteration 1: solve eq. (6) with {}"), "{text}");
    assert!(text.contains("g2 shows a violation tendency (J·q̈ − d = -1.0000) → handled"), "{text}");
    assert!(text.contains("iteration 3: solve eq. (6) with {g1, g2} → λ[g1] = 1.0000, λ[g2] = 3.0000"), "{text}");
}
