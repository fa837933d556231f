//! The contract every answer of [`super`] is held to ([`CONTRACT`]), island
//! by island, and the targets no force meets taken off ([`least_squares`]).

use super::*;

/// The contract's relative accuracy: every answer has `λ_i ≥ −ε_λ` and
/// `a_i ≥ −ε_a` on the inequalities, `|a_i| ≤ ε_a` on the equalities and
/// `|λ_i a_i| ≤ ε_c`, with, on each island,
///
/// ```text
/// ε_a = CONTRACT (min(‖A‖ ‖λ‖, SELF_STRESS ‖b‖) + ‖b‖),   ε_λ = ε_a / ‖A‖,   ε_c = ε_a ‖λ‖ + ε_λ ‖a‖
/// ```
///
/// (`‖A‖` the largest row sum of `|A_ij|`, the others largest entries): a
/// multiple of the machine's `ε = 2.2e-16` (4.5e6 ε) of the island's own
/// scale, whatever `τ`, `h` or the units. The pivoting works to a tenth of it.
///
/// The scale is the data's, `A` and `b`: the answer's own `‖λ‖` counts only
/// up to [`SELF_STRESS`] `‖b‖ / ‖A‖`. Targets that no `λ ≥ 0` meets (a box
/// overlapping two opposite walls, each row asked to push it out) solved
/// through the regularization give a self-stress `λ ~ ‖b‖ / (ε ‖A‖)`, 1e10
/// times the data, whose `a_i ≈ −b_i` a tolerance `1e-9 ‖A‖ ‖λ‖` accepted
/// (issue 36, finding 7): they miss this contract, and [`crate::exact`]
/// reports them as conflicting targets.
pub const CONTRACT: f64 = 1e-9;

/// How far past `‖b‖` the answer's `‖A‖ ‖λ‖` may scale the contract
/// ([`CONTRACT`]): 10³, a mass ratio of a thousand across one island.
/// Beyond, the tolerance stays `1e-6 ‖b‖`, which an answer solved to the
/// machine's precision still meets up to a ratio of 1e9.
pub const SELF_STRESS: f64 = 1e3;

/// How far `λ` is from the contract ([`CONTRACT`]), as a multiple of its
/// tolerances (at most 1: it holds), island by island.
pub fn contract_ratio(graph: &SchurGraph, b: &[f64], neq: usize, lambda: &[f64]) -> f64 {
    contract_ratio_above(graph, b, neq, lambda, 0.0)
}

/// [`contract_ratio`] with `ε_a` at least `floor` (an absolute speed, the
/// caller's units): a problem whose data are all round-off (a disc wedged
/// at rest in a corner, `b` at 1e-13 m/s) is held to its own round-off
/// otherwise, which no answer meets.
pub fn contract_ratio_above(graph: &SchurGraph, b: &[f64], neq: usize, lambda: &[f64], floor: f64) -> f64 {
    ratios(graph, b, neq, lambda, floor).1.into_iter().fold(0.0, f64::max)
}

/// [`contract_ratio`] island by island: each row's island
/// ([`SchurGraph::islands`]) and each island's ratio.
pub fn island_ratios(graph: &SchurGraph, b: &[f64], neq: usize, lambda: &[f64]) -> (Vec<usize>, Vec<f64>) {
    ratios(graph, b, neq, lambda, 0.0)
}

fn ratios(graph: &SchurGraph, b: &[f64], neq: usize, lambda: &[f64], floor: f64) -> (Vec<usize>, Vec<f64>) {
    let a: Vec<f64> = graph.mul(lambda).iter().zip(b).map(|(x, y)| x - y).collect();
    let island = graph.islands();
    let n = island.iter().map(|i| i + 1).max().unwrap_or(0);
    // Per island: ‖A‖, ‖b‖, ‖λ‖, ‖a‖.
    let mut norms = vec![[0.0_f64; 4]; n];
    for i in 0..b.len() {
        let row = graph.diag[i].abs() + graph.adj[i].iter().map(|(_, v)| v.abs()).sum::<f64>();
        let x = &mut norms[island[i]];
        for (k, v) in [row, b[i].abs(), lambda[i].abs(), a[i].abs()].into_iter().enumerate() {
            x[k] = x[k].max(v);
        }
    }
    let mut worst = vec![0.0_f64; n];
    for i in 0..b.len() {
        let [an, bn, ln, aa] = norms[island[i]];
        let ea = (CONTRACT * ((an * ln).min(SELF_STRESS * bn) + bn)).max(floor).max(f64::MIN_POSITIVE);
        let el = ea / an.max(f64::MIN_POSITIVE);
        let ec = ea * ln + el * aa;
        let r = if i < neq {
            a[i].abs() / ea
        } else {
            (-lambda[i] / el).max(-a[i] / ea).max((lambda[i] * a[i]).abs() / ec.max(f64::MIN_POSITIVE))
        };
        let w = &mut worst[island[i]];
        *w = w.max(if r.is_nan() { f64::INFINITY } else { r });
    }
    (island, worst)
}

/// Targets that no `λ ≥ 0` meets, taken off where no force meets them
/// ([`least_squares`]).
#[derive(Clone, Debug)]
pub struct Conflict {
    /// The answer on the targets that can be met.
    pub lcp: Lcp,
    /// Those targets: `b` less the part no force meets.
    pub targets: Vec<f64>,
    /// The rows whose targets moved (local indices), and by how much at most.
    pub rows: Vec<usize>,
    pub worst: f64,
}

/// Rounds and relative shift of the least-`λ` iteration
/// ([`SchurGraph::least_with_force`]), as [`crate::kkt`]'s.
const LEAST_ROUNDS: usize = 3;
const LEAST_SHIFT: f64 = 1e-8;
/// Below this fraction of the largest target, a target met is round-off.
const ROUND_OFF: f64 = 1e-12;

/// Conflicting targets (issue 36, finding 7). When the answer `lambda`
/// (clamped on `clamped`) misses the contract ([`CONTRACT`]) because the
/// targets `b` of the rows it holds or violates, `S`, have a part off the
/// range of `A_SS` (a box overlapping two opposite walls: each row asks to
/// push it out, and no force does both), the regularized solve has put
/// `b_N / ε` into a self-stress that pushes on nothing. That part is taken
/// off: `b_N = b_S − A_SS x` with `x` the least-squares answer of
/// `A_SS x = b_S` (the regularized solve, then the least `λ` with its force,
/// [`SchurGraph::least_with_force`]: in the metric `diag(A)`), so
/// `A_SS b_N = 0`: no force could have met any of it. The problem is solved
/// again on the targets that are left, and that answer returned when it
/// meets the contract on them (`None`: the answer holds, or what it misses
/// is not a conflict of targets).
pub fn least_squares(graph: &SchurGraph, b: &[f64], neq: usize, lambda: &[f64], clamped: &[bool]) -> Option<Conflict> {
    if contract_ratio(graph, b, neq, lambda) <= 1.0 {
        return None;
    }
    let force = graph.mul(lambda);
    let floor = CONTRACT * b.iter().fold(0.0_f64, |m, x| m.max(x.abs()));
    let set: Vec<usize> = (0..b.len()).filter(|&i| i < neq || clamped[i] || force[i] - b[i] < -floor).collect();
    if set.is_empty() {
        return None;
    }
    let g = graph.restrict(&set);
    let bs: Vec<f64> = set.iter().map(|&i| b[i]).collect();
    let x = g.least_with_force(&g.solve_regularized(&bs, REGULARIZATION), LEAST_SHIFT, LEAST_ROUNDS);
    // What a force meets, to the round-off of `b` (a symmetric squeeze
    // meets nothing: 1e-19 where `b` is 5e-6 is 0).
    let noise = ROUND_OFF * bs.iter().fold(0.0_f64, |m, x| m.max(x.abs()));
    let met = g.mul(&x);
    let mut targets = b.to_vec();
    for (l, &i) in set.iter().enumerate() {
        targets[i] = if met[l].abs() > noise { met[l] } else { 0.0 };
    }
    let warm: Vec<bool> = (0..b.len()).map(|i| i >= neq && set.contains(&i)).collect();
    let lcp = solve_lcp(graph, &targets, neq, &warm, 0.0);
    if lcp.capped.is_some() || contract_ratio(graph, &targets, neq, &lcp.lambda) > 1.0 {
        return None;
    }
    let miss: Vec<f64> = set.iter().map(|&i| (targets[i] - b[i]).abs()).collect();
    let worst = miss.iter().copied().fold(0.0, f64::max);
    let rows = set.iter().zip(&miss).filter(|(_, m)| **m > 1e-3 * worst).map(|(&i, _)| i).collect();
    Some(Conflict { lcp, targets, rows, worst })
}
