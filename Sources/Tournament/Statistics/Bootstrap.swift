import LabCore

/// A seeded, deterministic percentile bootstrap over independent units (seat-rotation blocks).
public enum Bootstrap {
    /// For `replicates` replicates: draw, for each group g, `groups[g].total` units with replacement from that group's categories
    /// (category c of group g has weight groups[g].counts[c]); call `statistic` with the drawn multiplicity of every category
    /// (same shape as the input counts) and collect its vector result. Returns per component the (lower, upper) percentile
    /// bounds at (1-level)/2 and (1+level)/2 (linear interpolation between order statistics; document it).
    /// Uses its own generator seeded from `seed` (write a small SplitMix64 or use LabCore's `LabRandom(seed:)` and its `uniform(_:)`),
    /// so the same inputs and seed give the same bounds on every machine and thread count.
    ///
    /// Details:
    /// - Units are drawn with ``LabRandom`` seeded with `seed`, one group after another in
    ///   each replicate, on the calling thread. A unit is drawn by binary search of
    ///   `unit() * total` in the group's cumulative weights, so weights may be fractional
    ///   and categories of weight 0 are never drawn. A group draws `total` rounded to the
    ///   nearest integer units.
    /// - The percentile q of the R sorted values x_0 <= ... <= x_(R-1) is read at position
    ///   h = q·(R - 1): x_floor(h) + (h - floor(h))·(x_ceil(h) - x_floor(h)) (Hyndman and
    ///   Fan's type 7, the default of R and NumPy).
    /// - `statistic` must return the same number of finite components on every call.
    /// - Precondition: `replicates >= 1`, `0 < level < 1`, counts non-negative.
    /// - Complexity: O(R·(Σ_g T_g·log C_g + S) + K·R·log R) for R replicates, groups of total
    ///   T_g over C_g categories, a statistic costing S and returning K components.
    public static func percentileIntervals(
        groups: [[Double]], replicates: Int, level: Double = 0.95, seed: UInt64,
        statistic: ([[Double]]) -> [Double]
    ) -> [(lower: Double, upper: Double)] {
        precondition(replicates >= 1, "the bootstrap needs at least one replicate")
        precondition(level > 0 && level < 1, "level must lie strictly between 0 and 1")
        precondition(groups.allSatisfy { $0.allSatisfy { $0 >= 0 } }, "counts must be non-negative")

        let cumulative = groups.map { counts in
            var running = 0.0
            return counts.map { running += $0; return running }
        }
        let totals = cumulative.map { $0.last ?? 0 }
        let draws = totals.map { Int($0.rounded()) }

        var rng = LabRandom(seed: seed)
        var samples: [[Double]] = []  // samples[component][replicate]
        for replicate in 0..<replicates {
            var multiplicity = groups.map { [Double](repeating: 0, count: $0.count) }
            for g in groups.indices where draws[g] > 0 {
                for _ in 0..<draws[g] {
                    let c = category(of: rng.unit() * totals[g], in: cumulative[g])
                    multiplicity[g][c] += 1
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

    /// The index of the first category whose cumulative weight exceeds `u` (binary search);
    /// the last category of positive weight if rounding puts `u` at the total.
    static func category(of u: Double, in cumulative: [Double]) -> Int {
        var low = 0, high = cumulative.count - 1
        guard u < cumulative[high] else {
            // u == total by rounding: the last category with positive weight.
            while high > 0 && cumulative[high - 1] == cumulative[high] { high -= 1 }
            return high
        }
        while low < high {
            let mid = (low + high) / 2
            if cumulative[mid] > u { high = mid } else { low = mid + 1 }
        }
        return low
    }

    /// The type-7 percentile `q` of an ascending, non-empty array.
    static func percentile(_ q: Double, ofSorted sorted: [Double]) -> Double {
        let h = q * Double(sorted.count - 1)
        let below = Int(h.rounded(.down))
        let above = min(below + 1, sorted.count - 1)
        return sorted[below] + (h - Double(below)) * (sorted[above] - sorted[below])
    }
}
