import Foundation
import LabCore

/// The play and finish stages of a run in a prepared folder: the blocks still to play,
/// in parallel, handed in order to the sinks (signal watch, matches file, ledger,
/// progress, forfeit guard, live status, stop rule); then `run.json` and the summaries.
final class BlockPipeline {
    private let plan: TournamentPlan
    private let folder: RunFolder
    private let options: RunOptions
    private let threads: Int
    private let blocks: ShardBlocks
    private let output: MatchesWriter
    private let ledger: RunLedger
    private let progress: Progress
    private let status: LiveStatus
    private let sinks: [any BlockSink]

    /// Writes the run's first `run.json` (running) and opens the matches file.
    init(_ plan: TournamentPlan, folder: RunFolder, options: RunOptions, threads: Int,
         onBlock: ((_ block: Int, _ scores: [Double?]) -> Bool)?) throws(InputError) {
        self.plan = plan
        self.folder = folder
        self.options = options
        self.threads = threads
        blocks = plan.schedule.blocks(shard: options.shard)
        let done = folder.done, matchesPerBlock = plan.schedule.matchesPerBlock
        var record = RunRecord(config: ResolvedConfig(plan.config), shard: options.shard.description, status: .running,
                               blocks: blocks.count, blocksDone: done, matchesDone: done * matchesPerBlock, threads: threads,
                               started: folder.startedAt, seconds: 0, matchesThisSession: 0, matchesPerSecond: 0,
                               peakMemoryMB: Files.peakMemoryMB(), resumedAtBlock: folder.resumedAt)
        record.updated = RunRecord.now()
        record.leader = folder.tally.leader()
        try record.write(to: folder.directory)
        output = try MatchesWriter(appendingTo: folder.matchesPath, format: folder.format, compressors: threads, memberBytes: options.memberBytes)
        ledger = RunLedger(tally: folder.tally, times: DecisionTimes(records: folder.earlier?.decisionTimes ?? [], entrants: plan.entrantNames),
                           compactOutput: folder.format == .compact ? output : nil)
        progress = Progress(total: blocks.count, done: done, entrants: plan.entrantNames, quiet: options.quiet,
                            score: folder.tally.score, played: folder.tally.matches)
        status = LiveStatus(record: record, ledger: ledger, directory: folder.directory, interval: options.statusInterval,
                            remaining: blocks.count - done, matchesPerBlock: matchesPerBlock)
        let stopRequest = options.stopRequest ?? (options.stopsOnSignal ? { Interruption.signal } : { nil })
        // The observer right after the writer: a block written is a block it sees, whatever
        // stops the run after it.
        options.rowsObserver?.begin(blocksBefore: done)
        let observer = options.rowsObserver.map { [RowsSink($0)] as [any BlockSink] } ?? []
        sinks = [SignalWatch(stopRequest), MatchesSink(output, path: folder.matchesPath)] + observer + [ledger,
                 ProgressSink(progress, seats: plan.schedule.seats), ForfeitGuard(entrants: plan.entrantNames.count), status]
            + (onBlock.map { [StopRule($0, entrants: plan.entrantNames.count, seats: plan.schedule.seats)] } ?? [])
    }

    /// Plays the blocks still to play, in parallel, and hands each to the sinks in block
    /// order; returns why the run stopped early, if it did. The matches file is finished
    /// (a compact run's gathered blocks written, or dropped after a signal).
    func play() throws(InputError) -> RunStop? {
        let layout = MatchesLayout(plan: plan), master = plan.config.seed
        // A set of tables per worker, so threads share no objects they retain per turn.
        let seatings = try plan.seatings(forWorkers: max(1, min(threads, blocks.count - folder.done)))
        var stop: RunStop?
        ParallelBlocks.run(blocks: blocks[folder.done...], threads: threads, window: threads * 32,
                           play: { worker, block, buffer in
                               layout.playBlock(block, master: master, seatings: seatings[min(worker, seatings.count - 1)], buffer: &buffer)
                           },
                           emit: { _, played in
                               for sink in sinks {
                                   if let reason = sink.take(played) {
                                       stop = reason
                                       return false
                                   }
                               }
                               return true
                           })
        progress.finish()
        // The rows gathered for a compact member are whole blocks: written whatever
        // stopped the run, but a signal (see TournamentRunner.run).
        if case .signal = stop { _ = output.dropGathered() }
        let unwritten = output.finish()
        if case .failure(let failure) = stop { throw failure }
        if let unwritten { throw InputError("cannot append to \(folder.matchesPath): \(unwritten)") }
        return stop
    }

    /// Completes `run.json` and writes the summaries; after a signal, `run.json` says
    /// `interrupted` with what the files hold and no summary is written.
    /// - Throws: when the file does not hold the run's blocks, or an entrant forfeited too
    ///   often in a row (after the files are written: `--resume` goes on from them).
    func finish(_ stop: RunStop?) throws(InputError) -> RunResult {
        let seconds = Date().timeIntervalSince(status.clock)
        if case .signal(let signal) = stop { return try interrupted(by: signal, seconds: seconds) }
        let tally = ledger.tally, matchesPerBlock = plan.schedule.matchesPerBlock
        guard tally.blocks == blocks.count || stop != nil else {
            throw InputError("\(folder.matchesPath) holds \(tally.blocks) of \(blocks.count) blocks after the run")
        }
        let table = try TournamentRunner.writeSummaries(tally, to: folder.directory)
        let matches = ledger.played * matchesPerBlock
        var record = status.record
        record.status = stop == nil ? .complete : .stopped
        record.forfeits = tally.forfeitRecords
        record.blocksDone = tally.blocks
        record.matchesDone = tally.blocks * matchesPerBlock
        record.finished = RunRecord.now()
        record.seconds = seconds
        record.matchesThisSession = matches
        record.matchesPerSecond = seconds > 0 ? Double(matches) / seconds : 0
        record.peakMemoryMB = Files.peakMemoryMB()
        record.decisionTimes = ledger.times.records(entrants: plan.entrantNames)
        record.updated = record.finished
        record.etaSeconds = nil
        record.leader = tally.leader()
        try record.write(to: folder.directory)
        if case .forfeits(let entrant, let kind, let block) = stop {
            let directory = folder.directory
            throw InputError("\(plan.entrantNames[entrant]) forfeited \(TournamentRunner.forfeitStreakLimit) matches in a row (the last by "
                + "\(kind.rawValue)); the run stopped after block \(block) with \(tally.blocks) of \(blocks.count) blocks in \(directory) "
                + "(the bots' logs are in \(directory)/\(TournamentRunner.botLogs)/). Fix the bot, then \(options.folderFlags.continueAdvice)")
        }
        return RunResult(directory: folder.directory, blocksPlayed: ledger.played, matchesPlayed: matches,
                         matchesPerSecond: record.matchesPerSecond, threads: threads, table: table, notes: folder.notes)
    }

    /// `run.json` after a signal: the blocks the files hold (compact: up to the last member
    /// written), their leader, forfeits and times.
    private func interrupted(by signal: Int32, seconds: Double) throws(InputError) -> RunResult {
        let kept = folder.format == .compact ? ledger.committed : (tally: ledger.tally, played: ledger.played, times: ledger.times)
        let matchesPerBlock = plan.schedule.matchesPerBlock
        var record = status.record
        record.status = .interrupted
        record.blocksDone = kept.tally.blocks
        record.matchesDone = kept.tally.blocks * matchesPerBlock
        record.seconds = seconds
        record.matchesThisSession = kept.played * matchesPerBlock
        record.matchesPerSecond = seconds > 0 ? Double(record.matchesThisSession) / seconds : 0
        record.peakMemoryMB = Files.peakMemoryMB()
        record.forfeits = kept.tally.forfeitRecords
        record.decisionTimes = kept.times.records(entrants: plan.entrantNames)
        record.updated = RunRecord.now()
        record.etaSeconds = nil
        record.leader = kept.tally.leader()
        try record.write(to: folder.directory)
        return RunResult(directory: folder.directory, blocksPlayed: kept.played, matchesPlayed: record.matchesThisSession,
                         matchesPerSecond: record.matchesPerSecond, threads: threads, table: [], notes: folder.notes,
                         interruption: RunInterruption(signal: signal, blocksDone: kept.tally.blocks, blocks: blocks.count))
    }
}
