import LabCore

/// Set-up hooks for tests: put a match in a position directly instead of playing to it.
///
/// Tiles are conserved: a tile put on the board or drawn comes out of the bag, and a
/// drawn tile handed back goes into it. A hook placement counts as one the mover made
/// (its turn and tile count go up) but does not end the turn, and it never checks
/// legality or victory: tests reach those through ``legalActions(into:)`` and
/// ``apply(_:)``. After every change the kept junction graph is rebuilt and the drawn
/// tile's legal placements worked out afresh, so a position built here is one the rules
/// can be asked about. A board with a
/// live axis cut off is not a running position of the game (``invariantViolation()``
/// says so); the hooks allow it, as the published implementation's own tests build one.
extension QuortexState {
    /// Puts a tile of `type` at `rotation` on cell (row, col), taken from the bag.
    /// - Precondition: the match runs, the cell is on the board and empty, the bag holds
    ///   a tile of `type`, and the placement completes no flow a side must make (a win
    ///   is a move: play it with ``apply(_:)``).
    package mutating func place(row: Int, col: Int, type: Int, rotation: Int) {
        precondition(!isTerminal, "place on a finished match")
        precondition((0..<4).contains(type) && (0..<6).contains(rotation), "tile type 0...3, rotation 0...5")
        guard let cell = setup.board.index(row: row, col: col) else { preconditionFailure("(\(row),\(col)) is off the board") }
        precondition(cells[cell] == Self.emptyCell, "\(setup.board.name(cell)) is occupied")
        takeFromBag(type)
        cells[cell] = UInt8(type * 6 + rotation)
        occupied |= CellSet(1) << cell
        let codes = setup.board.cells.indices.map { cells[$0] == Self.emptyCell ? -1 : Int(cells[$0]) }
        for axis in 0..<3 where setup.liveAxes & (1 << axis) != 0 {
            precondition(!Self.plainCompleted(board: setup.board, codes: codes, axis: axis),
                         "T\(type) r\(rotation) on \(setup.board.name(cell)) completes a flow: apply it as a move")
        }
        placedBySeat[currentSeat] &+= 1
        markPlacer(currentSeat, cell: cell)
        turns &+= 1
        rebuildGraph()
        analyseTurn()
    }

    /// Makes the mover's drawn tile one of `type`: the drawn tile goes back into the bag
    /// and a tile of `type` comes out of it.
    /// - Precondition: the match runs and the bag (with the drawn tile back) holds one.
    package mutating func setDrawnTile(_ type: Int) {
        precondition(!isTerminal && tile >= 0, "setDrawnTile on a finished match")
        returnDrawnTile()
        takeFromBag(type)
        tile = Int8(type)
        analyseTurn()
    }

    /// Ends the mover's turn without a placement (the rules have no pass; tests use it
    /// to hand a built position to the next seat): the drawn tile goes back on top of the
    /// bag and the next seat in turn order begins its turn by the rules, drawing it
    /// again, so an empty bag or a tile with nowhere to go ends the match there.
    package mutating func passTurn() {
        precondition(!isTerminal && tile >= 0, "passTurn on a finished match")
        returnDrawnTile()
        slot = Int8((Int(slot) + 1) % setup.turnOrder.count)
        startTurn()
    }

    /// The action placing the drawn tile on (row, col) at `rotation`, written with the
    /// lowest rotation giving the same channels (the one ``legalActions(into:)`` lists).
    package func action(row: Int, col: Int, rotation: Int) -> Int {
        guard let cell = setup.board.index(row: row, col: col) else { preconditionFailure("(\(row),\(col)) is off the board") }
        precondition(tile >= 0, "no drawn tile")
        return Self.action(cell: cell, rotation: QuortexTile.canonicalRotation(type: Int(tile), rotation))
    }

    /// Whether placing the drawn tile on (row, col) at `rotation` is among the legal actions.
    package func isLegal(row: Int, col: Int, rotation: Int) -> Bool {
        guard !isTerminal else { return false }
        var buffer = ActionBuffer()
        legalActions(into: &buffer)
        return buffer.contains(action(row: row, col: col, rotation: rotation))
    }

    /// The tile types in the bag, bottom first (the next draw is last).
    package var bagOrder: [Int] { (0..<Int(bagCount)).map { Int(bag[$0]) } }

    /// Takes the topmost tile of `type` out of the bag.
    private mutating func takeFromBag(_ type: Int) {
        guard let at = (0..<Int(bagCount)).last(where: { bag[$0] == UInt8(type) }) else {
            preconditionFailure("the bag holds no tile of type \(type)")
        }
        for k in at..<Int(bagCount) - 1 { bag[k] = bag[k + 1] }
        bagCount -= 1
        remaining[type] -= 1
    }

    /// Puts the drawn tile back on top of the bag.
    private mutating func returnDrawnTile() {
        bag[Int(bagCount)] = UInt8(tile)
        bagCount += 1
        remaining[Int(tile)] += 1
        tile = -1
    }
}
