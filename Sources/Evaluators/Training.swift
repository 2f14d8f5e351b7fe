import CBLAS
import LabCore

/// Labelled positions: row i is `features[i * inputs ..< (i + 1) * inputs]`, its label
/// `targets[i]` (the final match score of the seat whose view the row encodes).
public struct Dataset: Sendable {
    public let inputs: Int
    public private(set) var features: [Float] = []
    public private(set) var targets: [Float] = []

    public init(inputs: Int) {
        precondition(inputs >= 1)
        self.inputs = inputs
    }

    public var count: Int { targets.count }

    /// Adds one row.
    public mutating func append(_ row: UnsafeBufferPointer<Float>, target: Float) {
        precondition(row.count == inputs, "row length \(row.count), expected \(inputs)")
        features.append(contentsOf: row)
        targets.append(target)
    }

    /// Adds every row of `other` (same width).
    public mutating func append(contentsOf other: Dataset) {
        precondition(other.inputs == inputs)
        features.append(contentsOf: other.features)
        targets.append(contentsOf: other.targets)
    }

    public mutating func reserveCapacity(_ rows: Int) {
        features.reserveCapacity(rows * inputs)
        targets.reserveCapacity(rows)
    }
}

/// How ``Training/train(_:on:settings:report:)`` fits a model.
public struct TrainingSettings: Sendable, Equatable {
    public var epochs: Int
    public var batchSize: Int
    public var learningRate: Double
    /// Share of the rows held out to measure each epoch (never trained on).
    public var validationFraction: Double
    /// Seeds the split and the minibatch order.
    public var seed: UInt64
    /// Decoupled weight decay (AdamW): each step shrinks every weight by
    /// `learningRate × weightDecay` of itself (0: plain Adam).
    public var weightDecay: Double

    public init(epochs: Int = 20, batchSize: Int = 256, learningRate: Double = 1e-3, validationFraction: Double = 0.1, seed: UInt64 = 1,
                weightDecay: Double = 0) {
        precondition(epochs >= 1 && batchSize >= 1 && learningRate > 0 && (0..<1).contains(validationFraction) && weightDecay >= 0)
        self.weightDecay = weightDecay
        self.epochs = epochs
        self.batchSize = batchSize
        self.learningRate = learningRate
        self.validationFraction = validationFraction
        self.seed = seed
    }
}

/// One epoch's figures.
public struct EpochReport: Sendable, Equatable {
    public var epoch: Int
    /// Mean cross-entropy over the epoch's minibatches (before each step).
    public var trainLoss: Double
    /// Cross-entropy on the held-out rows after the epoch.
    public var validationLoss: Double
    /// Share of held-out rows with a decided label (not 1/2) whose prediction falls on
    /// the same side of 1/2.
    public var validationAccuracy: Double
}

/// The result of a training run.
public struct TrainingResult: Sendable {
    /// The parameters of the epoch with the lowest validation loss.
    public var model: MLP
    public var best: EpochReport
    public var epochs: [EpochReport]
    /// Cross-entropy of always predicting the training rows' mean (what the model must
    /// beat to have learnt anything).
    public var baselineLoss: Double
    public var trainRows: Int
    public var validationRows: Int
}

/// Minibatch training of an ``MLP`` by Adam on the logistic cross-entropy, with the
/// backward pass on sgemm too.
public enum Training {
    /// Scratch for ``lossAndGradient(_:inputs:targets:batch:gradient:scratch:)``.
    public final class Scratch {
        /// Hidden activations: layer l's output at `activations[l + 1]`.
        var activations: [UnsafeMutablePointer<Float>] = []
        /// Two deltas used in turn by the layers, and the output logits.
        var deltas: [UnsafeMutablePointer<Float>] = []
        var logits = UnsafeMutablePointer<Float>.allocate(capacity: 1)
        var batch = 0
        var shape: MLPShape?

        public init() {}

        deinit { release() }

        private func release() {
            for b in activations + deltas { b.deallocate() }
            logits.deallocate()
        }

        func reserve(batch: Int, shape: MLPShape) {
            guard batch > self.batch || shape != self.shape else { return }
            release()
            let widths = shape.widths
            activations = (0..<shape.layerCount).map { l in .allocate(capacity: l == 0 ? 1 : batch * widths[l]) }
            let wide = batch * (widths.max() ?? 1)
            deltas = [.allocate(capacity: wide), .allocate(capacity: wide)]
            logits = .allocate(capacity: batch)
            self.batch = batch
            self.shape = shape
        }
    }

    /// The mean cross-entropy of `batch` rows and its gradient with respect to every
    /// parameter (written into `gradient`, `model.parameters.count` values).
    ///
    /// Backward pass per layer l (row-major, B rows): `dW = Aᵀ · dZ` and
    /// `dA = dZ · Wᵀ`, each one `cblas_sgemm`; `db` sums `dZ` over the rows; ReLU passes
    /// `dA` where its activation was positive.
    @discardableResult
    public static func lossAndGradient(_ model: MLP, inputs: UnsafePointer<Float>, targets: UnsafePointer<Float>, batch: Int,
                                       gradient: inout [Float], scratch: Scratch) -> Double {
        let shape = model.shape
        let widths = shape.widths
        let layers = shape.layerCount
        precondition(gradient.count == model.parameters.count && batch >= 1)
        scratch.reserve(batch: batch, shape: shape)
        var loss = 0.0
        model.parameters.withUnsafeBufferPointer { pp in
            let p = pp.baseAddress!
            // Forward, keeping every hidden activation.
            for l in 0..<layers {
                let fanIn = widths[l], fanOut = widths[l + 1]
                let x: UnsafePointer<Float> = l == 0 ? inputs : UnsafePointer(scratch.activations[l])
                if l == layers - 1 {
                    MLP.affine(x, batch: batch, fanIn: fanIn, weights: p + model.offsets[l], fanOut: 1, into: scratch.logits)
                } else {
                    let y = scratch.activations[l + 1]
                    MLP.affine(x, batch: batch, fanIn: fanIn, weights: p + model.offsets[l], fanOut: fanOut, into: y)
                    for i in 0..<(batch * fanOut) { y[i] = max(y[i], 0) }
                }
            }
            // Loss and the output's delta: d(mean loss)/dz = (p - t) / B.
            let out = scratch.deltas[0]
            for i in 0..<batch {
                let z = Double(scratch.logits[i]), t = Double(targets[i])
                loss += max(z, 0) - z * t + log1p(exp(-abs(z)))
                out[i] = Float((1 / (1 + exp(-z)) - t) / Double(batch))
            }
            // Backward.
            gradient.withUnsafeMutableBufferPointer { gg in
                let g = gg.baseAddress!
                for l in stride(from: layers - 1, through: 0, by: -1) {
                    let fanIn = widths[l], fanOut = widths[l + 1]
                    let w = p + model.offsets[l]
                    let gw = g + model.offsets[l]
                    let gb = gw + fanIn * fanOut
                    let dz = scratch.deltas[(layers - 1 - l) % 2]
                    let a: UnsafePointer<Float> = l == 0 ? inputs : UnsafePointer(scratch.activations[l])
                    cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, Int32(fanIn), Int32(fanOut), Int32(batch),
                                1, a, Int32(fanIn), dz, Int32(fanOut), 0, gw, Int32(fanOut))
                    for j in 0..<fanOut { gb[j] = 0 }
                    for i in 0..<batch {
                        for j in 0..<fanOut { gb[j] += dz[i * fanOut + j] }
                    }
                    guard l > 0 else { continue }
                    let da = scratch.deltas[(layers - l) % 2]
                    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, Int32(batch), Int32(fanIn), Int32(fanOut),
                                1, dz, Int32(fanOut), w, Int32(fanOut), 0, da, Int32(fanIn))
                    for i in 0..<(batch * fanIn) where a[i] <= 0 { da[i] = 0 }
                }
            }
        }
        return loss / Double(batch)
    }

    /// Trains `model` on `data`: a seeded split holds out `validationFraction` of the
    /// rows; each epoch visits the others in a new seeded order, in minibatches, with one
    /// Adam step (β1 0.9, β2 0.999, ε 1e-8; decoupled weight decay if set) per minibatch. Returns the parameters of the
    /// epoch with the lowest validation loss (the last epoch's without held-out rows).
    /// Deterministic: one thread, OpenBLAS pinned to one thread.
    public static func train(_ model: MLP, on data: Dataset, settings: TrainingSettings, report: (EpochReport) -> Void = { _ in }) -> TrainingResult {
        precondition(data.inputs == model.shape.inputs, "data has \(data.inputs) features, the model \(model.shape.inputs)")
        precondition(data.count >= 2, "too few rows to train")
        BLASThreads.pinToOne()
        var rng = LabRandom(seed: Seeds.derive(settings.seed, 0x7261_696e))
        var order = Array(0..<data.count)
        order.withUnsafeMutableBufferPointer { rng.shuffle($0) }
        let held = min(data.count - 1, Int(Double(data.count) * settings.validationFraction))
        let validation = Array(order[..<held])
        var training = Array(order[held...])

        var model = model
        let n = model.parameters.count
        var gradient = [Float](repeating: 0, count: n)
        var m = [Float](repeating: 0, count: n)
        var v = [Float](repeating: 0, count: n)
        let (beta1, beta2, epsilon): (Float, Float, Float) = (0.9, 0.999, 1e-8)
        let rate = Float(settings.learningRate)
        let shrink = 1 - Float(settings.learningRate * settings.weightDecay)
        var step = 0
        let scratch = Scratch()
        let batchSize = min(settings.batchSize, training.count)
        var x = [Float](repeating: 0, count: batchSize * data.inputs)
        var t = [Float](repeating: 0, count: batchSize)

        let meanTarget = training.reduce(0.0) { $0 + Double(data.targets[$1]) } / Double(training.count)
        let baseline = crossEntropy(rows: training, constant: meanTarget, data: data)

        var reports: [EpochReport] = []
        var best: (EpochReport, [Float])? = nil
        for epoch in 1...settings.epochs {
            training.withUnsafeMutableBufferPointer { rng.shuffle($0) }
            var lossSum = 0.0, batches = 0
            var start = 0
            while start < training.count {
                let size = min(batchSize, training.count - start)
                gather(training[start..<(start + size)], from: data, features: &x, targets: &t)
                let loss = x.withUnsafeBufferPointer { xp in
                    t.withUnsafeBufferPointer { tp in
                        lossAndGradient(model, inputs: xp.baseAddress!, targets: tp.baseAddress!, batch: size, gradient: &gradient, scratch: scratch)
                    }
                }
                lossSum += loss
                batches += 1
                step += 1
                let c1 = 1 - pow(beta1, Float(step)), c2 = 1 - pow(beta2, Float(step))
                model.parameters.withUnsafeMutableBufferPointer { p in
                    for i in 0..<n {
                        let g = gradient[i]
                        m[i] = beta1 * m[i] + (1 - beta1) * g
                        v[i] = beta2 * v[i] + (1 - beta2) * g * g
                        p[i] = shrink * p[i] - rate * (m[i] / c1) / ((v[i] / c2).squareRoot() + epsilon)
                    }
                }
                start += size
            }
            let (vLoss, vAccuracy) = validation.isEmpty ? (lossSum / Double(batches), 0) : measure(model, rows: validation, data: data)
            let r = EpochReport(epoch: epoch, trainLoss: lossSum / Double(batches), validationLoss: vLoss, validationAccuracy: vAccuracy)
            reports.append(r)
            report(r)
            if validation.isEmpty || best == nil || vLoss < best!.0.validationLoss { best = (r, model.parameters) }
        }
        return TrainingResult(model: MLP(shape: model.shape, parameters: best!.1), best: best!.0, epochs: reports,
                              baselineLoss: baseline, trainRows: training.count, validationRows: validation.count)
    }

    /// Cross-entropy and accuracy of `model` on `rows`, evaluated in batches of 4096.
    public static func measure(_ model: MLP, rows: [Int], data: Dataset) -> (loss: Double, accuracy: Double) {
        let workspace = MLPWorkspace()
        let chunk = 4096
        var x = [Float](repeating: 0, count: chunk * data.inputs)
        var t = [Float](repeating: 0, count: chunk)
        var out = [Float](repeating: 0, count: chunk)
        var loss = 0.0, right = 0, decided = 0
        var start = 0
        while start < rows.count {
            let size = min(chunk, rows.count - start)
            gather(rows[start..<(start + size)], from: data, features: &x, targets: &t)
            x.withUnsafeBufferPointer { xp in
                out.withUnsafeMutableBufferPointer { op in
                    model.evaluate(xp.baseAddress!, batch: size, into: op.baseAddress!, workspace: workspace)
                }
            }
            for i in 0..<size {
                let p = min(max(Double(out[i]), 1e-7), 1 - 1e-7), y = Double(t[i])
                loss -= y * log(p) + (1 - y) * log(1 - p)
                if y != 0.5 {
                    decided += 1
                    if (p > 0.5) == (y > 0.5) { right += 1 }
                }
            }
            start += size
        }
        return (loss / Double(max(1, rows.count)), decided == 0 ? 0 : Double(right) / Double(decided))
    }

    private static func crossEntropy(rows: [Int], constant: Double, data: Dataset) -> Double {
        let p = min(max(constant, 1e-7), 1 - 1e-7)
        var loss = 0.0
        for r in rows {
            let y = Double(data.targets[r])
            loss -= y * log(p) + (1 - y) * log(1 - p)
        }
        return loss / Double(max(1, rows.count))
    }

    private static func gather(_ rows: ArraySlice<Int>, from data: Dataset, features: inout [Float], targets: inout [Float]) {
        let width = data.inputs
        data.features.withUnsafeBufferPointer { src in
            features.withUnsafeMutableBufferPointer { dst in
                for (k, r) in rows.enumerated() {
                    (dst.baseAddress! + k * width).update(from: src.baseAddress! + r * width, count: width)
                    targets[k] = data.targets[r]
                }
            }
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
