import Quortex

/// The rule book's legality and route lengths, written from its words for the tests
/// ("Legal placement", "Flows and victory", "The reference implementation's AI"): put
/// the tile on a copy of the board, then walk the plain (cell, side) graph. It shares
/// nothing with the engine's contracted graph, only the board's tables, and answers what
/// ``QuortexState/plainLegalActions()`` answers (a test holds it to that). It keeps its
/// tables and search space in raw buffers, allocated once, so that a debug build can
/// check thousands of positions; one oracle serves one test at a time.
final class RuleBookOracle {
    let board: QuortexBoard
    let nodeCount: Int
    /// `ports[e]`: the (cell * 6 + side) nodes owned by edge e, in canonical order.
    let ports: [[Int]]
    private let neighbour: UnsafeMutablePointer<Int>
    private let portEdge: UnsafeMutablePointer<Int>
    private let partner: UnsafeMutablePointer<Int>
    private let codes: UnsafeMutablePointer<Int>
    private let seen: UnsafeMutablePointer<UInt32>
    private let cost: UnsafeMutablePointer<Int>
    private let queue: UnsafeMutablePointer<Int>
    private var stamp: UInt32 = 0

    init(board: QuortexBoard) {
        self.board = board
        nodeCount = board.cells.count * 6
        ports = (0..<6).map { e in board.ports(of: e).map { $0.cell * 6 + $0.side } }
        neighbour = .allocate(capacity: nodeCount)
        portEdge = .allocate(capacity: nodeCount)
        partner = .allocate(capacity: QuortexTile.partner.count)
        codes = .allocate(capacity: board.cells.count)
        seen = .allocate(capacity: nodeCount)
        cost = .allocate(capacity: nodeCount)
        queue = .allocate(capacity: 2 * nodeCount + 2)
        for i in 0..<nodeCount {
            neighbour[i] = board.neighbour[i]
            portEdge[i] = board.portEdge[i]
            seen[i] = 0
        }
        for i in QuortexTile.partner.indices { partner[i] = QuortexTile.partner[i] }
    }

    deinit {
        for p in [neighbour, portEdge, partner, codes, cost, queue] { p.deallocate() }
        seen.deallocate()
    }

    /// Placements (cell * 6 + rotation, distinct rotations only, canonical order) of a
    /// tile of `type` on the board `tiles` (a code per cell, -1 empty) that leave some live
    /// axis completed or every live axis a route.
    func legalPlacements(_ tiles: [Int], type: Int, liveAxes: Int) -> [Int] {
        load(tiles)
        var out: [Int] = []
        for cell in tiles.indices where tiles[cell] < 0 {
            for r in QuortexTile.distinctRotations[type] {
                codes[cell] = type * 6 + r
                if completedAxes() & liveAxes != 0 || allRoutes(liveAxes: liveAxes) { out.append(cell * 6 + r) }
            }
            codes[cell] = -1
        }
        return out
    }

    /// Axes (bit e for edges e and e + 3) that a flow through placed tiles joins port to
    /// port on the board `tiles`.
    func completedAxes(_ tiles: [Int]) -> Int {
        load(tiles)
        return completedAxes()
    }

    /// The fewest empty cells on a route from edge `axis` to edge `axis + 3` on the board
    /// `tiles`, or nil when there is none.
    func routeLength(_ tiles: [Int], axis: Int) -> Int? {
        load(tiles)
        return routeLength(axis: axis)
    }

    private func load(_ tiles: [Int]) {
        precondition(tiles.count == board.cells.count, "one code per cell")
        for c in tiles.indices { codes[c] = tiles[c] }
    }

    private func completedAxes() -> Int {
        var axes = 0
        for axis in 0..<3 {
            for start in ports[axis] {
                var c = start / 6, entering = start % 6
                while codes[c] >= 0 {
                    let exit = partner[codes[c] * 6 + entering]
                    let n = neighbour[c * 6 + exit]
                    if n < 0 {
                        if portEdge[c * 6 + exit] == axis + 3 { axes |= 1 << axis }
                        break
                    }
                    c = n
                    entering = (exit + 3) % 6
                }
            }
        }
        return axes
    }

    private func allRoutes(liveAxes: Int) -> Bool {
        for axis in 0..<3 where liveAxes & (1 << axis) != 0 {
            if routeLength(axis: axis) == nil { return false }
        }
        return true
    }

    /// A 0-1 breadth-first search over (cell, side): an empty cell joins all its sides,
    /// a tile its pairs, a side the facing side across it; entering an empty cell costs
    /// one. Cost-0 steps go to the front of the deque in `queue`, cost-1 steps to the
    /// back, so nodes leave it in cost order and the first target reached is a nearest
    /// one. A node goes in at most once at each end, so neither half overflows.
    private func routeLength(axis: Int) -> Int? {
        stamp &+= 1
        if stamp == 0 {
            for i in 0..<nodeCount { seen[i] = 0 }
            stamp = 1
        }
        let target = axis + 3
        var head = nodeCount + 1, tail = nodeCount + 1
        for pass in 0..<2 {
            for node in ports[axis] where (codes[node / 6] < 0 ? 1 : 0) == pass {
                seen[node] = stamp; cost[node] = pass; queue[tail] = node; tail += 1
            }
        }
        while head < tail {
            let node = queue[head]
            head += 1
            if portEdge[node] == target { return cost[node] }
            let c = node / 6, d = node % 6, here = cost[node]
            if codes[c] < 0 {
                for s in 0..<6 where s != d {
                    let m = c * 6 + s
                    if seen[m] != stamp || cost[m] > here { seen[m] = stamp; cost[m] = here; head -= 1; queue[head] = m }
                }
            } else {
                let m = c * 6 + partner[codes[c] * 6 + d]
                if seen[m] != stamp || cost[m] > here { seen[m] = stamp; cost[m] = here; head -= 1; queue[head] = m }
            }
            let n = neighbour[node]
            if n >= 0 {
                let m = n * 6 + (d + 3) % 6
                let c2 = here + (codes[n] < 0 ? 1 : 0)
                if seen[m] != stamp || cost[m] > c2 {
                    seen[m] = stamp; cost[m] = c2
                    if c2 == here { head -= 1; queue[head] = m } else { queue[tail] = m; tail += 1 }
                }
            }
        }
        return nil
    }
}
