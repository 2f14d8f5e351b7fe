/// What placing a tile on an empty cell does to the graph: the cell stops being a
/// junction and each of its channels links the two things at its ends. At most three
/// links; a link between two ports on opposite edges is a completed flow.
struct Links: ~Copyable {
    /// Link ends: a cell index, or `Junctions.portBase + edge`.
    private var a = InlineArray<3, Int16>(repeating: 0)
    private var b = InlineArray<3, Int16>(repeating: 0)
    /// The cell's sides the two ends are reached through.
    private var sideA = InlineArray<3, Int8>(repeating: 0)
    private var sideB = InlineArray<3, Int8>(repeating: 0)
    private(set) var count = 0

    init() {}

    /// The links made by tile `code` on `cell`, whose six sides lead to `ends` (from
    /// ``Junctions/follow(_:_:from:side:)`` before the placement; a chain may come back
    /// to `cell` itself, which the channels then continue).
    init(cell: Int, code: Int, ends: borrowing CellEnds, partner: UnsafeMutablePointer<UInt8>) {
        var used: UInt8 = 0
        for s in 0..<6 where used & (1 << s) == 0 && ends.end(s) != cell {
            used |= 1 << s
            var side = s
            while true {
                let p = Int(partner[code &* 6 &+ side])
                used |= 1 << p
                if ends.end(p) != cell {
                    a[count] = Int16(ends.end(s))
                    b[count] = Int16(ends.end(p))
                    sideA[count] = Int8(s)
                    sideB[count] = Int8(p)
                    count &+= 1
                    break
                }
                side = ends.entering(p)
                used |= 1 << side
            }
        }
    }

    /// Calls `body` with the two ends of each link.
    @inline(__always)
    func forEach(_ body: (Int, Int) -> Void) {
        for i in 0..<count { body(Int(a[i]), Int(b[i])) }
    }

    /// Calls `body` with the cell's two sides each link leaves by.
    @inline(__always)
    func forEachSides(_ body: (Int, Int) -> Void) {
        for i in 0..<count { body(Int(sideA[i]), Int(sideB[i])) }
    }

    /// Cells linked to a port of each edge (entry e for edge e), in one pass.
    @inline(__always)
    func cellsTouchingEdges() -> InlineArray<6, CellSet> {
        var out = InlineArray<6, CellSet>(repeating: 0)
        for i in 0..<count {
            let x = Int(a[i]), y = Int(b[i])
            if x >= Junctions.portBase && y < Junctions.portBase { out[x &- Junctions.portBase] |= CellSet(1) << y }
            if y >= Junctions.portBase && x < Junctions.portBase { out[y &- Junctions.portBase] |= CellSet(1) << x }
        }
        return out
    }

    /// Axes (bit e for edges e and e + 3) joined port to port: completed flows.
    var completedAxes: Int {
        var axes = 0
        for i in 0..<count {
            let x = Int(a[i]) &- Junctions.portBase, y = Int(b[i]) &- Junctions.portBase
            if x >= 0 && y >= 0 && (x &- y == 3 || y &- x == 3) { axes |= 1 << (x % 3) }
        }
        return axes
    }
}

/// Where each side of an empty cell leads (see ``Junctions/follow(_:_:from:side:)``), a
/// byte a side in two words: read by shifts, where each subscript of an `InlineArray` of a
/// borrowed value copied all of it (the reference AI's candidates, 48 bytes a read).
struct CellEnds: ~Copyable {
    /// Byte d: where side d leads, a cell or `Junctions.portBase + edge` (at most 133).
    private var ends: UInt64 = 0
    /// Byte d: the side the chain enters that cell by (-1 at a port), as a signed byte.
    private var enteringSides: UInt64 = 0

    init(_ t: BoardTables, _ cells: UnsafePointer<UInt8>, cell: Int) {
        for d in 0..<6 {
            let f = Junctions.follow(t, cells, from: cell, side: d)
            ends |= UInt64(f.end) &<< UInt64(d &* 8)
            enteringSides |= UInt64(UInt8(truncatingIfNeeded: f.enteringSide)) &<< UInt64(d &* 8)
        }
    }

    /// Where side `side` leads: a cell, or `Junctions.portBase + edge`.
    @inline(__always) func end(_ side: Int) -> Int { Int(truncatingIfNeeded: (ends &>> UInt64(side &* 8)) & 0xFF) }

    /// The side by which side `side`'s chain enters the cell it leads to (-1 at a port).
    @inline(__always) func entering(_ side: Int) -> Int { Int(Int8(truncatingIfNeeded: enteringSides &>> UInt64(side &* 8))) }
}
