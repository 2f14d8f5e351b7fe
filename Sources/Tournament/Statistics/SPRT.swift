import Foundation

/// What a sequential test decides between: H0, Elo difference `elo0`, and H1, `elo1`
/// (logistic Elo), with error rates `alpha` (accepting H1 when H0 holds) and `beta`
/// (accepting H0 when H1 holds).
public struct SPRTSettings: Sendable, Equatable {
    public var elo0: Double
    public var elo1: Double
    public var alpha: Double
    public var beta: Double

    public init(elo0: Double = 0, elo1: Double = 20, alpha: Double = 0.05, beta: Double = 0.05) {
        precondition(elo1 > elo0 && (0..<0.5).contains(alpha) && alpha > 0 && (0..<0.5).contains(beta) && beta > 0)
        self.elo0 = elo0
        self.elo1 = elo1
        self.alpha = alpha
        self.beta = beta
    }

    /// ln(beta / (1 - alpha)): at or below it, H0 is accepted.
    public var lowerBound: Double { log(beta / (1 - alpha)) }
    /// ln((1 - beta) / alpha): at or above it, H1 is accepted.
    public var upperBound: Double { log((1 - beta) / alpha) }
}

/// Where a sequential test stands.
public enum SPRTDecision: String, Sendable, Equatable {
    /// The log-likelihood ratio crossed the upper bound: the candidate is stronger (H1).
    case h1
    /// It crossed the lower bound: not stronger by `elo1` (H0).
    case h0
    /// Neither yet.
    case undecided
}

/// The generalised sequential probability ratio test on block scores (statistics.md,
/// "Sequential probability ratio test"), as fishtest and fastchess run it.
public enum SPRT {
    /// The expected score of an Elo difference: 1 / (1 + 10^(-elo / 400)).
    public static func score(elo: Double) -> Double { 1 / (1 + pow(10, -elo / 400)) }

    /// The Elo difference of an expected score (±infinity at 1 and 0).
    public static func elo(score: Double) -> Double { -400 * log10(1 / score - 1) }

    /// The log-likelihood ratio of H1 against H0 for outcomes `values` observed `counts`
    /// times: `N Σ p̂ᵢ ln(p1ᵢ / p0ᵢ)`, where `pj` is the maximum-likelihood distribution
    /// on the same outcomes whose mean is the score of `eloj`:
    /// `pjᵢ = p̂ᵢ / (1 + θ (aᵢ − sj))`, θ the root of `Σ p̂ᵢ (aᵢ − sj) / (1 + θ (aᵢ − sj)) = 0`.
    /// Empty outcomes get a mass of `emptyMass` (1e-3, as fishtest and fastchess do) so a
    /// short run cannot pin the distribution to the outcomes seen so far.
    public static func llr(values: [Double], counts: [Double], elo0: Double, elo1: Double, emptyMass: Double = 1e-3) -> Double {
        precondition(values.count == counts.count && !values.isEmpty)
        let n = counts.reduce(0, +)
        guard n > 0 else { return 0 }
        let padded = counts.map { $0 > 0 ? $0 : emptyMass }
        let total = padded.reduce(0, +)
        let p = padded.map { $0 / total }
        let s0 = score(elo: elo0), s1 = score(elo: elo1)
        guard let t0 = theta(values: values, p: p, mean: s0), let t1 = theta(values: values, p: p, mean: s1) else { return 0 }
        var sum = 0.0
        for i in values.indices {
            // ln(p1/p0) = ln(1 + θ0 (a − s0)) − ln(1 + θ1 (a − s1)).
            sum += p[i] * (log1p(t0 * (values[i] - s0)) - log1p(t1 * (values[i] - s1)))
        }
        return n * sum
    }

    /// θ with `Σ pᵢ (aᵢ − s) / (1 + θ (aᵢ − s)) = 0`, on the interval where every
    /// denominator stays positive (where the left side falls from +∞ to −∞): Newton's
    /// method from θ = 0, with a bisection step whenever Newton would leave the bracket.
    /// Nil when `s` lies outside the outcomes' range.
    static func theta(values: [Double], p: [Double], mean s: Double) -> Double? {
        var dMin = Double.infinity, dMax = -Double.infinity
        for v in values { dMin = min(dMin, v - s); dMax = max(dMax, v - s) }
        guard dMin < 0, dMax > 0 else { return nil }
        var a = -1 / dMax, b = -1 / dMin
        var t = 0.0
        for _ in 0..<100 {
            var f = 0.0, slope = 0.0
            for i in values.indices {
                let d = values[i] - s
                let q = 1 / (1 + t * d)
                f += p[i] * d * q
                slope -= p[i] * d * d * q * q
            }
            if f > 0 { a = t } else { b = t }
            if abs(f) < 1e-15 { return t }
            var next = t - f / slope
            if !(next > a && next < b) { next = (a + b) / 2 }
            if abs(next - t) < 1e-15 * max(1, abs(t)) { return next }
            t = next
        }
        return t
    }
}

/// The five outcomes of a 2-seat block (a game pair: one deal, seats swapped), by the
/// candidate's block score 0, 1/4, 1/2, 3/4, 1: {LL, LD, WL or DD, WD, WW}.
public struct Pentanomial: Sendable, Equatable {
    public static let values: [Double] = [0, 0.25, 0.5, 0.75, 1]
    public private(set) var counts = [Int](repeating: 0, count: 5)

    public init(counts: [Int] = [0, 0, 0, 0, 0]) {
        precondition(counts.count == 5)
        self.counts = counts
    }

    /// Adds a block from the candidate's mean score over its two matches (0, 1/2 or 1 each).
    public mutating func add(blockScore: Double) {
        let k = Int((blockScore * 4).rounded())
        precondition((0...4).contains(k) && abs(Double(k) / 4 - blockScore) < 1e-9, "a 2-match block score is a multiple of 1/4")
        counts[k] += 1
    }

    public var blocks: Int { counts.reduce(0, +) }
    public var matches: Int { 2 * blocks }

    /// The mean block score (the candidate's score share).
    public var mean: Double {
        blocks == 0 ? 0.5 : zip(Self.values, counts).reduce(0) { $0 + $1.0 * Double($1.1) } / Double(blocks)
    }

    /// The variance of one block's score.
    public var variance: Double {
        guard blocks > 0 else { return 0 }
        let m = mean
        return zip(Self.values, counts).reduce(0) { $0 + Double($1.1) * ($1.0 - m) * ($1.0 - m) } / Double(blocks)
    }

    public func llr(_ settings: SPRTSettings) -> Double {
        SPRT.llr(values: Self.values, counts: counts.map(Double.init), elo0: settings.elo0, elo1: settings.elo1)
    }

    public func decision(_ settings: SPRTSettings) -> SPRTDecision {
        let value = llr(settings)
        if value >= settings.upperBound { return .h1 }
        if value <= settings.lowerBound { return .h0 }
        return .undecided
    }

    /// The Elo estimate and its 95 % interval, from the mean block score and its standard
    /// error (blocks are the independent unit).
    public var elo: (estimate: Double, low: Double, high: Double) {
        guard blocks > 1 else { return (0, -.infinity, .infinity) }
        let m = mean
        let half = 1.959964 * (variance / Double(blocks)).squareRoot()
        func clamped(_ s: Double) -> Double { SPRT.elo(score: min(max(s, 1e-6), 1 - 1e-6)) }
        return (clamped(m), clamped(m - half), clamped(m + half))
    }

    /// `LL 3 LD 10 DD/WL 50 WD 12 WW 4`.
    public var description: String {
        "[\(counts.map(String.init).joined(separator: ", "))]"
    }
}
