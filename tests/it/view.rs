//! The world view keeps what matters in sight: it is fitted again when the
//! panels' free rectangle changes (presenter mode, a resize) until the user
//! pans or zooms, a fit takes in every body (a pile taller than its box), and
//! the visual check of `--check-view` passes on a picture drawn with the view's
//! own mapping and fails on one drawn elsewhere.

use bevy::math::{DVec2, Vec2};
use bevy::prelude::Rect;
use contact_core::scene::Overrides;
use contact_lab::app::lab::{Lab, OnScreen, ViewTransform, palette};
use contact_lab::app::screenshot::view_check::{self, MIN_SHARE};
use contact_lab::app::view::scene_bounds;

use crate::common::*;

fn billiard() -> Lab {
    Lab::new(scene("billiard-corner.ron"), None)
}

/// The view fitted to `lab` in a `rect`, as the camera places it.
fn fitted(lab: &Lab, rect: Rect) -> ViewTransform {
    let mut view = ViewTransform::default();
    view.set_rect(rect);
    let (lo, hi) = scene_bounds(lab);
    view.fit(lo, hi);
    view.fit_pending = false;
    view
}

/// Whether `view` shows the box `(lo, hi)` whole, filling the view along one axis.
fn shows(view: &ViewTransform, (lo, hi): ((f64, f64), (f64, f64))) -> bool {
    let (a, b) = view.visible();
    let inside = a.x <= lo.0 && a.y <= lo.1 && b.x >= hi.0 && b.y >= hi.1;
    let fill = ((hi.0 - lo.0) / (b.x - a.x)).max((hi.1 - lo.1) / (b.y - a.y));
    inside && (fill - 0.92).abs() < 1e-6
}

#[test]
fn a_changed_rectangle_shows_the_fitted_box_again_until_the_user_pans_or_zooms() {
    let lab = billiard();
    let mut view = fitted(&lab, Rect::new(0.0, 0.0, 800.0, 600.0));
    let fit = scene_bounds(&lab);
    assert!(shows(&view, fit));
    // Presenter mode lays the panels out anew: the same box, at the new size.
    let ppm = view.ppm;
    view.set_rect(Rect::new(300.0, 90.0, 1500.0, 700.0));
    assert!(shows(&view, fit), "a new free rectangle shows the fitted box: {:?}", view.visible());
    assert_ne!(view.ppm, ppm, "at the new rectangle's scale");
    assert!(!view.fit_pending, "the box of the last fit, not the bodies' bounds again: no re-zoom as they move");
    // The user pans: the view is theirs until F.
    view.pan_by(Vec2::new(10.0, 0.0));
    let (center, ppm) = (view.center, view.ppm);
    view.set_rect(Rect::new(0.0, 0.0, 1280.0, 720.0));
    assert_eq!((view.center, view.ppm), (center, ppm), "a panned view is not fitted behind the user's back");
    view.auto_fit = true;
    view.zoom_at(Vec2::new(600.0, 300.0), 1.15);
    let (center, ppm) = (view.center, view.ppm);
    view.set_rect(Rect::new(0.0, 0.0, 1920.0, 1080.0));
    assert_eq!((view.center, view.ppm), (center, ppm), "nor a zoomed one");
}

#[test]
fn a_fit_takes_in_a_pile_taller_than_its_box() {
    let overrides = Overrides { balls: Some(300), ..Default::default() };
    let s = contact_core::scene::load(&scenes_dir().join("ball-pile.ron"), &overrides).unwrap();
    let vb = s.view;
    let lab = Lab::new(s, None);
    let top = (0..lab.body_names.len()).map(|b| lab.position(b).y).fold(f64::MIN, f64::max);
    assert!(top > vb.max.1, "the 300-ball pile starts above its view box ({top} > {})", vb.max.1);
    let view = fitted(&lab, Rect::new(320.0, 80.0, 1130.0, 640.0));
    let (lo, hi) = view.visible();
    for b in 0..lab.body_names.len() {
        let (p, r) = (lab.position(b), lab.world.model.bodies[b].radius);
        assert!(
            p.x - r >= lo.x && p.x + r <= hi.x && p.y - r >= lo.y && p.y + r <= hi.y,
            "{} at {p:?} is outside the fitted view {lo:?}..{hi:?}",
            lab.body_names[b]
        );
    }
}

/// The picture the meshes would give: each body's disc in its colour at
/// `offset` px from where the view maps it, on the clear colour.
fn paint(lab: &Lab, view: &ViewTransform, size: (u32, u32), offset: Vec2) -> image::RgbImage {
    let mut img = image::RgbImage::from_pixel(size.0, size.1, image::Rgb([22, 25, 31]));
    for b in 0..lab.body_names.len() {
        let c = view.to_screen(lab.position(b)) + offset;
        let r = (lab.world.model.bodies[b].radius * view.ppm) as f32;
        let rgb = palette::body_disc_rgb(&lab.world, b);
        for (x, y, px) in img.enumerate_pixels_mut() {
            if (Vec2::new(x as f32, y as f32) - c).length() <= r {
                *px = image::Rgb(rgb);
            }
        }
    }
    img
}

#[test]
fn the_visual_check_passes_on_the_mapping_and_fails_off_it() {
    let lab = billiard();
    let view = fitted(&lab, Rect::new(320.0, 80.0, 1130.0, 640.0));
    let on_screen =
        OnScreen { marker: vec![false; 11], covered: vec![false; 11], overlays: Vec::new(), magnifier: None };
    let right = paint(&lab, &view, (1600, 900), Vec2::ZERO);
    let (seen, failures) = view_check::check(&right, &lab, &view, &on_screen);
    assert!(failures.is_empty(), "{failures:?}");
    assert_eq!(seen.iter().filter(|s| s.in_view).count(), 11);
    assert!(seen.iter().all(|s| s.match_share > 0.9), "{seen:?}");

    // Drawn 40 px away from where the view maps them (a camera that disagrees).
    let shifted = paint(&lab, &view, (1600, 900), Vec2::new(40.0, 0.0));
    let (seen, failures) = view_check::check(&shifted, &lab, &view, &on_screen);
    assert_eq!(failures.len(), 11, "{failures:?}");
    assert!(seen.iter().all(|s| s.match_share < MIN_SHARE));

    // An edge marker for a body in view, and none for one off it.
    let mut marks = on_screen.clone();
    marks.marker[3] = true;
    let (_, failures) = view_check::check(&right, &lab, &view, &marks);
    assert_eq!(failures.len(), 1);
    assert!(failures[0].contains("edge marker"), "{failures:?}");

    // The fit of the first frame's layout, kept when the panels moved (the
    // presenter-mode bug): the rack is off the view, which was still "fitted".
    let mut stale = view.clone();
    stale.center += DVec2::new(0.45, 0.0);
    let marks = OnScreen {
        marker: (0..11).map(|b| !stale.rect.contains(stale.to_screen(lab.position(b)))).collect(),
        covered: vec![false; 11],
        overlays: Vec::new(),
        magnifier: None,
    };
    let (_, failures) = view_check::check(&paint(&lab, &stale, (1600, 900), Vec2::ZERO), &lab, &stale, &marks);
    assert!(!failures.is_empty() && failures.iter().all(|f| f.contains("off the view fitted")), "{failures:?}");

    // Something drawn over the box the view was fitted to (issue 37): the
    // legend on the rack fails, in the band below it passes.
    let focus = view.fitted_rect().expect("a fitted view");
    let mut over = on_screen.clone();
    over.overlays.push(("the legend".into(), Rect::from_center_size(focus.center(), Vec2::new(200.0, 50.0))));
    let (_, failures) = view_check::check(&right, &lab, &view, &over);
    assert!(failures.len() == 1 && failures[0].starts_with("the legend covers the scene's focus"), "{failures:?}");
    let mut below = on_screen.clone();
    below
        .overlays
        .push(("the legend".into(), Rect::new(focus.min.x, focus.max.y + 3.0, focus.max.x, focus.max.y + 60.0)));
    let (_, failures) = view_check::check(&right, &lab, &view, &below);
    assert!(failures.is_empty(), "{failures:?}");

    // The magnifier may go over the focus (issue 47) but not past the view,
    // over a panel, nor over the contact it shows.
    let contact = view.to_screen(lab.position(0));
    let in_view = Rect::from_corners(view.rect.min + Vec2::splat(10.0), view.rect.min + Vec2::new(160.0, 250.0));
    for (frame, fails) in [
        (in_view, None),
        (in_view.union(Rect::from_center_size(focus.center(), Vec2::ONE)), None),
        (
            Rect::from_corners(view.rect.max - Vec2::new(100.0, 260.0), view.rect.max + Vec2::new(60.0, 0.0)),
            Some("over a panel"),
        ),
        (Rect::from_center_size(contact, Vec2::new(150.0, 210.0)), Some("covers the contact")),
    ] {
        let mut with = on_screen.clone();
        with.magnifier = Some((frame, contact));
        let (_, failures) = view_check::check(&right, &lab, &view, &with);
        match fails {
            None => assert!(failures.is_empty(), "{frame:?}: {failures:?}"),
            Some(why) => assert!(failures.len() == 1 && failures[0].contains(why), "{frame:?}: {failures:?}"),
        }
    }
}
