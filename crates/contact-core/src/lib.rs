//! # contact-core
//!
//! The mechanics of contact-lab, after Jonquet, Nocent & Remion, *The art to keep
//! in touch: the good use of Lagrange multipliers* (GRAPP 2007). No app, no Bevy:
//! nalgebra for plane vectors, plain `f64` slices for `q`, serde for scene files.
//!
//! * [`Model`]: bodies with generalized coordinates `q` ([`body`], [`curve`], [`shapes`]),
//!   forces, and constraints `g_k(q)` ([`constraint`]); eq. (1) `M q̈ = f`.
//! * [`kkt`]: eq. (6) with Baumgarte's eq. (5), solved through `A = J M⁻¹ Jᵀ`
//!   sparse, with a factorization that copes with dependent rows ([`schur`]).
//! * [`algorithm`]: Platt (Algorithm 1), Platt improved (Algorithm 2), Right
//!   (Algorithm 3) and [`exact`], the complementarity reference, exact to a
//!   stated contract ([`lcp::CONTRACT`]; pivoting, then [`ipm`]); each
//!   step's decisions are recorded in a [`Trace`].
//! * [`World::step`]: one time step, with speculative contacts ([`speculative`]),
//!   rewinds to first activations ([`events`]) and impacts ([`impulse`]); a
//!   [`StepReport`] says what happened. Or, for many contacts, Moreau–Jean's
//!   time-stepping ([`timestep`], [`Scheme`]): one velocity problem a step.
//! * Coulomb friction, exact in the plane, the exact solver's: [`tangent`]
//!   rows, [`coulomb`] complementarity, [`friction`] at the acceleration
//!   level (sticking, sliding, Painlevé), [`friction_impact`] for impacts.
//! * [`input`]: springs, forces, cue shots and switches a user gives between
//!   steps, logged and replayed bit for bit.
//! * [`lanes`]: compare mode, one state forked into one lane per method (each
//!   algorithm, and time-stepping).
//! * [`scene`]: scene files (RON) with validation that names file, line and field.
//!
//! ## Modules
//!
//! Layers from the bottom up, one folder each: `geometry/` and `solve/`
//! (foundations), `model/`, `algorithms/` (the solvers), `step/`, then
//! `input.rs` and `lanes.rs`, and `scene/`. Each folder's module doc states
//! its layer and what it may import. Every module keeps its own name at the
//! crate root (`contact_core::kkt`, `crate::lcp`): the folders show the
//! layers, the paths stay. A module imports only modules of lower layers, or
//! of its own layer listed above it; none imports another in a circle
//! (`../shared/tools/import-circles` checks it; `tests/layers.rs` checks that
//! no import runs up a layer). The types an app needs are re-exported
//! at the crate root.
//!
//! | module | folder (layer) | owns | may import |
//! |---|---|---|---|
//! | [`lcg`] | `lcg.rs` (foundations) | [`lcg::Lcg`], a deterministic stream of numbers (tests' random cases, solvers' fixed perturbations) | — |
//! | [`units`] | `geometry/` (foundations) | [`Units`], the scene's yardstick for every threshold; the resting speed | — |
//! | [`curve`] | `geometry/` (foundations) | curves `c(u)` that carry a bead, `c'`, `c''` | — |
//! | [`shapes`] | `geometry/` (foundations) | [`Shape`]s of bodies that turn (disc, box, convex polygon): area, centroid, inertia, corners, checks; which corner is on which edge, the feature nearest a disc (pure geometry on world corners) | — |
//! | [`body`] | `geometry/` (foundations) | bodies (points, beads, bodies that turn, fixed shapes), their coordinates in `q`, `M(q)`, kinematics `p`, `P`, `Ṗ q̇` of points fixed on them | `curve`, `shapes` |
//! | [`constraint`] | `geometry/` (foundations) | `g_k(q)`, sparse rows `J_k`, `J̇_k q̇` (eq. 4), Baumgarte's `d_k` (eq. 5) | `body`, `curve`, `shapes` |
//! | [`tangent`] | `geometry/` (foundations) | the tangential row `J_t`, `J̇_t q̇` of a contact (its slip `v_t`) for Coulomb friction | `body`, `constraint` |
//! | [`schur`] | `solve/` (foundations) | sparse `A = J M⁻¹ Jᵀ` of eq. (6), islands, orderings, envelope Cholesky | `constraint` |
//! | [`ipm`] | `solve/` (foundations) | an island's complementarity problem by a primal–dual interior point (the bounded finish) | `schur` |
//! | [`lcp`] | `solve/` (foundations) | complementarity problems `a = A λ − b` by pivoting: [`lcp::solve_lcp`] | `ipm`, `schur` |
//! | [`coulomb`] | `solve/` (foundations) | planar Coulomb friction as a complementarity problem on a dense `A`: statuses by pivoting, Lemke's method, Painlevé's inconsistency | `constraint`, `lcg`, `lcp`, `schur` |
//! | [`sparse_lemke`] | `solve/` (foundations) | Lemke's method on a sparse complementarity problem, revised form (sparse LU of the basis, eta vectors), lexicographic ties | `coulomb`, `lcg` |
//! | [`anitescu_potra`] | `solve/` (foundations) | planar Coulomb friction at the velocity level as Anitescu–Potra's complementarity problem, sparse, solved by `sparse_lemke`: the complete method past the dense bound | `constraint`, `schur`, `sparse_lemke` |
//! | [`anderson`] | `solve/` (foundations) | Anderson's acceleration of a fixed-point iteration | — |
//! | [`nsgs`] | `solve/` (foundations) | Coulomb's velocity problem by non-smooth Gauss–Seidel, each contact's law in closed form | `schur` |
//! | [`cone_edges`] | `solve/` (foundations) | a velocity problem's rows with friction, the cone's two edge rows per contact, the velocity of edge impulses | `constraint` |
//! | [`status_newton`] | `solve/` (foundations) | Coulomb's velocity problem by Newton's method on Alart–Curnier's statuses, sparse LU with proximal steps | `cone_edges`, `constraint`, `coulomb` |
//! | [`cone_fixed_point`] | `solve/` (foundations) | Coulomb friction at the velocity level as a fixed point of frictionless problems on the cone's edges (time-stepping's solver), its rescues where it stalls, its contract | `anderson`, `anitescu_potra`, `cone_edges`, `constraint`, `coulomb`, `lcp`, `nsgs`, `schur`, `status_newton` |
//! | [`contacts`] | `model/` (model) | contacts by proximity: keys, broad phase, remaps | `body`, `constraint`, `shapes` |
//! | [`model`] | `model/` (model) | [`Model`], [`State`], forces `f` of eq. (1), energies | `body`, `constraint`, `contacts` |
//! | [`heap`] | `model/` (model) | the angle of repose of a heap of round bodies, read off the state | `model` |
//! | [`kkt`] | `model/` (model) | eq. (6) at a state: [`ContactProblem`] (with the tangential rows of contacts with friction), its solves, the least λ on a hyperstatic handled set | `constraint`, `model`, `schur`, `tangent` |
//! | [`choice`] | `algorithms/` (solvers) | [`Algorithm`], which algorithm, and its names | — |
//! | [`trace`] | `algorithms/` (solvers) | [`Trace`]: what an algorithm did in a step | `choice`, `lcp` |
//! | [`active_set`] | `algorithms/` (solvers) | `F⁺` ([`ActiveSet`]), [`SolveContext`](active_set::SolveContext), [`ActiveSetSolver`], [`Tolerances`] | `choice`, `constraint`, `kkt`, `trace`, `units` |
//! | [`friction`] | `algorithms/` (solvers) | the step's problem with friction (tangential rows, sliding or sticking contacts, Painlevé) solved by `coulomb` | `constraint`, `coulomb`, `kkt`, `lcp`, `trace` |
//! | [`exact`] | `algorithms/` (solvers) | the exact solver: eq. (6) as an LCP, warm start, polish; with friction through `friction` | `active_set`, `choice`, `friction`, `kkt`, `lcp`, `trace` |
//! | [`algorithm`] | `algorithms/` (solvers) | Algorithms 1–3, [`Algorithm::solver`] | `active_set`, `choice`, `constraint`, `exact`, `kkt`, `trace` |
//! | [`friction_impact`] | `step/` (step) | impacts with friction: the velocity-level problem with Coulomb's cone, no energy made; Painlevé's impact without collision | `constraint`, `coulomb`, `friction`, `kkt`, `model` |
//! | [`impulse`] | `step/` (step) | impacts: impulses `P` from the model, `q̇` and the impact parameters (Moreau's law); islands with friction through `friction_impact` | `friction`, `friction_impact`, `kkt`, `lcp`, `model`, `schur`, `units` |
//! | [`sleep`] | `step/` (step) | sleeping islands: [`SleepSettings`], an island still for a while left out of eq. (6) until something touches it | `model` |
//! | [`settings`] | `step/` (step) | [`Settings`], [`Integrator`], [`EventSettings`], [`Scheme`] | `active_set`, `choice`, `impulse`, `model`, `sleep`, `units` |
//! | [`speculative`] | `step/` (step) | active rows, speculative contacts and their landing `d_k` | `choice`, `constraint`, `kkt`, `settings`, `units` |
//! | [`events`] | `step/` (step) | [`Event`], rewinds to first activations, touching impacts | `constraint`, `impulse`, `model`, `settings`, `speculative`, `units` |
//! | [`timestep`] | `step/` (step) | Moreau–Jean: one velocity-level problem a step ([`Scheme::TimeStepping`]), exact per step, friction through `cone_fixed_point`, no impulse that creates energy | `cone_fixed_point`, `constraint`, `friction_impact`, `kkt`, `lcp`, `model`, `settings` |
//! | [`world`] | `step/` (step) | [`World`], `step(h)` sequencing the phases, [`StepReport`], [`Snapshot`] | `active_set`, `body`, `choice`, `constraint`, `contacts`, `events`, `kkt`, `model`, `settings`, `sleep`, `speculative`, `timestep`, `trace` (the solvers through [`Algorithm::solver`]) |
//! | [`input`] | `input.rs` (inputs/lanes) | [`Input`]s between steps, springs, logs and replays | `body`, `settings`, `world` |
//! | [`lanes`] | `lanes.rs` (inputs/lanes) | compare mode: one [`Lane`] per [`Method`] (scheme, algorithm) | `choice`, `constraint`, `input`, `settings`, `world` |
//! | [`scene`] | `scene/` (scene) | scene files (RON): schema, spans, validation, building a [`World`], the tour | any module above |
//! | [`testing`] | `testing.rs` (test helpers) | small models shared by the tests | `body`, `constraint`, `model` |
//!
//! Unit-test modules may also import [`testing`], and `lcp`'s [`constraint`].

pub mod algorithms;
pub mod geometry;
pub mod input;
pub mod lanes;
pub mod lcg;
pub mod model;
pub mod scene;
pub mod solve;
pub mod step;
pub mod testing;

// Every module by its own name, as before the folders: `contact_core::kkt`,
// `crate::lcp`, ... (the folders show the layers; the paths stay).
pub use algorithms::{active_set, algorithm, choice, exact, friction, trace};
pub use geometry::{body, constraint, curve, rolling, shapes, tangent, units};
pub use model::{contacts, heap, kkt};
pub use solve::{
    anderson, anitescu_potra, cone_edges, cone_fixed_point, coulomb, fixed_llt, ipm, lcp, nsgs, schur, sparse_lemke,
    status_newton, union_find,
};
pub use step::{events, friction_impact, impulse, settings, sleep, speculative, timestep, world};

pub use active_set::{ActiveSet, ActiveSetSolver, Tolerances};
pub use body::{Body, BodyKind};
pub use choice::Algorithm;
pub use constraint::{Constraint, ConstraintKind, Geometry};
pub use contacts::{ConstraintKey, ContactGenerator, Wall};
pub use curve::Curve;
pub use events::Event;
pub use impulse::ImpulseMode;
pub use input::{Input, InputLog, Recorder, Replay, Spring};
pub use kkt::{ContactProblem, KktSolution};
pub use lanes::{Lane, Method};
pub use model::{Coefficients, Model, State};
pub use settings::{EventSettings, Integrator, Scheme, Settings};
pub use shapes::Shape;
pub use sleep::SleepSettings;
pub use trace::{Reason, Trace};
pub use units::Units;
pub use world::{Snapshot, StepReport, StepStatus, World};

/// The threads a step's independent islands are solved on (rayon's pool:
/// every core unless `RAYON_NUM_THREADS` says otherwise); the answer is the
/// same on any number of them.
pub fn threads() -> usize {
    rayon::current_num_threads()
}
