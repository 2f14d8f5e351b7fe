import LabCore

extension ConnectFourState {
    /// The columns that are not full, ascending; none once the match is over.
    /// - Complexity: O(7); no allocation once the buffer has held 7 actions.
    @inlinable
    public func legalActions(into buffer: inout ActionBuffer) {
        buffer.fill(upTo: Bitboard.columns) { out in
            var n = 0
            guard reason == .none else { return 0 }
            for column in 0..<Bitboard.columns where heights[column] < 6 {
                out[n] = Int32(truncatingIfNeeded: column)
                n &+= 1
            }
            return n
        }
    }

    /// Drops the mover's disc into column `action`; four in a row wins, else the 42nd
    /// disc ends the match drawn.
    /// - Precondition: the match runs and the column is not full.
    /// - Complexity: O(1): one bit set, one four-in-a-row test of the mover's discs.
    @inlinable
    public mutating func apply(_ action: Int) {
        precondition(reason == .none && UInt(bitPattern: action) < UInt(Bitboard.columns) && heights[action] < 6,
                     "connect4: not a legal drop")
        let bit = Bitboard.bit(column: action, row: Int(heights[action]))
        heights[action] &+= 1
        let won: Bool
        if turns & 1 == 0 {
            discs0 |= bit
            won = Bitboard.hasFour(discs0)
        } else {
            discs1 |= bit
            won = Bitboard.hasFour(discs1)
        }
        if won {
            winner = Int8(truncatingIfNeeded: turns & 1)
            reason = .fourInARow
        } else if turns == 41 {
            // The 42nd disc (Bitboard.cells) without a four.
            reason = .boardFull
        }
        turns &+= 1
    }
}
