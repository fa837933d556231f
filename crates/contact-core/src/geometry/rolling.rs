//! The rolling row of a contact, for rolling resistance: what keeps a heap
//! of discs from rolling out flat (issue 46, item 7; [`crate::timestep`]).
//!
//! Discs that roll freely hold no slope: a disc on a disc turns over it as
//! soon as its weight passes the contact. A real grain resists rolling with
//! a torque that its contact patch gives, up to `μ_r R*` times the normal
//! force (the patch's half-width over the normal force's lever), where `R*`
//! is the contact's rolling radius:
//!
//! ```text
//! R* = r_a r_b / (r_a + r_b)      (two round bodies)
//! R* = r_a                        (a disc on a wall or on an edge of b)
//! ```
//!
//! Its row is the relative rolling speed, in metres per second,
//!
//! ```text
//! u_m = R* (θ̇_a − θ̇_b) = J_m q̇,     J_m = R* (e_θa − e_θb)
//! ```
//!
//! (a term for each body that turns; constant, so `J̇_m q̇ = 0`). Two discs
//! that turn together, as one body, have `u_m = 0`; a disc rolling on a
//! floor without slipping has `u_m = r ω = −v`. Its impulse `P_m` is a
//! torque impulse `R* P_m` on `a` and `−R* P_m` on `b`, bounded as friction
//! is, by its own coefficient: `|P_m| ≤ μ_r P_n`. With Coulomb's
//! `|P_t| ≤ μ P_n` that is the box cone (its section a rectangle), and the
//! law is De Saxcé's with the shift `μ |u_t| + μ_r |u_m|`
//! ([`crate::cone_edges`]): `P_m` opposes a rolling contact's `u_m` at the
//! bound, and holds it at `u_m = 0` inside. The closed forms it meets
//! (`tests/rolling.rs`): a disc rolling on a floor decelerates at
//! `(2/3) μ_r g` (`I = m r²/2`); a disc rests on an incline of angle `α`
//! iff `tan α ≤ μ_r` (and `≤ μ`), and rolls down a steeper one at
//! `(2/3) g (sin α − μ_r cos α)`.

use crate::body::Body;
use crate::constraint::{Constraint, Geometry, RowEval, SparseRow};

/// The bodies a contact `c` rolls between: `a`, the other one if any (a
/// wall has none), and whether `a` rolls on a flat (a wall, an edge of the
/// other) rather than on the other's round surface. `None` for rows that
/// are not such contacts.
fn between(c: &Constraint) -> Option<(usize, Option<usize>, bool)> {
    match c.geometry {
        Geometry::HalfPlane { body, .. } => Some((body, None, true)),
        Geometry::Contact { a, b } => Some((a, Some(b), false)),
        // A disc on an edge rolls on a flat.
        Geometry::CornerEdge { a, b, .. } => Some((a, Some(b), true)),
        _ => None,
    }
}

/// The rolling radius `R*` of contact `c`, `None` where it has none (not
/// a contact, or no body of it is round).
pub fn rolling_radius(c: &Constraint, bodies: &[Body]) -> Option<f64> {
    let (a, b, flat) = between(c)?;
    let ra = bodies[a].radius;
    match b.filter(|_| !flat).map(|b| bodies[b].radius) {
        Some(rb) if ra > 0.0 && rb > 0.0 => Some(ra * rb / (ra + rb)),
        None if ra > 0.0 => Some(ra),
        _ => None,
    }
}

/// Whether contact `c` can resist rolling: it has a rolling radius and a
/// body of it turns (what [`rolling_row`] needs besides `μ_r` and `μ`).
pub fn can_roll(c: &Constraint, bodies: &[Body]) -> bool {
    let turns = |b: usize| bodies[b].angle_column().is_some();
    rolling_radius(c, bodies).is_some() && between(c).is_some_and(|(a, b, _)| turns(a) || b.is_some_and(turns))
}

/// The rolling row of contact `c` (its `g` is the rolling speed `u_m`);
/// `None` where the contact has no rolling resistance, no rolling radius,
/// or no body of it turns.
pub fn rolling_row(c: &Constraint, bodies: &[Body], qd: &[f64]) -> Option<RowEval> {
    if c.rolling <= 0.0 || c.friction <= 0.0 {
        return None;
    }
    let radius = rolling_radius(c, bodies)?;
    let (a, b, _) = between(c)?;
    let mut row = SparseRow::default();
    if let Some(col) = bodies[a].angle_column() {
        row.push(col, radius);
    }
    if let Some(col) = b.and_then(|b| bodies[b].angle_column()) {
        row.push(col, -radius);
    }
    (!row.entries().is_empty()).then(|| RowEval { g: row.dot(qd), row, jd_qd: 0.0 })
}
