//! The mechanical system: bodies, constraints, forces, and its state `(q, q̇, t)`.
//!
//! Unconstrained motion is eq. (1) of the paper, `M(q) q̈ = f(q, q̇, t)`. For the
//! bodies here `M` is diagonal (see [`crate::body`]), and with the point force
//! `F = F_const + m g + F_user − m γ ṗ` on each body
//!
//! ```text
//! f_b = P_bᵀ (F − m Ṗ_b q̇_b)
//! ```
//!
//! where `m Ṗ q̇` is the bead's quadratic velocity term `m (c'·c'') u̇²` once
//! projected on `c'` (it is zero for particles).
//!
//! **Model layer** (this folder): the system ([`Model`], [`State`]), its
//! contacts made by proximity ([`contacts`]) and eq. (6) assembled at a
//! state ([`kkt`]). May import: `geometry`, `solve`.

pub mod contacts;
pub mod heap;
pub mod kkt;

use nalgebra::Vector2;

use crate::body::Body;
use crate::constraint::{Constraint, Geometry, RowEval};
use crate::contacts::{ConstraintKey, ContactGenerator, Coordinates, Remap};

/// Bodies, constraints and uniform gravity.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    pub bodies: Vec<Body>,
    pub constraints: Vec<Constraint>,
    pub gravity: Vector2<f64>,
    /// Contacts found by proximity (`None`: every constraint is a fixed row).
    /// Their rows follow the explicit ones in `constraints` ([`crate::contacts`]).
    pub contacts: Option<ContactGenerator>,
    ndofs: usize,
}

/// Generalized coordinates, velocities and time.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    pub q: Vec<f64>,
    pub qd: Vec<f64>,
    pub t: f64,
}

impl Coordinates for State {
    fn q(&self) -> &[f64] {
        &self.q
    }
    fn qd(&self) -> &[f64] {
        &self.qd
    }
}

impl Model {
    /// Builds a model; assigns each body its offset in `q`.
    pub fn new(mut bodies: Vec<Body>, constraints: Vec<Constraint>, gravity: Vector2<f64>) -> Self {
        let mut n = 0;
        for b in &mut bodies {
            b.offset = n;
            n += b.dofs();
        }
        Model { bodies, constraints, gravity, contacts: None, ndofs: n }
    }

    /// Makes the contacts of `generator` rows by proximity, after the explicit
    /// constraints already in the model.
    pub fn with_contacts(mut self, mut generator: ContactGenerator) -> Self {
        generator.explicit = self.constraints.len();
        generator.keys.clear();
        self.contacts = Some(generator);
        self
    }

    /// Changes each time the rows of generated contacts change (0 without them).
    pub fn rows_version(&self) -> u64 {
        self.contacts.as_ref().map_or(0, |g| g.version)
    }

    /// The key of generated row `k` (`None` for an explicit constraint).
    pub fn key(&self, k: usize) -> Option<ConstraintKey> {
        let g = self.contacts.as_ref()?;
        k.checked_sub(g.explicit).and_then(|i| g.keys.get(i)).copied()
    }

    /// Replaces the generated rows by those of `keys` (sorted), keeping the
    /// constraints of keys already there. Returns how indices moved, or `None`
    /// when nothing changed (or the model generates nothing).
    pub fn set_contact_rows(&mut self, keys: Vec<ConstraintKey>) -> Option<Remap> {
        let g = self.contacts.as_mut()?;
        if g.keys == keys {
            return None;
        }
        let explicit = g.explicit;
        let old_keys = std::mem::take(&mut g.keys);
        let mut old_rows: Vec<Option<Constraint>> = self.constraints.drain(explicit..).map(Some).collect();
        let mut old_to_new: Vec<Option<usize>> = (0..explicit).map(Some).collect();
        old_to_new.resize(explicit + old_keys.len(), None);
        // Both key lists are sorted: merge.
        let mut o = 0;
        for (n, key) in keys.iter().enumerate() {
            while o < old_keys.len() && old_keys[o] < *key {
                o += 1;
            }
            let row = if o < old_keys.len() && old_keys[o] == *key {
                old_to_new[explicit + o] = Some(explicit + n);
                old_rows[o].take().expect("each old row is taken once")
            } else {
                g.constraint(&self.bodies, *key)
            };
            self.constraints.push(row);
        }
        g.keys = keys;
        g.version += 1;
        Some(Remap { old_to_new, new_len: self.constraints.len() })
    }

    /// Whether any row has friction, or may have (a wall or generated pairs with `μ > 0`).
    pub fn has_friction(&self) -> bool {
        self.constraints.iter().any(|c| c.friction > 0.0)
            || self.contacts.as_ref().is_some_and(|g| g.pair_friction > 0.0 || g.walls.iter().any(|w| w.friction > 0.0))
    }

    /// Every contact's `(μ, μ_r)`: the generated contacts' between bodies
    /// and each wall's, and each explicit contact row's (a pile whose pairs
    /// and walls were written out row by row: the 30-ball pile's 525).
    /// `None` where the model has no contact at all. Without generated
    /// contacts, `pair` is the first contact row's, the value a user sees.
    pub fn contact_coefficients(&self) -> Option<Coefficients> {
        let rows: Vec<(f64, f64)> =
            self.explicit_contacts().map(|k| (self.constraints[k].friction, self.constraints[k].rolling)).collect();
        match self.contacts.as_ref() {
            Some(g) => Some(Coefficients {
                pair: (g.pair_friction, g.pair_rolling),
                walls: g.walls.iter().map(|w| (w.friction, w.rolling)).collect(),
                rows,
            }),
            None => Some(Coefficients { pair: *rows.first()?, walls: Vec::new(), rows }),
        }
    }

    /// Sets every contact's `(μ, μ_r)` (a live change: the next step takes
    /// it): the generated contacts', those of the rows there now as the
    /// generator writes them, and each explicit contact row's (its `μ_r`
    /// only where it can roll: [`crate::rolling::can_roll`]). A part whose
    /// count differs from the model's is left as it is (a log written
    /// before explicit rows were part of it has none).
    pub fn set_contact_coefficients(&mut self, c: &Coefficients) {
        let explicit: Vec<usize> = self.explicit_contacts().collect();
        if c.rows.len() == explicit.len() {
            for (&k, &(mu, mu_r)) in explicit.iter().zip(&c.rows) {
                // Rolling resistance only where the contact can roll (a round
                // body, one that turns): a box's or a ball's row keeps 0, and
                // with it the event-driven scheme.
                let rolls = crate::rolling::can_roll(&self.constraints[k], &self.bodies);
                let row = &mut self.constraints[k];
                (row.friction, row.rolling) = (mu, if rolls { mu_r } else { 0.0 });
            }
        }
        let Some(g) = self.contacts.as_mut() else { return };
        if c.walls.len() != g.walls.len() {
            return;
        }
        (g.pair_friction, g.pair_rolling) = c.pair;
        for (w, &(mu, mu_r)) in g.walls.iter_mut().zip(&c.walls) {
            (w.friction, w.rolling) = (mu, mu_r);
        }
        let g = self.contacts.as_ref().expect("just set");
        for (k, key) in g.keys.iter().enumerate() {
            let row = g.constraint(&self.bodies, *key);
            let c = &mut self.constraints[g.explicit + k];
            (c.friction, c.rolling) = (row.friction, row.rolling);
        }
    }

    /// The explicit constraints (before any generated ones) that are
    /// contacts: inequalities on a wall, between bodies, corner on edge or
    /// disc.
    fn explicit_contacts(&self) -> impl Iterator<Item = usize> + '_ {
        let explicit = self.contacts.as_ref().map_or(self.constraints.len(), |g| g.explicit);
        (0..explicit).filter(|&k| is_contact(&self.constraints[k]))
    }

    /// Whether any row has rolling resistance with its friction, or may have
    /// (a wall or generated pairs with `μ_r > 0` and `μ > 0`).
    pub fn has_rolling(&self) -> bool {
        self.constraints.iter().any(|c| c.rolling > 0.0 && c.friction > 0.0)
            || self.contacts.as_ref().is_some_and(|g| {
                (g.pair_rolling > 0.0 && g.pair_friction > 0.0)
                    || g.walls.iter().any(|w| w.rolling > 0.0 && w.friction > 0.0)
            })
    }

    /// `n`, the number of generalized coordinates.
    pub fn ndofs(&self) -> usize {
        self.ndofs
    }

    /// Index of the body named `name`.
    pub fn body_index(&self, name: &str) -> Option<usize> {
        self.bodies.iter().position(|b| b.name == name)
    }

    /// Index of the constraint named `name`.
    pub fn constraint_index(&self, name: &str) -> Option<usize> {
        self.constraints.iter().position(|c| c.name == name)
    }

    /// `BODY.COORD` for every generalized coordinate, in `q` order.
    pub fn coord_labels(&self) -> Vec<String> {
        let mut out = Vec::with_capacity(self.ndofs);
        for b in &self.bodies {
            for c in b.coord_names() {
                out.push(format!("{}.{}", b.name, c));
            }
        }
        out
    }

    /// The diagonal of `M(q)`.
    pub fn mass_diag(&self, q: &[f64]) -> Vec<f64> {
        let mut m = vec![0.0; self.ndofs];
        for b in &self.bodies {
            let d = b.mass_diag(q);
            for i in 0..b.dofs() {
                m[b.offset + i] = d[i];
            }
        }
        m
    }

    /// The point force on body `b` at `(q, q̇)`: constant + gravity + user − damping.
    pub fn point_force(&self, b: &Body, q: &[f64], qd: &[f64]) -> Vector2<f64> {
        let k = b.kinematics(q, qd);
        b.force + self.gravity * b.mass + b.user_force - k.v * (b.mass * b.damping)
    }

    /// The generalized force `f(q, q̇)` of eq. (1), quadratic velocity terms included.
    pub fn forces(&self, q: &[f64], qd: &[f64]) -> Vec<f64> {
        let mut f = vec![0.0; self.ndofs];
        for b in self.bodies.iter().filter(|b| b.is_dynamic()) {
            let k = b.kinematics(q, qd);
            let total = self.point_force(b, q, qd) - k.bias * b.mass;
            for (i, col) in k.columns() {
                f[*i] += col.dot(&total);
            }
            if let crate::body::BodyKind::Rigid { .. } = b.kind {
                f[b.offset + 2] += b.user_torque;
            }
        }
        f
    }

    /// Every constraint evaluated at `(q, q̇)`.
    pub fn eval_constraints(&self, q: &[f64], qd: &[f64]) -> Vec<RowEval> {
        self.constraints.iter().map(|c| c.eval(&self.bodies, q, qd)).collect()
    }

    /// Only the values `g_k(q)` (velocities do not matter for them).
    pub fn constraint_values(&self, q: &[f64]) -> Vec<f64> {
        let zero = vec![0.0; self.ndofs];
        self.constraints.iter().map(|c| c.eval(&self.bodies, q, &zero).g).collect()
    }

    /// Sets Coulomb's `μ` of every contact to `mu`: the contact generator's
    /// pairs and walls (the rows it makes from now on) and every contact
    /// row already made (the explicit ones, and the generated ones made at
    /// load, which a kept key does not make again). Returns the largest `μ`
    /// there was. The peer bench's `--friction` and the tests take it.
    pub fn set_friction(&mut self, mu: f64) -> f64 {
        let mut before = 0.0_f64;
        if let Some(g) = self.contacts.as_mut() {
            before = before.max(g.pair_friction);
            g.pair_friction = mu;
            for w in &mut g.walls {
                before = before.max(w.friction);
                w.friction = mu;
            }
        }
        for c in self.constraints.iter_mut().filter(|c| is_contact(c)) {
            before = before.max(c.friction);
            c.friction = mu;
        }
        before
    }

    /// Kinetic energy `½ q̇ᵀ M q̇`.
    pub fn kinetic_energy(&self, state: &State) -> f64 {
        let m = self.mass_diag(&state.q);
        0.5 * m.iter().zip(&state.qd).map(|(m, v)| m * v * v).sum::<f64>()
    }

    /// The part of the kinetic energy in the bodies' turning, `Σ ½ I θ̇²`.
    pub fn rotational_energy(&self, state: &State) -> f64 {
        self.bodies
            .iter()
            .filter_map(|b| match b.kind {
                crate::body::BodyKind::Rigid { inertia, .. } => Some(0.5 * inertia * state.qd[b.offset + 2].powi(2)),
                _ => None,
            })
            .sum()
    }

    /// Potential energy of gravity and of the constant forces, `−Σ (m g + F)·p`.
    pub fn potential_energy(&self, state: &State) -> f64 {
        self.bodies
            .iter()
            .filter(|b| b.is_dynamic())
            .map(|b| -(self.gravity * b.mass + b.force).dot(&b.kinematics(&state.q, &state.qd).p))
            .sum()
    }

    /// The mechanical energy `½ q̇ᵀ M q̇ − Σ (m g + F)·p`: constant under the
    /// forces of eq. (1) that derive from a potential and ideal constraints
    /// (`Jᵀλ` does no work on a path that keeps `g = 0`).
    pub fn total_energy(&self, state: &State) -> f64 {
        self.kinetic_energy(state) + self.potential_energy(state)
    }

    /// Work of the user's forces (`user_force`, `user_torque`: the mouse
    /// springs) on a move of the bodies from `before` to `after`, held over
    /// it: `Σ F_u·Δp + τ_u Δθ`.
    pub fn user_work(&self, before: &State, after: &State) -> f64 {
        self.bodies
            .iter()
            .filter(|b| b.is_dynamic() && b.is_pushed())
            .map(|b| {
                let moved = b.kinematics(&after.q, &after.qd).p - b.kinematics(&before.q, &before.qd).p;
                let turned = match b.kind {
                    crate::body::BodyKind::Rigid { .. } => after.q[b.offset + 2] - before.q[b.offset + 2],
                    _ => 0.0,
                };
                b.user_force.dot(&moved) + b.user_torque * turned
            })
            .sum()
    }

    /// Position of body `b`'s point.
    pub fn position(&self, b: usize, state: &State) -> Vector2<f64> {
        self.bodies[b].kinematics(&state.q, &state.qd).p
    }

    /// Velocity of body `b`'s point.
    pub fn velocity(&self, b: usize, state: &State) -> Vector2<f64> {
        self.bodies[b].kinematics(&state.q, &state.qd).v
    }
}

/// Whether `c` is a contact whose `μ` and `μ_r` a user sets: an inequality
/// on a wall, between bodies, corner on edge or on disc.
fn is_contact(c: &Constraint) -> bool {
    c.is_inequality()
        && matches!(
            c.geometry,
            Geometry::HalfPlane { .. }
                | Geometry::Contact { .. }
                | Geometry::CornerEdge { .. }
                | Geometry::CornerDisc { .. }
        )
}

/// The coefficients of every contact ([`Model::contact_coefficients`]):
/// `(μ, μ_r)` of the generated contacts between bodies and of each wall's,
/// and of each explicit contact row.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Coefficients {
    pub pair: (f64, f64),
    pub walls: Vec<(f64, f64)>,
    #[serde(default)]
    pub rows: Vec<(f64, f64)>,
}

impl Coefficients {
    /// `(μ, μ_r)` on every contact: between bodies, on every wall, every row.
    pub fn every(&self, mu: f64, mu_r: f64) -> Coefficients {
        Coefficients {
            pair: (mu, mu_r),
            walls: vec![(mu, mu_r); self.walls.len()],
            rows: vec![(mu, mu_r); self.rows.len()],
        }
    }

    /// The least and largest `μ` of the contacts, generated and explicit
    /// (without generated contacts `pair` is a row's own).
    pub fn mu_range(&self) -> (f64, f64) {
        let all = std::iter::once(self.pair).chain(self.walls.iter().copied()).chain(self.rows.iter().copied());
        all.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), (mu, _)| (lo.min(mu), hi.max(mu)))
    }
}
