//! The ball pile: a `ball_pile` block (or `--balls`) becomes balls on a grid,
//! rows staggered, named `PREFIX1`, `PREFIX2`, …; with `turning`, discs that
//! turn (`x`, `y`, `θ`, uniform: `I = m r²/2`).

use nalgebra::Vector2;

use super::bodies::{Bodies, BodyInfo, new_body};
use super::ctx::{Ctx, Result};
use crate::body::BodyKind;
use crate::scene::schema::BallPileSpec;
use crate::shapes::Shape;

/// The most balls a `ball_pile` may have (`count` or `--balls`): ten times the
/// lab's largest runs. A typo such as `count: 300000` would otherwise take
/// minutes to load (the overlap check is quadratic) or all the memory.
const MAX_PILE_BALLS: usize = 10_000;

/// The balls of a `ball_pile` block, on its grid.
pub(super) fn add_pile(cx: &Ctx, out: &mut Bodies, pile: &BallPileSpec, count: usize) -> Result<()> {
    let f = |field: &str| format!("ball_pile.{field}");
    if count > MAX_PILE_BALLS {
        return Err(cx.err(&f("count"), format!("{count} balls is more than a pile may have ({MAX_PILE_BALLS})")));
    }
    let r = cx.positive(&f("radius"), pile.radius, "radius")?;
    cx.positive(&f("mass"), pile.mass, "mass")?;
    cx.non_negative(&f("damping"), pile.damping, "damping")?;
    let first = cx.place(&f("first"), pile.first)?;
    let v = cx.finite2(&f("velocity"), pile.velocity)?;
    let spacing = cx.positive(&f("spacing"), pile.spacing, "spacing")?;
    let stagger = cx.finite(&f("stagger"), pile.stagger)?;
    if pile.columns == 0 {
        return Err(cx.err(&f("columns"), "columns must be at least 1"));
    }
    if spacing < 2.0 * r {
        return Err(cx.err(
            &f("spacing"),
            format!("spacing {spacing} is less than a diameter ({}): the pile's balls would overlap", 2.0 * r),
        ));
    }
    for i in 0..count {
        let (row, col) = (i / pile.columns, i % pile.columns);
        let shift = if row % 2 == 1 { stagger } else { 0.0 };
        let p = first + Vector2::new(col as f64 * spacing + shift, row as f64 * spacing);
        let name = format!("{}{}", pile.prefix, i + 1);
        let info = BodyInfo { path: "ball_pile".into(), walls: true, pairs: true };
        if pile.turning {
            let shape = Shape::Disc { radius: r };
            let kind = BodyKind::Rigid { inertia: pile.mass * shape.inertia_per_kg(), shape };
            let body = new_body(&name, kind, pile.mass, r, Vector2::zeros(), pile.damping);
            out.push(cx, &f("prefix"), body, info, &[p.x, p.y, 0.0], &[v.x, v.y, 0.0])?;
        } else {
            let body = new_body(&name, BodyKind::Particle, pile.mass, r, Vector2::zeros(), pile.damping);
            out.push(cx, &f("prefix"), body, info, &[p.x, p.y], &[v.x, v.y])?;
        }
    }
    Ok(())
}
