import Foundation
import LabCore

/// One node of an ``MCTS`` tree, in the tree's arena.
struct MCTSNode {
    var action: Int32
    /// The seat that chose `action` (-1 at the root).
    var mover: Int8
    var firstChild: Int32 = -1
    var sibling: Int32 = -1
    var visits: Int32 = 0
    var available: Int32 = 0
    /// Sum of `mover`'s rewards over the visits.
    var reward: Double = 0
}

/// An ``MCTS``'s tree and scratch: the game-independent half of an iteration (choosing
/// or expanding a child, backing up), outside the generic class so it compiles once,
/// specialised, in this module.
struct MCTSWork {
    var nodes: [MCTSNode] = []
    var path: [Int32] = []
    var buffer: ActionBuffer
    var values: [Double]
    /// Scratch marks over the action space: legal actions, actions with a child.
    var legalMarks: [UInt32] = []
    var childMarks: [UInt32] = []
    /// The mark of the current step: an action is legal (has a child) here when its
    /// entry of `legalMarks` (`childMarks`) holds it, so nothing needs clearing after.
    var mark: UInt32 = 0
    /// The root of the current tree (0 unless a kept subtree became the root).
    var root: Int32 = 0
    /// `logs[n] == log(n)`, grown as availabilities grow (kept between searches).
    var logs: [Double] = [0]
    var rng: LabRandom

    init(rng: LabRandom, seatCount: Int, bufferCapacity: Int = 256) {
        self.rng = rng
        values = Array(repeating: 0, count: seatCount)
        buffer = ActionBuffer(capacity: bufferCapacity)
    }

    /// A stand-in while a search owns the real one (allocates nothing).
    static var empty: MCTSWork { MCTSWork(rng: LabRandom(seed: 0), seatCount: 0, bufferCapacity: 0) }

    /// Marks for `actionSpace` actions.
    mutating func reserveMarks(actionSpace: Int) {
        if legalMarks.count < actionSpace {
            legalMarks = Array(repeating: 0, count: actionSpace)
            childMarks = Array(repeating: 0, count: actionSpace)
            mark = 0
        }
    }

    /// A new mark for a step (the arrays are wiped when it wraps round).
    mutating func nextMark() {
        if mark == .max {
            for i in legalMarks.indices { legalMarks[i] = 0; childMarks[i] = 0 }
            mark = 0
        }
        mark &+= 1
    }

    /// From node `current`, whose legal actions are in `buffer` and whose mover is
    /// `mover`: expands one untried legal action chosen at random, or, when every legal
    /// action has a child, selects one by UCT among them.
    mutating func step(from current: Int32, mover: Int, exploration: Double) -> (node: Int32, expanded: Bool) {
        nextMark()
        let mark = mark
        // Through buffer pointers: each write through an array property checks that the
        // array is not shared, and these loops run over every legal action of a step.
        let untried: Int = legalMarks.withUnsafeMutableBufferPointer { legal in
            childMarks.withUnsafeMutableBufferPointer { children in
                nodes.withUnsafeBufferPointer { nodes in
                    for i in 0..<buffer.count { legal[buffer[i]] = mark }
                    // Children's actions are distinct, and so are the legal ones: the untried
                    // legal actions are the legal ones less the children legal here.
                    var legalChildren = 0
                    var child = nodes[Int(current)].firstChild
                    while child >= 0 {
                        let action = Int(nodes[Int(child)].action)
                        children[action] = mark
                        if legal[action] == mark { legalChildren += 1 }
                        child = nodes[Int(child)].sibling
                    }
                    return buffer.count - legalChildren
                }
            }
        }
        guard untried > 0 else { return (select(current, exploration: exploration), false) }
        // Expand one untried legal action, chosen at random.
        var k = rng.uniform(untried)
        var action = -1
        for i in 0..<buffer.count where childMarks[buffer[i]] != mark {
            if k == 0 { action = buffer[i]; break }
            k -= 1
        }
        let next = Int32(nodes.count)
        nodes.append(MCTSNode(action: Int32(action), mover: Int8(mover), sibling: nodes[Int(current)].firstChild))
        nodes[Int(current)].firstChild = next
        return (next, true)
    }

    /// The child of `parent` with the best UCT score among the legal ones (`legalMarks`),
    /// counting one more availability for each; ties: the lower action.
    mutating func select(_ parent: Int32, exploration: Double) -> Int32 {
        var best: Int32 = -1
        var bestScore = -Double.infinity
        let mark = mark
        var highest = 0
        nodes.withUnsafeMutableBufferPointer { nodes in
            legalMarks.withUnsafeBufferPointer { legal in
                logs.withUnsafeBufferPointer { logs in
                    var child = nodes[Int(parent)].firstChild
                    while child >= 0 {
                        let c = Int(child)
                        if legal[Int(nodes[c].action)] == mark {
                            nodes[c].available &+= 1
                            let available = Int(nodes[c].available)
                            // The table's entry, or the same log computed where the table
                            // is still short (it grows after the loop).
                            let logAvailable = available < logs.count ? logs[available] : log(Double(available))
                            highest = max(highest, available)
                            let visits = Double(nodes[c].visits)
                            let score = visits == 0 ? Double.infinity
                                : nodes[c].reward / visits + exploration * (logAvailable / visits).squareRoot()
                            if score > bestScore || (score == bestScore && nodes[c].action < nodes[Int(best)].action) {
                                best = child
                                bestScore = score
                            }
                        }
                        child = nodes[c].sibling
                    }
                }
            }
        }
        while logs.count <= highest { logs.append(log(Double(logs.count))) }
        return best
    }

    /// Back-up along `path`: each node counts the visit and keeps the reward (`values`)
    /// of the seat that moved into it.
    mutating func backUp() {
        for (i, n) in path.enumerated() {
            nodes[Int(n)].visits &+= 1
            let mover = Int(nodes[Int(n)].mover)
            // A kept root's own reward is its parent's business, no longer searched.
            if i > 0 && mover >= 0 { nodes[Int(n)].reward += values[mover] }
        }
    }
}
