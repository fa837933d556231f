//! Contacts by proximity: the rows of generated contacts come and go with a broad
//! phase, each under a stable key.
//!
//! The paper's model lists every constraint that may ever act: fine for the
//! billiard corner (11 balls, 77 rows), hopeless for a pile of a thousand balls
//! (half a million pairs). A scene whose `walls` and `ball_pairs` would generate
//! more than [`PROXIMITY_ABOVE`] constraints keeps them *potential*: at the start
//! of each step a uniform grid ([`pairs_within`]) finds the ball pairs and
//! ball–wall pairs whose gap `g` is below a margin, and only those are rows of
//! the model, after the scene's explicit constraints:
//!
//! ```text
//! model.constraints = [ explicit … | generated, sorted by key ]
//! key = Wall { wall, body, point } | Pair { a, b }     (a < b, body indices)
//!     | Corner { a, corner, b, edge } | CornerDisc { a, corner, disc }
//! margin = max(base, 4 h v_max)                  (nothing crosses it in one step)
//! v_max  = max_b |v_b| + |ω_b| R_b               (R_b: the body's reach, its farthest corner)
//! ```
//!
//! Shapes that turn add corner rows ([`crate::shapes`] finds which corner
//! is on which edge): `A[i]-B[j]` (corner `i` of `A` on edge `j` of `B`),
//! `DISC-B[j]` (a ball or a disc on edge `j`), `A[i]-DISC` (corner `i` on
//! a ball or a disc). They hold only near their edge or corner, so a scene
//! with them always takes its contacts by proximity. The shapes' bounding
//! circles and the balls share a grid too ([`neighbours`]): a pyramid of
//! hundreds of boxes tests each box against those near it, not every other.
//!
//! The names are those the full list would have (`WALL:BALL`, `A-B`), and what
//! persists across steps — the handled set `F⁺` of Platt's algorithms, the warm
//! start of the exact solver — is carried over by key when the list changes
//! ([`Remap`]). A handled row stays a row whatever its gap, so Platt's `F⁺`
//! loses nothing. Scenes under the limit keep every generated constraint as a
//! fixed row, as the paper writes them.

use nalgebra::Vector2;

/// A shape placed in the world: its centre, its reach (bounding circle) and its corners.
type Placed = (Vector2<f64>, f64, Vec<Vector2<f64>>);

use crate::body::Body;
use crate::constraint::{Constraint, ConstraintKind, Geometry};
use crate::shapes::{DiscFeature, centre_of, corners_on_edges, disc_feature, edge_frame, in_front_of};

/// How far past its edge's end a corner still counts as over the edge,
/// relative to the two shapes' size: round-off where corners meet, not a
/// margin ([`Geometry::CornerEdge`]'s `ends`).
pub const EXTENT_TOL: f64 = 1e-6;

/// Above this many generated constraints, a scene's contacts are found by proximity.
pub const PROXIMITY_ABOVE: usize = 1000;

/// What the broad phase reads of a state: the generalized coordinates `q` and
/// velocities `q̇` (a [`crate::model::State`] is one, and so is a pair of slices).
pub trait Coordinates {
    fn q(&self) -> &[f64];
    fn qd(&self) -> &[f64];
}

impl Coordinates for (&[f64], &[f64]) {
    fn q(&self) -> &[f64] {
        self.0
    }
    fn qd(&self) -> &[f64] {
        self.1
    }
}

/// A wall of the scene: every ball of [`ContactGenerator::wall_bodies`] stays on
/// its allowed side, `n·p − offset − r|n| ≥ 0`, and so does every corner of
/// a box or a polygon ([`Body::wall_points`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Wall {
    pub name: String,
    pub normal: Vector2<f64>,
    pub offset: f64,
    pub restitution: Option<f64>,
    /// Coulomb's `μ` between the wall and what touches it (0: smooth).
    pub friction: f64,
    /// Rolling resistance `μ_r` of a disc on the wall (0: it rolls freely;
    /// [`crate::constraint::Constraint::rolling`]).
    pub rolling: f64,
}

/// What identifies a generated row across steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ConstraintKey {
    /// Wall `wall` against point `point` of body `body` (0 for a round
    /// body; a corner of a box or a polygon).
    Wall { wall: usize, body: usize, point: usize },
    /// Ball `a` against ball `b`, `a < b`.
    Pair { a: usize, b: usize },
    /// Corner `corner` of body `a` against edge `edge` of body `b` (boxes and
    /// polygons that turn; always by proximity: an edge's line holds only
    /// near the edge).
    /// (A ball or a disc `a` against an edge: `corner` 0, its centre.)
    Corner { a: usize, corner: usize, b: usize, edge: usize },
    /// Corner `corner` of body `a` (a box or a polygon) against the ball or
    /// disc `disc`.
    CornerDisc { a: usize, corner: usize, disc: usize },
}

/// The potential contacts of a scene and the rows generated for them now.
#[derive(Clone, Debug, PartialEq)]
pub struct ContactGenerator {
    pub walls: Vec<Wall>,
    /// The bodies the walls hold.
    pub wall_bodies: Vec<usize>,
    /// `points[b]`: the points of body `b` walls hold ([`Body::wall_points`]),
    /// for every body of the model.
    pub points: Vec<Vec<Vector2<f64>>>,
    /// The round bodies of which every pair may touch (not two fixed ones).
    pub pair_bodies: Vec<usize>,
    /// The boxes and polygons of which every pair may touch, corner against edge.
    pub shape_bodies: Vec<usize>,
    pub pair_restitution: Option<f64>,
    /// Coulomb's `μ` of the generated contacts between bodies (0: smooth).
    pub pair_friction: f64,
    /// Rolling resistance `μ_r` of the generated contacts between round
    /// bodies (0: they roll freely).
    pub pair_rolling: f64,
    /// The smallest candidate margin, in m.
    pub margin: f64,
    /// Number of explicit constraints, before the generated ones.
    pub explicit: usize,
    /// Keys of `model.constraints[explicit..]`, sorted.
    pub keys: Vec<ConstraintKey>,
    /// Bumped each time the rows change (views re-resolve names then).
    pub version: u64,
}

/// How the indices of the rows changed: `old_to_new[k]` for each old row.
#[derive(Clone, Debug, PartialEq)]
pub struct Remap {
    pub old_to_new: Vec<Option<usize>>,
    pub new_len: usize,
}

impl Remap {
    /// Carries a per-row vector over to the new rows (`fill` for new rows).
    pub fn apply<T: Clone>(&self, old: &[T], fill: T) -> Vec<T> {
        let mut out = vec![fill; self.new_len];
        for (k, n) in self.old_to_new.iter().enumerate() {
            if let (Some(n), Some(v)) = (n, old.get(k)) {
                out[*n] = v.clone();
            }
        }
        out
    }
}

impl ContactGenerator {
    /// Number of constraints the full list would hold.
    pub fn potential(&self) -> usize {
        let n = self.pair_bodies.len();
        let points: usize = self.wall_bodies.iter().map(|&b| self.points[b].len()).sum();
        // Each corner of a shape against each edge of another: (Σ nᵢ)² − Σ nᵢ².
        let sizes: Vec<usize> = self.shape_bodies.iter().map(|&b| self.points[b].len()).collect();
        let total: usize = sizes.iter().sum();
        let corners = total * total - sizes.iter().map(|n| n * n).sum::<usize>();
        // Each ball or disc against each edge and each corner of a shape.
        let round = n * 2 * total;
        self.walls.len() * points + n * n.saturating_sub(1) / 2 + corners + round
    }

    /// The keys of every generated contact with a gap below `margin` at `(q, q̇)`
    /// (`at`: a [`crate::model::State`], or `(q, q̇)` as slices), plus `keep`, sorted.
    pub fn candidates(
        &self,
        bodies: &[Body],
        at: &impl Coordinates,
        margin: f64,
        keep: &[ConstraintKey],
    ) -> Vec<ConstraintKey> {
        let pos = |i: usize| bodies[i].kinematics(at.q(), at.qd()).p;
        // Every body's points in the world, once: a kept corner row asks for
        // both bodies' corners, and each point costs its body's `sin_cos`
        // (on the 55-box pyramid, 2700 of them a step where 220 do).
        let world: Vec<Vec<Vector2<f64>>> = self
            .points
            .iter()
            .zip(bodies)
            .map(|(points, body)| points.iter().map(|&r| body.kinematics_at(r, at.q(), at.qd()).p).collect())
            .collect();
        let mut keys: Vec<ConstraintKey> =
            keep.iter().copied().filter(|&k| self.over_its_edge(bodies, &world, k, margin)).collect();
        for (w, wall) in self.walls.iter().enumerate() {
            let norm = wall.normal.norm();
            for &b in &self.wall_bodies {
                for (point, p) in world[b].iter().enumerate() {
                    let g = wall.normal.dot(p) - wall.offset - bodies[b].radius * norm;
                    if g <= margin * norm {
                        keys.push(ConstraintKey::Wall { wall: w, body: b, point });
                    }
                }
            }
        }
        let points: Vec<(Vector2<f64>, f64)> = self.pair_bodies.iter().map(|&b| (pos(b), bodies[b].radius)).collect();
        for (x, y) in pairs_within(&points, margin) {
            let (a, b) = (self.pair_bodies[x], self.pair_bodies[y]);
            if bodies[a].is_dynamic() || bodies[b].is_dynamic() {
                keys.push(ConstraintKey::Pair { a: a.min(b), b: a.max(b) });
            }
        }
        self.corner_candidates(bodies, at, &world, margin, &mut keys);
        keys.sort_unstable();
        keys.dedup();
        keys
    }

    /// Keys of the shapes within `margin` of each other (a box or a polygon
    /// against another, [`corners_on_edges`]; a ball or a disc against one,
    /// [`disc_feature`]).
    fn corner_candidates(
        &self,
        bodies: &[Body],
        at: &impl Coordinates,
        world: &[Vec<Vector2<f64>>],
        margin: f64,
        keys: &mut Vec<ConstraintKey>,
    ) {
        // Nothing turns: the pairs of balls are `pairs_within`'s.
        if self.shape_bodies.is_empty() {
            return;
        }
        // The margin is a fast body's sweep, past the scene's base margin.
        let swept = margin > self.margin;
        // Each shape once: its centre, its reach (bounding circle) and its corners in the world.
        let shapes: Vec<Placed> = self
            .shape_bodies
            .iter()
            .map(|&b| {
                let corners = world[b].clone();
                let reach = self.points[b].iter().map(|r| r.norm()).fold(0.0, f64::max);
                (bodies[b].kinematics(at.q(), at.qd()).p, reach, corners)
            })
            .collect();
        // Each shape's bounding circle and each ball's or disc's, on one grid:
        // the pairs of circles in neighbouring cells, a superset of those
        // within the margin, each then tested as before (issue 38, part 5:
        // the corner broad phase was every pair of shapes, O(n²)).
        let discs: Vec<(usize, Vector2<f64>, f64)> =
            self.pair_bodies.iter().map(|&d| (d, bodies[d].kinematics(at.q(), at.qd()).p, bodies[d].radius)).collect();
        let circles: Vec<(Vector2<f64>, f64)> =
            shapes.iter().map(|(p, reach, _)| (*p, *reach)).chain(discs.iter().map(|&(_, p, r)| (p, r))).collect();
        let ns = shapes.len();
        for (x, y) in neighbours(&circles, margin) {
            if y < ns {
                self.shape_pair(bodies, &shapes, x, y, margin, swept, keys);
            } else if x < ns {
                self.shape_disc(bodies, &shapes[x], self.shape_bodies[x], discs[y - ns], margin, swept, keys);
            }
        }
    }

    /// The corner rows of shapes `x` and `y` (indices into `shape_bodies`).
    #[allow(clippy::too_many_arguments)]
    fn shape_pair(
        &self,
        bodies: &[Body],
        shapes: &[Placed],
        x: usize,
        y: usize,
        margin: f64,
        swept: bool,
        keys: &mut Vec<ConstraintKey>,
    ) {
        let (i, j) = (self.shape_bodies[x], self.shape_bodies[y]);
        if !bodies[i].is_dynamic() && !bodies[j].is_dynamic() {
            return;
        }
        let ((pi, ri, ci), (pj, rj, cj)) = (&shapes[x], &shapes[y]);
        if (pi - pj).norm() > ri + rj + margin {
            return;
        }
        for c in corners_on_edges(ci, cj, margin, ri + rj, swept) {
            let (a, b) = if c.second { (j, i) } else { (i, j) };
            keys.push(ConstraintKey::Corner { a, corner: c.corner, b, edge: c.edge });
        }
    }

    /// The rows of a ball or a disc (`(d, centre, radius)`) on shape `s`
    /// (`(centre, reach, corners)`): its nearest feature, and when the margin
    /// is a fast body's sweep every other feature within it.
    #[allow(clippy::too_many_arguments)]
    fn shape_disc(
        &self,
        bodies: &[Body],
        shape: &(Vector2<f64>, f64, Vec<Vector2<f64>>),
        s: usize,
        (d, centre, r): (usize, Vector2<f64>, f64),
        margin: f64,
        swept: bool,
        keys: &mut Vec<ConstraintKey>,
    ) {
        let (p, reach, corners) = shape;
        if (!bodies[d].is_dynamic() && !bodies[s].is_dynamic()) || (p - centre).norm() > reach + r + margin {
            return;
        }
        match disc_feature(corners, centre, r) {
            Some(DiscFeature::Edge { edge, gap }) if gap <= margin => {
                keys.push(ConstraintKey::Corner { a: d, corner: 0, b: s, edge })
            }
            Some(DiscFeature::Corner { corner, gap }) if gap <= margin => {
                keys.push(ConstraintKey::CornerDisc { a: s, corner, disc: d })
            }
            _ => {}
        }
        // Beside the nearest feature, when the margin is the sweep of a fast
        // body's step, every other one the disc is within it of, from
        // outside: a polygon turning fast within a step may bring any corner
        // or edge to it (issue 36).
        if !swept {
            return;
        }
        for (corner, v) in corners.iter().enumerate() {
            if (centre - v).norm() - r <= margin {
                keys.push(ConstraintKey::CornerDisc { a: s, corner, disc: d });
            }
        }
        for edge in 0..corners.len() {
            let (_, outside, along, len) = edge_frame(corners, edge, centre);
            if outside > 0.0 && outside - r <= margin && along >= -margin && along <= len + margin {
                keys.push(ConstraintKey::Corner { a: d, corner: 0, b: s, edge });
            }
        }
    }

    /// Whether a kept row still stands for its contact: a corner row only
    /// while its corner is over the edge, with the tolerance it was generated
    /// with, and still in front of it (past the edge's end, or round it, the
    /// line would hold the corner up in the air or pull it sideways; the other
    /// body's corner, or the next edge's row, takes over there); a disc's row
    /// on an edge while its centre is over it (the corner's row takes over,
    /// equal where they meet). Every other row holds wherever it is.
    /// (`world`: every body's points in the world, [`ContactGenerator::points`].)
    fn over_its_edge(&self, bodies: &[Body], world: &[Vec<Vector2<f64>>], key: ConstraintKey, margin: f64) -> bool {
        let ConstraintKey::Corner { a, corner, b, edge } = key else { return true };
        let corners = &world[b];
        let p = world[a][corner];
        let (_, _, along, len) = edge_frame(corners, edge, p);
        if bodies[a].radius > 0.0 {
            return (0.0..=len).contains(&along);
        }
        // A polygon's corner: while it is still in front of that edge (round
        // the edge's end it is in front of the next one, whose row takes
        // over; at the toe of a wedge, a corner a hair under the floor takes
        // the wedge's bottom face for a step, and leaves it when it is back).
        let own = &world[a];
        let (_, outside, _, _) = edge_frame(corners, edge, p);
        // (Or round the other's corner, outside this edge too: [`corners_on_edges`].)
        (-margin..=len + margin).contains(&along)
            && (in_front_of(corners, centre_of(own), p, margin) == Some(edge) || outside > 1e-3 * margin)
    }

    /// The constraint a key stands for, named as the full list would name it.
    pub fn constraint(&self, bodies: &[Body], key: ConstraintKey) -> Constraint {
        match key {
            ConstraintKey::Wall { wall, body, point } => {
                let w = &self.walls[wall];
                let corners = self.points[body].len() > 1 || self.points[body][0] != Vector2::zeros();
                let name = if corners {
                    format!("{}:{}[{point}]", w.name, bodies[body].name)
                } else {
                    format!("{}:{}", w.name, bodies[body].name)
                };
                let at = self.points[body][point];
                Constraint {
                    name,
                    kind: ConstraintKind::Inequality,
                    geometry: Geometry::HalfPlane { body, normal: w.normal, offset: w.offset, at },
                    restitution: w.restitution,
                    friction: w.friction,
                    rolling: if corners { 0.0 } else { w.rolling },
                }
            }
            ConstraintKey::Corner { a, corner, b, edge } => {
                let v = &self.points[b];
                let (v0, v1) = (v[edge], v[(edge + 1) % v.len()]);
                let t = (v1 - v0).normalize();
                let normal = Vector2::new(t.y, -t.x);
                // A corner (or a disc's centre) is on the edge between its
                // ends, to round-off of the two shapes' size (two stacked
                // boxes of one width have their corners on each other's ends).
                let reach = |i: usize| self.points[i].iter().map(|r| r.norm()).fold(bodies[i].radius, f64::max);
                let tol = EXTENT_TOL * (reach(a) + reach(b));
                let ends = Some((t.dot(&v0) - tol, t.dot(&v1) + tol));
                let name = if bodies[a].radius > 0.0 {
                    format!("{}-{}[{edge}]", bodies[a].name, bodies[b].name)
                } else {
                    format!("{}[{corner}]-{}[{edge}]", bodies[a].name, bodies[b].name)
                };
                Constraint {
                    name,
                    kind: ConstraintKind::Inequality,
                    geometry: Geometry::CornerEdge {
                        a,
                        at: self.points[a][corner],
                        b,
                        normal,
                        offset: normal.dot(&v0),
                        ends,
                    },
                    restitution: self.pair_restitution,
                    friction: self.pair_friction,
                    // A disc on an edge rolls on it; a corner does not.
                    rolling: if bodies[a].radius > 0.0 { self.pair_rolling } else { 0.0 },
                }
            }
            ConstraintKey::CornerDisc { a, corner, disc } => Constraint {
                name: format!("{}[{corner}]-{}", bodies[a].name, bodies[disc].name),
                kind: ConstraintKind::Inequality,
                geometry: Geometry::CornerDisc { a, at: self.points[a][corner], disc },
                restitution: self.pair_restitution,
                friction: self.pair_friction,
                rolling: 0.0,
            },
            ConstraintKey::Pair { a, b } => Constraint {
                name: format!("{}-{}", bodies[a].name, bodies[b].name),
                kind: ConstraintKind::Inequality,
                geometry: Geometry::Contact { a, b },
                restitution: self.pair_restitution,
                friction: self.pair_friction,
                rolling: self.pair_rolling,
            },
        }
    }
}

/// Index pairs `(i, j)`, `i < j`, of discs `(centre, radius)` whose gap
/// `|p_i − p_j| − r_i − r_j` is at most `margin`: the [`neighbours`] that are.
/// `O(n)` for discs of similar size.
pub fn pairs_within(discs: &[(Vector2<f64>, f64)], margin: f64) -> Vec<(usize, usize)> {
    let mut out = neighbours(discs, margin);
    out.retain(|&(i, j)| {
        let ((p, r), (q, s)) = (discs[i], discs[j]);
        (p - q).norm() - r - s <= margin
    });
    out
}

/// Index pairs `(i, j)`, `i < j`, sorted, that hold every pair of circles
/// `(centre, radius)` whose gap `|p_i − p_j| − r_i − r_j` is at most
/// `margin` (and more: the caller tests each), by a uniform grid.
///
/// A cell is as wide as the largest circle of the grid plus the margin, so
/// two circles within the margin of each other are in the same cell or in
/// neighbouring ones: each circle meets those of its cell and the eight
/// around it. A circle much larger than the others (over four times their
/// median radius: a fixed slab under a pile of boxes) stays out of the grid,
/// whose cells it would widen for all, and meets every circle; so does a
/// circle at a non-finite place. The grid is a sorted list of (cell,
/// circle), each neighbouring cell found by bisection: `O(n log n)` for
/// circles of similar size (a hash map of cells cost the 100-ball landing
/// 2–3 % of its step in hashing).
pub fn neighbours(circles: &[(Vector2<f64>, f64)], margin: f64) -> Vec<(usize, usize)> {
    let finite = |p: &Vector2<f64>, r: f64| p.x.is_finite() && p.y.is_finite() && r.is_finite();
    let mut radii: Vec<f64> = circles.iter().filter(|(p, r)| finite(p, *r)).map(|c| c.1).collect();
    radii.sort_unstable_by(f64::total_cmp);
    let median = radii.get(radii.len() / 2).copied().unwrap_or(0.0);
    let large = |p: &Vector2<f64>, r: f64| !finite(p, r) || r > 4.0 * median;
    let rmax = circles.iter().filter(|(p, r)| !large(p, *r)).map(|c| c.1).fold(0.0, f64::max);
    let cell = (2.0 * rmax + margin).max(1e-9);
    let key = |p: &Vector2<f64>| ((p.x / cell).floor() as i64, (p.y / cell).floor() as i64);
    // The grid: each circle's cell and index, sorted (a cell's circles are
    // a run of it, found by bisection; no hashing).
    let mut grid: Vec<((i64, i64), usize)> = Vec::with_capacity(circles.len());
    let mut outside = Vec::new();
    for (i, (p, r)) in circles.iter().enumerate() {
        if large(p, *r) {
            outside.push(i);
        } else {
            grid.push((key(p), i));
        }
    }
    grid.sort_unstable();
    let mut out = Vec::new();
    for (i, (p, r)) in circles.iter().enumerate() {
        if large(p, *r) {
            continue;
        }
        let (cx, cy) = key(p);
        for dx in -1..=1 {
            for dy in -1..=1 {
                // Far coordinates saturate to the grid's last cell (`as` does),
                // and so do their neighbours: no overflow, no wrap-around.
                let cell = (cx.saturating_add(dx), cy.saturating_add(dy));
                let first = grid.partition_point(|(k, _)| *k < cell);
                let run = grid[first..].iter().take_while(|(k, _)| *k == cell);
                out.extend(run.filter(|(_, j)| *j > i).map(|&(_, j)| (i, j)));
            }
        }
    }
    for &i in &outside {
        out.extend((0..circles.len()).filter(|&j| j != i).map(|j| (i.min(j), i.max(j))));
    }
    out.sort_unstable();
    // A saturated key visits its cell twice; two large circles meet twice.
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The grid finds exactly the pairs a brute-force check finds.
    #[test]
    fn grid_pairs_match_brute_force() {
        let mut discs = Vec::new();
        let mut seed = 7u64;
        let mut rnd = || {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 11) as f64 / (1u64 << 53) as f64
        };
        for _ in 0..300 {
            discs.push((Vector2::new(rnd() * 2.0 - 1.0, rnd() * 3.0), 0.01 + 0.04 * rnd()));
        }
        for margin in [0.0, 0.01, 0.1] {
            let mut brute = Vec::new();
            for i in 0..discs.len() {
                for j in i + 1..discs.len() {
                    if (discs[i].0 - discs[j].0).norm() - discs[i].1 - discs[j].1 <= margin {
                        brute.push((i, j));
                    }
                }
            }
            assert!(!brute.is_empty());
            assert_eq!(pairs_within(&discs, margin), brute, "margin {margin}");
        }
    }

    /// The grid's neighbours hold every pair of circles within the margin,
    /// found by brute force, for circles of mixed sizes (a large slab among
    /// small boxes, which stays out of the grid) and circles at no place.
    #[test]
    fn neighbours_hold_every_near_pair_of_mixed_circles() {
        let mut seed = 11u64;
        let mut rnd = || {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 11) as f64 / (1u64 << 53) as f64
        };
        let mut circles: Vec<(Vector2<f64>, f64)> =
            (0..400).map(|_| (Vector2::new(rnd() * 4.0 - 2.0, rnd() * 4.0), 0.05 + 0.1 * rnd())).collect();
        circles.push((Vector2::new(0.0, -5.0), 5.2));
        circles.push((Vector2::new(30.0, 30.0), 20.0));
        circles.push((Vector2::new(f64::NAN, 0.0), 0.1));
        for margin in [0.0, 0.02, 0.1] {
            let found = neighbours(&circles, margin);
            let mut near = 0;
            for i in 0..circles.len() {
                for j in i + 1..circles.len() {
                    let ((p, r), (q, s)) = (circles[i], circles[j]);
                    let nan = !(p.x.is_finite() && q.x.is_finite());
                    if nan || (p - q).norm() - r - s <= margin {
                        near += 1;
                        assert!(found.binary_search(&(i, j)).is_ok(), "margin {margin}: ({i}, {j}) missed");
                    }
                }
            }
            // The slab under the field meets the bottom row, and the grid
            // keeps its candidates near: far fewer than every pair.
            assert!(near > circles.len(), "margin {margin}: {near} near pairs");
            let all = circles.len() * (circles.len() - 1) / 2;
            assert!(found.len() < all / 5, "margin {margin}: {} candidates of {all}", found.len());
        }
    }

    /// Issue 36, finding 8: a coordinate at 1e20 m made the neighbour key
    /// `cx + 1` overflow (a panic in the README's build, a wrap in release).
    /// Far discs saturate into the grid's last cell; near ones still pair.
    #[test]
    fn far_coordinates_do_not_overflow_the_grid() {
        let discs = [
            (Vector2::new(0.0, 0.5), 0.1),
            (Vector2::new(0.15, 0.5), 0.1),
            (Vector2::new(1e20, 0.5), 0.1),
            (Vector2::new(-1e300, -1e300), 0.1),
            (Vector2::new(f64::MAX, f64::MAX), 0.1),
            (Vector2::new(f64::MAX, f64::MAX), 0.1),
        ];
        assert_eq!(pairs_within(&discs, 0.01), vec![(0, 1), (4, 5)]);
    }
}
