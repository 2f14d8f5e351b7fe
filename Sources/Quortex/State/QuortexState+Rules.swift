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
        let known = witness
        let placed = placedSinceAnalysis
        placedSinceAnalysis = 0
        var untouched = true
        for axis in 0..<3 where liveAxes & (1 << axis) != 0 && (known[axis] == 0 || known[axis] & placed != 0) { untouched = false }
        if untouched {
            // Every axis keeps two disjoint routes: no cell is essential, every placement
            // is legal, and the graph need not be searched.
            let empty = setup.board.allCells & ~occupied
            essential = InlineArray(repeating: 0)
            legalCells = InlineArray(repeating: 0)
            for r in rotations { legalCells[r] = empty }
            return
        }
        let result = withPosition { t, cellsPointer, empty in
            Junctions.build(self.graph, cells: t.cellCount, empty: empty) { graph in
                var essential = InlineArray<3, CellSet>(repeating: 0)
                var witness = InlineArray<3, CellSet>(repeating: 0)
                for axis in 0..<3 where liveAxes & (1 << axis) != 0 {
                    // Two disjoint routes that no placement has touched still stand.
                    if known[axis] != 0 && known[axis] & placed == 0 {
                        witness[axis] = known[axis]
                        continue
                    }
                    // With no route at all (a set-up position; play never leaves one),
                    // every cell needs the exact check, which then admits only
                    // placements that complete a flow.
                    if let found = graph.essentialCellsAndWitness(axis: axis) {
                        essential[axis] = found.essential
                        witness[axis] = found.witness
                    } else {
                        essential[axis] = empty
                    }
                }
                let anyEssential = essential[0] | essential[1] | essential[2]
                var legal = InlineArray<6, CellSet>(repeating: 0)
                for r in rotations { legal[r] = empty & ~anyEssential }
                var rest = empty & anyEssential
                while rest != 0 {
                    let cell = rest.trailingZeroBitCount
                    rest &= rest &- 1
                    let ends = CellEnds(t, cellsPointer, cell: cell)
                    let parts = EndComponents(graph, cell: cell, ends: ends, essential: essential)
                    for r in rotations {
                        let links = Links(cell: cell, code: type * 6 + r, ends: ends, partner: t.partner)
                        if links.completedAxes & liveAxes != 0 || parts.bridgesEveryAxis(links, cell: cell, essential: essential) {
                            legal[r] |= CellSet(1) << cell
                        }
                    }
                }
                return (essential, legal, witness)
            }
        }
        essential = result.0
        legalCells = result.1
        witness = result.2
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
        // The board is read through a copy of the cells, so updating the kept graph in
        // the closure does not overlap a read of the whole state (which would copy it).
        let completed = QuortexBoard.withPosition(setup.board, cells: cells, occupied: occupied) { t, cellsPointer, _ in
            let ends = CellEnds(t, cellsPointer, cell: cell)
            let links = Links(cell: cell, code: code, ends: ends, partner: t.partner)
            graph.place(cell: cell, links: links)
            return links.completedAxes
        }
        cells[cell] = UInt8(code)
        occupied |= CellSet(1) << cell
        placedSinceAnalysis |= CellSet(1) << cell
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
        QuortexBoard.withPosition(setup.board, cells: cells, occupied: occupied, body)
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

    /// The parts of the graph without an essential cell that its six sides lead into:
    /// for each side ending in a junction, that junction's component. A placement there
    /// keeps an axis joined exactly when its links chain the start edge's part to the
    /// target edge's part (the cell is essential, so without it they are apart).
    struct EndComponents: ~Copyable {
        /// For axis k and side d, `label[k * 6 + d]`: -1 the start edge's part, -2 the
        /// target edge's, a cell number naming a part that touches neither edge, or
        /// 1000 + d for a port of another edge (a dead end, joined to nothing).
        var label = InlineArray<18, Int>(repeating: 0)

        /// One search per distinct part the sides lead into.
        init(_ graph: Junctions, cell: Int, ends cellEnds: borrowing CellEnds, essential: InlineArray<3, CellSet>) {
            let without = graph.empty & ~(CellSet(1) << cell)
            var parts = InlineArray<6, CellSet>(repeating: 0)
            for d in 0..<6 where cellEnds.end[d] < Junctions.portBase && cellEnds.end[d] != cell {
                let bit = CellSet(1) << cellEnds.end[d]
                var known: CellSet = 0
                for e in 0..<d where parts[e] & bit != 0 { known = parts[e] }
                parts[d] = known != 0 ? known : graph.reach(from: bit, allowed: without)
            }
            for axis in 0..<3 where essential[axis] & (CellSet(1) << cell) != 0 {
                let start = graph.touching(axis), target = graph.touching(axis &+ 3)
                for d in 0..<6 {
                    let end = cellEnds.end[d]
                    var id: Int
                    if end >= Junctions.portBase {
                        let edge = end &- Junctions.portBase
                        id = edge == axis ? -1 : edge == axis &+ 3 ? -2 : 1000 &+ d
                    } else if parts[d] & start != 0 {
                        id = -1
                    } else if parts[d] & target != 0 {
                        id = -2
                    } else {
                        id = parts[d] == 0 ? 1000 &+ d : parts[d].trailingZeroBitCount
                    }
                    label[axis &* 6 &+ d] = id
                }
            }
        }

        /// Whether the links keep every axis on which `cell` is essential joined: grow
        /// the set of parts joined to the start edge's part through links.
        func bridgesEveryAxis(_ links: borrowing Links, cell: Int, essential: InlineArray<3, CellSet>) -> Bool {
            for axis in 0..<3 where essential[axis] & (CellSet(1) << cell) != 0 {
                var endsA = InlineArray<3, Int>(repeating: 0), endsB = InlineArray<3, Int>(repeating: 0)
                var n = 0
                links.forEachSides { a, b in
                    endsA[n] = label[axis &* 6 &+ a]
                    endsB[n] = label[axis &* 6 &+ b]
                    n &+= 1
                }
                var joined = InlineArray<4, Int>(repeating: -1)
                var count = 1
                var bridged = false
                var grew = true
                while grew && !bridged {
                    grew = false
                    for i in 0..<n {
                        var hasA = false, hasB = false
                        for j in 0..<count {
                            if joined[j] == endsA[i] { hasA = true }
                            if joined[j] == endsB[i] { hasB = true }
                        }
                        guard hasA != hasB, count < 4 else { continue }
                        let added = hasA ? endsB[i] : endsA[i]
                        joined[count] = added
                        count &+= 1
                        grew = true
                        if added == -2 { bridged = true }
                    }
                }
                if !bridged { return false }
            }
            return true
        }
    }

    /// Whether the drawn tile can go anywhere.
    var hasLegalPlacement: Bool {
        legalCells[0] | legalCells[1] | legalCells[2] | legalCells[3] | legalCells[4] | legalCells[5] != 0
    }
}
