import LabCore

/// Runs a ``GumbelSearch`` to its end on its own model: each batch it asks for (the
/// root, then one leaf per remaining root action a round) is one evaluation.
public struct SearchDriver<State: GameState> {
    private var features: [Float] = []
    private var logits: [Float] = []
    private var values: [Float] = []

    public init() {}

    public mutating func run(_ search: GumbelSearch<State>) {
        let model = search.model
        while !search.pending.isEmpty {
            let batch = search.pending.count
            let f = model.featureCount
            if features.count < batch * f { features = [Float](repeating: 0, count: batch * f) }
            if logits.count < batch * model.actionCount { logits = [Float](repeating: 0, count: batch * model.actionCount) }
            if values.count < batch * model.seatCount { values = [Float](repeating: 0, count: batch * model.seatCount) }
            features.withUnsafeMutableBufferPointer { buffer in
                for (k, leaf) in search.pending.enumerated() {
                    model.encode(leaf.state, seat: leaf.seat, into: UnsafeMutableBufferPointer(rebasing: buffer[(k * f)..<((k + 1) * f)]))
                }
            }
            features.withUnsafeBufferPointer { x in
                logits.withUnsafeMutableBufferPointer { l in
                    values.withUnsafeMutableBufferPointer { v in
                        model.evaluate(x.baseAddress!, batch: batch, logits: l.baseAddress!, values: v.baseAddress!)
                    }
                }
            }
            search.resume(logits: logits, values: values)
        }
    }
}
