import LabCore
import Testing
@testable import Search

/// A node's legal actions and children are marked with a counter per step
/// (`MCTSWork.mark`), not set and cleared: a mark left from an earlier step must never
/// count, also when the counter wraps round.
@Suite("MCTS step marks")
struct MCTSMarkTests {
    /// A root with no children, legal actions `legal`, the mark counter at `mark`.
    func work(legal: [Int], mark: UInt32) -> MCTSWork {
        var work = MCTSWork(rng: LabRandom(seed: 3), seatCount: 2)
        work.reserveMarks(actionSpace: 8)
        work.mark = mark
        work.nodes = [MCTSNode(action: -1, mover: -1)]
        work.root = 0
        work.buffer.fill(upTo: legal.count) { out in
            for (i, a) in legal.enumerated() { out[i] = Int32(a) }
            return legal.count
        }
        return work
    }

    @Test("every legal action is expanded once, then the step selects, across the counter's wrap",
          arguments: [UInt32(5), UInt32.max - 1, UInt32.max])
    func expandsEachOnceThenSelects(start: UInt32) {
        var w = work(legal: [1, 3, 5], mark: start)
        var expanded: [Int] = []
        for _ in 0..<3 {
            let step = w.step(from: 0, mover: 0, exploration: 1.4)
            #expect(step.expanded)
            expanded.append(Int(w.nodes[Int(step.node)].action))
        }
        #expect(expanded.sorted() == [1, 3, 5])
        let fourth = w.step(from: 0, mover: 0, exploration: 1.4)
        #expect(!fourth.expanded)
        #expect([1, 3, 5].contains(Int(w.nodes[Int(fourth.node)].action)))
    }

    @Test("a child legal in an earlier step is not selected where it is not legal, also after the counter wraps round",
          arguments: [false, true])
    func staleMarksDoNotCount(wrap: Bool) {
        // Marks 1, 2 and 3 are written for actions 1, 3 and 5 (legal, and children).
        var w = work(legal: [1, 3, 5], mark: 0)
        for _ in 0..<3 { _ = w.step(from: 0, mover: 0, exploration: 1.4) }
        // The counter then wraps round at the next step but one: marks 1, 2, 3 come again
        // and must not find the entries the first steps left.
        if wrap { w.mark = UInt32.max - 1 }
        // Only action 5 is legal: every child exists, so the step selects, and only 5 may come out.
        w.buffer.fill(upTo: 1) { out in out[0] = 5; return 1 }
        for _ in 0..<4 {
            let step = w.step(from: 0, mover: 0, exploration: 1.4)
            #expect(!step.expanded)
            #expect(w.nodes[Int(step.node)].action == 5)
        }
        // Action 7, never expanded, is legal alone: it is expanded, not a stale child.
        w.buffer.fill(upTo: 1) { out in out[0] = 7; return 1 }
        let step = w.step(from: 0, mover: 0, exploration: 1.4)
        #expect(step.expanded)
        #expect(w.nodes[Int(step.node)].action == 7)
    }
}
