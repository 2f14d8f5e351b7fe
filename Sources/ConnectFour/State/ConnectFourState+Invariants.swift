import LabCore

extension ConnectFourState {
    /// The first broken invariant: discs only on the board and never two on one cell;
    /// each column's discs stacked from the bottom up to its height, none floating
    /// above it; the turn counting the discs, seat 0 holding as many as seat 1 or one
    /// more (the mover being the seat with fewer); and the end agreeing with the
    /// board: a running match has no four and a free cell, a won one exactly one
    /// four-holder, who dropped the last disc, a drawn one a full board without a four.
    public func invariantViolation() -> String? {
        if (discs0 | discs1) & ~Bitboard.board != 0 {
            return "discs outside the board (a sentinel or a bit above 48): \(String((discs0 | discs1) & ~Bitboard.board, radix: 16))"
        }
        if discs0 & discs1 != 0 { return "a cell holds discs of both seats" }
        for column in 0..<Bitboard.columns {
            let height = Int(heights[column])
            if height > Bitboard.rows { return "column \(column) has height \(height), above \(Bitboard.rows)" }
            let filled = (UInt64(1) << UInt64(height) - 1) << UInt64(column * Bitboard.stride)
            let inColumn = (discs0 | discs1) & Bitboard.column(column)
            if inColumn & ~filled != 0 { return "column \(column): a disc floats above its height \(height)" }
            if inColumn != filled { return "column \(column): a hole below its height \(height)" }
        }
        let count0 = discs0.nonzeroBitCount, count1 = discs1.nonzeroBitCount
        if count0 + count1 != turn { return "\(count0 + count1) discs on the board after \(turn) turns" }
        if count0 != count1 + turn % 2 {
            return "seat 0 has \(count0) discs and seat 1 \(count1) after \(turn) turns (seat 0 moves first: equal, or one more)"
        }
        let four0 = Bitboard.hasFour(discs0), four1 = Bitboard.hasFour(discs1)
        switch reason {
        case .none:
            if four0 || four1 { return "a running match with four in a row of seat \(four0 ? 0 : 1)" }
            if turn >= Bitboard.cells { return "a running match with a full board" }
            if winner != -1 { return "a running match with winner \(winner)" }
        case .fourInARow:
            if four0 && four1 { return "both seats have four in a row" }
            guard let seat = winningSeat, seat == 0 ? four0 : four1 else { return "winner \(winner) has no four in a row" }
            if turn == 0 || seat != (turn - 1) % 2 { return "winner \(seat) did not drop the last disc" }
        case .boardFull:
            if turn != Bitboard.cells { return "drawn with \(turn) discs on the board" }
            if four0 || four1 { return "drawn with four in a row of seat \(four0 ? 0 : 1)" }
            if winner != -1 { return "drawn with winner \(winner)" }
        }
        return nil
    }
}
