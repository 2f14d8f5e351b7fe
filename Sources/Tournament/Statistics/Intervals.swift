import Foundation

/// Confidence intervals and the Elo transform for scores (statistics spec, "Win rate").
///
/// Pure functions over counts: no I/O, no randomness.
public enum Intervals {
    /// The two-sided 95 % standard normal quantile.
    public static let z95 = 1.959964

    /// Wilson score interval for `successes` (may be fractional, e.g. a score with half points) out of `trials`; (0, 1) when trials == 0.
    ///
    /// With p = successes / trials and n = trials: centre (p + z²/(2n)) / (1 + z²/n),
    /// half-width z·sqrt(p(1-p)/n + z²/(4n²)) / (1 + z²/n). The bounds are clamped to
    /// [0, 1] so rounding never leaves the unit interval.
    /// - Precondition: `0 <= successes <= trials`.
    /// - Complexity: O(1).
    public static func wilson(successes: Double, trials: Double, z: Double = z95) -> (lower: Double, upper: Double) {
        guard trials > 0 else { return (0, 1) }
        precondition(successes >= 0 && successes <= trials, "wilson needs 0 <= successes <= trials")
        let p = successes / trials
        let z2n = z * z / trials
        let denominator = 1 + z2n
        let centre = (p + z2n / 2) / denominator
        let half = z * (p * (1 - p) / trials + z2n / (4 * trials)).squareRoot() / denominator
        return (max(0, centre - half), min(1, centre + half))
    }

    /// Elo difference from a mean score s: -400 * log10(1/s - 1); clamp s to [1e-6, 1 - 1e-6] so it stays finite (document the clamp).
    ///
    /// The score is clamped to [1e-6, 1 - 1e-6] before the transform, so a score of 0
    /// or 1 maps to about ∓2400 Elo instead of ∓infinity. Map an interval of scores by
    /// applying this to both bounds (the transform is increasing).
    /// - Complexity: O(1).
    public static func elo(score: Double) -> Double {
        let s = min(max(score, 1e-6), 1 - 1e-6)
        return -400 * log10(1 / s - 1)
    }

    /// Normal-approximation interval of a mean over N independent units (blocks) given sum and sum of squares (unbiased variance, n-1); the interval is clamped to [0, 1]; for N < 2 returns (0, 1).
    ///
    /// mean = sum / N, variance = (sumOfSquares - sum²/N) / (N - 1) (floored at 0 against
    /// rounding), interval mean ± z·sqrt(variance / N). For N < 2 the bounds are (0, 1) and
    /// the mean is sum / N, or 0 when N == 0.
    /// - Complexity: O(1).
    public static func meanInterval(count: Int, sum: Double, sumOfSquares: Double, z: Double = z95)
        -> (mean: Double, lower: Double, upper: Double)
    {
        guard count >= 2 else { return (count == 1 ? sum : 0, 0, 1) }
        let n = Double(count)
        let mean = sum / n
        let variance = max(0, (sumOfSquares - sum * sum / n) / (n - 1))
        let half = z * (variance / n).squareRoot()
        return (mean, max(0, mean - half), min(1, mean + half))
    }
}
