import LabCore

/// Random playouts' steps (``GameState/applyRandomAction(using:buffer:)``): a turn whose
/// essential cells are worked out only when a draw lands on one.
extension QuortexState {
    /// Works out the drawn tile's rotations on `cells` (unchecked essential cells).
    @usableFromInline
    mutating func check(cells: CellSet) {
        if setup.board.tables.fitsOneWord { check(cells: cells, as: UInt64.self) } else { check(cells: cells, as: CellSet.self) }
    }

    /// ``check(cells:)`` with the graph's sets read as `S`.
    @inline(__always)
    private mutating func check<S: CellBits>(cells: CellSet, as _: S.Type) {
        let t = setup.board.tables
        let type = Int(tile), liveAxes = setup.liveAxes
        var essential = InlineArray<3, S>(repeating: 0)
        for axis in 0..<3 { essential[axis] = S(truncatingIfNeeded: self.essential[axis]) }
        var legal = legalCells
        graph.withGraph(cells: t.cellCount, empty: S(truncatingIfNeeded: setup.board.allCells & ~occupied)) { graph, ends in
            Self.addLegalRotations(of: S(truncatingIfNeeded: cells), graph: graph, ends: ends, type: type, essential: essential,
                                   liveAxes: liveAxes, partnerMask: t.partnerMask, startRegions: nil, into: &legal)
        }
        legalCells = legal
        unchecked &= ~cells
    }

    /// Adds the legal rotations of the drawn tile (`type`) on each of `cells`, essential
    /// cells on the axes of `essential`, to `legal`. `startRegions`: the cells (each
    /// essential on one axis) whose start region the route search wrote, and where.
    @inline(__always)
    static func addLegalRotations<S: CellBits>(of cells: S, graph: JunctionGraph<S>, ends: UnsafePointer<UInt16>, type: Int,
                                               essential: InlineArray<3, S>, liveAxes: Int, partnerMask: UnsafeMutablePointer<UInt8>,
                                               startRegions: (cells: S, regions: UnsafeMutablePointer<S>)?,
                                               into legal: inout InlineArray<6, CellSet>) {
        let rotations = QuortexTile.distinctRotationMask(type)
        let e0 = essential[0], e1 = essential[1], e2 = essential[2]
        var rest = cells
        while rest != 0 {
            let cell = rest.trailingZeroBitCount
            rest &= rest &- 1
            let bit = S.bit(cell)
            let axes = (e0 & bit != 0 ? 1 : 0) | (e1 & bit != 0 ? 2 : 0) | (e2 & bit != 0 ? 4 : 0)
            var startRegion: S = 0
            if let startRegions, startRegions.cells & bit != 0 { startRegion = startRegions.regions[cell] }
            var allowed = legalRotations(of: cell, graph: graph, ends: ends, type: type, rotations: rotations, axes: axes,
                                         liveAxes: liveAxes, partnerMask: partnerMask, startRegion: startRegion)
            let cellBit = CellSet(1) &<< CellSet(truncatingIfNeeded: cell)
            while allowed != 0 {
                legal[allowed.trailingZeroBitCount] |= cellBit
                allowed &= allowed &- 1
            }
        }
    }

    /// A random playout's step: a placement drawn uniformly from the legal ones, the
    /// same odds as drawing from ``legalActions(into:)``'s list. A draw from every empty
    /// cell and distinct rotation is kept when legal and drawn again otherwise; only an
    /// essential cell a draw lands on is worked out, and the turn after the placement
    /// leaves its essential cells unworked until then (``unchecked``). No list is made,
    /// so `buffer` is not used.
    public mutating func applyRandomAction(using rng: inout LabRandom, buffer: inout ActionBuffer) {
        let rotations = QuortexTile.distinctRotationMask(Int(tile))
        let empty = setup.board.allCells & ~occupied
        let k = rotations.nonzeroBitCount
        let n = empty.nonzeroBitCount
        while true {
            let draw = rng.uniform(n &* k)
            let cell = SetBits.index(ofSetBit: draw / k, in: empty)
            let rotation = SetBits.index(ofSetBit: draw % k, in: UInt64(rotations))
            let bit = CellSet(1) << cell
            if unchecked & bit != 0 { check(cells: bit) }
            if legalCells[rotation] & bit != 0 {
                apply(cell &* 6 &+ rotation, deferring: true)
                return
            }
        }
    }

    /// ``legalActions(into:)`` of a playout's state (see ``applyRandomAction(using:buffer:)``):
    /// the unchecked cells worked out on a copy first.
    @usableFromInline @inline(never)
    func listCheckingFirst(into buffer: inout ActionBuffer) {
        var copy = self
        copy.check(cells: unchecked)
        Self.listLegalActions(copy.legalCells, tile: Int(copy.tile), into: &buffer)
    }
}
