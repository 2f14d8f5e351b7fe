import LabCore

extension QuortexState {
    /// One cell of a flow: the side it enters by and the side it leaves by.
    public struct FlowStep: Sendable, Equatable {
        public var cell: Int
        public var entering: Int
        public var exit: Int
    }

    /// The flow that joins a port of board edge `edge` to a port of the opposite edge
    /// through placed tiles (rule book, "Flows and victory"), cell by cell from `edge`;
    /// nil when no flow does. Flows never branch (every channel joins two sides), so
    /// the flow from a port is one path. With several, the one from the first port in
    /// the board's port order.
    /// - Complexity: O(ports of the edge + cells on their flows).
    public func flow(from edge: Int) -> [FlowStep]? {
        let board = setup.board
        let target = HexSide.opposite(edge)
        for cell in board.cells.indices where board.edgeCells[edge] & (CellSet(1) << cell) != 0 {
            for side in 0..<6 where board.portEdge[cell * 6 + side] == edge {
                var path: [FlowStep] = []
                var c = cell, entering = side
                while let code = tileCode(at: c) {
                    let exit = QuortexTile.partner[code * 6 + entering]
                    path.append(FlowStep(cell: c, entering: entering, exit: exit))
                    let next = board.neighbour[c * 6 + exit]
                    if next < 0 {
                        if board.portEdge[c * 6 + exit] == target { return path }
                        break
                    }
                    c = next
                    entering = HexSide.opposite(exit)
                }
            }
        }
        return nil
    }

    /// The flow that completed `seat`'s connection: from its edge to the opposite one;
    /// nil when the seat has none.
    public func completedFlow(of seat: Int) -> [FlowStep]? { flow(from: setup.edges[seat]) }

    /// The cells of ``completedFlow(of:)``, followed without building the path (a
    /// tournament's `flow_cells` figure, once per match and seat).
    public func completedFlowCells(of seat: Int) -> CellSet? {
        let board = setup.board
        let edge = setup.edges[seat]
        let target = HexSide.opposite(edge)
        for cell in board.cells.indices where board.edgeCells[edge] & (CellSet(1) << cell) != 0 {
            for side in 0..<6 where board.portEdge[cell * 6 + side] == edge {
                var cells: CellSet = 0
                var c = cell, entering = side
                while let code = tileCode(at: c) {
                    let exit = QuortexTile.partner[code * 6 + entering]
                    cells |= CellSet(1) << c
                    let next = board.neighbour[c * 6 + exit]
                    if next < 0 {
                        if board.portEdge[c * 6 + exit] == target { return cells }
                        break
                    }
                    c = next
                    entering = HexSide.opposite(exit)
                }
            }
        }
        return nil
    }
}
