//! Restoring a timeline snapshot puts the lab back in that exact state, and
//! playing on reproduces the original trajectory bit for bit.

use std::collections::HashMap;

use contact_core::Algorithm;
use contact_lab::app::history::History;
use contact_lab::app::lab::{Lab, LabAction};
use contact_lab::app::timeline::{SPAN_SECONDS, Timeline};

use crate::common::*;

fn restore_reproduces(file: &str, total: u64, back_to: u64) {
    let scene = scene(file);
    let mut app = headless(&scene);
    let mut seen: HashMap<u64, Vec<u64>> = HashMap::new();
    run_until(&mut app, total, |app, _| {
        let s = steps(app);
        let bits = q_bits(app);
        seen.insert(s, bits);
    });
    app.world_mut().write_message(LabAction::SetPaused(true));
    app.update();
    let idx = {
        let tl = app.world().resource::<Timeline>();
        tl.snaps.iter().position(|s| s.steps == back_to).expect("the snapshot is stored")
    };
    app.world_mut().write_message(LabAction::Restore(idx));
    app.update();
    assert_eq!(steps(&app), back_to);
    assert_eq!(q_bits(&mut app), seen[&back_to], "{file}: the restored state is the stored one");
    // The report of the step that led there is recomputed.
    assert!(app.world().resource::<Lab>().report.is_some());
    app.world_mut().write_message(LabAction::SetPaused(false));
    let mut compared = 0;
    run_until(&mut app, total, |app, taken| {
        if taken > 0 {
            let s = steps(app);
            assert_eq!(q_bits(app), seen[&s], "{file}: step {s} after the restore differs");
            compared += 1;
        }
    });
    assert_eq!(compared, total - back_to);
    // The plots dropped what followed the restored state, then went on.
    let h = app.world().resource::<History>();
    assert!(h.t.windows(2).all(|w| w[0] < w[1]), "history times stay increasing");
}

#[test]
fn restore_reproduces_the_wedge() {
    restore_reproduces("wedge.ron", 400, 120);
}

#[test]
fn restore_reproduces_the_billiard_break() {
    // The break: many simultaneous impacts and rewinds.
    restore_reproduces("billiard-corner.ron", 700, 150);
}

/// After a restore, playing goes on with the algorithm selected now.
#[test]
fn restore_then_play_with_another_algorithm() {
    let scene = scene("sticky-corner.ron");
    let mut app = headless(&scene);
    run_until(&mut app, 100, |_, _| {});
    app.world_mut().write_message(LabAction::SetPaused(true));
    app.world_mut().write_message(LabAction::Restore(40));
    app.world_mut().write_message(LabAction::SetAlgorithm(Algorithm::Exact));
    app.world_mut().write_message(LabAction::SetPaused(false));
    app.update();
    let snap = app.world().resource::<Timeline>().snaps[40].clone();
    let mut core = scene.world.clone();
    core.restore(&snap);
    core.settings.algorithm = Algorithm::Exact;
    for _ in snap.steps..steps(&app) {
        core.step(scene.dt);
    }
    let mut last = None;
    run_until(&mut app, 200, |app, taken| {
        for _ in 0..taken {
            last = Some(core.step(scene.dt));
        }
        assert_matches_core(app, &core, last.as_ref(), "Exact after a restore");
    });
    assert_eq!(app.world().resource::<Lab>().report.as_ref().unwrap().algorithm, Algorithm::Exact);
}

/// The ring keeps at least the last 60 s.
#[test]
fn timeline_keeps_sixty_seconds() {
    let scene = scene("wedge.ron");
    let mut world = scene.world.clone();
    let mut tl = Timeline::default();
    tl.reset(&world, 0);
    let h = scene.dt;
    let n = ((SPAN_SECONDS + 15.0) / h) as u64;
    for _ in 0..n {
        world.step(h);
        tl.record(&world, h);
    }
    let (t0, t1) = tl.range();
    assert!(t1 - t0 >= SPAN_SECONDS - h, "the ring covers {:.3} s", t1 - t0);
    assert!(t1 - t0 <= SPAN_SECONDS * 1.1 + h, "and not much more ({:.3} s)", t1 - t0);
}

/// Stepping from a restored instant replaces the stored run after it: the
/// status bar says so, and the rewinds' count follows the run shown.
#[test]
fn a_step_from_a_restored_instant_replaces_the_later_run_and_says_so() {
    use contact_lab::app::lab::Status;
    use contact_lab::app::timeline::EventLog;
    let mut app = headless(&scene("billiard-corner.ron"));
    run_until(&mut app, 600, |_, _| {});
    let (total, times): (usize, Vec<f64>) = {
        let log = app.world().resource::<EventLog>();
        (log.total, log.events.iter().map(|e| e.t).collect())
    };
    assert!(total >= 2 && total == times.len(), "the break rewinds ({total}) and the log keeps them all");
    // Back to between the first rewind and the last.
    let t_mid = (times[0] + times[times.len() - 1]) / 2.0;
    let before = times.iter().filter(|&&t| t <= t_mid).count();
    assert!(before >= 1 && before < total);
    let idx = app.world().resource::<Timeline>().index_at(t_mid).unwrap();
    app.world_mut().write_message(LabAction::Restore(idx));
    app.update();
    let t_shown = app.world().resource::<Lab>().world.state.t;
    let log = app.world().resource::<EventLog>();
    let until = times.iter().filter(|&&t| t <= t_shown + 1e-12).count();
    assert_eq!(log.count_until(t_shown), until, "the count at the instant shown");
    assert_eq!(log.total, total, "scrubbing loses nothing");
    let t_end = app.world().resource::<Timeline>().range().1;

    // A ball pushed (as a drag does): the step is not the stored one (the
    // same step goes along the stored run, `a_step_forward_after_stepping_back…`).
    app.world_mut().resource_mut::<Lab>().world.model.bodies[1].user_force = nalgebra::Vector2::new(5.0, 0.0);
    app.world_mut().write_message(LabAction::StepOnce);
    app.update();
    let status = app.world().resource::<Status>().text.clone();
    assert!(status.contains("replaces the stored run"), "{status}");
    assert!(status.contains(&contact_lab::app::lab::num(t_end)), "names where the replaced run reached: {status}");
    let log = app.world().resource::<EventLog>();
    let t_now = app.world().resource::<Lab>().world.state.t;
    assert!(log.total < total, "the replaced future's rewinds are not counted ({} of {total})", log.total);
    assert!(log.events.iter().all(|e| e.t <= t_now + 1e-12));
    assert_eq!(log.total, log.events.len());
    // A text that speaks of the pause goes when the clock plays.
    app.world_mut().resource_mut::<Status>().say_while_paused(0.0, "paused: Space plays it");
    app.update();
    assert_eq!(app.world().resource::<Status>().text, "paused: Space plays it", "still paused");
    app.world_mut().write_message(LabAction::SetPaused(false));
    app.update();
    app.update();
    assert_eq!(app.world().resource::<Status>().text, "", "no stale text while playing");
    // And when the lab's time moves from the instant it spoke of, paused
    // (issue 47, item 9: "Paused at t = 0.02 s" shown at t = 0.001 s).
    app.world_mut().write_message(LabAction::SetPaused(true));
    app.update();
    app.world_mut().resource_mut::<Status>().say_while_paused(1.0, "Paused at t = 0.02 s");
    app.update();
    assert_eq!(app.world().resource::<Status>().text, "Paused at t = 0.02 s", "the instant it speaks of");
    app.world_mut().write_message(LabAction::StepOnce);
    app.update();
    app.update();
    assert_eq!(app.world().resource::<Status>().text, "", "a step later it is gone");
}

/// → after ← goes along the stored run (issue 37: a step from a restored
/// snapshot replaced the run, and the first rewind was listed twice): the
/// run stays whole, the cursor moves one step, the rewinds are counted once.
#[test]
fn a_step_forward_after_stepping_back_keeps_the_stored_run() {
    use contact_lab::app::timeline::EventLog;
    let scene = scene("billiard-corner.ron");
    let mut app = headless(&scene);
    run_until(&mut app, 400, |_, _| {});
    app.world_mut().write_message(LabAction::SetPaused(true));
    app.update();
    let (len, end) = {
        let tl = app.world().resource::<Timeline>();
        (tl.snaps.len(), tl.range().1)
    };
    let rewinds = app.world().resource::<EventLog>().total;
    assert!(rewinds > 0, "the break has first contacts");
    // Back to the start, then forward again, one key at a time.
    app.world_mut().write_message(LabAction::Restore(0));
    app.update();
    assert_eq!(app.world().resource::<EventLog>().total, rewinds, "scrubbing loses nothing");
    for k in 1..=20u64 {
        app.world_mut().write_message(LabAction::StepOnce);
        app.update();
        let tl = app.world().resource::<Timeline>();
        assert_eq!((tl.snaps.len(), tl.range().1), (len, end), "step {k}: the stored run was replaced");
        assert_eq!(steps(&app), tl.snaps[0].steps + k);
        assert_eq!(app.world().resource::<EventLog>().total, rewinds, "step {k}: the stored rewinds are kept");
    }
    let log = app.world().resource::<EventLog>();
    assert_eq!(log.total, rewinds, "the rewinds of the stored run, each once");
}
