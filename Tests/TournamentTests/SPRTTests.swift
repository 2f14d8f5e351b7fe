import Foundation
import LabCore
import Testing
@testable import Tournament

/// The sequential test (statistics.md, "Sequential probability ratio test" and "SPRT in
/// normalized Elo"). Expected values come from closed forms (Wald's Bernoulli SPRT, the
/// normal approximations), from an independent script of fishtest's formulas, and from
/// simulation, never from the code under test.
@Suite("SPRT")
struct SPRTTests {
    @Test("Bounds: ln(beta/(1-alpha)) and ln((1-beta)/alpha); ±ln 19 = ±2.944439 at 0.05/0.05")
    func bounds() {
        let s = SPRTSettings()
        #expect(abs(s.upperBound - 2.944439) < 1e-6)
        #expect(abs(s.lowerBound + 2.944439) < 1e-6)
        let t = SPRTSettings(elo0: 0, elo1: 5, alpha: 0.01, beta: 0.1)
        #expect(abs(t.upperBound - log(0.9 / 0.01)) < 1e-12)
        #expect(abs(t.lowerBound - log(0.1 / 0.99)) < 1e-12)
    }

    @Test("Logistic Elo: 0 is 1/2, 400 is 10/11, and elo(score:) inverts score(elo:)")
    func logisticElo() {
        #expect(SPRT.score(elo: 0) == 0.5)
        #expect(abs(SPRT.score(elo: 400) - 10.0 / 11.0) < 1e-12)
        #expect(abs(SPRT.score(elo: -400) - 1.0 / 11.0) < 1e-12)
        for elo in [-300.0, -20, 0, 5, 20, 250] { #expect(abs(SPRT.elo(score: SPRT.score(elo: elo)) - elo) < 1e-9) }
    }

    @Test("With wins and losses only, the LLR is Wald's Bernoulli SPRT: W ln(s1/s0) + L ln((1-s1)/(1-s0))")
    func bernoulliClosedForm() {
        let (s0, s1) = (SPRT.score(elo: 0), SPRT.score(elo: 20))
        for (losses, wins) in [(40.0, 60.0), (55, 45), (3, 9), (500, 530)] {
            let expected = wins * log(s1 / s0) + losses * log((1 - s1) / (1 - s0))
            let llr = SPRT.llr(values: [0, 1], counts: [losses, wins], elo0: 0, elo1: 20)
            #expect(abs(llr - expected) < 1e-9 * max(1, abs(expected)), "W \(wins) L \(losses): \(llr) against \(expected)")
        }
    }

    @Test("The LLR matches the normal approximation N (s1-s0)(2ŝ-s0-s1)/(2σ²) for close hypotheses")
    func normalApproximation() {
        let settings = SPRTSettings(elo0: 0, elo1: 4, model: .logistic)
        let (s0, s1) = (SPRT.score(elo: 0), SPRT.score(elo: 4))
        for counts in [[100, 400, 1000, 420, 110], [300, 900, 2500, 1000, 250], [50, 200, 600, 180, 40]] {
            let p = Pentanomial(counts: counts)
            let n = Double(p.blocks)
            // Mean and variance by hand from the counts.
            let values = [0, 0.25, 0.5, 0.75, 1]
            let mean = zip(values, counts).reduce(0) { $0 + $1.0 * Double($1.1) } / n
            let variance = zip(values, counts).reduce(0) { $0 + Double($1.1) * ($1.0 - mean) * ($1.0 - mean) } / n
            let approximation = n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * variance)
            let llr = p.llr(settings)
            #expect(abs(llr - approximation) < 0.02 * max(1, abs(approximation)), "\(counts): \(llr) against \(approximation)")
        }
    }

    @Test("θ makes the tilted distribution a distribution with the hypothesis' mean")
    func thetaTiltsToTheMean() throws {
        let values = Pentanomial.values
        let p = [0.1, 0.2, 0.4, 0.2, 0.1]
        for s in [0.3, 0.5, 0.5288, 0.7] {
            let t = try #require(SPRT.theta(values: values, p: p, mean: s))
            let tilted = zip(values, p).map { $0.1 / (1 + t * ($0.0 - s)) }
            #expect(abs(tilted.reduce(0, +) - 1) < 1e-9, "total mass")
            #expect(abs(zip(values, tilted).reduce(0) { $0 + $1.0 * $1.1 } - s) < 1e-9, "mean \(s)")
        }
        #expect(SPRT.theta(values: [0.5, 1], p: [0.5, 0.5], mean: 0.4) == nil, "a mean outside the outcomes")
    }

    @Test("Pentanomial bins, mean and variance; a block score that is not a multiple of 1/4 is refused by contract")
    func pentanomial() {
        var p = Pentanomial()
        for score in [0.0, 0.25, 0.5, 0.5, 0.75, 1, 1, 1] { p.add(blockScore: score) }
        #expect(p.counts == [1, 1, 2, 1, 3])
        #expect(p.blocks == 8 && p.matches == 16)
        #expect(abs(p.mean - 5.0 / 8.0) < 1e-12)
        // Σ (a - 5/8)² by hand: 25/64 + 9/64 + 2/64 + 1/64 + 3 · 9/64 = 64/64; / 8.
        #expect(abs(p.variance - 1.0 / 8.0) < 1e-12)
        #expect(Pentanomial().decision(SPRTSettings()) == .undecided)
    }

    /// Synthetic game pairs: each game a win, draw or loss with the given probabilities
    /// (the expected score fixed by the Elo difference), two independent games a pair.
    static func simulate(elo: Double, draw: Double, settings: SPRTSettings, maxBlocks: Int, rng: inout LabRandom) -> SPRTDecision {
        let s = SPRT.score(elo: elo)
        let win = s - draw / 2
        var counts = Pentanomial()
        for _ in 0..<maxBlocks {
            var pair = 0.0
            for _ in 0..<2 {
                let u = rng.unit()
                pair += u < win ? 1 : u < win + draw ? 0.5 : 0
            }
            counts.add(blockScore: pair / 2)
            let decision = counts.decision(settings)
            if decision != .undecided { return decision }
        }
        return .undecided
    }

    @Test("Simulated tests of a known logistic Elo difference: false positives near alpha, false negatives near beta")
    func simulatedErrorRates() {
        let settings = SPRTSettings(elo0: 0, elo1: 40, alpha: 0.05, beta: 0.05, model: .logistic)
        var rng = LabRandom(seed: 20261122)
        let runs = 300
        var falsePositives = 0, falseNegatives = 0, undecided = 0
        for _ in 0..<runs {
            switch Self.simulate(elo: 0, draw: 0.2, settings: settings, maxBlocks: 20_000, rng: &rng) {
            case .h1: falsePositives += 1
            case .undecided: undecided += 1
            case .h0: break
            }
            switch Self.simulate(elo: 40, draw: 0.2, settings: settings, maxBlocks: 20_000, rng: &rng) {
            case .h0: falseNegatives += 1
            case .undecided: undecided += 1
            case .h1: break
            }
        }
        print("simulated SPRT [0, 40] at 0.05/0.05, \(runs) runs each: \(falsePositives) false positives, \(falseNegatives) false negatives")
        // Wald: the error rates are at most about alpha / (1 - beta) = 0.053; with 300 runs
        // a rate of 0.05 shows as 15 ± 3.8, so 27 (0.09) is over three standard errors.
        #expect(falsePositives <= 27, "false positives \(falsePositives) of \(runs)")
        #expect(falseNegatives <= 27, "false negatives \(falseNegatives) of \(runs)")
        #expect(falsePositives >= 1 && falseNegatives >= 1, "some errors must happen at 5 %: \(falsePositives), \(falseNegatives)")
        #expect(undecided == 0)
        // A much stronger candidate is accepted, and fast.
        var strong = LabRandom(seed: 7)
        #expect(Self.simulate(elo: 200, draw: 0.1, settings: settings, maxBlocks: 400, rng: &strong) == .h1)
    }

    // MARK: Normalized Elo

    /// The LLR values below come from this independent Python script of fishtest's
    /// `LLRcalc.py` (`results_to_pdf`, `MLE_t_value`, `LLR_normalized`, `LLR_logistic`;
    /// scipy's brentq for the secular equation), run with python3 and scipy 1.17; the
    /// first three columns of the first four rows are the spec's table (statistics.md,
    /// "SPRT in normalized Elo") to its 4 digits.
    ///
    ///     import math; from scipy.optimize import brentq
    ///     NT = 800 / math.log(10)
    ///     def secular(pdf):
    ///         v = min(a for a, p in pdf); w = max(a for a, p in pdf)
    ///         f = lambda x: sum(p * a / (1 + x * a) for a, p in pdf)
    ///         return brentq(f, -1 / w + 1e-9, -1 / v - 1e-9, xtol=1e-15, rtol=1e-15)
    ///     def stats(pdf):
    ///         s = sum(p * a for a, p in pdf); return s, sum(p * (a - s) ** 2 for a, p in pdf)
    ///     def mle_mean(pdf, s):
    ///         x = secular([(a - s, p) for a, p in pdf]); return [(a, p / (1 + x * (a - s))) for a, p in pdf]
    ///     def mle_t(pdf, ref, t):
    ///         m = [(a, 1 / len(pdf)) for a, p in pdf]
    ///         for _ in range(10):
    ///             prev = m; mu, var = stats(m); sg = var ** .5
    ///             d = [(a - ref - t * sg * (1 + ((mu - a) / sg) ** 2) / 2, p) for a, p in pdf]
    ///             x = secular(d); m = [(a, p / (1 + x * da)) for (a, p), (da, _) in zip(pdf, d)]
    ///             if max(abs(u[1] - v[1]) for u, v in zip(prev, m)) < 1e-9: break
    ///         return m
    ///     def topdf(r):
    ///         r = [x if x > 0 else 1e-3 for x in r]; N = sum(r)
    ///         return N, [(i / (len(r) - 1), r[i] / N) for i in range(len(r))]
    ///     def llr(pdf, p0, p1): return sum(p * (math.log(b[1]) - math.log(a[1])) for (_, p), a, b in zip(pdf, p0, p1))
    ///     def logistic(e0, e1, r):
    ///         N, pdf = topdf(r); s = lambda e: 1 / (1 + 10 ** (-e / 400))
    ///         return N * llr(pdf, mle_mean(pdf, s(e0)), mle_mean(pdf, s(e1)))
    ///     def normalized(n0, n1, r):
    ///         N, pdf = topdf(r)
    ///         return N * llr(pdf, mle_t(pdf, .5, n0 / NT * 2 ** .5), mle_t(pdf, .5, n1 / NT * 2 ** .5))
    static let fishtest: [(counts: [Int], normalized02: Double, logistic02: Double, normalized05: Double)] = [
        ([1, 0, 13, 0, 42], 0.379148, 0.306425, 0.941239),
        ([110, 33, 291, 33, 105], -0.082936, -0.094525, -0.278403),
        ([20, 150, 600, 170, 30], 0.413147, 0.741288, 0.912594),
        ([5, 40, 300, 60, 8], 0.333562, 0.734859, 0.783323),
    ]
    /// The same script at the default bounds [0, 20], with two more rows: 50 split pairs
    /// (a player against itself) and a few.
    static let fishtest20: [(counts: [Int], normalized: Double, logistic: Double)] = [
        ([1, 0, 13, 0, 42], 3.630598, 2.978346),
        ([110, 33, 291, 33, 105], -2.532737, -3.040350),
        ([20, 150, 600, 170, 30], 1.239430, -3.315862),
        ([5, 40, 300, 60, 8], 2.122166, 0.727445),
        ([0, 0, 50, 0, 0], -0.324314, -2.952647),
        ([3, 0, 40, 2, 0], -0.823544, -2.609439),
    ]

    @Test("Both models reproduce fishtest's LLR_normalized and LLR_logistic on pentanomial counts")
    func fishtestValues() {
        for row in Self.fishtest {
            let p = Pentanomial(counts: row.counts)
            let normalized2 = p.llr(SPRTSettings(elo0: 0, elo1: 2, model: .normalized))
            let logistic2 = p.llr(SPRTSettings(elo0: 0, elo1: 2, model: .logistic))
            let normalized5 = p.llr(SPRTSettings(elo0: 0, elo1: 5, model: .normalized))
            #expect(abs(normalized2 - row.normalized02) < 1e-5, "\(row.counts) normalized [0, 2]: \(normalized2)")
            #expect(abs(logistic2 - row.logistic02) < 1e-5, "\(row.counts) logistic [0, 2]: \(logistic2)")
            #expect(abs(normalized5 - row.normalized05) < 1e-5, "\(row.counts) normalized [0, 5]: \(normalized5)")
        }
        for row in Self.fishtest20 {
            let p = Pentanomial(counts: row.counts)
            let normalized = p.llr(SPRTSettings(elo0: 0, elo1: 20, model: .normalized))
            let logistic = p.llr(SPRTSettings(elo0: 0, elo1: 20, model: .logistic))
            #expect(abs(normalized - row.normalized) < 1e-5, "\(row.counts) normalized [0, 20]: \(normalized)")
            #expect(abs(logistic - row.logistic) < 1e-5, "\(row.counts) logistic [0, 20]: \(logistic)")
        }
    }

    @Test("The default model is normalized Elo, with bounds [0, 20]")
    func defaultModel() {
        let settings = SPRTSettings()
        #expect(settings.model == .normalized)
        #expect(settings.elo0 == 0 && settings.elo1 == 20)
        // [1, 0, 13, 0, 42] at the default settings: fishtest's LLR_normalized(0, 20) = 3.630598
        // (table above), above the bound ln 19 = 2.944, where logistic [0, 20] gives 2.978346.
        let p = Pentanomial(counts: [1, 0, 13, 0, 42])
        #expect(abs(p.llr(settings) - 3.630598) < 1e-5)
        #expect(p.decision(settings) == .h1)
        #expect(SPRTModel(rawValue: "normalized") == .normalized && SPRTModel(rawValue: "logistic") == .logistic)
        #expect(SPRTModel(rawValue: "bogus") == nil)
        #expect(SPRTModel.names == "normalized, logistic")
    }

    @Test("Normalized LLR is close to Van den Bergh's closed form (games/2) ln((1 + (nt - nt0)²) / (1 + (nt - nt1)²)) for a large, smooth sample")
    func normalizedClosedForm() {
        // Section 4.2 of "Normalized Elo, practical": with nt = (μ - 1/2) / σ_pg and
        // σ_pg = √(2 var_pair), LLR ≈ N ln((1 + (nt - nt0)²) / (1 + (nt - nt1)²)), N pairs.
        for (counts, bounds) in [([200, 900, 2500, 1000, 250], (0.0, 5.0)), ([300, 900, 2500, 900, 300], (0.0, 10.0)),
                                 ([100, 400, 1000, 420, 110], (-5.0, 5.0))] {
            let p = Pentanomial(counts: counts)
            let n = Double(p.blocks)
            let values = [0, 0.25, 0.5, 0.75, 1]
            let mean = zip(values, counts).reduce(0) { $0 + $1.0 * Double($1.1) } / n
            let variance = zip(values, counts).reduce(0) { $0 + Double($1.1) * ($1.0 - mean) * ($1.0 - mean) } / n
            let nt = (mean - 0.5) / (2 * variance).squareRoot()
            let (nt0, nt1) = (bounds.0 / (800 / log(10.0)), bounds.1 / (800 / log(10.0)))
            let approximation = n * log((1 + (nt - nt0) * (nt - nt0)) / (1 + (nt - nt1) * (nt - nt1)))
            let llr = p.llr(SPRTSettings(elo0: bounds.0, elo1: bounds.1))
            #expect(abs(llr - approximation) < 0.03 * max(1, abs(approximation)), "\(counts): \(llr) against \(approximation)")
        }
    }

    @Test("The t-value MLE is a distribution with the hypothesis' t-value")
    func tValueMLE() throws {
        let values = Pentanomial.values
        for p in [[0.1, 0.2, 0.4, 0.2, 0.1], [0.01, 0.05, 0.6, 0.3, 0.04]] {
            for t in [-0.2, 0, 0.0814, 0.5] {
                let q = try #require(SPRT.mleTValue(values: values, p: p, reference: 0.5, t: t))
                let mu = zip(values, q).reduce(0) { $0 + $1.0 * $1.1 }
                let sigma = zip(values, q).reduce(0) { $0 + $1.1 * ($1.0 - mu) * ($1.0 - mu) }.squareRoot()
                #expect(abs(q.reduce(0, +) - 1) < 1e-9, "total mass")
                #expect(q.allSatisfy { $0 > 0 })
                #expect(abs((mu - 0.5) / sigma - t) < 1e-8, "t-value \(t) for \(p)")
            }
        }
    }

    @Test("Normalized Elo estimate: (μ - 1/2) / √(2 var) · 800/ln 10, ± 1.96 · (800/ln 10) / √(2N)")
    func normalizedEstimate() {
        // [5, 40, 300, 60, 8], N = 413: μ = (10 + 150 + 45 + 8) / 413 = 213/413 = 0.5157385,
        // var = 0.02275472 (Σ c (a - μ)² / N), σ_pg = √0.04550944 = 0.2133295,
        // nElo = 0.0157385 / 0.2133295 · 347.43559 = 25.6323; half = 1.959964 · 347.43559 / √826
        // = 23.6937 -> [1.9386, 49.3259].
        let e = Pentanomial(counts: [5, 40, 300, 60, 8]).normalizedElo
        #expect(abs(e.estimate - 25.6323) < 1e-3)
        #expect(abs(e.low - 1.9386) < 1e-3)
        #expect(abs(e.high - 49.3259) < 1e-3)
    }

    /// The probability of a game's win that gives games of draw rate `draw` the normalized
    /// Elo `nelo` (t-value per game (s - 1/2) / σ = nelo / (800/ln 10), σ² = w + d/4 - s²),
    /// by bisection on the score s.
    static func score(nelo: Double, draw: Double) -> Double {
        let target = nelo / (800 / log(10.0))
        var (a, b) = (0.5, 1 - draw / 2)
        for _ in 0..<100 {
            let s = (a + b) / 2
            let t = (s - 0.5) / ((s - draw / 2) + draw / 4 - s * s).squareRoot()
            if t < target { a = s } else { b = s }
        }
        return (a + b) / 2
    }

    @Test("Simulated tests of a known normalized Elo difference: false positives near alpha, false negatives near beta")
    func simulatedErrorRatesNormalized() {
        // [0, 60] keeps each test to about a hundred pairs; games are independent within a
        // pair, so a pair's t-value is √2 times a game's, as the model assumes.
        let settings = SPRTSettings(elo0: 0, elo1: 60, alpha: 0.05, beta: 0.05, model: .normalized)
        let draw = 0.2
        let s1 = Self.score(nelo: 60, draw: draw)
        let elo1 = SPRT.elo(score: s1)
        var rng = LabRandom(seed: 20261123)
        let runs = 300
        var falsePositives = 0, falseNegatives = 0, undecided = 0
        for _ in 0..<runs {
            switch Self.simulate(elo: 0, draw: draw, settings: settings, maxBlocks: 20_000, rng: &rng) {
            case .h1: falsePositives += 1
            case .undecided: undecided += 1
            case .h0: break
            }
            switch Self.simulate(elo: elo1, draw: draw, settings: settings, maxBlocks: 20_000, rng: &rng) {
            case .h0: falseNegatives += 1
            case .undecided: undecided += 1
            case .h1: break
            }
        }
        print("simulated SPRT normalized [0, 60] at 0.05/0.05, \(runs) runs each: \(falsePositives) false positives, \(falseNegatives) false negatives")
        // As for the logistic test: 15 ± 3.8 expected, 27 is over three standard errors.
        #expect(falsePositives <= 27, "false positives \(falsePositives) of \(runs)")
        #expect(falseNegatives <= 27, "false negatives \(falseNegatives) of \(runs)")
        #expect(falsePositives >= 1 && falseNegatives >= 1, "some errors must happen at 5 %: \(falsePositives), \(falseNegatives)")
        #expect(undecided == 0)
    }
}
