import Testing
import LabCore
@testable import Evaluators

/// `Training.lossAndGradient` (forward and backward on sgemm, in Float) against the
/// Double reference loss and its central finite differences.
@Suite("Loss and gradient")
struct GradientTests {
    /// Rows and targets for `shape`: inputs in -1..<1, targets soft and hard.
    static func batch(_ shape: MLPShape, rows: Int, seed: UInt64) -> (inputs: [Float], targets: [Float]) {
        var rng = LabRandom(seed: seed)
        let inputs = Reference.uniform(rows * shape.inputs, scale: 1, rng: &rng)
        let choices: [Float] = [0, 1, 0.5, 0.25, 0.9]
        return (inputs, (0..<rows).map { choices[$0 % choices.count] })
    }

    static func lossAndGradient(_ model: MLP, _ inputs: [Float], _ targets: [Float], scratch: Training.Scratch) -> (Double, [Float]) {
        // NaN everywhere first: every entry must be written, none accumulated into.
        var gradient = [Float](repeating: .nan, count: model.parameters.count)
        let loss = inputs.withUnsafeBufferPointer { x in
            targets.withUnsafeBufferPointer { t in
                Training.lossAndGradient(model, inputs: x.baseAddress!, targets: t.baseAddress!, batch: targets.count,
                                         gradient: &gradient, scratch: scratch)
            }
        }
        return (loss, gradient)
    }

    static let shapes = [
        MLPShape(inputs: 5, hidden: [4, 3]),
        MLPShape(inputs: 5, hidden: [6]),
        MLPShape(inputs: 5, hidden: []),
    ]

    @Test("Gradient of every parameter equals central finite differences of the reference loss", arguments: shapes)
    func gradientMatchesFiniteDifferences(shape: MLPShape) throws {
        let model = Reference.randomNetwork(shape, seed: 31)
        let (inputs, targets) = Self.batch(shape, rows: 7, seed: 32)
        let parameters = model.parameters.map(Double.init)

        // Central differences need every ReLU away from its kink; the mask is exercised
        // only if some hidden units are off for some rows.
        let hidden = (0..<targets.count).flatMap { r in
            Reference.preActivations(shape, parameters: parameters, row: inputs[(r * shape.inputs)..<((r + 1) * shape.inputs)]).dropLast().flatMap { $0 }
        }
        try #require(hidden.allSatisfy { abs($0) > 1e-4 })
        if !shape.hidden.isEmpty { try #require(hidden.contains { $0 < 0 } && hidden.contains { $0 > 0 }) }

        let (loss, gradient) = Self.lossAndGradient(model, inputs, targets, scratch: Training.Scratch())
        let expectedLoss = Reference.loss(shape, parameters: parameters, inputs: inputs, targets: targets)
        #expect(abs(loss - expectedLoss) <= 1e-5, "loss \(loss), reference \(expectedLoss)")

        let h = 1e-6
        var largest = 0.0
        for k in parameters.indices {
            var up = parameters, down = parameters
            up[k] += h
            down[k] -= h
            let numeric = (Reference.loss(shape, parameters: up, inputs: inputs, targets: targets)
                - Reference.loss(shape, parameters: down, inputs: inputs, targets: targets)) / (2 * h)
            largest = max(largest, abs(numeric))
            #expect(abs(Double(gradient[k]) - numeric) <= 1e-5 + 1e-3 * abs(numeric),
                    "parameter \(k): gradient \(gradient[k]), finite differences \(numeric)")
        }
        #expect(largest > 1e-2, "the gradient is too flat to check anything")
    }

    @Test("Loss and gradient of a batch are the means of the per-row ones (division by B)")
    func batchIsMeanOfRows() {
        let shape = MLPShape(inputs: 5, hidden: [4, 3])
        let model = Reference.randomNetwork(shape, seed: 41)
        let rows = 9
        let (inputs, targets) = Self.batch(shape, rows: rows, seed: 42)
        // One scratch for all: sized for 9 rows, then reused for single rows.
        let scratch = Training.Scratch()
        let (loss, gradient) = Self.lossAndGradient(model, inputs, targets, scratch: scratch)
        var meanLoss = 0.0
        var meanGradient = [Double](repeating: 0, count: gradient.count)
        for r in 0..<rows {
            let (rowLoss, rowGradient) = Self.lossAndGradient(model, Array(inputs[(r * shape.inputs)..<((r + 1) * shape.inputs)]), [targets[r]], scratch: scratch)
            meanLoss += rowLoss / Double(rows)
            for k in rowGradient.indices { meanGradient[k] += Double(rowGradient[k]) / Double(rows) }
        }
        #expect(abs(loss - meanLoss) <= 1e-6, "batch loss \(loss), mean of rows \(meanLoss)")
        for k in gradient.indices {
            #expect(abs(Double(gradient[k]) - meanGradient[k]) <= 1e-6, "parameter \(k): batch \(gradient[k]), mean of rows \(meanGradient[k])")
        }
    }

    @Test("One scratch serves a larger batch, then another shape")
    func scratchFollowsShapeAndBatch() {
        let scratch = Training.Scratch()
        for (shape, rows, seed) in [(MLPShape(inputs: 5, hidden: [3]), 4, UInt64(51)),
                                    (MLPShape(inputs: 5, hidden: [3]), 12, 52),
                                    (MLPShape(inputs: 5, hidden: [9, 7]), 2, 53)] {
            let model = Reference.randomNetwork(shape, seed: seed)
            let (inputs, targets) = Self.batch(shape, rows: rows, seed: seed + 100)
            let (shared, sharedGradient) = Self.lossAndGradient(model, inputs, targets, scratch: scratch)
            let (fresh, freshGradient) = Self.lossAndGradient(model, inputs, targets, scratch: Training.Scratch())
            #expect(shared == fresh && sharedGradient == freshGradient, "shape \(shape), \(rows) rows")
        }
    }
}
