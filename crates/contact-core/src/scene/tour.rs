//! Guided tours: a short sequence of steps, each a scene to load with an
//! algorithm, a sentence or two, and what to look at. The app's Tour panel
//! (`contact-lab --tour [FILE]`) reads them; a teacher writes their own without
//! touching code. A tour file looks like this (see `docs/scenes.md`):
//!
//! ```ron
//! Tour(
//!     title: "The art to keep in touch",
//!     steps: [
//!         (
//!             title: "Figure 1: a particle in a wedge",
//!             scene: "../scenes/wedge.ron",
//!             algorithm: Right,
//!             text: "The particle slides along the floor with ẍ = 1.",
//!             look: ["Plot “Acceleration along y”: ÿ = 0.", "Table: g2 handled, λ = 1."],
//!             // Play the first 20 ms at 1/20 of real time, then stop there.
//!             opening: (speed: 0.05, pause_at: 0.02, plot_window: 0.02),
//!         ),
//!     ],
//! )
//! ```
//!
//! Scene paths are relative to the tour file. [`load`] checks every field and
//! loads every step's scene, so a broken tour (or a broken scene it names) is a
//! [`SceneError`] with the file, line, column and field, like a broken scene.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::build::Ctx;
use super::schema::OpeningSpec;
use super::{Opening, Overrides, SceneError};
use crate::choice::Algorithm;

/// A checked tour.
#[derive(Clone, Debug, PartialEq)]
pub struct Tour {
    pub title: String,
    /// A paragraph shown above the steps.
    pub description: String,
    pub steps: Vec<TourStep>,
}

/// One stop of a tour.
#[derive(Clone, Debug, PartialEq)]
pub struct TourStep {
    pub title: String,
    /// The scene file, resolved against the tour file's directory.
    pub scene: PathBuf,
    /// The algorithm to select (default: the scene's).
    pub algorithm: Option<Algorithm>,
    /// The number of balls of a scene with a `ball_pile`.
    pub balls: Option<usize>,
    /// A sentence or two: what happens and why.
    pub text: String,
    /// What to look at: which plot, which row of the table, which tab.
    pub look: Vec<String>,
    /// How the step opens (it replaces the scene's own `opening`): where what
    /// it names is on screen.
    pub opening: Option<Opening>,
    /// Whether the cue opens armed (default: the scene's `cue`): a step that
    /// says "drag a ball" wants the mouse's spring, not a shot.
    pub cue: Option<bool>,
}

impl TourStep {
    /// The overrides the step's scene is loaded with.
    pub fn overrides(&self) -> Overrides {
        Overrides { balls: self.balls, ..Default::default() }
    }

    /// The step's scene as the step opens it: loaded with its overrides, its
    /// algorithm selected, its opening in place of the scene's.
    pub fn load(&self) -> Result<super::Scene, SceneError> {
        let mut scene = super::load(&self.scene, &self.overrides())?;
        if let Some(a) = self.algorithm {
            scene.world.settings.algorithm = a;
        }
        if let Some(o) = self.opening {
            scene.opening = o;
        }
        if let Some(c) = self.cue {
            scene.cue = c;
        }
        Ok(scene)
    }
}

/// The file as written.
#[derive(Debug, Deserialize)]
#[serde(rename = "Tour", deny_unknown_fields)]
struct TourFile {
    title: String,
    #[serde(default)]
    description: String,
    steps: Vec<StepSpec>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct StepSpec {
    title: String,
    scene: String,
    #[serde(default)]
    algorithm: Option<Algorithm>,
    #[serde(default)]
    balls: Option<usize>,
    text: String,
    #[serde(default)]
    look: Vec<String>,
    #[serde(default)]
    opening: Option<OpeningSpec>,
    #[serde(default)]
    cue: Option<bool>,
}

/// Reads and checks the tour at `path`, and loads each step's scene.
pub fn load(path: &Path) -> Result<Tour, SceneError> {
    let (text, origin) = super::read(path, "tour")?;
    parse(&text, &origin, path.parent().unwrap_or(Path::new(".")))
}

/// Parses and checks a tour from its text; `origin` names it in errors and
/// scene paths are resolved against `dir`.
pub fn parse(text: &str, origin: &str, dir: &Path) -> Result<Tour, SceneError> {
    let (file, locator) = super::from_ron::<TourFile>(text, origin)?;
    let cx = Ctx { origin, locator: &locator };
    if file.title.trim().is_empty() {
        return Err(cx.err("title", "the tour needs a title"));
    }
    if file.steps.is_empty() {
        return Err(cx.err("steps", "a tour needs at least one step"));
    }
    let mut steps = Vec::with_capacity(file.steps.len());
    for (i, s) in file.steps.into_iter().enumerate() {
        let at = |field: &str| format!("steps[{i}].{field}");
        if s.title.trim().is_empty() {
            return Err(cx.err(&at("title"), "a step needs a title"));
        }
        if s.text.trim().is_empty() {
            return Err(cx.err(&at("text"), "a step needs a sentence or two of text"));
        }
        if let Some(k) = s.look.iter().position(|l| l.trim().is_empty()) {
            return Err(cx.err(&format!("steps[{i}].look[{k}]"), "an empty line of what to look at"));
        }
        let scene = normalize(&dir.join(&s.scene));
        let opening = match &s.opening {
            Some(o) => Some(super::build::opening(&cx, &at("opening"), Some(o))?),
            None => None,
        };
        let step = TourStep {
            title: s.title,
            scene,
            algorithm: s.algorithm,
            balls: s.balls,
            text: s.text,
            look: s.look,
            opening,
            cue: s.cue,
        };
        // The step's scene must load: its own error, reported at this step.
        if let Err(e) = super::load(&step.scene, &step.overrides()) {
            let (field, message) = if !step.scene.is_file() {
                ("scene", format!("no scene file `{}` (paths are relative to the tour file)", step.scene.display()))
            } else {
                (if step.balls.is_some() { "balls" } else { "scene" }, format!("the scene does not load: {e}"))
            };
            return Err(cx.err(&at(field), message));
        }
        steps.push(step);
    }
    Ok(Tour { title: file.title, description: file.description, steps })
}

/// `a/b/../c/./d` → `a/c/d`, without touching the file system (a scene path
/// written relative to the tour file reads as the same file the picker opens).
fn normalize(p: &Path) -> PathBuf {
    use std::path::Component;
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir if matches!(out.components().next_back(), Some(Component::Normal(_))) => {
                out.pop();
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scenes() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/scenes")
    }

    fn parse_err(text: &str) -> SceneError {
        parse(text, "t.ron", &scenes()).expect_err("should fail")
    }

    #[test]
    fn a_minimal_tour_parses_and_resolves_its_scene() {
        let t = parse(
            r#"Tour(title: "T", steps: [(title: "A", scene: "wedge.ron", algorithm: Platt, text: "x", look: ["y"])])"#,
            "t.ron",
            &scenes(),
        )
        .expect("parses");
        assert_eq!(t.steps.len(), 1);
        assert_eq!(t.steps[0].algorithm, Some(Algorithm::Platt));
        assert!(t.steps[0].scene.ends_with("assets/scenes/wedge.ron"));
        assert!(!t.steps[0].scene.components().any(|c| c == std::path::Component::ParentDir));
    }

    #[test]
    fn errors_name_line_column_and_field() {
        let e = parse_err(
            "Tour(\n  title: \"T\",\n  steps: [\n    (title: \"A\", scene: \"nope.ron\", text: \"x\"),\n  ],\n)",
        );
        assert_eq!((e.line, e.field.as_deref()), (Some(4), Some("steps[0].scene")), "{e}");
        assert!(e.message.contains("no scene file"), "{e}");

        let e = parse_err(
            "Tour(\n  title: \"T\",\n  steps: [\n    (title: \"A\", scene: \"wedge.ron\", txt: \"x\"),\n  ],\n)",
        );
        assert_eq!(e.line, Some(4), "{e}");
        assert!(e.message.contains("unknown field `txt`"), "{e}");

        let e = parse_err(
            "Tour(title: \"T\", steps: [(title: \"A\", scene: \"wedge.ron\", algorithm: Best, text: \"x\")])",
        );
        assert!(e.message.contains("Best") && e.field.as_deref() == Some("steps[0].algorithm"), "{e}");

        let e = parse_err("Tour(title: \"T\", steps: [])");
        assert_eq!(e.field.as_deref(), Some("steps"), "{e}");

        // A scene that exists but does not take the override: the scene's own message.
        let e = parse_err("Tour(title: \"T\", steps: [(title: \"A\", scene: \"wedge.ron\", balls: 3, text: \"x\")])");
        assert_eq!(e.field.as_deref(), Some("steps[0].balls"), "{e}");
        assert!(e.message.contains("the scene does not load"), "{e}");
    }
}
