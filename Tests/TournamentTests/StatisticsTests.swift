import Testing
import LabCore
@testable import Tournament

/// Expected values below are worked out by hand (z = 1.959964, z² = 3.8414588) in the
/// comments, never by calling the code under test.
@Suite("Statistics")
struct StatisticsTests {
    static func close(_ a: Double, _ b: Double, _ tolerance: Double = 1e-4) -> Bool {
        abs(a - b) <= tolerance
    }

    /// A table where `winner` beat `loser` `times` times, for each triple.
    static func table(_ entrants: Int, _ results: [(winner: Int, loser: Int, times: Int)]) -> PairwiseResults {
        var table = PairwiseResults(entrants: entrants)
        for result in results {
            for _ in 0..<result.times {
                table.addFinishingOrder(entrants: [result.winner, result.loser], places: [1, 2])
            }
        }
        return table
    }

    // MARK: Wilson

    @Test("Wilson interval matches hand-computed bounds")
    func wilsonValues() {
        // 0/10: p = 0, z²/n = 0.38415, d = 1.38415; centre = (z²/20)/d = 0.138766,
        // half = z·(z/20)/d = 0.138766 -> (0, 0.277533).
        let zero = Intervals.wilson(successes: 0, trials: 10)
        #expect(Self.close(zero.lower, 0))
        #expect(Self.close(zero.upper, 0.277533))
        // 10/10 mirrors 0/10: (1 - 0.277533, 1).
        let all = Intervals.wilson(successes: 10, trials: 10)
        #expect(Self.close(all.lower, 0.722467))
        #expect(Self.close(all.upper, 1))
        // 5/10: centre 0.5, half = z·sqrt(0.025 + 0.0096037)/1.38415 = z·0.186021/1.38415
        // = 0.263407 -> (0.236593, 0.763407).
        let half = Intervals.wilson(successes: 5, trials: 10)
        #expect(Self.close(half.lower, 0.236593))
        #expect(Self.close(half.upper, 0.763407))
        // 80/100: d = 1.0384146, centre = 0.8192073/d = 0.788902,
        // half = z·sqrt(0.0016 + 0.0000960)/d = z·0.0411829/d = 0.077731 -> (0.711171, 0.866633).
        let eighty = Intervals.wilson(successes: 80, trials: 100)
        #expect(Self.close(eighty.lower, 0.711171))
        #expect(Self.close(eighty.upper, 0.866633))
    }

    @Test("Wilson accepts fractional successes and gives (0, 1) without trials")
    func wilsonFractionalAndEmpty() {
        // 5.5/10: p = 0.55, centre = (0.55 + 0.192073)/1.384146 = 0.536124,
        // half = z·sqrt(0.02475 + 0.0096037)/1.384146 = z·0.185347/1.384146 = 0.262454
        // -> (0.273670, 0.798578).
        let score = Intervals.wilson(successes: 5.5, trials: 10)
        #expect(Self.close(score.lower, 0.273670))
        #expect(Self.close(score.upper, 0.798578))
        let empty = Intervals.wilson(successes: 0, trials: 0)
        #expect(empty.lower == 0 && empty.upper == 1)
    }

    // MARK: Elo

    @Test("Elo from a score: 0.5 is 0, 0.75 and 0.25 are ±400·log10(3), 0 and 1 stay finite")
    func eloValues() {
        #expect(Self.close(Intervals.elo(score: 0.5), 0, 1e-9))
        // 1/0.75 - 1 = 1/3, so -400·log10(1/3) = 400·0.4771213 = 190.8485.
        #expect(Self.close(Intervals.elo(score: 0.75), 190.8485))
        #expect(Self.close(Intervals.elo(score: 0.25), -190.8485))
        // Clamped to 1 - 1e-6: -400·log10(1e-6/(1 - 1e-6)) = 400·(6 + 4.3e-7) ≈ 2400.
        let top = Intervals.elo(score: 1), bottom = Intervals.elo(score: 0)
        #expect(top.isFinite && bottom.isFinite)
        #expect(Self.close(top, 2400, 0.01))
        #expect(Self.close(bottom, -2400, 0.01))
    }

    // MARK: Mean interval

    @Test("Mean interval of a small sample, clamped to [0, 1]")
    func meanIntervalValues() {
        // Values 0, 0.5, 1, 1: sum 2.5, sum of squares 2.25, mean 0.625,
        // variance (2.25 - 2.5²/4)/3 = 0.6875/3 = 0.229167, se = sqrt(0.229167/4) = 0.239357,
        // z·se = 0.469131 -> (0.155869, 1.094) clamped to (0.155869, 1).
        let small = Intervals.meanInterval(count: 4, sum: 2.5, sumOfSquares: 2.25)
        #expect(Self.close(small.mean, 0.625, 1e-12))
        #expect(Self.close(small.lower, 0.155869))
        #expect(small.upper == 1)
        // Values 0.4, 0.5, 0.6: sum 1.5, sum of squares 0.77, variance (0.77 - 0.75)/2 = 0.01,
        // se = 0.1/sqrt(3) = 0.0577350, z·se = 0.113159 -> (0.386841, 0.613159).
        let tight = Intervals.meanInterval(count: 3, sum: 1.5, sumOfSquares: 0.77)
        #expect(Self.close(tight.mean, 0.5, 1e-12))
        #expect(Self.close(tight.lower, 0.386841))
        #expect(Self.close(tight.upper, 0.613159))
    }

    @Test("Mean interval with fewer than two units is (0, 1)")
    func meanIntervalTooFew() {
        let one = Intervals.meanInterval(count: 1, sum: 0.75, sumOfSquares: 0.5625)
        #expect(one.mean == 0.75 && one.lower == 0 && one.upper == 1)
        let none = Intervals.meanInterval(count: 0, sum: 0, sumOfSquares: 0)
        #expect(none.lower == 0 && none.upper == 1)
    }

    // MARK: Intervals over blocks

    static func sums(_ values: [Double]) -> Intervals.BlockSums {
        var s = Intervals.BlockSums()
        for v in values { s.add(v) }
        return s
    }

    @Test("A proportion over blocks: Wilson with the design's effective trials p(1-p)/V")
    func proportionOverBlocksValues() {
        // One table, block scores 1, 0.5, 0.5, 0: mean 0.5, s² = (1.5 - 2²/4)/3 = 1/6,
        // V = s²/4 = 1/24, n_eff = 0.25 · 24 = 6. Wilson(3 of 6): z²/n = 0.6402431,
        // d = 1.6402431, centre 0.5, half = z·sqrt(0.25/6 + z²/144)/d = z·0.2614258/d
        // = 0.3123837 -> (0.1876163, 0.8123837).
        let one = Intervals.proportionOverBlocks([Self.sums([1, 0.5, 0.5, 0])])
        #expect(Self.close(one.mean, 0.5, 1e-12))
        #expect(Self.close(one.lower, 0.1876163))
        #expect(Self.close(one.upper, 0.8123837))
        // Two tables (strata): A = 1, 0.5 and B = 0, 0.5, 0.5, 0. N = 6, mean 2.5/6 = 5/12;
        // s_A² = (1.25 - 1.5²/2)/1 = 0.125, s_B² = (0.5 - 1/4)/3 = 1/12;
        // V = (2 · 0.125 + 4/12)/36 = 0.0162037; n_eff = (5/12)(7/12)/V = 15.
        // Wilson(6.25 of 15): z²/n = 0.2560973, d = 1.2560973, centre = (5/12 + 0.1280486)/d
        // = 0.4336569, half = z·sqrt(0.0162037 + z²/900)/d = z·0.1430804/d = 0.2232569
        // -> (0.2104000, 0.6569138).
        let strata = [Self.sums([1, 0.5]), Self.sums([0, 0.5, 0.5, 0])]
        let two = Intervals.stratified(strata)
        #expect(two?.blocks == 6)
        #expect(Self.close(two?.variance ?? 0, 0.0162037, 1e-7))
        let interval = Intervals.proportionOverBlocks(strata)
        #expect(Self.close(interval.lower, 0.2104000))
        #expect(Self.close(interval.upper, 0.6569138))
        // A table of one block: its spread is unknown, so the variance pools all blocks:
        // 1 | 0, 0.5, 0.5, 0 -> mean 0.4, s² = (1.5 - 2²/5)/4 = 0.175, V = 0.035.
        let pooled = Intervals.stratified([Self.sums([1]), Self.sums([0, 0.5, 0.5, 0])])
        #expect(Self.close(pooled?.variance ?? 0, 0.035, 1e-12))
        #expect(Intervals.stratified([Self.sums([1])]) == nil)
        #expect(Intervals.proportionOverBlocks([Self.sums([0.5])]) == (0.5, 0, 1))
    }

    @Test("Over blocks: tables that each always give the same result are certain; p = 0 or 1 counts blocks as trials")
    func proportionOverBlocksEdges() {
        // Always 1 at table A, always 0 at table B: the stratified variance is 0, so the
        // interval is the point 0.5 (pooling the blocks would give s² = 10/38 and a wide one).
        let sure = Intervals.proportionOverBlocks([Self.sums(Array(repeating: 1, count: 10)), Self.sums(Array(repeating: 0, count: 10))])
        #expect(sure == (0.5, 0.5, 0.5))
        // Ten blocks all 1: n_eff = 10 blocks, Wilson(10 of 10) = (0.722467, 1) (see wilsonValues).
        let all = Intervals.proportionOverBlocks([Self.sums(Array(repeating: 1, count: 10))])
        #expect(Self.close(all.lower, 0.722467))
        #expect(Self.close(all.upper, 1))
    }

    @Test("A mean over blocks (mean place): mean ± z·sqrt(V), clamped to the range")
    func meanOverBlocksValues() {
        // Block mean places 1, 2, 3, 2: mean 2, s² = 2/3, V = 1/6, half = z·0.4082483
        // = 0.8001550 -> (1.199845, 2.800155).
        let m = Intervals.meanOverBlocks([Self.sums([1, 2, 3, 2])], range: 1...3)
        #expect(Self.close(m.mean, 2, 1e-12))
        #expect(Self.close(m.lower, 1.199845))
        #expect(Self.close(m.upper, 2.800155))
        // 1, 1, 1, 3: mean 1.5, s² = 1, V = 0.25, half 0.979982 -> clamped below at 1.
        let clamped = Intervals.meanOverBlocks([Self.sums([1, 1, 1, 3])], range: 1...3)
        #expect(clamped.lower == 1 && Self.close(clamped.upper, 2.479982))
        #expect(Intervals.meanOverBlocks([], range: 1...4) == (0, 1, 4))
    }

    // MARK: Summary files over blocks

    /// Never played: the tally is fed rows directly.
    struct NoTable: SeatedTable {
        func play(dealSeed: UInt64, strategySeed: UInt64, match: Int, buffer: inout ActionBuffer, timer: DecisionTimer?) -> MatchRecord {
            fatalError("the tally tests play no matches")
        }
    }

    /// A tally of entrants e0, e1, ... fed `blocks` in block order: per block, per rotation,
    /// the place of each table position (block k is on table k mod T, seat s of rotation
    /// r holds table position (s + r) mod seats, as the schedule seats them).
    static func tally(entrants: Int, seats: Int, format: TournamentFormat = .roundRobin, candidate: Int? = nil,
                      blocks: [[[Int]]]) throws -> Tally {
        let names = (0..<entrants).map { "e\($0)" }
        let schedule = try Schedule(entrants: entrants, seats: seats, format: format, candidate: candidate,
                                    blocksPerTable: max(1, blocks.count))
        let config = TournamentConfig(name: "t", game: "none", seats: seats,
                                      entrants: names.map { Entrant(name: $0, strategy: "s") }, format: format,
                                      candidate: candidate.map { names[$0] }, blocks: max(1, blocks.count))
        let seatings: [[any SeatedTable]] = schedule.tables.map { _ in Array(repeating: NoTable(), count: seats) }
        let plan = TournamentPlan(config: config, schedule: schedule, seatings: seatings, columns: [], anchor: nil)
        var tally = Tally(plan: plan)
        for (k, block) in blocks.enumerated() {
            let t = k % schedule.tables.count
            var rows: [MatchRow] = []
            for (r, places) in block.enumerated() {
                let firsts = places.filter { $0 == 1 }.count
                for s in 0..<seats {
                    let position = (s + r) % seats
                    let place = places[position]
                    rows.append(MatchRow(block: k, match: k * seats + r, table: t, seat: s, entrant: schedule.tables[t][position],
                                         place: place, result: place != 1 ? .loss : firsts == 1 ? .win : .draw, turns: 1))
                }
            }
            tally.add(block: rows)
        }
        return tally
    }

    /// A CSV file's rows as dictionaries by header name.
    static func rows(_ text: String) -> [[String: String]] {
        let lines = text.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        return lines.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(lines[0], $0)) }
    }

    @Test("Mirrored blocks (each splits 1/2 between equal players) give zero-width intervals, not Wilson's over matches")
    func mirroredBlocks() throws {
        // 10 blocks of 2 matches: position 0 wins rotation 0, position 1 rotation 1. Counting
        // the 20 matches as independent, Wilson(10 of 20) is (0.2993, 0.7007); over blocks
        // every block's figure is exactly 1/2 (mean place 1.5), so the variance is 0.
        let tally = try Self.tally(entrants: 2, seats: 2, blocks: Array(repeating: [[1, 2], [2, 1]], count: 10))
        let summary = Self.rows(tally.files().summary)
        #expect(summary.count == 2)
        for row in summary {
            #expect(row["matches"] == "20" && row["blocks"] == "10", "\(row)")
            #expect(row["win_rate"] == "0.5000" && row["win_rate_low"] == "0.5000" && row["win_rate_high"] == "0.5000", "\(row)")
            #expect(row["score_share"] == "0.5000" && row["score_share_low"] == "0.5000" && row["score_share_high"] == "0.5000", "\(row)")
            #expect(row["mean_place"] == "1.5000" && row["mean_place_low"] == "1.5000" && row["mean_place_high"] == "1.5000", "\(row)")
        }
        let pairs = Self.rows(tally.files().pairwise)
        #expect(pairs.allSatisfy { $0["score_low"] == "0.5000" && $0["score_high"] == "0.5000" && $0["blocks"] == "10" }, "\(pairs)")
    }

    @Test("Blocks whose matches move together (the deal decides) give a wider interval than Wilson over matches")
    func correlatedBlocks() throws {
        // 5 blocks e0 wins both matches, 5 blocks e1 does. Over blocks: values 1 ×5, 0 ×5,
        // s² = (5 - 25/10)/9 = 0.2777778, V = 0.0277778, n_eff = 0.25/V = 9 (not 20 matches).
        // Wilson(4.5 of 9): z²/n = 0.4268288, d = 1.4268288, centre 0.5,
        // half = z·sqrt(0.25/9 + z²/324)/d = z·0.1953286/d = 0.2734708 -> (0.2265292, 0.7734708),
        // where Wilson(10 of 20) over matches was (0.2992980, 0.7007020).
        let win: [[Int]] = [[1, 2], [1, 2]], loss: [[Int]] = [[2, 1], [2, 1]]
        let tally = try Self.tally(entrants: 2, seats: 2, blocks: Array(repeating: win, count: 5) + Array(repeating: loss, count: 5))
        let row = try #require(Self.rows(tally.files().summary).first)
        #expect(row["win_rate"] == "0.5000")
        #expect(row["win_rate_low"] == "0.2265" && row["win_rate_high"] == "0.7735", "\(row)")
        #expect(row["score_share_low"] == "0.2265" && row["score_share_high"] == "0.7735", "\(row)")
        // Mean place: block means 1 ×5, 2 ×5, V = 0.0277778, half = z·0.1666667 = 0.3266607.
        #expect(row["mean_place_low"] == "1.1733" && row["mean_place_high"] == "1.8267", "\(row)")
    }

    @Test("A gauntlet gives the candidate's line against each opponent: score and Elo with intervals over the blocks where they met")
    func gauntletLines() throws {
        // Candidate e0 against e1 (table 0) and e2 (table 1), 2 seats, 10 blocks each. e0 wins
        // both matches of every block against e1: score 1, over 10 blocks Wilson(10 of 10)
        // = (0.722467, 1), Elo -400·log10(1/0.722467 - 1) = -400·log10(0.384146) = 166.2, upper clamped to 2400.0.
        // Against e2 it splits every block: 0.5 [0.5, 0.5], Elo 0.0 [0.0, 0.0].
        var blocks: [[[Int]]] = []
        for _ in 0..<10 { blocks += [[[1, 2], [1, 2]], [[1, 2], [2, 1]]] }
        let tally = try Self.tally(entrants: 3, seats: 2, format: .gauntlet, candidate: 0, blocks: blocks)
        let files = tally.files()
        let pairs = Self.rows(files.pairwise)
        let e1 = try #require(pairs.first { $0["entrant"] == "e0" && $0["opponent"] == "e1" })
        #expect(e1["score"] == "1.0000" && e1["score_low"] == "0.7225" && e1["score_high"] == "1.0000", "\(e1)")
        #expect(e1["elo_low"] == "166.2" && e1["elo_high"] == "2400.0" && e1["blocks"] == "10", "\(e1)")
        let e2 = try #require(pairs.first { $0["entrant"] == "e0" && $0["opponent"] == "e2" })
        #expect(e2["score_low"] == "0.5000" && e2["score_high"] == "0.5000" && e2["elo"] == "0.0", "\(e2)")
        // The terminal table ends with the same lines.
        let table = files.table
        let title = try #require(table.firstIndex(of: "e0 against each opponent (pairwise.csv):"), "\(table.joined(separator: "\n"))")
        #expect(table[title + 1].split(separator: " ").map(String.init) == ["opponent", "blocks", "score", "95", "%", "elo", "95", "%"])
        #expect(table[title + 2].split(separator: " ").map(String.init) == ["e1", "10", "1.0000", "[0.7225,", "1.0000]", "2400.0", "[166.2,", "2400.0]"])
        #expect(table[title + 3].split(separator: " ").map(String.init) == ["e2", "10", "0.5000", "[0.5000,", "0.5000]", "0.0", "[0.0,", "0.0]"])
        // The candidate's summary figures count its blocks at both tables (strata): score
        // share 0.75, table A always 1, table B always 1/2: no spread within a table, so 0.75
        // [0.75, 0.75]; a round robin has no such lines.
        let candidate = try #require(Self.rows(files.summary).first)
        #expect(candidate["blocks"] == "20" && candidate["score_share"] == "0.7500", "\(candidate)")
        #expect(candidate["score_share_low"] == "0.7500" && candidate["score_share_high"] == "0.7500", "\(candidate)")
        let roundRobin = try Self.tally(entrants: 2, seats: 2, blocks: [[[1, 2], [2, 1]]])
        #expect(!roundRobin.files().table.contains { $0.contains("against each opponent") })
    }

    @Test("A pair that meets at several tables is judged table by table (strata), not as one pool")
    func pairStrata() throws {
        // 3-seat gauntlet, candidate e0, field e1, e2, e3: tables [0,1,2], [0,1,3], [0,2,3].
        // At table 0 e0 finishes ahead of e1 in every match, at table 1 behind: e0's pairwise
        // score against e1 is 0.5 over 20 blocks, each table without spread, so [0.5, 0.5].
        // Pooled as one sample (10 blocks of 1, 10 of 0) it would be about [0.29, 0.71].
        var blocks: [[[Int]]] = []
        for _ in 0..<10 {
            blocks.append(Array(repeating: [1, 2, 3], count: 3))  // table 0: e0, e1, e2 in that order
            blocks.append(Array(repeating: [2, 1, 3], count: 3))  // table 1: e1 first, then e0, e3
            blocks.append(Array(repeating: [1, 2, 3], count: 3))  // table 2
        }
        let tally = try Self.tally(entrants: 4, seats: 3, format: .gauntlet, candidate: 0, blocks: blocks)
        let pairs = Self.rows(tally.files().pairwise)
        let line = try #require(pairs.first { $0["entrant"] == "e0" && $0["opponent"] == "e1" })
        #expect(line["score"] == "0.5000" && line["blocks"] == "20", "\(line)")
        #expect(line["score_low"] == "0.5000" && line["score_high"] == "0.5000", "\(line)")
        let back = try #require(pairs.first { $0["entrant"] == "e1" && $0["opponent"] == "e0" })
        #expect(back["score_low"] == "0.5000" && back["score_high"] == "0.5000", "\(back)")
    }

    // MARK: Pairwise table

    @Test("A 4-seat order with a tie gives 6 pairwise games and the right points")
    func fourSeatOrder() {
        var table = PairwiseResults(entrants: 4)
        // Entrant 2 first, 0 and 3 share second, 1 last.
        table.addFinishingOrder(entrants: [0, 1, 2, 3], places: [2, 4, 1, 2])
        let expectedPoints: [[Double]] = [
            [0, 1, 0, 0.5],
            [0, 0, 0, 0],
            [1, 1, 0, 1],
            [0.5, 1, 0, 0],
        ]
        let expectedGames: [[Double]] = [
            [0, 1, 1, 1],
            [1, 0, 1, 1],
            [1, 1, 0, 1],
            [1, 1, 1, 0],
        ]
        #expect(table.points == expectedPoints)
        #expect(table.games == expectedGames)
        // m(m-1)/2 = 6 games, 6 points in all.
        #expect(table.games.joined().reduce(0, +) == 12)
        #expect(table.points.joined().reduce(0, +) == 6)
    }

    @Test("Two seats: a win gives 1-0, a tie half each; seats held by one entrant are skipped")
    func twoSeatOrders() {
        var win = PairwiseResults(entrants: 2)
        win.addFinishingOrder(entrants: [1, 0], places: [1, 2])
        #expect(win.points == [[0, 0], [1, 0]])
        #expect(win.games == [[0, 1], [1, 0]])
        var tie = PairwiseResults(entrants: 2)
        tie.addFinishingOrder(entrants: [0, 1], places: [1, 1])
        #expect(tie.points == [[0, 0.5], [0.5, 0]])
        #expect(tie.games == [[0, 1], [1, 0]])
        // Entrant 0 against two copies of entrant 1: two games, the 1-1 seat pair adds nothing.
        var copies = PairwiseResults(entrants: 2)
        copies.addFinishingOrder(entrants: [0, 1, 1], places: [1, 2, 3])
        #expect(copies.points == [[0, 2], [0, 0]])
        #expect(copies.games == [[0, 2], [2, 0]])
    }

    @Test("Tables add elementwise and with a factor")
    func tableAddition() {
        var a = PairwiseResults(entrants: 2)
        a.addFinishingOrder(entrants: [0, 1], places: [1, 2])
        var b = PairwiseResults(entrants: 2)
        b.addFinishingOrder(entrants: [0, 1], places: [1, 1])
        var sum = a
        sum.add(b)
        #expect(sum.points == [[0, 1.5], [0.5, 0]])
        #expect(sum.games == [[0, 2], [2, 0]])
        sum.add(a, times: 3)
        #expect(sum.points == [[0, 4.5], [0.5, 0]])
        #expect(sum.games == [[0, 5], [5, 0]])
    }

    // MARK: Bradley-Terry

    @Test("Two entrants, 3 wins of 4, no prior: the difference is 400·log10(3)")
    func bradleyTerryTwoEntrants() {
        // MLE: 4·g0/(g0 + g1) = 3, so g0/g1 = 3 and the difference is 400·log10(3) = 190.8485.
        let table = Self.table(2, [(0, 1, 3), (1, 0, 1)])
        let ratings = BradleyTerry.fit(table, anchor: 1, priorDraws: 0)
        #expect(Self.close(ratings[0], 190.8485))
        #expect(ratings[1] == 0)
    }

    @Test("A consistent three-entrant table recovers gamma = 1, 2, 4; the anchor only shifts")
    func bradleyTerryConsistentTable() {
        // 15 games per pair with points proportional to g_i/(g_i + g_j):
        // 1 vs 2 -> 5 : 10, 1 vs 4 -> 3 : 12, 2 vs 4 -> 5 : 10. The likelihood equations hold
        // exactly (e.g. W_0 = 5 + 3 = 15/3 + 15/5), so the fit is 400·log10(1, 2, 4)
        // = 0, 120.412, 240.824 relative to entrant 0.
        let table = Self.table(3, [
            (0, 1, 5), (1, 0, 10),
            (0, 2, 3), (2, 0, 12),
            (1, 2, 5), (2, 1, 10),
        ])
        let anchored0 = BradleyTerry.fit(table, anchor: 0, priorDraws: 0)
        #expect(anchored0[0] == 0)
        #expect(Self.close(anchored0[1], 120.412))
        #expect(Self.close(anchored0[2], 240.824))
        let anchored2 = BradleyTerry.fit(table, anchor: 2, priorDraws: 0)
        #expect(Self.close(anchored2[0], -240.824))
        #expect(Self.close(anchored2[1], -120.412))
        #expect(anchored2[2] == 0)
        // No anchor: mean 0, so (-120.412, 0, 120.412).
        let centred = BradleyTerry.fit(table, anchor: nil, priorDraws: 0)
        #expect(Self.close(centred[0], -120.412))
        #expect(Self.close(centred[1], 0))
        #expect(Self.close(centred[2], 120.412))
    }

    @Test("An undefeated entrant stays finite with the prior: 10-0 plus one virtual draw is 400·log10(21)")
    func bradleyTerryUndefeated() {
        // With the virtual draw: 11 games, W_0 = 10.5, W_1 = 0.5, so g0/g1 = 21 and the
        // difference is 400·log10(21) = 528.8877.
        let table = Self.table(2, [(0, 1, 10)])
        let ratings = BradleyTerry.fit(table, anchor: 1)
        #expect(Self.close(ratings[0], 528.8877))
        #expect(ratings[1] == 0)
        // Without an anchor each pair gets priorDraws/(n-1) = 1 virtual draw: same difference.
        let centred = BradleyTerry.fit(table, anchor: nil)
        #expect(Self.close(centred[0] - centred[1], 528.8877))
        #expect(Self.close(centred[0] + centred[1], 0))
        // Without a prior the likelihood peaks at infinity; the ratings are still finite.
        let unbounded = BradleyTerry.fit(table, anchor: 1, priorDraws: 0)
        #expect(unbounded.allSatisfy { $0.isFinite })
        #expect(unbounded[0] > 1000)
    }

    @Test("A symmetric (cyclic) table gives equal ratings; an entrant without games gets the anchor's 0")
    func bradleyTerrySymmetricAndIdle() {
        // 0 beats 1, 1 beats 2, 2 beats 0, each 3 to 1: every entrant scores 4 of 8, so equal.
        let cyclic = Self.table(3, [(0, 1, 3), (1, 0, 1), (1, 2, 3), (2, 1, 1), (2, 0, 3), (0, 2, 1)])
        for rating in BradleyTerry.fit(cyclic, anchor: 0) {
            #expect(Self.close(rating, 0, 1e-6))
        }
        // Entrant 2 never plays; its one virtual draw with the anchor puts it level with it.
        let idle = Self.table(3, [(1, 0, 3), (0, 1, 1)])
        let ratings = BradleyTerry.fit(idle, anchor: 0)
        #expect(Self.close(ratings[2], 0, 1e-6))
        #expect(ratings[1] > 100)
    }

    // MARK: Bootstrap

    /// The mean of values 0, 0.5, 1 weighted by the drawn multiplicities of one group.
    static func mean(_ multiplicity: [[Double]]) -> [Double] {
        let m = multiplicity[0]
        return [(0.5 * m[1] + m[2]) / (m[0] + m[1] + m[2])]
    }

    @Test("The bootstrap is deterministic for a seed and changes with it")
    func bootstrapDeterministic() {
        let groups: [[Double]] = [[10, 20, 10]]
        let a = Bootstrap.percentileIntervals(groups: groups, replicates: 500, seed: 1, statistic: Self.mean)
        let b = Bootstrap.percentileIntervals(groups: groups, replicates: 500, seed: 1, statistic: Self.mean)
        let c = Bootstrap.percentileIntervals(groups: groups, replicates: 500, seed: 2, statistic: Self.mean)
        #expect(a.count == 1)
        #expect(a[0].lower == b[0].lower && a[0].upper == b[0].upper)
        #expect(a[0].lower != c[0].lower || a[0].upper != c[0].upper)
    }

    @Test("The interval of a mean covers it and narrows by about 1/2 when counts are multiplied by 4")
    func bootstrapMeanInterval() {
        // Values 0, 0.5, 1 with counts 10, 20, 10: mean 0.5, variance (10·0.25 + 10·0.25)/40
        // = 0.125; se = sqrt(0.125/40) = 0.05590, width ≈ 2·1.96·0.05590 = 0.2191.
        // Counts ×4: se = sqrt(0.125/160) = 0.02795, width ≈ 0.1096.
        let small = Bootstrap.percentileIntervals(groups: [[10, 20, 10]], replicates: 4000, seed: 7,
                                                  statistic: Self.mean)[0]
        let large = Bootstrap.percentileIntervals(groups: [[40, 80, 40]], replicates: 4000, seed: 7,
                                                  statistic: Self.mean)[0]
        #expect(small.lower < 0.5 && 0.5 < small.upper)
        #expect(large.lower < 0.5 && 0.5 < large.upper)
        let smallWidth = small.upper - small.lower, largeWidth = large.upper - large.lower
        #expect(abs(smallWidth - 0.2191) < 0.03)
        #expect(abs(largeWidth - 0.1096) < 0.015)
        #expect(largeWidth / smallWidth > 0.4 && largeWidth / smallWidth < 0.6)
    }

    @Test("Each group draws its total; one category gives zero width; weight 0 is never drawn")
    func bootstrapDegenerate() {
        // Group 0 has one category of 50 units; group 1 has 3 units over weights 0, 2, 1.
        let bounds = Bootstrap.percentileIntervals(groups: [[50], [0, 2, 1]], replicates: 200, seed: 3) { m in
            [m[0][0], m[1][0], m[1].reduce(0, +)]
        }
        #expect(bounds.count == 3)
        #expect(bounds[0].lower == 50 && bounds[0].upper == 50)
        #expect(bounds[1].lower == 0 && bounds[1].upper == 0)
        #expect(bounds[2].lower == 3 && bounds[2].upper == 3)
    }

    @Test("Percentiles interpolate linearly between order statistics")
    func bootstrapPercentileInterpolation() {
        // The statistic returns its call index, so the 11 replicates are 0...10. At level 0.9
        // the bounds sit at positions 0.05·10 = 0.5 and 0.95·10 = 9.5 -> (0.5, 9.5).
        var calls = 0
        let bounds = Bootstrap.percentileIntervals(groups: [[1]], replicates: 11, level: 0.9, seed: 0) { _ in
            defer { calls += 1 }
            return [Double(calls)]
        }
        #expect(calls == 11)
        #expect(Self.close(bounds[0].lower, 0.5, 1e-12))
        #expect(Self.close(bounds[0].upper, 9.5, 1e-12))
    }

    @Test("Binomial draws have mean n·p and variance n·p·(1-p) in the exact and the normal branch, and respect the edges",
          arguments: [(20, 0.3), (400, 0.05), (5_000, 0.5), (100_000, 0.98)])
    func binomialMoments(_ n: Int, _ p: Double) {
        var rng = LabRandom(seed: 99)
        let draws = 4_000
        var sum = 0.0, squares = 0.0
        for _ in 0..<draws {
            let k = Bootstrap.binomial(n, p, using: &rng)
            #expect((0...n).contains(k))
            sum += Double(k)
            squares += Double(k) * Double(k)
        }
        let mean = sum / Double(draws), variance = squares / Double(draws) - mean * mean
        let expectedMean = Double(n) * p, expectedVariance = Double(n) * p * (1 - p)
        // The sample mean's standard error is sqrt(variance / draws): allow 5 of them.
        #expect(abs(mean - expectedMean) < 5 * (expectedVariance / Double(draws)).squareRoot())
        #expect(abs(variance / expectedVariance - 1) < 0.15)
    }

    @Test("Binomial edges: no trials, p = 0 and p = 1")
    func binomialEdges() {
        var rng = LabRandom(seed: 1)
        #expect(Bootstrap.binomial(0, 0.5, using: &rng) == 0)
        #expect(Bootstrap.binomial(50, 0, using: &rng) == 0)
        #expect(Bootstrap.binomial(50, 1, using: &rng) == 50)
    }

    @Test("Summary numbers are fixed-point text without a negative zero")
    func fixedPoint() {
        #expect(f(0.51294, 4) == "0.5129")
        #expect(f(-0.04, 1) == "0.0")
        #expect(f(-0.0, 1) == "0.0")
        #expect(f(-0.06, 1) == "-0.1")
        #expect(f(-19.04, 1) == "-19.0")
    }
}
