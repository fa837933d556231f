//! **Foundations, linear algebra**: the sparse `A = J M⁻¹ Jᵀ` of eq. (6)
//! and its factorizations ([`schur`]), complementarity problems by pivoting
//! ([`lcp`]) finished by an interior point ([`ipm`]), and planar Coulomb
//! friction as a complementarity problem ([`coulomb`]).
//!
//! May import: `geometry` (sparse rows), nothing above.

pub mod coulomb;
pub mod ipm;
pub mod lcp;
pub mod schur;
