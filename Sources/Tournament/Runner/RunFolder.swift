import Foundation
import LabCore

/// A results folder made ready for a run: the first stage of a run (prepare, play,
/// finish). Held by this process alone (a second writer is refused), then fresh, resumed
/// (its blocks read back into a tally, a torn tail cut), complete, replaced or refused;
/// every check passes before anything is written.
///
/// `merge` and `tune` take their folders with ``hold(_:label:record:ownFiles:)`` and
/// ``clear(_:contents:ownFiles:)``; `sprt`, `calibrate` and a tuning's verification run
/// through ``TournamentRunner`` and so through ``prepare(_:options:)``.
struct RunFolder {
    let directory: String
    /// Held until the run ends.
    let lock: ResultsLock
    /// The rows' format: a resumed run keeps its folder's.
    let format: MatchesFormat
    /// The summaries' totals so far: the folder's blocks on resume (then each block as it
    /// is appended: the same rows in the same order, so the same bytes come out).
    var tally: Tally
    /// Blocks the folder already holds.
    var done = 0
    var startedAt = RunRecord.now()
    var resumedAt: Int?
    /// The record of the run being resumed.
    var earlier: RunRecord?
    /// What happened to the folder ("resuming results/x at block 40 of 100", ...).
    var notes: [String] = []
    /// The folder holds the whole run already: nothing to play.
    var complete = false

    var matchesPath: String { directory + "/" + format.fileName }

    /// Takes and checks the folder of `plan` run with `options`.
    /// - Throws: ``InputError`` for a folder another process holds, one that holds another
    ///   run (without `--force`) or something that is not a run, or one that cannot be
    ///   resumed (another config or shard, damaged rows); nothing is written before.
    static func prepare(_ plan: TournamentPlan, options: RunOptions) throws(InputError) -> RunFolder {
        let directory = TournamentRunner.directory(for: plan, options: options)
        let (lock, contents) = try hold(directory, label: options.directory.map { "--out \($0)" }, ownFiles: TournamentRunner.ownFiles(of: plan))
        let existing = !contents.isEmpty
        var notes: [String] = []
        var format = MatchesFormat.forNewRun(plan, option: options.compact)
        if existing && options.resume, let present = try MatchesFormat.present(in: directory) {
            if let compact = options.compact, compact != (present == .compact) {
                notes.append("\(compact ? "--compact" : "--no-compact") does not apply: \(directory) holds \(present.fileName), "
                    + "and a resumed run keeps its format")
            }
            format = present
        }
        var folder = RunFolder(directory: directory, lock: lock, format: format, tally: Tally(plan: plan), notes: notes)
        if existing && options.resume {
            try folder.resume(plan, options: options)
        } else if existing && !options.force {
            throw InputError("\(directory) already holds results; \(options.folderFlags.existingRunAdvice)")
        } else {
            if existing {
                try clear(directory, contents: contents, ownFiles: TournamentRunner.ownFiles(of: plan))
                folder.notes.append("replaced the run in \(directory)")
            } else if options.resume {
                folder.notes.append("warning: --resume: \(directory) holds no run yet; starting it")
            }
            try MatchesWriter.create(folder.matchesPath, format: format, header: MatchesLayout(plan: plan).headerLine)
        }
        return folder
    }

    /// Reads the run the folder holds back: the same config and shard, its complete blocks
    /// into the tally, a torn or damaged tail cut (``cutTail(of:blocks:dropDamaged:)``).
    private mutating func resume(_ plan: TournamentPlan, options: RunOptions) throws(InputError) {
        let record = try RunRecord.read(from: directory)
        if let difference = ResolvedConfig(plan.config).difference(from: record.config) {
            throw InputError("\(directory)/run.json: the run there was made from a different config (\(difference)); resume with the same config and overrides, or pass --force to start over")
        }
        guard record.shard == options.shard.description else {
            throw InputError("\(directory) holds shard \(record.shard), not \(options.shard)")
        }
        let blocks = plan.schedule.blocks(shard: options.shard)
        let reader = try MatchesReader(path: matchesPath, layout: MatchesLayout(plan: plan), expecting: blocks, acceptsCorruptTail: true)
        while let block = try reader.nextBlock() { tally.add(block: block.rows) }
        if let note = try Self.cutTail(of: reader, blocks: blocks, dropDamaged: options.dropDamaged) { notes.append(note) }
        done = reader.blocksRead
        resumedAt = done
        startedAt = record.started
        earlier = record
        if done == blocks.count && record.status == .complete {
            // Nothing to play: the record of the run stays as it was (its times, its
            // speed); only the deterministic summaries are written again.
            complete = true
            notes.append("\(directory) is complete (\(done) of \(blocks.count) blocks): nothing to resume")
        } else {
            notes.append("resuming \(directory) at block \(done) of \(blocks.count)")
        }
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
    ///   something a run does not write (`ownFiles`; a run killed between its first file
    ///   and `run.json` leaves only its own files, and is one).
    static func clear(_ directory: String, contents: [String], ownFiles known: [String]) throws(InputError) {
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
            Diagnostics.write(note + "\n")
        }
    }
}
