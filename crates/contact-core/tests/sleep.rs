//! Sleeping islands ([`contact_core::sleep`]): a settled pile falls asleep,
//! stays bit for bit where it is, costs no solve, and wakes whole, with the
//! state it fell asleep with, when something disturbs it.

use std::path::Path;

use contact_core::scene::{self, Overrides};
use contact_core::{Algorithm, State, World};

fn pile(n: usize) -> (World, f64) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/scenes/ball-pile.ron");
    let s = scene::load(&path, &Overrides { balls: Some(n), ..Default::default() }).unwrap_or_else(|e| panic!("{e}"));
    let mut w = s.world;
    w.settings.algorithm = Algorithm::Exact;
    // Sleep is the event-driven scheme's (the pile opens under time-stepping).
    w.settings.scheme = contact_core::Scheme::EventDriven;
    w.settings.sleep.enabled = true;
    (w, s.dt)
}

/// Steps until every ball sleeps; returns the state after the last awake step.
fn until_asleep(w: &mut World, h: f64, limit: f64) -> State {
    let mut before = w.state.clone();
    while w.sleep.sleeping_bodies() < w.model.bodies.len() {
        assert!(w.state.t < limit, "the pile is not asleep at t = {limit} s");
        before = w.state.clone();
        w.step(h);
    }
    before
}

#[test]
fn a_settled_pile_sleeps_without_moving_or_solving_and_wakes_with_its_state() {
    let (mut w, h) = pile(30);
    let last_awake = until_asleep(&mut w, h, 4.0);
    // Every ball is on one island (they rest on each other): all fell asleep
    // at the same step, at the state the last awake step left.
    assert_eq!(w.state.q, last_awake.q, "falling asleep moves nothing");
    let q = w.state.q.clone();
    let e = w.model.total_energy(&w.state);
    for _ in 0..500 {
        let r = w.step(h);
        assert_eq!(r.solves, 0, "a sleeping pile is not solved");
        assert!(r.events.is_empty());
    }
    assert_eq!(w.state.q, q, "asleep, bit for bit");
    assert_eq!(w.model.total_energy(&w.state), e);
    for k in 0..w.model.constraints.len() {
        assert!(w.row_asleep(k), "row {k} is asleep");
    }
    // Waking puts the velocities back: the state is the one it fell asleep with.
    let model = w.model.clone();
    w.sleep.wake_all(&mut w.state, &model);
    assert_eq!((&w.state.q, &w.state.qd), (&last_awake.q, &last_awake.qd));
}

/// A sleeping ball made larger (the panel's radius) wakes its island, which
/// pushes the overlap apart.
#[test]
fn a_sleeping_ball_grown_wakes_its_island() {
    let (mut w, h) = pile(30);
    until_asleep(&mut w, h, 4.0);
    let b = w.model.body_index("p1").expect("the pile's first ball");
    w.model.bodies[b].radius *= 1.05;
    let r = w.step(h);
    assert_eq!(w.sleep.sleeping_bodies(), 0, "the whole island woke");
    assert!(r.solves > 0, "and is solved again");
}

#[test]
fn a_push_on_one_ball_wakes_the_whole_island_and_it_falls_asleep_again() {
    let (mut w, h) = pile(30);
    until_asleep(&mut w, h, 4.0);
    // A cue shot: the app writes a velocity into one sleeping ball.
    let b = w.model.body_index("p1").expect("the pile's first ball");
    let o = w.model.bodies[b].offset;
    w.state.qd[o] = 0.5;
    let r = w.step(h);
    assert_eq!(w.sleep.sleeping_bodies(), 0, "the whole island woke");
    assert!(r.solves > 0, "and is solved again");
    assert!(w.state.qd[o] != 0.0);
    // It settles and sleeps again.
    let limit = w.state.t + 6.0;
    until_asleep(&mut w, h, limit);
}

#[test]
fn sleeping_changes_nothing_before_the_pile_is_still_and_a_restore_replays_it() {
    let (mut sleeping, h) = pile(30);
    let mut awake = sleeping.clone();
    awake.settings.sleep.enabled = false;
    // Until the first island sleeps the two runs are the same run.
    while sleeping.sleep.sleeping_bodies() == 0 && sleeping.state.t < 4.0 {
        assert_eq!(sleeping.state_hash(), awake.state_hash(), "t = {}", sleeping.state.t);
        sleeping.step(h);
        awake.step(h);
    }
    assert!(sleeping.sleep.sleeping_bodies() > 0);
    // A snapshot taken asleep replays bit for bit, wake included.
    let snap = sleeping.snapshot();
    let mut replay = sleeping.clone();
    let b = sleeping.model.body_index("p3").unwrap();
    let o = sleeping.model.bodies[b].offset;
    let run = |w: &mut World| {
        for i in 0..400 {
            if i == 100 {
                w.state.qd[o + 1] = 1.0;
            }
            w.step(h);
        }
        w.state_hash()
    };
    let first = run(&mut sleeping);
    replay.restore(&snap);
    assert_eq!(run(&mut replay), first);
}

/// Issue 26: a cue shot on a sleeping ball was lost: the wake copied the
/// velocity kept aside (about 0) over the shot. A lone ball asleep on the
/// floor, shot along it at 0.5 m/s, leaves at 0.5 m/s.
#[test]
fn a_shot_on_a_sleeping_ball_keeps_its_velocity() {
    let (mut w, h) = pile(1);
    until_asleep(&mut w, h, 4.0);
    let o = w.model.bodies[0].offset;
    let kept_x = w.state.qd[o];
    assert_eq!(kept_x, 0.0, "asleep, its q̇ is 0 in the state");
    w.state.qd[o] = 0.5;
    w.step(h);
    assert_eq!(w.sleep.sleeping_bodies(), 0, "it woke");
    assert_eq!(w.state.qd[o], 0.5, "the shot's velocity, not the one kept aside");
}
