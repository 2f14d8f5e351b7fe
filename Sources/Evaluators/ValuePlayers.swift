import LabCore

/// A model and an encoder with the scratch to evaluate batches of observations: rows are
/// encoded into one contiguous block, then evaluated by one ``MLP/evaluate(_:batch:into:workspace:)``
/// call. One per strategy (its scratch is not shared); the weights are.
public final class BatchEvaluator<E: FeatureEncoder> {
    public let network: MLP
    public let encoder: E
    private let workspace = MLPWorkspace()
    private var rows: [Float] = []
    private var outputs: [Float] = []
    public private(set) var count = 0

    public init(network: MLP, encoder: E) {
        precondition(network.shape.inputs == encoder.featureCount, "the model takes \(network.shape.inputs) inputs; the encoder writes \(encoder.featureCount)")
        self.network = network
        self.encoder = encoder
    }

    /// Empties the batch (capacity kept).
    public func reset() { count = 0 }

    /// Encodes `observation` as the next row; returns its index.
    @discardableResult
    public func append(_ observation: E.Observation) -> Int {
        let width = encoder.featureCount
        if rows.count < (count + 1) * width { rows.append(contentsOf: repeatElement(0, count: max(width, rows.count))) }
        rows.withUnsafeMutableBufferPointer { all in
            encoder.encode(observation, into: UnsafeMutableBufferPointer(rebasing: all[(count * width)..<((count + 1) * width)]))
        }
        count += 1
        return count - 1
    }

    /// Evaluates every row appended since ``reset()`` in one call.
    public func evaluate() {
        guard count > 0 else { return }
        if outputs.count < count { outputs = [Float](repeating: 0, count: max(count, outputs.count * 2)) }
        rows.withUnsafeBufferPointer { x in
            outputs.withUnsafeMutableBufferPointer { y in
                network.evaluate(x.baseAddress!, batch: count, into: y.baseAddress!, workspace: workspace)
            }
        }
    }

    /// The value of row `i` after ``evaluate()``.
    public func value(_ i: Int) -> Double { Double(outputs[i]) }
}

/// `blas-greedy`: one ply of look-ahead on a learned value model.
///
/// For each legal action it applies the action to `samples` states drawn consistent with
/// its observation (hidden hands, decks, bag order) and encodes its own view of each
/// successor; all the rows of all the actions are evaluated in one batched call, and the
/// action with the highest mean value is played: the expectation over what chance and
/// the hidden parts may hold. A successor that ends the match counts its real score.
/// Successor views equal to the first sample's (an action whose result does not depend
/// on hidden parts) share its row. Ties go to the earlier legal action.
public final class ValueGreedy<G: Game, E: FeatureEncoder>: Strategy where E.Observation == G.State.Observation {
    public let samples: Int
    private let seat: Int
    private var rng: LabRandom
    private let batch: BatchEvaluator<E>
    /// Per (action, sample): a row index (>= 0), or -1 - k for `terminalScores[k]`.
    private var slots: [Int] = []
    private var terminalScores: [Double] = []
    private var firstViews: [G.State.Observation?] = []

    public init(_ context: StrategyContext<G>, network: MLP, encoder: E, samples: Int) {
        precondition(samples >= 1)
        self.samples = samples
        seat = context.seat
        rng = LabRandom(seed: Seeds.derive(context.seed, 0, 0, SeedPurpose.sampling.rawValue))
        batch = BatchEvaluator(network: network, encoder: encoder)
    }

    public func chooseAction(_ observation: G.State.Observation, legal: ActionBuffer) -> Int {
        if legal.count == 1 { return legal[0] }
        let n = legal.count
        batch.reset()
        if slots.count < n * samples { slots = [Int](repeating: 0, count: n * samples) }
        terminalScores.removeAll(keepingCapacity: true)
        firstViews.removeAll(keepingCapacity: true)
        for k in 0..<samples {
            let sampled = observation.sampleState(using: &rng)
            for i in 0..<n {
                var next = sampled
                next.apply(legal[i])
                if next.isTerminal {
                    slots[i * samples + k] = -1 - terminalScores.count
                    terminalScores.append(next.searchValue(of: seat))
                    if k == 0 { firstViews.append(nil) }
                    continue
                }
                let view = next.observation(for: seat)
                if k == 0 {
                    firstViews.append(view)
                    slots[i * samples] = batch.append(view)
                } else if let first = firstViews[i], first == view {
                    slots[i * samples + k] = slots[i * samples]
                } else {
                    slots[i * samples + k] = batch.append(view)
                }
            }
        }
        batch.evaluate()
        var best = legal[0], bestValue = -Double.infinity
        for i in 0..<n {
            var total = 0.0
            for k in 0..<samples {
                let slot = slots[i * samples + k]
                total += slot >= 0 ? batch.value(slot) : terminalScores[-1 - slot]
            }
            if total > bestValue {
                bestValue = total
                best = legal[i]
            }
        }
        return best
    }
}

/// Leaf values for ``LeafEvaluator`` users (MCTS) from a learned model: every seat's
/// view of the position is encoded, and the seats are evaluated in one batched call.
public final class ModelLeafEvaluator<S: GameState, E: FeatureEncoder>: LeafEvaluator where E.Observation == S.Observation {
    private let batch: BatchEvaluator<E>

    public init(network: MLP, encoder: E) {
        batch = BatchEvaluator(network: network, encoder: encoder)
    }

    public func evaluate(_ state: S, into values: UnsafeMutableBufferPointer<Double>) {
        batch.reset()
        for s in 0..<state.seatCount { batch.append(state.observation(for: s)) }
        batch.evaluate()
        for s in 0..<state.seatCount { values[s] = batch.value(s) }
    }
}
