import LabCore

extension QuortexState {
    // MARK: Turns (rule book, "A turn")

    /// Draws the mover's tile; an empty bag, or a tile with no legal placement, is a
    /// constraint win for the mover and their team.
    mutating func startTurn() {
        guard bagCount > 0 else {
            tile = -1
            finish(winners: UInt8(1) << setup.sideOfSeat[currentSeat], reason: .constraint)
            return
        }
        bagCount -= 1
        tile = Int8(bag[Int(bagCount)])
        remaining[Int(tile)] -= 1
        analyseTurn()
        if legalCells[0] | legalCells[1] | legalCells[2] | legalCells[3] | legalCells[4] | legalCells[5] == 0 {
            finish(winners: UInt8(1) << setup.sideOfSeat[currentSeat], reason: .constraint)
        }
    }

    /// Works out the drawn tile's legal placements once per turn (the board does not
    /// change until the next placement).
    ///
    /// Fast path: for each axis some side must join, find the essential cells, the
    /// empty cells on every route. A placement anywhere else leaves every route that
    /// avoids its cell intact, so every rotation there is legal; only essential cells
    /// need the exact check (a winning placement, or every live axis still joined).
    /// - Complexity: one junction graph; one search per cell of one shortest route per
    ///   axis; one search per rotation on essential cells.
    mutating func analyseTurn() {
        let type = Int(tile)
        let rotations = QuortexTile.distinctRotations[type]
        let liveAxes = setup.liveAxes
        let result = withPosition { t, cellsPointer, empty in
            Junctions.build(self.graph, cells: t.cellCount, empty: empty) { graph in
                var essential = InlineArray<3, CellSet>(repeating: 0)
                for axis in 0..<3 where liveAxes & (1 << axis) != 0 {
                    // With no route at all (a set-up position; play never leaves one),
                    // every cell needs the exact check, which then admits only
                    // placements that complete a flow.
                    essential[axis] = graph.essentialCells(axis: axis) ?? empty
                }
                let anyEssential = essential[0] | essential[1] | essential[2]
                var legal = InlineArray<6, CellSet>(repeating: 0)
                for r in rotations { legal[r] = empty & ~anyEssential }
                var rest = empty & anyEssential
                while rest != 0 {
                    let cell = rest.trailingZeroBitCount
                    rest &= rest &- 1
                    var sides = InlineArray<6, CellSet>(repeating: 0)
                    let without = empty & ~(CellSet(1) << cell)
                    for axis in 0..<3 where essential[axis] & (CellSet(1) << cell) != 0 {
                        sides[axis * 2] = graph.reach(from: graph.touching(axis), allowed: without)
                        sides[axis * 2 + 1] = graph.reach(from: graph.touching(axis + 3), allowed: without)
                    }
                    let ends = CellEnds(t, cellsPointer, cell: cell)
                    for r in rotations {
                        let links = Links(cell: cell, code: type * 6 + r, ends: ends, partner: t.partner)
                        if Self.placementKeepsRoutes(graph, cell: cell, links: links, essential: essential, sides: sides, liveAxes: liveAxes) {
                            legal[r] |= CellSet(1) << cell
                        }
                    }
                }
                return (essential, legal)
            }
        }
        essential = result.0
        legalCells = result.1
    }

    mutating func finish(winners: UInt8, reason: QuortexEndReason) {
        self.winners = winners
        self.reason = reason
    }

    /// Places the drawn tile (a legal action: cell * 6 + rotation), checks for flows,
    /// then passes the turn and draws.
    public mutating func apply(_ action: Int) {
        assert(!isTerminal, "apply on a finished match")
        let cell = action / 6, rotation = action % 6
        let code = Int(tile) * 6 + rotation
        let completed = withPosition { t, cellsPointer, _ in
            let ends = CellEnds(t, cellsPointer, cell: cell)
            let links = Links(cell: cell, code: code, ends: ends, partner: t.partner)
            graph.place(cell: cell, links: links)
            return links.completedAxes
        }
        cells[cell] = UInt8(code)
        occupied |= CellSet(1) << cell
        tile = -1
        let seat = currentSeat
        placedBySeat[seat] &+= 1
        turns &+= 1
        // Victory: every side whose axis a flow now joins.
        if completed & setup.liveAxes != 0 {
            var won: UInt8 = 0
            for side in setup.sideAxis.indices where completed & (1 << setup.sideAxis[side]) != 0 { won |= 1 << side }
            finish(winners: won, reason: won.nonzeroBitCount == 1 ? .flow : .tie)
            return
        }
        slot = Int8((Int(slot) + 1) % setup.turnOrder.count)
        startTurn()
    }

    /// Runs `body` with the board tables, a pointer to the cells and the empty set.
    @inline(__always)
    func withPosition<R>(_ body: (BoardTables, UnsafePointer<UInt8>, CellSet) -> R) -> R {
        let empty = setup.board.allCells & ~occupied
        let tables = setup.board.tables
        return withUnsafeBytes(of: cells) { raw in
            body(tables, raw.baseAddress!.assumingMemoryBound(to: UInt8.self), empty)
        }
    }

    // MARK: Legal placements (rule book, "Legal placement")

    /// Writes every legal placement of the drawn tile, in canonical cell order and
    /// lowest distinct rotation first (worked out at the draw by ``analyseTurn()``).
    @inlinable
    public func legalActions(into buffer: inout ActionBuffer) {
        // Inlined into the specialised play loop, so the state is not copied through a
        // protocol witness on every turn.
        listLegalActions(into: &buffer)
    }

    @usableFromInline
    func listLegalActions(into buffer: inout ActionBuffer) {
        guard !isTerminal, tile >= 0 else { buffer.removeAll(); return }
        let masks = legalCells
        let rotations = QuortexTile.distinctRotationMasks[Int(tile)]
        buffer.fill(upTo: setup.board.cells.count * 6) { out in
            withUnsafeBytes(of: masks) { raw in
                let legal = raw.bindMemory(to: CellSet.self)
                var rest = legal[0] | legal[1] | legal[2] | legal[3] | legal[4] | legal[5]
                var n = 0
                while rest != 0 {
                    let cell = rest.trailingZeroBitCount
                    rest &= rest &- 1
                    let bit = CellSet(1) << cell
                    var r = rotations
                    while r != 0 {
                        let rotation = r.trailingZeroBitCount
                        r &= r &- 1
                        if legal[rotation] & bit != 0 { out[n] = Int32(cell &* 6 &+ rotation); n &+= 1 }
                    }
                }
                return n
            }
        }
    }

    /// Works the drawn tile's legal placements out from the board alone, as at the draw
    /// (what ``legalActions(into:)`` lists from the kept result): for benchmarks and tests.
    public func enumerateLegalPlacements(into buffer: inout ActionBuffer) {
        var copy = self
        if !copy.isTerminal { copy.analyseTurn() }
        copy.legalActions(into: &buffer)
    }

    /// The exact check on one placement: it wins for somebody, or every axis on which
    /// `cell` is essential still has a route. `sides` holds, per axis, the cells the
    /// start and target edges reach in the graph without `cell` (they are apart, as
    /// `cell` is essential): the placement keeps the axis joined exactly when its links
    /// bridge them, directly or through the rest of the graph.
    static func placementKeepsRoutes(_ graph: Junctions, cell: Int, links: borrowing Links,
                                     essential: InlineArray<3, CellSet>, sides: InlineArray<6, CellSet>, liveAxes: Int) -> Bool {
        if links.completedAxes & liveAxes != 0 { return true }
        let allowed = graph.empty & ~(CellSet(1) << cell)
        for axis in 0..<3 where essential[axis] & (CellSet(1) << cell) != 0 {
            let startSide = sides[axis * 2], targetSide = sides[axis * 2 + 1]
            let sources = startSide | (links.cells(touching: axis) & allowed)
            let targets = targetSide | (links.cells(touching: axis + 3) & allowed)
            if sources & targets != 0 { continue }
            if graph.distance(from: sources, to: targets, allowed: allowed, extra: links, settled: startSide) == nil { return false }
        }
        return true
    }

    /// Whether the drawn tile can go anywhere.
    var hasLegalPlacement: Bool {
        legalCells[0] | legalCells[1] | legalCells[2] | legalCells[3] | legalCells[4] | legalCells[5] != 0
    }
}
