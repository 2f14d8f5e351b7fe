import Quortex
import Search

/// A model that knows nothing of Quortex, for searches driven by hand: equal logits
/// everywhere and every seat's share `value`.
final class FlatQuortexModel: PolicyValueModel {
    typealias State = QuortexState
    let featureCount = 1
    let actionCount: Int
    let seatCount = 2
    let value: Float

    init(actions: Int, value: Float) {
        actionCount = actions
        self.value = value
    }

    func encode(_ state: QuortexState, seat: Int, into features: UnsafeMutableBufferPointer<Float>) { features[0] = 0 }

    func evaluate(_ features: UnsafePointer<Float>, batch: Int, logits: UnsafeMutablePointer<Float>, values: UnsafeMutablePointer<Float>) {
        for i in 0..<(batch * actionCount) { logits[i] = 0 }
        for i in 0..<(batch * seatCount) { values[i] = value }
    }
}
