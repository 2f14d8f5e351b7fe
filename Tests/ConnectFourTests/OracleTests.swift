import ConnectFour
import LabCore
import Testing

/// The bitboard against a plain grid over random matches: after every drop the same
/// discs on the same cells, the same legal columns, and the match over exactly when
/// the grid finds a four (of the mover) or is full.
@Suite("Bitboard against a plain grid")
struct OracleTests {
    @Test func randomMatchesAgreeWithTheGridDropByDrop() throws {
        var rng = LabRandom(seed: 2024)
        for match in 0..<500 {
            var state = C4.game.newMatch(seed: UInt64(match))
            var grid = Grid()
            while !state.isTerminal {
                let heights = grid.heights
                #expect(C4.legal(state) == (0..<7).filter { heights[$0] < 6 }, "match \(match) turn \(state.turn)")
                let legal = C4.legal(state)
                let column = legal[rng.uniform(legal.count)]
                let mover = state.currentSeat
                grid.drop(column, seat: mover)
                state.apply(column)
                try #require(Grid(state).cells == grid.cells, "match \(match) turn \(state.turn)")
                let four = grid.hasFour(mover)
                try #require(state.isTerminal == (four || state.turn == 42), "match \(match) turn \(state.turn)")
                #expect(!grid.hasFour(1 - mover))
                if four { #expect(state.winningSeat == mover) }
            }
            let outcome = try #require(state.outcome)
            #expect(outcome.endReason == (state.turn == 42 && state.winningSeat == nil ? "board-full" : "four-in-a-row"))
        }
    }
}
