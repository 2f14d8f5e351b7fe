import Foundation

/// The N-tuple bandit landscape model of NTBEA (TAG's `NTupleSystem` with its 1-tuples
/// and the full N-tuple): the statistics of every measured score, kept per value of each
/// single parameter and per whole point, over grid indices.
struct NTupleModel: Sendable, Equatable {
    /// Count and sum of the scores seen at one key of one tuple.
    struct Stats: Sendable, Equatable {
        var count = 0
        var sum = 0.0
        var mean: Double { sum / Double(count) }
    }

    /// `single[d][i]`: the scores of points whose parameter `d` stood at grid index `i`.
    private(set) var single: [[Stats]]
    /// The scores of each whole point.
    private(set) var full: [[Int]: Stats] = [:]
    /// The points measured, each once, in the order first measured.
    private(set) var sampled: [[Int]] = []
    /// Scores added.
    private(set) var total = 0

    init(sizes: [Int]) {
        single = sizes.map { Array(repeating: Stats(), count: $0) }
    }

    /// Tuples in the model: one per parameter and the full one.
    var tupleCount: Int { single.count + 1 }

    /// Adds one score measured at `x`.
    /// - Complexity: O(parameters), amortized.
    mutating func add(_ x: [Int], score: Double) {
        for (d, i) in x.enumerated() {
            single[d][i].count += 1
            single[d][i].sum += score
        }
        if full[x] == nil { sampled.append(x) }
        full[x, default: Stats()].count += 1
        full[x, default: Stats()].sum += score
        total += 1
    }

    /// The mean over the tuples that have seen `x`'s key of their mean score; `nil` when none has.
    func mean(_ x: [Int]) -> Double? {
        var sum = 0.0, tuples = 0
        for (d, i) in x.enumerated() where single[d][i].count > 0 {
            sum += single[d][i].mean
            tuples += 1
        }
        if let s = full[x] {
            sum += s.mean
            tuples += 1
        }
        return tuples == 0 ? nil : sum / Double(tuples)
    }

    /// The mean over all tuples of `sqrt(log(1 + scores added) / (epsilon + visits of x's key))`.
    func exploration(_ x: [Int], epsilon: Double) -> Double {
        let numerator = log(1 + Double(total))
        var sum = 0.0
        for (d, i) in x.enumerated() {
            sum += (numerator / (epsilon + Double(single[d][i].count))).squareRoot()
        }
        sum += (numerator / (epsilon + Double(full[x]?.count ?? 0))).squareRoot()
        return sum / Double(tupleCount)
    }

    /// Visits of the full tuple at `x`.
    func visits(_ x: [Int]) -> Int { full[x]?.count ?? 0 }
}
