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
    /// word: rotation r's low and high 64 cells at `2r` and `2r + 1`) makes for the
    /// distinct `rotations`: the 64-cell word holding it, then its cell. Most legal cells
    /// take all k rotations; the few that take only some (essential cells) are passed one
    /// by one, and among the others the placement is the (i / k)-th cell's (i % k)-th
    /// rotation.
    static func placement(at index: Int, words masks: UnsafePointer<UInt64>, rotations: Int) -> Int {
        assert(MemoryLayout<CellSet>.size == 16 && UInt16(littleEndian: 1) == 1, "a cell set is two words, low first")
        var rest = index
        for word in 0..<2 {
            // Cells taking every distinct rotation, and cells taking any.
            var every = UInt64.max, some: UInt64 = 0, k = 0
            var r = rotations
            while r != 0 {
                let bits = masks[r.trailingZeroBitCount &* 2 &+ word]
                every &= bits
                some |= bits
                k &+= 1
                r &= r &- 1
            }
            // The cells taking only some rotations, in order, up to the placement: `passed`
            // counts their placements before it.
            var partial = some & ~every, passed = 0
            while partial != 0 {
                let cell = partial.trailingZeroBitCount
                partial &= partial &- 1
                let bit = UInt64(1) &<< UInt64(cell)
                let start = k &* (every & (bit &- 1)).nonzeroBitCount &+ passed
                if rest < start { break }  // on a cell before this one
                var skip = rest &- start
                r = rotations
                while r != 0 {
                    let rotation = r.trailingZeroBitCount
                    r &= r &- 1
                    guard masks[rotation &* 2 &+ word] & bit != 0 else { continue }
                    if skip == 0 { return (word &* 64 &+ cell) &* 6 &+ rotation }
                    skip &-= 1
                    passed &+= 1
                }
            }
            // On a cell taking every rotation, or past this word.
            let onEvery = rest &- passed, full = k &* every.nonzeroBitCount
            if onEvery < full {
                return (word &* 64 &+ setBit(every, onEvery / k)) &* 6 &+ setBit(UInt64(rotations), onEvery % k)
            }
            rest = onEvery &- full
        }
        preconditionFailure("placement \(index) past the legal placements")
    }
}
