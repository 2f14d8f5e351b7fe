import Foundation
import LabCore

/// A results folder's state as `oplab status` shows it: from its run.json (rewritten
/// every few seconds while the run plays) and its lock (which process, if any, writes it).
public struct RunStatus: Sendable {
    public var directory: String
    public var record: RunRecord
    /// The pid of the process writing the folder on this machine; nil when none does.
    public var holder: Int32?
    /// Seconds since run.json was last written; nil for a record without the time.
    public var age: Double?

    /// Seconds without an update after which a running folder counts as stalled.
    public static let defaultStalledAfter: Double = 60

    /// Reads `directory` at time `now`.
    /// - Throws: ``InputError`` when the folder has no readable run.json.
    public static func read(_ directory: String, now: Date = Date()) throws(InputError) -> RunStatus {
        let record = try RunRecord.read(from: directory)
        let updated = record.updated.flatMap { ISO8601DateFormatter().date(from: $0) }
        return RunStatus(directory: directory, record: record, holder: ResultsLock.holder(of: directory),
                         age: updated.map { max(0, now.timeIntervalSince($0)) })
    }

    /// Whether the folder says it is running but has not been updated for
    /// `stalledAfter` seconds (or never said when), or no process holds it any more.
    public func isStalled(after stalledAfter: Double = defaultStalledAfter) -> Bool {
        record.status == .running && ((age ?? .infinity) > stalledAfter || holder == nil)
    }

    /// One line: state, blocks done of the total, rate, ETA, the leader with its
    /// interval, and how fresh the record is (or why it counts as stalled).
    public func line(stalledAfter: Double = defaultStalledAfter) -> String {
        let r = record
        let percent = r.blocks > 0 ? Double(r.blocksDone) / Double(r.blocks) * 100 : 100
        var parts = ["\(directory): \(r.status.rawValue)",
                     "\(NumberText.grouped(r.blocksDone))/\(NumberText.grouped(r.blocks)) blocks (\(FixedPoint.text(percent, digits: 1))%)"]
        switch r.status {
        case .running:
            parts.append("\(NumberText.grouped(Int(r.matchesPerSecond.rounded()))) matches/s")
            parts.append("ETA \(r.etaSeconds.map(Progress.clock) ?? "?")")
        case .complete, .stopped, .interrupted:
            parts.append("\(NumberText.grouped(r.matchesDone)) matches")
            parts.append("last session \(Progress.clock(r.seconds)) at \(NumberText.grouped(Int(r.matchesPerSecond.rounded()))) matches/s")
        }
        if let leader = r.leader {
            parts.append("leader \(leader.entrant) \(f(leader.scoreShare)) [\(f(leader.low)), \(f(leader.high))] over "
                + "\(NumberText.grouped(leader.matches)) matches")
        }
        let forfeits = (r.forfeits ?? []).reduce(0) { $0 + $1.timeout + $1.crash + $1.illegal + $1.malformed }
        if forfeits > 0 { parts.append("\(NumberText.grouped(forfeits)) forfeits") }
        var text = parts.joined(separator: ", ")
        if r.status == .interrupted { text += "; --resume continues it" }
        if isStalled(after: stalledAfter) {
            let since = age.map { "no update for \(Progress.clock($0))" } ?? "no update time recorded"
            text += "; STALLED: \(since)" + (holder == nil ? " and no process holds the folder (kill -9 or a lost node? --resume continues it)" : "")
        } else if r.status == .running, let age {
            text += "; updated \(Progress.clock(age)) ago" + (holder.map { $0 > 0 ? " by pid \($0)" : "" } ?? "")
        }
        return text
    }

    /// The line over several folders (shards of one run): blocks done of the total, the
    /// running folders' rate together, the latest ETA, and how many are stalled.
    public static func total(_ statuses: [RunStatus], stalledAfter: Double = defaultStalledAfter) -> String {
        let done = statuses.reduce(0) { $0 + $1.record.blocksDone }, all = statuses.reduce(0) { $0 + $1.record.blocks }
        let running = statuses.filter { $0.record.status == .running && !$0.isStalled(after: stalledAfter) }
        let rate = running.reduce(0) { $0 + $1.record.matchesPerSecond }
        let eta = running.compactMap(\.record.etaSeconds).max()
        let stalled = statuses.filter { $0.isStalled(after: stalledAfter) }.count
        let complete = statuses.filter { $0.record.status == .complete }.count
        let percent = all > 0 ? Double(done) / Double(all) * 100 : 100
        return "all \(statuses.count) folders: \(NumberText.grouped(done))/\(NumberText.grouped(all)) blocks (\(FixedPoint.text(percent, digits: 1))%), "
            + "\(complete) complete, \(running.count) running at \(NumberText.grouped(Int(rate.rounded()))) matches/s, "
            + "ETA \(eta.map(Progress.clock) ?? (running.isEmpty ? "-" : "?")), \(stalled) stalled"
    }

}
