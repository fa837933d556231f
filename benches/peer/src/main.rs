//! contact-lab beside rapier2d (f64), in one process, on the same scene.
//!
//! The scene is loaded once through `contact_core::scene::load`; the rapier world
//! is built from that loaded world (positions, angles, velocities, masses,
//! inertias, radii and shapes, damping, gravity, restitution, walls, step h),
//! so both engines start from the same
//! state. Each engine optionally settles (untimed), or rapier settles once for
//! both (`--settle-in rapier`), then the engines step `duration / h` times,
//! interleaved in chunks; only the calls to `step` are timed. Penetration and
//! energy are measured after each step, outside the timed part, with the same
//! geometry for both. See README.md.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use clap::{Parser, ValueEnum};
use contact_core::scene::{self, Overrides};
use contact_core::{Algorithm, BodyKind, Geometry, Model, Shape, World};
use rapier2d_f64::math::Vector as RVector;
use rapier2d_f64::prelude::nalgebra::Unit;
use rapier2d_f64::prelude::{
    CoefficientCombineRule, ColliderBuilder, MassProperties, PhysicsWorld, RigidBodyBuilder, RigidBodyHandle,
};

/// The version of rapier2d-f64 this crate is pinned to (Cargo.toml, `=`).
const RAPIER_VERSION: &str = "0.36.1";

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum SceneArg {
    /// assets/scenes/ball-pile.ron: N balls dropped into a 1 m box.
    Pile,
    /// assets/scenes/billiard-corner.ron: the break, 11 balls, two cushions.
    Billiard,
    /// assets/scenes/box-pyramid.ron: Box2D's pyramid, 55 boxes that turn, on a floor.
    Pyramid,
    /// The scene file given by `--path` (balls, boxes, polygons, discs, walls).
    File,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum SettleIn {
    /// Each engine settles itself from the scene's start (same start, own dynamics).
    Own,
    /// rapier settles once; its pile, with the overlaps of its soft contacts
    /// projected out and at rest, is the start of the timed part for both
    /// engines. For large N, where settling contact-lab itself takes too long.
    Rapier,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum SchemeArg {
    EventDriven,
    TimeStepping,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum AlgorithmArg {
    Right,
    Exact,
    /// Both contact-lab algorithms, each from the same start, beside one rapier run.
    Both,
}

/// contact-lab (Lagrange multipliers) beside rapier2d-f64 on the same scene.
///
/// Builds the scene in both engines, settles each one untimed for `--settle`
/// seconds, then times `duration / h` steps of each. Rapier runs with its default
/// solver settings (4 solver iterations, 1 internal PGS and 1 stabilization
/// iteration, its default contact softness and speculative margin), except that
/// friction is `--friction` (0 by default) on both sides (every collider in
/// rapier, combine rule `Min`; every contact row, wall and generated pair in
/// contact-lab), the rotations of balls are locked
/// (our balls are points with a radius; boxes, polygons and discs turn, with
/// contact-lab's mass and inertia) and, unless `--rapier-sleep`, bodies never
/// sleep (ours never do).
#[derive(Parser, Debug)]
#[command(version, about, long_about)]
struct Args {
    /// Which scene.
    #[arg(long, value_enum, default_value = "pile")]
    scene: SceneArg,
    /// The scene file of `--scene file` (relative to the working directory, or
    /// else to the repository's root: `assets/scenes/box-stack.ron`).
    #[arg(long)]
    path: Option<PathBuf>,
    /// Number of balls of the pile (the scene file's 30 if absent), or of a
    /// `--scene file` with a `ball_pile`; ignored by the billiard and the pyramid.
    #[arg(long)]
    balls: Option<usize>,
    /// Simulated seconds to time (default: 1 s for the pile, 2 s for the billiard,
    /// the scene's own `duration` otherwise: 5 s for the pyramid).
    #[arg(long)]
    duration: Option<f64>,
    /// contact-lab's algorithm (default: the scene's: Right for the pile and the
    /// billiard, Exact for the pyramid).
    #[arg(long, value_enum)]
    algorithm: Option<AlgorithmArg>,
    /// contact-lab's scheme (default: the scene's): the paper's event-driven
    /// rewinds, or Moreau–Jean time-stepping (one velocity problem a step,
    /// under Exact).
    #[arg(long, value_enum)]
    scheme: Option<SchemeArg>,
    /// Simulated seconds stepped before the timed part, untimed, by each engine
    /// from the scene's start (default: 2 s for the pile, 0 otherwise).
    #[arg(long)]
    settle: Option<f64>,
    /// Who does the settling.
    #[arg(long, value_enum, default_value = "own")]
    settle_in: SettleIn,
    /// Let rapier put resting bodies to sleep (its default; off here because
    /// contact-lab has no sleeping, so a sleeping pile would cost rapier nothing).
    #[arg(long)]
    rapier_sleep: bool,
    /// Skip contact-lab (only rapier), e.g. to look at rapier alone at large N.
    #[arg(long)]
    rapier_only: bool,
    /// Turn rapier's contact recycling off (on by default: a pair's manifold is
    /// kept, not recomputed, while the two bodies move less than 5 cm relative to
    /// each other, so its depths are those of when it was made).
    #[arg(long)]
    rapier_no_recycling: bool,
    /// The timed steps alternate between the engines in chunks of this many steps.
    #[arg(long, default_value_t = 50)]
    chunk: usize,
    /// Let still islands sleep in both engines (contact-lab's `solver.sleep`,
    /// rapier's `can_sleep`).
    #[arg(long)]
    sleep: bool,
    /// The last this many simulated seconds of the timed part get their own
    /// statistics (the pile settled, when the timed part starts at the drop).
    #[arg(long, default_value_t = 1.0)]
    window: f64,
    /// Every this many steps, contact-lab's step is compared with its oracle:
    /// eq. (6) assembled and solved once at the step's start with the step's
    /// final handled set known in advance (the least an active-set method does).
    #[arg(long, default_value_t = 10)]
    oracle_every: usize,
    /// Write every timed step to this CSV file: engine, step, µs, thread CPU µs, penetration (m), events.
    #[arg(long)]
    steps_csv: Option<PathBuf>,
    /// Coulomb's μ of every contact in both engines (replacing the scene's own):
    /// contact-lab's walls, generated pairs and contact rows (solved by Exact),
    /// rapier's colliders (combine rule `Min`). 0: frictionless.
    #[arg(long, value_name = "MU", default_value_t = 0.0)]
    friction: f64,
}

/// The allocator contact-lab's app and CLI run on (the root Cargo.toml says
/// why); rapier2d runs on it too, in the same process.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let args = Args::parse();
    if let Err(e) = run(&args) {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}

/// The repository's root (this crate is `benches/peer` in it).
fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn scene_path(args: &Args) -> Result<PathBuf, String> {
    let file = match args.scene {
        SceneArg::Pile => "ball-pile.ron",
        SceneArg::Billiard => "billiard-corner.ron",
        SceneArg::Pyramid => "box-pyramid.ron",
        SceneArg::File => {
            let p = args.path.as_ref().ok_or("--scene file needs --path FILE")?;
            if p.exists() || p.is_absolute() {
                return Ok(p.clone());
            }
            return Ok(repo_root().join(p));
        }
    };
    if args.path.is_some() {
        return Err("--path goes with --scene file".into());
    }
    Ok(repo_root().join("assets/scenes").join(file))
}

fn run(args: &Args) -> Result<(), String> {
    let path = scene_path(args)?;
    // `..Default::default()`: contact-core may give Overrides more fields.
    #[allow(clippy::needless_update)]
    let ov = match args.scene {
        SceneArg::Pile | SceneArg::File => Overrides { balls: args.balls, ..Default::default() },
        SceneArg::Billiard | SceneArg::Pyramid => Overrides::default(),
    };
    let s = scene::load(&path, &ov).map_err(|e| format!("{}: {}", path.display(), e.message))?;
    let h = s.dt;
    let world = s.world;
    let duration = args.duration.unwrap_or(match args.scene {
        SceneArg::Pile => 1.0,
        SceneArg::Billiard => 2.0,
        SceneArg::Pyramid | SceneArg::File => s.duration,
    });
    let settle = args.settle.unwrap_or(match args.scene {
        SceneArg::Pile => 2.0,
        _ => 0.0,
    });
    let steps = (duration / h).round() as usize;
    let settle_steps = (settle / h).round() as usize;

    if !(args.friction.is_finite() && args.friction >= 0.0) {
        return Err(format!("--friction {}: μ must be a finite number ≥ 0", args.friction));
    }
    let mut world = world;
    let scene_friction = world.model.set_friction(args.friction);
    let mut desc = Desc::of(&world, args.friction)?;
    let algorithms: Vec<Algorithm> = match args.algorithm {
        None => vec![world.settings.algorithm],
        Some(AlgorithmArg::Right) => vec![Algorithm::Right],
        Some(AlgorithmArg::Exact) => vec![Algorithm::Exact],
        Some(AlgorithmArg::Both) => vec![Algorithm::Exact, Algorithm::Right],
    };

    println!(
        "scene: {} ({} moving bodies: {} balls, {} that turn; {} fixed; {} walls, {} constraints now), h = {} s, settle {} s ({} steps, untimed), timed {} s ({} steps)",
        s.name,
        desc.pieces.iter().filter(|b| !b.fixed).count(),
        desc.pieces.iter().filter(|b| !b.fixed && !b.turns).count(),
        desc.pieces.iter().filter(|b| !b.fixed && b.turns).count(),
        desc.pieces.iter().filter(|b| b.fixed).count(),
        desc.walls.len(),
        world.model.constraints.len(),
        h,
        settle,
        settle_steps,
        duration,
        steps,
    );
    println!(
        "threads: contact-lab solves a step's islands on {} (RAYON_NUM_THREADS sets it; the answer is the same on any \
         number), rapier2d on 1 (built without its parallel feature)",
        contact_core::threads()
    );
    println!(
        "restitution: ball-ball {}, walls {:?}; friction μ = {} (every contact, both engines{}); gravity ({}, {})",
        desc.pair_restitution,
        desc.walls.iter().map(|w| w.restitution).collect::<Vec<_>>(),
        desc.friction,
        if scene_friction != args.friction && scene_friction > 0.0 {
            format!("; the scene's own, up to {scene_friction}, replaced")
        } else {
            String::new()
        },
        desc.gravity.0,
        desc.gravity.1,
    );

    let own_settle = match args.settle_in {
        SettleIn::Own => settle_steps,
        SettleIn::Rapier => {
            if desc.pieces.iter().any(|b| b.turns || !matches!(b.outline, Outline::Round { .. })) {
                return Err(
                    "--settle-in rapier projects overlaps of balls only: not for bodies that turn or shapes".into()
                );
            }
            desc = settle_in_rapier(&desc, h, settle_steps);
            desc.write_into(&mut world);
            0
        }
    };
    let mut engines: Vec<(String, Box<dyn Engine>)> = Vec::new();
    if !args.rapier_only {
        for &alg in &algorithms {
            let mut w = world.clone();
            w.settings.algorithm = alg;
            w.settings.sleep.enabled = args.sleep;
            match args.scheme {
                Some(SchemeArg::EventDriven) => w.settings.scheme = contact_core::Scheme::EventDriven,
                Some(SchemeArg::TimeStepping) => w.settings.scheme = contact_core::Scheme::TimeStepping,
                None => {}
            }
            let name = if w.settings.scheme == contact_core::Scheme::TimeStepping {
                w.settings.algorithm = Algorithm::Exact;
                "Exact, time-stepping".to_string()
            } else {
                alg_name(alg).to_string()
            };
            let lab = Lab { world: w, h, last_violation: 0.0, before: None, handled: Vec::new() };
            engines.push((format!("contact-lab ({name})"), Box::new(lab)));
        }
    }
    let mut rapier = Rapier::new(&desc, h, args.rapier_sleep || args.sleep);
    if args.rapier_no_recycling {
        rapier.w.integration_parameters.contact_recycling = false;
    }
    let rapier_name = if args.rapier_no_recycling { " (no contact recycling)" } else { "" };
    engines.push((format!("rapier2d (f64) {RAPIER_VERSION}{rapier_name}"), Box::new(rapier)));
    let window = ((args.window / h).round() as usize).min(steps);
    let plan = Plan { settle_steps: own_settle, steps, chunk: args.chunk.max(1), oracle_every: args.oracle_every };
    let rows = measure(engines, &desc, &plan);
    let rapier_row = rows.last().expect("rapier's row").clone();

    print_table(&rows);
    println!();
    println!(
        "per step, release, µs (whole timed part: {} s from t = {settle} s; last: its last {} s):",
        duration,
        window as f64 * h
    );
    print_steps(&rows, window, h);
    for r in rows.iter().filter(|r| !r.name.starts_with("rapier")) {
        println!("ratio time/step {} / rapier: {:.2}", r.name, r.time_per_step_us() / rapier_row.time_per_step_us());
    }
    print_slowest(&rows, settle);
    if let Some(path) = &args.steps_csv {
        write_steps_csv(path, &rows).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    println!();
    print_displacements(&rows, &desc, settle + duration);
    Ok(())
}

fn alg_name(a: Algorithm) -> &'static str {
    match a {
        Algorithm::Exact => "exact",
        Algorithm::Right => "right",
        Algorithm::Platt => "platt",
        Algorithm::PlattImproved => "platt-improved",
    }
}

// ---------------------------------------------------------------------------
// What both engines are built from.

/// A wall `n·p ≥ offset + r` with a unit normal `n` (pointing into the free side).
#[derive(Clone, Copy, Debug)]
struct Wall {
    nx: f64,
    ny: f64,
    offset: f64,
    /// The restitution of its constraints (`None`: the scene's default).
    restitution: Option<f64>,
}

/// The walls of the model, one per distinct (normal, offset), normals made unit.
///
/// Walls are the half-planes that hold balls: those of the model's contact
/// generator (`model.contacts`, rows by proximity) and the `HalfPlane` constraints
/// (`WALL:BALL`, one per ball and wall, where the scene lists every row),
/// deduplicated. If walls change form again in contact-core, only this changes.
fn walls_of(model: &Model) -> Vec<Wall> {
    let mut found: Vec<(f64, f64, f64, Option<f64>)> = Vec::new();
    if let Some(g) = &model.contacts {
        found.extend(g.walls.iter().map(|w| (w.normal.x, w.normal.y, w.offset, w.restitution)));
    }
    for c in &model.constraints {
        if let Geometry::HalfPlane { normal, offset, .. } = &c.geometry {
            found.push((normal.x, normal.y, *offset, c.restitution));
        }
    }
    let mut walls: Vec<Wall> = Vec::new();
    for (nx, ny, offset, restitution) in found {
        let len = nx.hypot(ny);
        let w = Wall { nx: nx / len, ny: ny / len, offset: offset / len, restitution };
        let same = |o: &Wall| {
            (o.nx - w.nx).abs() < 1e-12 && (o.ny - w.ny).abs() < 1e-12 && (o.offset - w.offset).abs() < 1e-12
        };
        if !walls.iter().any(same) {
            walls.push(w);
        }
    }
    walls
}

/// Restitution of ball-ball impacts: the contact generator's, else that of a
/// `Contact` constraint that says, else the scene's default.
fn pair_restitution_of(world: &World) -> f64 {
    let from_generator = world.model.contacts.as_ref().and_then(|g| g.pair_restitution);
    let from_rows = world.model.constraints.iter().find_map(|c| match c.geometry {
        Geometry::Contact { .. } => c.restitution,
        _ => None,
    });
    from_generator.or(from_rows).unwrap_or(world.settings.events.restitution)
}

/// The outline of a body, in its frame.
#[derive(Clone, Debug)]
enum Outline {
    /// A ball (a particle with a radius) or a disc that turns.
    Round { radius: f64 },
    /// A box or a convex polygon: its corners, counterclockwise, around the centroid.
    Polygon { corners: Vec<(f64, f64)> },
}

/// A body, in the order of `model.bodies` (every body is a ball, a disc, a
/// box or a convex polygon, moving or fixed).
#[derive(Clone, Debug)]
struct Piece {
    name: String,
    fixed: bool,
    /// It has an angle coordinate (`BodyKind::Rigid`): rapier lets it turn.
    turns: bool,
    p: (f64, f64),
    angle: f64,
    v: (f64, f64),
    omega: f64,
    mass: f64,
    /// About the centroid, kg·m² (0 for a ball that does not turn).
    inertia: f64,
    outline: Outline,
    damping: f64,
}

impl Piece {
    /// The radius of a round body (0 for a polygon).
    fn radius(&self) -> f64 {
        match self.outline {
            Outline::Round { radius } => radius,
            Outline::Polygon { .. } => 0.0,
        }
    }
    /// The radius of the smallest circle about the centroid holding the body.
    fn reach(&self) -> f64 {
        match &self.outline {
            Outline::Round { radius } => *radius,
            Outline::Polygon { corners } => corners.iter().map(|c| c.0.hypot(c.1)).fold(0.0, f64::max),
        }
    }
}

/// The scene as both engines see it.
#[derive(Clone, Debug)]
struct Desc {
    pieces: Vec<Piece>,
    walls: Vec<Wall>,
    gravity: (f64, f64),
    /// Restitution of ball-ball impacts.
    pair_restitution: f64,
    /// Restitution of the walls that do not say.
    default_restitution: f64,
    /// Coulomb's μ of every collider (`--friction`).
    friction: f64,
}

fn outline_of(shape: &Shape) -> Outline {
    match shape {
        Shape::Disc { radius } => Outline::Round { radius: *radius },
        // Box and Polygon: the corners walls and other shapes hold it by.
        _ => Outline::Polygon { corners: shape.corners().iter().map(|c| (c.x, c.y)).collect() },
    }
}

impl Desc {
    fn of(world: &World, friction: f64) -> Result<Desc, String> {
        let model = &world.model;
        let (q, qd) = (&world.state.q, &world.state.qd);
        let mut pieces = Vec::new();
        for b in &model.bodies {
            let o = b.offset;
            let name = b.name.clone();
            let piece = match &b.kind {
                BodyKind::Particle if b.radius > 0.0 => Piece {
                    name,
                    fixed: false,
                    turns: false,
                    p: (q[o], q[o + 1]),
                    angle: 0.0,
                    v: (qd[o], qd[o + 1]),
                    omega: 0.0,
                    mass: b.mass,
                    inertia: 0.0,
                    outline: Outline::Round { radius: b.radius },
                    damping: b.damping,
                },
                BodyKind::Fixed { position } if b.radius > 0.0 => Piece {
                    name,
                    fixed: true,
                    turns: false,
                    p: *position,
                    angle: 0.0,
                    v: (0.0, 0.0),
                    omega: 0.0,
                    mass: b.mass,
                    inertia: 0.0,
                    outline: Outline::Round { radius: b.radius },
                    damping: 0.0,
                },
                BodyKind::Rigid { inertia, shape } => Piece {
                    name,
                    fixed: false,
                    turns: true,
                    p: (q[o], q[o + 1]),
                    angle: q[o + 2],
                    v: (qd[o], qd[o + 1]),
                    omega: qd[o + 2],
                    mass: b.mass,
                    inertia: *inertia,
                    outline: outline_of(shape),
                    damping: b.damping,
                },
                BodyKind::FixedShape { position, angle, shape } => Piece {
                    name,
                    fixed: true,
                    turns: false,
                    p: *position,
                    angle: *angle,
                    v: (0.0, 0.0),
                    omega: 0.0,
                    mass: b.mass,
                    inertia: 0.0,
                    outline: outline_of(shape),
                    damping: 0.0,
                },
                _ => {
                    return Err(format!(
                        "body `{}`: only balls (radius > 0), discs, boxes and polygons have a rapier counterpart here",
                        b.name
                    ));
                }
            };
            pieces.push(piece);
        }
        let default_restitution = world.settings.events.restitution;
        // Generated rows (walls, pairs, corners) follow the explicit ones.
        let explicit = model.contacts.as_ref().map_or(model.constraints.len(), |g| g.explicit);
        for c in &model.constraints[..explicit] {
            if !matches!(c.geometry, Geometry::HalfPlane { .. } | Geometry::Contact { .. }) {
                return Err(format!(
                    "constraint `{}`: only walls and ball contacts have a rapier counterpart here",
                    c.name
                ));
            }
        }
        // rapier collides every pair of bodies: say so if the scene does not.
        let is_round = |b: &Piece| matches!(b.outline, Outline::Round { .. }) && !b.turns;
        let pairs = match &model.contacts {
            Some(g) => g.pair_bodies.iter().filter(|&&i| is_round(&pieces[i])).count(),
            None => 0,
        };
        let pairs = match &model.contacts {
            Some(_) => pairs * pairs.saturating_sub(1) / 2,
            None => model.constraints.iter().filter(|c| matches!(c.geometry, Geometry::Contact { .. })).count(),
        };
        let balls: Vec<&Piece> = pieces.iter().filter(|b| is_round(b)).collect();
        let dynamic = balls.iter().filter(|b| !b.fixed).count();
        let all_pairs = dynamic * dynamic.saturating_sub(1) / 2 + dynamic * (balls.len() - dynamic);
        if pairs != all_pairs {
            eprintln!("warning: {pairs} ball pairs in the model, {all_pairs} in rapier (it collides every pair)");
        }
        let polygons = pieces.iter().filter(|b| matches!(b.outline, Outline::Polygon { .. })).count();
        let shape_bodies = model.contacts.as_ref().map_or(0, |g| g.shape_bodies.len());
        // (A scene with a single one may leave it out: it has no partner.)
        if polygons > 1 && shape_bodies != polygons {
            eprintln!("warning: {polygons} boxes and polygons, {shape_bodies} of them in the model's corner contacts");
        }
        Ok(Desc {
            pieces,
            walls: walls_of(model),
            gravity: (model.gravity.x, model.gravity.y),
            pair_restitution: pair_restitution_of(world),
            default_restitution,
            friction,
        })
    }

    /// The poses `(x, y, θ)` at the start.
    fn poses(&self) -> Vec<(f64, f64, f64)> {
        self.pieces.iter().map(|b| (b.p.0, b.p.1, b.angle)).collect()
    }
}

/// Settles the scene in rapier (stiffer contacts than its defaults), then makes
/// its end the common start of the timed part: the overlaps left (rapier's
/// contacts are soft: a loaded pile rests a little inside itself) are projected
/// out, and every ball is put at rest.
fn settle_in_rapier(desc: &Desc, h: f64, steps: usize) -> Desc {
    let mut r = Rapier::new(desc, h, false);
    // Stiffer contacts for the settling only (not for the timed part): rapier's
    // soft contacts sink under load (the static overlap grows with the weight
    // above, ~1/ω²: centimetres under a thousand balls), which the projection
    // below would have to undo. ×10 in frequency, 8 substeps: ~100× less.
    let ip = &mut r.w.integration_parameters;
    ip.contact_softness.natural_frequency *= 10.0;
    ip.static_contact_softness.natural_frequency *= 10.0;
    ip.num_solver_iterations = 8;
    let t0 = Instant::now();
    for _ in 0..steps {
        r.step();
    }
    let mut out = desc.clone();
    let mut vmax = 0.0_f64;
    for (b, h) in out.pieces.iter_mut().zip(&r.handles) {
        let body = &r.w.bodies[*h];
        let (p, v) = (body.translation(), body.linvel());
        b.p = (p.x, p.y);
        vmax = vmax.max(v.x.hypot(v.y));
        b.v = (0.0, 0.0);
    }
    let mut p: Vec<(f64, f64)> = out.pieces.iter().map(|b| b.p).collect();
    let poses: Vec<(f64, f64, f64)> = p.iter().map(|q| (q.0, q.1, 0.0)).collect();
    let before = Probe::new(&out).max_penetration(&out, &poses);
    let (after, sweeps) = project_overlaps(&out, &mut p);
    for (b, q) in out.pieces.iter_mut().zip(&p) {
        b.p = *q;
    }
    println!(
        "settled in rapier: {steps} steps in {:.1} s, max speed then {vmax:.2e} m/s, overlap {before:.2e} m \
         projected to {after:.1e} m in {sweeps} sweeps, all at rest: the start of both engines",
        t0.elapsed().as_secs_f64()
    );
    out
}

/// Moves balls apart (and off the walls) until no two overlap by more than 1e-12 m:
/// Gauss-Seidel sweeps from the bottom up (against gravity), pairs by a grid.
/// Returns the overlap left and the number of sweeps.
fn project_overlaps(desc: &Desc, p: &mut [(f64, f64)]) -> (f64, usize) {
    let (gx, gy) = desc.gravity;
    let up = |q: &(f64, f64)| -(gx * q.0 + gy * q.1);
    let mut order: Vec<usize> = (0..p.len()).collect();
    order.sort_by(|&a, &b| up(&p[a]).total_cmp(&up(&p[b])));
    let rmax = desc.pieces.iter().map(|b| b.radius()).fold(0.0, f64::max);
    let cell = 2.0 * rmax;
    let key = |q: &(f64, f64)| ((q.0 / cell).floor() as i64, (q.1 / cell).floor() as i64);
    let mut probe = Probe::new(desc);
    const TOL: f64 = 1e-12;
    for sweep in 1..=10_000 {
        let mut grid: std::collections::HashMap<(i64, i64), Vec<usize>> = Default::default();
        for (i, q) in p.iter().enumerate() {
            grid.entry(key(q)).or_default().push(i);
        }
        for &i in &order {
            let b = &desc.pieces[i];
            if b.fixed {
                continue;
            }
            for w in &desc.walls {
                let g = w.nx * p[i].0 + w.ny * p[i].1 - w.offset - b.radius();
                if g < 0.0 {
                    p[i].0 -= g * w.nx;
                    p[i].1 -= g * w.ny;
                }
            }
            let (cx, cy) = key(&p[i]);
            for dx in -1..=1 {
                for dy in -1..=1 {
                    let Some(cell) = grid.get(&(cx + dx, cy + dy)) else { continue };
                    for &j in cell {
                        if j == i {
                            continue;
                        }
                        let (ex, ey) = (p[i].0 - p[j].0, p[i].1 - p[j].1);
                        let d = ex.hypot(ey);
                        let gap = d - b.radius() - desc.pieces[j].radius();
                        if gap < 0.0 && d > 0.0 {
                            // Half each, all to the free one against a fixed ball.
                            let share = if desc.pieces[j].fixed { 1.0 } else { 0.5 };
                            let s = -gap * share * (1.0 + 1e-9) / d;
                            p[i].0 += ex * s;
                            p[i].1 += ey * s;
                            if !desc.pieces[j].fixed {
                                p[j].0 -= ex * s;
                                p[j].1 -= ey * s;
                            }
                        }
                    }
                }
            }
        }
        let poses: Vec<(f64, f64, f64)> = p.iter().map(|q| (q.0, q.1, 0.0)).collect();
        let left = probe.max_penetration(desc, &poses);
        if left <= TOL {
            return (left, sweep);
        }
    }
    let poses: Vec<(f64, f64, f64)> = p.iter().map(|q| (q.0, q.1, 0.0)).collect();
    (probe.max_penetration(desc, &poses), 10_000)
}

impl Desc {
    /// Writes the balls' positions and velocities into the world's state.
    fn write_into(&self, world: &mut World) {
        for (b, ball) in world.model.bodies.iter().zip(&self.pieces) {
            if !ball.fixed {
                world.state.q[b.offset] = ball.p.0;
                world.state.q[b.offset + 1] = ball.p.1;
                world.state.qd[b.offset] = ball.v.0;
                world.state.qd[b.offset + 1] = ball.v.1;
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Penetration with the same geometry for both engines.

/// The deepest penetration in m (0 if none), from the poses `(x, y, θ)` alone:
///
/// * ball or disc on a wall: `r − (n·p − offset)` (n unit);
/// * box or polygon on a wall: its deepest corner, `−(n·c − offset)`;
/// * two balls or discs: `ra + rb − |pa − pb|`;
/// * two boxes or polygons: the depth of their overlap by separating axes (the
///   least push along an edge normal of either that parts them; for a corner
///   just inside an edge, that corner's depth below the edge);
/// * a ball or disc and a polygon: `r` minus the distance from the centre to the
///   polygon (plus the centre's depth when it is inside).
///
/// A uniform grid of cells `2 reach_max` wide keeps it linear in the number of bodies.
struct Probe {
    cell: f64,
    grid: std::collections::HashMap<(i64, i64), Vec<u32>>,
    /// The corners of each polygon in the world (empty for a round body).
    corners: Vec<Vec<(f64, f64)>>,
}

/// The corners of `b` at pose `(x, y, θ)`, in the world.
fn world_corners(b: &Piece, (x, y, t): (f64, f64, f64), out: &mut Vec<(f64, f64)>) {
    out.clear();
    if let Outline::Polygon { corners } = &b.outline {
        let (s, c) = t.sin_cos();
        out.extend(corners.iter().map(|&(u, v)| (x + c * u - s * v, y + s * u + c * v)));
    }
}

/// The largest signed distance of `pts` from the edges' lines of the convex
/// polygon `poly` (counterclockwise), taking for each edge the point of `pts`
/// deepest behind it: positive when an edge of `poly` separates them.
fn separation(poly: &[(f64, f64)], pts: &[(f64, f64)]) -> f64 {
    let mut best = f64::NEG_INFINITY;
    for i in 0..poly.len() {
        let (a, b) = (poly[i], poly[(i + 1) % poly.len()]);
        let (ex, ey) = (b.0 - a.0, b.1 - a.1);
        let len = ex.hypot(ey);
        // Outward normal of a counterclockwise polygon: the edge turned clockwise.
        let (nx, ny) = (ey / len, -ex / len);
        let deepest = pts.iter().map(|p| nx * (p.0 - a.0) + ny * (p.1 - a.1)).fold(f64::INFINITY, f64::min);
        best = best.max(deepest);
    }
    best
}

/// The overlap of a circle (centre `c`, radius `r`) and a convex polygon.
fn circle_polygon_depth(c: (f64, f64), r: f64, poly: &[(f64, f64)]) -> f64 {
    let s = separation(poly, &[c]);
    if s <= 0.0 {
        return r - s;
    }
    let mut d2 = f64::INFINITY;
    for i in 0..poly.len() {
        let (a, b) = (poly[i], poly[(i + 1) % poly.len()]);
        let (ex, ey) = (b.0 - a.0, b.1 - a.1);
        let t = (((c.0 - a.0) * ex + (c.1 - a.1) * ey) / (ex * ex + ey * ey)).clamp(0.0, 1.0);
        let (dx, dy) = (c.0 - a.0 - t * ex, c.1 - a.1 - t * ey);
        d2 = d2.min(dx * dx + dy * dy);
    }
    r - d2.sqrt()
}

impl Probe {
    fn new(desc: &Desc) -> Probe {
        let reach = desc.pieces.iter().map(Piece::reach).fold(0.0, f64::max);
        Probe { cell: 2.0 * reach, grid: Default::default(), corners: vec![Vec::new(); desc.pieces.len()] }
    }

    fn max_penetration(&mut self, desc: &Desc, p: &[(f64, f64, f64)]) -> f64 {
        let mut worst = 0.0_f64;
        for (i, (b, &pose)) in desc.pieces.iter().zip(p).enumerate() {
            world_corners(b, pose, &mut self.corners[i]);
            if b.fixed {
                continue;
            }
            for w in &desc.walls {
                let depth = match b.outline {
                    Outline::Round { radius } => -(w.nx * pose.0 + w.ny * pose.1 - w.offset - radius),
                    Outline::Polygon { .. } => self.corners[i]
                        .iter()
                        .map(|c| -(w.nx * c.0 + w.ny * c.1 - w.offset))
                        .fold(f64::NEG_INFINITY, f64::max),
                };
                worst = worst.max(depth);
            }
        }
        for v in self.grid.values_mut() {
            v.clear();
        }
        let key = |c: f64, x: f64, y: f64| ((x / c).floor() as i64, (y / c).floor() as i64);
        for (i, &(x, y, _)) in p.iter().enumerate() {
            self.grid.entry(key(self.cell, x, y)).or_default().push(i as u32);
        }
        for (i, &(x, y, _)) in p.iter().enumerate() {
            let (cx, cy) = key(self.cell, x, y);
            for dx in -1..=1 {
                for dy in -1..=1 {
                    let Some(cell) = self.grid.get(&(cx + dx, cy + dy)) else { continue };
                    for &j in cell {
                        let j = j as usize;
                        let (a, b) = (&desc.pieces[i], &desc.pieces[j]);
                        if j <= i || (a.fixed && b.fixed) {
                            continue;
                        }
                        let depth = match (&a.outline, &b.outline) {
                            (Outline::Round { radius: ra }, Outline::Round { radius: rb }) => {
                                let (ex, ey) = (p[j].0 - x, p[j].1 - y);
                                ra + rb - (ex * ex + ey * ey).sqrt()
                            }
                            (Outline::Round { radius }, Outline::Polygon { .. }) => {
                                circle_polygon_depth((x, y), *radius, &self.corners[j])
                            }
                            (Outline::Polygon { .. }, Outline::Round { radius }) => {
                                circle_polygon_depth((p[j].0, p[j].1), *radius, &self.corners[i])
                            }
                            (Outline::Polygon { .. }, Outline::Polygon { .. }) => {
                                let (ci, cj) = (&self.corners[i], &self.corners[j]);
                                -separation(ci, cj).max(separation(cj, ci))
                            }
                        };
                        worst = worst.max(depth);
                    }
                }
            }
        }
        worst
    }
}

// ---------------------------------------------------------------------------
// The two engines behind one interface.

trait Engine {
    /// One step; returns the events (rewinds and impacts) it resolved.
    fn step(&mut self) -> usize;
    /// Keeps what [`Engine::oracle`] needs of the state before the next step.
    fn prepare_oracle(&mut self) {}
    /// The time of the oracle of the step just taken (see `--oracle-every`).
    fn oracle(&mut self) -> Option<Duration> {
        None
    }
    /// The engine's own measure of the last step's penetration: contact-lab's
    /// `StepReport::max_violation`, rapier's deepest contact in its narrow phase.
    fn reported_violation(&self) -> Option<f64>;
    /// Poses `(x, y, θ)` of the bodies, in the order of `Desc::pieces`.
    fn poses(&self, out: &mut Vec<(f64, f64, f64)>);
    /// Kinetic + potential energy (gravity), J.
    fn energy(&self) -> f64;
}

struct Lab {
    world: World,
    h: f64,
    last_violation: f64,
    /// The state before the step, kept for the oracle.
    before: Option<contact_core::State>,
    handled: Vec<usize>,
}

impl Engine for Lab {
    fn step(&mut self) -> usize {
        let r = self.world.step(self.h);
        self.last_violation = r.max_violation;
        if self.before.is_some() {
            self.handled = (0..r.handled.len()).filter(|&k| r.handled[k]).collect();
        }
        r.events.len()
    }
    fn prepare_oracle(&mut self) {
        self.before = Some(self.world.state.clone());
    }
    fn oracle(&mut self) -> Option<Duration> {
        let before = self.before.take()?;
        // The rows are those of the step (generated rows change only at a step's start).
        let t = Instant::now();
        let p = contact_core::ContactProblem::new(&self.world.model, &before, self.world.settings.tau);
        std::hint::black_box(p.solve(&self.handled));
        Some(t.elapsed())
    }
    fn reported_violation(&self) -> Option<f64> {
        Some(self.last_violation)
    }
    fn poses(&self, out: &mut Vec<(f64, f64, f64)>) {
        out.clear();
        let (q, qd) = (&self.world.state.q, &self.world.state.qd);
        for b in &self.world.model.bodies {
            let angle = b.angle(q, qd).0;
            out.push(match &b.kind {
                BodyKind::Fixed { position } | BodyKind::FixedShape { position, .. } => (position.0, position.1, angle),
                _ => (q[b.offset], q[b.offset + 1], angle),
            });
        }
    }
    fn energy(&self) -> f64 {
        self.world.model.kinetic_energy(&self.world.state) + self.world.model.potential_energy(&self.world.state)
    }
}

struct Rapier {
    w: PhysicsWorld,
    handles: Vec<RigidBodyHandle>,
    /// The inertia each body was given (0 for a ball whose rotations are locked).
    inertia: Vec<f64>,
}

impl Rapier {
    fn new(desc: &Desc, h: f64, sleep: bool) -> Rapier {
        let mut w = PhysicsWorld { gravity: RVector::new(desc.gravity.0, desc.gravity.1), ..Default::default() };
        // Only dt is changed: solver iterations etc. stay rapier's defaults.
        w.integration_parameters.dt = h;
        // Restitution: rapier combines the two colliders' coefficients with the
        // rule of higher priority. Multiply on every collider gives exactly
        // e_pair for two balls (√e_pair each) and e_wall for a ball on a wall
        // (e_wall / √e_pair on the wall). With e_pair = 0, Average: balls 0, walls 2 e_wall.
        let ep = desc.pair_restitution;
        let (rule, ball_e) = if ep > 0.0 {
            (CoefficientCombineRule::Multiply, ep.sqrt())
        } else {
            (CoefficientCombineRule::Average, 0.0)
        };
        let wall_e = |e: f64| if ep > 0.0 { e / ball_e } else { 2.0 * e };
        let mut handles = Vec::new();
        let mut inertia = Vec::new();
        for b in &desc.pieces {
            let rb = if b.fixed {
                RigidBodyBuilder::fixed()
            } else {
                let rb = RigidBodyBuilder::dynamic()
                    .linvel(RVector::new(b.v.0, b.v.1))
                    .angvel(b.omega)
                    .linear_damping(b.damping)
                    .can_sleep(sleep);
                // A ball is a point with a radius; a body that turns keeps its rotations.
                if b.turns { rb } else { rb.lock_rotations() }
            }
            .translation(RVector::new(b.p.0, b.p.1))
            .rotation(b.angle);
            let co = match &b.outline {
                Outline::Round { radius } => ColliderBuilder::ball(*radius),
                // A box as a cuboid of the same half-extents, a polygon as its convex polyline.
                Outline::Polygon { corners } => match box_half_extents(corners) {
                    Some((hx, hy)) => ColliderBuilder::cuboid(hx, hy),
                    None => ColliderBuilder::convex_polyline(corners.iter().map(|c| RVector::new(c.0, c.1)).collect())
                        .unwrap_or_else(|| panic!("body `{}`: rapier refuses its polygon", b.name)),
                },
            };
            let mut co = co
                .friction(desc.friction)
                .friction_combine_rule(CoefficientCombineRule::Min)
                .restitution(ball_e)
                .restitution_combine_rule(rule);
            if !b.fixed {
                co = if b.turns {
                    // contact-lab's mass and inertia, whatever rapier would compute from the shape.
                    co.mass_properties(MassProperties::new(RVector::ZERO, b.mass, b.inertia))
                } else {
                    co.mass(b.mass)
                };
            }
            let (hb, _) = w.insert(rb, co);
            if !b.fixed {
                let m = w.bodies[hb].mass();
                assert!((m - b.mass).abs() <= 1e-9 * b.mass, "rapier mass {m} != {}", b.mass);
                if b.turns {
                    let i = w.bodies[hb].mass_properties().local_mprops.principal_inertia();
                    assert!((i - b.inertia).abs() <= 1e-9 * b.inertia, "rapier inertia {i} != {}", b.inertia);
                }
            }
            handles.push(hb);
            inertia.push(if b.turns { b.inertia } else { 0.0 });
        }
        for wall in &desc.walls {
            let n = RVector::new(wall.nx, wall.ny);
            let e = wall.restitution.unwrap_or(desc.default_restitution);
            // A half-space's solid side is n·x ≤ 0 around its body's origin; ours
            // is n·p ≤ offset, so the fixed body sits at offset·n.
            let rb = RigidBodyBuilder::fixed().translation(n * wall.offset);
            let co = ColliderBuilder::halfspace(Unit::new_unchecked(n))
                .friction(desc.friction)
                .friction_combine_rule(CoefficientCombineRule::Min)
                .restitution(wall_e(e))
                .restitution_combine_rule(rule);
            w.insert(rb, co);
        }
        Rapier { w, handles, inertia }
    }
}

/// The half-extents of a box centred on the origin and not turned, from its
/// corners (contact-lab's order: (−x, −y), (x, −y), (x, y), (−x, y)).
fn box_half_extents(c: &[(f64, f64)]) -> Option<(f64, f64)> {
    let (x, y) = (c.first()?.0.abs(), c.first()?.1.abs());
    let expect = [(-x, -y), (x, -y), (x, y), (-x, y)];
    (c.len() == 4 && c.iter().zip(&expect).all(|(a, b)| a == b)).then_some((x, y))
}

impl Engine for Rapier {
    fn step(&mut self) -> usize {
        self.w.step();
        0
    }
    /// The deepest contact of the narrow phase (computed at the step's start,
    /// before the solve, from the poses then, and recycled while they drift
    /// little): the depth rapier's solver saw.
    fn reported_violation(&self) -> Option<f64> {
        let mut worst = 0.0_f64;
        for pair in self.w.contact_pairs() {
            for m in pair.manifolds() {
                for c in &m.points {
                    worst = worst.max(-c.dist);
                }
            }
        }
        Some(worst)
    }
    fn poses(&self, out: &mut Vec<(f64, f64, f64)>) {
        out.clear();
        for h in &self.handles {
            let b = &self.w.bodies[*h];
            let t = b.translation();
            out.push((t.x, t.y, b.rotation().angle()));
        }
    }
    fn energy(&self) -> f64 {
        let g = self.w.gravity;
        self.handles
            .iter()
            .zip(&self.inertia)
            .map(|(h, &inertia)| {
                let b = &self.w.bodies[*h];
                if !b.is_dynamic() {
                    return 0.0;
                }
                let (m, v, p, w) = (b.mass(), b.linvel(), b.translation(), b.angvel());
                0.5 * m * (v.x * v.x + v.y * v.y) + 0.5 * inertia * w * w - m * (g.x * p.x + g.y * p.y)
            })
            .sum()
    }
}

// ---------------------------------------------------------------------------
// Measuring.

#[derive(Clone, Debug)]
struct Row {
    name: String,
    /// Timed steps.
    steps: usize,
    time: Duration,
    /// Max over the timed steps of the engine's own violation (contact-lab only).
    reported: Option<f64>,
    /// Max over the timed steps of the penetration from the poses ([`Probe`]).
    geometric: f64,
    /// The poses after the last timed step.
    end: Vec<(f64, f64, f64)>,
    e_start: f64,
    e_end: f64,
    settle_time: Duration,
    /// Every timed step: its time, the penetration after it, its events.
    per_step: Vec<(Duration, f64, usize)>,
    /// Every timed step: the thread's CPU time in it (what preemption by other
    /// processes does not inflate; read around the wall-clock timing).
    cpu: Vec<Duration>,
    /// Sampled steps: (the step's time, its oracle's time).
    oracle: Vec<(usize, Duration, Duration)>,
}

impl Row {
    fn time_per_step_us(&self) -> f64 {
        self.time.as_secs_f64() * 1e6 / self.steps as f64
    }
    fn steps_per_s(&self) -> f64 {
        self.steps as f64 / self.time.as_secs_f64()
    }
}

/// One engine under measurement.
struct Run {
    engine: Box<dyn Engine>,
    probe: Probe,
    row: Row,
}

/// How many steps to settle, time and interleave, and how often to time the oracle.
struct Plan {
    settle_steps: usize,
    steps: usize,
    chunk: usize,
    oracle_every: usize,
}

/// Settles every engine (untimed, one after the other), then times `steps` steps
/// of all of them interleaved in chunks of `chunk` steps, so that a busy machine
/// slows them alike. Only the calls to `step` are inside the timed part.
fn measure(engines: Vec<(String, Box<dyn Engine>)>, desc: &Desc, plan: &Plan) -> Vec<Row> {
    let Plan { settle_steps, steps, chunk, oracle_every } = *plan;
    let mut runs: Vec<Run> = engines
        .into_iter()
        .map(|(name, mut engine)| {
            eprintln!("settling {name} ...");
            let t0 = Instant::now();
            let mut said = Instant::now();
            for i in 0..settle_steps {
                engine.step();
                if said.elapsed() > Duration::from_secs(30) {
                    eprintln!("  {name}: settled {i}/{settle_steps} steps, {:.0} s", t0.elapsed().as_secs_f64());
                    said = Instant::now();
                }
            }
            let settle_time = t0.elapsed();
            let e_start = engine.energy();
            let row = Row {
                name,
                steps: 0,
                time: Duration::ZERO,
                reported: None,
                geometric: 0.0,
                end: Vec::new(),
                e_start,
                e_end: e_start,
                settle_time,
                per_step: Vec::with_capacity(steps),
                cpu: Vec::with_capacity(steps),
                oracle: Vec::new(),
            };
            Run { engine, probe: Probe::new(desc), row }
        })
        .collect();
    eprintln!("timing {} steps of {} engines, interleaved by {chunk} ...", steps, runs.len());
    let mut p = Vec::with_capacity(desc.pieces.len());
    let mut done = 0;
    let mut said = Instant::now();
    while done < steps {
        let n = chunk.min(steps - done);
        for run in &mut runs {
            for i in 0..n {
                let sample = oracle_every > 0 && (done + i) % oracle_every == 0;
                if sample {
                    run.engine.prepare_oracle();
                }
                let c = thread_cpu_time();
                let t = Instant::now();
                let events = run.engine.step();
                let dt = t.elapsed();
                run.row.cpu.push(thread_cpu_time().saturating_sub(c));
                run.row.time += dt;
                if sample {
                    if let Some(o) = run.engine.oracle() {
                        run.row.oracle.push((done + i, dt, o));
                    }
                }
                if let Some(v) = run.engine.reported_violation() {
                    run.row.reported = Some(run.row.reported.unwrap_or(0.0).max(v));
                }
                run.engine.poses(&mut p);
                let pen = run.probe.max_penetration(desc, &p);
                run.row.geometric = run.row.geometric.max(pen);
                run.row.per_step.push((dt, pen, events));
            }
            run.row.steps += n;
        }
        done += n;
        if said.elapsed() > Duration::from_secs(30) {
            let times: Vec<String> =
                runs.iter().map(|r| format!("{} {:.0} µs/step", r.row.name, r.row.time_per_step_us())).collect();
            eprintln!("  timed {done}/{steps} steps: {}", times.join(", "));
            said = Instant::now();
        }
    }
    runs.into_iter()
        .map(|mut run| {
            run.row.e_end = run.engine.energy();
            run.engine.poses(&mut run.row.end);
            run.row
        })
        .collect()
}

fn print_table(rows: &[Row]) {
    println!();
    println!(
        "{:<28} {:>10} {:>15} {:>22} {:>22} {:>16} {:>14} {:>11}",
        "engine",
        "steps/s",
        "time/step (µs)",
        "max penetration (m)",
        "reported max viol. (m)",
        "energy drift (J)",
        "E start (J)",
        "settle (s)"
    );
    for r in rows {
        println!(
            "{:<28} {:>10.1} {:>15.1} {:>22.3e} {:>22} {:>16.4e} {:>14.5} {:>11.2}",
            r.name,
            r.steps_per_s(),
            r.time_per_step_us(),
            r.geometric,
            r.reported.map_or("-".to_string(), |v| format!("{v:.3e}")),
            r.e_end - r.e_start,
            r.e_start,
            r.settle_time.as_secs_f64(),
        );
    }
}

/// Median, worst, mean (µs), max penetration (m), events per simulated second
/// and the oracle ratio (sum of sampled step times over their oracles') of
/// the timed steps from `from` on.
fn step_stats(r: &Row, from: usize, h: f64) -> (f64, f64, f64, f64, f64, Option<f64>) {
    let part = &r.per_step[from.min(r.per_step.len())..];
    if part.is_empty() {
        return (0.0, 0.0, 0.0, 0.0, 0.0, None);
    }
    let mut us: Vec<f64> = part.iter().map(|s| s.0.as_secs_f64() * 1e6).collect();
    us.sort_by(f64::total_cmp);
    let mean = us.iter().sum::<f64>() / us.len() as f64;
    let pen = part.iter().map(|s| s.1).fold(0.0, f64::max);
    let events = part.iter().map(|s| s.2).sum::<usize>() as f64 / (part.len() as f64 * h);
    let sampled: Vec<_> = r.oracle.iter().filter(|o| o.0 >= from).collect();
    let oracle = (!sampled.is_empty()).then(|| {
        let step: f64 = sampled.iter().map(|o| o.1.as_secs_f64()).sum();
        let oracle: f64 = sampled.iter().map(|o| o.2.as_secs_f64()).sum();
        step / oracle
    });
    (us[us.len() / 2], us[us.len() - 1], mean, pen, events, oracle)
}

/// The per-step table: the whole timed part, then its last `window` steps.
fn print_steps(rows: &[Row], window: usize, h: f64) {
    println!(
        "| engine | part | median | worst | mean | steps/s (mean) | max penetration (m) | events/s | step / oracle |"
    );
    println!("|---|---|---:|---:|---:|---:|---:|---:|---:|");
    for r in rows {
        let n = r.per_step.len();
        for (part, from) in [("all", 0), ("last", n.saturating_sub(window))] {
            let (median, worst, mean, pen, events, oracle) = step_stats(r, from, h);
            println!(
                "| {} | {part} | {median:.1} | {worst:.1} | {mean:.1} | {:.0} | {pen:.1e} | {events:.0} | {} |",
                r.name,
                1e6 / mean,
                oracle.map_or("-".to_string(), |o| format!("{o:.2}")),
            );
        }
    }
}

/// Per engine: the 99th percentile of the step times, and the five slowest
/// steps by index in the timed part (step k starts at `t0 + k h`).
fn print_slowest(rows: &[Row], t0: f64) {
    for r in rows {
        if r.per_step.is_empty() {
            continue;
        }
        let mut idx: Vec<usize> = (0..r.per_step.len()).collect();
        idx.sort_by(|&a, &b| r.per_step[b].0.cmp(&r.per_step[a].0));
        let p99 = r.per_step[idx[idx.len() / 100]].0.as_secs_f64() * 1e6;
        // (the 99th percentile from the top: the 1 % slowest steps are above it)
        let slow: Vec<String> =
            idx.iter().take(5).map(|&k| format!("step {k} {:.0} µs", r.per_step[k].0.as_secs_f64() * 1e6)).collect();
        println!("{}: p99 {p99:.1} µs; slowest: {} (from t = {t0} s)", r.name, slow.join(", "));
        let mut cpu: Vec<f64> = r.cpu.iter().map(|d| d.as_secs_f64() * 1e6).collect();
        cpu.sort_by(f64::total_cmp);
        let mean = cpu.iter().sum::<f64>() / cpu.len() as f64;
        let worst = cpu.iter().copied().fold(0.0, f64::max);
        let at = r.cpu.iter().enumerate().max_by_key(|c| c.1).map_or(0, |c| c.0);
        println!(
            "{}: thread CPU time a step: median {:.1}, p99 {:.1}, worst {worst:.1} (step {at}), mean {mean:.1} µs",
            r.name,
            cpu[cpu.len() / 2],
            cpu[cpu.len() - 1 - cpu.len() / 100],
        );
    }
}

/// Whether the scene still stands at the end: the largest displacement of a
/// moving body from its start (its centre, and its turn), and the height (along
/// −g) of the body highest at the start, then and now.
fn print_displacements(rows: &[Row], desc: &Desc, t_end: f64) {
    let start = desc.poses();
    let (gx, gy) = desc.gravity;
    let g = gx.hypot(gy).max(f64::MIN_POSITIVE);
    let up = |p: &(f64, f64, f64)| -(gx * p.0 + gy * p.1) / g;
    let moving: Vec<usize> = (0..desc.pieces.len()).filter(|&i| !desc.pieces[i].fixed).collect();
    let Some(&top) = moving.iter().max_by(|&&a, &&b| up(&start[a]).total_cmp(&up(&start[b]))) else { return };
    println!(
        "at t = {t_end} s, from the scene's start (the top body `{}` started at height {:.6} m):",
        desc.pieces[top].name,
        up(&start[top])
    );
    println!("| engine | largest displacement (m) | of | largest turn (rad) | top body's height (m) |");
    println!("|---|---:|---|---:|---:|");
    for r in rows {
        let moved = |i: usize| (r.end[i].0 - start[i].0).hypot(r.end[i].1 - start[i].1);
        let far = moving.iter().copied().max_by(|&a, &b| moved(a).total_cmp(&moved(b))).expect("a moving body");
        // Wrapped to (−π, π]: rapier keeps its angle there, contact-lab's θ runs on.
        let wrapped = |d: f64| d.sin().atan2(d.cos()).abs();
        let turn = moving.iter().map(|&i| wrapped(r.end[i].2 - start[i].2)).fold(0.0, f64::max);
        println!(
            "| {} | {:.3e} | {} | {:.3e} | {:.6} |",
            r.name,
            moved(far),
            desc.pieces[far].name,
            turn,
            up(&r.end[top])
        );
    }
}

/// Every timed step of every engine, one line each.
fn write_steps_csv(path: &Path, rows: &[Row]) -> std::io::Result<()> {
    use std::io::Write;
    let mut f = std::io::BufWriter::new(std::fs::File::create(path)?);
    writeln!(f, "engine,step,us,cpu_us,penetration_m,events")?;
    for r in rows {
        for (k, (dt, pen, events)) in r.per_step.iter().enumerate() {
            let cpu = r.cpu.get(k).map_or(f64::NAN, |c| c.as_secs_f64() * 1e6);
            writeln!(f, "{},{k},{:.2},{cpu:.2},{pen:.3e},{events}", r.name, dt.as_secs_f64() * 1e6)?;
        }
    }
    f.flush()
}

/// The calling thread's CPU time (`CLOCK_THREAD_CPUTIME_ID`): it stops while
/// another process has the core.
fn thread_cpu_time() -> Duration {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `ts` is a valid, writable timespec; the clock id is a constant of the platform.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID)");
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}
