//! Scale-free thresholds (issue 15, item 5): a scene scaled in length by `L`
//! and in time by `T` (positions, radii and offsets × L; `dt`, `τ` × T;
//! velocities × L/T; gravity × L/T²) that states `units: (length: L, time: T)`
//! runs the same trajectory in scaled units, events included, for a scene of
//! millimetre balls (`L = 1e-3`) and one of 100 m balls (`L = 1e2`).

use contact_core::World;
use contact_core::scene::{self, Overrides};

/// Three balls falling into a V with a rope, bouncing off its sides and each
/// other (events with restitution, touching contacts, speculative landings),
/// at scale `l` (m) and `t` (s).
fn scene(l: f64, t: f64, algorithm: &str, impulses: &str, units: bool) -> (World, f64) {
    let v = l / t;
    let g = l / (t * t);
    let text = format!(
        r#"Scene(name: "scaled", gravity: (0, {gy:?}),
            bodies: [
                Ball(name: "a", position: ({ax:?}, {ay:?}), velocity: ({avx:?}, 0), mass: 1, radius: {r:?}),
                Ball(name: "b", position: ({bx:?}, {by:?}), mass: 2, radius: {r:?}),
                Ball(name: "c", position: ({cx:?}, {cy:?}), velocity: (0, {cvy:?}), mass: 0.5, radius: {r2:?}),
                Anchor(name: "pin", position: ({px:?}, {py:?})),
            ],
            constraints: [Rope(name: "rope", a: "c", b: "pin", length: {rope:?})],
            walls: [
                (name: "left", normal: (0.6, 0.8), offset: 0, restitution: 0.5),
                (name: "right", normal: (-0.6, 0.8), offset: {off:?}, restitution: 0.5),
            ],
            ball_pairs: true,
            solver: (algorithm: {algorithm}, dt: {dt:?}, tau: {tau:?}, restitution: 0.7, impulses: {impulses},
                     {units}))"#,
        gy = -9.81 * g,
        ax = 0.8 * l,
        ay = 1.2 * l,
        avx = 0.5 * v,
        bx = 1.25 * l,
        by = 1.6 * l,
        cx = 1.0 * l,
        cy = 2.2 * l,
        cvy = -v,
        r = 0.1 * l,
        r2 = 0.07 * l,
        px = 1.05 * l,
        py = 2.6 * l,
        rope = 0.5 * l,
        off = -1.2 * l,
        dt = 2e-3 * t,
        tau = 1e-2 * t,
        units = if units { format!("units: (length: {l:?}, time: {t:?})") } else { String::new() },
    );
    let loaded = scene::parse(&text, "scaled", &Overrides::default()).expect("a valid scene");
    (loaded.world, loaded.dt)
}

/// The state in units of the scene, and the events, after `steps` steps.
fn run(l: f64, t: f64, algorithm: &str, impulses: &str, units: bool) -> (Vec<f64>, Vec<f64>, usize) {
    let steps = 1000;
    let (mut w, h) = scene(l, t, algorithm, impulses, units);
    let mut events = 0;
    for _ in 0..steps {
        events += w.step(h).events.len();
    }
    let q = w.state.q.iter().map(|x| x / l).collect();
    let qd = w.state.qd.iter().map(|x| x / (l / t)).collect();
    (q, qd, events)
}

#[test]
fn a_scaled_scene_runs_the_same_trajectory_in_scaled_units() {
    for (algorithm, impulses) in [("Right", "Simultaneous"), ("Exact", "Simultaneous"), ("Exact", "Sequential")] {
        let (q, qd, events) = run(1.0, 1.0, algorithm, impulses, true);
        assert!(events >= 5, "{algorithm}/{impulses}: a test of events needs events ({events})");
        for l in [1e-3_f64, 1e2] {
            let t = l.sqrt();
            let (qs, qds, es) = run(l, t, algorithm, impulses, true);
            assert_eq!(es, events, "{algorithm}/{impulses}, L = {l}: events");
            for (i, (a, b)) in q.iter().zip(&qs).chain(qd.iter().zip(&qds)).enumerate() {
                assert!((a - b).abs() <= 1e-9, "{algorithm}/{impulses}, L = {l}: coordinate {i}: {a} vs {b}");
            }
        }
    }
}

/// Without `units` the thresholds stay those of a metre-sized scene (a
/// separating speed of 1 mm/s, an active band of 1 µm: the millimetre scene's
/// whole radius is 100 µm): the millimetre scene then runs another trajectory,
/// which is what the units are for, and what makes the test above able to fail.
#[test]
fn without_units_a_millimetre_scene_is_judged_by_the_metre() {
    let (l, t) = (1e-3, 1e-3_f64.sqrt());
    let (w, _) = scene(l, t, "Exact", "Simultaneous", true);
    assert_eq!(w.settings.tol.active, 1e-6 * l, "1e-6 length units");
    assert_eq!(w.settings.tol.separating, 1e-3 * (l / t), "1e-3 speed units");
    assert_eq!(scene(l, t, "Exact", "Simultaneous", false).0.settings.tol.active, 1e-6, "SI without units");
    let (q, _, _) = run(1.0, 1.0, "Exact", "Simultaneous", true);
    let (qs, _, _) = run(l, t, "Exact", "Simultaneous", false);
    let off = q.iter().zip(&qs).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
    assert!(off > 1e-6, "the SI yardstick on a millimetre scene changes its run ({off:e})");
}
