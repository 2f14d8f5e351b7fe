import LabCore

/// The legal placements counted, and one of them named by its index, without writing
/// the list: what a uniform draw needs (the play loop's `random` seats,
/// ``GameState/legalActionCountInPlace()``). A Quortex list is a few hundred placements
/// a turn; a draw reads one.
extension QuortexState {
    /// How many placements ``legalActions(into:)`` lists; nil once the match is over.
    public mutating func legalActionCountInPlace() -> Int? {
        guard !isTerminal else { return nil }
        if unchecked != 0 { check(cells: unchecked) }
        let tile = Int(tile)
        return withUnsafeBytes(of: legalCells) { raw in
            let masks = raw.baseAddress!.assumingMemoryBound(to: CellSet.self)
            var count = 0
            var r = QuortexTile.distinctRotationMasks[tile]
            while r != 0 {
                count &+= masks[r.trailingZeroBitCount].nonzeroBitCount
                r &= r &- 1
            }
            return count
        }
    }

    /// The `index`-th placement of ``legalActions(into:)``'s list (cells in order, each
    /// cell's rotations lowest first).
    public mutating func legalAction(at index: Int) -> Int {
        precondition(!isTerminal, "legalAction(at:) of a finished match")
        if unchecked != 0 { check(cells: unchecked) }
        let tile = Int(tile)
        return withUnsafeBytes(of: legalCells) { raw in
            // A rotation's cell set as two 64-bit words, low cells first.
            Self.placement(at: index, words: raw.baseAddress!.assumingMemoryBound(to: UInt64.self),
                           rotations: QuortexTile.distinctRotationMasks[tile])
        }
    }

    /// The `index`-th placement of the list `masks` (legal cells per rotation, word by
    /// word: rotation r's low and high 64 cells at `2r` and `2r + 1`) makes for
    /// the distinct `rotations`: the 64-cell word holding it, then its cell by halving
    /// (six steps, each counting the placements on the cells below a position: k for a
    /// cell taking all k rotations, one a rotation for the others).
    static func placement(at index: Int, words masks: UnsafePointer<UInt64>, rotations: Int) -> Int {
        assert(MemoryLayout<CellSet>.size == 16 && UInt16(littleEndian: 1) == 1, "a cell set is two words, low first")
        var rest = index
        for word in 0..<2 {
            // This word's legal cells, per distinct rotation in order.
            var words = InlineArray<6, UInt64>(repeating: 0)
            var k = 0, total = 0
            var every = UInt64.max, some: UInt64 = 0
            var r = rotations
            while r != 0 {
                let bits = masks[r.trailingZeroBitCount &* 2 &+ word]
                words[k] = bits
                total &+= bits.nonzeroBitCount
                every &= bits
                some |= bits
                k &+= 1
                r &= r &- 1
            }
            if rest < total {
                // Cells taking only some rotations (few: most take all k or none).
                let partial = some & ~every
                // The last position whose cells below hold at most `rest` placements.
                var cell = 0, before = 0, step = 32
                while step != 0 {
                    let below = (UInt64(1) &<< UInt64(cell &+ step)) &- 1
                    var n = k &* (every & below).nonzeroBitCount
                    if partial & below != 0 {
                        for i in 0..<k { n &+= (words[i] & partial & below).nonzeroBitCount }
                    }
                    if n <= rest {
                        cell &+= step
                        before = n
                    }
                    step &>>= 1
                }
                // Its legal rotations in order: the (rest - before)-th.
                var skip = rest &- before
                let bit = UInt64(1) &<< UInt64(cell)
                r = rotations
                for i in 0..<k {
                    let rotation = r.trailingZeroBitCount
                    r &= r &- 1
                    guard words[i] & bit != 0 else { continue }
                    if skip == 0 { return (word &* 64 &+ cell) &* 6 &+ rotation }
                    skip &-= 1
                }
            }
            rest &-= total
        }
        preconditionFailure("placement \(index) past the legal placements")
    }
}
