//! A wall's fields: its line (`normal`, `offset`), its restitution, its
//! friction and its rolling resistance.

use contact_core::scene::SceneDoc;

use super::{Field, SOLVERS_E, Typed, mu, num, opt, rolling, text};

/// Wall `name`'s fields, and its kind.
pub(super) fn fields(doc: &SceneDoc, name: &str) -> Option<(&'static str, Vec<Field>)> {
    let w = doc.wall(name)?;
    let fields = vec![
        text("name", &w.name),
        num("normal.x", w.normal.0),
        num("normal.y", w.normal.1),
        num("offset", w.offset),
        opt("restitution", w.restitution, SOLVERS_E),
        mu("friction", w.friction),
        rolling("rolling", w.rolling),
    ];
    Some(("wall", fields))
}

/// Sets wall `wall`'s field `label` to `v`.
pub(super) fn set(next: &mut SceneDoc, wall: &str, label: &str, v: &Typed) -> Result<(), String> {
    let w = next.wall_mut(wall).ok_or("the wall is gone")?;
    match label {
        "normal.x" => w.normal.0 = v.number()?,
        "normal.y" => w.normal.1 = v.number()?,
        "offset" => w.offset = v.number()?,
        "restitution" => w.restitution = v.optional()?,
        "friction" => w.friction = v.mu()?,
        "rolling" => w.rolling = v.mu()?,
        _ => return Err(v.bad()),
    }
    Ok(())
}
