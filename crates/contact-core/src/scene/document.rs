//! A scene as a document: the file as written ([`SceneFile`]), edited, checked
//! and saved back as text a person can read.
//!
//! Every change is checked the way a file is: the document is written out as
//! RON and read back by [`super::parse`], so an edit is refused with the same
//! message, field path (`bodies[3].mass`) and line a file with that value gets.
//! A saved document loads back to the same model and the same start, bit for
//! bit: numbers are written in Rust's shortest form that reads back to the
//! same `f64`.
//!
//! [`SceneDoc::from_world`] makes the state on screen the start of a new
//! scene ("edit from here"): positions and velocities of every body, a ball
//! pile written out ball by ball, rod and rope lengths written as they are in
//! the model (not re-measured from the new start), and the run's penetrations
//! at that instant as the file's `start_tolerance`, so the state loads bit for
//! bit.

use std::path::Path;

use super::schema::{BodySpec, ConstraintSpec, SceneFile, WallSpec};
use super::{Overrides, Scene, SceneError, parse, read};
use crate::active_set::Tolerances;
use crate::constraint::Geometry;
use crate::settings::{EventSettings, Settings};
use crate::sleep::SleepSettings;
use crate::world::World;

/// A part of a document the editor selects, by name: a body, a wall (every
/// ball's half-plane), or a constraint written in the file.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Item {
    Body(String),
    Wall(String),
    Constraint(String),
}

impl Item {
    pub fn name(&self) -> &str {
        match self {
            Item::Body(n) | Item::Wall(n) | Item::Constraint(n) => n,
        }
    }
}

/// A scene file as written, with the comments a person reads in it.
#[derive(Clone, Debug, PartialEq)]
pub struct SceneDoc {
    pub file: SceneFile,
    /// A line or two written at the top of the saved file (`// …`).
    pub header: Vec<String>,
    /// Comments written above a body's line (the editor's rack, a pile's
    /// balls written out), by body name. A loaded file keeps them.
    pub notes: Vec<(String, String)>,
}

impl SceneDoc {
    /// Reads and checks a scene file.
    pub fn load(path: &Path) -> Result<SceneDoc, SceneError> {
        let (text, origin) = read(path, "scene")?;
        SceneDoc::parse(&text, &origin)
    }

    /// Parses and checks a scene's text; `origin` names it in errors. The
    /// comments above `Scene(` become the header, those above a body's line
    /// its note.
    pub fn parse(text: &str, origin: &str) -> Result<SceneDoc, SceneError> {
        // What `super::parse` does, keeping the file: the RON is read once.
        let (file, locator) = super::from_ron::<SceneFile>(text, origin)?;
        super::build::build(file.clone(), &Overrides::default(), &super::build::Ctx { origin, locator: &locator })?;
        let (header, notes) = comments(text, &file);
        Ok(SceneDoc { file, header, notes })
    }

    /// The document as a RON scene file a person reads: the header as
    /// comments, one line per body, constraint, wall and plot, fields at
    /// their defaults left out, and a comment on each generated part.
    pub fn to_ron(&self) -> String {
        let config = ron::ser::PrettyConfig::new()
            .struct_names(false)
            .depth_limit(2)
            .extensions(ron::extensions::Extensions::IMPLICIT_SOME);
        let text = ron::ser::to_string_pretty(&self.file, config).expect("a scene file always serializes");
        let mut out = String::new();
        for line in &self.header {
            out += &format!("// {line}\n");
        }
        // Optional values are read bare by default: no `#![enable(…)]` line.
        let mut lines = text.lines().filter(|l| !l.starts_with("#!["));
        if let Some(first) = lines.next() {
            out += &format!("Scene{first}\n");
        }
        for line in lines {
            let depth = line.len() - line.trim_start().len();
            let pad = " ".repeat(depth);
            for note in self.annotation(line.trim_start()) {
                out += &format!("{pad}// {note}\n");
            }
            out += line;
            out.push('\n');
        }
        out
    }

    /// The comments written above `line` of the saved file.
    fn annotation(&self, line: &str) -> Vec<String> {
        let f = &self.file;
        let field = |name: &str| line.starts_with(&format!("{name}:"));
        if field("walls") {
            return vec![
                "Each wall holds every ball: one half-plane constraint per wall and ball, named WALL:BALL.".into(),
            ];
        }
        if field("ball_pairs") {
            return vec!["A contact for every pair of balls, named A-B.".into()];
        }
        if field("ball_pile") {
            let p = f.ball_pile.as_ref().map_or(0, |p| p.count);
            return vec![format!("A generated heap of {p} balls (`contact-lab run --balls N` changes the count).")];
        }
        if field("start_tolerance") {
            return vec!["How far the start may violate a constraint: the run's penetrations at that instant.".into()];
        }
        let Some(name) = body_line_name(line) else { return Vec::new() };
        self.notes.iter().filter(|(body, _)| body == name).map(|(_, note)| note.clone()).collect()
    }

    /// Checks the document as the file it would be (named `origin` in errors)
    /// and returns the scene it loads as.
    pub fn check(&self, origin: &str) -> Result<Scene, SceneError> {
        parse(&self.to_ron(), origin, &Overrides::default())
    }

    /// A new scene for the editor: gravity, a view 2 m wide, balls that collide
    /// with each other, and with `floor` a floor every ball will stand on (the
    /// wall `floor`, normal (0, 1)).
    pub fn new_scene(floor: bool) -> SceneDoc {
        let ron = format!(
            "#![enable(implicit_some)] Scene(name: \"New scene\", description: \"A scene of my own.\", gravity: (0, -9.81), \
             bodies: [], ball_pairs: true, {} view: (min: (-1, -0.3), max: (1, 1.2)), opening: (paused: true))",
            if floor { "walls: [(name: \"floor\", normal: (0, 1))]," } else { "" }
        );
        let file: SceneFile = ron::from_str(&ron).expect("a new scene's text is a scene file");
        SceneDoc { file, header: Vec::new(), notes: Vec::new() }
    }

    /// The document as it is saved from one opened as `source` (its name and
    /// description then): a name of its own when it still has `source`'s (the
    /// file name's, "billiard-corner-edited" → "Billiard corner edited"), and
    /// in place of `source`'s description, which counted what it had, one that
    /// counts what this one has. A name or description the user wrote stays.
    pub fn titled_for(&self, path: &Path, source: (&str, &str), scene: &Scene) -> SceneDoc {
        let mut doc = self.clone();
        if doc.file.name == source.0 {
            let stem = path.file_stem().map_or("scene".into(), |s| s.to_string_lossy().replace(['-', '_'], " "));
            let mut c = stem.chars();
            doc.file.name = c.next().map_or(String::new(), |f| f.to_uppercase().chain(c).collect());
        }
        if doc.file.description == source.1 {
            let m = &scene.world.model;
            let moving = m.bodies.iter().filter(|b| b.is_dynamic()).count();
            let from =
                if source.0 == doc.file.name { String::new() } else { format!(", made from “{}”", source.0) };
            let bodies = m.bodies.len();
            doc.file.description = match &m.contacts {
                // Contacts by proximity: the rows of the start are only those near.
                Some(g) => {
                    let walls =
                        if g.walls.len() == 1 { "1 wall".to_string() } else { format!("{} walls", g.walls.len()) };
                    format!(
                        "{bodies} bodies ({moving} moving), {walls} and {} constraints written, contacts found by proximity{from}.",
                        g.explicit
                    )
                }
                None => format!("{bodies} bodies ({moving} moving) and {} constraints{from}.", m.constraints.len()),
            };
        }
        // The header of the file it came from described that scene: say so above it.
        if doc.file.name != source.0 && !doc.header.is_empty() {
            doc.header
                .insert(0, format!("{}: made from “{}”; the notes below are that scene's.", doc.file.name, source.0));
            doc.header.insert(1, String::new());
        }
        doc
    }

    /// The document with the solver settings in force: `settings` (the
    /// algorithm, τ, the tolerances, the integrator, the events and their
    /// restitution, sleeping) and the step `h` as its `dt`. What the lab
    /// changed at run time (keys 1–4, the controls' h and τ, the "sleep"
    /// remedy) is then what a saved file says. A field whose value in force is
    /// the one the file already gives (written, or by default in its units)
    /// keeps the file's form, so a document saved with nothing changed is the
    /// file it came from. The start tolerance is the file's (no setting of its own).
    pub fn with_settings(&self, settings: &Settings, h: f64) -> SceneDoc {
        let mut doc = self.clone();
        let s = settings;
        let sv = &mut doc.file.solver;
        // An optional threshold is written only when it differs from what the file gives.
        let set = |written: &mut Option<f64>, default: f64, now: f64| {
            if written.unwrap_or(default) != now {
                *written = Some(now);
            }
        };
        sv.algorithm = s.algorithm;
        sv.scheme = s.scheme;
        sv.dt = h;
        sv.tau = s.tau;
        sv.integrator = s.integrator;
        sv.units = s.units;
        let tol = Tolerances::in_units(&s.units);
        set(&mut sv.active_tolerance, tol.active, s.tol.active);
        set(&mut sv.tendency_tolerance, tol.tendency, s.tol.tendency);
        sv.events = s.events.enabled;
        sv.restitution = s.events.restitution;
        sv.impulses = s.events.impulses;
        sv.max_events_per_step = s.events.max_per_step;
        let impact = s.units.speed(EventSettings::default().min_impact_speed);
        set(&mut sv.min_impact_speed, impact, s.events.min_impact_speed);
        sv.sleep.enabled = s.sleep.enabled;
        set(&mut sv.sleep.speed, s.units.speed(SleepSettings::default().speed), s.sleep.speed);
        sv.sleep.time = s.sleep.time;
        doc
    }

    /// Writes the document to `path`, after checking it loads.
    pub fn save(&self, path: &Path) -> Result<Scene, SceneError> {
        let origin = path.display().to_string();
        // The text checked is the text written.
        let text = self.to_ron();
        let scene = parse(&text, &origin, &Overrides::default())?;
        std::fs::write(path, text).map_err(|e| SceneError {
            file: origin,
            line: None,
            column: None,
            field: None,
            message: format!("cannot write the scene file: {e}"),
        })?;
        Ok(scene)
    }

    /// The document whose start is `world`'s state now: every body where it
    /// is and as fast as it goes, a ball pile written out ball by ball, rods
    /// and ropes at their model lengths. Bodies are matched by name.
    pub fn from_world(&self, world: &World) -> SceneDoc {
        let mut file = self.file.clone();
        let mut notes = self.notes.clone();
        let model = &world.model;
        let (q, qd) = (&world.state.q, &world.state.qd);
        // The pile's balls become bodies of their own (the pile block goes).
        if let Some(pile) = file.ball_pile.take() {
            let explicit: Vec<String> = file.bodies.iter().map(body_name).map(str::to_string).collect();
            let generated: Vec<_> = model.bodies.iter().filter(|b| !explicit.contains(&b.name)).collect();
            if let Some(b) = generated.first() {
                let note =
                    format!("The {} balls of the pile ({}), written out one by one.", generated.len(), pile.prefix);
                notes.push((b.name.clone(), note));
            }
            for b in generated {
                let name = b.name.clone();
                let (mass, radius, damping) = (pile.mass, pile.radius, pile.damping);
                file.bodies.push(if pile.turning {
                    // Its position and speed are written below, with every body's.
                    let mut disc = BodySpec::at_rest(name, (0.0, 0.0), mass, crate::shapes::Shape::Disc { radius });
                    if let BodySpec::Disc { damping: d, .. } = &mut disc {
                        *d = damping;
                    }
                    disc
                } else {
                    BodySpec::Ball {
                        name,
                        position: (0.0, 0.0),
                        velocity: (0.0, 0.0),
                        mass,
                        radius,
                        force: (0.0, 0.0),
                        damping,
                    }
                });
            }
        }
        for spec in &mut file.bodies {
            let Some(i) = model.body_index(body_name(spec)) else { continue };
            let o = model.bodies[i].offset;
            match spec {
                BodySpec::Particle { position, velocity, .. } | BodySpec::Ball { position, velocity, .. } => {
                    *position = (q[o], q[o + 1]);
                    *velocity = (qd[o], qd[o + 1]);
                }
                BodySpec::Bead { u, u_dot, .. } => {
                    *u = q[o];
                    *u_dot = qd[o];
                }
                BodySpec::Anchor { .. } | BodySpec::FixedBall { .. } => {}
                BodySpec::Box { position, angle, velocity, angular_velocity, .. }
                | BodySpec::Polygon { position, angle, velocity, angular_velocity, .. }
                | BodySpec::Disc { position, angle, velocity, angular_velocity, .. } => {
                    *position = (q[o], q[o + 1]);
                    *angle = q[o + 2];
                    *velocity = (qd[o], qd[o + 1]);
                    *angular_velocity = qd[o + 2];
                }
            }
            // A polygon's position is now its centroid: its vertices are written around it.
            if let BodySpec::Polygon { vertices, .. } = spec {
                let shape = crate::shapes::Shape::Polygon {
                    vertices: vertices.iter().map(|&(x, y)| nalgebra::Vector2::new(x, y)).collect(),
                };
                let c = shape.centroid();
                for v in vertices.iter_mut() {
                    *v = (v.0 - c.x, v.1 - c.y);
                }
            }
        }
        for spec in &mut file.constraints {
            if let ConstraintSpec::Rod { name, length, .. } | ConstraintSpec::Rope { name, length, .. } = spec {
                let k = model.constraint_index(name);
                if let Some(Geometry::Distance { length: l, .. }) = k.map(|k| &model.constraints[k].geometry) {
                    *length = Some(*l);
                }
            }
        }
        // A run's state is not a file's exact start: contacts sit a little
        // inside (Baumgarte's lag, a landing), strings a little past their
        // length. The file states how much, so the state loads unchanged.
        let worst = worst_violation(world);
        if worst > file.solver.units.length(1e-9) {
            file.solver.start_tolerance = Some(2.0 * worst);
        }
        let header = vec![format!("{}, from t = {:.6} s of the run.", self.file.name, world.state.t)];
        SceneDoc { file, header, notes }
    }

    /// The name of every body, in order.
    pub fn body_names(&self) -> Vec<String> {
        self.file.bodies.iter().map(|b| body_name(b).to_string()).collect()
    }

    /// A body name not used yet: `stem1`, `stem2`, …
    pub fn fresh_name(&self, stem: &str) -> String {
        let names = self.body_names();
        (1..).map(|i| format!("{stem}{i}")).find(|n| !names.contains(n)).expect("a free name")
    }

    /// Takes out body `name` and every constraint that names it. False when
    /// there is no such body.
    pub fn remove_body(&mut self, name: &str) -> bool {
        let before = self.file.bodies.len();
        self.file.bodies.retain(|b| body_name(b) != name);
        let (gone, kept): (Vec<_>, Vec<_>) =
            self.file.constraints.drain(..).partition(|c| constraint_bodies(c).contains(&name));
        self.file.constraints = kept;
        let gone: Vec<String> = gone.iter().flat_map(row_names).collect();
        self.notes.retain(|(body, _)| body != name);
        // Its coordinates, its constraints, its generated rows (`wall:name`,
        // `wall:name[2]` for a corner, `name-b`).
        self.drop_series(|head| {
            head == name
                || gone.iter().any(|c| c == head)
                || head.split_once(':').is_some_and(|(_, b)| b.split('[').next() == Some(name))
                || head.split_once('-').is_some_and(|(a, b)| a == name || b == name)
        });
        self.file.bodies.len() < before
    }

    /// Takes out of the plots every series whose head (before the first `.`)
    /// is `dead`, and the plots left empty.
    fn drop_series(&mut self, dead: impl Fn(&str) -> bool) {
        for plot in &mut self.file.plots {
            plot.series.retain(|s| !dead(s.split_once('.').map_or(s.as_str(), |(h, _)| h)));
        }
        self.file.plots.retain(|p| !p.series.is_empty());
    }

    /// Renames body `old` to `new`, in the constraints and the plots' series
    /// that name it too (`old.x`, `floor:old.g`, `old-b2.lambda`).
    pub fn rename_body(&mut self, old: &str, new: &str) {
        if let Some(b) = self.body_mut(old) {
            match b {
                BodySpec::Particle { name, .. }
                | BodySpec::Ball { name, .. }
                | BodySpec::Bead { name, .. }
                | BodySpec::Anchor { name, .. }
                | BodySpec::FixedBall { name, .. }
                | BodySpec::Box { name, .. }
                | BodySpec::Polygon { name, .. }
                | BodySpec::Disc { name, .. } => *name = new.to_string(),
            }
        }
        for (body, _) in &mut self.notes {
            if body == old {
                *body = new.to_string();
            }
        }
        for plot in &mut self.file.plots {
            for series in &mut plot.series {
                *series = rename_in_series(series, old, new);
            }
        }
        for c in &mut self.file.constraints {
            match c {
                ConstraintSpec::HalfPlane { body, .. } | ConstraintSpec::BeadBound { body, .. } => {
                    if body == old {
                        *body = new.to_string();
                    }
                }
                ConstraintSpec::Contact { a, b, .. }
                | ConstraintSpec::Rod { a, b, .. }
                | ConstraintSpec::Rope { a, b, .. }
                | ConstraintSpec::Pin { a, b, .. } => {
                    for x in [a, b] {
                        if x == old {
                            *x = new.to_string();
                        }
                    }
                }
            }
        }
    }

    /// Takes out `item` (a body with every constraint that names it). False
    /// when there is no such item.
    pub fn remove(&mut self, item: &Item) -> bool {
        match item {
            Item::Body(name) => self.remove_body(name),
            Item::Wall(name) => {
                let before = self.file.walls.len();
                self.file.walls.retain(|w| w.name != *name);
                self.drop_series(|head| head.split_once(':').is_some_and(|(w, _)| w == name));
                self.file.walls.len() < before
            }
            Item::Constraint(name) => {
                let before = self.file.constraints.len();
                let rows: Vec<String> =
                    self.file.constraints.iter().filter(|c| constraint_name(c) == *name).flat_map(row_names).collect();
                self.file.constraints.retain(|c| constraint_name(c) != *name);
                self.drop_series(|head| rows.iter().any(|r| r == head));
                self.file.constraints.len() < before
            }
        }
    }

    /// Renames a wall or a constraint, in the plots' series too
    /// (`old:b1.g`, `old.lambda`); bodies go through [`Self::rename_body`].
    pub fn rename(&mut self, item: &Item, new: &str) {
        let old = item.name();
        let head = |s: &String| s.split_once('.').map_or(s.as_str(), |(h, _)| h).to_string();
        match item {
            Item::Body(_) => self.rename_body(old, new),
            Item::Wall(_) => {
                if let Some(w) = self.wall_mut(old) {
                    w.name = new.to_string();
                }
                for s in self.file.plots.iter_mut().flat_map(|p| &mut p.series) {
                    if let Some(rest) = s.strip_prefix(&format!("{old}:")) {
                        *s = format!("{new}:{rest}");
                    }
                }
            }
            Item::Constraint(_) => {
                if let Some(c) = self.constraint_mut(old) {
                    match c {
                        ConstraintSpec::HalfPlane { name, .. }
                        | ConstraintSpec::Rod { name, .. }
                        | ConstraintSpec::Rope { name, .. }
                        | ConstraintSpec::BeadBound { name, .. }
                        | ConstraintSpec::Pin { name, .. } => *name = new.to_string(),
                        ConstraintSpec::Contact { name, .. } => *name = Some(new.to_string()),
                    }
                }
                // A pin's rows are `old:x` and `old:y`.
                for s in self.file.plots.iter_mut().flat_map(|p| &mut p.series) {
                    let h = head(s);
                    if h == old || h.strip_prefix(old).is_some_and(|r| r == ":x" || r == ":y") {
                        *s = format!("{new}{}", &s[old.len()..]);
                    }
                }
            }
        }
    }

    /// The wall `name` as written.
    pub fn wall(&self, name: &str) -> Option<&WallSpec> {
        self.file.walls.iter().find(|w| w.name == name)
    }

    pub fn wall_mut(&mut self, name: &str) -> Option<&mut WallSpec> {
        self.file.walls.iter_mut().find(|w| w.name == name)
    }

    /// The constraint `name` as written (a contact without a name is `A-B`).
    pub fn constraint(&self, name: &str) -> Option<&ConstraintSpec> {
        self.file.constraints.iter().find(|c| constraint_name(c) == name)
    }

    pub fn constraint_mut(&mut self, name: &str) -> Option<&mut ConstraintSpec> {
        self.file.constraints.iter_mut().find(|c| constraint_name(c) == name)
    }

    /// Whether a wall or a written constraint has the name `n`.
    pub fn name_taken(&self, n: &str) -> bool {
        self.wall(n).is_some() || self.constraint(n).is_some()
    }

    /// A name not used yet by a wall or a constraint: `base`, `base_2`, …
    pub fn fresh_constraint_name(&self, base: &str) -> String {
        std::iter::once(base.to_string())
            .chain((2..).map(|i| format!("{base}_{i}")))
            .find(|n| !self.name_taken(n))
            .expect("a free name")
    }

    /// The body `name` as written.
    pub fn body(&self, name: &str) -> Option<&BodySpec> {
        self.file.bodies.iter().find(|b| body_name(b) == name)
    }

    /// The body `name`, to edit.
    pub fn body_mut(&mut self, name: &str) -> Option<&mut BodySpec> {
        self.file.bodies.iter_mut().find(|b| body_name(b) == name)
    }
}

/// The comments of a scene's text: those above its first line of RON (the
/// header), and those above a body's line (that body's notes). Others are
/// the generated parts' and are written anew.
fn comments(text: &str, file: &SceneFile) -> (Vec<String>, Vec<(String, String)>) {
    let names: std::collections::HashSet<&str> = file.bodies.iter().map(body_name).collect();
    let (mut header, mut notes, mut pending) = (Vec::new(), Vec::new(), Vec::new());
    let mut first = true;
    for line in text.lines().map(str::trim) {
        if let Some(c) = line.strip_prefix("//") {
            pending.push(c.strip_prefix(' ').unwrap_or(c).to_string());
            continue;
        }
        if line.is_empty() {
            continue;
        }
        if first {
            header = std::mem::take(&mut pending);
            first = false;
            continue;
        }
        match body_line_name(line).filter(|n| names.contains(n)) {
            Some(n) => notes.extend(pending.drain(..).map(|c| (n.to_string(), c))),
            None => pending.clear(),
        }
    }
    (header, notes)
}

/// The body a line of a saved file writes (`Ball(name: "b1", …`), if it
/// writes one.
fn body_line_name(line: &str) -> Option<&str> {
    let rest = ["Particle", "Ball", "Bead", "Anchor", "FixedBall"]
        .iter()
        .find_map(|kind| line.strip_prefix(kind)?.strip_prefix("(name: \""))?;
    rest.split_once('"').map(|(name, _)| name)
}

/// The deepest violation of any constraint, or overlap of two round bodies
/// (rows by proximity may not list every pair), in `world`'s state.
fn worst_violation(world: &World) -> f64 {
    let model = &world.model;
    let g = model.constraint_values(&world.state.q);
    let rows = model.constraints.iter().zip(&g).map(|(c, g)| c.kind.violation(*g)).fold(0.0, f64::max);
    let round: Vec<usize> = (0..model.bodies.len()).filter(|&i| model.bodies[i].radius > 0.0).collect();
    let pos: Vec<_> = round.iter().map(|&i| model.position(i, &world.state)).collect();
    let mut pairs = 0.0_f64;
    for (x, &i) in round.iter().enumerate() {
        for (y, &j) in round.iter().enumerate().skip(x + 1) {
            let r = model.bodies[i].radius + model.bodies[j].radius;
            pairs = pairs.max(r - (pos[x] - pos[y]).norm());
        }
    }
    rows.max(pairs)
}

/// `series` with the body `old` in its head (`BODY.…`, `WALL:BODY.…`,
/// `A-B.…`) written `new`.
fn rename_in_series(series: &str, old: &str, new: &str) -> String {
    let (head, rest) = series.split_once('.').unwrap_or((series, ""));
    let swap = |part: &str| if part == old { new.to_string() } else { part.to_string() };
    let head = if head == old {
        new.to_string()
    } else if let Some((wall, body)) = head.split_once(':') {
        format!("{wall}:{}", swap(body))
    } else if let Some((a, b)) = head.split_once('-') {
        format!("{}-{}", swap(a), swap(b))
    } else {
        head.to_string()
    };
    if rest.is_empty() { head } else { format!("{head}.{rest}") }
}

/// A body's name as written.
pub fn body_name(b: &BodySpec) -> &str {
    match b {
        BodySpec::Particle { name, .. }
        | BodySpec::Ball { name, .. }
        | BodySpec::Bead { name, .. }
        | BodySpec::Anchor { name, .. }
        | BodySpec::FixedBall { name, .. }
        | BodySpec::Box { name, .. }
        | BodySpec::Polygon { name, .. }
        | BodySpec::Disc { name, .. } => name,
    }
}

/// A constraint's name as the model has it (an unnamed contact is `A-B`).
pub fn constraint_name(c: &ConstraintSpec) -> String {
    match c {
        ConstraintSpec::HalfPlane { name, .. }
        | ConstraintSpec::Rod { name, .. }
        | ConstraintSpec::Rope { name, .. }
        | ConstraintSpec::BeadBound { name, .. }
        | ConstraintSpec::Pin { name, .. } => name.clone(),
        ConstraintSpec::Contact { name, a, b, .. } => name.clone().unwrap_or(format!("{a}-{b}")),
    }
}

/// The names of the model's rows a written constraint gives: its own, or
/// for a pin `NAME:x` and `NAME:y`.
pub fn row_names(c: &ConstraintSpec) -> Vec<String> {
    match c {
        ConstraintSpec::Pin { name, .. } => vec![format!("{name}:x"), format!("{name}:y")],
        other => vec![constraint_name(other)],
    }
}

/// The bodies a constraint names.
pub fn constraint_bodies(c: &ConstraintSpec) -> Vec<&str> {
    match c {
        ConstraintSpec::HalfPlane { body, .. } | ConstraintSpec::BeadBound { body, .. } => vec![body],
        ConstraintSpec::Contact { a, b, .. }
        | ConstraintSpec::Rod { a, b, .. }
        | ConstraintSpec::Rope { a, b, .. }
        | ConstraintSpec::Pin { a, b, .. } => vec![a, b],
    }
}

/// Undo and redo over whole documents (a scene file is small; a snapshot per
/// edit keeps every edit undoable, whatever it touched).
#[derive(Clone, Debug, Default)]
pub struct Edits {
    undo: Vec<SceneDoc>,
    redo: Vec<SceneDoc>,
}

impl Edits {
    /// Applies `change` to `doc` if the result checks (as a file named
    /// `origin`); otherwise leaves `doc` as it was and returns the error.
    pub fn apply(
        &mut self,
        doc: &mut SceneDoc,
        origin: &str,
        change: impl FnOnce(&mut SceneDoc),
    ) -> Result<Scene, SceneError> {
        let mut next = doc.clone();
        change(&mut next);
        let scene = next.check(origin)?;
        self.undo.push(std::mem::replace(doc, next));
        self.redo.clear();
        Ok(scene)
    }

    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// Goes back one edit; false when there is none.
    pub fn undo(&mut self, doc: &mut SceneDoc) -> bool {
        let Some(prev) = self.undo.pop() else { return false };
        self.redo.push(std::mem::replace(doc, prev));
        true
    }

    /// Goes forward one undone edit; false when there is none.
    pub fn redo(&mut self, doc: &mut SceneDoc) -> bool {
        let Some(next) = self.redo.pop() else { return false };
        self.undo.push(std::mem::replace(doc, next));
        true
    }
}
