//! Plot marks at 1, 2 and 5 times a power of ten, on both axes of every plot.
//!
//! egui_plot's default spacer subdivides by powers of ten (1, 10, 100): on a
//! plot 110 px high over `[−60, 5]` its 10-marks are 15 px apart, too close
//! to be labelled, and its 100-marks hold only 0, so tour step 9's θ̈ of
//! −53.5 rad/s² sat on an axis labelled "0" alone, and presenter mode's
//! narrow time axes read "0" (issue 47, items 5 and 14). Nested steps of
//! 1, 5, 10 (2, 10, 20; 5, 10, 50) grow by 2 to 5 a level instead of 10:
//! labelled at −50 and 0, or 0.05, 0.1 …

use egui_plot::{GridInput, GridMark};

/// The smallest of 1, 2, 5 × 10ᵏ at least `x` (`x > 0`).
fn nice_at_least(x: f64) -> f64 {
    let p = 10f64.powf(x.log10().floor());
    [1.0, 2.0, 5.0, 10.0].into_iter().map(|m| m * p).find(|s| *s >= x * (1.0 - 1e-12)).unwrap_or(10.0 * p)
}

/// The marks of [`nice_steps`] between `bounds`, each once at its coarsest step.
fn marks(steps: [f64; 3], (min, max): (f64, f64)) -> Vec<GridMark> {
    // The levels are nested: every mark is one of the finest step's, at the
    // coarsest step that divides it (one pass, each value once).
    let fine = steps[0];
    let ratios = steps.map(|s| (s / fine).round() as i64);
    let (first, last) = ((min / fine).ceil() as i64, (max / fine).floor() as i64);
    (first..=last)
        .map(|i| {
            let level = (0..3).rev().find(|&l| i % ratios[l] == 0).unwrap_or(0);
            GridMark { value: i as f64 * fine, step_size: steps[level] }
        })
        .collect()
}

/// Three nested levels of steps from the smallest the plot asks for (each
/// a multiple of the one before, so no two levels' labels interleave: 2s
/// beside 5s wrote "−4" over "−5"): 1, 5, 10 or 2, 10, 20 or 5, 10, 50
/// times a power of ten.
fn nice_steps(base: f64) -> [f64; 3] {
    let a = nice_at_least(base);
    let p = 10f64.powf(a.log10().floor());
    let m = (a / p).round();
    if m < 5.0 { [a, 5.0 * a, 10.0 * a] } else { [a, 2.0 * a, 10.0 * a] }
}

/// The label of a time mark: as many decimals as its step needs (0.05 s
/// read "0.1" with the decimals of a power of ten).
pub fn time_label(mark: GridMark) -> String {
    let decimals = (-mark.step_size.log10() - 1e-9).ceil().clamp(0.0, 9.0) as usize;
    format!("{:.*}", decimals, mark.value)
}

/// The label of a value mark: as many decimals as its step needs (a plot's
/// marks at 0, 5, 10 read "0", "5.0000", "10.0000" with the panels' fixed
/// four decimals), in scientific notation where the step is below 1e-3 or
/// the value past 1e5, with the mantissa's digits the step needs ("1.5e-17"
/// at steps of 5e-18, "2e-17" at steps of 1e-17).
pub fn value_label(value: f64, step: f64) -> String {
    let step = step.abs();
    if value == 0.0 || !value.is_finite() || !(step > 0.0 && step.is_finite()) {
        return if value == 0.0 { "0".into() } else { format!("{value}") };
    }
    if step < 1e-3 || value.abs() >= 1e5 {
        let digits = (value.abs().log10().floor() - step.log10().floor()).clamp(0.0, 6.0) as usize;
        return format!("{value:.digits$e}");
    }
    let decimals = (-step.log10() - 1e-9).ceil().clamp(0.0, 9.0) as usize;
    format!("{value:.decimals$}")
}

/// The spacer (module docs).
pub fn nice() -> impl Fn(GridInput) -> Vec<GridMark> {
    |input: GridInput| {
        let base = input.base_step_size.abs();
        let (lo, hi) = input.bounds;
        if !(base > 0.0 && base.is_finite() && lo.is_finite() && hi.is_finite()) || hi < lo {
            return Vec::new();
        }
        // At most a few thousand marks, whatever the bounds.
        if (hi - lo) / base > 5000.0 {
            return Vec::new();
        }
        marks(nice_steps(base), input.bounds)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_go_one_two_five() {
        assert_eq!(nice_steps(3.0), [5.0, 10.0, 50.0]);
        assert_eq!(nice_steps(0.7), [1.0, 5.0, 10.0]);
        assert_eq!(nice_steps(12.0), [20.0, 100.0, 200.0]);
        let tiny = nice_steps(3e-19);
        assert!((tiny[2] / 5e-18 - 1.0).abs() < 1e-9, "{tiny:?}");
        assert_eq!(time_label(GridMark { value: 0.05, step_size: 0.05 }), "0.05");
        assert_eq!(time_label(GridMark { value: 0.1, step_size: 0.1 }), "0.1");
        assert_eq!(time_label(GridMark { value: 20.0, step_size: 10.0 }), "20");
    }

    /// Value axes read as their marks are spaced: no trailing zeros past
    /// the step's decimals, the billiard's 1e-17 m in scientific notation.
    #[test]
    fn value_marks_carry_the_decimals_of_their_step() {
        assert_eq!(value_label(50.0, 50.0), "50");
        assert_eq!(value_label(10.0, 5.0), "10");
        assert_eq!(value_label(-0.5, 0.5), "-0.5");
        assert_eq!(value_label(0.25, 0.05), "0.25");
        assert_eq!(value_label(0.30000000000000004, 0.1), "0.3");
        assert_eq!(value_label(0.0, 0.1), "0");
        assert_eq!(value_label(1.5e-17, 5e-18), "1.5e-17");
        assert_eq!(value_label(2e-17, 1e-17), "2e-17");
        assert_eq!(value_label(2e5, 1e5), "2e5");
        assert_eq!(value_label(0.002, 0.001), "0.002");
    }

    /// Tour step 9's axis: `[−60, 5]` over about 110 px (egui asks for steps
    /// of at least about 5): labelled marks at −50, −25 … not 0 alone.
    #[test]
    fn a_short_axis_over_minus_sixty_to_five_has_coarse_marks_below_zero() {
        let m = marks(nice_steps(5.0), (-60.0, 5.0));
        let coarse: Vec<f64> = m.iter().filter(|g| g.step_size == 50.0).map(|g| g.value).collect();
        assert_eq!(coarse, [-50.0, 0.0]);
        assert!(m.iter().any(|g| g.value == -40.0 && g.step_size == 10.0));
        let values: Vec<f64> = m.iter().map(|g| g.value).collect();
        assert!(values.windows(2).all(|w| w[1] - w[0] > 4.9), "each value once: {values:?}");
    }
}
