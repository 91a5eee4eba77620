//! Statistics of repeated trials that every system's benchmarks report: win rates with
//! their confidence intervals.

/// The 95 % Wilson score interval for `wins` of `n` (Wilson, E. B. (1927), *Probable
/// inference, the law of succession, and statistical inference*, JASA 22, 209-212); the
/// whole range `(0, 1)` when `n` is 0.
///
/// ```
/// let (low, high) = ply_search::wilson(90, 100);
/// assert!((low - 0.8256).abs() < 1e-3 && (high - 0.9448).abs() < 1e-3);
/// ```
#[must_use]
pub fn wilson(wins: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let z = 1.959_964;
    let n = n as f64;
    let p = wins as f64 / n;
    let centre = p + z * z / (2.0 * n);
    let spread = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    let denominator = 1.0 + z * z / n;
    (
        ((centre - spread) / denominator).max(0.0),
        ((centre + spread) / denominator).min(1.0),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_interval() {
        let (lo, hi) = wilson(90, 100);
        assert!(
            (lo - 0.8256).abs() < 1e-3 && (hi - 0.9448).abs() < 1e-3,
            "{lo} {hi}"
        );
        assert_eq!(wilson(0, 0), (0.0, 1.0));
        let (lo, hi) = wilson(10, 10);
        assert!(lo > 0.69 && (hi - 1.0).abs() < 1e-12);
        // A million trials: a half-width under a tenth of a point.
        let (lo, hi) = wilson(410_000, 1_000_000);
        assert!(hi - lo < 0.002, "{lo} {hi}");
    }
}
