import Foundation
import LabCore

/// The N-Tuple Bandit Evolutionary Algorithm over discrete grids, after TAG's NTBEA.
///
/// Each iteration measures the current point once and adds the score to an
/// ``NTupleModel`` (statistics per value of each parameter and per whole point). Then
/// `neighbours` mutations of the current point are proposed, and the one with the highest
/// UCB, `mean + k * exploration`, becomes the next current point. At the end, the
/// `finalists` measured points with the highest model means (over their 1-tuples and
/// their full tuples) are each measured again `finalMeasurements` times, and the one
/// whose new measurements score best is the answer: the model's best estimate is
/// optimistic for whichever point noise favoured (the winner's curse), and fresh
/// measurements are not. With one finalist the model's best is the answer.
///
/// The tuner **maximizes** the objective of a measurement; a `target=P` objective is
/// `-abs(s - P)` of a measured share `s`.
/// Every draw comes from a ``LabRandom`` seeded from the seed: the same seed and scores
/// give the same trajectory.
public struct NTBEA: Sendable {
    public struct Settings: Sendable, Equatable {
        /// Iterations, one measurement each. Default 200.
        public var iterations: Int
        /// Mutated candidates proposed around the current point per iteration. Default 50.
        public var neighbours: Int
        /// Parameters changed by one mutation (each to a different grid value, uniformly;
        /// capped at the parameter count). Default 1.
        public var mutations: Int
        /// The UCB exploration weight `k`, in score units. Default 0.1 (scores in 0...1).
        public var k: Double
        /// Added to each visit count in the exploration term. Default 0.1 (TAG's).
        public var epsilon: Double
        /// Measurements of each finalist after the search. Default 0.
        public var finalMeasurements: Int
        /// The points with the highest model means measured again after the search.
        /// Default 1 (the model's best).
        public var finalists: Int

        public init(iterations: Int = 200, neighbours: Int = 50, mutations: Int = 1, k: Double = 0.1, epsilon: Double = 0.1,
                    finalMeasurements: Int = 0, finalists: Int = 1) {
            self.finalists = finalists
            self.iterations = iterations
            self.neighbours = neighbours
            self.mutations = mutations
            self.k = k
            self.epsilon = epsilon
            self.finalMeasurements = finalMeasurements
        }

        func validate() throws(InputError) {
            guard iterations >= 1 else { throw InputError("NTBEA iterations must be at least 1, found \(iterations)") }
            guard neighbours >= 1 else { throw InputError("NTBEA neighbours must be at least 1, found \(neighbours)") }
            guard mutations >= 1 else { throw InputError("NTBEA mutations must be at least 1, found \(mutations)") }
            guard k.isFinite, k >= 0 else { throw InputError("NTBEA k must be a number >= 0, found \(k)") }
            guard epsilon.isFinite, epsilon > 0 else { throw InputError("NTBEA epsilon must be a positive number, found \(epsilon)") }
            guard finalMeasurements >= 0 else { throw InputError("NTBEA final measurements must be >= 0, found \(finalMeasurements)") }
            guard finalists >= 1 else { throw InputError("NTBEA finalists must be at least 1, found \(finalists)") }
        }
    }

    /// One iteration: the point measured and its score.
    public struct Step: Sendable, Equatable {
        /// 1 for the first iteration.
        public var iteration: Int
        /// Grid indices, one per parameter.
        public var indices: [Int]
        public var point: [Double]
        public var score: Double
    }

    public struct Result: Sendable, Equatable {
        public var steps: [Step]
        /// The answer: the finalist whose final measurements score best; with one
        /// finalist (or no final measurements), the point with the highest model mean.
        public var bestIndices: [Int]
        public var best: [Double]
        /// The model's mean at ``best`` (over its 1-tuples and its full tuple).
        public var estimate: Double
        /// The final measurements of ``best``.
        public var finalScores: [Double]
        /// One `tuning.csv` record per step: the point measured, one measurement per
        /// iteration, its score.
        public var records: [TuningRecord]
        /// The finalists (grid indices, by model mean, best first) and the objective of
        /// each one's mean final measurement (NaN without any).
        public var finalists: [(indices: [Int], score: Double)] = []

        public static func == (l: Result, r: Result) -> Bool {
            l.steps == r.steps && l.bestIndices == r.bestIndices && l.best == r.best && l.estimate.bitPattern == r.estimate.bitPattern
                && l.finalScores == r.finalScores && l.records == r.records
                && l.finalists.map(\.indices) == r.finalists.map(\.indices)
                && l.finalists.map(\.score.bitPattern) == r.finalists.map(\.score.bitPattern)
        }
    }

    public let parameters: [TuningParameter]
    /// Each parameter's grid.
    public let grids: [[Double]]
    /// The first point's grid indices; `nil` draws it from the seed.
    public let start: [Int]?
    public let settings: Settings
    public let seed: UInt64

    /// - Parameter start: the first point; each value is taken to its nearest grid value.
    ///   `nil` draws one uniformly from the seed.
    /// - Throws: ``InputError`` for no or repeated parameters, a parameter without a
    ///   step, a start point that does not fit, or settings out of range.
    public init(parameters: [TuningParameter], start: [Double]? = nil, settings: Settings = Settings(), seed: UInt64) throws(InputError) {
        try parameters.validate()
        try settings.validate()
        var grids: [[Double]] = []
        for p in parameters {
            guard let grid = p.grid else {
                throw InputError("NTBEA needs a grid: give tuning parameter \(p.name) a step (or make it an integer)")
            }
            grids.append(grid)
        }
        if let start {
            try parameters.validate(point: start, field: "start")
            self.start = zip(grids, start).map { grid, v in
                grid.indices.min { abs(grid[$0] - v) < abs(grid[$1] - v) }!
            }
        } else {
            self.start = nil
        }
        self.parameters = parameters
        self.grids = grids
        self.settings = settings
        self.seed = seed
    }

    /// The values at grid indices `x`.
    public func point(_ x: [Int]) -> [Double] { zip(grids, x).map { $0[$1] } }

    /// Runs the search.
    ///
    /// Draws come from one `LabRandom(seed: Seeds.derive(seed, 0, auxiliary))`: the start
    /// (when none is given), then per iteration each neighbour's mutated parameters and
    /// values. Among neighbours of equal UCB the first proposed wins. A score that is
    /// not finite is recorded but not added to the model.
    /// - Parameters:
    ///   - objective: what the search maximizes of a measurement (the model is fed
    ///     `objective(measure(x))`); the finalists are compared by the objective of their
    ///     mean measurement, which for a target (`-|s - P|`) is not the mean objective:
    ///     that would favour the points whose measurements vary least, not the nearest.
    ///     Default: the measurement itself.
    ///   - measure: measures one point (noisy); in the lab, the score share of a
    ///     seat-rotated block set of matches.
    /// - Throws: what `measure` throws, at once.
    /// - Complexity: O(iterations × neighbours × parameters) besides the measurements.
    public func run<E: Error>(objective: (Double) -> Double = { $0 }, measure: (_ point: [Double]) throws(E) -> Double) throws(E) -> Result {
        var random = LabRandom(seed: Seeds.derive(seed, 0, SeedPurpose.auxiliary.rawValue))
        let sizes = grids.map(\.count)
        var model = NTupleModel(sizes: sizes)
        var x = start ?? sizes.map { random.uniform($0) }
        var steps: [Step] = []
        steps.reserveCapacity(settings.iterations)
        let mutations = min(settings.mutations, sizes.count)
        var order = Array(sizes.indices)
        for iteration in 1...settings.iterations {
            let values = point(x)
            let score = objective(try measure(values))
            if score.isFinite { model.add(x, score: score) }
            steps.append(Step(iteration: iteration, indices: x, point: values, score: score))
            guard iteration < settings.iterations else { break }
            var next = x, bestUCB = -Double.infinity
            for _ in 0..<settings.neighbours {
                var candidate = x
                // A partial Fisher-Yates shuffle picks `mutations` distinct parameters.
                for m in 0..<mutations {
                    let j = m + random.uniform(order.count - m)
                    order.swapAt(m, j)
                    let d = order[m]
                    let shift = 1 + random.uniform(sizes[d] - 1)
                    candidate[d] = (candidate[d] + shift) % sizes[d]
                }
                let ucb = (model.mean(candidate) ?? 0) + settings.k * model.exploration(candidate, epsilon: settings.epsilon)
                if ucb > bestUCB {
                    bestUCB = ucb
                    next = candidate
                }
            }
            x = next
        }
        // The finalists: the sampled points by model mean, best first (the first sampled
        // first among equals).
        typealias Ranked = (k: Int, x: [Int], mean: Double)
        var ranked: [Ranked] = []
        for (k, x) in model.sampled.enumerated() {
            if let mean = model.mean(x) { ranked.append((k, x, mean)) }
        }
        ranked.sort { (a: Ranked, b: Ranked) -> Bool in a.mean > b.mean || (a.mean == b.mean && a.k < b.k) }
        let chosen: [Ranked] = ranked.isEmpty ? [(0, steps[0].indices, -Double.infinity)] : Array(ranked.prefix(settings.finalists))
        var finalists: [(indices: [Int], score: Double)] = []
        var measured: [[Double]] = []
        for candidate in chosen {
            var scores: [Double] = []
            for _ in 0..<settings.finalMeasurements { scores.append(try measure(point(candidate.x))) }
            let finite = scores.filter(\.isFinite)
            finalists.append((candidate.x, finite.isEmpty ? .nan : objective(finite.reduce(0, +) / Double(finite.count))))
            measured.append(scores)
        }
        // The finalist that scores best (the first among equals); the model's best when
        // none has a score.
        var pick = 0
        for k in finalists.indices where finalists[k].score > finalists[pick].score || finalists[pick].score.isNaN && !finalists[k].score.isNaN {
            pick = k
        }
        let bestIndices = finalists[pick].indices, finalScores = measured[pick]
        let best = point(bestIndices)
        let records = steps.map { TuningRecord(iteration: $0.iteration, point: $0.point, measurements: $0.iteration, score: $0.score) }
        return Result(steps: steps, bestIndices: bestIndices, best: best, estimate: model.mean(bestIndices) ?? .nan,
                      finalScores: finalScores, records: records, finalists: finalists)
    }
}
