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

    // MARK: Over blocks

    /// Blocks of one table (a stratum): how many, and the sum and sum of squares of a
    /// per-block figure (an entrant's mean over its matches in the block).
    public struct BlockSums: Sendable, Equatable {
        public var count: Int
        public var sum: Double
        public var squares: Double

        public init(count: Int = 0, sum: Double = 0, squares: Double = 0) {
            self.count = count
            self.sum = sum
            self.squares = squares
        }

        public mutating func add(_ value: Double) {
            count += 1
            sum += value
            squares += value * value
        }

        /// The same blocks seen from the other side: every value x becomes 1 - x.
        public var mirrored: BlockSums {
            BlockSums(count: count, sum: Double(count) - sum, squares: Double(count) - 2 * sum + squares)
        }
    }

    /// The mean of a per-block figure over the blocks of several tables, and the variance
    /// of that mean, with the tables as strata (the schedule fixes how many blocks each
    /// table gets, so the tables are strata of a stratified sample and the blocks its
    /// independent units).
    ///
    /// With N = Σ nₜ blocks: mean = Σ sumₜ / N (every block has the same number of
    /// matches for an entrant, so this is the figure over matches too); variance
    /// Σₜ (nₜ / N)² sₜ² / nₜ with sₜ² = (squaresₜ − sumₜ² / nₜ) / (nₜ − 1) (floored at 0).
    /// When a table with blocks has fewer than 2 (its spread unknown), the variance is
    /// the pooled one, s² / N over all N blocks, which also counts the differences between
    /// tables (wider). Nil with fewer than 2 blocks in all.
    /// - Complexity: O(strata).
    public static func stratified(_ strata: [BlockSums]) -> (mean: Double, variance: Double, blocks: Int)? {
        var n = 0, sum = 0.0, squares = 0.0, everyTableSpread = true
        for s in strata where s.count > 0 {
            n += s.count
            sum += s.sum
            squares += s.squares
            if s.count < 2 { everyTableSpread = false }
        }
        guard n >= 2 else { return nil }
        let total = Double(n), mean = sum / total
        var variance = 0.0
        if everyTableSpread {
            for s in strata where s.count > 0 {
                let c = Double(s.count)
                let spread = max(0, (s.squares - s.sum * s.sum / c) / (c - 1))
                variance += c * spread / (total * total)
            }
        } else {
            variance = max(0, (squares - sum * sum / total) / (total - 1)) / total
        }
        return (mean, variance, n)
    }

    /// A 95 % interval for a proportion (a win rate, a score share) measured over blocks:
    /// the Wilson interval with the effective number of trials of the block design,
    /// n_eff = p (1 − p) / V, V the stratified variance of the mean
    /// (``stratified(_:)``); Kish's design effect, as Korn and Graubard (1998) use it for
    /// survey proportions.
    ///
    /// Matches of a block that move together (common random numbers make them) give a
    /// larger V, so fewer effective trials than matches and a wider interval; blocks that
    /// all split the same way give V = 0 and a zero-width interval at p. At p = 0 or 1
    /// (V is 0 there) n_eff is the number of blocks, as if each block were one trial, so
    /// the interval still reaches inside (0, 1). (0, 1) with fewer than 2 blocks. Bounds
    /// clamped to [0, 1].
    /// - Complexity: O(strata).
    public static func proportionOverBlocks(_ strata: [BlockSums], z: Double = z95) -> (mean: Double, lower: Double, upper: Double) {
        guard let m = stratified(strata) else {
            let n = strata.reduce(0) { $0 + $1.count }
            return (n == 0 ? 0 : strata.reduce(0) { $0 + $1.sum } / Double(n), 0, 1)
        }
        let p = min(1, max(0, m.mean))
        if p <= 0 || p >= 1 {
            let w = wilson(successes: p * Double(m.blocks), trials: Double(m.blocks), z: z)
            return (p, w.lower, w.upper)
        }
        guard m.variance > 0 else { return (p, p, p) }
        let trials = p * (1 - p) / m.variance
        let w = wilson(successes: p * trials, trials: trials, z: z)
        return (p, w.lower, w.upper)
    }

    /// A 95 % normal interval for a mean measured over blocks (a mean place): mean ± z √V,
    /// V the stratified variance of the mean (``stratified(_:)``), clamped to `range`;
    /// the whole range with fewer than 2 blocks.
    /// - Complexity: O(strata).
    public static func meanOverBlocks(_ strata: [BlockSums], range: ClosedRange<Double>, z: Double = z95)
        -> (mean: Double, lower: Double, upper: Double)
    {
        guard let m = stratified(strata) else {
            let n = strata.reduce(0) { $0 + $1.count }
            return (n == 0 ? 0 : strata.reduce(0) { $0 + $1.sum } / Double(n), range.lowerBound, range.upperBound)
        }
        let half = z * m.variance.squareRoot()
        return (m.mean, max(range.lowerBound, m.mean - half), min(range.upperBound, m.mean + half))
    }
}
