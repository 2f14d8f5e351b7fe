import LabCore
import Quortex
import Testing

/// Rule book, "A turn": draw from the bag, lose nothing by an empty bag or a tile that
/// fits nowhere (the mover wins by constraint), otherwise place; then the next seat.
@Suite("Turns")
struct TurnTests {
    @Test func theFivePlayerTableMovesZeroOneTwoThreeFourTwo() throws {
        let game = try Q.game(seats: 5)
        var state = game.newMatch(seed: 3)
        var rng = LabRandom(seed: 3)
        var movers: [Int] = []
        for _ in 0..<12 {
            try #require(!state.isTerminal)
            movers.append(state.currentSeat)
            let legal = Q.legal(state)
            state.apply(legal[rng.uniform(legal.count)])
        }
        #expect(movers == [0, 1, 2, 3, 4, 2, 0, 1, 2, 3, 4, 2])
    }

    @Test("seats move in turn order", arguments: [2, 3, 4, 6])
    func seatsMoveInTurnOrder(seats: Int) throws {
        let game = try Q.game(seats: seats)
        var state = game.newMatch(seed: 5)
        var rng = LabRandom(seed: 5)
        for turn in 0..<12 {
            try #require(!state.isTerminal)
            #expect(state.currentSeat == game.setup.turnOrder[turn % game.setup.turnOrder.count])
            let legal = Q.legal(state)
            state.apply(legal[rng.uniform(legal.count)])
        }
    }

    @Test func theDealShufflesTheBagAndSeatZeroDrawsFromIt() throws {
        let game = try Q.game(seats: 2)
        let state = game.newMatch(seed: 8)
        let drawn = try #require(state.drawnTile)
        #expect(state.currentSeat == 0)
        #expect(state.tilesInBag == 39)
        var counts = [0, 0, 0, 0]
        for type in state.bagOrder { counts[type] += 1 }
        counts[drawn] += 1
        #expect(counts == [10, 10, 10, 10])
        let orders = Set((0..<8 as Range<UInt64>).map { game.newMatch(seed: $0).bagOrder })
        #expect(orders.count == 8, "each seed shuffles its own order")
    }

    @Test func eachTurnDrawsTheTopOfTheBag() throws {
        var state = try Q.game(seats: 3).newMatch(seed: 9)
        var rng = LabRandom(seed: 9)
        for _ in 0..<10 {
            let next = try #require(state.bagOrder.last)
            let left = state.tilesInBag
            let remaining = state.observation(for: 0).remaining(next)
            let legal = Q.legal(state)
            state.apply(legal[rng.uniform(legal.count)])
            try #require(!state.isTerminal)
            #expect(state.drawnTile == next)
            #expect(state.tilesInBag == left - 1)
            #expect(state.observation(for: 0).remaining(next) == remaining - 1)
        }
    }

    @Test func placingPutsTheDrawnTileOnTheBoardAndPassesTheTurn() throws {
        var state = try Q.game(seats: 2).newMatch(seed: 10)
        let drawn = try #require(state.drawnTile)
        let action = state.action(row: 1, col: 1, rotation: 1)
        #expect(state.isLegal(row: 1, col: 1, rotation: 1))
        state.apply(action)
        #expect(state.tileCode(at: try Q.cell(state.board, 1, 1)) == drawn * 6 + action % 6)
        #expect(state.currentSeat == 1)
        #expect(state.turn == 1)
        #expect(state.seatStats(0) == [1])
        #expect(state.seatStats(1) == [0])
    }

    @Test("an empty bag is a constraint win for the mover and their team", arguments: [2, 4])
    func anEmptyBagIsAConstraintWinForTheMover(seats: Int) throws {
        var state = try Q.game(seats: seats, ["bag": "1,0,0,0"]).newMatch(seed: 1)
        #expect(state.drawnTile == 0)
        #expect(state.tilesInBag == 0)
        state.apply(Q.legal(state)[0])
        #expect(state.isTerminal)
        #expect(state.endReason == .constraint)
        #expect(state.drawnTile == nil)
        #expect(state.outcome == Outcome(places: seats == 2 ? [2, 1] : [3, 1, 3, 1], endReason: "constraint", turns: 1))
    }

    /// The first match of random play on a radius-1 board of `seats` that ends because
    /// the drawn tile fits nowhere (common on seven cells), with the state before it.
    static func stuckDraw(seats: Int) throws -> (before: QuortexState, after: QuortexState) {
        let game = try Q.game(seats: seats, ["radius": "1"])
        for seed in 0..<200 as Range<UInt64> {
            var rng = LabRandom(seed: seed)
            var state = game.newMatch(seed: seed)
            while !state.isTerminal {
                let before = state
                let legal = Q.legal(state)
                state.apply(legal[rng.uniform(legal.count)])
                if state.endReason == .constraint && state.drawnTile != nil { return (before, state) }
            }
        }
        throw StuckDrawNotFound()
    }

    struct StuckDrawNotFound: Error {}

    @Test("a drawn tile with no legal placement is a constraint win for the mover and their team", arguments: [2, 4])
    func aDrawnTileWithNoLegalPlacementIsAConstraintWin(seats: Int) throws {
        let (before, state) = try Self.stuckDraw(seats: seats)
        let drawn = try #require(state.drawnTile)
        let oracle = RuleBookOracle(board: state.board)
        #expect(oracle.legalPlacements(Q.codes(state), type: drawn, liveAxes: state.setup.liveAxes).isEmpty)
        #expect(Q.codes(state).contains(-1), "the board is not full")
        let mover = state.currentSeat
        #expect(mover == (before.currentSeat + 1) % seats, "the seat after the last placement drew")
        let places = try #require(state.outcome?.places)
        for seat in 0..<seats { #expect((places[seat] == 1) == (state.setup.sideOfSeat[seat] == state.setup.sideOfSeat[mover])) }
        #expect(state.outcome?.endReason == "constraint")
    }
}
