import Foundation
import LabCore

/// How to run a checked plan: where, on how many threads, which shard, and what to do
/// with an existing results folder.
public struct RunOptions: Sendable {
    /// The most worker threads a run takes (configs and flags alike): far above any
    /// machine's cores, low enough that a typo is caught before it makes thousands of
    /// table sets.
    public static let maxThreads = 1024

    /// The results folder; nil: `results/<name>` (with `-shard-K-of-N` for a shard).
    public var directory: String?
    /// Worker threads; nil: the config's `threads` (0: every core).
    public var threads: Int?
    /// Finish the run in an existing folder.
    public var resume = false
    /// Replace the run in an existing folder.
    public var force = false
    /// Resuming compact rows: cut the file at a damaged gzip member that intact members
    /// follow, and play its blocks and every block after it again. Without it such a
    /// resume stops and says what is lost; a damaged or torn last member is cut either way.
    public var dropDamaged = false
    public var shard = Shard.whole
    public var quiet = false
    /// Store the rows compact (`matches.csv.gz`) or not; nil: the config's `compact`, else
    /// compact above ``MatchesFormat/compactAbove`` matches. A resumed run keeps the format
    /// its folder holds.
    public var compact: Bool?
    /// The rows a compact member gathers (``MatchesFormat/memberBytes``); tests set less.
    package var memberBytes = MatchesFormat.memberBytes
    /// Seconds between rewrites of run.json while the run plays (its live state, read by
    /// `oplab status`); checked every 16 blocks.
    public var statusInterval: TimeInterval = 2
    /// The flags the command offers for an existing folder, which the errors advise.
    public var folderFlags: FolderFlags = [.resume, .force]
    /// Stop cleanly on a first SIGINT or SIGTERM (``Interruption``): no block is started
    /// after it, the blocks written stand, run.json says `interrupted` with the blocks
    /// done, and the result says so (``RunResult/interruption``). Without it a signal ends
    /// the process at once, as a kill does (`--resume` continues either way).
    public var stopsOnSignal = false
    /// What asks the run to stop, polled before each block is written (tests); nil: a
    /// signal, with ``stopsOnSignal``.
    package var stopRequest: (@Sendable () -> Int32?)?

    public init(directory: String? = nil, threads: Int? = nil, resume: Bool = false, force: Bool = false,
                shard: Shard = .whole, quiet: Bool = false, compact: Bool? = nil) {
        self.directory = directory
        self.threads = threads
        self.resume = resume
        self.force = force
        self.shard = shard
        self.quiet = quiet
        self.compact = compact
    }
}

/// What a finished run reports.
public struct RunResult: Sendable {
    public var directory: String
    public var blocksPlayed: Int
    public var matchesPlayed: Int
    public var matchesPerSecond: Double
    public var threads: Int
    /// The summary as aligned text, strongest first.
    public var table: [String]
    /// What happened to an existing folder ("resumed at block 40 of 100", ...).
    public var notes: [String]
    /// Set when a signal stopped the run (``RunOptions/stopsOnSignal``).
    public var interruption: RunInterruption? = nil
}

/// A run stopped by SIGINT or SIGTERM: the signal, and the blocks the folder holds of
/// the run's (or shard's).
public struct RunInterruption: Sendable, Equatable {
    public var signal: Int32
    public var blocksDone: Int
    public var blocks: Int
}

/// Runs a tournament plan into a results folder: `matches.csv` (or compact,
/// `matches.csv.gz`) streamed block by block, then `summary.csv`, `pairwise.csv`,
/// `ratings.csv` and `run.json`.
public enum TournamentRunner {
    /// The files every run writes, in the order they are finished (a game with a board
    /// adds its counts file, ``files(of:)``; a compact run writes `matches.csv.gz` for
    /// `matches.csv`).
    public static let files = ["matches.csv", "summary.csv", "pairwise.csv", "ratings.csv", RunRecord.fileName]

    /// The folder of the external bots' logs in a results folder (`bots/ENTRANT.log`).
    public static let botLogs = "bots"

    /// Forfeits in a row by one entrant (in match order) that stop a run: a bot that
    /// keeps failing is broken, and a run of lost matches measures nothing. The files
    /// keep every complete block up to the one that reached the limit; `--resume`
    /// continues from there once the bot is fixed. (cutechess-cli stops at the first
    /// crash unless told to recover; fastchess recovers always. This is in between.)
    public static let forfeitStreakLimit = 10

    /// The files a run of `plan` writes: ``files`` and the board counts, if any.
    public static func files(of plan: TournamentPlan) -> [String] {
        files + (plan.boardCounts.map { [$0.file] } ?? [])
    }

    /// Every name a run of `plan` may leave in its folder: what `--force` replaces, and
    /// all a folder may hold without `run.json` (a run killed before writing it).
    static func ownFiles(of plan: TournamentPlan) -> [String] {
        files(of: plan) + [MatchesFormat.compact.fileName, "report.html", "findings.csv", botLogs]
    }

    public static func directory(for plan: TournamentPlan, options: RunOptions) -> String {
        if let directory = options.directory { return directory }
        let base = "results/" + plan.config.name
        return options.shard == .whole ? base : base + "-shard-\(options.shard.index)-of-\(options.shard.count)"
    }

    /// Runs (or resumes) the plan.
    ///
    /// - Parameter onBlock: called after each block, in block order, with every entrant's
    ///   mean score over its matches in the block (1 for a sole first place, 1/k for one
    ///   shared by k) (nil for entrants not at its table);
    ///   returning true stops the run there (a sequential test): the files then hold
    ///   exactly the blocks up to that one, whatever the thread count, and `run.json`
    ///   says `stopped`.
    /// - Throws: ``InputError`` for a folder that holds another run, a run that cannot
    ///   be resumed, or a file that cannot be written; nothing is written before the
    ///   folder checks pass.
    ///
    /// With ``RunOptions/stopsOnSignal``, a first SIGINT or SIGTERM stops the run after the
    /// block being written: a compact run drops the blocks gathered for its next member
    /// (a member written now would end where an uninterrupted run's does not), run.json
    /// says `interrupted` with the blocks the files hold (its leader, forfeits and times
    /// of those blocks), no summary is written, and ``RunResult/interruption`` says so.
    public static func run(_ plan: TournamentPlan, options: RunOptions,
                           onBlock: ((_ block: Int, _ scores: [Double?]) -> Bool)? = nil) throws(InputError) -> RunResult {
        guard options.stopsOnSignal else { return try play(plan, options: options, onBlock: onBlock) }
        return try Interruption.stoppable { () throws(InputError) -> RunResult in try play(plan, options: options, onBlock: onBlock) }
    }

    private static func play(_ plan: TournamentPlan, options: RunOptions,
                             onBlock: ((_ block: Int, _ scores: [Double?]) -> Bool)?) throws(InputError) -> RunResult {
        let directory = directory(for: plan, options: options)
        let layout = MatchesLayout(plan: plan)
        let shardBlocks = plan.schedule.blocks(shard: options.shard)
        let resolved = ResolvedConfig(plan.config)
        let threads = options.threads.map { $0 == 0 ? ProcessInfo.processInfo.activeProcessorCount : $0 }
            ?? (plan.config.threads == 0 ? ProcessInfo.processInfo.activeProcessorCount : plan.config.threads)
        var notes: [String] = []

        // 1. The folder: held by this process alone (a second writer is refused here),
        // then fresh, resumed or replaced; checked before anything is written.
        let (lock, contents) = try hold(directory, label: options.directory.map { "--out \($0)" }, ownFiles: ownFiles(of: plan))
        defer { withExtendedLifetime(lock) {} }
        // External bots quit (or are killed) when the run ends, however it ends.
        defer { plan.resources?.close() }
        let existing = !contents.isEmpty
        // A resumed run keeps the format of the rows its folder holds.
        var format = MatchesFormat.forNewRun(plan, option: options.compact)
        if existing && options.resume, let present = try MatchesFormat.present(in: directory) {
            if let compact = options.compact, compact != (present == .compact) {
                notes.append("\(compact ? "--compact" : "--no-compact") does not apply: \(directory) holds \(present.fileName), "
                    + "and a resumed run keeps its format")
            }
            format = present
        }
        let matchesPath = directory + "/" + format.fileName
        var done = 0
        // The summaries' totals: the file's blocks on resume, then each block as it is
        // appended (the same rows, in the same order, so the same bytes come out).
        var tally = Tally(plan: plan)
        var startedAt = RunRecord.now()
        var resumedAt: Int?
        var earlier: RunRecord?
        if existing && options.resume {
            let record = try RunRecord.read(from: directory)
            if let difference = resolved.difference(from: record.config) {
                throw InputError("\(directory)/run.json: the run there was made from a different config (\(difference)); resume with the same config and overrides, or pass --force to start over")
            }
            guard record.shard == options.shard.description else {
                throw InputError("\(directory) holds shard \(record.shard), not \(options.shard)")
            }
            let reader = try MatchesReader(path: matchesPath, layout: layout, expecting: shardBlocks, acceptsCorruptTail: true)
            while let block = try reader.nextBlock() { tally.add(block: block.rows) }
            if let note = try cutTail(of: reader, blocks: shardBlocks, dropDamaged: options.dropDamaged) { notes.append(note) }
            done = reader.blocksRead
            resumedAt = done
            startedAt = record.started
            earlier = record
            if done == shardBlocks.count && record.status == .complete {
                // Nothing to play: the record of the run stays as it was (its times, its
                // speed); only the deterministic summaries are written again.
                let table = try writeSummaries(tally, to: directory)
                notes.append("\(directory) is complete (\(done) of \(shardBlocks.count) blocks): nothing to resume")
                announce(notes)
                return RunResult(directory: directory, blocksPlayed: 0, matchesPlayed: 0, matchesPerSecond: 0, threads: threads,
                                 table: table, notes: notes)
            }
            notes.append("resuming \(directory) at block \(done) of \(shardBlocks.count)")
        } else if existing && !options.force {
            throw InputError("\(directory) already holds results; \(options.folderFlags.existingRunAdvice)")
        } else {
            if existing {
                try clear(directory, contents: contents, plan: plan)
                notes.append("replaced the run in \(directory)")
            } else if options.resume {
                notes.append("warning: --resume: \(directory) holds no run yet; starting it")
            }
            try MatchesWriter.create(matchesPath, format: format, header: layout.headerLine)
        }
        announce(notes)
        plan.resources?.open(resultsFolder: directory)

        var record = RunRecord(config: resolved, shard: options.shard.description, status: .running, blocks: shardBlocks.count,
                               blocksDone: done, matchesDone: done * plan.schedule.matchesPerBlock, threads: threads,
                               started: startedAt, seconds: 0, matchesThisSession: 0, matchesPerSecond: 0,
                               peakMemoryMB: Files.peakMemoryMB(), resumedAtBlock: resumedAt)
        record.updated = RunRecord.now()
        record.leader = tally.leader()
        try record.write(to: directory)

        // 2. The blocks still to play, in parallel, appended in order.
        let output = try MatchesWriter(appendingTo: matchesPath, format: format, compressors: threads, memberBytes: options.memberBytes)
        var times = DecisionTimes(records: earlier?.decisionTimes ?? [], entrants: plan.entrantNames)
        let progress = Progress(total: shardBlocks.count, done: done, entrants: plan.entrantNames, quiet: options.quiet,
                                score: tally.score, played: tally.matches)
        let clock = Date()
        var lastStatus = clock
        var playedBlocks = 0
        var failure: InputError?
        var stopped = false
        // A signal that stopped the run; what the files hold when it came (compact: up to
        // the last member written, the blocks gathered after it being dropped).
        let stopRequest = options.stopRequest ?? (options.stopsOnSignal ? { Interruption.signal } : { nil })
        var interruptedBy: Int32?
        let compactRows = format == .compact
        var committed = (tally: tally, played: 0, times: times)
        let entrantCount = plan.entrantNames.count
        // Per entrant, its forfeits in a row so far (match order); the entrant that
        // reached the limit, and the kind of its last forfeit.
        var streaks = [Int](repeating: 0, count: entrantCount)
        var broken: (entrant: Int, kind: ForfeitKind, block: Int)?
        let master = plan.config.seed
        // A set of tables per worker, so threads share no objects they retain per turn.
        let seatings = try plan.seatings(forWorkers: max(1, min(threads, shardBlocks.count - done)))
        ParallelBlocks.run(blocks: shardBlocks[done...], threads: threads, window: threads * 32,
                           play: { worker, block, buffer in
                               layout.playBlock(block, master: master, seatings: seatings[min(worker, seatings.count - 1)], buffer: &buffer)
                           },
                           emit: { _, played in
                               if let signal = stopRequest() {
                                   interruptedBy = signal
                                   return false
                               }
                               if let problem = output.append(played.bytes) {
                                   failure = InputError("cannot append to \(matchesPath): \(problem)")
                                   return false
                               }
                               playedBlocks += 1
                               tally.add(block: played.rows)
                               times.add(played.decisions)
                               if compactRows && output.gatheredBlocks == 0 { committed = (tally, playedBlocks, times) }
                               progress.add(block: played.rows, seats: plan.schedule.seats)
                               // An entrant sits once per match: its row says whether it forfeited.
                               for row in played.rows {
                                   guard let kind = row.forfeit else { streaks[row.entrant] = 0; continue }
                                   streaks[row.entrant] += 1
                                   if streaks[row.entrant] >= forfeitStreakLimit, broken == nil { broken = (row.entrant, kind, row.block) }
                               }
                               if broken != nil {
                                   stopped = true
                                   return false
                               }
                               // The live state: run.json rewritten every few seconds (the
                               // clock read every 16 blocks, as the progress line does).
                               if playedBlocks % 16 == 0 {
                                   let now = Date()
                                   if now.timeIntervalSince(lastStatus) >= options.statusInterval {
                                       lastStatus = now
                                       record.showProgress(tally, played: playedBlocks, of: shardBlocks.count - done,
                                                           matchesPerBlock: plan.schedule.matchesPerBlock, seconds: now.timeIntervalSince(clock))
                                       do throws(InputError) {
                                           try record.write(to: directory)
                                       } catch {
                                           failure = error
                                           return false
                                       }
                                   }
                               }
                               if let onBlock, let block = played.rows.first?.block {
                                   var sums = [Double](repeating: 0, count: entrantCount)
                                   var counts = [Int](repeating: 0, count: entrantCount)
                                   MatchRow.scores(played.rows, seats: plan.schedule.seats) { row, points in
                                       sums[row.entrant] += points
                                       counts[row.entrant] += 1
                                   }
                                   let scores = (0..<entrantCount).map { counts[$0] == 0 ? nil : sums[$0] / Double(counts[$0]) }
                                   if onBlock(block, scores) {
                                       stopped = true
                                       return false
                                   }
                               }
                               return true
                           })
        progress.finish()
        // The rows gathered for a compact member are whole blocks: written whatever
        // stopped the run, but a signal (see run).
        if interruptedBy != nil { _ = output.dropGathered() }
        let unwritten = output.finish()
        if let failure { throw failure }
        if let unwritten { throw InputError("cannot append to \(matchesPath): \(unwritten)") }
        let seconds = Date().timeIntervalSince(clock)
        let matchesPerBlock = plan.schedule.matchesPerBlock

        if let signal = interruptedBy {
            let kept = compactRows ? committed : (tally: tally, played: playedBlocks, times: times)
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
            try record.write(to: directory)
            return RunResult(directory: directory, blocksPlayed: kept.played, matchesPlayed: record.matchesThisSession,
                             matchesPerSecond: record.matchesPerSecond, threads: threads, table: [], notes: notes,
                             interruption: RunInterruption(signal: signal, blocksDone: kept.tally.blocks, blocks: shardBlocks.count))
        }

        // 3. The summaries.
        guard tally.blocks == shardBlocks.count || stopped else {
            throw InputError("\(matchesPath) holds \(tally.blocks) of \(shardBlocks.count) blocks after the run")
        }
        let table = try writeSummaries(tally, to: directory)
        let matches = playedBlocks * plan.schedule.matchesPerBlock
        record.status = stopped ? .stopped : .complete
        record.forfeits = tally.forfeitRecords
        record.blocksDone = tally.blocks
        record.matchesDone = tally.blocks * plan.schedule.matchesPerBlock
        record.finished = RunRecord.now()
        record.seconds = seconds
        record.matchesThisSession = matches
        record.matchesPerSecond = seconds > 0 ? Double(matches) / seconds : 0
        record.peakMemoryMB = Files.peakMemoryMB()
        record.decisionTimes = times.records(entrants: plan.entrantNames)
        record.updated = record.finished
        record.etaSeconds = nil
        record.leader = tally.leader()
        try record.write(to: directory)
        if let broken {
            let name = plan.entrantNames[broken.entrant]
            throw InputError("\(name) forfeited \(forfeitStreakLimit) matches in a row (the last by \(broken.kind.rawValue)); "
                + "the run stopped after block \(broken.block) with \(tally.blocks) of \(shardBlocks.count) blocks in \(directory) "
                + "(the bots' logs are in \(directory)/\(botLogs)/). Fix the bot, then \(options.folderFlags.continueAdvice)")
        }
        return RunResult(directory: directory, blocksPlayed: playedBlocks, matchesPlayed: matches,
                         matchesPerSecond: record.matchesPerSecond, threads: threads, table: table, notes: notes)
    }

    /// Writes `summary.csv`, `pairwise.csv`, `ratings.csv` and the board counts (if the
    /// game has them) from a tally.
    static func writeSummaries(_ tally: Tally, to directory: String) throws(InputError) -> [String] {
        let files = tally.files()
        try Files.writeAtomically(files.summary, to: directory + "/summary.csv")
        try Files.writeAtomically(files.pairwise, to: directory + "/pairwise.csv")
        try Files.writeAtomically(files.ratings, to: directory + "/ratings.csv")
        if let board = tally.board {
            try Files.writeAtomically(board.file(entrantNames: tally.plan.entrantNames), to: directory + "/" + board.spec.file)
        }
        return files.table
    }

    /// Takes the results folder of `plan` run with `options` for a caller that holds it
    /// beyond the run (to draw its report): checked first, as the run checks it, so a
    /// refused folder gets no lock file.
    public static func holdFolder(of plan: TournamentPlan, options: RunOptions) throws(InputError) -> ResultsLock {
        let directory = directory(for: plan, options: options)
        try OutputPaths.checkFolder(directory, label: options.directory.map { "--out \($0)" } ?? directory,
                                    record: RunRecord.fileName, ownFiles: ownFiles(of: plan))
        return try ResultsLock(directory: directory)
    }

    /// Takes `directory` for writing: its lock (refused while another process holds it),
    /// then drops what a killed or failed writer left half-written. Returns the lock and
    /// the folder's contents (the lock file left out).
    ///
    /// Before the lock is taken or the folder made, the folder is checked
    /// (``OutputPaths/checkFolder(_:label:record:ownFiles:)``): a refusal leaves no lock
    /// file and no folder behind.
    static func hold(_ directory: String, label: String? = nil, record: String = RunRecord.fileName,
                     ownFiles: [String]) throws(InputError) -> (lock: ResultsLock, contents: [String]) {
        try OutputPaths.checkFolder(directory, label: label ?? directory, record: record, ownFiles: ownFiles)
        let lock = try ResultsLock(directory: directory)
        Files.removeLeftovers(in: directory)
        return (lock, ResultsLock.contents(of: directory))
    }

    /// Removes a run's files from `directory` for a run that replaces it (`--force`).
    /// - Throws: when the folder is not a results folder: it has no `run.json` and holds
    ///   something a run of `plan` does not write (a run killed between its first file and
    ///   `run.json` leaves only its own files, and is one).
    static func clear(_ directory: String, contents: [String], plan: TournamentPlan) throws(InputError) {
        let known = ownFiles(of: plan)
        guard contents.contains(RunRecord.fileName) || contents.allSatisfy(known.contains) else {
            throw InputError("\(directory) holds files but no \(RunRecord.fileName): it is not a results folder, and --force "
                + "replaces only results; choose another --out, or empty the folder")
        }
        for file in known { try? FileManager.default.removeItem(atPath: directory + "/" + file) }
    }

    /// Prints the notes on what happened to the folder at once, on stderr, even when
    /// quiet (which silences progress only): a long run says what it does before it does it.
    static func announce(_ notes: [String]) {
        for note in notes {
            FileHandle.standardError.write(Data((note + "\n").utf8))
        }
    }

    /// Cuts what follows the last complete block of a file read to its end by `reader`:
    /// a torn line or unfinished block of `matches.csv`; a torn or corrupt last gzip member
    /// of `matches.csv.gz` (its blocks are played again). A corrupt member that intact
    /// members follow (damage, not a kill mid-write) is cut, with all after it, only with
    /// `dropDamaged`. Returns what was dropped, for the notes; nil when nothing was.
    /// - Parameter blocks: the blocks the file holds in order (the run's or its shard's).
    /// - Throws: when a complete member ends inside a block (oplab's members hold whole
    ///   blocks), a damaged member has intact members after it and `dropDamaged` is off
    ///   (naming the member, its blocks and theirs), or the file cannot be truncated;
    ///   nothing is written before.
    static func cutTail(of reader: MatchesReader, blocks: ShardBlocks, dropDamaged: Bool) throws(InputError) -> String? {
        let path = reader.path
        switch reader.source.format {
        case .plain:
            guard reader.tailLength > 0 else { return nil }
            try truncate(path, to: reader.validLength)
            return "dropped \(reader.tailLength) bytes of an unfinished block at the end of matches.csv"
        case .compact:
            guard reader.tailLength == 0 else {
                throw InputError("\(path): its complete gzip members end inside a block (after block \(reader.blocksRead) of the "
                    + "file): oplab's members hold whole blocks, so this is not a file a run wrote; pass --force to start over")
            }
            let length: Int
            do { length = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0 } catch {
                throw InputError("cannot read \(path): \(Files.reason(error))")
            }
            let kept = reader.source.completeLength
            guard length > kept else { return nil }
            if case .corrupt(let why) = reader.source.damage,
               let after = try GzipMemberReader.followers(of: path, after: kept) {
                let lost = damagedMember(reader, why: why, followers: after, blocks: blocks)
                guard dropDamaged else {
                    throw InputError("\(path): \(lost.text). --resume stops here rather than throw them away: pass --drop-damaged to "
                        + "cut the file at that member and play every block from \(lost.from) on again, or --force to play the whole run again")
                }
                try truncate(path, to: kept)
                return "dropped \(length - kept) bytes of matches.csv.gz from its damaged gzip member \(reader.source.membersRead + 1) "
                    + "(at byte \(kept); \(why)) to the end, with the \(after.members) intact members after it (--drop-damaged): "
                    + "every block from \(lost.from) on is played again"
            }
            try truncate(path, to: kept)
            return switch reader.source.damage {
            case .corrupt(let why):
                "dropped \(length - kept) bytes from a damaged gzip member (\(why)) to the end of matches.csv.gz; their blocks are played again"
            case .torn, nil:
                "dropped \(length - kept) bytes of a torn gzip member at the end of matches.csv.gz; its blocks are played again"
            }
        }
    }

    /// What a damaged member followed by intact ones holds, in words: its number and byte
    /// offset, the blocks it held and those of the members after it (read from their first
    /// and last rows); and the first block lost with it (`block 1200`).
    private static func damagedMember(_ reader: MatchesReader, why: String, followers after: GzipMemberReader.Followers,
                                      blocks: ShardBlocks) -> (text: String, from: String) {
        let lostAt = reader.blocksRead
        let first = lostAt < blocks.count ? blocks[lostAt] : nil
        let from = first.map { "block \($0)" } ?? "the end of the run"
        var text = "gzip member \(reader.source.membersRead + 1) (counting the header's as the first), at byte "
            + "\(reader.source.completeLength), is damaged (\(why))"
        // The position in `blocks` of the block a row names.
        func position(ofRow row: [UInt8]) -> Int? {
            guard let fields = CSV.fields(Substring(String(decoding: row, as: UTF8.self))), fields.count > 1,
                  let block = Int(fields[1]), block >= blocks.offset, (block - blocks.offset) % blocks.step == 0 else { return nil }
            let p = (block - blocks.offset) / blocks.step
            return p < blocks.count ? p : nil
        }
        let members = "\(after.members) intact member\(after.members == 1 ? "" : "s")"
        if let first, let start = position(ofRow: after.firstRow), let end = position(ofRow: after.lastRow), start > lostAt, end >= start {
            let held = start - lostAt
            text += "; it held \(held == 1 ? "block \(first)" : "\(held) blocks, \(first) to \(blocks[start - 1])"), and the \(members) "
                + "after it hold \(end - start + 1) more, blocks \(blocks[start]) to \(blocks[end])"
        } else {
            text += "; the blocks from \(from) on were in it, and \(members) (\(after.rows) rows) follow it"
        }
        return (text, from)
    }

    static func truncate(_ path: String, to length: Int) throws(InputError) {
        guard let handle = FileHandle(forWritingAtPath: path) else { throw InputError("cannot open \(path) to drop its torn tail") }
        defer { try? handle.close() }
        do { try handle.truncate(atOffset: UInt64(length)) } catch {
            throw InputError("cannot truncate \(path): \(Files.reason(error))")
        }
    }
}
