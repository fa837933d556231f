//! An edit the scene's checks refused, said in plain words with the check's
//! own message (the field it names).

/// An edit the scene's checks refused: in plain words, and the check's own
/// message with the field it names.
#[derive(Clone, Debug, PartialEq)]
pub struct Refusal {
    pub words: String,
    pub detail: String,
}

impl Refusal {
    /// Seconds a refusal stays at the cursor.
    pub const SHOWN: f64 = 4.0;

    /// The inspector's refusal of field `label` (`error` names the file's field):
    /// the label and the reason in plain words, the error as the detail.
    pub fn of_field(label: &str, error: String) -> Refusal {
        let reason = error.rsplit_once("`: ").map_or(error.as_str(), |(_, r)| r).replace('`', "");
        Refusal { words: format!("{label}: {reason}"), detail: error }
    }
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({})", self.words, self.detail)
    }
}

pub(super) fn refusal(e: &contact_core::scene::SceneError) -> Refusal {
    let detail = match &e.field {
        Some(field) => format!("field `{field}`: {}", e.message),
        None => e.message.clone(),
    };
    let m = &e.message;
    let words = if m.contains("wrong side") {
        "Not there: it would start inside another body or beyond a wall".to_string()
    } else if m.contains("length does not match") {
        "Not so: the link's length would not match the distance of its bodies".to_string()
    } else if m.contains("do not meet it") {
        "Not there: the bodies would not meet this constraint at the start".to_string()
    } else if m.contains("is not convex") {
        // The polygon tool's outline: the message's first clause is a corner's coordinates.
        "Not allowed: the polygon would not be convex".to_string()
    } else {
        // The check's message without its backquotes, first clause only.
        let plain = m.replace('`', "");
        let first = plain.split(['(', ';']).next().unwrap_or(&plain).trim().to_string();
        format!("Not allowed: {first}")
    };
    Refusal { words, detail }
}
