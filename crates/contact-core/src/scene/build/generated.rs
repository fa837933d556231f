//! Generated rows: one inequality per wall and ball (`g = n·p − c − r |n| ≥ 0`,
//! eq. 7) or corner of a box or a polygon, one per pair of balls (`g = ℓ − r_a − r_b ≥ 0`), either every one as
//! a fixed row, as the paper writes them, or only those a broad phase finds
//! near, when they would be too many (see [`crate::contacts`]).

use super::bodies::Bodies;
use super::constraints::Constraints;
use super::ctx::{Ctx, Result};
use crate::contacts::{ConstraintKey, ContactGenerator, PROXIMITY_ABOVE, Wall};
use crate::model::{Model, State};
use crate::scene::Overrides;
use crate::scene::schema::SceneFile;

/// The walls and the balls that meet them and each other, and whether their
/// rows come by proximity.
pub(super) fn generator(
    cx: &Ctx,
    file: &SceneFile,
    bodies: &Bodies,
    ov: &Overrides,
) -> Result<(ContactGenerator, bool)> {
    let mut walls = Vec::new();
    for (w, wall) in file.walls.iter().enumerate() {
        let path = format!("walls[{w}]");
        cx.name(&format!("{path}.name"), &wall.name)?;
        let n = cx.finite2(&format!("{path}.normal"), wall.normal)?;
        if n.norm() == 0.0 {
            return Err(cx.err(&format!("{path}.normal"), "the normal must not be (0, 0)"));
        }
        let offset = cx.finite(&format!("{path}.offset"), wall.offset)?;
        let restitution = cx.restitution(&format!("{path}.restitution"), wall.restitution)?;
        let friction = cx.friction(&format!("{path}.friction"), wall.friction)?;
        let rolling = cx.rolling(&format!("{path}.rolling"), wall.rolling, friction)?;
        walls.push(Wall { name: wall.name.clone(), normal: n, offset, restitution, friction, rolling });
    }
    let wall_bodies: Vec<usize> = (0..bodies.bodies.len()).filter(|&i| bodies.info[i].walls).collect();
    let pair_bodies: Vec<usize> =
        if file.ball_pairs { (0..bodies.bodies.len()).filter(|&i| bodies.info[i].pairs).collect() } else { Vec::new() };
    let min_radius =
        pair_bodies.iter().chain(&wall_bodies).map(|&i| bodies.bodies[i].radius).fold(f64::INFINITY, f64::min);
    // Boxes and polygons meet each other corner against edge when the file
    // asks for contacts between bodies (`ball_pairs`).
    let shape_bodies: Vec<usize> = if file.ball_pairs {
        (0..bodies.bodies.len()).filter(|&i| bodies.bodies[i].wall_points().len() > 1).collect()
    } else {
        Vec::new()
    };
    // Rows on a shape's edge hold only near the edge: with two shapes, or a
    // shape and a ball or a disc, contacts come by proximity.
    let shapes = shape_bodies.len() > 1 || (!shape_bodies.is_empty() && !pair_bodies.is_empty());
    let generator = ContactGenerator {
        shape_bodies,
        walls,
        wall_bodies,
        points: bodies.bodies.iter().map(|b| b.wall_points()).collect(),
        pair_bodies,
        pair_restitution: cx.restitution("ball_pair_restitution", file.ball_pair_restitution)?,
        pair_friction: cx.friction("pair_friction", file.pair_friction)?,
        pair_rolling: cx.rolling("pair_rolling", file.pair_rolling, file.pair_friction)?,
        // Half the smallest radius, or 1 cm in the scene's units (issue 36:
        // a scene of millimetre boxes had a margin of ten of its boxes).
        margin: if min_radius.is_finite() && min_radius > 0.0 {
            0.5 * min_radius
        } else {
            file.solver.units.length(0.01)
        },
        explicit: 0,
        keys: Vec::new(),
        version: 0,
    };
    let proximity =
        generator.potential() > 0 && (shapes || ov.proximity.unwrap_or(generator.potential() > PROXIMITY_ABOVE));
    Ok((generator, proximity))
}

/// Every generated constraint as a fixed row, after the explicit ones.
pub(super) fn push_fixed_rows(
    cx: &Ctx,
    generator: &ContactGenerator,
    bodies: &Bodies,
    cons: &mut Constraints,
) -> Result<()> {
    for w in 0..generator.walls.len() {
        let path = format!("walls[{w}]");
        for &b in &generator.wall_bodies {
            for point in 0..generator.points[b].len() {
                let c = generator.constraint(&bodies.bodies, ConstraintKey::Wall { wall: w, body: b, point });
                cons.push(cx, &path, &format!("{path}.name"), c)?;
            }
        }
    }
    for (x, &a) in generator.pair_bodies.iter().enumerate() {
        for &b in &generator.pair_bodies[x + 1..] {
            if !bodies.bodies[a].is_dynamic() && !bodies.bodies[b].is_dynamic() {
                continue;
            }
            let c = generator.constraint(&bodies.bodies, ConstraintKey::Pair { a, b });
            cons.push(cx, "ball_pairs", "ball_pairs", c)?;
        }
    }
    Ok(())
}

/// The model with contacts by proximity: the rows near at the start, after the
/// explicit ones, each with the path of the text it comes from in `paths`.
pub(super) fn with_proximity_rows(
    model: Model,
    generator: ContactGenerator,
    state: &State,
    paths: &mut Vec<String>,
) -> Model {
    let margin = generator.margin;
    let mut model = model.with_contacts(generator);
    let g = model.contacts.as_ref().expect("just set");
    let keys = g.candidates(&model.bodies, state, margin, &[]);
    paths.extend(keys.iter().map(|k| match k {
        ConstraintKey::Wall { wall, .. } => format!("walls[{wall}]"),
        ConstraintKey::Pair { .. } | ConstraintKey::Corner { .. } | ConstraintKey::CornerDisc { .. } => {
            "ball_pairs".to_string()
        }
    }));
    model.set_contact_rows(keys);
    model
}
