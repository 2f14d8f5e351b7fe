import LabCore
import Testing
@testable import Evaluators

@Suite("Policy-value network: forward, backward, Adam")
struct PolicyValueNetTests {
    static let shape = PolicyValueShape(inputs: 5, width: 6, blocks: 2, actions: 4, seats: 3)

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

    @Test("the gradient matches finite differences of the loss, parameter by parameter (away from relu kinks)")
    func gradientCheck() {
        let net = PolicyValueNet(shape: Self.shape, seed: 11)
        let batch = Self.batch(rows: 5, seed: 2)
        let trainer = PolicyValueTrainer(network: net, valueWeight: 0.7)
        _ = trainer.lossAndGradient(batch)
        let gradient = trainer.lastGradient
        func total(_ parameters: [Float]) -> Double {
            let loss = PolicyValueTrainer(network: PolicyValueNet(shape: Self.shape, parameters: parameters), valueWeight: 0.7).loss(on: batch)
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
