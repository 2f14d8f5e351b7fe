import Foundation
import LabCore

/// Why a run ends before its last block.
enum RunStop {
    /// A first SIGINT or SIGTERM (``RunOptions/stopsOnSignal``): nothing after it is written.
    case signal(Int32)
    /// A file could not be written.
    case failure(InputError)
    /// An entrant forfeited ``TournamentRunner/forfeitStreakLimit`` matches in a row (match
    /// order); the kind of its last forfeit and that match's block.
    case forfeits(entrant: Int, kind: ForfeitKind, block: Int)
    /// The caller's stop rule (a sequential test) decided.
    case decided
}

/// One stage of what a run does with each block, in block order (fastchess's split of
/// the writer, the tally, progress, the guards and the stop rules). The run hands every
/// block to its sinks in turn; the first that answers a ``RunStop`` ends the run there.
protocol BlockSink: AnyObject {
    /// Takes the next block; a reason to stop after it (the sinks after this one do not
    /// see it), or nil to go on.
    func take(_ block: MatchesLayout.BlockRows) -> RunStop?
}

/// Polls for a signal before a block is written: after a signal nothing more is.
final class SignalWatch: BlockSink {
    private let request: () -> Int32?

    init(_ request: @escaping () -> Int32?) { self.request = request }

    func take(_ block: MatchesLayout.BlockRows) -> RunStop? { request().map(RunStop.signal) }
}

/// Appends each block's rows to the matches file.
final class MatchesSink: BlockSink {
    let output: MatchesWriter
    let path: String

    init(_ output: MatchesWriter, path: String) {
        self.output = output
        self.path = path
    }

    func take(_ block: MatchesLayout.BlockRows) -> RunStop? {
        output.append(block.bytes).map { .failure(InputError("cannot append to \(path): \($0)")) }
    }
}

/// The run's totals: the tally the summaries come from, the decision times and the blocks
/// played this session; for compact rows, the same as of the last gzip member written (a
/// signal drops the blocks gathered after it).
final class RunLedger: BlockSink {
    private(set) var tally: Tally
    private(set) var times: DecisionTimes
    private(set) var played = 0
    private(set) var committed: (tally: Tally, played: Int, times: DecisionTimes)
    private let compactOutput: MatchesWriter?

    init(tally: Tally, times: DecisionTimes, compactOutput: MatchesWriter?) {
        self.tally = tally
        self.times = times
        self.compactOutput = compactOutput
        committed = (tally, 0, times)
    }

    func take(_ block: MatchesLayout.BlockRows) -> RunStop? {
        played += 1
        tally.add(block: block.rows)
        times.add(block.decisions)
        if let compactOutput, compactOutput.gatheredBlocks == 0 { committed = (tally, played, times) }
        return nil
    }
}

/// The progress line on stderr.
final class ProgressSink: BlockSink {
    let progress: Progress
    private let seats: Int

    init(_ progress: Progress, seats: Int) {
        self.progress = progress
        self.seats = seats
    }

    func take(_ block: MatchesLayout.BlockRows) -> RunStop? {
        progress.add(block: block.rows, seats: seats)
        return nil
    }
}

/// Stops the run when an entrant forfeits ``TournamentRunner/forfeitStreakLimit``
/// matches in a row: a bot that keeps failing is broken, and a run of lost matches
/// measures nothing.
final class ForfeitGuard: BlockSink {
    /// Per entrant, its forfeits in a row so far (match order).
    private var streaks: [Int]

    init(entrants: Int) { streaks = [Int](repeating: 0, count: entrants) }

    func take(_ block: MatchesLayout.BlockRows) -> RunStop? {
        var broken: RunStop?
        // An entrant sits once per match: its row says whether it forfeited.
        for row in block.rows {
            guard let kind = row.forfeit else { streaks[row.entrant] = 0; continue }
            streaks[row.entrant] += 1
            if streaks[row.entrant] >= TournamentRunner.forfeitStreakLimit, broken == nil {
                broken = .forfeits(entrant: row.entrant, kind: kind, block: row.block)
            }
        }
        return broken
    }
}

/// The live state: `run.json` rewritten every few seconds while the run plays (read by
/// `oplab status`), the clock read every 16 blocks as the progress line does. It holds
/// the run's record, which the run's end completes.
final class LiveStatus: BlockSink {
    var record: RunRecord
    private let ledger: RunLedger
    private let directory: String
    private let interval: TimeInterval
    private let remaining: Int
    private let matchesPerBlock: Int
    let clock = Date()
    private var last: Date

    init(record: RunRecord, ledger: RunLedger, directory: String, interval: TimeInterval, remaining: Int, matchesPerBlock: Int) {
        self.record = record
        self.ledger = ledger
        self.directory = directory
        self.interval = interval
        self.remaining = remaining
        self.matchesPerBlock = matchesPerBlock
        last = clock
    }

    func take(_ block: MatchesLayout.BlockRows) -> RunStop? {
        guard ledger.played % 16 == 0 else { return nil }
        let now = Date()
        guard now.timeIntervalSince(last) >= interval else { return nil }
        last = now
        record.showProgress(ledger.tally, played: ledger.played, of: remaining, matchesPerBlock: matchesPerBlock,
                            seconds: now.timeIntervalSince(clock))
        do throws(InputError) {
            try record.write(to: directory)
        } catch {
            return .failure(error)
        }
        return nil
    }
}

/// A caller's stop rule (a sequential test): after each block, every entrant's mean score
/// over its matches in the block (1 for a sole first place, 1/k for one shared by k; nil
/// for entrants not at its table); true stops the run there.
final class StopRule: BlockSink {
    private let decide: (_ block: Int, _ scores: [Double?]) -> Bool
    private let entrants: Int
    private let seats: Int

    init(_ decide: @escaping (_ block: Int, _ scores: [Double?]) -> Bool, entrants: Int, seats: Int) {
        self.decide = decide
        self.entrants = entrants
        self.seats = seats
    }

    func take(_ block: MatchesLayout.BlockRows) -> RunStop? {
        guard let number = block.rows.first?.block else { return nil }
        var sums = [Double](repeating: 0, count: entrants)
        var counts = [Int](repeating: 0, count: entrants)
        MatchRow.scores(block.rows, seats: seats) { row, points in
            sums[row.entrant] += points
            counts[row.entrant] += 1
        }
        let scores = (0..<entrants).map { counts[$0] == 0 ? nil : sums[$0] / Double(counts[$0]) }
        return decide(number, scores) ? .decided : nil
    }
}

/// Sees the rows a run writes to its matches file, block by block in the file's order,
/// on the thread that writes them: what a reader of the finished file would count,
/// without reading the file again (`oplab tournament`'s findings and page).
public protocol RowsObserver: AnyObject, Sendable {
    /// Before the first block: how many blocks the folder held already (a resumed run),
    /// whose rows this observer does not see.
    func begin(blocksBefore: Int)
    /// A written block: its rows (a match's together, seats in order) and, per match,
    /// its end reason.
    func take(rows: [MatchRow], reasons: [String])
}

/// Hands each written block to the run's ``RowsObserver``.
final class RowsSink: BlockSink {
    private let observer: any RowsObserver

    init(_ observer: any RowsObserver) { self.observer = observer }

    func take(_ block: MatchesLayout.BlockRows) -> RunStop? {
        observer.take(rows: block.rows, reasons: block.reasons)
        return nil
    }
}
