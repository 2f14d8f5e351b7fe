import Foundation
import LabCore

/// The check every tuning ends with, so that a tuning result is never quoted without it:
/// three seat-rotated tournaments with a seed of their own (the request's seed + 1),
/// each a results folder under `verify/`:
/// - `tuned-vs-start`: the tuned spec against the spec the search started from;
/// - `tuned-vs-field` and `start-vs-field`: each of them against every field spec (a
///   gauntlet, on the same deals).
///
/// The figures are read back from the tournaments' `pairwise.csv` and `summary.csv`:
/// scores with their 95 % intervals over seat-rotation blocks.
public struct TuningVerification: Sendable, Equatable {
    /// One comparison: an entrant's score against an opponent (or the whole field).
    public struct Row: Sendable, Equatable {
        /// `tuned-vs-start`, `tuned-vs-field` or `start-vs-field`.
        public var comparison: String
        public var entrant: String
        /// An opponent's entrant name, or `field` for the pooled score share.
        public var opponent: String
        public var matches: Int
        public var score: Double
        public var low: Double
        public var high: Double

    }

    public var rows: [Row]

    public static let comparisons = ["tuned-vs-start", "tuned-vs-field", "start-vs-field"]

    /// The tuned spec against the start.
    public var tunedVsStart: Row { rows.first { $0.comparison == "tuned-vs-start" }! }
    /// The tuned spec's pooled score share against the field.
    public var tunedVsField: Row { rows.first { $0.comparison == "tuned-vs-field" && $0.opponent == "field" }! }
    /// The start's pooled score share against the field.
    public var startVsField: Row { rows.first { $0.comparison == "start-vs-field" && $0.opponent == "field" }! }

    /// Plays (or resumes, or reads back) the three tournaments into `folder`.
    /// - Parameter progress: one line as each tournament ends (the tournaments' own
    ///   progress lines are not shown).
    static func run(_ request: TuningRequest, tuned: String, in folder: String, threads: Int,
                    plan makePlan: (TournamentConfig) throws(InputError) -> TournamentPlan,
                    progress: (String) -> Void) throws(InputError) -> TuningVerification {
        let seed = request.verificationSeed
        let field = TuningRun.fieldEntrants(request.field)
        let perOpponent = (request.verifyMatches + 2 * field.count - 1) / (2 * field.count)
        let configs = [
            TournamentConfig.headToHead(name: "tuned-vs-start", game: request.game, rules: request.rules, map: request.map,
                                        Entrant(name: "tuned", strategy: tuned), Entrant(name: "start", strategy: request.startSpec),
                                        matches: request.verifyMatches, seed: seed, threads: 0),
            TournamentConfig(name: "tuned-vs-field", game: request.game, rules: request.rules, map: request.map, seats: 2,
                             entrants: [Entrant(name: "tuned", strategy: tuned)] + field, format: .gauntlet, candidate: "tuned",
                             blocks: perOpponent, seed: seed, threads: 0),
            TournamentConfig(name: "start-vs-field", game: request.game, rules: request.rules, map: request.map, seats: 2,
                             entrants: [Entrant(name: "start", strategy: request.startSpec)] + field, format: .gauntlet, candidate: "start",
                             blocks: perOpponent, seed: seed, threads: 0),
        ]
        var rows: [Row] = []
        for config in configs {
            let directory = folder + "/" + config.name
            let resume = FileManager.default.fileExists(atPath: directory + "/" + RunRecord.fileName)
            let result = try TournamentRunner.run(try makePlan(config), options: RunOptions(directory: directory, threads: threads,
                                                                                           resume: resume, force: !resume, quiet: true))
            let candidate = config.entrants[0].name
            rows += try Self.rows(directory + "/pairwise.csv", expected: Tally.pairwiseHeader, comparison: config.name, entrant: candidate,
                                  columns: ("games", "score", "score_low", "score_high"))
            if config.name != "tuned-vs-start" {
                let pooled = try Self.rows(directory + "/summary.csv", expected: Tally.summaryHeader, comparison: config.name,
                                           entrant: candidate, columns: ("matches", "score_share", "score_share_low", "score_share_high"))
                guard !pooled.isEmpty else { throw InputError("\(directory)/summary.csv: no row for \(candidate)") }
                rows += pooled
            }
            let last = rows[rows.count - 1]
            progress("verify: \(config.name), \(last.matches) matches\(result.matchesPlayed == 0 ? " (done before)" : ", \(Int(result.matchesPerSecond)) matches/s"): "
                + "\(candidate) scored \(Calibration.number(last.score, 4)) [\(Calibration.number(last.low, 4)), \(Calibration.number(last.high, 4))]")
        }
        return TuningVerification(rows: rows)
    }

    /// `verification.csv`: one line per row, with the Elo difference each score implies.
    public var csv: String {
        var lines = ["comparison,entrant,opponent,matches,score,score_low,score_high,elo,elo_low,elo_high"]
        for r in rows {
            let figures = [r.score, r.low, r.high].map { Calibration.number($0, 4) } + [r.score, r.low, r.high].map { Self.eloText($0) }
            lines.append(([r.comparison, r.entrant, r.opponent, String(r.matches)] + figures).joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The Elo difference a score implies (``Intervals/elo(score:)``, as pairwise.csv
    /// writes it), with one decimal.
    static func eloText(_ score: Double) -> String { Calibration.number(Intervals.elo(score: score), 1) }

    /// The verdicts in words, one line each: whether the tuned spec is stronger than the
    /// start (its score's interval above 1/2), and for a target how far the tuned share
    /// lands from it.
    public func verdicts(objective: TuningObjective) -> [String] {
        func interval(_ r: Row) -> String {
            "\(Calibration.number(r.score, 4)) [\(Calibration.number(r.low, 4)), \(Calibration.number(r.high, 4))]"
        }
        func elo(_ r: Row) -> String {
            "\(Self.eloText(r.score)) Elo [\(Self.eloText(r.low)), \(Self.eloText(r.high))]"
        }
        var lines: [String] = []
        let vs = tunedVsStart
        let margin = vs.low > 0.5 ? "stronger than the start: its interval excludes 0"
            : vs.high < 0.5 ? "weaker than the start: its interval excludes 0"
            : vs.low == vs.high ? "the same play as the start on every deal (the tuned values play as the start's)"
            : "no difference from the start shown at 95 %"
        lines.append("tuned against start: score \(interval(vs)), \(elo(vs)) over \(vs.matches) matches: \(margin)")
        let t = tunedVsField, s = startVsField
        lines.append("tuned against the field: score share \(interval(t)) over \(t.matches) matches; start: \(interval(s))"
            + (t.low > s.high ? " (tuned's lower bound above start's upper bound)" : ""))
        if case .target(let p) = objective {
            let distance = abs(t.score - p)
            lines.append("target \(Calibration.number(p, 4)): tuned lands \(Calibration.number(distance, 4)) from it"
                + (distance <= 0.03 ? " (within 0.03)" : " (more than 0.03 away)")
                + (t.low <= p && p <= t.high ? "; the target is inside its interval" : "; the target is outside its interval"))
        }
        return lines
    }

    /// The rows of a tournament's `pairwise.csv` (one per opponent) or `summary.csv`
    /// (`opponent` column absent: the pooled `field` row) whose entrant is `entrant`.
    static func rows(_ path: String, expected: [String], comparison: String, entrant: String,
                     columns: (matches: String, score: String, low: String, high: String)) throws(InputError) -> [Row] {
        let table = try CSVFile.read(path, expected: expected)
        let name = try table.column("entrant")
        let opponent = table.header.contains("opponent") ? try table.column("opponent") : nil
        let (matches, score, low, high) = (try table.column(columns.matches), try table.column(columns.score),
                                           try table.column(columns.low), try table.column(columns.high))
        var out: [Row] = []
        for row in table.rows where row.text(name) == entrant {
            out.append(Row(comparison: comparison, entrant: entrant, opponent: opponent.map(row.text) ?? "field",
                           matches: try row.count(matches), score: try row.double(score), low: try row.double(low),
                           high: try row.double(high)))
        }
        return out
    }
}
