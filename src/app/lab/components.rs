//! The entity components: one entity per body with its generalized coordinates,
//! one per constraint with where it stands after the last step.

use bevy::math::DVec2;
use bevy::prelude::*;
use contact_core::World;

/// A body of the model: `index` into `model.bodies`.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct LabBody {
    pub index: usize,
}

/// The generalized coordinates of one body and their velocities (0, 1 or 2 of
/// them: fixed, bead `u`, particle `(x, y)`), at the last step boundary.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq)]
pub struct Coords {
    pub q: [f64; 3],
    pub qd: [f64; 3],
    /// Number of coordinates used.
    pub n: usize,
}

impl Coords {
    pub fn q(&self) -> &[f64] {
        &self.q[..self.n]
    }
    pub fn qd(&self) -> &[f64] {
        &self.qd[..self.n]
    }
}

/// Body `b`'s coordinates in the core's state.
pub fn coords_of(world: &World, b: usize) -> Coords {
    let body = &world.model.bodies[b];
    let n = body.dofs();
    let mut c = Coords { n, ..default() };
    for i in 0..n {
        c.q[i] = world.state.q[body.offset + i];
        c.qd[i] = world.state.qd[body.offset + i];
    }
    c
}

/// The body's point at the last two step boundaries, for interpolation.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq)]
pub struct PointMotion {
    pub previous: DVec2,
    pub current: DVec2,
    pub velocity: DVec2,
}

impl PointMotion {
    /// The point a fraction `alpha ∈ [0, 1]` of the way from the previous step to the current.
    pub fn at(&self, alpha: f64) -> DVec2 {
        self.previous.lerp(self.current, alpha)
    }
}

/// A constraint of the model: `index` into `model.constraints`.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct LabConstraint {
    pub index: usize,
}

/// Where a constraint stands after the last step.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ConstraintState {
    /// `g > tol`: not touching.
    #[default]
    Inactive,
    /// Touching (`g ≤ tol`) but not in `E ∪ F⁺`.
    ActiveNotHandled,
    /// In `E ∪ F⁺` for the last solve.
    Handled,
    /// `g < −tol`, and not handled: the body is through the wall.
    Violated,
    /// On a sleeping body: left out of the solve until something touches it.
    Asleep,
}

impl ConstraintState {
    pub fn label(self) -> &'static str {
        match self {
            ConstraintState::Inactive => "inactive",
            ConstraintState::ActiveNotHandled => "active, not handled",
            ConstraintState::Handled => "handled",
            ConstraintState::Violated => "violated",
            ConstraintState::Asleep => "asleep",
        }
    }

    /// Handled (in E ∪ F⁺), else violated, active (|g| ≤ tol) or inactive.
    pub fn of(g: f64, handled: bool, tol: f64) -> ConstraintState {
        if handled {
            ConstraintState::Handled
        } else if g < -tol {
            ConstraintState::Violated
        } else if g <= tol {
            ConstraintState::ActiveNotHandled
        } else {
            ConstraintState::Inactive
        }
    }
}

/// `g_k`, `J_k q̈ − d_k`, `λ_k` and the state of a constraint after the last step.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq)]
pub struct ConstraintStatus {
    pub g: f64,
    pub tendency: f64,
    pub lambda: f64,
    pub handled: bool,
    pub state: ConstraintState,
    /// `λ_t`, the friction force along the contact's tangent (0 without friction).
    pub friction: f64,
    pub coulomb: Coulomb,
}

/// What Coulomb's law says of a contact with friction after the last step.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Coulomb {
    /// Not a contact with friction, or not pressed.
    #[default]
    None,
    /// No slip, or a force inside the cone: `|λ_t| ≤ μ λ_n` (a corner of a
    /// block held by two may sit on the cone's edge without slipping: the
    /// split between them is not unique).
    Sticks,
    /// Slipping with `|λ_t| = μ λ_n`, on the cone's edge, against the slip.
    Slides,
}

/// Slower than this (m/s) a contact does not slip (1 µm/s, the solver's bound).
const SLIP: f64 = 1e-6;

impl Coulomb {
    /// From `μ`, whether it is pressed (`λ_n > 0`), its friction `λ_t` and
    /// its slip `v_t` now: it slides when it slips with its force on the
    /// cone's edge (a sticking row keeps a slip of µm/s from its turning).
    pub fn of(mu: f64, handled: bool, lambda: f64, friction: f64, slip: f64) -> Coulomb {
        if mu <= 0.0 || !handled || lambda <= 0.0 {
            Coulomb::None
        } else if slip.abs() > SLIP && friction.abs() >= mu * lambda * (1.0 - 1e-6) {
            Coulomb::Slides
        } else {
            Coulomb::Sticks
        }
    }

    /// Row `k`'s slip `v_t` in `world` now (0 without friction).
    pub fn slip(world: &contact_core::World, k: usize) -> f64 {
        let v = super::series::slip(world, k);
        if v.is_finite() { v } else { 0.0 }
    }

    pub fn label(self) -> &'static str {
        match self {
            Coulomb::None => "",
            Coulomb::Sticks => ", sticks",
            Coulomb::Slides => ", slides",
        }
    }
}

impl ConstraintStatus {
    /// Before any step: equalities are handled, inequalities by their `g`.
    pub fn initial(g: f64, inequality: bool, tol: f64) -> ConstraintStatus {
        let handled = !inequality;
        ConstraintStatus { g, handled, state: ConstraintState::of(g, handled, tol), ..Default::default() }
    }

    /// After a step, from its report.
    pub fn from_report(world: &contact_core::World, report: &contact_core::StepReport, k: usize) -> Option<Self> {
        let (&g, &handled) = (report.g.get(k)?, report.handled.get(k)?);
        let tol = world.settings.tol.active;
        let state = if world.row_asleep(k) { ConstraintState::Asleep } else { ConstraintState::of(g, handled, tol) };
        let (lambda, friction) = (report.lambda[k], report.friction.get(k).copied().unwrap_or(0.0));
        let c = &world.model.constraints[k];
        // The cone on forces: λ of a written normal n̄ is λ|n̄| newtons.
        let mu = c.friction * c.normal_length();
        let slip = if mu > 0.0 { Coulomb::slip(world, k) } else { 0.0 };
        let coulomb = Coulomb::of(mu, handled, lambda, friction, slip);
        Some(ConstraintStatus { g, tendency: report.tendency[k], lambda, handled, state, friction, coulomb })
    }
}

/// Marks everything spawned for the current scene (despawned when another loads).
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct SceneEntity;
