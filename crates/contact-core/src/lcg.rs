//! A deterministic stream of numbers, for the tests' random cases and the
//! solvers' fixed perturbations (a leaf: it imports nothing).

/// A deterministic stream of numbers (Knuth's MMIX linear congruence): the
/// same random cases on every run and every machine, for the tests and the
/// solvers' deterministic perturbations.
#[derive(Clone, Debug)]
pub struct Lcg(pub u64);

impl Lcg {
    pub fn new(seed: u64) -> Lcg {
        Lcg(seed)
    }

    /// The next number in `[0, 1)`.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> f64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }

    /// The next number in `[lo, hi)`.
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.next()
    }
}
