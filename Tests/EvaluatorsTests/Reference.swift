import LabCore
@testable import Evaluators

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Plain loops in Double that the tests compare the sgemm code with. They read the
/// parameter layout from the documentation of ``MLP`` (per layer: a row-major
/// `in × out` weight matrix, then `out` biases), not from `MLP.offsets`.
enum Reference {
    /// Uniform values in `-scale..<scale`.
    static func uniform(_ count: Int, scale: Double, rng: inout LabRandom) -> [Float] {
        (0..<count).map { _ in Float((rng.unit() * 2 - 1) * scale) }
    }

    /// A network with every weight and bias drawn at random (biases too, unlike
    /// `MLP(shape:seed:)`), weights scaled by 2.5/√fanIn so the logits stay within a few units of 0.
    static func randomNetwork(_ shape: MLPShape, seed: UInt64) -> MLP {
        var rng = LabRandom(seed: seed)
        let widths = shape.widths
        var parameters: [Float] = []
        for l in 0..<shape.layerCount {
            let fanIn = widths[l], fanOut = widths[l + 1]
            parameters += uniform(fanIn * fanOut, scale: 2.5 / Double(fanIn).squareRoot(), rng: &rng)
            parameters += uniform(fanOut, scale: 0.5, rng: &rng)
        }
        return MLP(shape: shape, parameters: parameters)
    }

    /// Every layer's pre-activations for one row: `z[l]` is layer l's `x · W + b`.
    static func preActivations(_ shape: MLPShape, parameters: [Double], row: ArraySlice<Float>) -> [[Double]] {
        let widths = shape.widths
        var x = row.map(Double.init)
        var z: [[Double]] = []
        var at = 0
        for l in 0..<shape.layerCount {
            let fanIn = widths[l], fanOut = widths[l + 1]
            var y = [Double](repeating: 0, count: fanOut)
            for j in 0..<fanOut {
                var sum = parameters[at + fanIn * fanOut + j]
                for i in 0..<fanIn { sum += x[i] * parameters[at + i * fanOut + j] }
                y[j] = sum
            }
            z.append(y)
            x = y.map { max($0, 0) }
            at += fanIn * fanOut + fanOut
        }
        return z
    }

    /// The output logit of one row.
    static func logit(_ shape: MLPShape, parameters: [Double], row: ArraySlice<Float>) -> Double {
        preActivations(shape, parameters: parameters, row: row).last![0]
    }

    static func logistic(_ z: Double) -> Double { 1 / (1 + exp(-z)) }

    /// `batch` outputs (logistic of the logit) of `input`, row-major `batch × inputs`.
    static func forward(_ model: MLP, _ input: [Float], batch: Int) -> [Double] {
        let parameters = model.parameters.map(Double.init)
        let n = model.shape.inputs
        return (0..<batch).map { r in logistic(logit(model.shape, parameters: parameters, row: input[(r * n)..<((r + 1) * n)])) }
    }

    /// The mean cross-entropy `-(t log p + (1 - t) log(1 - p))` of the rows, p the logistic
    /// of the logit, written the textbook way (the logits here stay far from saturation).
    static func loss(_ shape: MLPShape, parameters: [Double], inputs: [Float], targets: [Float]) -> Double {
        let n = shape.inputs
        var sum = 0.0
        for r in targets.indices {
            let p = logistic(logit(shape, parameters: parameters, row: inputs[(r * n)..<((r + 1) * n)]))
            let t = Double(targets[r])
            sum -= t * log(p) + (1 - t) * log(1 - p)
        }
        return sum / Double(targets.count)
    }
}
