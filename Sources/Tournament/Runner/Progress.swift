import Foundation
import LabCore

/// Progress of a run on stderr: a live bar redrawn in place when stderr is a terminal,
/// a plain line every `interval` seconds when it is not (logs, CI, batch jobs).
final class Progress {
    private let total: Int
    private let names: [String]
    private let quiet: Bool
    private let terminal: Bool
    private let start = Date()
    private var lastPrint = Date.distantPast
    private let interval: TimeInterval
    private let startBlocks: Int
    private var blocks: Int
    private var matches = 0
    private var score: [Double]
    private var played: [Int]

    /// - Parameters:
    ///   - total: blocks in this run (or shard).
    ///   - done: blocks already in the file (a resumed run), whose per-entrant scores and
    ///     matches are `score` and `played` (for the leader).
    init(total: Int, done: Int, entrants: [String], quiet: Bool, score: [Double]? = nil, played: [Int]? = nil) {
        self.total = total
        names = entrants
        self.quiet = quiet
        terminal = isatty(STDERR_FILENO) != 0
        interval = terminal ? 0.2 : 10
        startBlocks = done
        blocks = done
        self.score = score ?? Array(repeating: 0, count: entrants.count)
        self.played = played ?? Array(repeating: 0, count: entrants.count)
    }

    /// Counts one finished block (its rows: per match, one per seat).
    func add(block rows: [MatchRow], seats: Int) {
        blocks += 1
        matches += rows.count / seats
        MatchRow.scores(rows, seats: seats) { row, points in
            score[row.entrant] += points
            played[row.entrant] += 1
        }
        // Read the clock every 16 blocks: a block can take a few microseconds.
        guard blocks % 16 == 0 || blocks == total else { return }
        let now = Date()
        if now.timeIntervalSince(lastPrint) >= interval || blocks == total {
            lastPrint = now
            draw(now)
        }
    }

    /// Ends the live bar's line.
    func finish() {
        if !quiet && terminal { Diagnostics.write("\n") }
    }

    private func draw(_ now: Date) {
        guard !quiet else { return }
        let elapsed = now.timeIntervalSince(start)
        let rate = elapsed > 0 ? Double(matches) / elapsed : 0
        let blockRate = elapsed > 0 ? Double(blocks - startBlocks) / elapsed : 0
        let eta = blockRate > 0 ? Double(total - blocks) / blockRate : nil
        var leader = ""
        if let best = played.indices.filter({ played[$0] > 0 }).max(by: { score[$0] / Double(played[$0]) < score[$1] / Double(played[$1]) }) {
            leader = String(format: "leader %@ %.3f", names[best], score[best] / Double(played[best]))
        }
        let percent = total > 0 ? Double(blocks) / Double(total) : 1
        let text: String
        if terminal {
            let width = 24
            let filled = Int(percent * Double(width))
            let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
            text = "\r\u{1B}[2K[\(bar)] \(blocks)/\(total) blocks  \(Int(rate)) matches/s  \(Self.clock(elapsed)) elapsed  ETA \(eta.map(Self.clock) ?? "?")  \(leader)"
        } else {
            text = Self.plainLine(blocks: blocks, total: total, matches: matches, rate: rate, elapsed: elapsed, eta: eta, leader: leader)
        }
        Diagnostics.write(text)
    }

    /// The line written every 10 s when stderr is not a terminal (64-bit counts written
    /// as such: a run of 10^12 blocks shows 10^12).
    static func plainLine(blocks: Int, total: Int, matches: Int, rate: Double, elapsed: Double, eta: Double?, leader: String) -> String {
        let percent = total > 0 ? Double(blocks) / Double(total) * 100 : 100
        return "progress: \(blocks)/\(total) blocks (\(FixedPoint.text(percent, digits: 1))%), \(matches) matches this session, "
            + "\(Int(rate.rounded())) matches/s, elapsed \(clock(elapsed)), ETA \(eta.map(clock) ?? "?"), \(leader)\n"
    }

    /// `H:MM:SS`, with days in front past 24 hours (`412d 03:25:07`); beyond a century,
    /// "over 100 years".
    static func clock(_ seconds: Double) -> String {
        guard seconds.isFinite else { return "?" }
        guard seconds < 100 * 365.25 * 86_400 else { return "over 100 years" }
        let s = Int(max(0, seconds).rounded())
        let (days, hours, minutes, rest) = (s / 86_400, s / 3600 % 24, s / 60 % 60, s % 60)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return days > 0 ? "\(days)d \(two(hours)):\(two(minutes)):\(two(rest))" : "\(hours):\(two(minutes)):\(two(rest))"
    }
}
