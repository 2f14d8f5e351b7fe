import Foundation
import LabCore

/// A seeded, deterministic percentile bootstrap over independent units (seat-rotation blocks).
public enum Bootstrap {
    /// Percentile bootstrap intervals of a vector statistic of resampled units.
    ///
    /// For `replicates` replicates: draw, for each group g, `groups[g].total` units with
    /// replacement from that group's categories (category c of group g has weight
    /// `groups[g][c]`); call `statistic` with the drawn multiplicity of every category
    /// (same shape as the input counts) and collect its vector result. Returns per
    /// component the (lower, upper) percentile bounds at (1-level)/2 and (1+level)/2.
    /// Uses its own generator seeded from `seed`, so the same inputs and seed give the
    /// same bounds on every machine and thread count.
    ///
    /// Details:
    /// - A group's multiplicities are one multinomial draw: category by category, a
    ///   binomial draw of the units left, with the category's share of the weight left
    ///   (``binomial(_:_:using:)``). Categories of weight 0 are never drawn, the last
    ///   category takes what is left, and a group draws `total` rounded to the nearest
    ///   integer units. A replicate costs O(categories), not O(units): a million blocks
    ///   resample as fast as a hundred.
    /// - Draws come from ``LabRandom`` seeded with `seed`, one group after another in
    ///   each replicate, on the calling thread.
    /// - The percentile q of the R sorted values x_0 <= ... <= x_(R-1) is read at position
    ///   h = q·(R - 1): x_floor(h) + (h - floor(h))·(x_ceil(h) - x_floor(h)) (Hyndman and
    ///   Fan's type 7, the default of R and NumPy).
    /// - `statistic` must return the same number of finite components on every call.
    /// - Precondition: `replicates >= 1`, `0 < level < 1`, counts non-negative.
    /// - Complexity: O(R·(Σ_g C_g + S) + K·R·log R) for R replicates, groups of C_g
    ///   categories, a statistic costing S and returning K components.
    public static func percentileIntervals(
        groups: [[Double]], replicates: Int, level: Double = 0.95, seed: UInt64,
        statistic: ([[Double]]) -> [Double]
    ) -> [(lower: Double, upper: Double)] {
        precondition(replicates >= 1, "the bootstrap needs at least one replicate")
        precondition(level > 0 && level < 1, "level must lie strictly between 0 and 1")
        precondition(groups.allSatisfy { $0.allSatisfy { $0 >= 0 } }, "counts must be non-negative")

        let totals = groups.map { $0.reduce(0, +) }
        let draws = totals.map { Int($0.rounded()) }

        var rng = LabRandom(seed: seed)
        var samples: [[Double]] = []  // samples[component][replicate]
        for replicate in 0..<replicates {
            var multiplicity = groups.map { [Double](repeating: 0, count: $0.count) }
            for g in groups.indices where draws[g] > 0 {
                var left = draws[g]
                var weightLeft = totals[g]
                let last = groups[g].lastIndex { $0 > 0 } ?? 0
                for c in groups[g].indices where groups[g][c] > 0 && left > 0 {
                    let k = c == last ? left : binomial(left, min(1, groups[g][c] / weightLeft), using: &rng)
                    multiplicity[g][c] = Double(k)
                    left -= k
                    weightLeft -= groups[g][c]
                }
            }
            let values = statistic(multiplicity)
            if replicate == 0 {
                samples = Array(repeating: [], count: values.count)
                for k in samples.indices { samples[k].reserveCapacity(replicates) }
            }
            precondition(values.count == samples.count, "the statistic changed its number of components")
            for (k, value) in values.enumerated() { samples[k].append(value) }
        }

        let lowerQ = (1 - level) / 2, upperQ = (1 + level) / 2
        return samples.map { values in
            let sorted = values.sorted()
            return (percentile(lowerQ, ofSorted: sorted), percentile(upperQ, ofSorted: sorted))
        }
    }

    /// A binomial draw: successes in `n` trials of probability `p`.
    ///
    /// Exact for small expected counts (n·min(p, 1-p) < 30: the trials' waiting times,
    /// drawn by inverting the geometric distribution); above that, the normal
    /// approximation with continuity correction, rounded and clamped to 0...n, whose
    /// error there is far below a bootstrap's own resampling noise.
    /// - Complexity: O(n·min(p, 1-p)) draws for the exact branch, O(1) otherwise.
    static func binomial(_ n: Int, _ p: Double, using rng: inout LabRandom) -> Int {
        guard n > 0, p > 0 else { return 0 }
        guard p < 1 else { return n }
        let q = min(p, 1 - p)
        let successes: Int
        if Double(n) * q < 30 {
            // Count successes of probability q: jump from success to success by
            // geometric waiting times.
            let logFail = log1p(-q)
            var count = 0, position = 0
            while true {
                let u = 1 - rng.unit()  // (0, 1]
                position += Int((log(u) / logFail).rounded(.down)) + 1
                if position > n { break }
                count += 1
            }
            successes = count
        } else {
            let mean = Double(n) * q, sd = (Double(n) * q * (1 - q)).squareRoot()
            // Box-Muller, one normal deviate.
            let u1 = 1 - rng.unit(), u2 = rng.unit()
            let z = (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
            successes = min(n, max(0, Int((mean + sd * z).rounded())))
        }
        return q == p ? successes : n - successes
    }

    /// The type-7 percentile `q` of an ascending, non-empty array.
    static func percentile(_ q: Double, ofSorted sorted: [Double]) -> Double {
        let h = q * Double(sorted.count - 1)
        let below = Int(h.rounded(.down))
        let above = min(below + 1, sorted.count - 1)
        return sorted[below] + (h - Double(below)) * (sorted[above] - sorted[below])
    }
}
