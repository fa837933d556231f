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
