import LabCore

extension QuortexState {
    /// Legal placements by the rule book's words, with none of the fast path's shortcuts:
    /// for every empty cell and distinct rotation, place the tile on a copy of the board,
    /// then search the plain (cell, side) graph for each live axis. The oracle the tests
    /// compare ``legalActions(into:)`` against; far too slow for play.
    /// - Complexity: O(cells x rotations x axes x cells x 6).
    public func plainLegalActions() -> [Int] {
        guard !isTerminal, tile >= 0 else { return [] }
        let board = setup.board
        var out: [Int] = []
        var codes = (0..<board.cells.count).map { cells[$0] == Self.emptyCell ? -1 : Int(cells[$0]) }
        for cell in board.cells.indices where codes[cell] < 0 {
            for r in QuortexTile.distinctRotations[Int(tile)] {
                codes[cell] = Int(tile) * 6 + r
                if Self.plainLegal(board: board, codes: codes, liveAxes: setup.liveAxes) { out.append(cell * 6 + r) }
                codes[cell] = -1
            }
        }
        return out
    }

    /// A position after a placement is legal when some live axis has a completed flow,
    /// or every live axis still has a route.
    static func plainLegal(board: QuortexBoard, codes: [Int], liveAxes: Int) -> Bool {
        let axes = (0..<3).filter { liveAxes & (1 << $0) != 0 }
        if axes.contains(where: { plainCompleted(board: board, codes: codes, axis: $0) }) { return true }
        return axes.allSatisfy { plainRoute(board: board, codes: codes, axis: $0) }
    }

    /// Whether a flow through placed tiles joins a port of edge `axis` to one of edge
    /// `axis + 3`.
    public static func plainCompleted(board: QuortexBoard, codes: [Int], axis: Int) -> Bool {
        for (start, side) in board.ports(of: axis) {
            var c = start, entering = side
            while codes[c] >= 0 {
                let exit = QuortexTile.partner[codes[c] * 6 + entering]
                let n = board.neighbour[c * 6 + exit]
                if n < 0 {
                    if board.portEdge[c * 6 + exit] == axis + 3 { return true }
                    break
                }
                c = n
                entering = (exit + 3) % 6
            }
        }
        return false
    }

    /// Breadth-first search over (cell, side) nodes: an empty cell links all its sides,
    /// a tile its three pairs, and each side faces the neighbour's opposite side.
    public static func plainRoute(board: QuortexBoard, codes: [Int], axis: Int) -> Bool {
        var seen = [Bool](repeating: false, count: board.cells.count * 6)
        var queue: [Int] = []
        for (c, d) in board.ports(of: axis) { seen[c * 6 + d] = true; queue.append(c * 6 + d) }
        var head = 0
        while head < queue.count {
            let node = queue[head]
            head += 1
            let c = node / 6, d = node % 6
            if board.portEdge[node] == axis + 3 { return true }
            var next: [Int] = []
            if codes[c] < 0 {
                next += (0..<6).filter { $0 != d }.map { c * 6 + $0 }
            } else {
                next.append(c * 6 + QuortexTile.partner[codes[c] * 6 + d])
            }
            let n = board.neighbour[node]
            if n >= 0 { next.append(n * 6 + (d + 3) % 6) }
            for m in next where !seen[m] { seen[m] = true; queue.append(m) }
        }
        return false
    }
}
