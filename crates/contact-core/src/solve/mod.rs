//! **Foundations, linear algebra**: the sparse `A = J M⁻¹ Jᵀ` of eq. (6)
//! and its factorizations ([`schur`]), complementarity problems by pivoting
//! ([`lcp`]) finished by an interior point ([`ipm`], its Newton matrix
//! factored on a pattern analysed once: [`fixed_llt`]), and planar Coulomb
//! friction as a complementarity problem ([`coulomb`]), and at the velocity
//! level as a fixed point of frictionless problems on the cone's edges
//! ([`cone_fixed_point`], accelerated by [`anderson`], rescued by
//! non-smooth Gauss–Seidel, [`nsgs`], and where its statuses stand still
//! by Newton's method on them, [`status_newton`], on the edges of
//! [`cone_edges`]).
//!
//! May import: `geometry` (sparse rows), `lcg`, nothing above.

pub mod anderson;
pub mod anitescu_potra;
pub mod cone_edges;
pub mod cone_fixed_point;
pub mod coulomb;
pub mod fixed_llt;
pub mod ipm;
pub mod lcp;
pub mod nsgs;
pub mod schur;
pub mod sparse_lemke;
pub mod status_newton;
pub mod union_find;
