import Foundation

/// The scale the hypotheses' Elo differences are on.
public enum SPRTModel: String, Sendable, Equatable, CaseIterable {
    /// Normalized Elo (fishtest's and fastchess's default): the score's distance from 1/2
    /// in per-game standard deviations, times 800 / ln 10. The test's length for given
    /// bounds does not depend on how noisy the games are.
    case normalized
    /// Logistic Elo: the expected score 1 / (1 + 10^(-elo / 400)).
    case logistic

    /// The accepted names, for messages: "normalized, logistic".
    public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }
}

/// What a sequential test decides between: H0, Elo difference `elo0`, and H1, `elo1`
/// (on the scale of `model`), with error rates `alpha` (accepting H1 when H0 holds) and
/// `beta` (accepting H0 when H1 holds).
public struct SPRTSettings: Sendable, Equatable {
    public var elo0: Double
    public var elo1: Double
    public var alpha: Double
    public var beta: Double
    public var model: SPRTModel

    public init(elo0: Double = 0, elo1: Double = 20, alpha: Double = 0.05, beta: Double = 0.05, model: SPRTModel = .normalized) {
        precondition(elo1 > elo0 && (0..<0.5).contains(alpha) && alpha > 0 && (0..<0.5).contains(beta) && beta > 0)
        self.elo0 = elo0
        self.elo1 = elo1
        self.alpha = alpha
        self.beta = beta
        self.model = model
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
/// "Sequential probability ratio test" and "SPRT in normalized Elo"), as fishtest's
/// `LLRcalc.py` and fastchess compute it.
public enum SPRT {
    /// Normalized Elo per unit of t-value: 800 / ln 10 = 347.4356.
    public static let normalizedEloPerT = 800 / log(10.0)

    /// The expected score of an Elo difference: 1 / (1 + 10^(-elo / 400)).
    public static func score(elo: Double) -> Double { 1 / (1 + pow(10, -elo / 400)) }

    /// The Elo difference of an expected score (±infinity at 1 and 0).
    public static func elo(score: Double) -> Double { -400 * log10(1 / score - 1) }

    /// The observed distribution as fishtest's `results_to_pdf` makes it: empty outcomes
    /// get a mass of `emptyMass` (so a short run cannot pin the distribution to the
    /// outcomes seen so far), and N is the padded total. Nil without any count.
    static func observed(_ counts: [Double], emptyMass: Double) -> (n: Double, p: [Double])? {
        guard counts.reduce(0, +) > 0 else { return nil }
        let padded = counts.map { $0 > 0 ? $0 : emptyMass }
        let total = padded.reduce(0, +)
        return (total, padded.map { $0 / total })
    }

    /// The log-likelihood ratio of H1 against H0 in logistic Elo, for outcomes `values`
    /// observed `counts` times: `N Σ p̂ᵢ ln(p1ᵢ / p0ᵢ)`, where `pj` is the
    /// maximum-likelihood distribution on the same outcomes whose mean is the score of
    /// `eloj`: `pjᵢ = p̂ᵢ / (1 + θ (aᵢ − sj))`, θ the root of
    /// `Σ p̂ᵢ (aᵢ − sj) / (1 + θ (aᵢ − sj)) = 0` (fishtest's `LLR_logistic`). Empty outcomes
    /// get a mass of `emptyMass` (1e-3, as fishtest and fastchess do), and N is the padded
    /// total, as fishtest's.
    public static func llr(values: [Double], counts: [Double], elo0: Double, elo1: Double, emptyMass: Double = 1e-3) -> Double {
        precondition(values.count == counts.count && !values.isEmpty)
        guard let observed = observed(counts, emptyMass: emptyMass) else { return 0 }
        let (n, p) = observed
        let s0 = score(elo: elo0), s1 = score(elo: elo1)
        guard let t0 = theta(values: values, p: p, mean: s0), let t1 = theta(values: values, p: p, mean: s1) else { return 0 }
        var sum = 0.0
        for i in values.indices {
            // ln(p1/p0) = ln(1 + θ0 (a − s0)) − ln(1 + θ1 (a − s1)).
            sum += p[i] * (log1p(t0 * (values[i] - s0)) - log1p(t1 * (values[i] - s1)))
        }
        return n * sum
    }

    /// The log-likelihood ratio of H1 against H0 in normalized Elo (fishtest's
    /// `LLR_normalized`): `N Σ p̂ᵢ ln(p1ᵢ / p0ᵢ)`, where `pj` is the maximum-likelihood
    /// distribution on the same outcomes whose t-value `(μ − 1/2) / σ` is `tj`
    /// (``mleTValue(values:p:reference:t:)``). For game pairs (`perPair`, the pentanomial)
    /// `tj = √2 · nEloj / (800 / ln 10)`, since a pair's deviation is the per-game one over
    /// √2; for single games `tj = nEloj / (800 / ln 10)`. Empty outcomes are padded as in
    /// ``llr(values:counts:elo0:elo1:emptyMass:)``.
    public static func normalizedLLR(values: [Double], counts: [Double], nelo0: Double, nelo1: Double, perPair: Bool,
                                     emptyMass: Double = 1e-3) -> Double {
        precondition(values.count == counts.count && !values.isEmpty)
        guard let observed = observed(counts, emptyMass: emptyMass) else { return 0 }
        let (n, p) = observed
        let scale = (perPair ? 2.0.squareRoot() : 1) / normalizedEloPerT
        guard let p0 = mleTValue(values: values, p: p, reference: 0.5, t: nelo0 * scale),
              let p1 = mleTValue(values: values, p: p, reference: 0.5, t: nelo1 * scale) else { return 0 }
        var sum = 0.0
        for i in values.indices { sum += p[i] * (log(p1[i]) - log(p0[i])) }
        return n * sum
    }

    /// The maximum-likelihood distribution on `values` with t-value
    /// `(μ − reference) / σ = t`, given the observed distribution `p` (all masses positive):
    /// fishtest's `MLE_t_value` (Van den Bergh, "Normalized Elo, practical", section 4.1).
    ///
    /// A fixed-point iteration from the uniform distribution: with μ and σ of the current
    /// estimate, `dᵢ = aᵢ − reference − t σ (1 + ((μ − aᵢ) / σ)²) / 2`, x the root of the
    /// secular equation `Σ pᵢ dᵢ / (1 + x dᵢ) = 0`, and the next estimate
    /// `pᵢ / (1 + x dᵢ)`; until no mass moves by more than 1e-12 (at most 100 rounds;
    /// fishtest stops at 1e-9 or 10 rounds, the same to 1e-6 in the LLR). Nil when `t`
    /// cannot be reached (every `dᵢ` of one sign).
    static func mleTValue(values: [Double], p: [Double], reference: Double, t: Double) -> [Double]? {
        var estimate = [Double](repeating: 1 / Double(values.count), count: values.count)
        var d = [Double](repeating: 0, count: values.count)
        for _ in 0..<100 {
            var mu = 0.0, variance = 0.0
            for i in values.indices { mu += estimate[i] * values[i] }
            for i in values.indices { variance += estimate[i] * (values[i] - mu) * (values[i] - mu) }
            let sigma = variance.squareRoot()
            guard sigma > 0 else { return nil }
            for i in values.indices {
                let z = (mu - values[i]) / sigma
                d[i] = values[i] - reference - t * sigma * (1 + z * z) / 2
            }
            guard let x = secular(d, p) else { return nil }
            var moved = 0.0
            for i in values.indices {
                let next = p[i] / (1 + x * d[i])
                moved = max(moved, abs(next - estimate[i]))
                estimate[i] = next
            }
            if moved < 1e-12 { break }
        }
        return estimate
    }

    /// θ with `Σ pᵢ (aᵢ − s) / (1 + θ (aᵢ − s)) = 0`: the tilt that gives the
    /// distribution mean `s` (fishtest's `MLE_expected`). Nil when `s` lies outside the
    /// outcomes' range.
    static func theta(values: [Double], p: [Double], mean s: Double) -> Double? {
        secular(values.map { $0 - s }, p)
    }

    /// x with `Σ pᵢ dᵢ / (1 + x dᵢ) = 0` (positive `p`), on the interval where every
    /// denominator stays positive, (−1 / max d, −1 / min d), where the left side falls
    /// from +∞ to −∞: Newton's method from x = 0, with a bisection step whenever Newton
    /// would leave the bracket. Nil unless some dᵢ < 0 < some dⱼ.
    static func secular(_ d: [Double], _ p: [Double]) -> Double? {
        var dMin = Double.infinity, dMax = -Double.infinity
        for v in d { dMin = min(dMin, v); dMax = max(dMax, v) }
        guard dMin < 0, dMax > 0 else { return nil }
        var a = -1 / dMax, b = -1 / dMin
        var t = 0.0
        for _ in 0..<200 {
            var f = 0.0, slope = 0.0
            for i in d.indices {
                let q = 1 / (1 + t * d[i])
                f += p[i] * d[i] * q
                slope -= p[i] * d[i] * d[i] * q * q
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

    /// The log-likelihood ratio of H1 against H0 under the settings' model.
    public func llr(_ settings: SPRTSettings) -> Double {
        switch settings.model {
        case .normalized:
            SPRT.normalizedLLR(values: Self.values, counts: counts.map(Double.init), nelo0: settings.elo0, nelo1: settings.elo1,
                               perPair: true)
        case .logistic:
            SPRT.llr(values: Self.values, counts: counts.map(Double.init), elo0: settings.elo0, elo1: settings.elo1)
        }
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

    /// The normalized Elo estimate and its 95 % interval: nElo = (μ − 1/2) / σ_pg · 800 / ln 10
    /// with the per-game deviation σ_pg = √(2 · the pair variance), ± 1.96 · (800 / ln 10) / √(2 N)
    /// (the mean's standard error in units of σ_pg, as fastchess reports it). Without spread
    /// (every pair the same) the estimate is 0 at a mean of 1/2 and ±infinity otherwise.
    public var normalizedElo: (estimate: Double, low: Double, high: Double) {
        guard blocks > 1 else { return (0, -.infinity, .infinity) }
        let sigma = (2 * variance).squareRoot()
        let distance = mean - 0.5
        let estimate = sigma > 0 ? distance / sigma * SPRT.normalizedEloPerT : distance == 0 ? 0 : distance > 0 ? .infinity : -.infinity
        let half = 1.959964 * SPRT.normalizedEloPerT / (2 * Double(blocks)).squareRoot()
        return (estimate, estimate - half, estimate + half)
    }

    /// `[3, 10, 50, 12, 4]`: LL, LD, WL+DD, WD, WW.
    public var description: String {
        "[\(counts.map(String.init).joined(separator: ", "))]"
    }
}
