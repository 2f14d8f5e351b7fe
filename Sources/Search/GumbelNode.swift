import LabCore

/// One node of a ``GumbelSearch``'s tree: the position after `action`, from the seat that
/// moves there's point of view.
struct GumbelNode {
    var action: Int32
    /// The chance outcome after `action` that this node is (``GameState/chanceOutcome``).
    var chance: Int32 = 0
    /// The seat to move at this node (-1: terminal or not reached yet).
    var mover: Int32 = -1
    var visits: Int32 = 0
    var firstChild: Int32 = -1
    var sibling: Int32 = -1
    /// Offset of this node's logits (one per action id) in the tree's logit store; -1
    /// until it is evaluated.
    var logits: Int32 = -1
    /// Offset of this node's value sums (one per seat) in the tree's value store.
    var values: Int32
    /// The network's value of the node for its mover (or the terminal score), for the
    /// completed Q of its unvisited children.
    var prior: Double = 0
    /// The mover's winning action, when the node has one (decisive moves), or -1.
    var decisive: Int32 = -1
}

extension GumbelSearch {
    /// Gumbel(0, 1) from the search's generator.
    static func gumbel(_ rng: inout LabRandom) -> Double {
        let u = max(rng.unit(), 1e-300)
        return -(-u.logarithm).logarithm
    }

    static func softmax(_ x: [Double]) -> [Double] {
        let top = x.max() ?? 0
        let e = x.map { ($0 - top).exponential }
        let sum = e.reduce(0, +)
        return e.map { $0 / sum }
    }
}

extension Double {
    @inline(__always) var logarithm: Double { Foundation_log(self) }
    @inline(__always) var logarithm2: Double { Foundation_log(self) / Foundation_log(2) }
    @inline(__always) var exponential: Double { Foundation_exp(self) }
}

#if canImport(Glibc)
import Glibc
@inline(__always) private func Foundation_log(_ x: Double) -> Double { Glibc.log(x) }
@inline(__always) private func Foundation_exp(_ x: Double) -> Double { Glibc.exp(x) }
#elseif canImport(Darwin)
import Darwin
@inline(__always) private func Foundation_log(_ x: Double) -> Double { Darwin.log(x) }
@inline(__always) private func Foundation_exp(_ x: Double) -> Double { Darwin.exp(x) }
#endif
