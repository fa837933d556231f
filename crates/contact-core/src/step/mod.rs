//! **The step**: [`world::World::step`] sequences the phases of the
//! paper's event-driven scheme (speculative contacts, the solve, the rewind
//! to a first activation, Moreau's impact, sleep), or Moreau–Jean's
//! time-stepping ([`timestep`]); [`settings::Settings`] decide how.
//!
//! May import: `geometry`, `solve`, `model`, `algorithms`.

pub mod events;
pub mod friction_impact;
pub mod impulse;
pub mod settings;
pub mod sleep;
pub mod speculative;
pub mod timestep;
pub mod world;
