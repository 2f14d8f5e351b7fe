import LabCore
import Quortex
import Testing

/// Rule book, "The reference implementation's AI": a deterministic one-ply search.
@Suite("Reference AI")
struct ReferenceAITests {
    static func choose(_ state: QuortexState, seat: Int? = nil) -> Int {
        var buffer = ActionBuffer()
        state.legalActions(into: &buffer)
        return QuortexReferenceAI().chooseAction(state.observation(for: seat ?? state.currentSeat), legal: buffer)
    }

    /// The rule book's evaluation of a non-winning position, written from its words.
    static func ruleBookScore(a: Int?, e: Int?) -> Int {
        guard let a else { return e == nil ? 0 : -100_000 }
        guard let e else { return -75_000 }
        return -2 * a * a + e * e - (e == 1 ? 50_000 : 0)
    }

    /// Which cells the AI considers besides those next to a tile.
    enum CandidateFilter {
        /// The rule book's (the published AI's): cells on the start edge of some seat in
        /// play, or next to such a cell.
        case published
        /// The lab's first version: cells on some seat's edge, or next to any rim cell.
        case firstVersion
    }

    /// The AI's choice worked out from the rule book with the plain graph: the scored
    /// candidates and the one chosen (the best score, ties to the lowest rotation, then
    /// canonical cell order).
    static func ruleBookChoice(_ state: QuortexState, oracle: RuleBookOracle,
                               filter: CandidateFilter = .published) throws -> (choice: Int, top: [Int]) {
        let setup = state.setup
        let board = setup.board
        let me = state.currentSeat
        let type = try #require(state.drawnTile)
        let codes = Q.codes(state)
        let onEdge = setup.edges.reduce(CellSet(0)) { $0 | board.edgeCells[$1] }
        let nearBy = filter == .published ? onEdge : board.edgeCells.reduce(CellSet(0), |)
        func near(_ cells: CellSet, _ c: Int) -> Bool {
            (0..<6).contains { board.neighbour[c * 6 + $0] >= 0 && cells & (CellSet(1) << board.neighbour[c * 6 + $0]) != 0 }
        }
        let occupied = codes.indices.reduce(CellSet(0)) { codes[$1] >= 0 ? $0 | CellSet(1) << $1 : $0 }
        let legal = Q.legal(state)
        var candidates = legal.filter { onEdge & (CellSet(1) << ($0 / 6)) != 0 || near(occupied, $0 / 6) || near(nearBy, $0 / 6) }
        if candidates.isEmpty { candidates = legal }
        let myAxis = setup.edges[me] % 3
        let otherAxes = Set((0..<setup.seatCount).filter { $0 != me }.map { setup.edges[$0] % 3 })
        var scored: [(action: Int, score: Int)] = []
        for action in candidates {
            var after = codes
            after[action / 6] = type * 6 + action % 6
            let completed = oracle.completedAxes(after) & setup.liveAxes
            if completed != 0 {
                scored.append((action, completed & (1 << myAxis) != 0 ? 100_000 : -200_000))
                continue
            }
            let a = oracle.routeLength(after, axis: myAxis)
            let e = otherAxes.compactMap { oracle.routeLength(after, axis: $0) }.min()
            scored.append((action, ruleBookScore(a: a, e: e)))
        }
        let best = try #require(scored.map(\.score).max())
        let top = scored.filter { $0.score == best }.map(\.action)
        let choice = try #require(top.min { ($0 % 6, $0 / 6) < ($1 % 6, $1 / 6) })
        return (choice, top)
    }

    /// The conformance suite's examples (``PublishedAIChoices``): each command's match is
    /// replayed as `oplab play` deals and seeds it (match 0 of the seed; `random` seats
    /// seeded per seat), on the line the fixture was recorded on: at a listed move the
    /// reference must choose the published placement and the first version's is played
    /// on; at every other reference move of the line the published AI agreed with the
    /// first version (the fixture lists every difference), so the reference must choose
    /// what the first version's filter chooses there.
    @Test func itChoosesThePublishedAIsPlacementOnTheConformanceExamples() throws {
        let game = try Q.game(seats: 2)
        let oracle = RuleBookOracle(board: game.setup.board)
        let commands = Dictionary(grouping: PublishedAIChoices.records, by: \.command)
        #expect(PublishedAIChoices.records.count == 58)
        var checked = 0, agreed = 0, otherMoves = 0
        for command in commands.keys.sorted() {
            let records = try #require(commands[command])
            let first = records[0]
            let matchSeed = Seeds.match(first.seed, match: 0)
            var state = game.newMatch(seed: matchSeed)
            let random = (0..<2).map { UniformRandomStrategy<QuortexGame>(seed: Seeds.strategy(matchSeed, seat: $0)) }
            let reference = QuortexReferenceAI()
            var buffer = ActionBuffer()
            let lastMove = records.map(\.move).max()!
            while state.turn < lastMove {
                try #require(!state.isTerminal, "\(command): the match ended before move \(lastMove)")
                let move = state.turn + 1, seat = state.currentSeat
                state.legalActions(into: &buffer)
                guard first.players[seat] == .reference else {
                    state.apply(random[seat].chooseAction(state.observation(for: seat), legal: buffer))
                    continue
                }
                let chosen = reference.chooseAction(state.observation(for: seat), legal: buffer)
                if let record = records.first(where: { $0.move == move }) {
                    let p = record.published, old = record.firstVersion
                    try #require(state.drawnTile == record.tile, "\(command), move \(move): the line left the fixture's")
                    let firstVersion = state.action(row: old.row, col: old.col, rotation: old.rotation)
                    try #require(try Self.ruleBookChoice(state, oracle: oracle, filter: .firstVersion).choice == firstVersion,
                                 "\(command), move \(move): the first version's filter does not choose \(old) here: not the fixture's position")
                    checked += 1
                    let expected = state.action(row: p.row, col: p.col, rotation: p.rotation)
                    #expect(chosen == expected, "\(command), move \(move): chose \(state.describe(chosen)), the published AI \(p)")
                    if chosen == expected { agreed += 1 }
                    state.apply(firstVersion)
                } else {
                    let firstVersion = try Self.ruleBookChoice(state, oracle: oracle, filter: .firstVersion).choice
                    #expect(chosen == firstVersion, "\(command), move \(move): chose \(state.describe(chosen)) where the published AI agreed with the first version's \(state.describe(firstVersion))")
                    otherMoves += 1
                    state.apply(firstVersion)
                }
            }
        }
        #expect(checked == 58, "every example reached")
        #expect(agreed == 58, "examples where the reference chose the published placement")
        #expect(otherMoves > 0)
    }

    /// Mover states from random play at radius 3 and 2, every third turn, and at radius 5
    /// (91 cells: the AI's searches then read 128-bit sets, on the smaller boards 64-bit).
    static func decisionStates(_ count: Int) throws -> [QuortexState] {
        var states: [QuortexState] = []
        var seed: UInt64 = 0
        let games = try [2, 3, 4, 5, 6].map { try Q.game(seats: $0) }
            + [try Q.game(seats: 3, ["radius": "2"]), try Q.game(seats: 2, ["radius": "5"])]
        while states.count < count {
            let game = games[Int(seed) % games.count]
            var state = game.newMatch(seed: seed)
            var rng = LabRandom(seed: Seeds.derive(seed, 7))
            seed += 1
            Q.playOut(&state, &rng) { state in
                if !state.isTerminal && state.turn % 3 == 0 && states.count < count { states.append(state) }
            }
        }
        return states
    }

    @Test func scoreFollowsTheRuleBookFormula() {
        #expect(QuortexReferenceAI.score(a: nil, e: nil) == 0)
        #expect(QuortexReferenceAI.score(a: nil, e: 3) == -100_000)
        #expect(QuortexReferenceAI.score(a: 4, e: nil) == -75_000)
        #expect(QuortexReferenceAI.score(a: 3, e: 5) == -2 * 9 + 25)
        #expect(QuortexReferenceAI.score(a: 2, e: 1) == -2 * 4 + 1 - 50_000)
        #expect(QuortexReferenceAI.score(a: 1, e: 2) == -2 + 4)
        for a in [nil, 1, 2, 5, 9] as [Int?] {
            for e in [nil, 1, 2, 6] as [Int?] { #expect(QuortexReferenceAI.score(a: a, e: e) == Self.ruleBookScore(a: a, e: e)) }
        }
    }

    @Test func theSameObservationGetsTheSameMove() throws {
        for state in try Self.decisionStates(30) {
            #expect(Self.choose(state) == Self.choose(state))
        }
    }

    @Test func itTakesAWinningPlacement() throws {
        let state = Q.position(try Q.game(edges: [0, 1]), tiles: Q.column(except: [3]), drawn: 2)
        #expect(Self.choose(state) == state.action(row: 3, col: 0, rotation: 5))
    }

    @Test func itDoesNotHandAnOpponentTheWinWhenItHasAnotherMove() throws {
        var state = Q.position(try Q.game(edges: [0, 1]), tiles: Q.column(except: [3]), drawn: 2)
        state.passTurn()
        #expect(state.currentSeat == 1)
        let winForSeatZero = state.action(row: 3, col: 0, rotation: 5)
        #expect(state.isLegal(row: 3, col: 0, rotation: 5))
        #expect(Self.choose(state) != winForSeatZero)
    }

    @Test func itChoosesWhatTheRuleBookDescriptionChooses() throws {
        let states = try Self.decisionStates(90)
        let oracles = Dictionary(uniqueKeysWithValues: [2, 3, 5].map { ($0, RuleBookOracle(board: QuortexBoard(radius: $0))) })
        var tiesBroken = 0, wide = 0
        for state in states {
            let oracle = try #require(oracles[state.board.radius])
            if state.board.radius == 5 { wide += 1 }
            let expected = try Self.ruleBookChoice(state, oracle: oracle)
            let chosen = Self.choose(state)
            #expect(Q.legal(state).contains(chosen))
            #expect(chosen == expected.choice, "seats \(state.seatCount), turn \(state.turn): chose \(state.describe(chosen)), rule book \(state.describe(expected.choice))")
            if expected.top.count > 1 { tiesBroken += 1 }
        }
        #expect(tiesBroken > 30, "decisions where the tie-break rule picked among equal scores")
        #expect(wide > 5, "decisions on the radius-5 board")
    }

    /// On the empty board (seat 0 of 2, on edge 0) many placements score alike.
    static func emptyBoard(drawn: Int) throws -> QuortexState {
        var state = try Q.game(seats: 2).newMatch(seed: 1)
        state.setDrawnTile(drawn)
        return state
    }

    @Test func equalScoresGoToTheLowestRotationBeforeTheCellOrder() throws {
        let state = try Self.emptyBoard(drawn: 0)
        let top = try Self.ruleBookChoice(state, oracle: RuleBookOracle(board: state.board)).top
        let firstCell = state.action(row: -3, col: 0, rotation: 2), lowestRotation = state.action(row: -3, col: 3, rotation: 0)
        #expect(top.contains(firstCell) && top.contains(lowestRotation), "the two score alike")
        #expect(Self.choose(state) == lowestRotation)
    }

    @Test func equalScoresAtTheSameRotationGoToTheFirstCell() throws {
        let state = try Self.emptyBoard(drawn: 2)
        let top = try Self.ruleBookChoice(state, oracle: RuleBookOracle(board: state.board)).top
        let first = state.action(row: -3, col: 0, rotation: 1), later = state.action(row: -3, col: 1, rotation: 1)
        #expect(top.contains(first) && top.contains(later), "the two score alike")
        #expect(Self.choose(state) == first)
    }

    @Test func itNeverPicksAnIllegalMove() throws {
        var decisions = 0
        for seats in [2, 4, 6] {
            let game = try Q.game(seats: seats)
            for seed in 0..<3 as Range<UInt64> {
                var state = game.newMatch(seed: seed)
                let ai = QuortexReferenceAI()
                var buffer = ActionBuffer()
                while !state.isTerminal {
                    state.legalActions(into: &buffer)
                    let choice = ai.chooseAction(state.observation(for: state.currentSeat), legal: buffer)
                    try #require(buffer.contains(choice), "\(seats) seats, seed \(seed), turn \(state.turn): \(choice)")
                    state.apply(choice)
                    decisions += 1
                }
            }
        }
        #expect(decisions > 100)
    }
}
