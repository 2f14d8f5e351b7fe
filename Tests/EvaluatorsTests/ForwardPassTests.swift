import Testing
import LabCore
@testable import Evaluators

/// `MLP.evaluate` (one `cblas_sgemm` per layer, then bias and activation) against the
/// plain Double loops of ``Reference``.
@Suite("MLP forward pass")
struct ForwardPassTests {
    static let shapes = [
        MLPShape(inputs: 5, hidden: []),
        MLPShape(inputs: 9, hidden: [7]),
        MLPShape(inputs: 13, hidden: [8, 6]),
        MLPShape(inputs: 214, hidden: [128, 64]),
    ]

    @Test("sgemm forward pass equals the triple-loop reference within 1e-4", arguments: shapes)
    func matchesReference(shape: MLPShape) {
        let model = Reference.randomNetwork(shape, seed: 11)
        var rng = LabRandom(seed: 12)
        // One workspace for every call: it grows, then serves a smaller batch again.
        let workspace = MLPWorkspace()
        var spread = (low: 1.0, high: 0.0)
        for batch in [1, 3, 17, 256, 3] {
            let input = Reference.uniform(batch * shape.inputs, scale: 1, rng: &rng)
            var output = [Float](repeating: .nan, count: batch)
            input.withUnsafeBufferPointer { x in
                output.withUnsafeMutableBufferPointer { y in
                    model.evaluate(x.baseAddress!, batch: batch, into: y.baseAddress!, workspace: workspace)
                }
            }
            let expected = Reference.forward(model, input, batch: batch)
            let worst = zip(output, expected).map { abs(Double($0) - $1) }.max()!
            #expect(worst <= 1e-4, "shape \(shape), batch \(batch): largest difference \(worst)")
            for value in expected { spread = (min(spread.low, value), max(spread.high, value)) }
        }
        // The comparison means something only if the outputs are not all saturated.
        #expect(spread.high - spread.low > 0.2, "outputs \(spread) barely vary")
    }

    @Test("Each row of a batch is evaluated as if alone")
    func rowsAreIndependent() {
        let shape = MLPShape(inputs: 13, hidden: [8, 6])
        let model = Reference.randomNetwork(shape, seed: 21)
        var rng = LabRandom(seed: 22)
        let batch = 17
        let input = Reference.uniform(batch * shape.inputs, scale: 1, rng: &rng)
        let workspace = MLPWorkspace()
        var together = [Float](repeating: 0, count: batch)
        var alone = [Float](repeating: 0, count: batch)
        input.withUnsafeBufferPointer { x in
            together.withUnsafeMutableBufferPointer { y in
                model.evaluate(x.baseAddress!, batch: batch, into: y.baseAddress!, workspace: workspace)
            }
            alone.withUnsafeMutableBufferPointer { y in
                for r in 0..<batch {
                    model.evaluate(x.baseAddress! + r * shape.inputs, batch: 1, into: y.baseAddress! + r, workspace: workspace)
                }
            }
        }
        for r in 0..<batch {
            #expect(abs(together[r] - alone[r]) <= 1e-6, "row \(r): \(together[r]) in the batch, \(alone[r]) alone")
        }
    }

    @Test("BareSGEMM runs only the per-layer products: no bias, no activation")
    func bareProducts() {
        let shape = MLPShape(inputs: 13, hidden: [8, 6])
        let model = Reference.randomNetwork(shape, seed: 23)
        var rng = LabRandom(seed: 24)
        let batch = 17
        let input = Reference.uniform(batch * shape.inputs, scale: 1, rng: &rng)
        var output = [Float](repeating: .nan, count: batch)
        input.withUnsafeBufferPointer { x in
            output.withUnsafeMutableBufferPointer { y in
                BareSGEMM.layers(of: model, x.baseAddress!, batch: batch, into: y.baseAddress!, workspace: MLPWorkspace())
            }
        }
        // x · W per layer in Double, the weights read from the documented layout.
        let widths = shape.widths
        for r in 0..<batch {
            var x = input[(r * 13)..<((r + 1) * 13)].map(Double.init)
            var at = 0
            for l in 0..<shape.layerCount {
                let fanIn = widths[l], fanOut = widths[l + 1]
                x = (0..<fanOut).map { j in (0..<fanIn).reduce(0.0) { $0 + x[$1] * Double(model.parameters[at + $1 * fanOut + j]) } }
                at += fanIn * fanOut + fanOut
            }
            #expect(abs(Double(output[r]) - x[0]) <= 1e-4 * max(1, abs(x[0])), "row \(r): \(output[r]), expected \(x[0])")
        }
    }

    @Test("Layer sizes: widths, parameter and multiply-add counts of 214-128-64-1")
    func shapeArithmetic() {
        let shape = MLPShape(inputs: 214, hidden: [128, 64])
        #expect(shape.widths == [214, 128, 64, 1])
        #expect(shape.layerCount == 3)
        // 214·128 + 128 + 128·64 + 64 + 64·1 + 1 = 27392 + 128 + 8192 + 64 + 64 + 1.
        #expect(shape.parameterCount == 35_841)
        // 27392 + 8192 + 64.
        #expect(shape.multiplyAdds == 35_648)
        #expect(shape.description == "214-128-64-1")
        // Logistic regression: 5 weights and 1 bias.
        #expect(MLPShape(inputs: 5, hidden: []).parameterCount == 6)
    }

    @Test("He-uniform initialisation: weights within ±√(6/fanIn), biases zero, the seed decides")
    func initialisation() {
        let shape = MLPShape(inputs: 10, hidden: [6])
        let model = MLP(shape: shape, seed: 3)
        let w0 = model.parameters[0..<60], b0 = model.parameters[60..<66]
        let w1 = model.parameters[66..<72], b1 = model.parameters[72..<73]
        #expect(w0.allSatisfy { abs($0) <= (6.0 / 10.0).squareRoot() } && Set(w0).count == 60)
        #expect(w1.allSatisfy { abs($0) <= 1.0 } && Set(w1).count == 6)
        #expect(b0.allSatisfy { $0 == 0 } && b1.allSatisfy { $0 == 0 })
        #expect(MLP(shape: shape, seed: 3) == model)
        #expect(MLP(shape: shape, seed: 4) != model)
    }
}
