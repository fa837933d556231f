//! Discs and balls against boxes and polygons, and shapes that never move
//! (`fixed: true`), checked against closed forms: a disc sliding down a
//! fixed ramp, a disc bouncing off a corner along the line of centres, a
//! disc rolling over an edge from the edge's row to the corner's.

use approx::assert_relative_eq;
use contact_core::scene::{Scene, parse};
use contact_core::{Algorithm, World};

const G: f64 = 9.81;

fn scene(bodies: &str, extra: &str) -> Scene {
    let text = format!(
        "Scene(name: \"t\", gravity: (0, -9.81), bodies: [{bodies}], ball_pairs: true, \
         solver: (algorithm: Exact, dt: 1e-3, tau: 0.01, restitution: 0.0), {extra})"
    );
    parse(&text, "shapes.ron", &Default::default()).unwrap_or_else(|e| panic!("{e}"))
}

fn row(w: &World, name: &str) -> Option<usize> {
    w.model.constraints.iter().position(|c| c.name == name)
}

/// A frictionless disc on a fixed ramp at α = 30°: its centre slides down
/// the slope at `g sin α` from rest, it never turns (the normal goes through
/// its centre), and the ramp's edge carries `m g cos α`. Every algorithm
/// agrees: one row, always compressed.
#[test]
fn a_disc_slides_down_a_fixed_ramp_at_g_sin_alpha_without_turning() {
    let alpha = 30f64.to_radians();
    let (m, r) = (2.0, 0.1);
    // The ramp's slope runs from (0, 1) down to (1/tan α, 0); a point on it
    // and its outward normal (sin α, cos α).
    let run = 1.0 / alpha.tan();
    let n = (alpha.sin(), alpha.cos());
    let on = (0.25 * run, 0.75);
    let c = (on.0 + r * n.0, on.1 + r * n.1);
    for algorithm in [Algorithm::Exact, Algorithm::Right, Algorithm::PlattImproved, Algorithm::Platt] {
        let mut s = scene(
            &format!(
                "Polygon(name: \"ramp\", position: (0, 0), vertices: [(0, 0), ({run}, 0), (0, 1)], fixed: true), \
                 Disc(name: \"disc\", position: ({}, {}), radius: {r}, mass: {m})",
                c.0, c.1
            ),
            "",
        );
        s.world.settings.algorithm = algorithm;
        let mut last = None;
        while s.world.state.t < 0.3 - 1e-9 {
            last = Some(s.world.step(s.dt));
        }
        let (w, report) = (&s.world, last.expect("stepped"));
        // Semi-implicit Euler under a constant acceleration a: v = a t
        // exactly, and the path ½ a t (t + h).
        let (t, a) = (w.state.t, G * alpha.sin());
        let down = nalgebra::Vector2::new(alpha.cos(), -alpha.sin());
        let (v, moved) = (
            nalgebra::Vector2::new(w.state.qd[0], w.state.qd[1]),
            nalgebra::Vector2::new(w.state.q[0] - c.0, w.state.q[1] - c.1),
        );
        assert_relative_eq!(v.dot(&down), a * t, max_relative = 1e-6);
        assert_relative_eq!(moved.dot(&down), 0.5 * a * t * (t + s.dt), max_relative = 1e-6);
        assert!(moved.perp(&down).abs() < 1e-9, "{algorithm:?}: off the slope by {}", moved.perp(&down));
        let theta = w.state.q[2];
        assert_eq!((theta, w.state.qd[2]), (0.0, 0.0), "{algorithm:?}: the disc turned");
        let k = row(w, "disc-ramp[1]").expect("the slope's row");
        assert!(report.handled[k]);
        assert_relative_eq!(report.lambda[k], m * G * alpha.cos(), max_relative = 1e-6);
    }
}

/// A disc dropped onto the top corner of a fixed post, off its axis: the
/// impact acts along the line from the corner to the centre, `n`, so with
/// `e = 1` the disc leaves at `v⁺ = v⁻ − 2 (v⁻·n) n` and the impulse is
/// `P = 2 m (−v⁻·n)`; nothing turns and no energy is made.
#[test]
fn a_disc_bounces_off_a_corner_along_the_line_from_the_corner_to_its_centre() {
    let (m, r): (f64, f64) = (0.5, 0.1);
    let mut s = scene(
        &format!(
            "Box(name: \"post\", position: (0, 0.1), size: (0.4, 0.2), fixed: true), \
             Disc(name: \"disc\", position: (0.26, 0.6), radius: {r}, mass: {m})"
        ),
        "",
    );
    s.world.settings.events.restitution = 1.0;
    let e0 = s.world.model.total_energy(&s.world.state);
    let (before, event) = loop {
        let before = s.world.state.qd[1];
        let report = s.world.step(s.dt);
        if let Some(e) = report.events.into_iter().next() {
            break (before, e);
        }
        assert!(s.world.state.t < 1.0, "the disc never lands");
    };
    let w = &s.world;
    let (k, p) = event.impulse[0];
    assert_eq!(w.model.constraints[k].name, "post[2]-disc");
    // At the impact the centre is r from the corner (0.2, 0.2), at x = 0.26
    // (it falls straight): n is known; the speed is the fall's at the event.
    let n = nalgebra::Vector2::new(0.06, (r * r - 0.06 * 0.06).sqrt()) / r;
    let v = -before + G * event.dt;
    assert_relative_eq!(event.approach_speed[0].1, v * n.y, max_relative = 1e-6);
    assert_relative_eq!(p, 2.0 * m * v * n.y, max_relative = 1e-6);
    assert_eq!(w.state.qd[2], 0.0, "the disc turned");
    // Just after: the velocity reflected about the tangent (gravity acts for
    // the rest of the step, under 1 ms).
    let vplus = nalgebra::Vector2::new(0.0, -v) + n * (2.0 * v * n.y);
    assert_relative_eq!(w.state.qd[0], vplus.x, max_relative = 1e-6);
    assert!((w.state.qd[1] - vplus.y).abs() < G * s.dt, "{} against {}", w.state.qd[1], vplus.y);
    assert!(event.energy_lost.abs() < 1e-9 * e0.abs(), "the impact made {} J", -event.energy_lost);
}

/// A disc sliding along the top of a fixed box goes over its edge: the row
/// on the top edge hands over to the row on the corner with no impact (the
/// two agree where they meet), and the disc goes round the corner sinking
/// no further than Baumgarte's balance on a curved row, then leaves it.
#[test]
fn a_disc_rolls_over_an_edge_from_the_edges_row_to_the_corners() {
    let r = 0.1;
    let mut s = scene(
        &format!(
            "Box(name: \"table\", position: (0, 0.5), size: (1.0, 1.0), fixed: true), \
             Disc(name: \"disc\", position: (0.3, {}), radius: {r}, mass: 1.0, velocity: (0.5, 0))",
            1.0 + r
        ),
        "",
    );
    let (mut on_edge, mut on_corner, mut worst) = (0, 0, 0.0_f64);
    let tau = s.world.settings.tau;
    while s.world.state.t < 1.0 {
        let report = s.world.step(s.dt);
        assert!(
            report.events.iter().all(|e| e.impulse.iter().all(|(_, p)| p.abs() < 1e-9)),
            "an impact at {}",
            report.t
        );
        let w = &s.world;
        if let Some(k) = row(w, "disc-table[2]") {
            on_edge += usize::from(report.handled[k]);
        }
        if let Some(k) = row(w, "table[2]-disc") {
            on_corner += usize::from(report.handled[k]);
        }
        // Around the corner the row is curved: Baumgarte balances the
        // straight steps' error at τ² |J̇q̇|, |J̇q̇| = v_t²/r (the random
        // scenes' allowance), and nothing sinks further.
        let d = nalgebra::Vector2::new(w.state.q[0], w.state.q[1]) - nalgebra::Vector2::new(0.5, 1.0);
        if w.state.q[0] > 0.5 {
            let (nu, v) = (d.normalize(), nalgebra::Vector2::new(w.state.qd[0], w.state.qd[1]));
            let vt2 = v.norm_squared() - v.dot(&nu).powi(2);
            worst = worst.max((r - d.norm()) / (tau * tau * vt2 / r));
        }
    }
    assert!(on_edge > 300 && on_corner > 0, "{on_edge} steps on the edge, {on_corner} on the corner");
    assert!(worst < 1.0, "the disc sank {worst} times the allowance into the corner");
    // It left the corner: falling past the table's side, clear of it.
    assert!(s.world.state.q[0] > 0.5 + r && s.world.state.q[1] < 1.0, "{:?}", &s.world.state.q[..2]);
}

/// A fixed shape takes no motion: velocity or force on it is refused,
/// naming the field `fixed` and its line.
#[test]
fn a_fixed_shape_with_a_velocity_is_refused_naming_the_field() {
    let text = "Scene(name: \"t\", gravity: (0, -9.81), bodies: [\n\
                Box(name: \"step\", position: (0, 0.1), size: (0.4, 0.2),\n velocity: (1, 0),\n fixed: true),\n]\n)";
    let err = parse(text, "fixed.ron", &Default::default()).expect_err("refused").to_string();
    assert!(err.contains("fixed.ron") && err.contains("bodies[0].fixed") && err.contains("never moves"), "{err}");
}

fn built_in(name: &str) -> Scene {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/scenes").join(name);
    contact_core::scene::load(&path, &Default::default()).unwrap_or_else(|e| panic!("{e}"))
}

/// `rocking-block.ron`: at each switch of corner the landing corner takes
/// the impact of a single row, `P = v / (1/m + b²/I)`, and the corner at rest
/// takes none and lifts (both held plastic would stop the block dead): the
/// spin drops to `(h² − 2b²)/(h² + 4b²)` of itself. The centroid never moves
/// sideways.
#[test]
fn the_rocking_block_loses_the_closed_form_share_of_its_spin_at_each_corner() {
    let mut s = built_in("rocking-block.ron");
    let (b, h, m) = (0.1, 0.5, 1.0);
    let inertia = m * (4.0 * b * b + 4.0 * h * h) / 12.0;
    let ratio = (h * h - 2.0 * b * b) / (h * h + 4.0 * b * b);
    let mut switches = 0;
    while s.world.state.t < 1.0 {
        let report = s.world.step(s.dt);
        for e in &report.events {
            // One row lands, the other touches at rest: only the landing one takes an impulse.
            let landing: Vec<_> = e.impulse.iter().filter(|(_, p)| *p > 1e-12).collect();
            assert_eq!(landing.len(), 1, "t = {}: impulses {:?}", e.t, e.impulse);
            let (k, p) = *landing[0];
            let v = e.approach_speed.iter().find(|(j, _)| *j == k).expect("the landing row approaches").1;
            // To 1e-4: Baumgarte lets the resting corner sink by µm, so the
            // block is 3e-5 rad from flat when the other lands.
            assert_relative_eq!(p, v / (1.0 / m + b * b / inertia), max_relative = 1e-4);
            // At the switch the block is flat and the landing corner comes down at 2 b ω⁻.
            let spin_before = v / (2.0 * b);
            let spin_after = spin_before - b * p / inertia;
            assert_relative_eq!(spin_after / spin_before, ratio, max_relative = 1e-4);
            switches += 1;
        }
        assert!(s.world.state.q[0].abs() < 1e-9, "the centroid moved sideways to {}", s.world.state.q[0]);
    }
    assert!(switches >= 8, "{switches} switches in 1 s");
    assert_relative_eq!(ratio, 0.7931, max_relative = 1e-4);
}

/// `box-over-step.ron`: the cube rests on both rows, its centroid past the
/// step's edge. Exact lets the cube's left corner go at once and tips it
/// about the edge with the closed-form `λ` and `θ̈`; Platt holds the corner
/// one step with `λ = −m g`; Right never lets it go, and the cube stays
/// glued to the step.
#[test]
fn the_box_over_a_step_tips_under_exact_and_is_glued_by_right() {
    let (m, side, overhang) = (1.0, 0.2, 0.05);
    let inertia = m * side * side / 6.0;
    let first = |algorithm: Algorithm| {
        let mut s = built_in("box-over-step.ron");
        s.world.settings.algorithm = algorithm;
        let r = s.world.step(s.dt);
        let lambda = |name: &str| row(&s.world, name).filter(|&k| r.handled[k]).map(|k| r.lambda[k]);
        (lambda("box[0]-step[2]"), lambda("step[2]-box[0]"), r.qdd[2], s)
    };
    let (corner, edge, alpha, _) = first(Algorithm::Exact);
    assert_eq!(corner, None, "Exact holds the corner");
    assert_relative_eq!(
        edge.expect("the edge holds"),
        m * G / (1.0 + m * overhang * overhang / inertia),
        max_relative = 1e-9
    );
    assert_relative_eq!(alpha, -G * overhang / (inertia / m + overhang * overhang), max_relative = 1e-9);
    assert_relative_eq!(alpha, -53.51, max_relative = 1e-4);
    let (corner, _, alpha, _) = first(Algorithm::Platt);
    assert_relative_eq!(corner.expect("Platt holds the corner"), -m * G, max_relative = 1e-9);
    assert!(alpha.abs() < 1e-9, "Platt's cube turns at {alpha} rad/s²");
    let (_, _, _, mut s) = first(Algorithm::Right);
    while s.world.state.t < 1.0 {
        s.world.step(s.dt);
    }
    assert!(s.world.state.q[2].abs() < 1e-12, "Right let it tip: θ = {}", s.world.state.q[2]);
    let mut exact = first(Algorithm::Exact).3;
    while exact.world.state.t < 1.0 {
        exact.world.step(exact.dt);
    }
    // Exact's cube has tipped off the step and lies on the floor on a side.
    assert_relative_eq!(exact.world.state.q[2], -std::f64::consts::FRAC_PI_2, epsilon = 1e-3);
    assert_relative_eq!(exact.world.state.q[1], side / 2.0, epsilon = 1e-3);
}

/// A box tossed spinning, with nothing to touch: its spin never changes and
/// its energy follows semi-implicit Euler's known error under constant
/// gravity, `E_n − E_0 = −½ m g² h t_n` (the path is `½ g t (t + h)`), to
/// round-off, for any spin.
#[test]
fn a_box_spinning_freely_keeps_its_energy_to_the_integrators_known_error() {
    for omega in [0.0, 3.0, -40.0] {
        let mut s = scene(
            &format!(
                "Box(name: \"box\", position: (0, 5), angle: 0.3, size: (0.5, 0.2), mass: 2.0, \
                 velocity: (1.5, 4.0), angular_velocity: {omega})"
            ),
            "",
        );
        let (m, h) = (2.0, s.dt);
        let e0 = s.world.model.total_energy(&s.world.state);
        let rotational = 0.5 * m * (0.25 + 0.04) / 12.0 * omega * omega;
        assert_relative_eq!(e0 - rotational, 0.5 * m * (1.5f64.powi(2) + 16.0) + m * G * 5.0, max_relative = 1e-14);
        while s.world.state.t < 1.0 - 1e-9 {
            s.world.step(h);
        }
        let t = s.world.state.t;
        assert_eq!(s.world.state.qd[2], omega);
        let drift = s.world.model.total_energy(&s.world.state) - e0;
        assert!((drift + 0.5 * m * G * G * h * t).abs() < 1e-9 * e0, "ω = {omega}: drift {drift} J");
    }
}

/// A box dropped flat lands on both bottom corners at once: one event with
/// both rows, equal impulses `P = m v / 2` (plastic), and no spin, under
/// every algorithm.
#[test]
fn a_box_that_lands_flat_lands_on_both_corners_at_once_without_spin() {
    for algorithm in [Algorithm::Exact, Algorithm::Right, Algorithm::PlattImproved, Algorithm::Platt] {
        let mut s = scene(
            "Box(name: \"box\", position: (0, 0.3), size: (0.4, 0.2), mass: 2.0)",
            "walls: [(name: \"floor\", normal: (0, 1), offset: 0)]",
        );
        s.world.settings.algorithm = algorithm;
        let event = loop {
            let r = s.world.step(s.dt);
            if let Some(e) = r.events.into_iter().next() {
                break e;
            }
            assert!(s.world.state.t < 1.0, "never lands");
        };
        let names: Vec<&str> = event.constraints.iter().map(|&k| s.world.model.constraints[k].name.as_str()).collect();
        assert_eq!(names, ["floor:box[0]", "floor:box[1]"], "{algorithm:?}");
        let v = event.approach_speed[0].1;
        assert_eq!(event.impulse.len(), 2, "{algorithm:?}");
        for &(_, p) in &event.impulse {
            assert_relative_eq!(p, 2.0 * v / 2.0, max_relative = 1e-9);
        }
        assert!(s.world.state.qd[2].abs() < 1e-12, "{algorithm:?}: spins at {}", s.world.state.qd[2]);
    }
}
