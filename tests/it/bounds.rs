//! The app's recorded state stays bounded over runs far longer than its bounds
//! (issue 9, the soak): the timeline ring, the plots' history and the event log.
//!
//! The bounds (`src/app/timeline.rs`, `src/app/history.rs`):
//!
//! - [`Timeline`]: one snapshot every `stride`-th step, at most
//!   `clamp(160 MiB / size of the newest snapshot, 1000, 130 000)` of them (a
//!   snapshot is `q`, `q̇`, a flag per row and, with contacts by proximity, a
//!   24-byte key per row), so at most 160 MiB unless 1000 snapshots exceed it;
//!   `stride` is chosen so that that many span 63 s, and the ring keeps the
//!   last 63 s (at least [`SPAN_SECONDS`]).
//! - [`History`]: at most `cap` samples per series (then it keeps every other
//!   one and doubles the stride): every series of a model with at most 600,
//!   `cap = clamp(40 MB / (16 B × series), 4096, 20 000)`, so about 40 MB;
//!   above 600, the 4 global series, the coordinates and the plotted ones, with
//!   `cap = 20 000` (16 B a sample).
//! - [`EventLog`]: the last [`EVENT_LOG_MAX`] events.
//!
//! The timeline and history loops record the same world again and again,
//! advancing only `t` and the step count by hand: how many snapshots and samples
//! are kept depends on those and on the sizes of the snapshots, not on the
//! motion, so millions of steps take a second. The event log needs real events:
//! it runs the pile in the headless app until it has seen more than it keeps.

use std::mem::size_of;

use contact_core::scene::{Overrides, Scene};
use contact_core::{ConstraintKey, Snapshot, World};
use contact_lab::app::history::History;
use contact_lab::app::timeline::{EVENT_LOG_MAX, EventLog, SPAN_SECONDS, Timeline};

use crate::common::*;

/// The ring's budget (`BUDGET_BYTES` of `src/app/timeline.rs`).
const BUDGET_BYTES: usize = 160 << 20;
/// The most snapshots the ring keeps, whatever their size.
const MAX_SNAPSHOTS: usize = 130_000;

fn pile(balls: usize) -> Scene {
    let ov = Overrides { balls: Some(balls), ..Default::default() };
    let mut s = contact_core::scene::load(&scenes_dir().join("ball-pile.ron"), &ov).unwrap_or_else(|e| panic!("{e}"));
    // The event log and the snapshots' sizes as measured: the event-driven
    // scheme's (the pile opens under time-stepping since issue 38).
    s.world.settings.scheme = contact_core::Scheme::EventDriven;
    s
}

/// Bytes a snapshot holds: its vectors' capacities and its slot in the ring.
fn held(s: &Snapshot) -> usize {
    size_of::<Snapshot>()
        + size_of::<f64>() * (s.state.q.capacity() + s.state.qd.capacity())
        + s.active_set.handled.capacity()
        + s.contact_keys.as_ref().map_or(0, |k| k.capacity() * size_of::<ConstraintKey>())
}

/// Records `seconds` of steps of `h` into `tl`, checking the count at every
/// step and the bytes every 10 simulated seconds.
fn record_for(tl: &mut Timeline, world: &mut World, h: f64, seconds: f64) {
    let n = (seconds / h).round() as u64;
    let every = (10.0 / h).round() as u64;
    for i in 1..=n {
        world.state.t += h;
        world.steps += 1;
        tl.record(world, h);
        assert!(tl.snaps.len() <= MAX_SNAPSHOTS, "{} snapshots", tl.snaps.len());
        if i % every == 0 {
            let bytes: usize = tl.snaps.iter().map(held).sum();
            assert!(bytes <= BUDGET_BYTES, "the ring holds {:.1} MiB at t = {:.1} s", mib(bytes), world.state.t);
        }
    }
}

/// The ring covers at least 60 s, and not much more.
fn assert_span(tl: &Timeline, h: f64, what: &str) {
    let (t0, t1) = tl.range();
    let slack = tl.stride as f64 * h;
    assert!(t1 - t0 >= SPAN_SECONDS, "{what}: the ring covers {:.3} s", t1 - t0);
    assert!(t1 - t0 <= SPAN_SECONDS * 1.05 + slack + 1e-9, "{what}: the ring covers {:.3} s", t1 - t0);
}

fn mib(bytes: usize) -> f64 {
    bytes as f64 / (1 << 20) as f64
}

/// Two million steps at the scene's step, and 150 s at the smallest step the app
/// offers (1e-5 s: 15 million steps, of which the ring keeps one in 49 for the
/// billiard, one in 63 for the pile), where the count bound binds.
#[test]
fn timeline_is_bounded_in_count_bytes_and_span() {
    for (what, scene) in [("billiard corner", scene("billiard-corner.ron")), ("pile of 30", pile(30))] {
        for (h, seconds) in [(scene.dt, 2000.0), (1e-5, 150.0)] {
            let mut world = scene.world.clone();
            let mut tl = Timeline::default();
            tl.reset(&world, 0);
            record_for(&mut tl, &mut world, h, seconds);
            assert_span(&tl, h, &format!("{what} at h = {h}"));
            assert_eq!(tl.stride > 1, h < scene.dt, "{what} at h = {h}: stride {}", tl.stride);
        }
    }
}

/// With contacts by proximity, the snapshots grow with the rows: the ring
/// keeps fewer of them and stays within its budget.
#[test]
fn timeline_follows_the_rows_of_a_large_pile() {
    let scene = pile(300);
    let mut world = scene.world.clone();
    let mut tl = Timeline::default();
    tl.reset(&world, 0);
    record_for(&mut tl, &mut world, scene.dt, 70.0);
    let (before, stride) = (tl.snaps.len(), tl.stride);
    // About as many rows as the settled pile has, and more.
    let generator = world.model.contacts.clone().expect("300 balls: contacts by proximity");
    let keys = generator.candidates(&world.model.bodies, &world.state, 0.1, &[]);
    assert!(keys.len() > 3 * world.model.constraints.len(), "{} rows", keys.len());
    let remap = world.model.set_contact_rows(keys).expect("new rows");
    world.active_set.handled = remap.apply(&world.active_set.handled, false);
    record_for(&mut tl, &mut world, scene.dt, 140.0);
    assert!(tl.snaps.len() < before && tl.stride > stride, "fewer, sparser snapshots");
    assert_span(&tl, scene.dt, "the pile of 300");
}

/// Two million steps: every series keeps at most `cap` samples, over the whole run.
#[test]
fn history_is_bounded_per_series() {
    // 306 series (all of them), 69 (globals and coordinates: 525 rows is too
    // many); one more each since the global `repose_angle` (issue 46).
    for (what, scene, series) in [("billiard corner", scene("billiard-corner.ron"), 306), ("pile of 30", pile(30), 69)]
    {
        let mut world = scene.world.clone();
        let mut history = History::default();
        history.reset(&world, 0, false);
        let report = world.step(scene.dt);
        for _ in 0..2_000_000 {
            world.state.t += scene.dt;
            world.steps += 1;
            history.record(&world, &report);
            assert!(history.t.len() <= history.cap, "{what}: {} samples", history.t.len());
        }
        assert_eq!(history.series.len(), series, "{what}: series");
        assert!(history.series.iter().all(|s| s.points.len() <= history.cap), "{what}: a series past the cap");
        assert!(history.stride >= 64, "{what}: decimated (stride {})", history.stride);
        let (first, last) = (history.t[0], history.t[history.t.len() - 1]);
        assert_eq!(first, 0.0, "{what}: the history starts at t = 0");
        assert!(world.state.t - last <= history.stride as f64 * scene.dt, "{what}: and reaches the end ({last})");
    }
}

/// The pile's landing under Right: over 500 events in half a second; the log
/// keeps the last 500. (Right, the pile's algorithm when this was written:
/// its landing has more first contacts than Exact's.)
#[test]
fn event_log_keeps_the_last_500() {
    let mut scene = pile(30);
    scene.world.settings.algorithm = contact_core::Algorithm::Right;
    let mut app = headless(&scene);
    let mut steps_taken = 0;
    while app.world().resource::<EventLog>().total <= EVENT_LOG_MAX + 100 {
        steps_taken += 1;
        run_until(&mut app, steps_taken, |_, _| {});
        assert!(app.world().resource::<EventLog>().events.len() <= EVENT_LOG_MAX);
        assert!(steps_taken < 2_000, "the pile should make over 600 events in 2 s");
    }
    let log = app.world().resource::<EventLog>();
    assert_eq!(log.events.len(), EVENT_LOG_MAX);
}
