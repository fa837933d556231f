//! From the file as written ([`super::schema`]) to a checked [`Scene`].
//!
//! Order: bodies (explicit, then the ball pile), constraints (explicit, then one
//! per wall and ball, then one per ball pair), the model, then the checks that
//! need positions (overlaps, constraints violated at the start), the solver, the
//! view and the plots. Each failure points at the text of the field it is about.

use std::collections::HashMap;

use nalgebra::Vector2;

use super::schema::{BallPileSpec, BodySpec, ConstraintSpec, SceneFile, Vec2};
use super::spans::{Locator, Pos};
use super::{Overrides, PlotPreset, Scene, SceneError, ViewBox};
use crate::active_set::Tolerances;
use crate::body::{Body, BodyKind};
use crate::constraint::{Constraint, ConstraintKind, Geometry};
use crate::contacts::{ConstraintKey, ContactGenerator, PROXIMITY_ABOVE, Wall};
use crate::curve::Curve;
use crate::model::{Model, State};
use crate::settings::{EventSettings, Settings};
use crate::world::World;

type Result<T> = std::result::Result<T, SceneError>;

/// Where errors point: the file's name and its value positions.
pub struct Ctx<'a> {
    pub origin: &'a str,
    pub locator: &'a Locator,
}

impl Ctx<'_> {
    /// An error about the field at `path`.
    pub(super) fn err(&self, path: &str, message: impl Into<String>) -> SceneError {
        let pos = self.locator.locate(path);
        SceneError {
            file: self.origin.to_string(),
            line: pos.map(|p| p.line),
            column: pos.map(|p| p.col),
            field: (!path.is_empty()).then(|| path.to_string()),
            message: message.into(),
        }
    }

    fn finite(&self, path: &str, v: f64) -> Result<f64> {
        if v.is_finite() { Ok(v) } else { Err(self.err(path, format!("must be a finite number, not {v}"))) }
    }

    fn finite2(&self, path: &str, v: Vec2) -> Result<Vector2<f64>> {
        self.finite(&format!("{path}[0]"), v.0)?;
        self.finite(&format!("{path}[1]"), v.1)?;
        Ok(Vector2::new(v.0, v.1))
    }

    fn positive(&self, path: &str, v: f64, what: &str) -> Result<f64> {
        self.finite(path, v)?;
        if v > 0.0 { Ok(v) } else { Err(self.err(path, format!("{what} must be positive, got {v}"))) }
    }

    fn non_negative(&self, path: &str, v: f64, what: &str) -> Result<f64> {
        self.finite(path, v)?;
        if v >= 0.0 { Ok(v) } else { Err(self.err(path, format!("{what} must not be negative, got {v}"))) }
    }

    fn restitution(&self, path: &str, e: Option<f64>) -> Result<Option<f64>> {
        match e {
            Some(e) if !(0.0..=1.0).contains(&e) => {
                Err(self.err(path, format!("restitution must be in [0, 1], got {e}")))
            }
            e => Ok(e),
        }
    }

    /// Names end up in CSV headers and series (`NAME.g`): no dots, commas or spaces.
    fn name(&self, path: &str, name: &str) -> Result<()> {
        if name.is_empty() {
            return Err(self.err(path, "a name must not be empty"));
        }
        if let Some(c) = name.chars().find(|c| *c == '.' || *c == ',' || *c == '"' || c.is_whitespace()) {
            return Err(
                self.err(path, format!("name `{name}` must not contain {c:?} (names are used in `NAME.g` series)"))
            );
        }
        Ok(())
    }
}

/// What the builder remembers about each body besides the core [`Body`].
struct BodyInfo {
    /// Path of the body in the file (`bodies[2]`, or `ball_pile` for generated ones).
    path: String,
    /// Takes part in `walls` (a ball that moves).
    walls: bool,
    /// Takes part in `ball_pairs` (a ball, moving or fixed).
    pairs: bool,
}

/// The bodies being built, with their initial coordinates.
#[derive(Default)]
struct Bodies {
    bodies: Vec<Body>,
    info: Vec<BodyInfo>,
    q: Vec<f64>,
    qd: Vec<f64>,
    by_name: HashMap<String, usize>,
}

impl Bodies {
    fn push(&mut self, cx: &Ctx, name_path: &str, mut body: Body, info: BodyInfo, q: &[f64], qd: &[f64]) -> Result<()> {
        cx.name(name_path, &body.name)?;
        // As `Model::new` will: the body's coordinates follow those pushed before.
        body.offset = self.q.len();
        if let Some(&first) = self.by_name.get(&body.name) {
            let at = line_of(cx, &format!("{}.name", self.info[first].path));
            return Err(cx.err(name_path, format!("body name `{}` is used twice (first{at})", body.name)));
        }
        self.by_name.insert(body.name.clone(), self.bodies.len());
        self.bodies.push(body);
        self.info.push(info);
        self.q.extend_from_slice(q);
        self.qd.extend_from_slice(qd);
        Ok(())
    }

    /// The index of the body named at `path`, or an error listing the names.
    fn find(&self, cx: &Ctx, path: &str, name: &str) -> Result<usize> {
        self.by_name.get(name).copied().ok_or_else(|| {
            let mut known: Vec<&str> = self.bodies.iter().map(|b| b.name.as_str()).take(12).collect();
            if self.bodies.len() > known.len() {
                known.push("…");
            }
            cx.err(path, format!("unknown body `{name}` (bodies: {})", known.join(", ")))
        })
    }
}

/// ` at line N` when the path is written in the text.
fn line_of(cx: &Ctx, path: &str) -> String {
    cx.locator.locate(path).map(|p| format!(" at line {}", p.line)).unwrap_or_default()
}

fn new_body(name: &str, kind: BodyKind, mass: f64, radius: f64, force: Vector2<f64>, damping: f64) -> Body {
    Body { name: name.to_string(), kind, mass, radius, force, damping, user_force: Vector2::zeros(), offset: 0 }
}

/// A body written in the file.
fn add_body(cx: &Ctx, out: &mut Bodies, path: &str, spec: &BodySpec) -> Result<()> {
    let f = |field: &str| format!("{path}.{field}");
    match spec {
        BodySpec::Particle { name, position, velocity, mass, radius, force, damping }
        | BodySpec::Ball { name, position, velocity, mass, radius, force, damping } => {
            let ball = matches!(spec, BodySpec::Ball { .. });
            let p = cx.finite2(&f("position"), *position)?;
            let v = cx.finite2(&f("velocity"), *velocity)?;
            cx.positive(&f("mass"), *mass, "mass")?;
            if ball {
                cx.positive(&f("radius"), *radius, "a ball's radius")?;
            } else {
                cx.non_negative(&f("radius"), *radius, "radius")?;
            }
            let force = cx.finite2(&f("force"), *force)?;
            cx.non_negative(&f("damping"), *damping, "damping")?;
            let body = new_body(name, BodyKind::Particle, *mass, *radius, force, *damping);
            let info = BodyInfo { path: path.into(), walls: ball, pairs: ball };
            out.push(cx, &f("name"), body, info, &[p.x, p.y], &[v.x, v.y])
        }
        BodySpec::Bead { name, curve, u, u_dot, mass, radius, force, damping } => {
            check_curve(cx, &f("curve"), curve)?;
            cx.finite(&f("u"), *u)?;
            cx.finite(&f("u_dot"), *u_dot)?;
            cx.positive(&f("mass"), *mass, "mass")?;
            cx.non_negative(&f("radius"), *radius, "radius")?;
            let force = cx.finite2(&f("force"), *force)?;
            cx.non_negative(&f("damping"), *damping, "damping")?;
            let body = new_body(name, BodyKind::Bead(curve.clone()), *mass, *radius, force, *damping);
            let info = BodyInfo { path: path.into(), walls: false, pairs: false };
            out.push(cx, &f("name"), body, info, &[*u], &[*u_dot])
        }
        BodySpec::Anchor { name, position } => {
            let p = cx.finite2(&f("position"), *position)?;
            let body = new_body(name, BodyKind::Fixed { position: (p.x, p.y) }, 0.0, 0.0, Vector2::zeros(), 0.0);
            out.push(cx, &f("name"), body, BodyInfo { path: path.into(), walls: false, pairs: false }, &[], &[])
        }
        BodySpec::FixedBall { name, position, radius } => {
            let p = cx.finite2(&f("position"), *position)?;
            cx.positive(&f("radius"), *radius, "a ball's radius")?;
            let body = new_body(name, BodyKind::Fixed { position: (p.x, p.y) }, 0.0, *radius, Vector2::zeros(), 0.0);
            out.push(cx, &f("name"), body, BodyInfo { path: path.into(), walls: false, pairs: true }, &[], &[])
        }
    }
}

fn check_curve(cx: &Ctx, path: &str, curve: &Curve) -> Result<()> {
    match *curve {
        Curve::Segment { a, b } => {
            let (a, b) = (cx.finite2(&format!("{path}.a"), a)?, cx.finite2(&format!("{path}.b"), b)?);
            if (a - b).norm() == 0.0 {
                return Err(cx.err(&format!("{path}.b"), "a segment needs two distinct ends"));
            }
        }
        Curve::CircleArc { center, radius } => {
            cx.finite2(&format!("{path}.center"), center)?;
            cx.positive(&format!("{path}.radius"), radius, "the circle's radius")?;
        }
        Curve::Parabola { vertex, k } => {
            cx.finite2(&format!("{path}.vertex"), vertex)?;
            cx.finite(&format!("{path}.k"), k)?;
        }
        Curve::Cycloid { origin, r } => {
            cx.finite2(&format!("{path}.origin"), origin)?;
            cx.positive(&format!("{path}.r"), r, "the cycloid's r")?;
        }
    }
    Ok(())
}

/// The most balls a `ball_pile` may have (`count` or `--balls`): ten times the
/// lab's largest runs. A typo such as `count: 300000` would otherwise take
/// minutes to load (the overlap check is quadratic) or all the memory.
const MAX_PILE_BALLS: usize = 10_000;

/// The balls of a `ball_pile` block, on its grid.
fn add_pile(cx: &Ctx, out: &mut Bodies, pile: &BallPileSpec, count: usize) -> Result<()> {
    let f = |field: &str| format!("ball_pile.{field}");
    if count > MAX_PILE_BALLS {
        return Err(cx.err(&f("count"), format!("{count} balls is more than a pile may have ({MAX_PILE_BALLS})")));
    }
    let r = cx.positive(&f("radius"), pile.radius, "radius")?;
    cx.positive(&f("mass"), pile.mass, "mass")?;
    cx.non_negative(&f("damping"), pile.damping, "damping")?;
    let first = cx.finite2(&f("first"), pile.first)?;
    let v = cx.finite2(&f("velocity"), pile.velocity)?;
    let spacing = cx.positive(&f("spacing"), pile.spacing, "spacing")?;
    let stagger = cx.finite(&f("stagger"), pile.stagger)?;
    if pile.columns == 0 {
        return Err(cx.err(&f("columns"), "columns must be at least 1"));
    }
    if spacing < 2.0 * r {
        return Err(cx.err(
            &f("spacing"),
            format!("spacing {spacing} is less than a diameter ({}): the pile's balls would overlap", 2.0 * r),
        ));
    }
    for i in 0..count {
        let (row, col) = (i / pile.columns, i % pile.columns);
        let shift = if row % 2 == 1 { stagger } else { 0.0 };
        let p = first + Vector2::new(col as f64 * spacing + shift, row as f64 * spacing);
        let name = format!("{}{}", pile.prefix, i + 1);
        let body = new_body(&name, BodyKind::Particle, pile.mass, r, Vector2::zeros(), pile.damping);
        let info = BodyInfo { path: "ball_pile".into(), walls: true, pairs: true };
        out.push(cx, &f("prefix"), body, info, &[p.x, p.y], &[v.x, v.y])?;
    }
    Ok(())
}

/// The constraints being built, each with the path of the text it comes from.
#[derive(Default)]
struct Constraints {
    list: Vec<Constraint>,
    paths: Vec<String>,
    by_name: HashMap<String, usize>,
}

impl Constraints {
    fn push(&mut self, cx: &Ctx, path: &str, name_path: &str, c: Constraint) -> Result<()> {
        cx.name(name_path, &c.name)?;
        if let Some(&first) = self.by_name.get(&c.name) {
            let at = line_of(cx, &self.paths[first]);
            return Err(cx.err(name_path, format!("constraint name `{}` is used twice (first{at})", c.name)));
        }
        self.by_name.insert(c.name.clone(), self.list.len());
        self.list.push(c);
        self.paths.push(path.to_string());
        Ok(())
    }
}

fn inequality(name: String, geometry: Geometry, restitution: Option<f64>) -> Constraint {
    Constraint { name, kind: ConstraintKind::Inequality, geometry, restitution }
}

/// The distance between two bodies' points at the start.
fn start_distance(b: &Bodies, a: usize, c: usize) -> f64 {
    let pa = b.bodies[a].kinematics(&b.q, &b.qd).p;
    let pc = b.bodies[c].kinematics(&b.q, &b.qd).p;
    (pa - pc).norm()
}

/// A constraint written in the file.
fn add_constraint(cx: &Ctx, b: &Bodies, out: &mut Constraints, path: &str, spec: &ConstraintSpec) -> Result<()> {
    let f = |field: &str| format!("{path}.{field}");
    let e = cx.restitution(&f("restitution"), spec.restitution())?;
    // Two distinct bodies, not both fixed.
    let pair = |a: &str, c: &str| -> Result<(usize, usize)> {
        let (ia, ic) = (b.find(cx, &f("a"), a)?, b.find(cx, &f("b"), c)?);
        if ia == ic {
            return Err(cx.err(&f("b"), format!("`a` and `b` are the same body `{a}`")));
        }
        if !b.bodies[ia].is_dynamic() && !b.bodies[ic].is_dynamic() {
            return Err(cx.err(&f("b"), format!("`{a}` and `{c}` are both fixed: the constraint could never act")));
        }
        Ok((ia, ic))
    };
    let length = |given: Option<f64>, ia: usize, ic: usize| -> Result<f64> {
        match given {
            Some(l) => cx.positive(&f("length"), l, "length"),
            None => {
                let l = start_distance(b, ia, ic);
                if l > 0.0 {
                    Ok(l)
                } else {
                    Err(cx.err(&f("length"), "the bodies start at the same point: give `length`"))
                }
            }
        }
    };
    let c = match spec {
        ConstraintSpec::HalfPlane { name, body, normal, offset, .. } => {
            let ib = b.find(cx, &f("body"), body)?;
            if !b.bodies[ib].is_dynamic() {
                return Err(cx.err(&f("body"), format!("body `{body}` is fixed: a half-plane on it could never act")));
            }
            let n = cx.finite2(&f("normal"), *normal)?;
            if n.norm() == 0.0 {
                return Err(cx.err(&f("normal"), "the normal must not be (0, 0)"));
            }
            let offset = cx.finite(&f("offset"), *offset)?;
            inequality(name.clone(), Geometry::HalfPlane { body: ib, normal: n, offset }, e)
        }
        ConstraintSpec::Contact { name, a, b: bname, .. } => {
            let (ia, ic) = pair(a, bname)?;
            let name = name.clone().unwrap_or_else(|| format!("{a}-{bname}"));
            inequality(name, Geometry::Contact { a: ia, b: ic }, e)
        }
        ConstraintSpec::Rod { name, a, b: bname, length: given } => {
            let (ia, ic) = pair(a, bname)?;
            let length = length(*given, ia, ic)?;
            Constraint {
                name: name.clone(),
                kind: ConstraintKind::Equality,
                geometry: Geometry::Distance { a: ia, b: ic, length },
                restitution: None,
            }
        }
        ConstraintSpec::Rope { name, a, b: bname, length: given, .. } => {
            let (ia, ic) = pair(a, bname)?;
            let length = length(*given, ia, ic)?;
            inequality(name.clone(), Geometry::Distance { a: ia, b: ic, length }, e)
        }
        ConstraintSpec::BeadBound { name, body, min, max, .. } => {
            let ib = b.find(cx, &f("body"), body)?;
            if !matches!(b.bodies[ib].kind, BodyKind::Bead(_)) {
                return Err(
                    cx.err(&f("body"), format!("body `{body}` is not a bead: bound a particle with a HalfPlane"))
                );
            }
            let (value, upper) = match (min, max) {
                (Some(v), None) => (cx.finite(&f("min"), *v)?, false),
                (None, Some(v)) => (cx.finite(&f("max"), *v)?, true),
                (Some(_), Some(_)) => {
                    return Err(cx.err(&f("max"), "give `min` or `max`, not both (write one BeadBound per end)"));
                }
                (None, None) => return Err(cx.err(path, "missing field `min` or `max`")),
            };
            inequality(name.clone(), Geometry::CoordBound { body: ib, coord: 0, value, upper }, e)
        }
    };
    let name_path = if cx.locator.contains(&f("name")) { f("name") } else { path.to_string() };
    out.push(cx, path, &name_path, c)
}

/// Builds and checks the scene.
pub fn build(file: SceneFile, ov: &Overrides, cx: &Ctx) -> Result<Scene> {
    let gravity = cx.finite2("gravity", file.gravity)?;

    // Bodies.
    let mut bodies = Bodies::default();
    for (i, spec) in file.bodies.iter().enumerate() {
        add_body(cx, &mut bodies, &format!("bodies[{i}]"), spec)?;
    }
    match (&file.ball_pile, ov.balls) {
        (Some(pile), balls) => add_pile(cx, &mut bodies, pile, balls.unwrap_or(pile.count))?,
        // Not in the text: the error points at the scene's start.
        (None, Some(_)) => {
            return Err(cx.err("ball_pile", "the number of balls was given, but this scene has no `ball_pile` block"));
        }
        (None, None) => {}
    }
    if bodies.bodies.is_empty() {
        return Err(cx.err("bodies", "the scene has no body"));
    }
    check_points(cx, &bodies)?;

    // Constraints: explicit, walls, ball pairs.
    let mut cons = Constraints::default();
    for (i, spec) in file.constraints.iter().enumerate() {
        add_constraint(cx, &bodies, &mut cons, &format!("constraints[{i}]"), spec)?;
    }
    // Walls and ball pairs: fixed rows, or rows by proximity when they would be
    // too many (see crate::contacts).
    let mut walls = Vec::new();
    for (w, wall) in file.walls.iter().enumerate() {
        let path = format!("walls[{w}]");
        cx.name(&format!("{path}.name"), &wall.name)?;
        let n = cx.finite2(&format!("{path}.normal"), wall.normal)?;
        if n.norm() == 0.0 {
            return Err(cx.err(&format!("{path}.normal"), "the normal must not be (0, 0)"));
        }
        let offset = cx.finite(&format!("{path}.offset"), wall.offset)?;
        let restitution = cx.restitution(&format!("{path}.restitution"), wall.restitution)?;
        walls.push(Wall { name: wall.name.clone(), normal: n, offset, restitution });
    }
    let wall_bodies: Vec<usize> = (0..bodies.bodies.len()).filter(|&i| bodies.info[i].walls).collect();
    let pair_bodies: Vec<usize> =
        if file.ball_pairs { (0..bodies.bodies.len()).filter(|&i| bodies.info[i].pairs).collect() } else { Vec::new() };
    let min_radius =
        pair_bodies.iter().chain(&wall_bodies).map(|&i| bodies.bodies[i].radius).fold(f64::INFINITY, f64::min);
    let generator = ContactGenerator {
        walls,
        wall_bodies,
        pair_bodies,
        pair_restitution: cx.restitution("ball_pair_restitution", file.ball_pair_restitution)?,
        margin: if min_radius.is_finite() && min_radius > 0.0 { 0.5 * min_radius } else { 0.01 },
        explicit: 0,
        keys: Vec::new(),
        version: 0,
    };
    let proximity = generator.potential() > 0 && ov.proximity.unwrap_or(generator.potential() > PROXIMITY_ABOVE);
    if !proximity {
        for w in 0..generator.walls.len() {
            let path = format!("walls[{w}]");
            for &b in &generator.wall_bodies {
                let c = generator.constraint(&bodies.bodies, ConstraintKey::Wall { wall: w, body: b });
                cons.push(cx, &path, &format!("{path}.name"), c)?;
            }
        }
        for (x, &a) in generator.pair_bodies.iter().enumerate() {
            for &b in &generator.pair_bodies[x + 1..] {
                if !bodies.bodies[a].is_dynamic() && !bodies.bodies[b].is_dynamic() {
                    continue;
                }
                let c = generator.constraint(&bodies.bodies, ConstraintKey::Pair { a, b });
                cons.push(cx, "ball_pairs", "ball_pairs", c)?;
            }
        }
    }

    let Bodies { bodies: body_list, info, q, qd, .. } = bodies;
    let mut model = Model::new(body_list, cons.list, gravity);
    let state = State { q, qd, t: 0.0 };
    let mut paths = cons.paths;
    if proximity {
        let margin = generator.margin;
        model = model.with_contacts(generator);
        let g = model.contacts.as_ref().expect("just set");
        let keys = g.candidates(&model.bodies, &state, margin, &[]);
        paths.extend(keys.iter().map(|k| match k {
            ConstraintKey::Wall { wall, .. } => format!("walls[{wall}]"),
            ConstraintKey::Pair { .. } => "ball_pairs".to_string(),
        }));
        model.set_contact_rows(keys);
    }
    check_overlaps(cx, &model, &info, &state)?;
    check_start(cx, &model, &paths, &state)?;

    // Solver.
    let s = &file.solver;
    let dt = cx.positive("solver.dt", s.dt, "the time step dt")?;
    let tau = cx.positive("solver.tau", s.tau, "Baumgarte's tau")?;
    let active = cx.non_negative("solver.active_tolerance", s.active_tolerance, "the tolerance")?;
    let tendency = cx.non_negative("solver.tendency_tolerance", s.tendency_tolerance, "the tolerance")?;
    let restitution = cx.restitution("solver.restitution", Some(s.restitution))?.unwrap_or(0.0);
    let min_impact_speed = cx.non_negative("solver.min_impact_speed", s.min_impact_speed, "the speed")?;
    let settings = Settings {
        algorithm: s.algorithm,
        tau,
        tol: Tolerances { active, tendency, ..Tolerances::default() },
        integrator: s.integrator,
        events: EventSettings {
            enabled: s.events,
            restitution,
            impulses: s.impulses,
            max_per_step: s.max_events_per_step,
            min_impact_speed,
        },
    };
    let duration = cx.positive("duration", file.duration, "duration")?;

    // View and plots.
    let view = match &file.view {
        Some(v) => {
            let (min, max) = (cx.finite2("view.min", v.min)?, cx.finite2("view.max", v.max)?);
            if min.x >= max.x || min.y >= max.y {
                return Err(cx.err("view.max", "the view's max must be above and right of its min"));
            }
            ViewBox { min: (min.x, min.y), max: (max.x, max.y) }
        }
        None => auto_view(&model, &state),
    };
    let known = super::series_names(&model);
    let mut plots = Vec::new();
    for (i, p) in file.plots.iter().enumerate() {
        for (j, s) in p.series.iter().enumerate() {
            if !known.iter().any(|k| k == s) {
                return Err(cx.err(
                    &format!("plots[{i}].series[{j}]"),
                    format!(
                        "unknown series `{s}`: use BODY.COORD[.v|.a], CONSTRAINT.g|.lambda|.handled, or one of {}",
                        super::GLOBAL_SERIES.join(", ")
                    ),
                ));
            }
        }
        plots.push(PlotPreset { title: p.title.clone(), series: p.series.clone() });
    }

    Ok(Scene {
        name: file.name,
        description: file.description.trim().to_string(),
        world: World::new(model, state, settings),
        view,
        plots,
        dt,
        duration,
        cue: file.cue,
    })
}

/// Every body's point and its velocity are finite at the start. Finite numbers
/// can still overflow: a bead far along a steep curve, the far rows of a pile
/// with a huge spacing.
fn check_points(cx: &Ctx, b: &Bodies) -> Result<()> {
    for (body, info) in b.bodies.iter().zip(&b.info) {
        let k = body.kinematics(&b.q, &b.qd);
        let finite = |v: Vector2<f64>| v.iter().all(|x| x.is_finite());
        if finite(k.p) && finite(k.v) {
            continue;
        }
        let path = &info.path;
        let field = match (&body.kind, finite(k.p)) {
            (BodyKind::Bead(_), true) => format!("{path}.u_dot"),
            (BodyKind::Bead(_), false) => format!("{path}.u"),
            _ if path == "ball_pile" => "ball_pile.spacing".to_string(),
            _ => format!("{path}.position"),
        };
        return Err(cx.err(
            &field,
            format!(
                "body `{}` would start at ({:?}, {:?}) with velocity ({:?}, {:?}): numbers too large",
                body.name, k.p.x, k.p.y, k.v.x, k.v.y
            ),
        ));
    }
    Ok(())
}

/// Round bodies (radius > 0) must not overlap at the start; two fixed ones may.
fn check_overlaps(cx: &Ctx, model: &Model, info: &[BodyInfo], state: &State) -> Result<()> {
    let round: Vec<usize> = (0..model.bodies.len()).filter(|&i| model.bodies[i].radius > 0.0).collect();
    let pos: Vec<Vector2<f64>> = round.iter().map(|&i| model.position(i, state)).collect();
    for (x, &i) in round.iter().enumerate() {
        for (y, &j) in round.iter().enumerate().skip(x + 1) {
            let (a, b) = (&model.bodies[i], &model.bodies[j]);
            if !a.is_dynamic() && !b.is_dynamic() {
                continue;
            }
            let dist = (pos[x] - pos[y]).norm();
            let depth = a.radius + b.radius - dist;
            if depth > 1e-9 {
                let path = if info[j].path == "ball_pile" { "ball_pile".to_string() } else { info[j].path.clone() };
                let field =
                    if cx.locator.contains(&format!("{path}.position")) { format!("{path}.position") } else { path };
                return Err(cx.err(
                    &field,
                    format!(
                        "bodies `{}` and `{}` overlap at the start by {depth:.3e} m (centres {dist:.6} m apart, radii {} + {})",
                        a.name, b.name, a.radius, b.radius
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// Inequalities must hold at the start (`g ≥ 0`) and equalities be met (`g = 0`),
/// with `g` a finite number.
fn check_start(cx: &Ctx, model: &Model, paths: &[String], state: &State) -> Result<()> {
    let g = model.constraint_values(&state.q);
    for (k, c) in model.constraints.iter().enumerate() {
        let path = &paths[k];
        let on = || {
            let names: Vec<String> = c.bodies().iter().map(|&b| format!("`{}`", model.bodies[b].name)).collect();
            format!("`{}` on {}", c.name, names.join(" and "))
        };
        if !g[k].is_finite() {
            return Err(cx.err(path, format!("{} is g = {} at the start: numbers too large", on(), g[k])));
        }
        let bad = match c.kind {
            ConstraintKind::Inequality => g[k] < -1e-9,
            ConstraintKind::Equality => g[k].abs() > 1e-9,
        };
        if !bad {
            continue;
        }
        let (field, what) = match c.kind {
            ConstraintKind::Equality if cx.locator.contains(&format!("{path}.length")) => {
                (format!("{path}.length"), "the length does not match the bodies' distance at the start")
            }
            ConstraintKind::Equality => (path.clone(), "the bodies do not meet it at the start"),
            ConstraintKind::Inequality => (path.clone(), "a body starts on its wrong side"),
        };
        return Err(cx.err(&field, format!("{} is violated at the start: g = {:.3e} ({what})", on(), g[k])));
    }
    Ok(())
}

/// A box around every body, with a margin.
fn auto_view(model: &Model, state: &State) -> ViewBox {
    let (mut lo, mut hi) = (Vector2::repeat(f64::INFINITY), Vector2::repeat(f64::NEG_INFINITY));
    for (i, b) in model.bodies.iter().enumerate() {
        let p = model.position(i, state);
        let r = Vector2::repeat(b.radius);
        lo = lo.inf(&(p - r));
        hi = hi.sup(&(p + r));
    }
    let margin = ((hi - lo).max() * 0.25).max(0.5);
    let c = (lo + hi) / 2.0;
    let half = (hi - lo) / 2.0 + Vector2::repeat(margin);
    ViewBox { min: (c.x - half.x, c.y - half.y), max: (c.x + half.x, c.y + half.y) }
}

/// Turns a RON error into a [`SceneError`] with the field it happened in.
pub fn ron_error(e: &ron::error::SpannedError, origin: &str, loc: &Locator) -> SceneError {
    use ron::error::Error as E;
    let start = Pos { line: e.span.start.line, col: e.span.start.col };
    let end = Pos { line: e.span.end.line, col: e.span.end.col };
    // The deeper of the values enclosing either end of the error's span. The top
    // level is a struct: a path that starts with an index means the scan lost
    // its way in the broken text (after an unterminated string) and names nothing.
    let enclosing = [loc.path_at(start), loc.path_at(end)]
        .into_iter()
        .flatten()
        .filter(|p| !p.starts_with('['))
        .max_by_key(|p| p.len())
        .map(str::to_string);
    let join = |field: &str| match &enclosing {
        Some(p) if p.rsplit(['.', '[']).next() == Some(field) => p.clone(),
        Some(p) => format!("{p}.{field}"),
        None => field.to_string(),
    };
    let (field, message) = match &e.code {
        // Some editors save one; RON does not skip it.
        _ if loc.starts_with_bom() && start == (Pos { line: 1, col: 1 }) => {
            (None, "the file starts with a byte-order mark (U+FEFF): save it as UTF-8 without one".into())
        }
        // At the closing `)` of the struct that lacks it.
        E::MissingStructField { field, outer } => {
            (Some(join(field)), format!("missing field `{field}`{}", in_outer(outer)))
        }
        // At the unknown key.
        E::NoSuchStructField { expected, found, outer } => (
            Some(join(found)),
            format!("unknown field `{found}`{}; expected one of: {}", in_outer(outer), expected.join(", ")),
        ),
        E::DuplicateStructField { field, outer } => {
            (Some(join(field)), format!("field `{field}` is given twice{}", in_outer(outer)))
        }
        E::NoSuchEnumVariant { expected, found, outer } => (
            enclosing,
            format!(
                "unknown {} `{found}`; expected one of: {}",
                outer.as_deref().map_or("variant", type_label),
                expected.join(", ")
            ),
        ),
        E::ExpectedFloat | E::ExpectedInteger => (enclosing, "expected a number".into()),
        E::ExpectedString => (enclosing, "expected a string in double quotes".into()),
        E::ExpectedBoolean => (enclosing, "expected `true` or `false`".into()),
        E::ExpectedIdentifier => {
            (enclosing, "expected a field name or a value (is a bracket missing or a comma misplaced?)".into())
        }
        other => (enclosing, lowercase_first(&other.to_string())),
    };
    SceneError { file: origin.to_string(), line: Some(start.line), column: Some(start.col), field, message }
}

/// `Expected comma` → `expected comma`, like the other messages.
fn lowercase_first(s: &str) -> String {
    let mut c = s.chars();
    c.next().map(|f| f.to_lowercase().chain(c).collect()).unwrap_or_default()
}

/// The schema's type names as a reader of the file knows them.
fn type_label(rust: &str) -> &str {
    match rust {
        "BodySpec" => "body kind",
        "ConstraintSpec" => "constraint kind",
        "Curve" => "curve",
        "Algorithm" => "algorithm",
        "ImpulseMode" => "impulse mode",
        "Integrator" => "integrator",
        "SolverSpec" => "solver",
        "WallSpec" => "wall",
        "BallPileSpec" => "ball_pile",
        "ViewSpec" => "view",
        "PlotSpec" => "plot",
        other => other,
    }
}

fn in_outer(outer: &Option<String>) -> String {
    outer.as_deref().map(|o| format!(" in `{}`", type_label(o))).unwrap_or_default()
}
