//! Bodies as disc meshes placed at their interpolated points
//! (`previous + α (current − previous)`, [`Interpolation`]), a box or a
//! polygon that turns as a mesh of its shape turned by its angle, and each
//! wall's forbidden side as a translucent shade across the visible area.

use bevy::prelude::*;

use super::trails::Trail;
use crate::app::lab::{Interpolation, Lab, LabBody, PointMotion, SceneEntity, SceneLook, ViewTransform, palette};

/// Pixel radius of a particle (a point with no radius).
pub const PARTICLE_PX: f64 = 6.0;

/// The translucent region behind a wall.
#[derive(Component)]
pub struct WallShade(usize);

/// Shared meshes and materials.
#[derive(Resource)]
pub struct Assets2d {
    disc: Handle<Mesh>,
    square: Handle<Mesh>,
    shade: Handle<ColorMaterial>,
}

pub fn make_assets(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
) {
    commands.insert_resource(Assets2d {
        disc: meshes.add(Circle::new(1.0).mesh().resolution(64)),
        square: meshes.add(Rectangle::new(1.0, 1.0)),
        shade: materials.add(ColorMaterial::from_color(palette::bevy_a(palette::SHADE, 0.16))),
    });
}

/// A disc (and a trail) for every new body entity, in its billiard colour.
pub fn add_body_visuals(
    mut commands: Commands,
    lab: Option<Res<Lab>>,
    added: Query<(Entity, &LabBody), Added<LabBody>>,
    assets: Option<Res<Assets2d>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
    mut meshes: ResMut<Assets<Mesh>>,
) {
    let (Some(lab), Some(assets)) = (lab, assets) else { return };
    for (e, body) in &added {
        let rgb = palette::body_disc_rgb(&lab.world, body.index);
        let mesh = match lab.world.model.bodies[body.index].shape() {
            Some(shape) if !shape.corners().is_empty() => meshes.add(fan(&shape.corners())),
            _ => assets.disc.clone(),
        };
        commands.entity(e).insert((
            Mesh2d(mesh),
            MeshMaterial2d(materials.add(ColorMaterial::from_color(palette::bevy(rgb)))),
            Transform::from_xyz(0.0, 0.0, -1.0),
            Trail::default(),
        ));
    }
}

/// One shade per wall of a newly installed scene (they go with its entities).
pub fn spawn_wall_shades(
    mut commands: Commands,
    look: Res<SceneLook>,
    assets: Option<Res<Assets2d>>,
    mut spawned_for: Local<Option<u64>>,
) {
    let Some(assets) = assets else { return };
    if look.generation.is_none() || *spawned_for == look.generation {
        return;
    }
    *spawned_for = look.generation;
    for (i, _) in look.walls.iter().enumerate() {
        commands.spawn((
            SceneEntity,
            WallShade(i),
            Mesh2d(assets.square.clone()),
            MeshMaterial2d(assets.shade.clone()),
            Transform::from_xyz(0.0, 0.0, -2.0),
        ));
    }
}

pub fn place_bodies(
    lab: Option<Res<Lab>>,
    interp: Res<Interpolation>,
    view: Res<ViewTransform>,
    mut bodies: Query<(&LabBody, &PointMotion, &mut Transform)>,
) {
    let Some(lab) = lab else { return };
    for (body, motion, mut tf) in &mut bodies {
        let p = motion.at(interp.alpha);
        let b = &lab.world.model.bodies[body.index];
        let r = if b.radius > 0.0 { b.radius } else { view.world_len(PARTICLE_PX) };
        tf.translation = Vec3::new(p.x as f32, p.y as f32, -1.0);
        if let Some(shape) = b.shape() {
            // Its mesh is the shape in world units (a disc's, the unit disc).
            let s = if shape.corners().is_empty() { r as f32 } else { 1.0 };
            tf.scale = Vec3::new(s, s, 1.0);
            tf.rotation = Quat::from_rotation_z(b.angle(&lab.world.state.q, &lab.world.state.qd).0 as f32);
        } else {
            tf.scale = Vec3::new(r as f32, r as f32, 1.0);
        }
    }
}

/// Places each wall's shade over the forbidden side, across the visible area.
pub fn place_shades(look: Res<SceneLook>, view: Res<ViewTransform>, mut shades: Query<(&WallShade, &mut Transform)>) {
    let (lo, hi) = view.visible();
    let center = (lo + hi) * 0.5;
    let extent = (hi - lo).length() * 2.0 + 1.0;
    for (shade, mut tf) in &mut shades {
        let Some(w) = look.walls.get(shade.0) else { continue };
        // Closest point of the line n·x = c to the view centre, then half a shade deeper.
        let foot = center - w.normal * (w.normal.dot(center) - w.offset);
        let mid = foot - w.normal * (extent * 0.5);
        let angle = w.normal.y.atan2(w.normal.x) as f32 + std::f32::consts::FRAC_PI_2;
        tf.translation = Vec3::new(mid.x as f32, mid.y as f32, -2.0);
        tf.rotation = Quat::from_rotation_z(angle);
        tf.scale = Vec3::new(extent as f32 * 2.0, extent as f32, 1.0);
    }
}

/// A convex polygon's mesh (its corners counterclockwise), a fan of triangles
/// from the first corner.
fn fan(corners: &[nalgebra::Vector2<f64>]) -> Mesh {
    use bevy::asset::RenderAssetUsages;
    use bevy::mesh::{Indices, PrimitiveTopology};
    let positions: Vec<[f32; 3]> = corners.iter().map(|c| [c.x as f32, c.y as f32, 0.0]).collect();
    let n = positions.len() as u32;
    let indices: Vec<u32> = (1..n.saturating_sub(1)).flat_map(|i| [0, i, i + 1]).collect();
    Mesh::new(PrimitiveTopology::TriangleList, RenderAssetUsages::default())
        .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, positions)
        .with_inserted_attribute(Mesh::ATTRIBUTE_NORMAL, vec![[0.0, 0.0, 1.0]; n as usize])
        .with_inserted_attribute(Mesh::ATTRIBUTE_UV_0, vec![[0.0, 0.0]; n as usize])
        .with_inserted_indices(Indices::U32(indices))
}
