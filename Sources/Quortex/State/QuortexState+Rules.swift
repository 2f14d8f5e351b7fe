import LabCore

extension QuortexState {
    // MARK: Turns (rule book, "A turn")

    /// Draws the mover's tile; an empty bag, or a tile with no legal placement, is a
    /// constraint win for the mover and their team.
    /// - Parameter deferring: leave the essential cells' rotations unworked (`unchecked`)
    ///   while some other cell takes the tile: a random playout's turn.
    @inline(__always)
    mutating func startTurn(deferring: Bool = false) {
        guard bagCount > 0 else {
            tile = -1
            finish(winners: UInt8(1) << setup.sideOfSeat[currentSeat], reason: .constraint)
            return
        }
        bagCount -= 1
        tile = Int8(bag[Int(bagCount)])
        remaining[Int(tile)] -= 1
        analyseTurn(deferring: deferring)
        if legalCells[0] | legalCells[1] | legalCells[2] | legalCells[3] | legalCells[4] | legalCells[5] == 0 {
            if unchecked != 0 { check(cells: unchecked) }
            if !hasLegalPlacement { finish(winners: UInt8(1) << setup.sideOfSeat[currentSeat], reason: .constraint) }
        }
    }

    /// Works out the drawn tile's legal placements once per turn (the board does not
    /// change until the next placement).
    ///
    /// Fast path: for each axis some side must join, find the essential cells, the
    /// empty cells on every route. A placement anywhere else leaves every route that
    /// avoids its cell intact, so every rotation there is legal; only essential cells
    /// need the exact check (a winning placement, or every live axis still joined).
    /// An axis with two disjoint routes has no essential cell; the two routes are kept,
    /// and stay a proof until a placement lands on one of them.
    /// - Complexity: per axis whose routes a placement touched, one or two breadth-first
    ///   searches, and a depth-first search when no two disjoint routes exist; per
    ///   essential cell, one search per part of the board its sides lead into (but the
    ///   parts touching the start edge of a cell essential on one axis: the route search
    ///   found them).
    /// - Parameter deferring: leave the essential cells unworked (``unchecked``), for
    ///   ``check(cells:)`` to work out when a random playout draws one.
    mutating func analyseTurn(deferring: Bool = false) {
        unchecked = 0
        let type = Int(tile)
        let rotations = QuortexTile.distinctRotationMask(type)
        let liveAxes = setup.liveAxes
        let placed = placedSinceAnalysis
        placedSinceAnalysis = 0
        let empty = setup.board.allCells & ~occupied
        // Per axis, a route known to stand (0: none), and whether it needs a search.
        var intact = InlineArray<3, CellSet>(repeating: 0)
        var stale = 0
        for axis in 0..<3 where liveAxes & (1 << axis) != 0 {
            let a = witnessA[axis], b = witnessB[axis]
            if a == 0 { stale |= 1 << axis; continue }
            if a & placed == 0 && b & placed == 0 { continue }
            stale |= 1 << axis
            intact[axis] = a & placed == 0 ? a : b & placed == 0 ? b : 0
        }
        guard stale != 0 else {
            // Every axis keeps two disjoint routes: no cell is essential, every placement
            // is legal, and the graph need not be searched.
            essential = InlineArray(repeating: 0)
            legalCells = InlineArray(repeating: 0)
            var r = rotations
            while r != 0 { legalCells[r.trailingZeroBitCount] = empty; r &= r &- 1 }
            return
        }
        if setup.board.tables.fitsOneWord {
            searchRoutes(UInt64.self, stale: stale, intact: intact, empty: empty, deferring: deferring)
        } else {
            searchRoutes(CellSet.self, stale: stale, intact: intact, empty: empty, deferring: deferring)
        }
    }

    /// ``analyseTurn(deferring:)``'s searches of the `stale` axes (each with a route
    /// known to stand, `intact`, or 0) and the drawn tile's legal cells that follow,
    /// with the graph's sets read as `S`.
    @inline(__always)
    private mutating func searchRoutes<S: CellBits>(_: S.Type, stale: Int, intact: InlineArray<3, CellSet>, empty: CellSet,
                                                   deferring: Bool) {
        let type = Int(tile)
        let rotations = QuortexTile.distinctRotationMask(type)
        let liveAxes = setup.liveAxes
        let t = setup.board.tables
        var routesA = witnessA, routesB = witnessB
        var essential = InlineArray<3, CellSet>(repeating: 0)
        var legal = InlineArray<6, CellSet>(repeating: 0)
        var deferred: CellSet = 0
        graph.withGraph(cells: t.cellCount, empty: S(truncatingIfNeeded: empty)) { graph, ends in
            withUnsafeTemporaryAllocation(of: S.self, capacity: t.cellCount) { regions in
                let startRegions = regions.baseAddress!
                var found = InlineArray<3, S>(repeating: 0), unrouted: S = 0
                for axis in 0..<3 where stale & (1 << axis) != 0 {
                    // With no route at all (a set-up position; play never leaves one),
                    // every cell needs the exact check, which then admits only placements
                    // that complete a flow.
                    // (A deferred turn checks its cells later, without the regions.)
                    if let result = graph.essentialCellsAndWitness(axis: axis, intact: S(truncatingIfNeeded: intact[axis]),
                                                                   startRegions: deferring ? nil : startRegions) {
                        found[axis] = result.essential
                        routesA[axis] = CellSet(truncatingIfNeeded: result.routes.0)
                        routesB[axis] = CellSet(truncatingIfNeeded: result.routes.1)
                    } else {
                        found[axis] = graph.empty
                        unrouted = graph.empty
                        routesA[axis] = 0
                        routesB[axis] = 0
                    }
                }
                let anyEssential = found[0] | found[1] | found[2]
                let free = CellSet(truncatingIfNeeded: graph.empty & ~anyEssential)
                var r = rotations
                while r != 0 { legal[r.trailingZeroBitCount] = free; r &= r &- 1 }
                if deferring {
                    deferred = CellSet(truncatingIfNeeded: graph.empty & anyEssential)
                } else {
                    // A cell essential on one axis only, which has a route, has its start
                    // region written by that axis's search alone.
                    let once = (found[0] ^ found[1] ^ found[2]) & ~(found[0] & found[1] & found[2]) & ~unrouted
                    Self.addLegalRotations(of: graph.empty & anyEssential, graph: graph, ends: ends, type: type, essential: found,
                                           liveAxes: liveAxes, partnerMask: t.partnerMask,
                                           startRegions: (cells: once, regions: startRegions), into: &legal)
                }
                for axis in 0..<3 { essential[axis] = CellSet(truncatingIfNeeded: found[axis]) }
            }
        }
        self.essential = essential
        legalCells = legal
        unchecked = deferred
        witnessA = routesA
        witnessB = routesB
    }

    mutating func finish(winners: UInt8, reason: QuortexEndReason) {
        self.winners = winners
        self.reason = reason
    }

    /// Places the drawn tile (a legal action: cell * 6 + rotation), checks for flows,
    /// then passes the turn and draws.
    public mutating func apply(_ action: Int) { apply(action, deferring: false) }

    /// ``apply(_:)``; with `deferring`, the next turn leaves its essential cells unworked
    /// (see ``startTurn(deferring:)``).
    @inline(__always)
    mutating func apply(_ action: Int, deferring: Bool) {
        assert(!isTerminal, "apply on a finished match")
        let cell = action / 6, rotation = action % 6
        let code = Int(tile) * 6 + rotation
        let t = setup.board.tables
        let completed = t.fitsOneWord ? graph.place(UInt64.self, cell: cell, code: code, partner: t.partner)
            : graph.place(CellSet.self, cell: cell, code: code, partner: t.partner)
        cells[cell] = UInt8(code)
        occupied |= CellSet(1) << cell
        placedSinceAnalysis |= CellSet(1) << cell
        tile = -1
        let seat = currentSeat
        placedBySeat[seat] &+= 1
        markPlacer(seat, cell: cell)
        turns &+= 1
        // Victory: every side whose axis a flow now joins.
        if completed & setup.liveAxes != 0 {
            var won: UInt8 = 0
            for side in setup.sideAxis.indices where completed & (1 << setup.sideAxis[side]) != 0 { won |= 1 << side }
            finish(winners: won, reason: won.nonzeroBitCount == 1 ? .flow : .tie)
            return
        }
        slot = Int8((Int(slot) + 1) % setup.turnOrder.count)
        startTurn(deferring: deferring)
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
        // Inlined into the play loop, and it hands on only the fields the listing reads:
        // a call taking the whole state would copy all of it first.
        guard unchecked == 0 else { return listCheckingFirst(into: &buffer) }
        Self.listLegalActions(legalCells, tile: isTerminal ? -1 : Int(tile), into: &buffer)
    }

    /// ``legalActions(into:)`` where the state lies (the play loop's and the searches'):
    /// a playout's unchecked cells are worked out in place.
    @inlinable
    public mutating func legalActionsInPlace(into buffer: inout ActionBuffer) {
        if unchecked != 0 { check(cells: unchecked) }
        Self.listLegalActions(legalCells, tile: isTerminal ? -1 : Int(tile), into: &buffer)
    }

    @usableFromInline
    static func listLegalActions(_ masks: InlineArray<6, CellSet>, tile: Int, into buffer: inout ActionBuffer) {
        guard tile >= 0 else { buffer.removeAll(); return }
        // Read through a pointer: each subscript of a borrowed InlineArray copies all of it.
        withUnsafeBytes(of: masks) { raw in
            listLegalActions(raw.baseAddress!.assumingMemoryBound(to: CellSet.self), tile: tile, into: &buffer)
        }
    }

    @inline(__always)
    static func listLegalActions(_ masks: UnsafePointer<CellSet>, tile: Int, into buffer: inout ActionBuffer) {
        let rotations = QuortexTile.distinctRotationMask(tile)
        // Cells where every distinct rotation is legal (most of them) take the whole
        // list; only the others are checked rotation by rotation.
        var all = CellSet.max, any: CellSet = 0
        var lanes = SIMD8<Int32>(repeating: 0)
        var count = 0
        var r = rotations
        while r != 0 {
            let rotation = r.trailingZeroBitCount
            r &= r &- 1
            all &= masks[rotation]
            any |= masks[rotation]
            lanes[count] = Int32(rotation)
            count &+= 1
        }
        // Constants of the loop below (captured as `var`s they would be read from memory).
        let k = count, list = lanes, every = all, some = any
        // Room for one whole vector past the last action.
        buffer.fill(upTo: some.nonzeroBitCount &* k &+ 8) { out in
            let raw = UnsafeMutableRawPointer(out)
            var n = 0
            // Word by word: 64-bit bit tricks are cheaper than 128-bit ones.
            for word in 0..<2 {
                let shift = UInt128(word &* 64)
                var rest = UInt64(truncatingIfNeeded: some >> shift)
                let everyWord = UInt64(truncatingIfNeeded: every >> shift)
                while rest != 0 {
                    let bit = rest.trailingZeroBitCount
                    rest &= rest &- 1
                    let cell = word &* 64 &+ bit
                    let base = Int32(truncatingIfNeeded: cell &* 6)
                    if everyWord & (UInt64(1) << bit) != 0 {
                        // All k rotations at once (lanes past k are overwritten next).
                        raw.storeBytes(of: list &+ SIMD8(repeating: base), toByteOffset: n &* 4, as: SIMD8<Int32>.self)
                        n &+= k
                    } else {
                        for i in 0..<k where masks[Int(list[i])] & (CellSet(1) << cell) != 0 {
                            out[n] = base &+ list[i]
                            n &+= 1
                        }
                    }
                }
            }
            return n
        }
    }

    /// Works the drawn tile's legal placements out from the kept graph alone, with no
    /// routes remembered from earlier turns (what ``legalActions(into:)`` lists from the
    /// result worked out at the draw): for benchmarks and tests.
    public func enumerateLegalPlacements(into buffer: inout ActionBuffer) {
        var copy = self
        copy.witnessA = InlineArray(repeating: 0)
        copy.witnessB = InlineArray(repeating: 0)
        if !copy.isTerminal { copy.analyseTurn() }
        copy.legalActions(into: &buffer)
    }

    /// Whether the drawn tile can go anywhere.
    var hasLegalPlacement: Bool {
        legalCells[0] | legalCells[1] | legalCells[2] | legalCells[3] | legalCells[4] | legalCells[5] != 0
    }
}
