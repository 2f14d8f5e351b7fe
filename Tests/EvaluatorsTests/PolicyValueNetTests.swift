import LabCore
import Testing
@testable import Evaluators

@Suite("Policy-value network: forward, backward, Adam")
struct PolicyValueNetTests {
    static let shape = PolicyValueShape(inputs: 5, width: 6, blocks: 2, actions: 4, seats: 3)
    /// 5 position inputs, then 2 features for each of the 4 actions.
    static let withActionFeatures = PolicyValueShape(inputs: 5 + 4 * 2, width: 6, blocks: 2, actions: 4, seats: 3, actionFeatures: 2)
    /// The same, the action features' weights read from the trunk.
    static let contextual = withActionFeatures.withContextualActions

    /// A network of `shape` from `seed`, its action features' weights (0 as made) drawn too.
    static func network(_ shape: PolicyValueShape, seed: UInt64) -> PolicyValueNet {
        var net = PolicyValueNet(shape: shape, seed: seed)
        var rng = LabRandom(seed: seed + 100)
        for k in net.actionWeightsOffset..<shape.parameterCount { net.parameters[k] = Float(rng.unit() * 2 - 1) }
        return net
    }

    /// A batch of `rows` random positions whose legal actions are a random non-empty subset.
    static func batch(rows: Int, seed: UInt64, shape: PolicyValueShape = shape) -> PolicyValueBatch {
        var rng = LabRandom(seed: seed)
        var batch = PolicyValueBatch(shape: shape, rows: rows)
        for i in batch.inputs.indices { batch.inputs[i] = Float(rng.unit() * 2 - 1) }
        for r in 0..<rows {
            var legal = (0..<shape.actions).filter { _ in rng.unit() < 0.7 }
            if legal.isEmpty { legal = [r % shape.actions] }
            var weights = legal.map { _ in rng.unit() + 0.05 }
            let total = weights.reduce(0, +)
            weights = weights.map { $0 / total }
            for (a, w) in zip(legal, weights) {
                batch.legal[r * shape.actions + a] = 1
                batch.policy[r * shape.actions + a] = Float(w)
            }
            batch.value[r * shape.seats + Int(rng.unit() * Double(shape.seats))] = 1
        }
        return batch
    }

    @Test("the value head's rows are distributions over the seats; the shape counts its parameters")
    func forward() {
        let net = PolicyValueNet(shape: Self.shape, seed: 3)
        #expect(Self.shape.parameterCount == 5 * 6 + 6 + 4 * (6 * 6 + 6) + 6 * 4 + 4 + 6 * 3 + 3)
        let batch = Self.batch(rows: 7, seed: 1)
        var logits = [Float](repeating: 0, count: 7 * 4), values = [Float](repeating: 0, count: 7 * 3)
        net.evaluate(batch.inputs, batch: 7, logits: &logits, values: &values, workspace: PolicyValueWorkspace())
        for r in 0..<7 {
            let row = values[(r * 3)..<(r * 3 + 3)]
            #expect(abs(row.reduce(0, +) - 1) < 1e-5)
            #expect(row.allSatisfy { $0 > 0 })
        }
        // One row alone gives what it gave inside the batch (rows do not mix).
        var one = [Float](repeating: 0, count: 4), oneValue = [Float](repeating: 0, count: 3)
        net.evaluate(Array(batch.inputs[5..<10]), batch: 1, logits: &one, values: &oneValue, workspace: PolicyValueWorkspace())
        for a in 0..<4 { #expect(abs(one[a] - logits[4 + a]) < 1e-5) }
    }

    @Test("sparse input: the first layer from the non-zero features alone gives the dense product's logits and values",
          arguments: [6, 32, 40, 72, 256])
    func sparseInput(width: Int) {
        let shape = PolicyValueShape(inputs: 5 + 4 * 2, width: width, blocks: 2, actions: 4, seats: 3, actionFeatures: 2)
        let net = Self.network(shape, seed: 9)
        var batch = Self.batch(rows: 5, seed: 2, shape: shape)
        var rng = LabRandom(seed: 3)
        for i in batch.inputs.indices where rng.unit() < 0.7 { batch.inputs[i] = 0 }
        var dense = [Float](repeating: 0, count: 5 * 4), denseValues = [Float](repeating: 0, count: 5 * 3)
        var sparse = dense, sparseValues = denseValues
        net.evaluate(batch.inputs, batch: 5, logits: &dense, values: &denseValues, workspace: PolicyValueWorkspace())
        net.evaluate(batch.inputs, batch: 5, logits: &sparse, values: &sparseValues, workspace: PolicyValueWorkspace(), sparseInput: true)
        for i in dense.indices { #expect(abs(dense[i] - sparse[i]) < 1e-5) }
        for i in denseValues.indices { #expect(abs(denseValues[i] - sparseValues[i]) < 1e-6) }
        #expect(dense.contains { $0 != 0 })
    }

    @Test("a sparse batch of at most rowwiseBatch rows (row by row, sgemv) gives the whole product's logits and values, for every row count",
          arguments: Array(1...(PolicyValueNet.rowwiseBatch + 1)))
    func rowwiseSmallBatches(rows: Int) {
        let shape = PolicyValueShape(inputs: 5 + 4 * 2, width: 40, blocks: 2, actions: 4, seats: 3, actionFeatures: 2).withContextualActions
        let net = Self.network(shape, seed: 12)
        var batch = Self.batch(rows: rows, seed: 13, shape: shape)
        var rng = LabRandom(seed: 14)
        for i in batch.inputs.indices where rng.unit() < 0.6 { batch.inputs[i] = 0 }
        var dense = [Float](repeating: 0, count: rows * 4), denseValues = [Float](repeating: 0, count: rows * 3)
        var small = dense, smallValues = denseValues
        net.evaluate(batch.inputs, batch: rows, logits: &dense, values: &denseValues, workspace: PolicyValueWorkspace())
        net.evaluate(batch.inputs, batch: rows, logits: &small, values: &smallValues, workspace: PolicyValueWorkspace(), sparseInput: true)
        for i in dense.indices { #expect(abs(dense[i] - small[i]) < 1e-4 * max(1, abs(dense[i]))) }
        for i in denseValues.indices { #expect(abs(denseValues[i] - smallValues[i]) < 1e-5) }
        #expect(dense.contains { abs($0) > 1e-2 })
    }

    @Test("the sparse first layer is its definition to the bit: the bias, then x[k] · row k added for each non-zero x[k] in k order, each product rounded",
          arguments: [(1, 5), (3, 64), (4, 72), (2, 256), (9, 64), (17, 130)])
    func sparseAffineBits(batch: Int, width: Int) {
        let fanIn = 150
        var rng = LabRandom(seed: UInt64(width))
        let weights = (0..<(fanIn * width + width)).map { _ in Float(rng.unit() * 2 - 1) }
        // Mostly zeros; the last row all zeros (the bias alone).
        var x = (0..<(batch * fanIn)).map { _ in rng.unit() < 0.8 ? 0 : Float(rng.unit() * 4 - 2) }
        for k in 0..<fanIn { x[(batch - 1) * fanIn + k] = 0 }
        var y = [Float](repeating: .nan, count: batch * width)
        x.withUnsafeBufferPointer { xs in
            weights.withUnsafeBufferPointer { ws in
                y.withUnsafeMutableBufferPointer { PolicyValueNet.sparseAffine(xs.baseAddress!, batch: batch, fanIn: fanIn, weights: ws.baseAddress!, fanOut: width, into: $0.baseAddress!) }
            }
        }
        for i in 0..<batch {
            for j in 0..<width {
                var sum = weights[fanIn * width + j]
                for k in 0..<fanIn where x[i * fanIn + k] != 0 {
                    let product = x[i * fanIn + k] * weights[k * width + j]
                    sum = sum + product
                }
                #expect(y[i * width + j].bitPattern == sum.bitPattern, "row \(i), output \(j)")
            }
        }
        #expect(Array(y[((batch - 1) * width)...]) == Array(weights[(fanIn * width)...]))
    }

    @Test("action features: each action's logit gains its features · the shared weights; nothing else changes; a new network's weights are 0")
    func actionFeatures() {
        let shape = Self.withActionFeatures
        #expect(shape.parameterCount == 13 * 6 + 6 + 4 * (6 * 6 + 6) + 6 * 4 + 4 + 6 * 3 + 3 + 2)
        #expect(shape.description == "13-6x2r-4p-3v-2φ" && shape.actionFeaturesOffset == 5)
        #expect(PolicyValueNet(shape: shape, seed: 3).parameters.suffix(2) == [0, 0])
        let net = Self.network(shape, seed: 3)
        var zeroed = net
        zeroed.parameters[net.actionWeightsOffset] = 0
        zeroed.parameters[net.actionWeightsOffset + 1] = 0
        let batch = Self.batch(rows: 3, seed: 1, shape: shape)
        var logits = [Float](repeating: 0, count: 12), base = [Float](repeating: 0, count: 12)
        var values = [Float](repeating: 0, count: 9), baseValues = [Float](repeating: 0, count: 9)
        net.evaluate(batch.inputs, batch: 3, logits: &logits, values: &values, workspace: PolicyValueWorkspace())
        zeroed.evaluate(batch.inputs, batch: 3, logits: &base, values: &baseValues, workspace: PolicyValueWorkspace())
        let w = Array(net.parameters.suffix(2))
        for r in 0..<3 {
            for a in 0..<4 {
                let phi = batch.inputs[(r * 13 + 5 + a * 2)...].prefix(2)
                #expect(abs(logits[r * 4 + a] - base[r * 4 + a] - (phi.first! * w[0] + phi.last! * w[1])) < 1e-5)
            }
        }
        #expect(values == baseValues)
    }

    @Test("a model file keeps the action features (a line only when there are some); a count that does not fit the inputs is refused")
    func actionFeaturesInFiles() throws {
        for shape in [Self.shape, Self.withActionFeatures, Self.contextual] {
            let model = LearnedModel(game: "g", featureVersion: 1, layout: "l", network: Self.network(shape, seed: 4))
            let bytes = model.encoded()
            let text = String(decoding: bytes.prefix(400), as: UTF8.self)
            #expect(text.contains("action-features: 2") == (shape.actionFeatures == 2))
            #expect(text.contains("action-weights: contextual") == shape.contextualActions)
            let back = try LearnedModel.decode(bytes, file: "m")
            #expect(back.network == model.network)
        }
        let bytes = LearnedModel(game: "g", featureVersion: 1, layout: "l", network: Self.network(Self.withActionFeatures, seed: 4)).encoded()
        let edited = Array(String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "action-features: 2", with: "action-features: 9").utf8)
        #expect(throws: InputError("m: 4 actions × 9 action features exceed the 13 inputs")) { _ = try LearnedModel.decode(edited, file: "m") }
    }

    @Test("contextual action weights: a row's weights are wφ + h·Wφ (h the trunk's output), so the logits move with Wφ; Wφ at 0 plays as the plain network")
    func contextualActions() throws {
        let shape = Self.contextual
        #expect(shape.parameterCount == Self.withActionFeatures.parameterCount + 6 * 2 && shape.description == "13-6x2r-4p-3v-2φh")
        let net = Self.network(shape, seed: 5)
        let plain = PolicyValueNet(shape: Self.withActionFeatures, parameters: Array(net.parameters.prefix(Self.withActionFeatures.parameterCount)))
        var zeroed = net
        for k in net.actionContextOffset..<shape.parameterCount { zeroed.parameters[k] = 0 }
        let batch = Self.batch(rows: 3, seed: 6, shape: shape)
        func run(_ n: PolicyValueNet) -> ([Float], [Float]) {
            var logits = [Float](repeating: 0, count: 12), values = [Float](repeating: 0, count: 9)
            n.evaluate(batch.inputs, batch: 3, logits: &logits, values: &values, workspace: PolicyValueWorkspace())
            return (logits, values)
        }
        let (full, fullValues) = run(net), (base, baseValues) = run(plain), (zero, _) = run(zeroed)
        #expect(zero == base)
        #expect(fullValues == baseValues)
        // The difference is φ(a) · (h·Wφ), h the trunk's output: linear in φ, so two actions'
        // differences fix it; check it is not zero and differs between rows (it reads h).
        let delta = (0..<12).map { full[$0] - base[$0] }
        #expect(delta.contains { abs($0) > 1e-3 })
        let perRow = (0..<3).map { r in Array(delta[(r * 4)..<(r * 4 + 4)]) }
        #expect(perRow[0] != perRow[1] && perRow[1] != perRow[2])
        // A header that names another kind, or contextual weights without action features, is refused.
        let bytes = LearnedModel(game: "g", featureVersion: 1, layout: "l", network: net).encoded()
        let text = String(decoding: bytes, as: UTF8.self)
        let odd = Array(text.replacingOccurrences(of: "action-weights: contextual", with: "action-weights: shared").utf8)
        #expect(throws: InputError("m:11: action-weights: expected contextual, found 'shared'")) { _ = try LearnedModel.decode(odd, file: "m") }
        let bare = Array(text.replacingOccurrences(of: "action-features: 2\n", with: "").utf8)
        #expect(throws: InputError("m: action-weights: contextual needs action features (the header has no action-features line)")) {
            _ = try LearnedModel.decode(bare, file: "m")
        }
    }

    @Test("the gradient matches finite differences of the loss, parameter by parameter (away from relu kinks)",
          arguments: [PolicyValueNetTests.shape, PolicyValueNetTests.withActionFeatures, PolicyValueNetTests.contextual])
    func gradientCheck(shape: PolicyValueShape) {
        let net = Self.network(shape, seed: 11)
        let batch = Self.batch(rows: 5, seed: 2, shape: shape)
        let trainer = PolicyValueTrainer(network: net, valueWeight: 0.7)
        _ = trainer.lossAndGradient(batch)
        let gradient = trainer.lastGradient
        func total(_ parameters: [Float]) -> Double {
            let loss = PolicyValueTrainer(network: PolicyValueNet(shape: shape, parameters: parameters), valueWeight: 0.7).loss(on: batch)
            return loss.policy + 0.7 * loss.value
        }
        let base = total(net.parameters)
        var checked = 0, worst = 0.0
        for i in 0..<net.parameters.count {
            var plus = net.parameters, minus = net.parameters
            let h: Float = 1e-3
            plus[i] += h
            minus[i] -= h
            let right = (total(plus) - base) / Double(h), left = (base - total(minus)) / Double(h)
            // A relu that changes side within ±h makes the one-sided slopes differ: no
            // derivative to compare there.
            guard abs(right - left) < 0.05 * max(abs(right), abs(left)) + 1e-4 else { continue }
            checked += 1
            let numeric = (right + left) / 2
            let e = abs(numeric - Double(gradient[i])) / max(1e-3, abs(numeric) + abs(Double(gradient[i])))
            worst = max(worst, e)
        }
        #expect(checked > net.parameters.count * 8 / 10, "only \(checked) of \(net.parameters.count) away from a kink")
        #expect(worst < 0.05, "worst relative error \(worst)")
    }

    @Test("Adam fits a fixed batch: both losses fall, the policy toward its targets")
    func fits() {
        let batch = Self.batch(rows: 16, seed: 4)
        let trainer = PolicyValueTrainer(network: PolicyValueNet(shape: Self.shape, seed: 5), learningRate: 1e-2, weightDecay: 0)
        let before = trainer.loss(on: batch)
        for _ in 0..<300 { trainer.step(on: batch) }
        let after = trainer.loss(on: batch)
        #expect(after.policy < before.policy - 0.1)
        #expect(after.value < before.value * 0.5)
    }

    @Test("training is deterministic: the same batches give the same bytes")
    func deterministic() {
        func train() -> [Float] {
            let trainer = PolicyValueTrainer(network: PolicyValueNet(shape: Self.shape, seed: 9))
            for k in 0..<5 { trainer.step(on: Self.batch(rows: 8, seed: UInt64(k))) }
            return trainer.network.parameters
        }
        #expect(train() == train())
    }
}

@Suite("The OpenBLAS kernel")
struct BLASKernelTests {
    @Test("a generic kernel on a CPU with AVX2 or AVX-512 is warned of with the setting that fixes it; a fitting one is not")
    func warning() {
        #expect(BLASKernel.warning(coreName: "Prescott", cpuFlags: ["sse3", "avx", "avx2"])?.contains("OPENBLAS_CORETYPE=Haswell") == true)
        #expect(BLASKernel.warning(coreName: "Sandybridge", cpuFlags: ["avx2", "avx512f"])?.contains("OPENBLAS_CORETYPE=SkylakeX") == true)
        #expect(BLASKernel.warning(coreName: "Haswell", cpuFlags: ["avx2", "avx512f"]) == nil)
        #expect(BLASKernel.warning(coreName: "Prescott", cpuFlags: ["sse3"]) == nil)
        #expect(!BLASKernel.coreName.isEmpty && BLASKernel.describe().contains("kernel"))
    }
}
