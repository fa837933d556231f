//! The polygon tool: click the corners one by one; a click on the first
//! corner again, or Enter, closes the outline, Escape cancels it. The
//! corners are made counterclockwise (reversed if clicked clockwise), the
//! body's position is their centroid and its vertices are written around
//! it. A non-convex or degenerate outline is the scene's checks to refuse,
//! with their own message naming `vertices`.

use bevy::math::DVec2;
use bevy::prelude::KeyCode;
use contact_core::scene::schema::BodySpec;

use super::{Cx, MASS, Made, Mark, Pending, Step, UnitTool};

/// How near the first corner (in picks' slacks) a click closes the outline.
const CLOSE: f64 = 1.5;

pub(super) struct PolygonTool;

impl UnitTool for PolygonTool {
    fn label(&self) -> &'static str {
        "polygon"
    }

    fn hint(&self) -> &'static str {
        "click the corners (a convex outline); the first corner again or Enter closes it, Escape cancels; 1 kg"
    }

    fn key(&self) -> KeyCode {
        KeyCode::KeyY
    }

    fn press(&self, cx: &Cx, pending: Option<Pending>, w: DVec2) -> Step {
        let w = cx.snap(w);
        let Some(mut p) = pending else { return Step::Keep(Pending::at(w)) };
        let near = |q: DVec2| (q - w).length() <= CLOSE * cx.slack;
        if near(p.points[0]) {
            return self.enter(cx, p);
        }
        // A second click on the last corner (a double click) adds nothing.
        if !p.points.last().is_some_and(|&q| near(q)) {
            p.points.push(w);
        }
        Step::Keep(p)
    }

    /// The corners are clicks: the button up changes nothing.
    fn release(&self, _: &Cx, pending: Pending, _: DVec2) -> Step {
        Step::Keep(pending)
    }

    fn enter(&self, cx: &Cx, pending: Pending) -> Step {
        Step::Make(Made::body(polygon(cx.doc.fresh_name("polygon"), &pending.points)))
    }

    fn sketch(&self, cx: &Cx, pending: &Pending) -> Vec<Mark> {
        let (v, to) = (&pending.points, cx.snap(pending.to));
        let mut marks: Vec<Mark> = v.windows(2).map(|e| Mark::Line(e[0], e[1])).collect();
        marks.extend(v.iter().map(|&q| Mark::Dot(q)));
        let last = *v.last().expect("a corner");
        marks.push(Mark::Dashed(last, to));
        if v.len() >= 2 {
            // Where a click on the first corner closes it.
            marks.push(Mark::Dashed(to, v[0]));
            marks.push(Mark::Circle(v[0], CLOSE * cx.slack));
        }
        marks
    }
}

/// The polygon with corners `corners` (world, m, clicked in either order):
/// counterclockwise, its position their centroid (the first corner if they
/// enclose no area), 1 kg, at rest.
fn polygon(name: String, corners: &[DVec2]) -> BodySpec {
    let mut v = corners.to_vec();
    let o = v[0];
    // Twice the signed area and the centroid, about the first corner (round-off).
    let edges = || (0..v.len()).map(|i| (v[i] - o, v[(i + 1) % v.len()] - o));
    let twice: f64 = edges().map(|(a, b)| a.perp_dot(b)).sum();
    let centre =
        if twice != 0.0 { o + edges().map(|(a, b)| (a + b) * a.perp_dot(b)).sum::<DVec2>() / (3.0 * twice) } else { o };
    if twice < 0.0 {
        v.reverse();
    }
    let vertices = v.iter().map(|q| nalgebra::Vector2::new(q.x - centre.x, q.y - centre.y)).collect();
    BodySpec::at_rest(name, (centre.x, centre.y), MASS, contact_core::Shape::Polygon { vertices })
}

#[cfg(test)]
mod tests {
    use super::super::testing::{apply, editor, empty, p, play};
    use super::*;

    fn clicks(points: &[DVec2]) -> Vec<(DVec2, DVec2)> {
        points.iter().map(|&q| (q, q)).collect()
    }

    /// Corners clicked clockwise, closed on the first one, become a polygon
    /// counterclockwise around its centroid, which is its position; it loads.
    #[test]
    fn clockwise_clicks_make_a_counterclockwise_polygon() {
        let (mut doc, world) = empty();
        let square = [p(0.0, 0.5), p(0.4, 0.5), p(0.4, 0.1), p(0.0, 0.1)];
        let mut drags = clicks(&square);
        drags.push((p(0.001, 0.5), p(0.001, 0.5)));
        let step = play(&PolygonTool, &doc, &world, &drags);
        let Step::Make(made) = &step else { panic!("{step:?}") };
        let Some(BodySpec::Polygon { name, position, vertices, .. }) = made.bodies.first() else { panic!("{made:?}") };
        assert_eq!(name, "polygon1");
        assert!((position.0 - 0.2).abs() < 1e-12 && (position.1 - 0.3).abs() < 1e-12, "{position:?}");
        assert_eq!(vertices.len(), 4);
        let twice: f64 = (0..4)
            .map(|i| {
                let (a, b) = (vertices[i], vertices[(i + 1) % 4]);
                a.0 * b.1 - a.1 * b.0
            })
            .sum();
        assert!((twice - 2.0 * 0.16).abs() < 1e-12, "counterclockwise, area 0.16 m²: {vertices:?}");
        // The clicked corners, in the reverse order, around the centroid.
        for (v, c) in vertices.iter().zip(square.iter().rev()) {
            assert!((v.0 + 0.2 - c.x).abs() < 1e-12 && (v.1 + 0.3 - c.y).abs() < 1e-12, "{v:?} for {c:?}");
        }
        apply(step, &mut doc).expect("the polygon loads");
    }

    /// Counterclockwise clicks stay in their order; Enter closes the outline.
    #[test]
    fn enter_closes_the_outline_as_clicked() {
        let (doc, world) = empty();
        let triangle = [p(0.0, 0.2), p(0.3, 0.2), p(0.0, 0.5)];
        let Step::Keep(pending) = play(&PolygonTool, &doc, &world, &clicks(&triangle)) else { panic!("closed early") };
        let ed = editor(&doc);
        let cx = Cx { world: &world, doc: &doc, ed: &ed, slack: 0.01 };
        let Step::Make(made) = PolygonTool.enter(&cx, pending) else { panic!("not closed") };
        let BodySpec::Polygon { position, vertices, .. } = &made.bodies[0] else { panic!() };
        let back: Vec<(f64, f64)> = vertices.iter().map(|v| (v.0 + position.0, v.1 + position.1)).collect();
        for (b, t) in back.iter().zip(triangle) {
            assert!((b.0 - t.x).abs() < 1e-12 && (b.1 - t.y).abs() < 1e-12, "{back:?}");
        }
    }

    /// A non-convex outline is refused by the scene's checks, naming `vertices`.
    #[test]
    fn a_non_convex_outline_is_refused_naming_vertices() {
        let (mut doc, world) = empty();
        let dart = [p(0.0, 0.1), p(0.4, 0.1), p(0.2, 0.2), p(0.2, 0.5), p(0.0, 0.1)];
        let step = play(&PolygonTool, &doc, &world, &clicks(&dart));
        let e = apply(step, &mut doc).expect_err("a dart is not convex");
        assert!(e.field.as_deref().is_some_and(|f| f.ends_with("vertices")), "{e:?}");
        assert!(e.message.contains("not convex"), "{e}");
        // Said in plain words at the cursor, the check's message as the detail.
        let said = crate::app::edit::refusal::refusal(&e);
        assert!(said.words.contains("not be convex") && said.detail.contains("vertices"), "{said}");
        assert!(doc.body("polygon1").is_none(), "the document stays as it was");
    }

    /// Two corners (closed on the first) are refused as the file would be.
    #[test]
    fn two_corners_are_refused_with_the_checks_own_message() {
        let (mut doc, world) = empty();
        let step = play(&PolygonTool, &doc, &world, &clicks(&[p(0.0, 0.1), p(0.4, 0.1), p(0.0, 0.1)]));
        let e = apply(step, &mut doc).expect_err("a polygon needs three corners");
        assert!(e.field.as_deref().is_some_and(|f| f.ends_with("vertices")), "{e:?}");
        assert!(e.message.contains("at least three"), "{e}");
    }
}
