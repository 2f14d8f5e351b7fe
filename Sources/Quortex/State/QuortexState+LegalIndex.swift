import LabCore

/// The legal placements counted, and one of them named by its index, without writing
/// the list: what a uniform draw needs (the play loop's `random` seats,
/// ``GameState/legalActionCountInPlace()``). A Quortex list is a few hundred placements
/// a turn; a draw reads one.
extension QuortexState {
    /// How many placements ``legalActions(into:)`` lists; nil once the match is over.
    public mutating func legalActionCountInPlace() -> Int? {
        guard !isTerminal else { return nil }
        return withLegalWords { masks, rotations in
            var count = 0, r = rotations
            while r != 0 {
                let rotation = r.trailingZeroBitCount
                count &+= masks[rotation &* 2].nonzeroBitCount &+ masks[rotation &* 2 &+ 1].nonzeroBitCount
                r &= r &- 1
            }
            return count
        }
    }

    /// The `index`-th placement of ``legalActions(into:)``'s list (cells in order, each
    /// cell's rotations lowest first).
    public mutating func legalAction(at index: Int) -> Int {
        precondition(!isTerminal, "legalAction(at:) of a finished match")
        return withLegalWords { masks, rotations in Self.placement(at: index, words: masks, rotations: rotations) }
    }

    /// Lends `body` the drawn tile's legal cells per rotation as 64-bit words (rotation
    /// r's low and high 64 cells at `2r` and `2r + 1`), a playout's unchecked cells worked
    /// out first, and the tile's distinct rotations.
    @inline(__always)
    private mutating func withLegalWords<R>(_ body: (UnsafePointer<UInt64>, Int) -> R) -> R {
        if unchecked != 0 { check(cells: unchecked) }
        let rotations = QuortexTile.distinctRotationMask(Int(tile))
        // Borrowed where it lies (`withUnsafeBytes(of:)` of the field copied its 96 bytes).
        return withUnsafeMutableBytes(of: &legalCells) { raw in body(raw.baseAddress!.assumingMemoryBound(to: UInt64.self), rotations) }
    }

    /// The `index`-th placement of the list `masks` (``withLegalWords(_:)``'s words)
    /// makes for the distinct `rotations`: the 64-cell word holding it, then its cell.
    /// Most legal cells take all k rotations; the few that take only some (essential
    /// cells) are passed one by one, and among the others the placement is the (i / k)-th
    /// cell's (i % k)-th rotation.
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
                return (word &* 64 &+ SetBits.index(ofSetBit: onEvery / k, in: every)) &* 6
                    &+ SetBits.index(ofSetBit: onEvery % k, in: UInt64(rotations))
            }
            rest = onEvery &- full
        }
        preconditionFailure("placement \(index) past the legal placements")
    }
}
