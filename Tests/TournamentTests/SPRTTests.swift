import Foundation
import LabCore
import Testing
@testable import Tournament

/// The sequential test (statistics.md, "Sequential probability ratio test"). Expected
/// values come from closed forms (Wald's Bernoulli SPRT, the normal approximation) and
/// from simulation, never from the code under test.
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
        let settings = SPRTSettings(elo0: 0, elo1: 4)
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

    @Test("Simulated tests of a known Elo difference: false positives near alpha, false negatives near beta")
    func simulatedErrorRates() {
        let settings = SPRTSettings(elo0: 0, elo1: 40, alpha: 0.05, beta: 0.05)
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
}
