//! The record of what an active-set algorithm did during one step.
//!
//! Like MuJoCo's `efc_state`, the handled set is explicit: each iteration lists
//! the constraints that entered or left `F⁺`, why, the multipliers `λ` and the
//! violation tendencies `J_k q̈ − d_k` of every candidate, so a student can follow
//! the algorithm step by step (see [`Trace::describe`]).

use crate::choice::Algorithm;
use crate::lcp;

/// Why a constraint entered or left the handled set `F⁺`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Reason {
    /// Active (`g_k ≈ 0`) when Platt's algorithm starts (Algorithm 1).
    ActiveAtStart { g: f64 },
    /// Violated after the step (`g_k < 0`, Algorithm 1 line 8).
    Violated { g: f64 },
    /// Violation tendency `J_k q̈ − d_k < 0` (Algorithms 2 and 3, the Exact solver).
    Tendency { a: f64 },
    /// Multiplier not positive (`λ_k ≤ 0`, Algorithms 1–2 line 5).
    NonPositiveMultiplier { lambda: f64 },
    /// Exact solver: the ratio test stopped here, `λ_k` reached 0 while driving another.
    Blocked { lambda: f64 },
    /// Exact solver: `J_k q̈ − d_k` rose back to 0 while driving another, so `k` rejoins.
    Touching { a: f64 },
    /// Dropped by the linear solver: the row depends on the rows already handled.
    Dependent,
    /// A contact with friction that stuck needed `|λ_t| = ratio · μ λ_n`,
    /// outside Coulomb's cone: it slips ([`crate::friction`]).
    Slips { ratio: f64 },
    /// A contact that slipped would reverse its slip within the step
    /// (`v_t⁺/h = w`): it sticks.
    Sticks { w: f64 },
}

/// One change of the handled set.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Change {
    pub constraint: usize,
    pub reason: Reason,
}

/// One solve of eq. (6) and the set changes that followed it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Iteration {
    /// The handled set used for this solve (equalities included).
    pub handled: Vec<usize>,
    /// `(k, λ_k)` for the handled constraints.
    pub lambda: Vec<(usize, f64)>,
    /// `(k, J_k q̈ − d_k)` for every candidate (active inequality or handled).
    pub tendency: Vec<(usize, f64)>,
    pub added: Vec<Change>,
    pub removed: Vec<Change>,
}

/// Everything an algorithm did in one step.
#[derive(Clone, Debug, PartialEq)]
pub struct Trace {
    pub algorithm: Algorithm,
    /// Changes made before the first solve (initialisation of `F⁺`).
    pub initial: Vec<Change>,
    pub iterations: Vec<Iteration>,
    /// Changes made after integration (Algorithms 1–2, lines 3–9), for the next step.
    pub after_step: Vec<Change>,
    /// The solve stopped without a complementary answer (Exact: at its pivot
    /// cap, or on constraints that cannot all hold).
    pub capped: Option<crate::lcp::Cap>,
    /// Contacts sliding with no consistent force (Painlevé's paradox,
    /// [`crate::friction`]): the step took an impulse for them.
    pub inconsistent: Vec<usize>,
    /// Those of them past Painlevé's bound (their own push drives them in,
    /// `A_nn − s μ A_nt ≤ 0`); the others are inconsistent together.
    pub past_bound: Vec<usize>,
    /// Which test established that no force holds, in words
    /// ([`crate::coulomb::Proof::sentence`]).
    pub proof: Option<String>,
    /// Rows whose Baumgarte targets (eq. 5) no `λ ≥ 0` meets, met in the
    /// least-squares sense instead ([`crate::lcp::least_squares`]), and the
    /// most any of them was missed by (in `J q̈`'s units).
    pub conflict: Vec<usize>,
    pub conflict_miss: f64,
    /// A Moreau–Jean step ([`crate::timestep`]): what it solved, in a
    /// sentence; its iteration holds impulses `P` (N·s), not forces.
    pub time_step: Option<String>,
}

impl Trace {
    /// Above this many handled rows an iteration keeps its handled set and its
    /// changes but not the lists of every `λ_k` and `J_k q̈ − d_k`: a pile of a
    /// thousand balls would otherwise store megabytes a step that nobody reads.
    /// The rounds of the exact solver's pivoting keep as much ([`lcp::DETAIL`]).
    pub const DETAIL: usize = lcp::DETAIL;

    pub fn new(algorithm: Algorithm) -> Self {
        Trace {
            algorithm,
            initial: Vec::new(),
            iterations: Vec::new(),
            after_step: Vec::new(),
            capped: None,
            inconsistent: Vec::new(),
            past_bound: Vec::new(),
            proof: None,
            conflict: Vec::new(),
            conflict_miss: 0.0,
            time_step: None,
        }
    }

    /// Number of linear solves of eq. (6).
    pub fn solves(&self) -> usize {
        self.iterations.len()
    }

    /// The trace in sentences, naming constraints with `names`.
    pub fn describe(&self, names: &[String]) -> Vec<String> {
        let name = |k: usize| names.get(k).cloned().unwrap_or_else(|| format!("#{k}"));
        let mut out = vec![format!("{}:", self.algorithm.label())];
        for c in &self.initial {
            out.push(format!("start: {} {}", name(c.constraint), sentence(&c.reason, true)));
        }
        if let Some(what) = &self.time_step {
            out[0] = format!("{} (time-stepping, Moreau–Jean):", self.algorithm.label());
            out.push(what.clone());
            for it in &self.iterations {
                let p: Vec<String> = it.lambda.iter().map(|(k, l)| format!("P[{}] = {:.4e}", name(*k), l)).collect();
                if !p.is_empty() {
                    out.push(format!("impulses (N·s): {}", p.join(", ")));
                }
            }
            if let Some(cap) = self.capped {
                out.push(cap.sentence());
            }
            return out;
        }
        for (i, it) in self.iterations.iter().enumerate() {
            let handled: Vec<String> = it.handled.iter().map(|&k| name(k)).collect();
            let lambdas: Vec<String> = it.lambda.iter().map(|(k, l)| format!("λ[{}] = {:.4}", name(*k), l)).collect();
            out.push(format!(
                "iteration {}: solve eq. (6) with {{{}}}{}{}",
                i + 1,
                handled.join(", "),
                if lambdas.is_empty() { "" } else { " → " },
                lambdas.join(", ")
            ));
            for c in &it.added {
                out.push(format!("  {} {}", name(c.constraint), sentence(&c.reason, true)));
            }
            for c in &it.removed {
                out.push(format!("  {} {}", name(c.constraint), sentence(&c.reason, false)));
            }
        }
        for c in &self.after_step {
            let added = !matches!(c.reason, Reason::NonPositiveMultiplier { .. });
            out.push(format!("after the step: {} {}", name(c.constraint), sentence(&c.reason, added)));
        }
        if let Some(cap) = self.capped {
            out.push(cap.sentence());
        }
        if !self.conflict.is_empty() {
            let rows: Vec<String> = self.conflict.iter().map(|&k| name(k)).collect();
            out.push(format!(
                "Baumgarte's targets conflict on {{{}}}: no λ ≥ 0 meets them all (they push from opposite sides, \
                 or ask more than the contacts can give); met in the least-squares sense, missed by at most {:.2e}, \
                 with no self-stress",
                rows.join(", "),
                self.conflict_miss
            ));
        }
        if !self.inconsistent.is_empty() {
            let (past, together): (Vec<usize>, Vec<usize>) =
                self.inconsistent.iter().partition(|k| self.past_bound.contains(k));
            let names = |ks: &[usize]| ks.iter().map(|&k| name(k)).collect::<Vec<_>>().join(", ");
            let mut why = Vec::new();
            if !past.is_empty() {
                why.push(format!("{} {} past Painlevé's bound", names(&past), slide(past.len())));
            }
            if !together.is_empty() {
                why.push(format!("{} {} with no consistent force together", names(&together), slide(together.len())));
            }
            let proof = self.proof.as_deref().map(|p| format!(", by {p}")).unwrap_or_default();
            out.push(format!(
                "no consistent contact force: {} (no λ ≥ 0 holds{proof}); the step takes an impulse at the \
                 velocity level first (impact without collision)",
                why.join("; ")
            ));
        }
        out
    }
}

/// The verb for `n` contacts that slide.
fn slide(n: usize) -> &'static str {
    if n == 1 { "slides" } else { "slide" }
}

fn sentence(r: &Reason, added: bool) -> String {
    let verb = if added { "→ handled (F⁺)" } else { "→ released (F⁻)" };
    match r {
        Reason::ActiveAtStart { g } => format!("is active at the start (g = {g:.2e}) {verb}"),
        Reason::Violated { g } => format!("is violated (g = {g:.3e} < 0) {verb}"),
        Reason::Tendency { a } => format!("shows a violation tendency (J·q̈ − d = {a:.4}) {verb}"),
        Reason::NonPositiveMultiplier { lambda } => format!("has λ = {lambda:.4} ≤ 0 {verb}"),
        Reason::Blocked { lambda } => format!("blocks the pivot: λ fell to {lambda:.2e} {verb}"),
        Reason::Touching { a } => format!("came back in touch (J·q̈ − d = {a:.2e}) {verb}"),
        Reason::Dependent => format!("depends on the other handled rows (its λ is 0) {verb}"),
        Reason::Slips { ratio } => format!("needs |λ_t| = {ratio:.3} μλ_n, outside Coulomb's cone → slips"),
        Reason::Sticks { w } => format!("would reverse its slip (v_t⁺/h = {w:.3e}) → sticks"),
    }
}
