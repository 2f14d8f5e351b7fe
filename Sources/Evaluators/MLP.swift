import CBLAS
import LabCore

/// The layer sizes of a value model: `inputs`, then the hidden layers (ReLU), then one
/// output (a logistic unit: the expected match score of the observing seat, 0...1).
public struct MLPShape: Sendable, Equatable, CustomStringConvertible {
    public let inputs: Int
    public let hidden: [Int]

    public init(inputs: Int, hidden: [Int]) {
        precondition(inputs >= 1 && hidden.allSatisfy { $0 >= 1 }, "layer sizes must be positive")
        self.inputs = inputs
        self.hidden = hidden
    }

    /// Width of every layer from the input to the output: `[inputs] + hidden + [1]`.
    public var widths: [Int] { [inputs] + hidden + [1] }
    public var layerCount: Int { hidden.count + 1 }
    /// Weights and biases in all.
    public var parameterCount: Int {
        let w = widths
        return (0..<layerCount).reduce(0) { $0 + w[$1] * w[$1 + 1] + w[$1 + 1] }
    }
    /// Multiply-adds per position of one forward pass (twice this is its FLOPs).
    public var multiplyAdds: Int {
        let w = widths
        return (0..<layerCount).reduce(0) { $0 + w[$1] * w[$1 + 1] }
    }

    /// `206-128-64-1`.
    public var description: String { widths.map(String.init).joined(separator: "-") }
}

/// A multilayer perceptron with ReLU hidden layers and a logistic output.
///
/// Parameters sit in one flat array, layer by layer: the weights of layer l as a
/// row-major `in × out` matrix, then its `out` biases. A batch of B positions is a
/// row-major `B × inputs` matrix, so each layer's forward pass is one `cblas_sgemm`
/// (`B × in` times `in × out`), followed by the bias and the activation.
///
/// A value: copies share the storage until one is written (training writes; play
/// reads), so every search and greedy player of a run shares one set of weights.
public struct MLP: Sendable, Equatable {
    public let shape: MLPShape
    public internal(set) var parameters: [Float]
    /// Offset of each layer's weights in `parameters` (its biases follow them).
    let offsets: [Int]

    /// Weights drawn He-uniform from `seed` (biases zero).
    public init(shape: MLPShape, seed: UInt64) {
        var parameters = [Float](repeating: 0, count: shape.parameterCount)
        var rng = LabRandom(seed: seed)
        let widths = shape.widths
        var at = 0
        for l in 0..<shape.layerCount {
            let fanIn = widths[l], fanOut = widths[l + 1]
            let limit = (6.0 / Double(fanIn)).squareRoot()
            for k in 0..<(fanIn * fanOut) { parameters[at + k] = Float((rng.unit() * 2 - 1) * limit) }
            at += fanIn * fanOut + fanOut
        }
        self.init(shape: shape, parameters: parameters)
    }

    /// A model with the given parameters (`shape.parameterCount` of them).
    public init(shape: MLPShape, parameters: [Float]) {
        precondition(parameters.count == shape.parameterCount, "parameter count does not match the shape")
        self.shape = shape
        self.parameters = parameters
        var offsets: [Int] = []
        let widths = shape.widths
        var at = 0
        for l in 0..<shape.layerCount {
            offsets.append(at)
            at += widths[l] * widths[l + 1] + widths[l + 1]
        }
        self.offsets = offsets
    }

    public static func == (l: MLP, r: MLP) -> Bool { l.shape == r.shape && l.parameters == r.parameters }

    /// Evaluates `batch` positions in one pass: one `cblas_sgemm` per layer.
    ///
    /// - Parameters:
    ///   - input: `batch × shape.inputs` features, row-major.
    ///   - output: `batch` values in 0...1 (the logistic of the last layer).
    ///   - workspace: scratch for the activations; grows to the largest batch seen.
    public func evaluate(_ input: UnsafePointer<Float>, batch: Int, into output: UnsafeMutablePointer<Float>, workspace: MLPWorkspace) {
        guard batch > 0 else { return }
        workspace.reserve(batch: batch, widths: shape.widths)
        parameters.withUnsafeBufferPointer { p in
            let widths = shape.widths
            var x = input
            for l in 0..<shape.layerCount {
                let fanIn = widths[l], fanOut = widths[l + 1]
                let last = l == shape.layerCount - 1
                let y = last ? output : workspace.activation(l % 2)
                let w = p.baseAddress! + offsets[l]
                Self.affine(x, batch: batch, fanIn: fanIn, weights: w, fanOut: fanOut, into: y)
                if last {
                    for i in 0..<batch { y[i] = Self.logistic(y[i]) }
                } else {
                    // Branch-free, so it vectorises: a branch on the sign of each value
                    // mispredicts about half the time.
                    for i in 0..<(batch * fanOut) { y[i] = max(y[i], 0) }
                }
                x = UnsafePointer(y)
            }
        }
    }

    /// `y = x · W + b` for a `batch × fanIn` block `x`, with `W` then `b` at `weights`.
    @inline(__always)
    static func affine(_ x: UnsafePointer<Float>, batch: Int, fanIn: Int, weights: UnsafePointer<Float>, fanOut: Int, into y: UnsafeMutablePointer<Float>) {
        let bias = weights + fanIn * fanOut
        for i in 0..<batch { (y + i * fanOut).update(from: bias, count: fanOut) }
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, Int32(batch), Int32(fanOut), Int32(fanIn),
                    1, x, Int32(fanIn), weights, Int32(fanOut), 1, y, Int32(fanOut))
    }

    @inline(__always)
    static func logistic(_ z: Float) -> Float {
        z >= 0 ? 1 / (1 + exp(-z)) : exp(z) / (1 + exp(z))
    }
}

/// Scratch activations for ``MLP/evaluate(_:batch:into:workspace:)``: two buffers used
/// in turn by the layers. One per thread; it keeps its size between calls, so a warm
/// evaluation allocates nothing.
public final class MLPWorkspace {
    private var buffers: [UnsafeMutablePointer<Float>] = []
    private var capacity = 0

    public init() {}

    deinit { for b in buffers { b.deallocate() } }

    func reserve(batch: Int, widths: [Int]) {
        let need = batch * (widths.max() ?? 1)
        guard need > capacity else { return }
        for b in buffers { b.deallocate() }
        buffers = [.allocate(capacity: need), .allocate(capacity: need)]
        capacity = need
    }

    func activation(_ k: Int) -> UnsafeMutablePointer<Float> { buffers[k] }
}

/// OpenBLAS's own threads. The lab runs one OpenBLAS thread per worker (its parallelism
/// is across matches, and a fixed single-threaded sgemm is deterministic); it loads the
/// library with one thread (`Sources/CBLAS/loader.c`), so no pool of them starts.
public enum BLASThreads {
    /// Pins OpenBLAS to one thread. Call once before evaluating from several threads.
    public static func pinToOne() { openblas_set_num_threads(1) }
    public static var current: Int { Int(openblas_get_num_threads()) }

    /// Why OpenBLAS could not be loaded (no library, or not the one named by
    /// `OPLAB_OPENBLAS`), or nil when it was: the learned players refuse to start then.
    public static var unavailable: String? { oplab_openblas_error().map { String(cString: $0) } }

    /// Throws, naming `file` and the reason, when OpenBLAS is not loaded.
    public static func require(for file: String) throws(InputError) {
        if let reason = unavailable {
            throw InputError("\(file): the learned players need OpenBLAS, which could not be loaded (\(reason)); "
                             + "install it with scripts/setup.sh (Debian: libopenblas0), or name a build in OPLAB_OPENBLAS")
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
