import LabCore

/// Quortex in the player protocol (`docs/protocol/quortex.md`): the `hello` objects,
/// each field a rule-book fact a bot needs to play by the rules and follow the flows,
/// and actions as `{"cell","row","col","rotation"}`.
///
/// Actions are cell * 6 + rotation, the tile being the drawn one: an action's object and
/// text name the cell and rotation only, so they depend on the game alone.
extension QuortexGame: ProtocolGame {
    /// `hello.rules`: every knob of ``QuortexRules/knobs``, resolved: `radius`, `bag`
    /// (the counts in play, the default for the radius when unset) and `edges` (the
    /// default layout for the seat count when unset).
    public func writeProtocolRules(to json: inout JSONWriter) {
        json.beginObject()
        json.member("radius", setup.rules.radius)
        json.member("bag", integers: setup.bag)
        json.member("edges", integers: setup.edges)
        json.endObject()
    }

    /// `hello.setup`: the board (cells, neighbours, ports, edges), the tiles with their
    /// channels at every rotation, seats, teams, turn order and the bag's composition
    /// (rule book, "Board", "Board edges and their ports", "Tiles", "Seats, edges and
    /// teams").
    public func writeProtocolSetup(to json: inout JSONWriter) {
        let board = setup.board
        json.beginObject()
        json.member("radius", board.radius)
        json.member("cell_count", board.cells.count)
        json.member("action_count", board.cells.count * 6)
        writeBoard(board, to: &json)
        writeTilesAndSeats(to: &json)
        json.member("turn_order", integers: setup.turnOrder)
        json.member("bag", integers: setup.bag)
        json.endObject()
    }

    /// `directions`, `cells` and `edges` of `hello.setup`.
    private func writeBoard(_ board: QuortexBoard, to json: inout JSONWriter) {
        // Sides of a cell: the step across each and the side it faces.
        json.key("directions")
        json.beginArray()
        for d in 0..<6 {
            json.beginObject()
            json.member("side", d)
            json.member("name", HexSide.names[d])
            json.member("row", HexSide.steps[d].row)
            json.member("col", HexSide.steps[d].col)
            json.member("opposite", HexSide.opposite(d))
            json.endObject()
        }
        json.endArray()

        json.key("cells")
        json.beginArray()
        for (c, cell) in board.cells.enumerated() {
            json.beginObject()
            json.member("cell", c)
            json.member("row", cell.row)
            json.member("col", cell.col)
            json.key("neighbours")
            json.beginArray()
            for d in 0..<6 { json.integerOrNull(board.neighbour[c * 6 + d]) }
            json.endArray()
            json.key("ports")
            json.beginArray()
            for d in 0..<6 { json.integerOrNull(board.portEdge[c * 6 + d]) }
            json.endArray()
            json.endObject()
        }
        json.endArray()

        json.key("edges")
        json.beginArray()
        for e in 0..<6 {
            json.beginObject()
            json.member("edge", e)
            json.member("opposite", HexSide.opposite(e))
            json.member("cells", integers: board.cells.indices.filter { board.edgeCells[e] & (CellSet(1) << $0) != 0 })
            json.key("ports")
            json.beginArray()
            for port in board.ports(of: e) {
                json.beginObject()
                json.member("cell", port.cell)
                json.member("side", port.side)
                json.endObject()
            }
            json.endArray()
            json.endObject()
        }
        json.endArray()
    }

    /// `tiles`, `seats` and `teams` of `hello.setup`.
    private func writeTilesAndSeats(to json: inout JSONWriter) {
        json.key("tiles")
        json.beginArray()
        for type in 0..<QuortexTile.typeCount {
            json.beginObject()
            json.member("type", type)
            json.member("name", QuortexTile.names[type])
            json.key("pairs")
            json.writePairs(QuortexTile.pairsAtRotation0[type].map { [$0.0, $0.1] })
            json.member("distinct_rotations", integers: QuortexTile.distinctRotations[type])
            json.key("pairs_by_rotation")
            json.beginArray()
            for r in 0..<6 { json.writePairs(QuortexTile.pairs(type: type, rotation: r)) }
            json.endArray()
            json.endObject()
        }
        json.endArray()

        json.key("seats")
        json.beginArray()
        for s in 0..<setup.seatCount {
            json.beginObject()
            json.member("seat", s)
            json.member("edge", setup.edges[s])
            json.member("team", setup.sideOfSeat[s])
            json.endObject()
        }
        json.endArray()

        json.key("teams")
        json.beginArray()
        for side in setup.sideAxis.indices {
            let axis = setup.sideAxis[side]
            json.beginObject()
            json.member("team", side)
            json.member("seats", integers: setup.seats(ofSide: side))
            json.member("axis", axis)
            json.member("edges", integers: [axis, axis + 3])
            json.endObject()
        }
        json.endArray()
    }

    /// `{"cell":C,"row":R,"col":Q,"rotation":K}`: the drawn tile on cell C, (R, Q), at
    /// rotation K.
    public func writeProtocolAction(_ action: Int, to json: inout JSONWriter) {
        let cell = action / 6
        let position = setup.board.cells[cell]
        json.beginObject()
        json.member("cell", cell)
        json.member("row", position.row)
        json.member("col", position.col)
        json.member("rotation", action % 6)
        json.endObject()
    }

    /// `(-3,3) r0`: the cell and the rotation (the tile is the drawn one, in the observation).
    public func protocolText(of action: Int) -> String {
        "\(setup.board.name(action / 6)) r\(action % 6)"
    }
}

extension QuortexObservation: ProtocolObservation {
    /// `turn.observation`: all of the observation, which is all but the bag's order:
    /// the seat, the turn, the mover and its slot in the turn order, the drawn tile, the
    /// bag's counts, the placed tiles with their placers, tiles placed per seat, and the
    /// winning teams with the end reason.
    /// - Complexity: O(placed tiles); no allocation once the writer has grown.
    public func writeProtocolObservation(to json: inout JSONWriter) {
        let board = setup.board
        json.beginObject()
        json.member("seat", seat)
        json.member("turn", Int(turns))
        json.member("mover", setup.turnOrder[Int(slot)])
        json.member("slot", Int(slot))
        json.key("tile")
        if tile < 0 { json.null() } else { json.value(Int(tile)) }
        json.key("bag")
        json.beginArray()
        for type in 0..<QuortexTile.typeCount { json.value(Int(remaining[type])) }
        json.endArray()
        json.key("tiles")
        json.beginArray()
        // Each tile's object is its cell's cached prefix, its code's cached middle and
        // the placer's digit (seats are 0...5).
        let prefixes = QuortexProtocolBytes.cellPrefixes[board.radius]
        var rest = occupied
        while rest != 0 {
            let cell = rest.trailingZeroBitCount
            rest &= rest &- 1
            var placer: UInt8 = 0
            for bit in 0..<3 where placers[bit] & (CellSet(1) << cell) != 0 { placer |= 1 << bit }
            json.raw(prefixes[cell])
            json.bytes.append(contentsOf: QuortexProtocolBytes.codeMiddles[Int(cells[cell])])
            json.bytes.append(UInt8(ascii: "0") + placer)
            json.bytes.append(UInt8(ascii: "}"))
        }
        json.endArray()
        json.key("placed")
        json.beginArray()
        for s in 0..<setup.seatCount { json.value(Int(placedBySeat[s])) }
        json.endArray()
        json.key("winners")
        json.beginArray()
        var won = Int(winners)
        while won != 0 { json.value(won.trailingZeroBitCount); won &= won &- 1 }
        json.endArray()
        json.key("reason")
        json.value(reason.name)
        json.endObject()
    }
}

/// Constant bytes of the observation's tile objects, built once: per board radius and
/// cell `{"cell":C,"row":R,"col":Q,"type":`, per tile code `T,"rotation":K,"seat":`.
enum QuortexProtocolBytes {
    /// `cellPrefixes[radius][cell]` (radius 0 is empty).
    static let cellPrefixes: [[[UInt8]]] = (0...QuortexBoard.maxRadius).map { radius in
        guard radius > 0 else { return [] }
        var cells: [(row: Int, col: Int)] = []
        for row in -radius...radius { for col in -radius...radius where abs(row + col) <= radius { cells.append((row, col)) } }
        return cells.enumerated().map { Array("{\"cell\":\($0.offset),\"row\":\($0.element.row),\"col\":\($0.element.col),\"type\":".utf8) }
    }

    /// `codeMiddles[type * 6 + rotation]`.
    static let codeMiddles: [[UInt8]] = (0..<24).map { Array("\($0 / 6),\"rotation\":\($0 % 6),\"seat\":".utf8) }
}

extension JSONWriter {
    /// An array of side pairs, e.g. `[[0,2],[1,4],[3,5]]`.
    mutating func writePairs(_ pairs: [[Int]]) {
        beginArray()
        for pair in pairs {
            beginArray()
            for side in pair { value(side) }
            endArray()
        }
        endArray()
    }
}
