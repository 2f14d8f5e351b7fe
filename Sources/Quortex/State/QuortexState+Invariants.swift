import LabCore

extension QuortexState {
    /// The first broken invariant: tiles conserved (board + drawn + bag = the mix),
    /// the bag's contents match its public counts, the occupied set matches the cells,
    /// no completed flow while the match runs, every live axis keeps a route, and the
    /// drawn tile has a legal placement.
    public func invariantViolation() -> String? {
        var onBoard = [Int](repeating: 0, count: 4)
        for c in setup.board.cells.indices {
            let code = cells[c]
            if (code == Self.emptyCell) != (occupied & (CellSet(1) << c) == 0) { return "cell \(setup.board.name(c)): occupied set disagrees" }
            if code != Self.emptyCell {
                guard code < 24 else { return "cell \(setup.board.name(c)): bad tile code \(code)" }
                onBoard[Int(code) / 6] += 1
            }
        }
        var inBag = [Int](repeating: 0, count: 4)
        for k in 0..<Int(bagCount) { inBag[Int(bag[k])] += 1 }
        for type in 0..<4 {
            if inBag[type] != Int(remaining[type]) { return "bag holds \(inBag[type]) of type \(type), public count says \(remaining[type])" }
            let drawn = Int(tile) == type ? 1 : 0
            if onBoard[type] + drawn + inBag[type] != setup.bag[type] { return "tiles of type \(type) not conserved" }
        }
        var placed = 0
        for s in 0..<seatCount { placed += Int(placedBySeat[s]) }
        if placed != occupied.nonzeroBitCount || placed != turn { return "tiles placed by seats (\(placed)) disagree with the board and turns" }
        for bit in 0..<3 where placers[bit] & ~occupied != 0 { return "a placer bit on an empty cell" }
        var byPlacer = [Int](repeating: 0, count: seatCount)
        for cell in setup.board.cells.indices {
            guard let seat = placer(of: cell) else { continue }
            guard seat < seatCount else { return "cell \(setup.board.name(cell)) placed by seat \(seat) of \(seatCount)" }
            byPlacer[seat] += 1
        }
        for s in 0..<seatCount where byPlacer[s] != Int(placedBySeat[s]) { return "seat \(s) placed \(placedBySeat[s]) tiles, the board says \(byPlacer[s])" }
        guard !isTerminal else {
            if winners == 0 { return "finished without a winner" }
            return nil
        }
        if tile < 0 { return "running match without a drawn tile" }
        let broken: String? = withPosition { t, cellsPointer, empty in
            Junctions.build(t, cellsPointer, empty: empty) { graph in
                for axis in 0..<3 where setup.liveAxes & (1 << axis) != 0 {
                    if graph.distance(from: graph.touching(axis), to: graph.touching(axis + 3) & empty, allowed: empty) == nil {
                        return "axis \(axis)-\(axis + 3) has no route but the match goes on"
                    }
                    if (graph.essentialCells(axis: axis) ?? empty) != essential[axis] { return "stale essential cells for axis \(axis)" }
                }
                // The kept graph must be the graph of the board.
                for c in 0..<setup.board.cells.count where empty & (CellSet(1) << c) != 0 && self.graph.adjacency[c] != graph.adjacent(c) {
                    return "kept junction graph disagrees at \(setup.board.name(c))"
                }
                for e in 0..<6 where self.graph.touching[e] != graph.touching(e) { return "kept junction graph disagrees on edge \(e)" }
                let fresh = JunctionStore(t, cellsPointer, empty: empty)
                for c in 0..<setup.board.cells.count where empty & (CellSet(1) << c) != 0 {
                    for d in 0..<6 where self.graph.ends[c * 6 + d] != fresh.ends[c * 6 + d] {
                        return "kept side ends disagree at \(setup.board.name(c)) side \(d)"
                    }
                }
                return nil
            }
        }
        if let broken { return broken }
        return hasLegalPlacement ? nil : "the drawn tile has no legal placement but the match goes on"
    }
}
