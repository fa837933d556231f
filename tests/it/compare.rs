//! Compare mode in the lab: lanes forked from the state shown take the lab's
//! steps on its inputs (a lane of the lab's own algorithm stays equal to it bit
//! for bit, spring drag included), a restore forks them again, and keeping a
//! lane makes it the lab's run.

use bevy::math::DVec2;
use bevy::prelude::*;
use contact_core::{Algorithm, Method};
use contact_lab::app::compare::{Compare, CompareAction, ComparePlugin};
use contact_lab::app::drag;
use contact_lab::app::inputs::InputsPlugin;
use contact_lab::app::lab::{Drags, Grab, Lab, LabAction, PhysicsSet, Spring};
use contact_lab::app::timeline::Timeline;

use crate::common::*;

fn lab_app(file: &str) -> App {
    let scene = scene(file);
    let mut app = headless(&scene);
    app.add_plugins((InputsPlugin, ComparePlugin { start: false }))
        .add_systems(FixedUpdate, drag::apply_springs.in_set(PhysicsSet::Forces));
    app
}

fn act(app: &mut App, a: CompareAction) {
    app.world_mut().write_message(a);
}

#[test]
fn lanes_step_in_lockstep_and_a_lane_can_be_kept() {
    let mut app = lab_app("billiard-corner.ron");
    run_until(&mut app, 100, |_, _| {});
    act(&mut app, CompareAction::Toggle);
    act(&mut app, CompareAction::Branch(Method::event_driven(Algorithm::Right)));
    run_until(&mut app, 101, |_, _| {});
    {
        let c = app.world().resource::<Compare>();
        let methods: Vec<Method> = c.lanes.iter().map(|l| l.lane.method()).collect();
        let ed = Method::event_driven;
        assert_eq!(
            methods,
            [
                ed(Algorithm::Platt),
                ed(Algorithm::PlattImproved),
                ed(Algorithm::Exact),
                Method::TIME_STEPPING,
                ed(Algorithm::Right)
            ]
        );
    }
    let spring = Spring::new(0, DVec2::new(0.3, 0.4));
    run_until(&mut app, 600, |app, _| {
        let s = steps(app);
        let mut drags = app.world_mut().resource_mut::<Drags>();
        drags.grab = (200..400).contains(&s).then_some(Grab::Body(spring));
        let lab = app.world().resource::<Lab>();
        let c = app.world().resource::<Compare>();
        for l in &c.lanes {
            assert_eq!(l.lane.world.steps, lab.world.steps, "{:?} in lockstep", l.lane.method());
        }
        let twin = c.lane(Method::event_driven(Algorithm::Right)).expect("the Right lane");
        assert_eq!(twin.lane.world.state_hash(), lab.world.state_hash(), "step {}", lab.world.steps);
    });
    app.world_mut().write_message(LabAction::SetPaused(true));
    app.update();
    let exact_q = app
        .world()
        .resource::<Compare>()
        .lane(Method::event_driven(Algorithm::Exact))
        .unwrap()
        .lane
        .world
        .state
        .q
        .clone();
    assert_ne!(exact_q, app.world().resource::<Lab>().world.state.q, "Exact parted from Right");
    // Keep the Exact lane.
    let i = app
        .world()
        .resource::<Compare>()
        .lanes
        .iter()
        .position(|l| l.lane.method() == Method::event_driven(Algorithm::Exact))
        .unwrap();
    act(&mut app, CompareAction::Keep(i));
    app.update();
    let lab = app.world().resource::<Lab>();
    assert_eq!(lab.world.state.q, exact_q);
    assert_eq!(lab.world.settings.algorithm, Algorithm::Exact);
    assert!(!app.world().resource::<Compare>().on);
}

#[test]
fn a_restore_forks_the_lanes_again_from_the_restored_state() {
    let mut app = lab_app("wedge.ron");
    run_until(&mut app, 50, |_, _| {});
    act(&mut app, CompareAction::Toggle);
    run_until(&mut app, 300, |_, _| {});
    app.world_mut().write_message(LabAction::SetPaused(true));
    app.update();
    let idx = app.world().resource::<Timeline>().snaps.iter().position(|s| s.steps == 120).expect("stored");
    app.world_mut().write_message(LabAction::Restore(idx));
    app.update();
    app.update();
    let lab = app.world().resource::<Lab>();
    let c = app.world().resource::<Compare>();
    // Beside the lab's Right: Platt, Platt improved, Exact, and time-stepping.
    assert!(c.on && c.lanes.len() == 4);
    assert!(c.lane(contact_core::Method::TIME_STEPPING).is_some(), "a time-stepping lane");
    for l in &c.lanes {
        assert_eq!(l.lane.world.steps, 120);
        assert_eq!(l.lane.world.state.q, lab.world.state.q);
        assert!((l.from - lab.world.state.t).abs() < 1e-12);
    }
}

#[test]
fn from_the_start_forks_at_t_0_while_the_clock_plays() {
    let mut app = lab_app("wedge.ron");
    run_until(&mut app, 85, |_, _| {});
    act(&mut app, CompareAction::Fork { from_start: true });
    // The clock keeps playing through the reset and the fork.
    for _ in 0..4 {
        app.update();
    }
    let lab = app.world().resource::<Lab>();
    let c = app.world().resource::<Compare>();
    assert!(c.on && c.lanes.len() == 4, "four lanes beside the lab's Right (three algorithms, time-stepping)");
    assert!(lab.world.steps < 10, "the lab went back to the start ({} steps)", lab.world.steps);
    for l in &c.lanes {
        assert_eq!(l.from, 0.0, "{:?} forked at t = {} s", l.lane.method(), l.from);
        assert_eq!(l.lane.world.steps, lab.world.steps, "{:?} in lockstep", l.lane.method());
    }
}
