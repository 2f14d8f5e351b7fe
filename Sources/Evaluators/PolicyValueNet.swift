import CBLAS
import CKernels
import LabCore

/// The layer sizes of a policy-value network: a stem from the features to the trunk's
/// width, residual blocks of two layers each, and two heads on the trunk: policy logits
/// over the game's action ids, and value logits over the seats (softmax: each seat's
/// expected share of the match's score, the observing seat first).
public struct PolicyValueShape: Sendable, Equatable, CustomStringConvertible {
    public let inputs: Int
    public let width: Int
    public let blocks: Int
    public let actions: Int
    public let seats: Int
    /// Features per action (0: none): the last `actions × actionFeatures` inputs are, for
    /// each action id in turn, features of that action (what it would do), and each
    /// action's logit gains `φ(a) · wφ`, with one weight vector `wφ` shared by every
    /// action. A policy then scores each action by what it does, as a one-ply player
    /// would, where a head over action ids must learn every action separately.
    public let actionFeatures: Int
    /// Whether the action features' weights depend on the position: `wφ(h) = wφ + h·Wφ`
    /// with `Wφ` a `width × actionFeatures` matrix on the trunk's output `h` (as KataGo's
    /// policy head reads a global summary of the board), so a policy can weigh what an
    /// action does by the state of the game (block when the opponent is close, race when
    /// it is not), where one shared `wφ` weighs it the same in every position.
    public let contextualActions: Bool

    public init(inputs: Int, width: Int, blocks: Int, actions: Int, seats: Int, actionFeatures: Int = 0, contextualActions: Bool = false) {
        precondition(inputs >= 1 && width >= 1 && blocks >= 0 && actions >= 1 && seats >= 2 && actionFeatures >= 0,
                     "layer sizes must be positive")
        precondition(actions * actionFeatures <= inputs, "the action features are part of the inputs")
        self.inputs = inputs
        self.width = width
        self.blocks = blocks
        self.actions = actions
        self.seats = seats
        self.actionFeatures = actionFeatures
        self.contextualActions = contextualActions && actionFeatures > 0
    }

    /// The same shape with position-dependent action-feature weights (``contextualActions``).
    public var withContextualActions: PolicyValueShape {
        PolicyValueShape(inputs: inputs, width: width, blocks: blocks, actions: actions, seats: seats, actionFeatures: actionFeatures,
                         contextualActions: true)
    }

    /// Where the action features start in an input row.
    public var actionFeaturesOffset: Int { inputs - actions * actionFeatures }

    /// Each layer's (fan-in, fan-out) in parameter order: the stem, two per block, the
    /// policy head, the value head.
    public var layers: [(fanIn: Int, fanOut: Int)] {
        [(inputs, width)] + Array(repeating: (width, width), count: 2 * blocks) + [(width, actions), (width, seats)]
    }

    /// Weights and biases in all: the layers', then the action features' weights `wφ`, then
    /// (contextual) their `width × actionFeatures` matrix `Wφ`.
    public var parameterCount: Int {
        layers.reduce(0) { $0 + $1.fanIn * $1.fanOut + $1.fanOut } + actionFeatures + (contextualActions ? width * actionFeatures : 0)
    }

    /// Multiply-adds per position of one forward pass (twice this is its FLOPs).
    public var multiplyAdds: Int { layers.reduce(0) { $0 + $1.fanIn * $1.fanOut } }

    /// `1055-128x2r-366p-2v`; `-10φ` with action features, `-10φh` when their weights
    /// read the trunk.
    public var description: String {
        "\(inputs)-\(width)x\(blocks)r-\(actions)p-\(seats)v" + (actionFeatures > 0 ? "-\(actionFeatures)φ" : "")
            + (contextualActions ? "h" : "")
    }
}

/// A policy-value network on BLAS: every layer of a batch is one `cblas_sgemm`, forward
/// and backward.
///
/// Parameters sit in one flat array, layer by layer (``PolicyValueShape/layers``): the
/// weights of a layer as a row-major `in × out` matrix, then its `out` biases. A batch
/// of B positions is a row-major `B × inputs` matrix.
///
/// - Trunk: `h = relu(x·W0 + b0)`, then per block `u = relu(h·Wa + ba)`,
///   `h = relu(h + u·Wb + bb)` (a residual block, He et al. 2016, on dense layers).
/// - Heads: `logits = h·Wp + bp` (the search masks them to the legal actions) and
///   `value = softmax(h·Wv + bv)` over the seats, rotated so that index 0 is the seat
///   that observes: one vector, so a search with 3 to 6 seats backs up each seat's own
///   share (max^n).
///
/// A value: copies share the storage until one is written (training writes; play
/// reads), so every search of a run shares one set of weights.
public struct PolicyValueNet: Sendable, Equatable {
    public let shape: PolicyValueShape
    public internal(set) var parameters: [Float]
    /// Offset of each layer's weights in `parameters` (its biases follow them).
    let offsets: [Int]
    /// Where the action features' weights start (after the layers).
    let actionWeightsOffset: Int
    /// Where their `width × actionFeatures` matrix on the trunk starts (contextual shapes).
    var actionContextOffset: Int { actionWeightsOffset + shape.actionFeatures }

    /// Weights drawn He-uniform from `seed`; the heads' and each block's second layer
    /// scaled down (a block starts near the identity; the heads near uniform).
    public init(shape: PolicyValueShape, seed: UInt64) {
        var parameters = [Float](repeating: 0, count: shape.parameterCount)
        var rng = LabRandom(seed: seed)
        var at = 0
        for (l, layer) in shape.layers.enumerated() {
            let second = l > 0 && l <= 2 * shape.blocks && l % 2 == 0
            let head = l > 2 * shape.blocks
            let scale = second || head ? 0.1 : 1.0
            let limit = (6.0 / Double(layer.fanIn)).squareRoot() * scale
            for k in 0..<(layer.fanIn * layer.fanOut) { parameters[at + k] = Float((rng.unit() * 2 - 1) * limit) }
            at += layer.fanIn * layer.fanOut + layer.fanOut
        }
        self.init(shape: shape, parameters: parameters)
    }

    /// A network with the given parameters (`shape.parameterCount` of them).
    public init(shape: PolicyValueShape, parameters: [Float]) {
        precondition(parameters.count == shape.parameterCount, "parameter count does not match the shape")
        self.shape = shape
        self.parameters = parameters
        var offsets: [Int] = []
        var at = 0
        for layer in shape.layers {
            offsets.append(at)
            at += layer.fanIn * layer.fanOut + layer.fanOut
        }
        self.offsets = offsets
        actionWeightsOffset = at
    }

    public static func == (l: PolicyValueNet, r: PolicyValueNet) -> Bool { l.shape == r.shape && l.parameters == r.parameters }

    /// Evaluates `batch` positions in one pass.
    ///
    /// - Parameters:
    ///   - input: `batch × shape.inputs` features, row-major.
    ///   - logits: `batch × shape.actions` policy logits (unmasked).
    ///   - values: `batch × shape.seats` score shares (each row sums to 1).
    ///   - workspace: scratch for the activations; grows to the largest batch seen, so a
    ///     warm evaluation allocates nothing.
    ///   - sparseInput: the rows are mostly zeros: the first layer adds the weight rows of
    ///     the non-zero inputs instead of multiplying the whole matrix (no packing of
    ///     its weights per call; the same sums in another order, so the last bits differ).
    ///     A sparse batch of at most ``rowwiseBatch`` rows also multiplies the later layers
    ///     row by row (`cblas_sgemv`): an sgemm packs the whole weight matrix on every call,
    ///     which for one row costs more than the product (other sums, other last bits).
    public func evaluate(_ input: UnsafePointer<Float>, batch: Int, logits: UnsafeMutablePointer<Float>,
                         values: UnsafeMutablePointer<Float>, workspace: PolicyValueWorkspace, sparseInput: Bool = false) {
        guard batch > 0 else { return }
        workspace.reserve(batch: batch, shape: shape, training: false)
        let rowwise = sparseInput && batch <= Self.rowwiseBatch
        parameters.withUnsafeBufferPointer { p in
            let trunk = forwardTrunk(input, batch: batch, parameters: p.baseAddress!, workspace: workspace, keep: false,
                                     sparseInput: sparseInput, rowwise: rowwise)
            heads(trunk, input: input, batch: batch, parameters: p.baseAddress!, workspace: workspace, logits: logits, values: values,
                  rowwise: rowwise)
        }
    }

    /// The largest batch a sparse evaluation multiplies row by row.
    public static let rowwiseBatch = 4

    /// The trunk's output for `batch` rows. With `keep`, every layer's activation stays
    /// in the workspace for ``gradient(_:batch:policyTargets:legal:valueTargets:valueWeight:into:workspace:)``;
    /// without, two buffers are used in turn.
    func forwardTrunk(_ input: UnsafePointer<Float>, batch: Int, parameters p: UnsafePointer<Float>, workspace: PolicyValueWorkspace,
                      keep: Bool, sparseInput: Bool = false, rowwise: Bool = false) -> UnsafeMutablePointer<Float> {
        let h = shape.width
        var current = workspace.trunk(0)
        if sparseInput {
            Self.sparseAffine(input, batch: batch, fanIn: shape.inputs, weights: p + offsets[0], fanOut: h, into: current)
        } else {
            Self.affine(input, batch: batch, fanIn: shape.inputs, weights: p + offsets[0], fanOut: h, into: current)
        }
        Self.relu(current, count: batch * h)
        for b in 0..<shape.blocks {
            let u = keep ? workspace.inner(b) : workspace.scratch
            Self.affine(current, batch: batch, fanIn: h, weights: p + offsets[1 + 2 * b], fanOut: h, into: u, rowwise: rowwise)
            Self.relu(u, count: batch * h)
            let next = keep ? workspace.trunk(b + 1) : workspace.trunk((b + 1) % 2)
            // next = current + u·Wb + bb, then relu.
            next.update(from: current, count: batch * h)
            let wb = p + offsets[2 + 2 * b]
            let bias = wb + h * h
            for i in 0..<batch { for j in 0..<h { next[i * h + j] += bias[j] } }
            Self.product(u, batch: batch, fanIn: h, weights: wb, fanOut: h, into: next, rowwise: rowwise)
            Self.relu(next, count: batch * h)
            current = next
        }
        return current
    }

    /// The two heads on the trunk's output `trunk`: raw logits, and value softmaxes.
    func heads(_ trunk: UnsafePointer<Float>, input: UnsafePointer<Float>, batch: Int, parameters p: UnsafePointer<Float>,
               workspace: PolicyValueWorkspace, logits: UnsafeMutablePointer<Float>, values: UnsafeMutablePointer<Float>,
               rowwise: Bool = false) {
        let h = shape.width, last = shape.layers.count - 1
        Self.affine(trunk, batch: batch, fanIn: h, weights: p + offsets[last - 1], fanOut: shape.actions, into: logits, rowwise: rowwise)
        let k = shape.actionFeatures
        if k > 0 {
            // logits += Φ · wφ, Φ the (batch · actions) × k action features, rows of the input;
            // contextual: a row's weights are wφ + h·Wφ (batch × k, in the workspace).
            var w = p + actionWeightsOffset
            var stride = 0
            if shape.contextualActions {
                let context = workspace.actionWeights
                Self.affine(trunk, batch: batch, fanIn: h, weights: p + actionContextOffset, bias: w, fanOut: k, into: context,
                            rowwise: rowwise)
                w = UnsafePointer(context)
                stride = k
            }
            for i in 0..<batch {
                let phi = input + i * shape.inputs + shape.actionFeaturesOffset
                cblas_sgemv(CblasRowMajor, CblasNoTrans, Int32(shape.actions), Int32(k), 1, phi, Int32(k), w + i * stride, 1, 1,
                            logits + i * shape.actions, 1)
            }
        }
        Self.affine(trunk, batch: batch, fanIn: h, weights: p + offsets[last], fanOut: shape.seats, into: values, rowwise: rowwise)
        for i in 0..<batch { Self.softmax(values + i * shape.seats, count: shape.seats) }
    }

    /// `y = x · W + b` for a `batch × fanIn` block `x`, with `W` then `b` at `weights`.
    @inline(__always)
    static func affine(_ x: UnsafePointer<Float>, batch: Int, fanIn: Int, weights: UnsafePointer<Float>, fanOut: Int,
                       into y: UnsafeMutablePointer<Float>, rowwise: Bool = false) {
        affine(x, batch: batch, fanIn: fanIn, weights: weights, bias: weights + fanIn * fanOut, fanOut: fanOut, into: y, rowwise: rowwise)
    }

    /// `y += x · W` for a `batch × fanIn` block `x`: one sgemm, or with `rowwise` one
    /// sgemv a row (no packing of `W`).
    @inline(__always)
    static func product(_ x: UnsafePointer<Float>, batch: Int, fanIn: Int, weights: UnsafePointer<Float>, fanOut: Int,
                        into y: UnsafeMutablePointer<Float>, rowwise: Bool) {
        if rowwise {
            for i in 0..<batch {
                cblas_sgemv(CblasRowMajor, CblasTrans, Int32(fanIn), Int32(fanOut), 1, weights, Int32(fanOut), x + i * fanIn, 1, 1,
                            y + i * fanOut, 1)
            }
        } else {
            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, Int32(batch), Int32(fanOut), Int32(fanIn),
                        1, x, Int32(fanIn), weights, Int32(fanOut), 1, y, Int32(fanOut))
        }
    }

    /// `y = x · W + b` with the bias `b` elsewhere than after `W`.
    @inline(__always)
    static func affine(_ x: UnsafePointer<Float>, batch: Int, fanIn: Int, weights: UnsafePointer<Float>, bias: UnsafePointer<Float>,
                       fanOut: Int, into y: UnsafeMutablePointer<Float>, rowwise: Bool = false) {
        for i in 0..<batch { (y + i * fanOut).update(from: bias, count: fanOut) }
        product(x, batch: batch, fanIn: fanIn, weights: weights, fanOut: fanOut, into: y, rowwise: rowwise)
    }

    /// ``affine(_:batch:fanIn:weights:fanOut:into:)`` for mostly-zero rows `x`: each row
    /// is the bias plus x[k] times weight row k for the non-zero x[k], in k order. In C
    /// (`Sources/CKernels`), built for AVX-512, AVX2 and the baseline and picked by the CPU
    /// at start-up, with the same bits on each.
    static func sparseAffine(_ x: UnsafePointer<Float>, batch: Int, fanIn: Int, weights: UnsafePointer<Float>, fanOut: Int,
                             into y: UnsafeMutablePointer<Float>) {
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: fanIn) { scratch in
            oplab_sparse_affine(x, batch, fanIn, weights, fanOut, y, scratch.baseAddress!)
        }
    }

    /// Branch-free, so it vectorises.
    @inline(__always)
    static func relu(_ x: UnsafeMutablePointer<Float>, count: Int) {
        for i in 0..<count { x[i] = max(x[i], 0) }
    }

    /// In place, stable (the maximum subtracted first).
    static func softmax(_ x: UnsafeMutablePointer<Float>, count: Int) {
        var top = -Float.infinity
        for i in 0..<count { top = max(top, x[i]) }
        var sum: Float = 0
        for i in 0..<count {
            x[i] = (x[i] - top).exp
            sum += x[i]
        }
        for i in 0..<count { x[i] /= sum }
    }
}

extension Float {
    /// e^self, through Double's: the same bits on every machine the lab runs on.
    @inline(__always)
    var exp: Float { Float(_exp(Double(self))) }
}

@inline(__always)
private func _exp(_ x: Double) -> Double {
    #if canImport(Glibc)
    Glibc.exp(x)
    #else
    Darwin.exp(x)
    #endif
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Scratch for a ``PolicyValueNet``: the trunk's activations (every layer's, when
/// training keeps them for the backward pass) and the gradients' buffers. One per
/// thread; it keeps its size between calls, so a warm pass allocates nothing.
public final class PolicyValueWorkspace {
    private var storage: UnsafeMutablePointer<Float>?
    private var capacity = 0
    private var rowWidth = 0
    private var rows = 0
    private var trunkCount = 0
    private var innerCount = 0
    private var extra = 0

    public init() {}

    deinit { storage?.deallocate() }

    /// Room for `batch` rows: the trunk's layers and the blocks' inner layers (all of
    /// them when `training`, else two and one), a scratch layer and two gradient layers.
    func reserve(batch: Int, shape: PolicyValueShape, training: Bool) {
        let trunks = training ? shape.blocks + 1 : 2
        let inners = training ? max(shape.blocks, 1) : 1
        // After the layers: the contextual action weights (batch × k) and, training, their gradient.
        let extras = shape.contextualActions ? 2 * batch * shape.actionFeatures : 0
        let need = batch * shape.width * (trunks + inners + 3) + extras
        rowWidth = shape.width
        extra = extras / 2
        rows = batch
        trunkCount = trunks
        innerCount = inners
        guard need > capacity else { return }
        storage?.deallocate()
        storage = .allocate(capacity: need)
        capacity = need
    }

    private func layer(_ k: Int) -> UnsafeMutablePointer<Float> { storage! + k * rows * rowWidth }

    func trunk(_ k: Int) -> UnsafeMutablePointer<Float> { layer(k) }
    func inner(_ k: Int) -> UnsafeMutablePointer<Float> { layer(trunkCount + k) }
    var scratch: UnsafeMutablePointer<Float> { layer(trunkCount + innerCount) }
    var gradientA: UnsafeMutablePointer<Float> { layer(trunkCount + innerCount + 1) }
    var gradientB: UnsafeMutablePointer<Float> { layer(trunkCount + innerCount + 2) }
    /// A contextual network's action-feature weights a row (`batch × actionFeatures`).
    var actionWeights: UnsafeMutablePointer<Float> { layer(trunkCount + innerCount + 3) }
    /// Their gradient, the same size.
    var actionWeightsGradient: UnsafeMutablePointer<Float> { actionWeights + extra }
}
