import Foundation
import LabCore
import Synchronization

/// Measurements by tournaments: each probe of a calibration is a 2-seat, seat-rotated run
/// of the family at a knob value (the entrant ``Calibration/levelEntrant``) against the
/// reference, played into a scratch folder and read back from its summary.csv.
extension Calibration {
    /// The entrant whose win rate a calibration measures.
    public static let levelEntrant = "level"
    /// The entrant it is measured against.
    public static let referenceEntrant = "reference"

    /// The tournament of one probe: ``levelEntrant`` playing `strategy` against
    /// ``referenceEntrant`` playing `reference`, 2 seats, `matches` matches (whole blocks
    /// of 2, rounded up).
    public static func config(game: String, rules: [RuleSetting], map: String?, strategy: String, reference: String,
                              matches: Int, seed: UInt64, threads: Int) -> TournamentConfig {
        .headToHead(name: "calibrate", game: game, rules: rules, map: map,
                    Entrant(name: levelEntrant, strategy: strategy), Entrant(name: referenceEntrant, strategy: reference),
                    matches: matches, seed: seed, threads: threads)
    }

    /// Runs `plan` into `folder` (removing the run a previous probe left there first, so
    /// the runner has nothing to announce; no progress lines) and reads
    /// ``levelEntrant``'s measurement back from its summary.csv.
    public static func measure(_ plan: TournamentPlan, in folder: String, threads: Int) throws(InputError) -> WinRateMeasurement {
        try? FileManager.default.removeItem(atPath: folder)
        _ = try TournamentRunner.run(plan, options: RunOptions(directory: folder, threads: threads, force: true, quiet: true))
        return try WinRateMeasurement(summary: folder + "/summary.csv", entrant: levelEntrant)
    }

    /// Runs `body` with a scratch folder of its own for the probes' runs
    /// (`TMPDIR/oplab-calibrate-PID-N`, N counting the calls in this process, so that two
    /// calibrations at once do not share one), removed when it returns or throws.
    public static func withScratchFolder<R, E: Error>(_ body: (_ folder: String) throws(E) -> R) throws(E) -> R {
        let n = scratchFolders.withLock { count in
            count += 1
            return count
        }
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("oplab-calibrate-\(ProcessInfo.processInfo.processIdentifier)-\(n)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        return try body(folder)
    }

    /// Scratch folders made so far by this process.
    private static let scratchFolders = Mutex(0)
}

extension WinRateMeasurement {
    /// `entrant`'s win rate, matches and the win rate's 95 % interval over blocks
    /// (`win_rate_low`, `win_rate_high`) from a run's summary.csv.
    /// - Throws: ``InputError`` when the file cannot be read or has no such row or columns.
    public init(summary path: String, entrant: String) throws(InputError) {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { throw InputError("cannot read \(path)") }
        let lines = text.split(separator: "\n").map(String.init)
        guard let header = lines.first.flatMap({ CSV.fields(Substring($0)) }),
              let row = lines.dropFirst().compactMap({ CSV.fields(Substring($0)) }).first(where: { $0.first == entrant }),
              let m = header.firstIndex(of: "matches"), let r = header.firstIndex(of: "win_rate"),
              let lo = header.firstIndex(of: "win_rate_low"), let hi = header.firstIndex(of: "win_rate_high"),
              row.count == header.count,
              let matches = Int(row[m]), let rate = Double(row[r]), let low = Double(row[lo]), let high = Double(row[hi]) else {
            throw InputError("\(path): no row for the \(entrant) with matches and win_rate columns")
        }
        self.init(winRate: rate, low: low, high: high, matches: matches)
    }
}
