//! Constraints named by what a person sees (issue 37): a generated contact's
//! technical name, `floor:box[2]` or `box[0]-step[2]`, says which corner by
//! its index; the banner, the table and the labels say "box's lower-left
//! corner on floor" instead, from where the corner is now, with the
//! technical name in a tooltip. A name the scene's author wrote
//! (`sticks-left`) is theirs and is kept.

use contact_core::{Geometry, World};
use nalgebra::Vector2;

/// Constraint `k` as a person names it (see the module docs).
pub fn seen_name(world: &World, names: &[String], bodies: &[String], k: usize) -> String {
    let technical = names.get(k).cloned().unwrap_or_else(|| format!("#{k}"));
    let Some(c) = world.model.constraints.get(k) else { return technical };
    let body = |b: usize| bodies.get(b).cloned().unwrap_or_else(|| format!("#{b}"));
    let generated = technical.contains(':') || technical.contains('[');
    match c.geometry {
        Geometry::HalfPlane { body: b, at, .. } if generated => {
            let wall = technical.split(':').next().unwrap_or("the wall");
            format!("{}{} on {wall}", body(b), corner(world, b, at))
        }
        Geometry::CornerEdge { a, at, b, .. } if generated => {
            format!("{}{} on {}", body(a), corner(world, a, at), body(b))
        }
        Geometry::CornerDisc { a, at, disc } if generated => {
            format!("{}{} on {}", body(a), corner(world, a, at), body(disc))
        }
        _ => technical,
    }
}

/// "'s lower-left corner" for the point `at` of body `b` (its own frame),
/// from where it is now around the body's reference point; "" for the
/// reference point itself.
fn corner(world: &World, b: usize, at: Vector2<f64>) -> String {
    let Some(body) = world.model.bodies.get(b) else { return String::new() };
    if at.norm() < 1e-12 {
        return String::new();
    }
    let (q, qd) = (&world.state.q, vec![0.0; world.state.q.len()]);
    let d = body.kinematics_at(at, q, &qd).p - body.kinematics(q, &qd).p;
    let tol = 0.2 * d.norm();
    // The side `x` lies on, past `tol` either way.
    let side = |x: f64, below: &'static str, above: &'static str| {
        if x < -tol {
            Some(below)
        } else if x > tol {
            Some(above)
        } else {
            None
        }
    };
    let (vertical, horizontal) = (side(d.y, "lower", "upper"), side(d.x, "left", "right"));
    let side = match (vertical, horizontal) {
        (Some(v), Some(h)) => format!("{v}-{h}"),
        (Some(s), None) | (None, Some(s)) => s.to_string(),
        (None, None) => return String::new(),
    };
    format!("'s {side} corner")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn world(text: &str) -> (World, Vec<String>, Vec<String>) {
        let s = contact_core::scene::parse(text, "names.ron", &Default::default()).unwrap();
        let names = s.world.model.constraints.iter().map(|c| c.name.clone()).collect();
        let bodies = s.world.model.bodies.iter().map(|b| b.name.clone()).collect();
        (s.world, names, bodies)
    }

    /// A box on a floor, turned a quarter: its corners are named by where
    /// they are, not by their index; an author's name stays.
    #[test]
    fn corners_are_named_by_where_they_are() {
        let (w, names, bodies) = world(
            "Scene(name: \"n\", gravity: (0, -9.81), bodies: [
                Box(name: \"box\", position: (0, 0.1), size: (0.4, 0.2), mass: 1),
                Box(name: \"lid\", position: (0, 0.3), size: (0.2, 0.2), mass: 1),
            ], walls: [(name: \"floor\", normal: (0, 1))], ball_pairs: true,
            constraints: [HalfPlane(name: \"mine\", body: \"box\", normal: (1, 0), offset: -5, at: (-0.2, 0.1))])",
        );
        let seen: Vec<String> = (0..names.len()).map(|k| seen_name(&w, &names, &bodies, k)).collect();
        assert!(seen.iter().any(|s| s == "box's lower-left corner on floor"), "{seen:?}");
        assert!(seen.iter().any(|s| s == "box's lower-right corner on floor"), "{seen:?}");
        assert!(seen.iter().any(|s| s.starts_with("lid's lower-") && s.ends_with(" corner on box")), "{seen:?}");
        assert!(seen.iter().any(|s| s == "mine"), "{seen:?}");
        assert!(seen.iter().all(|s| !s.contains('[')), "{seen:?}");
    }
}
