//! Where errors point, and the checks every part of a scene file shares: a
//! finite number, a positive one, a restitution `e` in [0, 1] (the `e` of
//! `J_k q̇⁺ ≥ −e J_k q̇⁻`), a name fit for a series.
//!
//! The bottom of the builder: it imports none of its siblings.

use nalgebra::Vector2;

use crate::scene::SceneError;
use crate::scene::schema::Vec2;
use crate::scene::spans::Locator;

pub(super) type Result<T> = std::result::Result<T, SceneError>;

/// How far from the origin a body may be placed, in m. Beyond it a double
/// resolves a position to worse than 1e-10 m, coarser than the contact
/// tolerances (1e-12 m), and the broad phase's grid keys saturate: such a
/// place is refused with its field, not stepped wrongly.
pub const WORLD_EXTENT: f64 = 1e6;

/// Where errors point: the file's name and its value positions.
pub struct Ctx<'a> {
    pub origin: &'a str,
    pub locator: &'a Locator,
}

impl Ctx<'_> {
    /// An error about the field at `path`.
    pub(in crate::scene) fn err(&self, path: &str, message: impl Into<String>) -> SceneError {
        let pos = self.locator.locate(path);
        SceneError {
            file: self.origin.to_string(),
            line: pos.map(|p| p.line),
            column: pos.map(|p| p.col),
            field: (!path.is_empty()).then(|| path.to_string()),
            message: message.into(),
        }
    }

    pub(super) fn finite(&self, path: &str, v: f64) -> Result<f64> {
        if v.is_finite() { Ok(v) } else { Err(self.err(path, format!("must be a finite number, not {v}"))) }
    }

    pub(super) fn finite2(&self, path: &str, v: Vec2) -> Result<Vector2<f64>> {
        self.finite(&format!("{path}[0]"), v.0)?;
        self.finite(&format!("{path}[1]"), v.1)?;
        Ok(Vector2::new(v.0, v.1))
    }

    /// A place in the world: finite, and within [`WORLD_EXTENT`] of the origin
    /// in each coordinate.
    pub(super) fn place(&self, path: &str, v: Vec2) -> Result<Vector2<f64>> {
        let p = self.finite2(path, v)?;
        for (i, x) in [p.x, p.y].into_iter().enumerate() {
            if x.abs() > WORLD_EXTENT {
                return Err(self.err(
                    &format!("{path}[{i}]"),
                    format!("{x} m is outside the world (|x|, |y| ≤ {WORLD_EXTENT:e} m)"),
                ));
            }
        }
        Ok(p)
    }

    pub(super) fn positive(&self, path: &str, v: f64, what: &str) -> Result<f64> {
        self.finite(path, v)?;
        if v > 0.0 { Ok(v) } else { Err(self.err(path, format!("{what} must be positive, got {v}"))) }
    }

    pub(super) fn non_negative(&self, path: &str, v: f64, what: &str) -> Result<f64> {
        self.finite(path, v)?;
        if v >= 0.0 { Ok(v) } else { Err(self.err(path, format!("{what} must not be negative, got {v}"))) }
    }

    pub(super) fn restitution(&self, path: &str, e: Option<f64>) -> Result<Option<f64>> {
        match e {
            Some(e) if !(0.0..=1.0).contains(&e) => {
                Err(self.err(path, format!("restitution must be in [0, 1], got {e}")))
            }
            e => Ok(e),
        }
    }

    /// Coulomb's `μ`: finite and not negative.
    pub(super) fn friction(&self, path: &str, mu: f64) -> Result<f64> {
        self.non_negative(path, mu, "friction (Coulomb's μ)")
    }

    /// Rolling resistance `μ_r` at `path`, beside Coulomb's `mu` (the torque
    /// acts through the contact's friction: a smooth contact cannot resist
    /// rolling).
    pub(super) fn rolling(&self, path: &str, mu_r: f64, mu: f64) -> Result<f64> {
        let mu_r = self.non_negative(path, mu_r, "rolling resistance (μ_r)")?;
        if mu_r > 0.0 && mu == 0.0 {
            return Err(self.err(path, format!("rolling resistance {mu_r} on a smooth contact: give it friction too")));
        }
        Ok(mu_r)
    }

    /// Names end up in CSV headers and series (`NAME.g`): no dots, commas or spaces.
    pub(super) fn name(&self, path: &str, name: &str) -> Result<()> {
        if name.is_empty() {
            return Err(self.err(path, "a name must not be empty"));
        }
        if let Some(c) = name.chars().find(|c| *c == '.' || *c == ',' || *c == '"' || c.is_whitespace()) {
            return Err(
                self.err(path, format!("name `{name}` must not contain {c:?} (names are used in `NAME.g` series)"))
            );
        }
        Ok(())
    }
}

/// ` at line N` when the path is written in the text.
pub(super) fn line_of(cx: &Ctx, path: &str) -> String {
    cx.locator.locate(path).map(|p| format!(" at line {}", p.line)).unwrap_or_default()
}
