//! Errors of the RON parser itself (a missing field, an unknown variant, a
//! misplaced comma) as [`SceneError`]s with the field they happened in, found
//! by the scan of [`crate::scene::spans`].

use crate::scene::SceneError;
use crate::scene::spans::{Locator, Pos};

/// Turns a RON error into a [`SceneError`] with the field it happened in.
pub fn ron_error(e: &ron::error::SpannedError, origin: &str, loc: &Locator) -> SceneError {
    use ron::error::Error as E;
    let start = Pos { line: e.span.start.line, col: e.span.start.col };
    let end = Pos { line: e.span.end.line, col: e.span.end.col };
    // The deeper of the values enclosing either end of the error's span. The top
    // level is a struct: a path that starts with an index means the scan lost
    // its way in the broken text (after an unterminated string) and names nothing.
    let enclosing = [loc.path_at(start), loc.path_at(end)]
        .into_iter()
        .flatten()
        .filter(|p| !p.starts_with('['))
        .max_by_key(|p| p.len())
        .map(str::to_string);
    let join = |field: &str| match &enclosing {
        Some(p) if p.rsplit(['.', '[']).next() == Some(field) => p.clone(),
        Some(p) => format!("{p}.{field}"),
        None => field.to_string(),
    };
    let (field, message) = match &e.code {
        // Some editors save one; RON does not skip it.
        _ if loc.starts_with_bom() && start == (Pos { line: 1, col: 1 }) => {
            (None, "the file starts with a byte-order mark (U+FEFF): save it as UTF-8 without one".into())
        }
        // At the closing `)` of the struct that lacks it.
        E::MissingStructField { field, outer } => {
            (Some(join(field)), format!("missing field `{field}`{}", in_outer(outer)))
        }
        // At the unknown key.
        E::NoSuchStructField { expected, found, outer } => (
            Some(join(found)),
            format!("unknown field `{found}`{}; expected one of: {}", in_outer(outer), expected.join(", ")),
        ),
        E::DuplicateStructField { field, outer } => {
            (Some(join(field)), format!("field `{field}` is given twice{}", in_outer(outer)))
        }
        E::NoSuchEnumVariant { expected, found, outer } => (
            enclosing,
            format!(
                "unknown {} `{found}`; expected one of: {}",
                outer.as_deref().map_or("variant", type_label),
                expected.join(", ")
            ),
        ),
        E::ExpectedFloat | E::ExpectedInteger => (enclosing, "expected a number".into()),
        E::ExpectedString => (enclosing, "expected a string in double quotes".into()),
        E::ExpectedBoolean => (enclosing, "expected `true` or `false`".into()),
        E::ExpectedIdentifier => {
            (enclosing, "expected a field name or a value (is a bracket missing or a comma misplaced?)".into())
        }
        other => (enclosing, lowercase_first(&other.to_string())),
    };
    SceneError { file: origin.to_string(), line: Some(start.line), column: Some(start.col), field, message }
}

/// `Expected comma` → `expected comma`, like the other messages.
fn lowercase_first(s: &str) -> String {
    let mut c = s.chars();
    c.next().map(|f| f.to_lowercase().chain(c).collect()).unwrap_or_default()
}

/// The schema's type names as a reader of the file knows them.
fn type_label(rust: &str) -> &str {
    match rust {
        "BodySpec" => "body kind",
        "ConstraintSpec" => "constraint kind",
        "Curve" => "curve",
        "Algorithm" => "algorithm",
        "ImpulseMode" => "impulse mode",
        "Integrator" => "integrator",
        "SolverSpec" => "solver",
        "WallSpec" => "wall",
        "BallPileSpec" => "ball_pile",
        "ViewSpec" => "view",
        "PlotSpec" => "plot",
        other => other,
    }
}

fn in_outer(outer: &Option<String>) -> String {
    outer.as_deref().map(|o| format!(" in `{}`", type_label(o))).unwrap_or_default()
}
