//! Numbers as the panels and the labels on the world show them, and the
//! names of the files the lab writes unasked (screenshots, clips).

use std::path::PathBuf;

/// `contact-lab-<ms since 1970>.EXT` in the current directory: a fresh name
/// for a screenshot or a clip, from the Unix time (no date crate needed).
pub fn fresh_file_name(ext: &str) -> PathBuf {
    let ms = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_millis()).unwrap_or(0);
    PathBuf::from(format!("contact-lab-{ms}.{ext}"))
}

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
