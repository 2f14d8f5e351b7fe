import Foundation
import LabCore
import Testing
@testable import Tournament

/// The tuning core behind `oplab tune` (SPSA and NTBEA) on synthetic noisy objectives with a
/// known optimum: no game, no command line, no clock.
@Suite("Tuning")
struct TuningTests {
    /// A bowl over normalized coordinates: 0.5 at `optimum`, falling by 0.3 per squared
    /// unit of range, plus Gaussian noise of standard deviation `noise`.
    struct Bowl {
        var parameters: [TuningParameter]
        var optimum: [Double]
        var noise: Double
        var random: LabRandom
        /// The score lost per squared unit of range away from the optimum.
        var curvature = 0.3

        func mean(_ x: [Double]) -> Double {
            var d2 = 0.0
            for (p, (v, o)) in zip(parameters, zip(x, optimum)) {
                let d = (v - o) / p.width
                d2 += d * d
            }
            return 0.5 - curvature * d2
        }

        /// Box-Muller from the seeded generator.
        mutating func gaussian() -> Double {
            let u1 = 1 - random.unit(), u2 = random.unit()
            return (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
        }

        mutating func measure(_ x: [Double]) -> Double { mean(x) + noise * gaussian() }
    }

    static func parameters() throws -> [TuningParameter] {
        [try TuningParameter(name: "explore", low: 0, high: 2, step: 0.1),
         try TuningParameter(name: "bias", low: -5, high: 5, step: 0.5),
         try TuningParameter(name: "depth", low: 1, high: 20, integer: true)]
    }

    /// NTBEA's grids: 11 × 11 × 20 = 2420 points.
    static func gridParameters() throws -> [TuningParameter] {
        [try TuningParameter(name: "explore", low: 0, high: 2, step: 0.2),
         try TuningParameter(name: "bias", low: -5, high: 5, step: 1),
         try TuningParameter(name: "depth", low: 1, high: 20, integer: true)]
    }

    /// The optimum lies on both grids: explore 1.4, bias -2, depth 12.
    static let optimum = [1.4, -2.0, 12.0]

    static func bowl(_ parameters: [TuningParameter], noise: Double = 0.02, curvature: Double = 0.3, seed: UInt64) -> Bowl {
        Bowl(parameters: parameters, optimum: optimum, noise: noise, random: LabRandom(seed: seed), curvature: curvature)
    }

    /// The largest distance from the optimum over parameters, in fractions of each range.
    static func error(_ x: [Double], _ parameters: [TuningParameter]) -> Double {
        zip(parameters, zip(x, optimum)).map { p, vo in abs(vo.0 - vo.1) / p.width }.max()!
    }

    static func runSPSA(seed: UInt64, noise: Double = 0.02, iterations: Int = 200) throws -> SPSA.Result {
        var bowl = Self.bowl(try Self.parameters(), noise: noise, seed: seed &+ 100)
        let spsa = try SPSA(parameters: try Self.parameters(), start: [0.2, 4, 3], settings: SPSA.Settings(iterations: iterations), seed: seed)
        return spsa.run { plus, minus, _ in (bowl.measure(plus), bowl.measure(minus)) }
    }

    static func runNTBEA(seed: UInt64, noise: Double = 0.02, iterations: Int = 200) throws -> NTBEA.Result {
        var bowl = Self.bowl(try Self.gridParameters(), noise: noise, curvature: 1, seed: seed &+ 100)
        let ntbea = try NTBEA(parameters: try Self.gridParameters(), settings: NTBEA.Settings(iterations: iterations), seed: seed)
        return ntbea.run { bowl.measure($0) }
    }

    // MARK: SPSA

    @Test("SPSA climbs a noisy bowl (noise 0.02, 0.3 lost per squared range) from a far corner to within 6 % of each range of the optimum in 200 iterations",
          arguments: [UInt64(1), 2, 3, 4, 5])
    func spsaConverges(seed: UInt64) throws {
        let result = try Self.runSPSA(seed: seed)
        let parameters = try Self.parameters()
        let startError = Self.error([0.2, 4, 3], parameters)
        let error = Self.error(result.theta, parameters)
        #expect(startError > 0.5)
        #expect(error < 0.06, "theta \(result.theta), error \(error)")
        #expect(result.steps.count == 200 && result.records.last?.measurements == 400)
    }

    @Test("SPSA's gains follow fishtest's schedule: a_k = a / (A + k + 1)^alpha, c_k = c / (k + 1)^gamma, A = 10 % of the iterations")
    func spsaGains() throws {
        let spsa = try SPSA(parameters: try Self.parameters(), start: [1, 0, 10],
                            settings: SPSA.Settings(iterations: 300, a: 2, c: 0.2), seed: 1)
        #expect(spsa.settings.bigA == 30)
        #expect(spsa.settings.alpha == 0.602 && spsa.settings.gamma == 0.101)
        let g = spsa.gains(9)
        #expect(abs(g.a - 2 / pow(40, 0.602)) < 1e-12)
        #expect(abs(g.c - 0.2 / pow(10, 0.101)) < 1e-12)
        // The run records the same gains.
        let run = spsa.run { _, _, _ in (0.5, 0.5) }
        #expect(run.steps[9].a == g.a && run.steps[9].c == g.c)
    }

    @Test("SPSA probes theta ± c_k · width · flip and steps by a_k (s+ - s-) / (2 c_k) · flip · width")
    func spsaUpdate() throws {
        let p = try TuningParameter(name: "x", low: 0, high: 10)
        let spsa = try SPSA(parameters: [p], start: [5], settings: SPSA.Settings(iterations: 1, a: 0.5, c: 0.1, stability: 0), seed: 3)
        let run = spsa.run { plus, minus, iteration in
            #expect(iteration == 1)
            return (plus[0] / 10, minus[0] / 10)
        }
        let step = run.steps[0]
        #expect(abs(step.plus[0] - (5 + step.flip[0])) < 1e-12 && abs(step.minus[0] - (5 - step.flip[0])) < 1e-12)
        // s+ - s- = 0.2 flip; step = 0.5 · 0.2 flip / 0.2 · flip · 10 = 5 (flip² = 1).
        #expect(abs(run.theta[0] - 10) < 1e-12)
    }

    @Test("The same seed gives the same SPSA trajectory; another seed another")
    func spsaDeterministic() throws {
        let a = try Self.runSPSA(seed: 7, iterations: 50), b = try Self.runSPSA(seed: 7, iterations: 50)
        #expect(a == b)
        let c = try Self.runSPSA(seed: 8, iterations: 50)
        #expect(a.steps.map(\.flip) != c.steps.map(\.flip))
    }

    @Test("Integer probes are whole, inside the range, and round stochastically to the right mean")
    func stochasticRounding() throws {
        let p = try TuningParameter(name: "depth", low: 1, high: 20, integer: true)
        var random = LabRandom(seed: 9)
        var sum = 0.0
        for _ in 0..<20_000 {
            let v = p.probe(3.3, random: &random)
            #expect(v == 3 || v == 4)
            sum += v
        }
        #expect(abs(sum / 20_000 - 3.3) < 0.02, "mean \(sum / 20_000)")
        for x in [-4.0, 0.6, 19.7, 20, 33.2] {
            let v = p.probe(x, random: &random)
            #expect(v >= 1 && v <= 20 && v.rounded() == v, "\(x) -> \(v)")
        }
        // A run whose perturbations reach past both ends still only measures whole values in range.
        let spsa = try SPSA(parameters: [p], start: [1], settings: SPSA.Settings(iterations: 100, a: 5, c: 0.5), seed: 4)
        var probes: [Double] = []
        let run = spsa.run { plus, minus, _ in
            probes += plus + minus
            return (plus[0] / 20, minus[0] / 20)
        }
        #expect(probes.allSatisfy { $0 >= 1 && $0 <= 20 && $0.rounded() == $0 })
        #expect(Set(probes).count > 2)
        #expect(run.final[0] == 20 && run.final[0].rounded() == run.final[0])
    }

    @Test("SPSA clamps theta and its probes to each range, however large the step")
    func spsaClamps() throws {
        let ps = [try TuningParameter(name: "x", low: 0, high: 1), try TuningParameter(name: "y", low: -1, high: 1)]
        // The score rises with x and falls with y, equally per fraction of range: every
        // step moves x up and y down (or neither), far past the ends.
        let spsa = try SPSA(parameters: ps, start: [0.5, 0.5], settings: SPSA.Settings(iterations: 40, a: 50), seed: 2)
        let run = spsa.run { plus, minus, _ in (plus[0] - plus[1] / 2, minus[0] - minus[1] / 2) }
        for step in run.steps {
            for (i, p) in ps.enumerated() {
                #expect(step.theta[i] >= p.low && step.theta[i] <= p.high)
                #expect(step.plus[i] >= p.low && step.plus[i] <= p.high && step.minus[i] >= p.low && step.minus[i] <= p.high)
            }
        }
        #expect(run.theta == [1, -1])
    }

    @Test("An iteration with a score that is not finite leaves theta where it was")
    func spsaSkipsNaN() throws {
        let p = try TuningParameter(name: "x", low: 0, high: 1)
        let spsa = try SPSA(parameters: [p], start: [0.5], settings: SPSA.Settings(iterations: 3, a: 0.01), seed: 1)
        let run = spsa.run { plus, minus, i in i == 2 ? (.nan, 0) : (plus[0], minus[0]) }
        #expect(run.steps[0].theta != [0.5])
        #expect(run.steps[1].theta == run.steps[0].theta)
        #expect(run.steps[2].theta != run.steps[1].theta)
    }

    // MARK: NTBEA

    @Test("NTBEA finds the optimum grid point, within one step per parameter, of an 11 × 11 × 20 noisy bowl (noise 0.02, 1 lost per squared range) in 200 measurements",
          arguments: [UInt64(1), 2, 3, 4, 5])
    func ntbeaFindsOptimum(seed: UInt64) throws {
        let result = try Self.runNTBEA(seed: seed)
        let parameters = try Self.gridParameters()
        for (p, (v, o)) in zip(parameters, zip(result.best, Self.optimum)) {
            #expect(abs(v - o) <= p.step! + 1e-9, "\(p.name): \(v) vs \(o); best \(result.best)")
        }
        #expect(result.steps.count == 200)
    }

    @Test("The same seed gives the same NTBEA trajectory; another seed another")
    func ntbeaDeterministic() throws {
        let a = try Self.runNTBEA(seed: 7, iterations: 60), b = try Self.runNTBEA(seed: 7, iterations: 60)
        #expect(a == b)
        let c = try Self.runNTBEA(seed: 8, iterations: 60)
        #expect(a.steps.map(\.indices) != c.steps.map(\.indices))
    }

    @Test("NTBEA's best point is the sampled point with the highest mean over its 1-tuples and its full tuple")
    func ntbeaModelMean() throws {
        let result = try Self.runNTBEA(seed: 3, noise: 0.05, iterations: 80)
        func mean(_ x: [Int]) -> Double {
            var means: [Double] = []
            for d in x.indices {
                let scores = result.steps.filter { $0.indices[d] == x[d] }.map(\.score)
                means.append(scores.reduce(0, +) / Double(scores.count))
            }
            let own = result.steps.filter { $0.indices == x }.map(\.score)
            means.append(own.reduce(0, +) / Double(own.count))
            return means.reduce(0, +) / Double(means.count)
        }
        let sampled = Set(result.steps.map(\.indices))
        let top = sampled.map(mean).max()!
        #expect(abs(result.estimate - mean(result.bestIndices)) < 1e-12)
        #expect(abs(result.estimate - top) < 1e-12)
        #expect(sampled.count > 20, "the search moves: \(sampled.count) points")
    }

    @Test("NTBEA neighbours differ from the current point in exactly `mutations` parameters; the chosen point is measured finalMeasurements times")
    func ntbeaMutationsAndFinals() throws {
        let ntbea = try NTBEA(parameters: try Self.parameters(), start: [1.04, 0, 7.4],
                              settings: NTBEA.Settings(iterations: 30, neighbours: 5, mutations: 2, finalMeasurements: 3), seed: 5)
        #expect(ntbea.start == [10, 10, 6])
        var measured: [[Double]] = []
        let result = ntbea.run { x in
            measured.append(x)
            return 0
        }
        #expect(result.steps[0].point == [1, 0, 7])
        for (a, b) in zip(result.steps, result.steps.dropFirst()) {
            #expect(zip(a.indices, b.indices).filter { $0 != $1 }.count == 2)
        }
        #expect(measured.count == 33 && measured.suffix(3).allSatisfy { $0 == result.best })
        #expect(result.finalScores == [0, 0, 0])
    }

    @Test("NTBEA's final stage measures each of the finalists (the top model means) again and answers the one that scores best there")
    func ntbeaFinalists() throws {
        // During the search every point scores its bowl value; in the final stage the
        // bowl is turned upside down, so the answer must be the finalist lowest in the bowl,
        // whatever the model thought of it.
        let bowl = Self.bowl(try Self.gridParameters(), noise: 0, curvature: 1, seed: 1)
        let ntbea = try NTBEA(parameters: try Self.gridParameters(),
                              settings: NTBEA.Settings(iterations: 40, finalMeasurements: 2, finalists: 3), seed: 8)
        var calls = 0
        var finals: [[Double]] = []
        let result = ntbea.run { x in
            calls += 1
            guard calls > 40 else { return bowl.mean(x) }
            finals.append(x)
            return -bowl.mean(x)
        }
        #expect(finals.count == 6)
        #expect(result.finalists.count == 3)
        let ranked = result.finalists.map { ntbea.point($0.indices) }
        #expect(finals == [ranked[0], ranked[0], ranked[1], ranked[1], ranked[2], ranked[2]], "each finalist twice, best model mean first")
        let lowest = ranked.min { bowl.mean($0) < bowl.mean($1) }!
        #expect(result.best == lowest, "the finalist that scores best in the final stage")
        #expect(result.best != ranked[0], "not the model's best")
        #expect(result.finalists.map(\.score) == ranked.map { -bowl.mean($0) })
        // One finalist: the model's best is the answer, whatever its final scores.
        let single = try NTBEA(parameters: try Self.gridParameters(),
                               settings: NTBEA.Settings(iterations: 40, finalMeasurements: 2, finalists: 1), seed: 8)
        calls = 0
        let model = single.run { x in
            calls += 1
            return calls > 40 ? -bowl.mean(x) : bowl.mean(x)
        }
        #expect(model.best == ranked[0])
    }

    // MARK: Parameters, errors, csv

    @Test("A parameter's grid runs from LOW to HIGH by its step; an integer's step is 1 unless given")
    func grids() throws {
        #expect(try TuningParameter(name: "x", low: 0, high: 1, step: 0.25).grid == [0, 0.25, 0.5, 0.75, 1])
        #expect(try TuningParameter(name: "n", low: 2, high: 5, integer: true).grid == [2, 3, 4, 5])
        #expect(try TuningParameter(name: "n", low: 0, high: 10, step: 5, integer: true).grid == [0, 5, 10])
        #expect(try TuningParameter(name: "x", low: 0, high: 1).grid == nil)
        let tenth = try TuningParameter(name: "x", low: 0, high: 0.3, step: 0.1).grid!
        #expect(tenth.count == 4 && tenth.last == 0.3)
    }

    @Test("Bad parameter specs are refused with what was wrong", arguments: [
        ("x", 1.0, 1.0, nil as Double?, false, "LOW must be below HIGH"),
        ("x", 2.0, 1.0, nil, false, "LOW must be below HIGH"),
        ("x", 0, Double.infinity, nil, false, "must be finite"),
        ("x", Double.nan, 1, nil, false, "must be finite"),
        ("x", 0, 1, 0, false, "positive finite"),
        ("x", 0, 1, -0.1, false, "positive finite"),
        ("x", 0, 1, 0.3, false, "does not divide"),
        ("x", 0, 1, 2, false, "wider than the range"),
        ("x", 0, 1, 1e-6, false, "grid points"),
        ("n", 0.5, 4, nil, true, "whole LOW and HIGH"),
        ("n", 0, 4, 1.5, true, "whole step"),
        ("", 0, 1, nil, false, "name"),
        ("a,b", 0, 1, nil, false, "name"),
    ])
    func badSpecs(name: String, low: Double, high: Double, step: Double?, integer: Bool, message: String) {
        #expect {
            _ = try TuningParameter(name: name, low: low, high: high, step: step, integer: integer)
        } throws: { error in
            (error as? InputError)?.message.contains(message) == true
        }
    }

    @Test("Tuners refuse a start point out of range, repeated names, NTBEA parameters without a step, and bad settings")
    func badRuns() throws {
        let x = try TuningParameter(name: "x", low: 0, high: 1)
        let g = try TuningParameter(name: "g", low: 0, high: 1, step: 0.5)
        func message(_ body: () throws -> Void) -> String {
            do { try body() } catch { return (error as? InputError)?.message ?? "\(error)" }
            return ""
        }
        #expect(message { _ = try SPSA(parameters: [x], start: [1.5], seed: 1) }.contains("expected a number in 0.0..1.0"))
        #expect(message { _ = try SPSA(parameters: [x], start: [0.5, 0.5], seed: 1) }.contains("expected one per parameter"))
        #expect(message { _ = try SPSA(parameters: [x, x], start: [0.5, 0.5], seed: 1) }.contains("given twice"))
        #expect(message { _ = try SPSA(parameters: [], start: [], seed: 1) }.contains("at least one parameter"))
        #expect(message { _ = try SPSA(parameters: [x], start: [0.5], settings: SPSA.Settings(c: 0), seed: 1) }.contains("SPSA c"))
        #expect(message { _ = try SPSA(parameters: [x], start: [0.5], settings: SPSA.Settings(iterations: 0), seed: 1) }.contains("iterations"))
        #expect(message { _ = try NTBEA(parameters: [g, x], seed: 1) }.contains("give tuning parameter x a step"))
        #expect(message { _ = try NTBEA(parameters: [g], settings: NTBEA.Settings(neighbours: 0), seed: 1) }.contains("neighbours"))
        #expect(message { _ = try NTBEA(parameters: [g], seed: 1) }.isEmpty)
    }

    @Test("A measurement's error stops the run at once")
    func measurementErrors() throws {
        struct Stop: Error {}
        let g = try TuningParameter(name: "g", low: 0, high: 1, step: 0.5)
        var calls = 0
        #expect(throws: Stop.self) {
            _ = try NTBEA(parameters: [g], seed: 1).run { _ throws(Stop) in
                calls += 1
                if calls == 3 { throw Stop() }
                return 0
            }
        }
        #expect(calls == 3)
    }

    @Test("tuning.csv: iteration, the parameters, matches (measurements × matches per measurement), score")
    func csv() throws {
        let ps = [try TuningParameter(name: "x", low: 0, high: 1), try TuningParameter(name: "n", low: 1, high: 9, integer: true)]
        let records = [TuningRecord(iteration: 1, point: [0.25, 3], measurements: 2, score: 0.4125),
                       TuningRecord(iteration: 2, point: [0.3333333333, 4], measurements: 4, score: 0.5)]
        #expect(TuningCSV.text(parameters: ps, records: records, matchesPerMeasurement: 100)
            == "iteration,x,n,matches,score\n1,0.25,3,200,0.4125\n2,0.333333,4,400,0.5\n")
    }
}
