//! The guided tour: every step of the paper's tour loads its scene with its
//! algorithm in the lab and runs it; a broken tour file shows where it is
//! broken while the lab keeps running what it ran.

use std::path::Path;

use contact_lab::app::lab::Lab;
use contact_lab::app::tour::{TourAction, TourPlugin, TourState, running_step};

use crate::common::*;

fn paper_tour() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("assets").join("tours").join("paper.ron")
}

#[test]
fn every_step_of_the_paper_tour_loads_its_scene_and_algorithm() {
    let mut app = headless(&scene("ball-pile.ron"));
    app.add_plugins(TourPlugin { path: paper_tour(), start: false });
    app.update();
    let tour = contact_core::scene::tour::load(&paper_tour()).unwrap_or_else(|e| panic!("{e}"));
    assert!(tour.steps.len() >= 6, "from figure 1 to the billiard break");
    for (i, step) in tour.steps.iter().enumerate() {
        app.world_mut().write_message(TourAction::Go(i));
        app.update();
        let expected = contact_core::scene::load(&step.scene, &step.overrides()).unwrap();
        let lab = app.world().resource::<Lab>();
        assert_eq!(lab.scene.name, expected.name, "step {i}");
        assert_eq!(lab.scene.path.as_deref(), Some(std::path::absolute(&step.scene).unwrap().as_path()));
        let algorithm = step.algorithm.unwrap_or(expected.world.settings.algorithm);
        assert_eq!(lab.world.settings.algorithm, algorithm, "step {i}: {}", step.title);
        let state = app.world().resource::<TourState>();
        assert_eq!((state.current, running_step(state, Some(lab))), (i, Some(i)));
        // It runs: a few updates take steps.
        let before = steps(&app);
        for _ in 0..3 {
            app.update();
        }
        assert!(steps(&app) > before, "step {i} does not run");
    }
}

#[test]
fn a_broken_tour_file_names_its_line_and_field_and_the_lab_runs_on() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mine.ron");
    let scenes = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets").join("scenes");
    std::fs::write(
        &path,
        format!(
            "Tour(\n    title: \"Mine\",\n    steps: [\n        (title: \"A\", scene: \"{}\", algorithm: Rigth, text: \"x\"),\n    ],\n)\n",
            scenes.join("wedge.ron").display()
        ),
    )
    .unwrap();
    let mut app = headless(&scene("wedge.ron"));
    app.add_plugins(TourPlugin { path: path.clone(), start: true });
    for _ in 0..3 {
        app.update();
    }
    let state = app.world().resource::<TourState>();
    let e = state.error.clone().expect("an error");
    assert!(state.tour.is_none() && state.open);
    assert!(e.starts_with(&format!("{}:4:", path.display())), "{e}");
    assert!(e.contains("steps[0].algorithm") && e.contains("Rigth"), "{e}");
    assert_eq!(app.world().resource::<Lab>().scene.name, "Wedge");
    assert!(steps(&app) > 0, "the lab keeps running");
    // Fixed on disk and read again: the tour is there.
    std::fs::write(&path, std::fs::read_to_string(&path).unwrap().replace("Rigth", "Right")).unwrap();
    app.world_mut().write_message(TourAction::Reload);
    app.update();
    assert_eq!(app.world().resource::<TourState>().tour.as_ref().map(|t| t.steps.len()), Some(1));
}
