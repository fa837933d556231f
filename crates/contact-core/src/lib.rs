//! # contact-core
//!
//! The mechanics of contact-lab, after Jonquet, Nocent & Remion, *The art to keep
//! in touch: the good use of Lagrange multipliers* (GRAPP 2007). No app, no Bevy:
//! nalgebra for plane vectors, plain `f64` slices for `q`, serde for scene files.
//!
//! * [`Model`]: bodies with generalized coordinates `q` ([`body`], [`curve`]),
//!   forces, and constraints `g_k(q)` ([`constraint`]); eq. (1) `M q̈ = f`.
//! * [`kkt`]: eq. (6) with Baumgarte's eq. (5), solved through `A = J M⁻¹ Jᵀ`
//!   sparse, with a factorization that copes with dependent rows ([`schur`]).
//! * [`algorithm`]: Platt (Algorithm 1), Platt improved (Algorithm 2), Right
//!   (Algorithm 3) and [`exact`], the complementarity reference ([`lcp`]); each
//!   step's decisions are recorded in a [`Trace`].
//! * [`World::step`]: one time step, with speculative contacts ([`speculative`]),
//!   rewinds to first activations ([`events`]) and impacts ([`impulse`]); a
//!   [`StepReport`] says what happened.
//! * [`input`]: springs, forces, cue shots and switches a user gives between
//!   steps, logged and replayed bit for bit.
//! * [`lanes`]: compare mode, one state forked into one lane per algorithm.
//! * [`scene`]: scene files (RON) with validation that names file, line and field.

pub mod active_set;
pub mod algorithm;
pub mod body;
pub mod choice;
pub mod constraint;
pub mod contacts;
pub mod curve;
pub mod events;
pub mod exact;
pub mod impulse;
pub mod input;
pub mod kkt;
pub mod lanes;
pub mod lcp;
pub mod model;
pub mod scene;
pub mod schur;
pub mod settings;
pub mod speculative;
pub mod testing;
pub mod trace;
pub mod world;

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
pub use lanes::Lane;
pub use model::{Model, State};
pub use settings::{EventSettings, Integrator, Settings};
pub use trace::{Reason, Trace};
pub use world::{Snapshot, StepReport, StepStatus, World};
