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
