import LabCore

/// Entrant 0's score in a plan played in memory (no results folder): its mean score per
/// match with a 95 % interval over blocks (each block's mean one observation, as the
/// lab's summaries do). What a learner's gate and anchors measure.
public struct EntrantScore: Sendable, Equatable {
    public var mean: Double
    public var lower: Double
    public var upper: Double
    public var matches: Int

    /// Plays every block of `plan` on `threads` workers. The figures are summed in block
    /// order, so they do not depend on the thread count.
    public static func measure(_ plan: TournamentPlan, threads: Int) throws(InputError) -> EntrantScore {
        let layout = MatchesLayout(plan: plan)
        let blocks = 0..<plan.schedule.blockCount
        let workers = max(1, min(threads, blocks.count))
        let seatings = try plan.seatings(forWorkers: workers)
        let master = plan.config.seed
        let seats = plan.schedule.seats
        var sum = 0.0, squares = 0.0, count = 0, matches = 0
        ParallelBlocks.run(blocks: blocks, threads: workers, window: workers * 8,
                           play: { worker, block, buffer in
                               layout.playBlock(block, master: master, seatings: seatings[min(worker, seatings.count - 1)], buffer: &buffer)
                           },
                           emit: { _, played in
                               var blockSum = 0.0, blockMatches = 0
                               MatchRow.scores(played.rows, seats: seats) { row, points in
                                   guard row.entrant == 0 else { return }
                                   blockSum += points
                                   blockMatches += 1
                               }
                               guard blockMatches > 0 else { return true }
                               let mean = blockSum / Double(blockMatches)
                               sum += mean
                               squares += mean * mean
                               count += 1
                               matches += blockMatches
                               return true
                           })
        let interval = Intervals.meanInterval(count: count, sum: sum, sumOfSquares: squares)
        return EntrantScore(mean: interval.mean, lower: interval.lower, upper: interval.upper, matches: matches)
    }
}
