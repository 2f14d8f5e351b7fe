import Foundation
import LabCore

/// `measurements.csv`: every measurement a tuning made, appended as it ends, one line
/// each. The tuners are pure functions of their seed and the scores they are given, so
/// this file is the whole state of a tuning: a resumed run replays the lines it holds
/// (checking that each measures the point the search asks for again) and plays on from
/// the first missing one; a torn last line (a kill mid-write) is cut first.
///
/// Columns: `measurement` (from 1), `iteration`, `probe` (`plus`, `minus` or `point`),
/// one per parameter (the values measured, as in the spec), `matches`, `score_share`
/// (the candidate's, written exactly: `%.17g` reads back to the same number),
/// `objective`.
package struct TuningJournal {
    package static let fileName = "measurements.csv"

    /// One measurement.
    struct Entry: Equatable {
        var measurement: Int
        var iteration: Int
        var probe: String
        /// The point's values as written (``TuningSpec/valueText(_:of:)``).
        var values: [String]
        var matches: Int
        var share: Double
        var objective: Double
    }

    let path: String
    let parameters: [TuningParameter]
    /// The entries read back on resume, in order.
    private(set) var entries: [Entry] = []

    static func header(_ parameters: [TuningParameter]) -> String {
        (["measurement", "iteration", "probe"] + parameters.map(\.name) + ["matches", "score_share", "objective"]).joined(separator: ",")
    }

    /// Starts an empty journal at `path` (its header only).
    static func create(_ path: String, parameters: [TuningParameter]) throws(InputError) -> TuningJournal {
        try Files.writeAtomically(header(parameters) + "\n", to: path)
        return TuningJournal(path: path, parameters: parameters)
    }

    /// Reads a journal back, cutting a torn last line.
    /// - Returns: the journal and a note when bytes were dropped.
    /// - Throws: ``InputError`` naming the file and line for a header of other
    ///   parameters or a complete line that does not read.
    static func resume(_ path: String, parameters: [TuningParameter]) throws(InputError) -> (TuningJournal, String?) {
        guard let data = FileManager.default.contents(atPath: path) else { throw InputError("cannot read \(path)") }
        var text = String(decoding: data, as: UTF8.self)
        var note: String?
        if !text.hasSuffix("\n") {
            let keep = text.lastIndex(of: "\n").map { text.index(after: $0) } ?? text.startIndex
            let dropped = text.utf8.count - text[..<keep].utf8.count
            text = String(text[..<keep])
            try RunFolder.truncate(path, to: text.utf8.count)
            note = "dropped \(dropped) bytes of a torn line at the end of \(fileName)"
        }
        var journal = TuningJournal(path: path, parameters: parameters)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        guard let first = lines.first, String(first) == header(parameters) else {
            throw InputError("\(path):1: the header is not '\(header(parameters))': this run tunes other parameters; "
                + "resume with the same flags, or pass --force to start over")
        }
        let width = 3 + parameters.count + 3
        for (offset, line) in lines.dropFirst().enumerated() {
            let at = "\(path):\(offset + 2)"
            let f = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard f.count == width, let m = Int(f[0]), m == offset + 1, let iteration = Int(f[1]),
                  let matches = Int(f[width - 3]), let share = Double(f[width - 2]), let objective = Double(f[width - 1]) else {
                throw InputError("\(at): expected measurement \(offset + 1) with \(width) fields; pass --force to start over")
            }
            guard (1...RunRecord.maxCount).contains(iteration), (0...RunRecord.maxCount).contains(matches),
                  share.isFinite, (0...1).contains(share), objective.isFinite else {
                throw InputError("\(at): measurement \(m): iteration \(f[1]), matches \(f[width - 3]), score_share \(f[width - 2]), "
                    + "objective \(f[width - 1]) are out of range; expected an iteration and a count of matches in "
                    + "1...\(RunRecord.maxCount) and 0...\(RunRecord.maxCount), a score share in 0...1 and a finite objective; "
                    + "pass --force to start over")
            }
            journal.entries.append(Entry(measurement: m, iteration: iteration, probe: f[2], values: Array(f[3..<(3 + parameters.count)]),
                                         matches: matches, share: share, objective: objective))
        }
        return (journal, note)
    }

    /// Appends one entry as a line (one write, so a kill leaves at most a torn last line).
    mutating func append(_ entry: Entry) throws(InputError) {
        let fields = [String(entry.measurement), String(entry.iteration), entry.probe] + entry.values
            + [String(entry.matches), String(format: "%.17g", entry.share), String(format: "%.17g", entry.objective)]
        let line = fields.joined(separator: ",") + "\n"
        guard let handle = FileHandle(forWritingAtPath: path) else { throw InputError("cannot append to \(path)") }
        defer { try? handle.close() }
        do {
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(line.utf8))
        } catch {
            throw InputError("cannot append to \(path): \(Files.reason(error))")
        }
    }
}
