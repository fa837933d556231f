//! The inspector's fields read back as set, for every item of the built-in
//! scenes, and a value refused names its field as a file's would.

use contact_core::scene::schema::ConstraintSpec;

use super::*;

fn body(name: &str) -> Item {
    Item::Body(name.into())
}

fn doc() -> SceneDoc {
    scene("billiard-corner")
}

fn scene(name: &str) -> SceneDoc {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("assets/scenes/{name}.ron"));
    SceneDoc::load(&path).unwrap()
}

/// Every number field of every wall and constraint of the built-in
/// scenes reads back as set (optional ones blank too).
#[test]
fn every_field_of_walls_and_constraints_can_be_set_and_reads_back() {
    let mut seen = 0;
    for name in ["billiard-corner", "bead-on-curve", "newtons-cradle", "sticky-corner", "wedge"] {
        let d = scene(name);
        let items = d
            .file
            .walls
            .iter()
            .map(|w| Item::Wall(w.name.clone()))
            .chain(d.file.constraints.iter().map(|c| Item::Constraint(constraint_name(c))));
        for item in items {
            for field in fields_of(&d, &item).unwrap().1 {
                if ["name", "a", "b", "body"].contains(&field.label) {
                    continue;
                }
                let values: &[&str] = if field.hint.is_empty() { &["0.25"] } else { &["0.25", ""] };
                for v in values {
                    let next = with_field(&d, Some(&item), field.label, v).unwrap();
                    let back = fields_of(&next, &item).unwrap().1;
                    let got = back.iter().find(|f| f.label == field.label).unwrap();
                    assert_eq!(got.value, *v, "{name}: {item:?}.{}", field.label);
                    seen += 1;
                }
            }
        }
    }
    assert!(seen > 20, "{seen} fields");
}

#[test]
fn a_wall_or_constraint_renamed_keeps_the_plots_that_name_it() {
    let d = scene("newtons-cradle");
    let s1 = Item::Constraint("s1".into());
    let next = with_field(&d, Some(&s1), "name", "left").unwrap();
    next.check("renamed").unwrap();
    assert!(next.file.plots.iter().any(|p| p.series.contains(&"left.lambda".to_string())));
    // Deleting it takes its series out of the plots: the scene still loads.
    let mut gone = next.clone();
    assert!(gone.remove(&Item::Constraint("left".into())));
    gone.check("deleted").unwrap();
    let d = doc();
    let wall = Item::Wall("cushion_left".into());
    with_field(&d, Some(&wall), "name", "rail").unwrap().check("renamed").unwrap();
}

#[test]
fn a_bead_s_end_stops_are_edited_from_the_bead() {
    let d = scene("bead-on-curve");
    let bead = body("bead");
    let stops = |d: &SceneDoc| {
        let f = fields_of(d, &bead).unwrap().1;
        let v = |l: &str| f.iter().find(|x| x.label == l).unwrap().value.clone();
        (v("stop.min"), v("stop.max"))
    };
    assert_eq!(stops(&d), ("-2.6".into(), "1.2".into()));
    let moved = with_field(&d, Some(&bead), "stop.max", "1.5").unwrap();
    assert_eq!(stops(&moved), ("-2.6".into(), "1.5".into()));
    assert!(
        matches!(moved.constraint("stop_right"), Some(ConstraintSpec::BeadBound { max: Some(m), .. }) if *m == 1.5)
    );
    // Blank: the stop goes, with the plots' series that named it.
    let gone = with_field(&moved, Some(&bead), "stop.max", "").unwrap();
    assert!(gone.constraint("stop_right").is_none());
    gone.check("no right stop").unwrap();
    // And a new one comes back under a fresh name.
    let back = with_field(&gone, Some(&bead), "stop.max", "1.0").unwrap();
    assert!(back.constraint("bead_max").is_some());
    back.check("new stop").unwrap();
}

/// The scene's and the solver's number fields read back as set, and the
/// scene loads with them (the solver's settings are those typed).
#[test]
fn every_scene_and_solver_field_can_be_set_and_reads_back() {
    let d = scene("wedge");
    let all = || scene_fields(&d).into_iter().chain(solver_fields(&d));
    for field in all() {
        if ["name", "description"].contains(&field.label) {
            continue;
        }
        let v = if field.label == "solver.max_events_per_step" { "12" } else { "0.25" };
        let next = with_field(&d, None, field.label, v).unwrap();
        let back: Vec<Field> = scene_fields(&next).into_iter().chain(solver_fields(&next)).collect();
        assert_eq!(back.iter().find(|f| f.label == field.label).unwrap().value, v, "{}", field.label);
    }
    let next = with_field(&d, None, "solver.max_events_per_step", "7").unwrap();
    assert_eq!(next.check("edited").unwrap().world.settings.events.max_per_step, 7);
    let e = with_field(&d, None, "solver.max_events_per_step", "7.5").unwrap_err();
    assert_eq!(e, "field `solver.max_events_per_step`: `7.5` is not a whole number");
}

/// A moving box fixed in the inspector loses its motion and becomes a
/// shape that never moves; set free again it moves with its mass.
#[test]
fn a_box_is_fixed_and_set_free_in_the_inspector() {
    let d = scene("box-stack");
    let moving = with_field(&d, Some(&body("top")), "velocity.x", "1.5").unwrap();
    let fixed = with_fixed(&moving, "top", true).expect("a body that turns");
    assert_eq!(fixed_of(&fixed, "top"), Some(true));
    let loaded = fixed.check("fixed").unwrap_or_else(|e| panic!("{e}"));
    let top = loaded.world.model.bodies.iter().find(|b| b.name == "top").unwrap();
    assert!(matches!(top.kind, contact_core::BodyKind::FixedShape { .. }), "{:?}", top.kind);
    let free = with_fixed(&fixed, "top", false).unwrap();
    let loaded = free.check("free").unwrap_or_else(|e| panic!("{e}"));
    assert!(loaded.world.model.bodies.iter().any(|b| b.name == "top" && b.is_dynamic()));
    assert_eq!(with_fixed(&d, "floor", true), None, "not a body");
    assert_eq!(fixed_of(&scene("wedge"), "p"), None, "a particle is never a fixed shape");
}

/// A bead's curve: each kind's numbers read back as set, and a change of
/// kind keeps a scene that loads.
#[test]
fn a_bead_s_curve_is_edited_in_the_inspector() {
    let d = scene("bead-on-curve");
    let bead = body("bead");
    for kind in ["segment", "circle", "parabola", "cycloid"] {
        let k = with_field(&d, Some(&bead), "curve", kind).unwrap();
        k.check(kind).unwrap_or_else(|e| panic!("{kind}: {e}"));
        for field in fields_of(&k, &bead).unwrap().1.iter().filter(|f| f.label.starts_with("curve.")) {
            let next = with_field(&k, Some(&bead), field.label, "0.75").unwrap();
            let back = fields_of(&next, &bead).unwrap().1;
            assert_eq!(back.iter().find(|f| f.label == field.label).unwrap().value, "0.75", "{kind} {}", field.label);
        }
    }
    let e = with_field(&d, Some(&bead), "curve", "spiral").unwrap_err();
    assert!(e.starts_with("field `bodies[0].curve`: `spiral` is not a curve"), "{e}");
}

#[test]
fn the_scene_s_own_fields_are_named_when_refused() {
    let d = doc();
    let e = with_field(&d, None, "gravity.y", "down").unwrap_err();
    assert_eq!(e, "field `gravity.y`: `down` is not a number");
    let next = with_field(&d, None, "solver.dt", "-0.001").unwrap();
    let e = next.check("edited").unwrap_err();
    assert_eq!(e.field.as_deref(), Some("solver.dt"), "{e}");
    let next = with_field(&d, None, "gravity.y", "-9.81").unwrap();
    assert_eq!(next.check("edited").unwrap().world.model.gravity.y, -9.81);
}

#[test]
fn a_value_that_is_not_a_number_is_refused_with_the_field_named() {
    let e = with_field(&doc(), Some(&body("b3")), "mass", "heavy").unwrap_err();
    assert_eq!(e, "field `bodies[2].mass`: `heavy` is not a number");
}

#[test]
fn a_number_the_file_would_refuse_is_refused_by_the_file_s_check() {
    let next = with_field(&doc(), Some(&body("b3")), "radius", "-0.1").unwrap();
    let e = next.check("edited").unwrap_err();
    assert_eq!(e.field.as_deref(), Some("bodies[2].radius"), "{e}");
}

#[test]
fn every_field_shown_can_be_set_and_reads_back() {
    let d = doc();
    let cue = body("cue");
    for field in fields_of(&d, &cue).unwrap().1 {
        if field.label == "name" {
            continue;
        }
        let next = with_field(&d, Some(&cue), field.label, "0.25").unwrap();
        let back = fields_of(&next, &cue).unwrap().1;
        let v = back.iter().find(|f| f.label == field.label).unwrap();
        assert_eq!(v.value, "0.25", "{}", field.label);
    }
    let renamed = with_field(&d, Some(&cue), "name", "white").unwrap();
    assert!(renamed.body_names().contains(&"white".to_string()));
    renamed.check("renamed").unwrap();
}

/// The inspector's numbers are short (issue 37: 16 digits after a drag).
#[test]
fn numbers_are_shown_to_six_significant_digits() {
    for (v, shown) in [
        (0.7372881355932204, "0.737288"),
        (-0.0, "0"),
        (2.0, "2"),
        (1e-9, "1e-9"),
        (9.81, "9.81"),
        (123456.789, "123457"),
        (-4.09e-17, "-4.09e-17"),
        (0.25, "0.25"),
    ] {
        assert_eq!(short(v), shown, "{v}");
    }
}

/// The heap's rolling resistance in the inspector: between bodies and on a
/// wall, the scene loads with what was typed; on a smooth wall the load
/// refuses it and names the field.
#[test]
fn rolling_resistance_is_set_in_the_inspector_and_refused_on_a_smooth_wall() {
    let d = scene("heap");
    let next = with_field(&d, None, "pair_rolling", "0.5").unwrap();
    let floor = Item::Wall("floor".into());
    let next = with_field(&next, Some(&floor), "rolling", "").unwrap();
    let loaded = next.check("edited").unwrap_or_else(|e| panic!("{e}"));
    let c = loaded.world.model.contact_coefficients().expect("the heap's contacts");
    assert_eq!(c.pair, (0.5, 0.5));
    assert_eq!(c.walls[0], (0.5, 0.0), "the floor's μ_r blank: 0");
    let smooth = with_field(&next, Some(&floor), "friction", "").unwrap();
    let smooth = with_field(&smooth, Some(&floor), "rolling", "0.2").unwrap();
    let e = smooth.check("edited").unwrap_err();
    assert!(e.to_string().contains("walls[0].rolling"), "{e}");
}

/// An explicit half-plane's rolling resistance in the inspector (the discs
/// on the incline): typed, the scene loads with it on that row.
#[test]
fn an_explicit_half_planes_rolling_resistance_is_set_in_the_inspector() {
    let d = scene("incline-discs");
    let slope = Item::Constraint("rolls-slope".into());
    let next = with_field(&d, Some(&slope), "rolling", "0.05").unwrap();
    let loaded = next.check("edited").unwrap_or_else(|e| panic!("{e}"));
    let k = loaded.world.model.constraint_index("rolls-slope").expect("the slope's row");
    assert_eq!(loaded.world.model.constraints[k].rolling, 0.05);
}
