import CBLAS

/// The matrix products of ``MLP/evaluate(_:batch:into:workspace:)`` and nothing else:
/// one `cblas_sgemm` per layer, on the same weights and buffers, with no bias and no
/// activation (β = 0). The evaluator benchmarks time it beside `evaluate`, so the gap
/// between the two is what the bias copies, the activations and the bookkeeping cost.
public enum BareSGEMM {
    /// Runs the `model.shape.layerCount` products of a forward pass of `batch` rows:
    /// layer l multiplies its `batch × in` input by its `in × out` weights; the last
    /// writes `batch` values (raw sums, not probabilities) into `output`.
    ///
    /// - Complexity: `batch × model.shape.multiplyAdds` multiply-adds.
    public static func layers(of model: MLP, _ input: UnsafePointer<Float>, batch: Int, into output: UnsafeMutablePointer<Float>,
                              workspace: MLPWorkspace) {
        guard batch > 0 else { return }
        let widths = model.shape.widths
        workspace.reserve(batch: batch, widths: widths)
        model.parameters.withUnsafeBufferPointer { p in
            var x = input
            for l in 0..<model.shape.layerCount {
                let fanIn = widths[l], fanOut = widths[l + 1]
                let y = l == model.shape.layerCount - 1 ? output : workspace.activation(l % 2)
                cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, Int32(batch), Int32(fanOut), Int32(fanIn),
                            1, x, Int32(fanIn), p.baseAddress! + model.offsets[l], Int32(fanOut), 0, y, Int32(fanOut))
                x = UnsafePointer(y)
            }
        }
    }
}

extension BareSGEMM {
    /// The matrix products of ``PolicyValueNet/evaluate(_:batch:logits:values:workspace:)``
    /// and nothing else: the stem, two per residual block and the two heads, each one
    /// `cblas_sgemm` on the same weights and buffers (β = 0, no bias, no activation, no
    /// skip, no softmax). Its rate beside `evaluate`'s is the fraction of a forward pass
    /// that is bare arithmetic.
    public static func layers(of net: PolicyValueNet, _ input: UnsafePointer<Float>, batch: Int, logits: UnsafeMutablePointer<Float>,
                              values: UnsafeMutablePointer<Float>, workspace: PolicyValueWorkspace) {
        guard batch > 0 else { return }
        let shape = net.shape, h = shape.width
        workspace.reserve(batch: batch, shape: shape, training: false)
        net.parameters.withUnsafeBufferPointer { p in
            func product(_ x: UnsafePointer<Float>, _ fanIn: Int, _ layer: Int, _ fanOut: Int, _ y: UnsafeMutablePointer<Float>) {
                cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, Int32(batch), Int32(fanOut), Int32(fanIn),
                            1, x, Int32(fanIn), p.baseAddress! + net.offsets[layer], Int32(fanOut), 0, y, Int32(fanOut))
            }
            let a = workspace.trunk(0), b = workspace.trunk(1), u = workspace.scratch
            product(input, shape.inputs, 0, h, a)
            var current = a, next = b
            for block in 0..<shape.blocks {
                product(current, h, 1 + 2 * block, h, u)
                product(u, h, 2 + 2 * block, h, next)
                swap(&current, &next)
            }
            let last = shape.layers.count - 1
            product(current, h, last - 1, shape.actions, logits)
            product(current, h, last, shape.seats, values)
        }
    }
}
