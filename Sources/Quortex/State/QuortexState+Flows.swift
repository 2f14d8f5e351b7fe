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
        firstFlow(from: edge, [FlowStep]()) { $0.append($1) }
    }

    /// Follows the flow from each port of `edge` in the board's port order, gathering its
    /// steps into a copy of `empty` with `add`, and returns the first that reaches the
    /// opposite edge (nil when none does).
    @inline(__always)
    private func firstFlow<Gathered>(from edge: Int, _ empty: Gathered, _ add: (inout Gathered, FlowStep) -> Void) -> Gathered? {
        let board = setup.board
        let target = HexSide.opposite(edge)
        var edgeCells = board.edgeCells[edge]
        while edgeCells != 0 {
            let cell = edgeCells.trailingZeroBitCount
            edgeCells &= edgeCells &- 1
            for side in 0..<6 where board.portEdge[cell * 6 + side] == edge {
                var gathered = empty
                var c = cell, entering = side
                while let code = tileCode(at: c) {
                    let exit = QuortexTile.partner[code * 6 + entering]
                    add(&gathered, FlowStep(cell: c, entering: entering, exit: exit))
                    let next = board.neighbour[c * 6 + exit]
                    if next < 0 {
                        if board.portEdge[c * 6 + exit] == target { return gathered }
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
    @inline(__always)
    public func completedFlowCells(of seat: Int) -> CellSet? {
        firstFlow(from: setup.edges[seat], CellSet(0)) { $0 |= CellSet(1) << $1.cell }
    }

    /// What a tournament marks for `seat` on the board of a finished match: the cells it
    /// placed on and, when its side won, the cells of its completed flow (0 otherwise; a
    /// flow crossing a cell twice marks it once). `mutating` only to be read where the
    /// state lies: a call from another module took the state's 4,464 bytes as a copy.
    public mutating func tournamentMarks(of seat: Int) -> (placed: CellSet, flow: CellSet) {
        let placed = cells(placedBy: seat)
        // Only a winning side can hold a completed flow: the match ends when one completes.
        guard Int(winners) & (1 << setup.sideOfSeat[seat]) != 0 else { return (placed, 0) }
        return (placed, completedFlowCells(of: seat) ?? 0)
    }
}
