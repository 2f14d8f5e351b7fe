import ArgumentParser
import Foundation
import LabCatalog
import LabCore
import Reports
import Tournament

struct TournamentCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tournament",
        abstract: "Run a tournament from a config file into a results folder.",
        discussion: """
            Plays seat-rotation blocks on every core and writes, in results/<name>/ (or --out): \
            matches.csv (one row per seat per match, streamed block by block), summary.csv, \
            pairwise.csv, ratings.csv and run.json. Same config and seed, same CSV bytes, at any \
            thread count, shard split or resume point. A run of more than 100,000 matches (or \
            --compact, or the config's compact: true) writes matches.csv.gz instead: the same \
            rows in gzip members (zcat reads them).
            Example: oplab tournament configs/quickstart.yaml
            """
    )

    @Argument(help: "The tournament config (YAML), e.g. configs/quickstart.yaml.")
    var config: String

    @Option(help: "The results folder (default: results/<name>, or results/<name>-shard-K-of-N for a shard).")
    var out: String?

    @Option(parsing: .unconditional, help: "Worker threads (default: the config's threads; 0 = every core).", transform: CommandLineNumbers.integer)
    var threads: Int?

    @Option(parsing: .unconditional, help: "Seat-rotation blocks per table, overriding the config.", transform: CommandLineNumbers.integer)
    var blocks: Int?

    @Option(parsing: .unconditional, help: "Master seed, overriding the config.", transform: CommandLineNumbers.seed)
    var seed: UInt64?

    @Flag(help: "Finish the run in an existing results folder (after Ctrl-C, a crash or a kill).")
    var resume = false

    @Flag(help: ArgumentHelp("With --resume of compact rows: cut matches.csv.gz at a damaged gzip member that intact members follow, "
                             + "and play its blocks and every block after it again (without it, such a resume stops and says what would be lost)."))
    var dropDamaged = false

    @Flag(inversion: .prefixedNo,
          help: "Store the rows compact, in matches.csv.gz (default: the config's compact, else compact above 100,000 matches).")
    var compact: Bool?

    @Option(help: "Play shard K of N (every N-th block from block K-1), or `auto` from a Slurm array or Kubernetes Indexed Job.")
    var shard: String?

    @OptionGroup var output: OutputFlags

    @Flag(help: "Do not write report.html at the end (`oplab report` draws it later).")
    var noReport = false

    func validate() throws {
        if resume && output.force { throw ValidationError("--resume and --force exclude each other") }
        if dropDamaged && !resume { throw ValidationError("--drop-damaged applies to --resume only (it cuts a damaged matches.csv.gz of the run resumed)") }
        try reportingInputErrors {
            try CommandLineNumbers.checkThreads(threads)
            if let blocks, blocks < 1 { throw InputError("--blocks \(blocks): expected 1 or more") }
        }
    }

    func run() throws {
        try reportingInputErrors {
            var (plan, options) = try parse()
            // The rows counted as they are written: the findings and the page below need
            // not read the matches file again (a resumed run's are read: earlier rows).
            let counter = MatchesCounter(plan: plan)
            options.rowsObserver = counter
            for warning in plan.warnings { printError("warning: \(warning)") }
            output.progress(Self.header(plan, options: options))
            // Held from the first check to the report: no other writer between them.
            let lock = try TournamentRunner.holdFolder(of: plan, options: options)
            defer { withExtendedLifetime(lock) {} }
            let result = try TournamentRunner.run(plan, options: options)
            try exitIfInterrupted(result, resumed: options.resume)
            printOutput(result.table.joined(separator: "\n"))
            printOutput("\(result.matchesPlayed) matches this session on \(result.threads) thread\(result.threads == 1 ? "" : "s"), "
                  + "\(Int(result.matchesPerSecond.rounded())) matches/s; results in \(result.directory)")
            try reportAfterRun(result.directory, quiet: output.quiet, page: !noReport, counted: counter)
        }
    }

    /// The config with the flags' overrides, planned, and how to run it.
    func parse() throws(InputError) -> (TournamentPlan, RunOptions) {
        var document = try ConfigLoader.load(path: config)
        if let blocks { document = document.overriding(blocks: blocks) }
        if let seed { document = document.overriding(seed: seed) }
        let plan = try Catalog.plan(document)
        let shard = try shard.map { text throws(InputError) in try Shard.parse(text, environment: ProcessInfo.processInfo.environment) }
            ?? .whole
        var options = RunOptions(directory: out, threads: threads, resume: resume, force: output.force, shard: shard, quiet: output.quiet,
                                 compact: compact)
        options.dropDamaged = dropDamaged
        options.stopsOnSignal = true
        return (plan, options)
    }

    /// What the run plays and where: `NAME: GAME, 2 seats, 3 entrants, 3 tables x 10 blocks x 2 matches -> FOLDER`.
    static func header(_ plan: TournamentPlan, options: RunOptions) -> String {
        let s = plan.schedule
        return "\(plan.config.name): \(plan.config.game), \(s.seats) seats, \(plan.config.entrants.count) entrants, "
            + "\(s.tables.count) tables x \(s.blocksPerTable) blocks x \(s.matchesPerBlock) matches"
            + (options.shard == .whole ? "" : "; shard \(options.shard): \(s.blocks(shard: options.shard).count) blocks")
            + " -> \(TournamentRunner.directory(for: plan, options: options))"
    }
}

struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Merge the results folders of a sharded run into one.",
        discussion: """
            Takes the folders of shards 1/N ... N/N of one run (any order) and writes the files \
            one whole run would have written, byte for byte.
            Example: oplab merge results/rail-baseline-shard-*-of-4 --out results/rail-baseline
            """
    )

    @Argument(help: "The shard folders.")
    var shards: [String]

    @Option(help: "The merged results folder.")
    var out: String

    @Flag(help: "Replace the results in an existing --out folder.")
    var force = false

    func validate() throws {
        if shards.isEmpty { throw ValidationError("name at least one shard folder") }
    }

    func run() throws {
        try reportingInputErrors {
            let config = try TournamentMerge.config(of: shards[0])
            let plan = try Catalog.plan(config, startingBots: false)
            let result = try TournamentMerge.merge(plan, shards: shards, into: out, force: force)
            for note in result.notes { printError(note) }
            printOutput(result.table.joined(separator: "\n"))
            printOutput("results in \(result.directory)")
            try reportAfterRun(result.directory, quiet: false, page: true)
        }
    }
}

/// Ends the command as the signal that stopped the run would have (exit 128 + n), after
/// one line on stderr saying how far it got and how to continue; returns when no signal
/// came. A signal that came as the last block was written leaves a complete run.
/// - Parameters:
///   - resumed: whether the command was a `--resume` (the advice is then to run it again).
///   - advice: what to do next instead of the tournament's (`run the same command with --resume`).
func exitIfInterrupted(_ result: RunResult, resumed: Bool, advice: String? = nil) throws {
    guard let signal = result.interruption?.signal ?? Interruption.signal else { return }
    let name = signal == SIGINT ? "SIGINT" : signal == SIGTERM ? "SIGTERM" : "signal \(signal)"
    if let stop = result.interruption {
        printError("interrupted (\(name)) after \(stop.blocksDone) of \(stop.blocks) blocks; \(result.directory) holds them; "
                   + (advice ?? (resumed ? "run the same command again to continue" : "run the same command with --resume to continue")))
    } else {
        printError("interrupted (\(name)) as the run ended: \(result.directory) holds it whole; no report was written "
                   + "(`oplab report \(result.directory)` draws it)")
    }
    throw ExitCode(128 + signal)
}

/// The exit status of a run whose results are complete but whose `report.html` could
/// not be written (the CSV files and run.json are intact; `oplab report` draws it later).
let reportFailedStatus: Int32 = 4

/// Writes `findings.csv` and (with `page`) `report.html` beside a finished run's files,
/// and prints the findings. The run's results stand whether or not these can be made; a
/// failure is said on stderr and ends the command with ``reportFailedStatus``, so a
/// script does not take a missing page for a drawn one.
func reportAfterRun(_ directory: String, quiet: Bool, page: Bool, counted: MatchesCounter? = nil) throws {
    do {
        let lock = try ResultsLock(directory: directory)  // already held by a tournament: re-entrant
        defer { withExtendedLifetime(lock) {} }
        // The page only when asked for: --no-report reads the rows for the findings and
        // draws nothing.
        let drawn = page ? try reportPage(directory: directory, counted: counted) : nil
        let findings: [Finding]
        if let drawn { findings = drawn.findings } else {
            findings = try TournamentReport.findings(directory: directory, documentedCPU: documentedCPU(of: try? RunRecord.read(from: directory)),
                                                     counted: counted)
        }
        // The run's own files, in the folder it holds: written whole.
        try Files.writeAtomically(Finding.csv(findings), to: directory + "/findings.csv")
        printOutput(findings.isEmpty ? "findings: no verdict at the 95 % level" : "findings (95 % level):")
        for finding in findings { printOutput("  - " + finding.text) }
        if let drawn {
            let path = directory + "/report.html"
            try Files.writeAtomically(drawn.html, to: path)
            if !quiet { printError("report: \(path)") }
        }
    } catch {
        printError("error: \(directory)/report.html not written: \(error.message); the results in \(directory) are complete "
                   + "(run `oplab report \(directory)` once the cause is fixed); exit status \(reportFailedStatus)")
        throw ExitCode(reportFailedStatus)
    }
}
