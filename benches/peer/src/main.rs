//! contact-lab beside rapier2d (f64), in one process, on the same scene.
//!
//! The scene is loaded once through `contact_core::scene::load`; the rapier world
//! is built from that loaded world (positions, velocities, masses, radii, damping,
//! gravity, restitution, walls, step h), so both engines start from the same
//! state. Each engine optionally settles (untimed), or rapier settles once for
//! both (`--settle-in rapier`), then the engines step `duration / h` times,
//! interleaved in chunks; only the calls to `step` are timed. Penetration and
//! energy are measured after each step, outside the timed part, with the same
//! geometry for both. See README.md.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use clap::{Parser, ValueEnum};
use contact_core::scene::{self, Overrides};
use contact_core::{Algorithm, BodyKind, Geometry, Model, World};
use rapier2d_f64::prelude::{
    CoefficientCombineRule, ColliderBuilder, PhysicsWorld, RigidBodyBuilder, RigidBodyHandle,
};
use rapier2d_f64::math::Vector as RVector;
use rapier2d_f64::prelude::nalgebra::Unit;

/// The version of rapier2d-f64 this crate is pinned to (Cargo.toml, `=`).
const RAPIER_VERSION: &str = "0.36.1";

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum SceneArg {
    /// assets/scenes/ball-pile.ron: N balls dropped into a 1 m box.
    Pile,
    /// assets/scenes/billiard-corner.ron: the break, 11 balls, two cushions.
    Billiard,
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
/// friction is 0 (our model is frictionless), rotations are locked (our balls are
/// points with a radius) and, unless `--rapier-sleep`, bodies never sleep (ours
/// never do).
#[derive(Parser, Debug)]
#[command(version, about, long_about)]
struct Args {
    /// Which scene.
    #[arg(long, value_enum, default_value = "pile")]
    scene: SceneArg,
    /// Number of balls of the pile (the scene file's 30 if absent; ignored by the billiard).
    #[arg(long)]
    balls: Option<usize>,
    /// Simulated seconds to time (default: 1 s for the pile, 2 s for the billiard).
    #[arg(long)]
    duration: Option<f64>,
    /// contact-lab's algorithm (default: the scene's, Right for both scenes).
    #[arg(long, value_enum)]
    algorithm: Option<AlgorithmArg>,
    /// Simulated seconds stepped before the timed part, untimed, by each engine
    /// from the scene's start (default: 2 s for the pile, 0 for the billiard).
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
}

fn main() {
    let args = Args::parse();
    if let Err(e) = run(&args) {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}

fn scene_path(s: SceneArg) -> PathBuf {
    let file = match s {
        SceneArg::Pile => "ball-pile.ron",
        SceneArg::Billiard => "billiard-corner.ron",
    };
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/scenes").join(file)
}

fn run(args: &Args) -> Result<(), String> {
    let path = scene_path(args.scene);
    // `..Default::default()`: contact-core may give Overrides more fields.
    #[allow(clippy::needless_update)]
    let ov = match args.scene {
        SceneArg::Pile => Overrides { balls: args.balls, ..Default::default() },
        SceneArg::Billiard => Overrides::default(),
    };
    let s = scene::load(&path, &ov).map_err(|e| format!("{}: {}", path.display(), e.message))?;
    let h = s.dt;
    let world = s.world;
    let duration = args.duration.unwrap_or(match args.scene {
        SceneArg::Pile => 1.0,
        SceneArg::Billiard => 2.0,
    });
    let settle = args.settle.unwrap_or(match args.scene {
        SceneArg::Pile => 2.0,
        SceneArg::Billiard => 0.0,
    });
    let steps = (duration / h).round() as usize;
    let settle_steps = (settle / h).round() as usize;

    let mut world = world;
    let mut desc = Desc::of(&world)?;
    let algorithms: Vec<Algorithm> = match args.algorithm {
        None => vec![world.settings.algorithm],
        Some(AlgorithmArg::Right) => vec![Algorithm::Right],
        Some(AlgorithmArg::Exact) => vec![Algorithm::Exact],
        Some(AlgorithmArg::Both) => vec![Algorithm::Exact, Algorithm::Right],
    };

    println!(
        "scene: {} ({} balls, {} walls, {} constraints), h = {} s, settle {} s ({} steps, untimed), timed {} s ({} steps)",
        s.name,
        desc.balls.iter().filter(|b| !b.fixed).count(),
        desc.walls.len(),
        world.model.constraints.len(),
        h,
        settle,
        settle_steps,
        duration,
        steps,
    );
    println!(
        "restitution: ball-ball {}, walls {:?}; gravity ({}, {})",
        desc.pair_restitution,
        desc.walls.iter().map(|w| w.restitution).collect::<Vec<_>>(),
        desc.gravity.0,
        desc.gravity.1,
    );

    let own_settle = match args.settle_in {
        SettleIn::Own => settle_steps,
        SettleIn::Rapier => {
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
            let lab = Lab { world: w, h, last_violation: 0.0, before: None, handled: Vec::new() };
            engines.push((format!("contact-lab ({})", alg_name(alg)), Box::new(lab)));
        }
    }
    engines.push((format!("rapier2d (f64) {RAPIER_VERSION}"), Box::new(Rapier::new(&desc, h, args.rapier_sleep || args.sleep))));
    let window = ((args.window / h).round() as usize).min(steps);
    let plan = Plan { settle_steps: own_settle, steps, chunk: args.chunk.max(1), oracle_every: args.oracle_every };
    let rows = measure(engines, &desc, &plan);
    let rapier_row = rows.last().expect("rapier's row").clone();

    print_table(&rows);
    println!();
    println!("per step, release, µs (whole timed part: {} s from t = {settle} s; last: its last {} s):", duration, window as f64 * h);
    print_steps(&rows, window, h);
    for r in rows.iter().filter(|r| !r.name.starts_with("rapier")) {
        println!(
            "ratio time/step {} / rapier: {:.2}",
            r.name,
            r.time_per_step_us() / rapier_row.time_per_step_us()
        );
    }
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
        let same = |o: &Wall| (o.nx - w.nx).abs() < 1e-12 && (o.ny - w.ny).abs() < 1e-12 && (o.offset - w.offset).abs() < 1e-12;
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

/// A ball, in the order of `model.bodies` (every body is one).
#[derive(Clone, Debug)]
struct Ball {
    fixed: bool,
    p: (f64, f64),
    v: (f64, f64),
    mass: f64,
    radius: f64,
    damping: f64,
}

/// The scene as both engines see it.
#[derive(Clone, Debug)]
struct Desc {
    balls: Vec<Ball>,
    walls: Vec<Wall>,
    gravity: (f64, f64),
    /// Restitution of ball-ball impacts.
    pair_restitution: f64,
    /// Restitution of the walls that do not say.
    default_restitution: f64,
}

impl Desc {
    fn of(world: &World) -> Result<Desc, String> {
        let model = &world.model;
        let (q, qd) = (&world.state.q, &world.state.qd);
        let mut balls = Vec::new();
        for b in &model.bodies {
            let ball = match &b.kind {
                BodyKind::Particle if b.radius > 0.0 => Ball {
                    fixed: false,
                    p: (q[b.offset], q[b.offset + 1]),
                    v: (qd[b.offset], qd[b.offset + 1]),
                    mass: b.mass,
                    radius: b.radius,
                    damping: b.damping,
                },
                BodyKind::Fixed { position } if b.radius > 0.0 => Ball {
                    fixed: true,
                    p: *position,
                    v: (0.0, 0.0),
                    mass: b.mass,
                    radius: b.radius,
                    damping: 0.0,
                },
                _ => return Err(format!("body `{}`: only balls (radius > 0) have a rapier counterpart here", b.name)),
            };
            balls.push(ball);
        }
        let default_restitution = world.settings.events.restitution;
        for c in &model.constraints {
            if !matches!(c.geometry, Geometry::HalfPlane { .. } | Geometry::Contact { .. }) {
                return Err(format!("constraint `{}`: only walls and ball contacts have a rapier counterpart here", c.name));
            }
        }
        // rapier collides every pair of balls: say so if the scene does not.
        let pairs = match &model.contacts {
            Some(g) => g.pair_bodies.len() * g.pair_bodies.len().saturating_sub(1) / 2,
            None => model.constraints.iter().filter(|c| matches!(c.geometry, Geometry::Contact { .. })).count(),
        };
        let dynamic = balls.iter().filter(|b| !b.fixed).count();
        let all_pairs = dynamic * dynamic.saturating_sub(1) / 2 + dynamic * (balls.len() - dynamic);
        if pairs != all_pairs {
            eprintln!("warning: {pairs} ball pairs in the model, {all_pairs} in rapier (it collides every pair)");
        }
        Ok(Desc {
            balls,
            walls: walls_of(model),
            gravity: (model.gravity.x, model.gravity.y),
            pair_restitution: pair_restitution_of(world),
            default_restitution,
        })
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
    for (b, h) in out.balls.iter_mut().zip(&r.handles) {
        let body = &r.w.bodies[*h];
        let (p, v) = (body.translation(), body.linvel());
        b.p = (p.x, p.y);
        vmax = vmax.max(v.x.hypot(v.y));
        b.v = (0.0, 0.0);
    }
    let mut p: Vec<(f64, f64)> = out.balls.iter().map(|b| b.p).collect();
    let before = Probe::new(&out).max_penetration(&out, &p);
    let (after, sweeps) = project_overlaps(&out, &mut p);
    for (b, q) in out.balls.iter_mut().zip(&p) {
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
    let rmax = desc.balls.iter().map(|b| b.radius).fold(0.0, f64::max);
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
            let b = &desc.balls[i];
            if b.fixed {
                continue;
            }
            for w in &desc.walls {
                let g = w.nx * p[i].0 + w.ny * p[i].1 - w.offset - b.radius;
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
                        let gap = d - b.radius - desc.balls[j].radius;
                        if gap < 0.0 && d > 0.0 {
                            // Half each, all to the free one against a fixed ball.
                            let share = if desc.balls[j].fixed { 1.0 } else { 0.5 };
                            let s = -gap * share * (1.0 + 1e-9) / d;
                            p[i].0 += ex * s;
                            p[i].1 += ey * s;
                            if !desc.balls[j].fixed {
                                p[j].0 -= ex * s;
                                p[j].1 -= ey * s;
                            }
                        }
                    }
                }
            }
        }
        let left = probe.max_penetration(desc, p);
        if left <= TOL {
            return (left, sweep);
        }
    }
    (probe.max_penetration(desc, p), 10_000)
}

impl Desc {
    /// Writes the balls' positions and velocities into the world's state.
    fn write_into(&self, world: &mut World) {
        for (b, ball) in world.model.bodies.iter().zip(&self.balls) {
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

/// The deepest penetration in m (0 if none): pairs `|pa − pb| − ra − rb`, walls
/// `n·p − offset − r` (n unit). A uniform grid of cells `2 r_max` wide keeps it
/// linear in the number of balls.
struct Probe {
    cell: f64,
    grid: std::collections::HashMap<(i64, i64), Vec<u32>>,
}

impl Probe {
    fn new(desc: &Desc) -> Probe {
        let rmax = desc.balls.iter().map(|b| b.radius).fold(0.0, f64::max);
        Probe { cell: 2.0 * rmax, grid: Default::default() }
    }

    fn max_penetration(&mut self, desc: &Desc, p: &[(f64, f64)]) -> f64 {
        let mut worst = 0.0_f64;
        for (b, &(x, y)) in desc.balls.iter().zip(p) {
            if b.fixed {
                continue;
            }
            for w in &desc.walls {
                worst = worst.max(-(w.nx * x + w.ny * y - w.offset - b.radius));
            }
        }
        for v in self.grid.values_mut() {
            v.clear();
        }
        let key = |c: f64, x: f64, y: f64| ((x / c).floor() as i64, (y / c).floor() as i64);
        for (i, &(x, y)) in p.iter().enumerate() {
            self.grid.entry(key(self.cell, x, y)).or_default().push(i as u32);
        }
        for (i, &(x, y)) in p.iter().enumerate() {
            let (cx, cy) = key(self.cell, x, y);
            for dx in -1..=1 {
                for dy in -1..=1 {
                    let Some(cell) = self.grid.get(&(cx + dx, cy + dy)) else { continue };
                    for &j in cell {
                        let j = j as usize;
                        if j <= i || (desc.balls[i].fixed && desc.balls[j].fixed) {
                            continue;
                        }
                        let (ex, ey) = (p[j].0 - x, p[j].1 - y);
                        let gap = (ex * ex + ey * ey).sqrt() - desc.balls[i].radius - desc.balls[j].radius;
                        worst = worst.max(-gap);
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
    /// The engine's own measure of the last step's violation, if it has one.
    fn reported_violation(&self) -> Option<f64>;
    /// Ball centres, in the order of `Desc::balls`.
    fn positions(&self, out: &mut Vec<(f64, f64)>);
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
    fn positions(&self, out: &mut Vec<(f64, f64)>) {
        out.clear();
        let q = &self.world.state.q;
        for b in &self.world.model.bodies {
            out.push(match &b.kind {
                BodyKind::Fixed { position } => *position,
                _ => (q[b.offset], q[b.offset + 1]),
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
        for b in &desc.balls {
            let rb = if b.fixed {
                RigidBodyBuilder::fixed()
            } else {
                RigidBodyBuilder::dynamic()
                    .linvel(RVector::new(b.v.0, b.v.1))
                    .linear_damping(b.damping)
                    .lock_rotations()
                    .can_sleep(sleep)
            }
            .translation(RVector::new(b.p.0, b.p.1));
            let mut co = ColliderBuilder::ball(b.radius)
                .friction(0.0)
                .friction_combine_rule(CoefficientCombineRule::Min)
                .restitution(ball_e)
                .restitution_combine_rule(rule);
            if !b.fixed {
                co = co.mass(b.mass);
            }
            let (hb, _) = w.insert(rb, co);
            if !b.fixed {
                let m = w.bodies[hb].mass();
                assert!((m - b.mass).abs() <= 1e-9 * b.mass, "rapier mass {m} != {}", b.mass);
            }
            handles.push(hb);
        }
        for wall in &desc.walls {
            let n = RVector::new(wall.nx, wall.ny);
            let e = wall.restitution.unwrap_or(desc.default_restitution);
            // A half-space's solid side is n·x ≤ 0 around its body's origin; ours
            // is n·p ≤ offset, so the fixed body sits at offset·n.
            let rb = RigidBodyBuilder::fixed().translation(n * wall.offset);
            let co = ColliderBuilder::halfspace(Unit::new_unchecked(n))
                .friction(0.0)
                .friction_combine_rule(CoefficientCombineRule::Min)
                .restitution(wall_e(e))
                .restitution_combine_rule(rule);
            w.insert(rb, co);
        }
        Rapier { w, handles }
    }
}

impl Engine for Rapier {
    fn step(&mut self) -> usize {
        self.w.step();
        0
    }
    fn reported_violation(&self) -> Option<f64> {
        None
    }
    fn positions(&self, out: &mut Vec<(f64, f64)>) {
        out.clear();
        for h in &self.handles {
            let t = self.w.bodies[*h].translation();
            out.push((t.x, t.y));
        }
    }
    fn energy(&self) -> f64 {
        let g = self.w.gravity;
        self.handles
            .iter()
            .map(|h| {
                let b = &self.w.bodies[*h];
                if !b.is_dynamic() {
                    return 0.0;
                }
                let (m, v, p) = (b.mass(), b.linvel(), b.translation());
                0.5 * m * (v.x * v.x + v.y * v.y) - m * (g.x * p.x + g.y * p.y)
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
    /// Max over the timed steps of the penetration from the ball positions.
    geometric: f64,
    e_start: f64,
    e_end: f64,
    settle_time: Duration,
    /// Every timed step: its time, the penetration after it, its events.
    per_step: Vec<(Duration, f64, usize)>,
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
                e_start,
                e_end: e_start,
                settle_time,
                per_step: Vec::with_capacity(steps),
                oracle: Vec::new(),
            };
            Run { engine, probe: Probe::new(desc), row }
        })
        .collect();
    eprintln!("timing {} steps of {} engines, interleaved by {chunk} ...", steps, runs.len());
    let mut p = Vec::with_capacity(desc.balls.len());
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
                let t = Instant::now();
                let events = run.engine.step();
                let dt = t.elapsed();
                run.row.time += dt;
                if sample {
                    if let Some(o) = run.engine.oracle() {
                        run.row.oracle.push((done + i, dt, o));
                    }
                }
                if let Some(v) = run.engine.reported_violation() {
                    run.row.reported = Some(run.row.reported.unwrap_or(0.0).max(v));
                }
                run.engine.positions(&mut p);
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
