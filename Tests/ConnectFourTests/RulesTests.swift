import ConnectFour
import LabCore
import Testing

/// The rules: seat 0 moves first and the seats alternate, a disc lands on the lowest
/// free cell of its column, a full column takes no more, four in a line in any of the
/// four directions wins (at the board's edges too, never across the wrap from one
/// column to the next), and a full board without a four is a draw.
@Suite("Rules")
struct RulesTests {
    /// Drops `column` for the mover of `state` and checks the mover won by it.
    func expectWin(_ state: ConnectFourState, dropping column: Int, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let mover = state.currentSeat
        var after = state
        after.apply(column)
        #expect(after.isTerminal, sourceLocation: sourceLocation)
        #expect(after.winningSeat == mover, sourceLocation: sourceLocation)
        let outcome = try #require(after.outcome, sourceLocation: sourceLocation)
        #expect(outcome.endReason == "four-in-a-row", sourceLocation: sourceLocation)
        #expect(outcome.places == (mover == 0 ? [1, 2] : [2, 1]), sourceLocation: sourceLocation)
        #expect(outcome.turns == state.turn + 1, sourceLocation: sourceLocation)
        #expect(after.invariantViolation() == nil, sourceLocation: sourceLocation)
        #expect(Grid(after).hasFour(mover), "the oracle sees the four too", sourceLocation: sourceLocation)
    }

    // MARK: turns and drops

    @Test func seatZeroMovesFirstAndTheSeatsAlternate() {
        var state = C4.game.newMatch(seed: 99)
        #expect(state.turn == 0 && state.currentSeat == 0)
        for (k, column) in [3, 3, 4, 0, 6].enumerated() {
            #expect(state.currentSeat == k % 2, "turn \(k)")
            state.apply(column)
        }
        #expect(state.seat(column: 3, row: 0) == 0)
        #expect(state.seat(column: 3, row: 1) == 1)
        #expect(state.seat(column: 4, row: 0) == 0)
        #expect(state.seat(column: 0, row: 0) == 1)
        #expect(state.seat(column: 6, row: 0) == 0)
        #expect(state.turn == 5 && state.currentSeat == 1)
        #expect(state.seatStats(0) == [3] && state.seatStats(1) == [2])
    }

    @Test func aDiscLandsOnTheLowestFreeCellOfItsColumn() {
        let state = C4.play([5, 5, 5])
        #expect((0..<6).map { state.seat(column: 5, row: $0) } == [0, 1, 0, nil, nil, nil])
        #expect(state.height(of: 5) == 3)
        #expect((0..<7).filter { $0 != 5 }.allSatisfy { state.height(of: $0) == 0 })
    }

    @Test func aFullColumnIsNotLegal() {
        var state = C4.play([])
        #expect(C4.legal(state) == [0, 1, 2, 3, 4, 5, 6])
        for k in 0..<6 {
            #expect(C4.legal(state).contains(2), "column 2 holds \(k) discs")
            state.apply(2)
        }
        // Alternating discs in one column make no four.
        #expect(!state.isTerminal)
        #expect(state.height(of: 2) == 6)
        #expect(C4.legal(state) == [0, 1, 3, 4, 5, 6])
    }

    @Test func droppingIntoAFullColumnTraps() async {
        await #expect(processExitsWith: .failure) {
            var state = ConnectFourState()
            for _ in 0..<6 { state.apply(2) }
            state.apply(2)
        }
    }

    @Test func noMoveIsLegalOnceTheMatchIsWon() async throws {
        // X: 0, 1, 2, 3 along the bottom; O stacks on 0, 1, 2.
        let state = C4.play([0, 0, 1, 1, 2, 2, 3])
        #expect(state.isTerminal && state.winningSeat == 0)
        #expect(C4.legal(state).isEmpty)
        await #expect(processExitsWith: .failure) {
            var state = ConnectFourState()
            for column in [0, 0, 1, 1, 2, 2, 3] { state.apply(column) }
            state.apply(4)
        }
    }

    // MARK: the four directions, at the edges

    @Test func verticalFourAtTheLeftEdge() throws {
        try expectWin(C4.position([
            "X . . . . . .",
            "X . . . . . .",
            "X O O O . . .",
        ], mover: 0), dropping: 0)
    }

    @Test func verticalFourUpToTheTopAtTheRightEdge() throws {
        try expectWin(C4.position([
            ". . . . . . X",
            ". . . . . . X",
            ". . . . . . X",
            ". . . . . . O",
            "X . . . O O O",
        ], mover: 0), dropping: 6)
    }

    @Test func horizontalFourAtTheBottomLeftEdge() throws {
        try expectWin(C4.position([
            "O O O . . . .",
            "X X X . . . .",
        ], mover: 0), dropping: 3)
    }

    @Test func horizontalFourCompletedInItsMiddle() throws {
        try expectWin(C4.position([
            "O O . O . . .",
            "X X . X . . .",
        ], mover: 0), dropping: 2)
    }

    @Test func horizontalFourOnTheTopRowAtTheRightEdge() throws {
        // The drop lands on (3, 5); only row 5 makes four through it.
        try expectWin(C4.position([
            ". . . . X X X",
            ". . . X O O X",
            ". . . X O O O",
            "O . . O X X X",
            "O X . O X O O",
            "O O . X X X O",
        ], mover: 0), dropping: 3)
    }

    @Test func risingDiagonalFromTheBottomLeftCorner() throws {
        // (0,0), (1,1), (2,2) and the drop on (3,3).
        try expectWin(C4.position([
            ". . X X . . .",
            ". X O O . . .",
            "X O O X . . O",
        ], mover: 0), dropping: 3)
    }

    @Test func fallingDiagonalToTheBottomRightCorner() throws {
        // The drop on (3,3), then (4,2), (5,1), (6,0): the mirror image of the above.
        try expectWin(C4.position([
            ". . . X X . .",
            ". . . O O X .",
            "O . . X O O X",
        ], mover: 0), dropping: 3)
    }

    @Test func risingDiagonalToTheTopRightCorner() throws {
        // (3,2), (4,3), (5,4) and the drop on (6,5), the last cell of column 6.
        try expectWin(C4.position([
            ". . . . . X X",
            ". . . . X X X",
            ". O . X O O O",
            ". O . X O X O",
            ". X . O O X O",
        ], mover: 0), dropping: 6)
    }

    @Test func fallingDiagonalFromTheTopLeftCorner() throws {
        // The drop on (0,5), then (1,4), (2,3), (3,2).
        try expectWin(C4.position([
            ". . . O . . O",
            "O X O O . . O",
            "O O X X . . X",
            "X O O X . X X",
            "X O X X O O X",
            "O X X O X X O",
        ], mover: 0), dropping: 0)
    }

    @Test func secondSeatWinsToo() throws {
        // X plays 6 and lets O complete the bottom row 0-3.
        let state = C4.play([4, 0, 4, 1, 5, 2, 6])
        try expectWin(state, dropping: 3)
    }

    // MARK: no false fours

    @Test func threeAtATopAndThreeAtTheNextBottomAreNoFour() throws {
        // X holds column 0's top three cells and column 1's bottom three: six bits in a
        // row but for the sentinel between them (a layout without it would call this a
        // vertical four).
        let state = ConnectFourState(picture: [
            "X O . . . . .",
            "X O . . . . .",
            "X O . . . . .",
            "O X . . . . .",
            "O X . . . . .",
            "O X . . . . .",
        ])
        #expect(state.invariantViolation() == nil)
        #expect(!state.isTerminal)
        #expect(!Bitboard.hasFour(state.discs(of: 0)) && !Bitboard.hasFour(state.discs(of: 1)))
    }

    @Test func diagonalsDoNotWrapIntoTheNextColumn() {
        // With six bits a column (no sentinel), (0,3) (1,4) (2,5) (4,0) would be one
        // rising line and (0,2) (1,1) (2,0) (2,5) one falling line.
        let rising = [(0, 3), (1, 4), (2, 5), (4, 0)], falling = [(0, 2), (1, 1), (2, 0), (2, 5)]
        for cells in [rising, falling] {
            let discs = cells.reduce(UInt64(0)) { $0 | Bitboard.bit(column: $1.0, row: $1.1) }
            #expect(!Bitboard.hasFour(discs), "\(cells)")
        }
        // Every genuine line of four is found, and every line of three is not.
        var lines = 0
        for column in 0..<7 {
            for row in 0..<6 {
                for (dc, dr) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
                    let cells = (0..<4).map { (column + dc * $0, row + dr * $0) }
                    guard cells.allSatisfy({ (0..<7).contains($0.0) && (0..<6).contains($0.1) }) else { continue }
                    let bits = cells.map { Bitboard.bit(column: $0.0, row: $0.1) }
                    #expect(Bitboard.hasFour(bits.reduce(0, |)), "\(cells)")
                    for left in 0..<4 {
                        #expect(!Bitboard.hasFour(bits.enumerated().filter { $0.offset != left }.reduce(0) { $0 | $1.element }))
                    }
                    lines += 1
                }
            }
        }
        #expect(lines == 69, "24 horizontal, 21 vertical and 12 on each diagonal")
    }

    @Test func theBitboardMasksMatchTheLayout() {
        var bottom: UInt64 = 0, top: UInt64 = 0, board: UInt64 = 0
        for column in 0..<7 {
            bottom |= Bitboard.bit(column: column, row: 0)
            top |= Bitboard.bit(column: column, row: 5)
            for row in 0..<6 { board |= Bitboard.bit(column: column, row: row) }
            #expect(Bitboard.column(column) == (0..<6).reduce(0) { $0 | Bitboard.bit(column: column, row: $1) })
        }
        #expect(Bitboard.bottomRow == bottom && Bitboard.topRow == top && Bitboard.board == board)
        #expect(Bitboard.board.nonzeroBitCount == Bitboard.cells)
    }

    // MARK: the end

    /// Rows 0, 2, 4 `X X O O X X O` and rows 1, 3, 5 the same with the seats swapped:
    /// columns alternate, rows have runs of two, and no diagonal has four.
    static let drawnRows = ["X X O O X X O", "O O X X O O X"]

    @Test func aFullBoardWithoutFourIsADraw() throws {
        // Played row by row: each row alternates its X and O columns, starting with the
        // mover (X on even rows, O on odd ones).
        var grid = Grid()
        var moves: [Int] = []
        for row in 0..<6 {
            let cells = Array(Self.drawnRows[row % 2].filter { $0 != " " })
            let xs = cells.indices.filter { cells[$0] == "X" }, os = cells.indices.filter { cells[$0] == "O" }
            let (first, second) = row % 2 == 0 ? (xs, os) : (os, xs)
            for k in 0..<7 { moves.append(k % 2 == 0 ? first[k / 2] : second[k / 2]) }
        }
        var state = C4.game.newMatch(seed: 1)
        for (k, column) in moves.enumerated() {
            try #require(!state.isTerminal, "over after \(k) discs")
            grid.drop(column, seat: state.currentSeat)
            state.apply(column)
        }
        #expect(!grid.hasFour(0) && !grid.hasFour(1), "the oracle agrees the board holds no four")
        #expect(state.renderBoard() == (0..<6).map { Self.drawnRows[(5 - $0) % 2] }.joined(separator: "\n") + "\n0 1 2 3 4 5 6")
        #expect(state.isTerminal && state.winningSeat == nil && state.turn == 42)
        let outcome = try #require(state.outcome)
        #expect(outcome.places == [1, 1] && outcome.endReason == "board-full" && outcome.turns == 42)
        #expect(state.searchValue(of: 0) == 0.5 && state.searchValue(of: 1) == 0.5)
        #expect(C4.legal(state).isEmpty)
        #expect(state.invariantViolation() == nil)
    }

    @Test func aFourWithTheLastDiscWinsRatherThanDraws() throws {
        // 41 discs; O's 42nd on (3,5) completes the top row.
        let state = try C4.position([
            "O O O . O X X",
            "O X X X O X O",
            "X X X O O X X",
            "X O X O X O O",
            "O X O X O O X",
            "X X O X O X O",
        ], mover: 1)
        #expect(C4.legal(state) == [3])
        try expectWin(state, dropping: 3)
    }

    @Test func searchValueIsTheScoreAtTheEndAndNeutralBefore() {
        let won = C4.play([0, 0, 1, 1, 2, 2, 3])
        #expect(won.searchValue(of: 0) == 1 && won.searchValue(of: 1) == 0)
        let running = C4.play([0, 0, 1, 1, 2, 2])
        #expect(running.searchValue(of: 0) == 0.5 && running.searchValue(of: 1) == 0.5)
        #expect(running.outcome == nil)
    }
}
