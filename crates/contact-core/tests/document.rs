//! Scene documents: every built-in scene saved and loaded back is the same
//! model and the same start, bit for bit; edits keep the model valid, are
//! refused with the field named when they would not load, and undo and redo;
//! "edit from here" makes the state of a run the start of a new scene.

use std::path::{Path, PathBuf};

use contact_core::World;
use contact_core::scene::schema::BodySpec;
use contact_core::scene::{self, Edits, Overrides, SceneDoc};

fn scenes_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/scenes")
}

fn built_in() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(scenes_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "ron"))
        .collect();
    v.sort();
    v
}

/// The same model and start: the state hash (q, q̇, t, handled set), the
/// constraints' names and kinds, the settings.
fn assert_same(a: &World, b: &World, what: &str) {
    assert_eq!(a.state_hash(), b.state_hash(), "{what}: state");
    assert_eq!(a.model, b.model, "{what}: model");
    assert_eq!(a.settings, b.settings, "{what}: settings");
}

/// A ball of the billiard corner's size and mass, at rest at `position`.
fn billiard_ball(name: String, position: (f64, f64), damping: f64) -> BodySpec {
    BodySpec::Ball { name, position, velocity: (0.0, 0.0), mass: 0.17, radius: 0.028, force: (0.0, 0.0), damping }
}

#[test]
fn every_built_in_scene_saves_and_loads_back_bit_for_bit() {
    let dir = tempfile::tempdir().unwrap();
    for path in built_in() {
        let original = scene::load(&path, &Overrides::default()).unwrap();
        let doc = SceneDoc::load(&path).unwrap();
        let out = dir.path().join(path.file_name().unwrap());
        doc.save(&out).unwrap_or_else(|e| panic!("{e}\n{}", doc.to_ron()));
        let back = scene::load(&out, &Overrides::default()).unwrap_or_else(|e| panic!("{e}"));
        assert_same(&original.world, &back.world, &path.display().to_string());
        assert_eq!((original.dt, original.duration, original.view), (back.dt, back.duration, back.view));
        assert_eq!(original.plots, back.plots);
        // And the saved text reads back to the same document.
        assert_eq!(SceneDoc::load(&out).unwrap().file, doc.file);
    }
}

#[test]
fn a_saved_scene_is_readable_one_line_per_body() {
    let doc = SceneDoc::load(&scenes_dir().join("billiard-corner.ron")).unwrap();
    let text = doc.to_ron();
    assert!(text.lines().any(|l| l == "Scene("), "{text}");
    // Each ball on a line of its own, named.
    let ball_lines = text.lines().filter(|l| l.trim_start().starts_with("Ball(")).count();
    assert_eq!(ball_lines, 11, "{text}");
    assert!(text.contains("name: \"cue\""), "{text}");
    // No type names but the file's own, no field at its default.
    for noise in ["WallSpec(", "SolverSpec(", "PlotSpec(", "force: (0.0, 0.0)", "velocity: (0.0, 0.0)", "algorithm:"] {
        assert!(!text.contains(noise), "`{noise}` in\n{text}");
    }
    // The generated parts say what they make.
    assert!(text.contains("// Each wall holds every ball"), "{text}");
    assert!(text.contains("// A contact for every pair of balls"), "{text}");
}

#[test]
fn a_saved_scene_keeps_its_comments_and_a_negative_zero() {
    let path = scenes_dir().join("billiard-corner.ron");
    let mut doc = SceneDoc::load(&path).unwrap();
    // The file's header and the comment above the rack come with it.
    assert!(doc.header[0].starts_with("The billiard of section 5"), "{:?}", doc.header);
    assert!(doc.notes.iter().any(|(b, n)| b == "b1" && n.starts_with("The rack")), "{:?}", doc.notes);
    doc.notes.push(("cue".into(), "Aimed by hand.".into()));
    // A velocity of −0 is not the default 0: it is written, and comes back.
    if let BodySpec::Ball { velocity, .. } = doc.body_mut("b2").unwrap() {
        *velocity = (-0.0, 0.0);
    }
    let back = SceneDoc::parse(&doc.to_ron(), "saved").unwrap();
    assert_eq!(back, doc);
    let BodySpec::Ball { velocity, .. } = back.body("b2").unwrap() else { panic!() };
    assert!(velocity.0.is_sign_negative());
    assert_eq!(back.to_ron(), doc.to_ron());
}

#[test]
fn edits_keep_the_model_valid_and_undo_and_redo() {
    let path = scenes_dir().join("billiard-corner.ron");
    let mut doc = SceneDoc::load(&path).unwrap();
    let mut edits = Edits::default();
    let n0 = doc.file.bodies.len();
    // Add a ball in free space.
    let name = doc.fresh_name("ball");
    let scene =
        edits.apply(&mut doc, "edit", |d| d.file.bodies.push(billiard_ball(name.clone(), (1.2, 0.8), 0.8))).unwrap();
    assert_eq!(scene.world.model.bodies.len(), n0 + 1);
    assert!(scene.world.model.body_index(&name).is_some());
    // Move it, then delete another body: its constraints go with it.
    edits
        .apply(&mut doc, "edit", |d| {
            if let Some(BodySpec::Ball { position, .. }) = d.body_mut(&name) {
                *position = (1.3, 0.7);
            }
        })
        .unwrap();
    let scene = edits.apply(&mut doc, "edit", |d| assert!(d.remove_body("b1"))).unwrap();
    assert!(scene.world.model.body_index("b1").is_none());
    let names_b1 = |n: &str| n.split(['-', ':']).any(|part| part == "b1");
    assert!(scene.world.model.constraints.iter().all(|c| !names_b1(&c.name)));
    assert_eq!(doc.file.bodies.len(), n0);
    // Undo twice: b1 is back and the new ball at its first place.
    assert!(edits.undo(&mut doc) && edits.undo(&mut doc));
    assert!(doc.body_names().contains(&"b1".to_string()));
    assert!(matches!(doc.body_mut(&name), Some(BodySpec::Ball { position: (1.2, 0.8), .. })));
    assert!(edits.redo(&mut doc));
    assert!(matches!(doc.body_mut(&name), Some(BodySpec::Ball { position: (1.3, 0.7), .. })));
    // The edited scene saves and loads back bit for bit.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("edited.ron");
    let saved = doc.save(&out).unwrap();
    let back = scene::load(&out, &Overrides::default()).unwrap();
    assert_same(&saved.world, &back.world, "edited");
}

#[test]
fn an_invalid_edit_is_refused_with_the_field_named_and_changes_nothing() {
    let mut doc = SceneDoc::load(&scenes_dir().join("billiard-corner.ron")).unwrap();
    let before = doc.clone();
    let mut edits = Edits::default();
    let e = edits
        .apply(&mut doc, "edit", |d| {
            if let Some(BodySpec::Ball { mass, .. }) = d.body_mut("b2") {
                *mass = -1.0;
            }
        })
        .unwrap_err();
    assert!(e.field.as_deref().is_some_and(|f| f.ends_with(".mass")), "{e}");
    assert!(e.message.contains("mass must be positive"), "{e}");
    assert!(e.line.is_some(), "the line of the would-be file: {e}");
    assert_eq!(doc, before, "refused, not applied");
    assert!(!edits.can_undo());
    // A ball placed inside another gets the message a file gets.
    let e = edits
        .apply(&mut doc, "edit", |d| {
            let name = d.fresh_name("ball");
            let Some(BodySpec::Ball { position, .. }) = d.body_mut("b2") else { panic!("b2 is a ball") };
            let at = *position;
            d.file.bodies.push(billiard_ball(name, (at.0 + 0.01, at.1), 0.0));
        })
        .unwrap_err();
    assert!(e.message.contains("overlap"), "{e}");
    assert_eq!(doc, before);
}

#[test]
fn edit_from_here_starts_a_scene_at_the_state_of_a_run() {
    for (file, balls) in [("billiard-corner.ron", None), ("ball-pile.ron", Some(12)), ("newtons-cradle.ron", None)] {
        let path = scenes_dir().join(file);
        let s = scene::load(&path, &Overrides { balls, ..Default::default() }).unwrap();
        let mut w = s.world.clone();
        for _ in 0..700 {
            w.step(s.dt);
        }
        let doc = SceneDoc::load(&path).unwrap().from_world(&w);
        let here = doc.check("here").unwrap_or_else(|e| panic!("{file}: {e}\n{}", doc.to_ron()));
        assert_eq!(here.world.state.q, w.state.q, "{file}: positions bit for bit");
        assert_eq!(here.world.state.qd, w.state.qd, "{file}: velocities bit for bit");
        assert_eq!(here.world.model.constraints.len(), w.model.constraints.len(), "{file}");
        assert!(doc.to_ron().starts_with("// "), "a header says where it comes from");
    }
}

/// Any one body, wall or constraint of a built-in scene deleted leaves a
/// scene that loads: a body's constraints go with it, and so do the plots'
/// series that named what went (a plot left empty goes too).
#[test]
fn deleting_any_item_of_a_built_in_scene_leaves_a_scene_that_loads() {
    use contact_core::scene::Item;
    use contact_core::scene::document::constraint_name;
    let mut deleted = 0;
    for path in built_in() {
        let doc = SceneDoc::load(&path).unwrap();
        let items: Vec<Item> = doc
            .body_names()
            .into_iter()
            .map(Item::Body)
            .chain(doc.file.walls.iter().map(|w| Item::Wall(w.name.clone())))
            .chain(doc.file.constraints.iter().map(|c| Item::Constraint(constraint_name(c))))
            .collect();
        for item in items {
            let mut next = doc.clone();
            assert!(next.remove(&item), "{item:?}");
            // A scene with no body left is refused as a file would be.
            if next.file.bodies.is_empty() && next.file.ball_pile.is_none() {
                continue;
            }
            next.check("deleted").unwrap_or_else(|e| panic!("{}: {item:?}: {e}", path.display()));
            deleted += 1;
        }
    }
    assert!(deleted > 40, "{deleted}");
}

#[test]
fn a_scene_saved_from_another_gets_its_own_name_and_a_true_description() {
    let path = scenes_dir().join("billiard-corner.ron");
    let mut doc = SceneDoc::load(&path).unwrap();
    let source = (doc.file.name.clone(), doc.file.description.clone());
    let mut edits = Edits::default();
    let scene = edits
        .apply(&mut doc, "edit", |d| {
            for (i, p) in [(1.2, 0.8), (1.3, 0.8), (1.4, 0.8)].into_iter().enumerate() {
                d.file.bodies.push(billiard_ball(format!("extra{i}"), p, 0.8));
            }
        })
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("my_big-break.ron");
    let titled = doc.titled_for(&out, (&source.0, &source.1), &scene);
    assert_eq!(titled.file.name, "My big break", "the file's name, as a title");
    let m = &scene.world.model;
    assert_eq!((m.bodies.len(), m.constraints.len()), (14, 11 * 2 + 11 * 10 / 2 + 3 * 2 + 3 * 11 + 3));
    assert_eq!(titled.file.description, "14 bodies (14 moving) and 119 constraints, made from “Billiard corner”.");
    assert!(titled.header[0].contains("made from “Billiard corner”"), "{:?}", titled.header);
    let back = titled.save(&out).unwrap();
    assert_eq!(back.name, "My big break");
    // What the user wrote stays.
    doc.file.name = "Mine".into();
    doc.file.description = "Three more balls.".into();
    let kept = doc.titled_for(&out, (&source.0, &source.1), &scene);
    assert_eq!((kept.file.name.as_str(), kept.file.description.as_str()), ("Mine", "Three more balls."));
}

#[test]
fn a_new_scene_loads_empty_or_on_a_floor() {
    let empty = SceneDoc::new_scene(false).check("new").unwrap();
    assert!(empty.world.model.bodies.is_empty() && empty.world.model.constraints.is_empty());
    assert!(empty.opening.paused, "a new scene opens paused, for editing");
    // Played before anything is placed, it steps (nothing moves).
    let mut world = empty.world.clone();
    let report = world.step(1e-3);
    assert_eq!(report.status, contact_core::StepStatus::Ok);
    assert_eq!(world.state.t, 1e-3);
    let mut doc = SceneDoc::new_scene(true);
    let scene = Edits::default().apply(&mut doc, "edit", |d| {
        d.file.bodies.push(billiard_ball("a".into(), (0.0, 0.5), 0.0));
        d.file.bodies.push(billiard_ball("b".into(), (0.5, 0.5), 0.0));
    });
    let names: Vec<String> = scene.unwrap().world.model.constraints.iter().map(|c| c.name.clone()).collect();
    assert_eq!(names, ["floor:a", "floor:b", "a-b"], "the floor against each ball, and the balls against each other");
}

#[test]
fn a_document_with_the_settings_in_force_is_the_file_until_a_setting_changes() {
    // Nothing changed: every built-in scene's document is its file, bit for bit.
    for path in built_in() {
        let scene = scene::load(&path, &Overrides::default()).unwrap();
        let doc = SceneDoc::load(&path).unwrap();
        let same = doc.with_settings(&scene.world.settings, scene.dt);
        assert_eq!(same.file, doc.file, "{}", path.display());
        assert_eq!(same.to_ron(), doc.to_ron(), "{}", path.display());
    }
    // Changed at run time: what the lab runs is what the file says.
    let path = scenes_dir().join("incline.ron");
    let scene = scene::load(&path, &Overrides::default()).unwrap();
    let mut s = scene.world.settings.clone();
    s.algorithm = contact_core::Algorithm::Platt;
    s.tau = 0.025;
    s.events.enabled = !s.events.enabled;
    s.events.restitution = 0.3;
    s.sleep.enabled = !s.sleep.enabled;
    s.tol.active *= 2.0;
    let doc = SceneDoc::load(&path).unwrap().with_settings(&s, 5e-4);
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("incline-saved.ron");
    doc.save(&out).unwrap();
    let back = scene::load(&out, &Overrides::default()).unwrap();
    assert_eq!(back.world.settings, s, "every setting in force, read back");
    assert_eq!(back.dt, 5e-4, "the step h in force is the file's dt");
    assert_eq!(back.world.model, scene.world.model, "the bodies and the friction are the file's");
}

/// A pile of discs that turn (`ball_pile.turning`): the discs get `θ` and
/// `I = m r²/2`, friction sets them spinning as they land, and "edit from
/// here" writes them out as `Disc`s, spin and all, bit for bit.
#[test]
fn a_pile_of_turning_discs_spins_and_is_written_out_as_discs() {
    let text = r#"Scene(
        name: "turning pile",
        gravity: (0, -9.81),
        ball_pile: (count: 12, prefix: "d", radius: 0.03, mass: 0.05, first: (0.4, 0.1), columns: 3,
                    spacing: 0.065, stagger: 0.02, turning: true),
        walls: [(name: "floor", normal: (0, 1), offset: 0, friction: 0.5),
                (name: "left", normal: (1, 0), offset: 0, friction: 0.5),
                (name: "right", normal: (-1, 0), offset: -1, friction: 0.5)],
        ball_pairs: true,
        pair_friction: 0.5,
        solver: (scheme: TimeStepping, dt: 1e-3, restitution: 0.0),
    )"#;
    let doc = SceneDoc::parse(text, "turning.ron").unwrap();
    let mut w = doc.check("turning.ron").unwrap().world;
    assert_eq!(w.model.ndofs(), 36, "x, y, θ for each of 12 discs");
    let inertia = 0.5 * 0.05 * 0.03 * 0.03;
    for b in &w.model.bodies {
        assert!(
            matches!(b.kind, contact_core::BodyKind::Rigid { inertia: i, .. } if (i - inertia).abs() < 1e-18),
            "{}: {:?}",
            b.name,
            b.kind
        );
    }
    for i in 0..400 {
        let r = w.step(1e-3);
        assert_eq!(r.status, contact_core::StepStatus::Ok, "step {i}");
    }
    let spin = w.model.bodies.iter().map(|b| w.state.qd[b.offset + 2].abs()).fold(0.0, f64::max);
    assert!(spin > 0.1, "friction set no disc turning: largest |θ̇| = {spin} rad/s");
    let here = doc.from_world(&w);
    assert!(here.file.bodies.iter().all(|b| matches!(b, BodySpec::Disc { .. })), "{}", here.to_ron());
    let again = here.check("here").unwrap_or_else(|e| panic!("{e}\n{}", here.to_ron()));
    assert_eq!(again.world.state.q, w.state.q, "positions and angles bit for bit");
    assert_eq!(again.world.state.qd, w.state.qd, "velocities and spins bit for bit");
}

/// Issue 47, item 3: a new scene with a floor, three balls and a box. The
/// box makes contacts by proximity, whose rows exist only near a body: the
/// saved description said "0 constraints" of a scene with a floor. It now
/// counts the walls, and the floor is still in the model.
#[test]
fn a_scene_with_a_box_describes_its_walls() {
    let mut doc = SceneDoc::new_scene(true);
    let source = (doc.file.name.clone(), doc.file.description.clone());
    for (i, x) in [-0.5, 0.0, 0.5].into_iter().enumerate() {
        doc.file.bodies.push(billiard_ball(format!("ball{i}"), (x, 0.5), 0.0));
    }
    let text = doc
        .to_ron()
        .replace("bodies: [", "bodies: [Box(name: \"box\", position: (0.2, 0.9), size: (0.2, 0.1), mass: 1), ");
    let doc = SceneDoc::parse(&text, "new.ron").unwrap_or_else(|e| panic!("{e}\n{text}"));
    let scene = doc.check("new.ron").unwrap();
    let walls = scene.world.model.contacts.as_ref().expect("a box makes contacts by proximity").walls.len();
    assert_eq!(walls, 1, "the floor");
    let titled = doc.titled_for(std::path::Path::new("mine.ron"), (&source.0, &source.1), &scene);
    assert_eq!(
        titled.file.description,
        "4 bodies (4 moving), 1 wall and 0 constraints written, contacts found by proximity, made from “New scene”."
    );
}
