//! Drawing the world: balls and particles as meshes placed at the interpolated
//! points ([`meshes`]), walls with their forbidden side shaded, strings, rods and
//! curves, each constraint coloured by its state, `λ` and the constant forces as
//! arrows on one common scale ([`draw`]); trails and flashes where time was
//! rewound to a first activation ([`trails`]).
//!
//! Motion is interpolated between fixed steps: a body is drawn at
//! `previous + α (current − previous)` with `α` the fraction of a fixed step the
//! virtual clock has run past the last one (1 when paused).

pub mod draw;
pub mod meshes;
pub mod trails;

use bevy::prelude::*;

use crate::app::lab::{FrameSet, PhysicsSet, palette};

/// Everything that draws the world.
pub struct WorldRenderPlugin;

impl Plugin for WorldRenderPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<trails::Flashes>()
            .insert_resource(ClearColor(palette::bevy(palette::PANEL)))
            .add_systems(Startup, meshes::make_assets)
            .add_systems(FixedUpdate, (trails::record_trails, trails::record_flashes).in_set(PhysicsSet::Record))
            .add_systems(Update, (meshes::add_body_visuals, trails::clear_trails_on_jump).in_set(FrameSet::Prepare))
            .add_systems(
                Update,
                ((meshes::spawn_wall_shades, meshes::place_shades).chain(), meshes::place_bodies, draw::draw_world)
                    .in_set(FrameSet::Draw),
            );
    }
}
