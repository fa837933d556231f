//! The inspector's fields ([`crate::app::ui::editor`]): what each item of a
//! scene document shows, as text, and the document with one of them set.
//!
//! Labels are the scene file's field names (`position.x`, `curve.radius`,
//! `solver.dt`), so a refusal names the field as a file's would
//! (`bodies[2].mass`). A value that is not a number is refused here; the rest
//! by the file's own checks when the document is installed
//! ([`contact_core::scene::SceneDoc::check`]). Optional fields are blank when
//! unset; their hint says what blank means.
//!
//! This module has a field's text forms and the two ways in: [`fields_of`]
//! and [`with_field`]; what each item has is the file named for it: the
//! scene's and the solver's own fields ([`scene`]), a body's ([`body`], a
//! bead's curve and end stops in [`bead`]), a wall's ([`wall`]), a
//! constraint's ([`constraint`]).

mod bead;
mod body;
mod constraint;
mod scene;
mod wall;

pub use body::{fixed_of, with_fixed};
pub use scene::{scene_fields, solver_fields};

use contact_core::scene::document::constraint_name;
use contact_core::scene::{Item, SceneDoc};

/// One field of the inspector: its label (the file's field name), its text,
/// and what a blank means for an optional one.
pub struct Field {
    pub label: &'static str,
    pub value: String,
    pub hint: &'static str,
}

/// What a blank restitution means.
const SOLVERS_E: &str = "blank: the solver's e";

pub(super) fn num(label: &'static str, v: f64) -> Field {
    Field { label, value: short(v), hint: "" }
}

/// A number as the inspector shows it: six significant digits at most (a
/// box dragged to 0.7372881355932204 m shows 0.737288), -0 as 0. The file
/// keeps every digit: a field is written only when its text is changed.
pub fn short(v: f64) -> String {
    if v == 0.0 || !v.is_finite() {
        return if v == 0.0 { "0".into() } else { format!("{v}") };
    }
    let a = v.abs();
    let trim = |s: String| {
        if s.contains('.') { s.trim_end_matches('0').trim_end_matches('.').to_string() } else { s }
    };
    if (1e-3..1e6).contains(&a) {
        let decimals = (5 - a.log10().floor() as i32).max(0) as usize;
        trim(format!("{v:.decimals$}"))
    } else {
        let s = format!("{v:.5e}");
        let (m, e) = s.split_once('e').unwrap_or((&s, "0"));
        format!("{}e{e}", trim(m.to_string()))
    }
}

/// An optional number: blank when unset, `hint` says what blank means.
pub(super) fn opt(label: &'static str, v: Option<f64>, hint: &'static str) -> Field {
    Field { label, value: v.map_or(String::new(), short), hint }
}

/// A rolling resistance `μ_r`, blank when 0 (the bodies roll freely).
pub(super) fn rolling(label: &'static str, v: f64) -> Field {
    blank_at_zero(label, v, "blank: rolls freely (μ_r; needs μ > 0 and time-stepping)")
}

/// Coulomb's `μ`, blank when 0 (frictionless; only the Exact solver uses it).
pub(super) fn mu(label: &'static str, v: f64) -> Field {
    blank_at_zero(label, v, "blank: frictionless (Coulomb's μ; Exact only)")
}

/// A coefficient shown blank when 0, `hint` saying what blank means.
fn blank_at_zero(label: &'static str, v: f64, hint: &'static str) -> Field {
    Field { label, value: if v == 0.0 { String::new() } else { short(v) }, hint }
}

pub(super) fn text(label: &'static str, v: &str) -> Field {
    Field { label, value: v.to_string(), hint: "" }
}

/// Every field the scene format has for `item`, as text (numbers in the
/// shortest form that reads back to the same value), and its kind.
pub fn fields_of(doc: &SceneDoc, item: &Item) -> Option<(&'static str, Vec<Field>)> {
    match item {
        Item::Body(name) => body::fields(doc, name),
        Item::Wall(name) => wall::fields(doc, name),
        Item::Constraint(name) => constraint::fields(doc, name),
    }
}

/// A value typed in a field: its text as typed and trimmed, and the field's
/// path in the file (`bodies[2].mass`) that a refusal names.
struct Typed<'a> {
    path: &'a str,
    text: &'a str,
    t: &'a str,
}

impl Typed<'_> {
    fn number(&self) -> Result<f64, String> {
        self.t.parse::<f64>().map_err(|_| format!("field `{}`: `{}` is not a number", self.path, self.text))
    }

    /// Blank: unset.
    fn optional(&self) -> Result<Option<f64>, String> {
        if self.t.is_empty() { Ok(None) } else { self.number().map(Some) }
    }

    /// Coulomb's μ: blank is 0 (frictionless).
    fn mu(&self) -> Result<f64, String> {
        self.optional().map(|v| v.unwrap_or(0.0))
    }

    fn bad(&self) -> String {
        format!("field `{}`: not a field of this item", self.path)
    }
}

/// The document with field `label` of `item` (the scene's own for `None`)
/// set from `text`; a value that is not a number is refused here, the rest
/// by the file's checks.
pub fn with_field(doc: &SceneDoc, item: Option<&Item>, label: &str, text: &str) -> Result<SceneDoc, String> {
    let mut next = doc.clone();
    let path = match item {
        None => label.to_string(),
        Some(item) => {
            let (list, index) = match item {
                Item::Body(n) => ("bodies", doc.body_names().iter().position(|b| b == n)),
                Item::Wall(n) => ("walls", doc.file.walls.iter().position(|w| w.name == *n)),
                Item::Constraint(n) => {
                    ("constraints", doc.file.constraints.iter().position(|c| constraint_name(c) == *n))
                }
            };
            format!("{list}[{}].{label}", index.ok_or("it is gone")?)
        }
    };
    let v = Typed { path: &path, text, t: text.trim() };
    if label == "name" {
        if v.t.is_empty() {
            return Err(format!("field `{path}`: a name cannot be blank"));
        }
        match item {
            None => next.file.name = v.t.to_string(),
            Some(item) => next.rename(item, v.t),
        }
        return Ok(next);
    }
    match item {
        None => scene::set(&mut next.file, label, &v)?,
        Some(Item::Body(body)) => body::set(&mut next, body, label, &v)?,
        Some(Item::Wall(wall)) => wall::set(&mut next, wall, label, &v)?,
        Some(Item::Constraint(name)) => constraint::set(&mut next, name, label, &v)?,
    }
    Ok(next)
}

#[cfg(test)]
mod tests;
