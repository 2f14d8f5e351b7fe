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
    /// Sees every block's rows as they are written (`oplab tournament` counts them for its
    /// findings and page instead of reading the matches file again); nil: none.
    public var rowsObserver: (any RowsObserver)?
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

    /// Prepare, play, finish: the folder (``RunFolder``), the blocks through the sinks
    /// (``BlockPipeline``), then run.json and the summaries.
    private static func play(_ plan: TournamentPlan, options: RunOptions,
                             onBlock: ((_ block: Int, _ scores: [Double?]) -> Bool)?) throws(InputError) -> RunResult {
        let threads = options.threads.map { $0 == 0 ? ProcessInfo.processInfo.activeProcessorCount : $0 }
            ?? (plan.config.threads == 0 ? ProcessInfo.processInfo.activeProcessorCount : plan.config.threads)
        let folder = try RunFolder.prepare(plan, options: options)
        defer { withExtendedLifetime(folder.lock) {} }
        // External bots quit (or are killed) when the run ends, however it ends.
        defer { plan.resources?.close() }
        if folder.complete {
            let table = try writeSummaries(folder.tally, to: folder.directory)
            RunFolder.announce(folder.notes)
            return RunResult(directory: folder.directory, blocksPlayed: 0, matchesPlayed: 0, matchesPerSecond: 0, threads: threads,
                             table: table, notes: folder.notes)
        }
        RunFolder.announce(folder.notes)
        plan.resources?.open(resultsFolder: folder.directory)
        let pipeline = try BlockPipeline(plan, folder: folder, options: options, threads: threads, onBlock: onBlock)
        let stop = try pipeline.play()
        return try pipeline.finish(stop)
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
}
