import Dispatch
import LabCore
import Synchronization

/// Plays numbered blocks on every worker thread and hands the results over in block
/// order, one at a time, while at most `window` blocks are in flight.
///
/// Workers (Dispatch's `concurrentPerform`) claim positions in `blocks` from a shared
/// counter, play them with a buffer of their own, and park each result until every
/// earlier one has been handed over; whoever parks the next one in order hands over
/// the ready run. The window bounds parked results, so memory stays flat however long
/// one block takes.
enum ParallelBlocks {
    /// - Parameters:
    ///   - blocks: block numbers in the order their results must come out (positions
    ///     are claimed by index: nothing is listed, so memory does not grow with them).
    ///   - play: plays one block on worker `w` (0..<threads; called concurrently).
    ///   - emit: receives each result in order (called under a lock, never concurrently);
    ///     returning false stops the run after the blocks already claimed.
    static func run<Result: Sendable, Blocks: RandomAccessCollection<Int> & Sendable>(
        blocks: Blocks, threads: Int, window: Int,
                                      play: @Sendable (_ worker: Int, _ block: Int, inout ActionBuffer) -> Result,
                                      emit: (Int, Result) -> Bool) {
        guard !blocks.isEmpty else { return }
        let workers = max(1, min(threads, blocks.count))
        if workers == 1 {
            var buffer = ActionBuffer()
            for block in blocks where !emit(block, play(0, block, &buffer)) { return }
            return
        }
        let count = blocks.count
        let slots = DispatchSemaphore(value: max(window, workers))
        let state = Mutex(Parked<Result>())
        withoutActuallyEscaping(emit) { emit in
            let handOver = UnsafeSendableBox(emit)
            DispatchQueue.concurrentPerform(iterations: workers) { worker in
                var buffer = ActionBuffer()
                while true {
                    slots.wait()
                    let position = state.withLock { parked -> Int? in
                        guard !parked.stopped, parked.nextClaim < count else { return nil }
                        defer { parked.nextClaim += 1 }
                        return parked.nextClaim
                    }
                    guard let position else { slots.signal(); return }
                    let result = play(worker, blocks[blocks.index(blocks.startIndex, offsetBy: position)], &buffer)
                    state.withLock { parked in
                        parked.ready[position] = result
                        while let next = parked.ready.removeValue(forKey: parked.nextEmit) {
                            let block = blocks[blocks.index(blocks.startIndex, offsetBy: parked.nextEmit)]
                            if !parked.stopped && !handOver.value(block, next) { parked.stopped = true }
                            parked.nextEmit += 1
                            slots.signal()
                        }
                    }
                }
            }
        }
    }

    private struct Parked<Result> {
        var nextClaim = 0
        var nextEmit = 0
        var ready: [Int: Result] = [:]
        var stopped = false
    }
}

/// Carries a closure that is only ever called under the lock, one caller at a time.
private struct UnsafeSendableBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
