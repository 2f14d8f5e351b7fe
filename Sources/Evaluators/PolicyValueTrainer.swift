import CBLAS
import LabCore

/// A minibatch for ``PolicyValueTrainer``: row-major blocks of `rows` positions.
public struct PolicyValueBatch {
    /// `rows × inputs` features.
    public var inputs: [Float]
    /// `rows × actions` policy targets: the search's improved policy, 0 off the legal actions.
    public var policy: [Float]
    /// `rows × actions`: 1 on the legal actions, 0 elsewhere (the logits are masked to them).
    public var legal: [Float]
    /// `rows × seats` value targets: each seat's share of the match's score, observer first.
    public var value: [Float]
    public var rows: Int

    public init(shape: PolicyValueShape, rows: Int) {
        inputs = [Float](repeating: 0, count: rows * shape.inputs)
        policy = [Float](repeating: 0, count: rows * shape.actions)
        legal = [Float](repeating: 0, count: rows * shape.actions)
        value = [Float](repeating: 0, count: rows * shape.seats)
        self.rows = rows
    }
}

/// The losses of one pass over a batch: the policy's cross-entropy against its target
/// (over the legal actions) and the value's against the seats' shares, means per row;
/// the policy's entropy, a mean per row too.
public struct PolicyValueLoss: Sendable, Equatable {
    public var policy: Double
    public var value: Double
    public var entropy: Double

    public init(policy: Double = 0, value: Double = 0, entropy: Double = 0) {
        self.policy = policy
        self.value = value
        self.entropy = entropy
    }
}

/// Adam (with decoupled weight decay, AdamW) on a ``PolicyValueNet``: one minibatch at a
/// time, every product one `cblas_sgemm`. Deterministic for a given OpenBLAS thread
/// count (the lab trains with one).
public final class PolicyValueTrainer {
    public private(set) var network: PolicyValueNet
    public let learningRate: Float
    public let weightDecay: Float
    /// The value loss's weight beside the policy loss.
    public let valueWeight: Float
    /// Adam's moment estimates and step count: with the weights, all a trainer is, so a
    /// learning resumes its training exactly (``AdamState``).
    private var m: [Float]
    private var v: [Float]
    private var gradient: [Float]
    private var step = 0

    /// The optimiser's state, to save and restore.
    public struct AdamState: Sendable, Equatable {
        public var m: [Float]
        public var v: [Float]
        public var step: Int

        public init(m: [Float], v: [Float], step: Int) {
            self.m = m
            self.v = v
            self.step = step
        }
    }

    public var adamState: AdamState { AdamState(m: m, v: v, step: step) }
    private let workspace = PolicyValueWorkspace()
    private var logits: [Float] = []
    private var values: [Float] = []

    public init(network: PolicyValueNet, learningRate: Float = 1e-3, weightDecay: Float = 1e-4, valueWeight: Float = 1) {
        self.network = network
        self.learningRate = learningRate
        self.weightDecay = weightDecay
        self.valueWeight = valueWeight
        m = [Float](repeating: 0, count: network.parameters.count)
        v = m
        gradient = m
    }

    /// A trainer that goes on from `state` (the moments of the same network's parameters).
    public convenience init(network: PolicyValueNet, state: AdamState, learningRate: Float = 1e-3, weightDecay: Float = 1e-4,
                            valueWeight: Float = 1) {
        precondition(state.m.count == network.parameters.count && state.v.count == network.parameters.count, "Adam state of another network")
        self.init(network: network, learningRate: learningRate, weightDecay: weightDecay, valueWeight: valueWeight)
        m = state.m
        v = state.v
        step = state.step
    }

    /// One Adam step on `batch`; the losses before the step.
    @discardableResult
    public func step(on batch: PolicyValueBatch) -> PolicyValueLoss {
        let loss = lossAndGradient(batch)
        step += 1
        let beta1: Float = 0.9, beta2: Float = 0.999, epsilon: Float = 1e-8
        let correction1 = 1 - pow(beta1, Float(step)), correction2 = 1 - pow(beta2, Float(step))
        let rate = learningRate, decay = weightDecay
        network.parameters.withUnsafeMutableBufferPointer { p in
            for i in 0..<p.count {
                let g = gradient[i]
                m[i] = beta1 * m[i] + (1 - beta1) * g
                v[i] = beta2 * v[i] + (1 - beta2) * g * g
                let update = (m[i] / correction1) / ((v[i] / correction2).squareRoot() + epsilon)
                p[i] -= rate * (update + decay * p[i])
            }
        }
        return loss
    }

    /// The losses on `batch` without a step (a held-out measurement).
    public func loss(on batch: PolicyValueBatch) -> PolicyValueLoss {
        let shape = network.shape
        logits = [Float](repeating: 0, count: batch.rows * shape.actions)
        values = [Float](repeating: 0, count: batch.rows * shape.seats)
        batch.inputs.withUnsafeBufferPointer { x in
            logits.withUnsafeMutableBufferPointer { l in
                values.withUnsafeMutableBufferPointer { vv in
                    network.evaluate(x.baseAddress!, batch: batch.rows, logits: l.baseAddress!, values: vv.baseAddress!, workspace: workspace)
                }
            }
        }
        var loss = PolicyValueLoss()
        var dummy = [Float](repeating: 0, count: batch.rows * shape.actions)
        Self.policyTerms(logits: &logits, batch: batch, actions: shape.actions, into: &dummy, loss: &loss)
        Self.valueTerms(values: &values, batch: batch, seats: shape.seats, weight: valueWeight, loss: &loss)
        return loss
    }

    /// The gradient of the mean loss over `batch` into `gradient`; the losses.
    func lossAndGradient(_ batch: PolicyValueBatch) -> PolicyValueLoss {
        let shape = network.shape
        let rows = batch.rows, h = shape.width
        if logits.count < rows * shape.actions { logits = [Float](repeating: 0, count: rows * shape.actions) }
        if values.count < rows * shape.seats { values = [Float](repeating: 0, count: rows * shape.seats) }
        workspace.reserve(batch: rows, shape: shape, training: true)
        var loss = PolicyValueLoss()
        for i in 0..<gradient.count { gradient[i] = 0 }
        let offsets = network.offsets
        let layers = shape.layers
        let policyLayer = layers.count - 2, valueLayer = layers.count - 1
        network.parameters.withUnsafeBufferPointer { pp in
            let p = pp.baseAddress!
            batch.inputs.withUnsafeBufferPointer { xx in
                let x = xx.baseAddress!
                let top = network.forwardTrunk(x, batch: rows, parameters: p, workspace: workspace, keep: true)
                logits.withUnsafeMutableBufferPointer { l in
                    values.withUnsafeMutableBufferPointer { vv in
                        network.heads(top, input: x, batch: rows, parameters: p, workspace: workspace, logits: l.baseAddress!, values: vv.baseAddress!)
                    }
                }
                // The heads' output gradients, in place: dlogits in `logits`, dvalue in `values`.
                var dlogits = logits
                Self.policyTerms(logits: &logits, batch: batch, actions: shape.actions, into: &dlogits, loss: &loss)
                logits = dlogits
                Self.valueTerms(values: &values, batch: batch, seats: shape.seats, weight: valueWeight, loss: &loss)
                gradient.withUnsafeMutableBufferPointer { gg in
                    let g = gg.baseAddress!
                    logits.withUnsafeBufferPointer { dl in
                        values.withUnsafeBufferPointer { dv in
                            let dH = workspace.gradientA
                            Self.headBackward(top, rows: rows, width: h, dOut: dl.baseAddress!, fanOut: shape.actions,
                                              weights: p + offsets[policyLayer], gradient: g + offsets[policyLayer], dInput: dH, accumulate: false)
                            Self.headBackward(top, rows: rows, width: h, dOut: dv.baseAddress!, fanOut: shape.seats,
                                              weights: p + offsets[valueLayer], gradient: g + offsets[valueLayer], dInput: dH, accumulate: true)
                            actionWeightsBackward(x, trunk: top, rows: rows, dLogits: dl.baseAddress!, parameters: p, gradient: g)
                            backwardTrunk(x, rows: rows, parameters: p, gradient: g)
                        }
                    }
                }
            }
        }
        return loss
    }

    /// The action features' weights' gradient: `dwφ = Σ rows Φᵀ · dlogits`; contextual,
    /// with `dc` a row's `Φᵀ · dlogits`, also `dWφ = hᵀ · dc` and the trunk's `dH += dc · Wφᵀ`.
    private func actionWeightsBackward(_ x: UnsafePointer<Float>, trunk: UnsafePointer<Float>, rows: Int, dLogits: UnsafePointer<Float>,
                                       parameters p: UnsafePointer<Float>, gradient g: UnsafeMutablePointer<Float>) {
        let shape = network.shape, k = shape.actionFeatures, h = shape.width
        guard k > 0 else { return }
        let weights = g + network.actionWeightsOffset
        guard shape.contextualActions else {
            for i in 0..<rows {
                cblas_sgemv(CblasRowMajor, CblasTrans, Int32(shape.actions), Int32(k), 1, x + i * shape.inputs + shape.actionFeaturesOffset,
                            Int32(k), dLogits + i * shape.actions, 1, 1, weights, 1)
            }
            return
        }
        let dc = workspace.actionWeightsGradient
        for i in 0..<rows {
            cblas_sgemv(CblasRowMajor, CblasTrans, Int32(shape.actions), Int32(k), 1, x + i * shape.inputs + shape.actionFeaturesOffset,
                        Int32(k), dLogits + i * shape.actions, 1, 0, dc + i * k, 1)
            for j in 0..<k { weights[j] += dc[i * k + j] }
        }
        cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, Int32(h), Int32(k), Int32(rows),
                    1, trunk, Int32(h), dc, Int32(k), 1, g + network.actionContextOffset, Int32(k))
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, Int32(rows), Int32(h), Int32(k),
                    1, dc, Int32(k), p + network.actionContextOffset, Int32(k), 1, workspace.gradientA, Int32(h))
    }

    /// The trunk's backward pass from the gradient at its top, in `workspace.gradientA`.
    private func backwardTrunk(_ x: UnsafePointer<Float>, rows: Int, parameters p: UnsafePointer<Float>, gradient g: UnsafeMutablePointer<Float>) {
        let shape = network.shape, h = shape.width, offsets = network.offsets
        let dH = workspace.gradientA, dU = workspace.gradientB
        for b in stride(from: shape.blocks - 1, through: 0, by: -1) {
            let out = workspace.trunk(b + 1), input = workspace.trunk(b), u = workspace.inner(b)
            for i in 0..<(rows * h) where out[i] <= 0 { dH[i] = 0 }
            let a = offsets[1 + 2 * b], second = offsets[2 + 2 * b]
            Self.weightGradient(u, rows: rows, fanIn: h, dOut: dH, fanOut: h, into: g + second)
            // dU = dPre · Wbᵀ, through u's relu.
            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, Int32(rows), Int32(h), Int32(h),
                        1, dH, Int32(h), p + second, Int32(h), 0, dU, Int32(h))
            for i in 0..<(rows * h) where u[i] <= 0 { dU[i] = 0 }
            Self.weightGradient(input, rows: rows, fanIn: h, dOut: dU, fanOut: h, into: g + a)
            // dInput = dPre (the skip) + dU · Waᵀ.
            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, Int32(rows), Int32(h), Int32(h),
                        1, dU, Int32(h), p + a, Int32(h), 1, dH, Int32(h))
        }
        let stem = workspace.trunk(0)
        for i in 0..<(rows * h) where stem[i] <= 0 { dH[i] = 0 }
        Self.weightGradient(x, rows: rows, fanIn: shape.inputs, dOut: dH, fanOut: h, into: g + offsets[0])
    }

    /// A head's weight and bias gradients, and its input's gradient (`dInput`, added to
    /// when `accumulate`).
    private static func headBackward(_ input: UnsafePointer<Float>, rows: Int, width: Int, dOut: UnsafePointer<Float>, fanOut: Int,
                                     weights: UnsafePointer<Float>, gradient: UnsafeMutablePointer<Float>,
                                     dInput: UnsafeMutablePointer<Float>, accumulate: Bool) {
        weightGradient(input, rows: rows, fanIn: width, dOut: dOut, fanOut: fanOut, into: gradient)
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, Int32(rows), Int32(width), Int32(fanOut),
                    1, dOut, Int32(fanOut), weights, Int32(fanOut), accumulate ? 1 : 0, dInput, Int32(width))
    }

    /// `dW = xᵀ · dOut` (fanIn × fanOut) and `db = Σ rows of dOut`, added to `gradient`.
    private static func weightGradient(_ x: UnsafePointer<Float>, rows: Int, fanIn: Int, dOut: UnsafePointer<Float>, fanOut: Int,
                                       into gradient: UnsafeMutablePointer<Float>) {
        cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, Int32(fanIn), Int32(fanOut), Int32(rows),
                    1, x, Int32(fanIn), dOut, Int32(fanOut), 1, gradient, Int32(fanOut))
        let bias = gradient + fanIn * fanOut
        for i in 0..<rows { for j in 0..<fanOut { bias[j] += dOut[i * fanOut + j] } }
    }

    /// The policy's loss and entropy over the legal actions, and its logits' gradient
    /// (`(softmax - target) / rows` on the legal actions, 0 elsewhere) into `gradient`.
    static func policyTerms(logits: inout [Float], batch: PolicyValueBatch, actions: Int, into gradient: inout [Float],
                            loss: inout PolicyValueLoss) {
        let rows = batch.rows
        var policyLoss = 0.0, entropy = 0.0
        for r in 0..<rows {
            let base = r * actions
            var top = -Float.infinity
            for a in 0..<actions where batch.legal[base + a] > 0 { top = max(top, logits[base + a]) }
            var sum: Float = 0
            for a in 0..<actions {
                let e: Float = batch.legal[base + a] > 0 ? (logits[base + a] - top).exp : 0
                gradient[base + a] = e
                sum += e
            }
            let logSum = Double(sum).log
            for a in 0..<actions where batch.legal[base + a] > 0 {
                let q = gradient[base + a] / sum
                let logQ = Double(logits[base + a] - top) - logSum
                policyLoss -= Double(batch.policy[base + a]) * logQ
                entropy -= Double(q) * logQ
                gradient[base + a] = (q - batch.policy[base + a]) / Float(rows)
            }
        }
        loss.policy = policyLoss / Double(rows)
        loss.entropy = entropy / Double(rows)
    }

    /// The value's cross-entropy, and its logits' gradient `weight · (v - z) / rows` in
    /// place of the values.
    static func valueTerms(values: inout [Float], batch: PolicyValueBatch, seats: Int, weight: Float, loss: inout PolicyValueLoss) {
        let rows = batch.rows
        var valueLoss = 0.0
        for r in 0..<rows {
            for s in 0..<seats {
                let i = r * seats + s
                valueLoss -= Double(batch.value[i]) * Double(max(values[i], 1e-12)).log
                values[i] = weight * (values[i] - batch.value[i]) / Float(rows)
            }
        }
        loss.value = valueLoss / Double(rows)
    }

    /// The gradient of the last ``step(on:)`` or loss computation (tests compare it with
    /// finite differences).
    var lastGradient: [Float] { gradient }
}

extension Double {
    @inline(__always)
    var log: Double {
        #if canImport(Glibc)
        Glibc.log(self)
        #else
        Darwin.log(self)
        #endif
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
