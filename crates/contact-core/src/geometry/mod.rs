//! **Foundations, geometry**: what a body and a constraint are, with no
//! solver in sight. Units (the scene's yardstick), curves that carry a bead,
//! shapes of bodies that turn, bodies and their generalized coordinates `q`
//! with `M(q)`, constraints `g_k(q)` with their rows `J_k` and `J̇_k q̇`
//! (eq. 4) and Baumgarte's `d_k` (eq. 5), the tangential rows of
//! Coulomb friction and the rolling rows of rolling resistance.
//!
//! May import: nothing of the crate outside this folder.

pub mod body;
pub mod constraint;
pub mod curve;
pub mod rolling;
pub mod shapes;
pub mod tangent;
pub mod units;
