import Foundation
import LabCore

/// Running totals over complete blocks, from which every summary file is written.
///
/// Built only from `matches.csv` rows (never from in-memory results of the run that
/// wrote them), in block order, so a run, a resumed run and merged shards produce the
/// same bytes. Memory is O(entrants^2 + distinct block patterns), not O(matches).
struct Tally {
    let plan: TournamentPlan
    var matches: [Int]
    var wins: [Int]
    var draws: [Int]
    var losses: [Int]
    var score: [Double]
    var placeSum: [Int]
    var pairwise: PairwiseTable
    /// Per pair of entrants (i < j, key i * n + j): blocks where they met, and the sum
    /// and sum of squares of i's block score against j.
    var pairBlocks: [(count: Int, sum: Double, squares: Double)]
    /// Per table, how many blocks ended with each pattern of pairwise points: the half
    /// points of each pair of the table's entrants (in table order), 4 bits a pair. The
    /// bootstrap's resampling units.
    var patterns: [[UInt64: Int]]
    var blocks = 0
    /// Per board element and entrant (the plan's ``TournamentPlan/boardCounts``).
    var board: BoardCounts?

    init(plan: TournamentPlan) {
        self.plan = plan
        let n = plan.config.entrants.count
        matches = Array(repeating: 0, count: n)
        wins = matches
        draws = matches
        losses = matches
        placeSum = matches
        score = Array(repeating: 0, count: n)
        pairwise = PairwiseTable(entrants: n)
        pairBlocks = Array(repeating: (0, 0, 0), count: n * n)
        patterns = Array(repeating: [:], count: plan.schedule.tables.count)
        board = plan.boardCounts.map { BoardCounts(spec: $0, entrants: n) }
    }

    /// Adds one complete block (rows in file order: per rotation, per seat).
    /// - Complexity: O(rows x seats); no allocation.
    mutating func add(block rows: [MatchRow]) {
        let seats = plan.schedule.seats
        let n = plan.config.entrants.count
        let t = rows[0].table
        let table = plan.schedule.tables[t]
        // Half points of the lower table position of each pair, 4 bits per pair.
        var halves: UInt64 = 0
        for start in stride(from: 0, to: rows.count, by: seats) {
            var firsts = 0
            for k in start..<(start + seats) where rows[k].place == 1 { firsts += 1 }
            for k in start..<(start + seats) {
                let row = rows[k]
                matches[row.entrant] += 1
                board?.add(row.marks, entrant: row.entrant, place: row.place)
                placeSum[row.entrant] += row.place
                switch row.result {
                case .win: wins[row.entrant] += 1
                case .draw: draws[row.entrant] += 1
                case .loss: losses[row.entrant] += 1
                }
                if row.place == 1 { score[row.entrant] += 1 / Double(firsts) }
                // Every later seat: one pairwise game (the better place wins, equal tie).
                for l in (k + 1)..<(start + seats) {
                    let other = rows[l]
                    let mine: UInt64 = row.place < other.place ? 2 : row.place == other.place ? 1 : 0
                    let (a, b) = (position(of: row.entrant, in: table), position(of: other.entrant, in: table))
                    let shift = UInt64(Self.pairIndex(min(a, b), max(a, b), seats: seats) * 4)
                    halves += (a < b ? mine : 2 - mine) << shift
                }
            }
        }
        let games = Double(plan.schedule.matchesPerBlock)
        for a in 0..<seats {
            for b in (a + 1)..<seats {
                let h = Double((halves >> UInt64(Self.pairIndex(a, b, seats: seats) * 4)) & 0xF)
                let (i, j) = (table[a], table[b])
                pairwise.addGames(games, points: h / 2, of: i, against: j)
                // Block score of the lower-numbered entrant of the pair.
                let s = i < j ? h / 2 / games : 1 - h / 2 / games
                let key = min(i, j) * n + max(i, j)
                pairBlocks[key].count += 1
                pairBlocks[key].sum += s
                pairBlocks[key].squares += s * s
            }
        }
        patterns[t][halves, default: 0] += 1
        blocks += 1
    }

    /// Index of table positions a < b among the table's pairs, in order (0,1), (0,2), ...
    static func pairIndex(_ a: Int, _ b: Int, seats: Int) -> Int { a * (2 * seats - a - 1) / 2 + (b - a - 1) }

    private func position(of entrant: Int, in table: [Int]) -> Int {
        var p = 0
        while table[p] != entrant { p += 1 }
        return p
    }

    // MARK: Figures

    /// Bootstrap replicates for the rating intervals.
    static let replicates = 200

    struct Ratings {
        var rating: [Double]
        var lower: [Double]
        var upper: [Double]
    }

    /// Bradley-Terry ratings with percentile intervals from resampling blocks within
    /// each table (the block is the independent unit: its matches share a deal).
    func ratings() -> Ratings {
        let n = plan.config.entrants.count
        let point = BradleyTerry.fit(pairwise, anchor: plan.anchor)
        // Categories per table in a fixed order, so the resampling is reproducible.
        let categories = patterns.map { $0.keys.sorted() }
        let groups = zip(patterns, categories).map { table, keys in keys.map { Double(table[$0]!) } }
        guard blocks > 1 else {
            return Ratings(rating: point, lower: point, upper: point)
        }
        // Each category's pairwise results as a table, built once: a pair's half points
        // h over the block's games (one per rotation) are h / 2 wins, h mod 2 ties and
        // losses for the rest.
        let games = plan.schedule.matchesPerBlock
        let units: [[PairwiseTable]] = categories.enumerated().map { t, keys in
            let seating = plan.schedule.tables[t]
            return keys.map { pattern in
                var one = PairwiseTable(entrants: n)
                for a in 0..<seating.count {
                    for b in (a + 1)..<seating.count {
                        let h = (pattern >> UInt64(Self.pairIndex(a, b, seats: seating.count) * 4)) & 0xF
                        one.addGames(Double(games), points: Double(h) / 2, of: seating[a], against: seating[b])
                    }
                }
                return one
            }
        }
        let anchor = plan.anchor
        let bounds = Bootstrap.percentileIntervals(groups: groups, replicates: Self.replicates,
                                                   seed: Seeds.derive(plan.config.seed, 0, 0, SeedPurpose.auxiliary.rawValue)) { drawn in
            var table = PairwiseTable(entrants: n)
            for (t, counts) in drawn.enumerated() {
                for (c, times) in counts.enumerated() where times > 0 { table.add(units[t][c], times: times) }
            }
            return BradleyTerry.fit(table, anchor: anchor)
        }
        return Ratings(rating: point, lower: bounds.map(\.lower), upper: bounds.map(\.upper))
    }

    // MARK: Files

    static let summaryHeader = ["entrant", "strategy", "matches", "wins", "draws", "losses", "score", "score_share", "win_rate",
                                "win_rate_low", "win_rate_high", "mean_place", "rating", "rating_low", "rating_high"]
    static let pairwiseHeader = ["entrant", "opponent", "games", "points", "score", "score_low", "score_high", "elo", "elo_low",
                                 "elo_high", "blocks"]
    static let ratingsHeader = ["rank", "entrant", "strategy", "rating", "rating_low", "rating_high", "pairwise_games", "anchor"]

    /// `summary.csv`, `pairwise.csv` and `ratings.csv`, in that order.
    func files() -> (summary: String, pairwise: String, ratings: String, table: [String]) {
        let entrants = plan.config.entrants
        let n = entrants.count
        let r = ratings()
        var summary = CSV.line(Self.summaryHeader)
        var printed: [[String]] = []
        for i in 0..<n {
            let m = Double(matches[i])
            let wilson = Intervals.wilson(successes: Double(wins[i]), trials: m)
            let row = [entrants[i].name, entrants[i].strategy, String(matches[i]), String(wins[i]), String(draws[i]),
                       String(losses[i]), f(score[i]), f(m > 0 ? score[i] / m : 0), f(m > 0 ? Double(wins[i]) / m : 0),
                       f(wilson.lower), f(wilson.upper), f(m > 0 ? Double(placeSum[i]) / m : 0), elo(r.rating[i]),
                       elo(r.lower[i]), elo(r.upper[i])]
            summary += CSV.line(row)
            printed.append(row)
        }
        var pairs = CSV.line(Self.pairwiseHeader)
        for i in 0..<n {
            for j in 0..<n where j != i {
                let games = pairwise.games[i][j]
                guard games > 0 else { continue }
                let points = pairwise.points[i][j]
                let stats = pairBlocks[min(i, j) * n + max(i, j)]
                // Block scores are kept for the lower-numbered entrant; mirror them.
                let sum = i < j ? stats.sum : Double(stats.count) - stats.sum
                let squares = i < j ? stats.squares : Double(stats.count) - 2 * stats.sum + stats.squares
                let interval = Intervals.meanInterval(count: stats.count, sum: sum, sumOfSquares: squares)
                let share = points / games
                pairs += CSV.line([entrants[i].name, entrants[j].name, f(games, 1), f(points, 1), f(share), f(interval.lower),
                                   f(interval.upper), elo(Intervals.elo(score: share)), elo(Intervals.elo(score: interval.lower)),
                                   elo(Intervals.elo(score: interval.upper)), String(stats.count)])
            }
        }
        var ratings = CSV.line(Self.ratingsHeader)
        let order = (0..<n).sorted { r.rating[$0] != r.rating[$1] ? r.rating[$0] > r.rating[$1] : $0 < $1 }
        for (rank, i) in order.enumerated() {
            let games = (0..<n).reduce(0.0) { $0 + ($1 == i ? 0 : pairwise.games[i][$1]) }
            ratings += CSV.line([String(rank + 1), entrants[i].name, entrants[i].strategy, elo(r.rating[i]), elo(r.lower[i]),
                                 elo(r.upper[i]), f(games, 0), i == plan.anchor ? "yes" : "no"])
        }
        return (summary, pairs, ratings, Self.table(printed, order: order))
    }

    /// The summary as aligned text, strongest first.
    private static func table(_ rows: [[String]], order: [Int]) -> [String] {
        let columns = [0, 2, 8, 9, 10, 7, 11, 12, 13, 14]
        let titles = ["entrant", "matches", "win rate", "low", "high", "score", "place", "rating", "low", "high"]
        let body = order.map { i in columns.map { rows[i][$0] } }
        let widths = titles.indices.map { c in max(titles[c].count, body.map { $0[c].count }.max() ?? 0) }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { c, text in
                c == 0 ? text.padding(toLength: widths[c], withPad: " ", startingAt: 0)
                    : String(repeating: " ", count: widths[c] - text.count) + text
            }.joined(separator: "  ")
        }
        return [line(titles)] + body.map(line)
    }
}

/// Fixed-point text: the same bytes on every machine, and no "-0.0" for a value that
/// rounds to zero.
public enum FixedPoint {
    public static func text(_ x: Double, digits: Int) -> String {
        let text = String(format: "%.\(digits)f", x)
        return text.hasPrefix("-") && text.dropFirst().allSatisfy({ $0 == "0" || $0 == "." }) ? String(text.dropFirst()) : text
    }
}

func f(_ x: Double, _ digits: Int = 4) -> String { FixedPoint.text(x, digits: digits) }
private func elo(_ x: Double) -> String { f(x, 1) }
