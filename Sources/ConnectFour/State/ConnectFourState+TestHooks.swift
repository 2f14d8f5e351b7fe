import LabCore

/// Set-up hooks for tests: positions from pictures, and raw states that may break the
/// invariants (to show ``ConnectFourState/invariantViolation()`` catches them).
extension ConnectFourState {
    /// The position drawn by `rows`, top row first as ``renderBoard()`` draws it: each
    /// row 7 cells of `X` (seat 0), `O` (seat 1) or `.`, spaces ignored; fewer than six
    /// rows leave the top ones empty. The turn is the number of discs and the end is
    /// read off the board: a four of one seat ends the match won by it, a full board
    /// without one drawn. Nothing else is checked: a picture with a floating disc or
    /// a wrong disc count makes a state ``invariantViolation()`` rejects.
    /// - Precondition: at most six rows of seven cells each, of `X`, `O` and `.` only.
    package init(picture rows: [String]) {
        self.init()
        precondition(rows.count <= Bitboard.rows, "at most \(Bitboard.rows) rows")
        for (index, text) in rows.enumerated() {
            let row = rows.count - 1 - index
            let cells = text.filter { $0 != " " }
            precondition(cells.count == Bitboard.columns, "row '\(text)' needs \(Bitboard.columns) cells")
            for (column, cell) in cells.enumerated() {
                let bit = Bitboard.bit(column: column, row: row)
                switch cell {
                case "X": discs0 |= bit
                case "O": discs1 |= bit
                case ".": break
                default: preconditionFailure("cell '\(cell)' in row '\(text)': X, O or .")
                }
                if cell != "." { heights[column] = max(heights[column], UInt8(row + 1)) }
            }
        }
        turns = UInt8((discs0 | discs1).nonzeroBitCount)
        let four0 = Bitboard.hasFour(discs0), four1 = Bitboard.hasFour(discs1)
        if four0 != four1 {
            winner = four0 ? 0 : 1
            reason = .fourInARow
        } else if Int(turns) == Bitboard.cells && !four0 {
            reason = .boardFull
        }
    }

    /// A state with exactly these fields, unchecked.
    package init(discs0: UInt64, discs1: UInt64, heights: [Int], turn: Int, winner: Int, reason: ConnectFourEndReason) {
        self.init()
        self.discs0 = discs0
        self.discs1 = discs1
        for (column, height) in heights.enumerated() { self.heights[column] = UInt8(height) }
        turns = UInt8(turn)
        self.winner = Int8(winner)
        self.reason = reason
    }

    /// Its raw fields, to corrupt a copy with the initialiser above.
    package var raw: (discs0: UInt64, discs1: UInt64, heights: [Int], turn: Int, winner: Int, reason: ConnectFourEndReason) {
        (discs0, discs1, (0..<Bitboard.columns).map { Int(heights[$0]) }, turn, Int(winner), reason)
    }
}
