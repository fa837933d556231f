//! Numbers as the panels and the labels on the world show them.

/// A number in a fixed, readable format (scientific when tiny or huge).
pub fn num(v: f64) -> String {
    if v == 0.0 {
        "0".into()
    } else if !v.is_finite() {
        format!("{v}")
    } else if v.abs() < 1e-3 || v.abs() >= 1e5 {
        format!("{v:.3e}")
    } else {
        format!("{v:.4}")
    }
}

/// Forces below this (N) are round-off of the solve, not a value: the
/// multipliers of a contact at rest come out as ±1e-15 N and so on.
pub const FORCE_ROUND_OFF: f64 = 1e-12;

/// A multiplier λ as the panels show it: [`num`], or "< 1e-12" below round-off.
pub fn force(v: f64) -> String {
    if v != 0.0 && v.abs() < FORCE_ROUND_OFF { "< 1e-12".into() } else { num(v) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_multiplier_below_round_off_is_not_shown_as_a_value() {
        assert_eq!(force(6.466e-15), "< 1e-12");
        assert_eq!(force(-3e-16), "< 1e-12");
        assert_eq!(force(0.0), "0");
        assert_eq!(force(2.5e-9), "2.500e-9");
        assert_eq!(force(-2.0), "-2.0000");
    }
}
