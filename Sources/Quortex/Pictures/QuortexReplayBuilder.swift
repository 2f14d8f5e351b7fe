import LabCore
import Pictures

extension HexBoardPicture {
    /// The picture of `board`: its cells in canonical order and every rim side with the
    /// board edge that owns it.
    public init(_ board: QuortexBoard) {
        var ports: [Port] = []
        for cell in board.cells.indices {
            for side in 0..<6 where board.portEdge[cell * 6 + side] >= 0 {
                ports.append(.init(cell: cell, side: side, edge: board.portEdge[cell * 6 + side]))
            }
        }
        self.init(radius: board.radius, cells: board.cells.map { .init(row: $0.row, col: $0.col) }, ports: ports)
    }
}

extension QuortexReplay {
    /// A played Quortex match: every placement with its tile's channels, and each seat's
    /// completed flow at the end.
    public init(_ match: MatchReplay<QuortexGame>) {
        var placements: [Placement] = []
        for (k, e) in match.events.enumerated() {
            guard let type = e.before.drawnTile else { continue }
            let cell = e.action / 6, rotation = e.action % 6
            placements.append(.init(cell: cell, tileType: type, rotation: rotation,
                                    channels: QuortexTile.pairs(type: type, rotation: rotation), seat: e.before.currentSeat, step: k))
        }
        let final = match.final
        let flows = (0..<final.seatCount).map { seat in
            (final.completedFlow(of: seat) ?? []).map { FlowCell(cell: $0.cell, entering: $0.entering, exit: $0.exit) }
        }
        self.init(board: HexBoardPicture(final.board), seed: match.seed, seats: match.seats, seatEdges: final.setup.edges,
                  steps: match.steps, placements: placements, flows: flows, endReason: match.outcome.endReason)
    }
}

extension QuortexGame: ReplayDrawing {
    /// The board with each placed tile and the completed flows, stepping with the match.
    public static func scene(of match: MatchReplay<QuortexGame>) -> ReplayScene { QuortexReplay(match).scene }
}
