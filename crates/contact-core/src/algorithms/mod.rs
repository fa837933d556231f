//! **Solvers**: the paper's three algorithms (Algorithms 1–3) and the exact
//! complementarity reference choose the handled set `F⁺` of eq. (6) and
//! solve it; friction through Coulomb's problem; a [`trace::Trace`] of what
//! each did.
//!
//! May import: `geometry`, `solve`, `model`; nothing of `step` or above.

pub mod active_set;
pub mod algorithm;
pub mod choice;
pub mod exact;
pub mod friction;
pub mod trace;
