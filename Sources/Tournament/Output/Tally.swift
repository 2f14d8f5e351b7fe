import Foundation
import LabCore

/// Running totals over complete blocks, from which every summary file is written.
///
/// Built only from `matches.csv` rows (never from in-memory results of the run that
/// wrote them), in block order, so a run, a resumed run and merged shards produce the
/// same bytes. Memory is O(entrants^2 + tables x seats^2 + distinct block patterns), not
/// O(matches).
///
/// The block is the independent unit (its matches share a deal and, by common random
/// numbers, each seat's random stream), so every interval is computed over blocks: the
/// tally keeps, per table, each entrant's per-block figures and each pair's per-block
/// score as sums and sums of squares (``Intervals/BlockSums``), the tables being strata.
struct Tally {
    let plan: TournamentPlan
    var matches: [Int]
    var wins: [Int]
    var draws: [Int]
    var losses: [Int]
    var score: [Double]
    var placeSum: [Int]
    /// Per entrant, matches it forfeited, by ``ForfeitKind`` (in `allCases` order).
    var forfeits: [[Int]]
    var pairwise: PairwiseResults
    /// Per table and table position: the entrant's win rate, score share and mean place
    /// over its matches in each block, summed over the table's blocks.
    var seatBlocks: [[SeatBlocks]]
    /// Per table and pair of table positions a < b (``pairIndex(_:_:seats:)``): the block
    /// score of position a against position b (its pairwise points over the block's games).
    var pairBlocks: [[Intervals.BlockSums]]
    /// Per table position, the current block's wins, score, place sum and matches
    /// (reused, so adding a block allocates nothing).
    private var current: [(wins: Double, score: Double, place: Double, matches: Int)]
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
        forfeits = Array(repeating: Array(repeating: 0, count: ForfeitKind.allCases.count), count: n)
        score = Array(repeating: 0, count: n)
        pairwise = PairwiseResults(entrants: n)
        let seats = plan.schedule.seats
        seatBlocks = Array(repeating: Array(repeating: SeatBlocks(), count: seats), count: plan.schedule.tables.count)
        pairBlocks = Array(repeating: Array(repeating: Intervals.BlockSums(), count: seats * (seats - 1) / 2),
                           count: plan.schedule.tables.count)
        current = Array(repeating: (0, 0, 0, 0), count: seats)
        patterns = Array(repeating: [:], count: plan.schedule.tables.count)
        board = plan.boardCounts.map { BoardCounts(spec: $0, entrants: n) }
    }

    /// Adds one complete block (rows in file order: per rotation, per seat).
    /// - Complexity: O(rows x seats); no allocation.
    mutating func add(block rows: [MatchRow]) {
        let seats = plan.schedule.seats
        let t = rows[0].table
        let table = plan.schedule.tables[t]
        for a in 0..<seats { current[a] = (0, 0, 0, 0) }
        // Half points of the lower table position of each pair, 4 bits per pair.
        var halves: UInt64 = 0
        for start in stride(from: 0, to: rows.count, by: seats) {
            var firsts = 0
            for k in start..<(start + seats) where rows[k].place == 1 { firsts += 1 }
            for k in start..<(start + seats) {
                let row = rows[k]
                let here = position(of: row.entrant, in: table)
                matches[row.entrant] += 1
                if let kind = row.forfeit { forfeits[row.entrant][Self.kindIndex(kind)] += 1 }
                board?.add(row.marks, entrant: row.entrant, place: row.place)
                placeSum[row.entrant] += row.place
                current[here].place += Double(row.place)
                current[here].matches += 1
                switch row.result {
                case .win:
                    wins[row.entrant] += 1
                    current[here].wins += 1
                case .draw: draws[row.entrant] += 1
                case .loss: losses[row.entrant] += 1
                }
                if row.place == 1 {
                    score[row.entrant] += 1 / Double(firsts)
                    current[here].score += 1 / Double(firsts)
                }
                // Every later seat: one pairwise game (the better place wins, equal tie).
                for l in (k + 1)..<(start + seats) {
                    let other = rows[l]
                    let mine: UInt64 = row.place < other.place ? 2 : row.place == other.place ? 1 : 0
                    let (a, b) = (here, position(of: other.entrant, in: table))
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
                pairBlocks[t][Self.pairIndex(a, b, seats: seats)].add(h / 2 / games)
            }
        }
        for a in 0..<seats where current[a].matches > 0 {
            let m = Double(current[a].matches)
            seatBlocks[t][a].wins.add(current[a].wins / m)
            seatBlocks[t][a].score.add(current[a].score / m)
            seatBlocks[t][a].place.add(current[a].place / m)
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
        let units: [[PairwiseResults]] = categories.enumerated().map { t, keys in
            let seating = plan.schedule.tables[t]
            return keys.map { pattern in
                var one = PairwiseResults(entrants: n)
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
            var table = PairwiseResults(entrants: n)
            for (t, counts) in drawn.enumerated() {
                for (c, times) in counts.enumerated() where times > 0 { table.add(units[t][c], times: times) }
            }
            return BradleyTerry.fit(table, anchor: anchor)
        }
        return Ratings(rating: point, lower: bounds.map(\.lower), upper: bounds.map(\.upper))
    }

    // MARK: Intervals over blocks

    /// One entrant's per-block figures at one table.
    struct SeatBlocks {
        var wins = Intervals.BlockSums()
        var score = Intervals.BlockSums()
        var place = Intervals.BlockSums()
    }

    /// The tables entrant `i` sits at, with its position at each.
    func seats(of i: Int) -> [(table: Int, position: Int)] {
        plan.schedule.tables.enumerated().compactMap { t, table in table.firstIndex(of: i).map { (t, $0) } }
    }

    /// The entrant with the highest score share so far (ties: the first in config order)
    /// and its 95 % interval over blocks, as summary.csv gives it; nil before any match.
    func leader() -> RunRecord.Leader? {
        let names = plan.config.entrants.map(\.name)
        guard let best = matches.indices.filter({ matches[$0] > 0 })
            .max(by: { score[$0] / Double(matches[$0]) < score[$1] / Double(matches[$1]) })
        else { return nil }
        let share = Intervals.proportionOverBlocks(seats(of: best).map { seatBlocks[$0.table][$0.position].score })
        return RunRecord.Leader(entrant: names[best], scoreShare: score[best] / Double(matches[best]), low: share.lower, high: share.upper,
                                matches: matches[best])
    }

    /// The strata of entrant `i`'s block score against `j`: one per table where both sit,
    /// seen from i's side.
    func pairStrata(_ i: Int, _ j: Int) -> [Intervals.BlockSums] {
        let seats = plan.schedule.seats
        return plan.schedule.tables.enumerated().compactMap { t, table in
            guard let a = table.firstIndex(of: i), let b = table.firstIndex(of: j) else { return nil }
            let sums = pairBlocks[t][Self.pairIndex(min(a, b), max(a, b), seats: seats)]
            return a < b ? sums : sums.mirrored
        }
    }

    /// Entrant i's line against j: pairwise games, points, score share with its interval
    /// over blocks, the Elo difference of each, and the blocks where they met. Nil when
    /// they never met.
    func pairLine(_ i: Int, _ j: Int) -> (games: Double, points: Double, score: Double, low: Double, high: Double, blocks: Int)? {
        let games = pairwise.games[i][j]
        guard games > 0 else { return nil }
        let strata = pairStrata(i, j)
        let interval = Intervals.proportionOverBlocks(strata)
        let points = pairwise.points[i][j]
        return (games, points, points / games, interval.lower, interval.upper, strata.reduce(0) { $0 + $1.count })
    }

    static func kindIndex(_ kind: ForfeitKind) -> Int { ForfeitKind.allCases.firstIndex(of: kind)! }

    /// The forfeits for `run.json`: one record per entrant that forfeited; nil for none.
    var forfeitRecords: [RunRecord.ForfeitRecord]? {
        let records = plan.config.entrants.indices.compactMap { i -> RunRecord.ForfeitRecord? in
            let k = forfeits[i]
            guard k.reduce(0, +) > 0 else { return nil }
            return RunRecord.ForfeitRecord(entrant: plan.config.entrants[i].name, timeout: k[Self.kindIndex(.timeout)],
                                           crash: k[Self.kindIndex(.crash)], illegal: k[Self.kindIndex(.illegal)],
                                           malformed: k[Self.kindIndex(.malformed)])
        }
        return records.isEmpty ? nil : records
    }

    /// Matches forfeited by each entrant, all kinds together.
    var forfeitTotals: [Int] { forfeits.map { $0.reduce(0, +) } }

    // MARK: Files

    static let summaryHeader = ["entrant", "strategy", "matches", "blocks", "wins", "draws", "losses", "score", "score_share",
                                "score_share_low", "score_share_high", "win_rate", "win_rate_low", "win_rate_high", "mean_place",
                                "mean_place_low", "mean_place_high", "rating", "rating_low", "rating_high", "forfeits"]
    static let pairwiseHeader = ["entrant", "opponent", "games", "points", "score", "score_low", "score_high", "elo", "elo_low",
                                 "elo_high", "blocks"]
    static let ratingsHeader = ["rank", "entrant", "strategy", "rating", "rating_low", "rating_high", "pairwise_games", "anchor"]

    /// `summary.csv`, `pairwise.csv` and `ratings.csv`, in that order, and the table
    /// printed after a run.
    ///
    /// Every interval counts blocks: the score share's and the win rate's are
    /// ``Intervals/proportionOverBlocks(_:z:)`` of the entrant's per-block figures over
    /// all its tables (strata), the mean place's ``Intervals/meanOverBlocks(_:range:z:)``,
    /// a pair's score the former over the blocks where the two met.
    func files() -> (summary: String, pairwise: String, ratings: String, table: [String]) {
        let entrants = plan.config.entrants
        let n = entrants.count
        let seats = plan.schedule.seats
        let r = ratings()
        var summary = CSV.line(Self.summaryHeader)
        var printed: [[String]] = []
        for i in 0..<n {
            let m = Double(matches[i])
            let mine = self.seats(of: i).map { seatBlocks[$0.table][$0.position] }
            let share = Intervals.proportionOverBlocks(mine.map(\.score))
            let win = Intervals.proportionOverBlocks(mine.map(\.wins))
            let place = Intervals.meanOverBlocks(mine.map(\.place), range: 1...Double(seats))
            let blocks = mine.reduce(0) { $0 + $1.wins.count }
            let row = [entrants[i].name, entrants[i].strategy, String(matches[i]), String(blocks), String(wins[i]), String(draws[i]),
                       String(losses[i]), f(score[i]), f(m > 0 ? score[i] / m : 0), f(share.lower), f(share.upper),
                       f(m > 0 ? Double(wins[i]) / m : 0), f(win.lower), f(win.upper), f(m > 0 ? Double(placeSum[i]) / m : 0),
                       f(place.lower), f(place.upper), elo(r.rating[i]), elo(r.lower[i]), elo(r.upper[i]),
                       String(forfeits[i].reduce(0, +))]
            summary += CSV.line(row)
            printed.append(row)
        }
        var pairs = CSV.line(Self.pairwiseHeader)
        for i in 0..<n {
            for j in 0..<n where j != i {
                guard let line = pairLine(i, j) else { continue }
                pairs += CSV.line([entrants[i].name, entrants[j].name, f(line.games, 1), f(line.points, 1), f(line.score),
                                   f(line.low), f(line.high), elo(Intervals.elo(score: line.score)),
                                   elo(Intervals.elo(score: line.low)), elo(Intervals.elo(score: line.high)), String(line.blocks)])
            }
        }
        var ratings = CSV.line(Self.ratingsHeader)
        let order = (0..<n).sorted { r.rating[$0] != r.rating[$1] ? r.rating[$0] > r.rating[$1] : $0 < $1 }
        for (rank, i) in order.enumerated() {
            let games = (0..<n).reduce(0.0) { $0 + ($1 == i ? 0 : pairwise.games[i][$1]) }
            ratings += CSV.line([String(rank + 1), entrants[i].name, entrants[i].strategy, elo(r.rating[i]), elo(r.lower[i]),
                                 elo(r.upper[i]), f(games, 0), i == plan.anchor ? "yes" : "no"])
        }
        return (summary, pairs, ratings, Self.table(printed, order: order) + forfeitLines() + gauntletLines())
    }

    /// The summary as aligned text, strongest first: each figure with its 95 % interval
    /// over blocks.
    private static func table(_ rows: [[String]], order: [Int]) -> [String] {
        let titles = ["entrant", "matches", "blocks", "win rate", "95 %", "score share", "95 %", "place", "95 %", "rating", "95 %"]
        let body = order.map { i in
            let row = rows[i]
            return [row[0], row[2], row[3], row[11], "[\(row[12]), \(row[13])]", row[8], "[\(row[9]), \(row[10])]", row[14],
                    "[\(row[15]), \(row[16])]", row[17], "[\(row[18]), \(row[19])]"]
        }
        return aligned(titles, body)
    }

    /// One line per entrant that forfeited matches, by kind; empty when none did.
    func forfeitLines() -> [String] {
        let lines = plan.config.entrants.indices.compactMap { i -> String? in
            let total = forfeits[i].reduce(0, +)
            guard total > 0 else { return nil }
            let kinds = ForfeitKind.allCases.enumerated().compactMap { k, kind in forfeits[i][k] > 0 ? "\(kind.rawValue) \(forfeits[i][k])" : nil }
            return "\(plan.config.entrants[i].name) forfeited \(total) of \(matches[i]) matches (\(kinds.joined(separator: ", ")))"
        }
        return lines.isEmpty ? [] : [""] + lines
    }

    /// For a gauntlet, the candidate's line against each opponent (its rows of
    /// `pairwise.csv`): score with its interval over the blocks where they met, and the
    /// Elo difference with its interval. Empty for a round robin.
    func gauntletLines() -> [String] {
        guard plan.config.format == .gauntlet, let name = plan.config.candidate,
              let c = plan.config.entrants.firstIndex(where: { $0.name == name }) else { return [] }
        let entrants = plan.config.entrants
        let body: [[String]] = entrants.indices.compactMap { j in
            guard j != c, let line = pairLine(c, j) else { return nil }
            return [entrants[j].name, String(line.blocks), f(line.score), "[\(f(line.low)), \(f(line.high))]",
                    elo(Intervals.elo(score: line.score)),
                    "[\(elo(Intervals.elo(score: line.low))), \(elo(Intervals.elo(score: line.high)))]"]
        }
        guard !body.isEmpty else { return [] }
        return ["", "\(name) against each opponent (pairwise.csv):"]
            + Self.aligned(["opponent", "blocks", "score", "95 %", "elo", "95 %"], body)
    }

    /// Columns padded to their widest cell: the first left-aligned, the rest right-aligned.
    private static func aligned(_ titles: [String], _ body: [[String]]) -> [String] {
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
