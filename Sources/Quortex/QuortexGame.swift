import LabCore

/// Why a Quortex match ended: a completed flow, several at once, or constraint (the
/// mover drew from an empty bag or could place the drawn tile nowhere).
public enum QuortexEndReason: UInt8, Sendable {
    case none = 0, flow, tie, constraint

    public var name: String {
        switch self {
        case .none: "none"
        case .flow: "flow"
        case .tie: "tie"
        case .constraint: "constraint"
        }
    }
}

/// Seats, edges, sides (players or teams) and turn order, fixed for a game.
/// (Rule book, "Seats, edges and teams".)
public final class QuortexSetup: Sendable {
    public let board: QuortexBoard
    public let rules: QuortexRules
    /// Tiles of each type in the full bag (`rules.bag`, which makes a new array each
    /// read, kept once).
    public let bag: [Int]
    public let seatCount: Int
    /// Board edge of each seat.
    public let edges: [Int]
    /// Side (a solo player or a team) of each seat; sides are numbered in seat order.
    public let sideOfSeat: [Int]
    /// The axis (edge e and e + 3, given as e mod 3) each side must join.
    public let sideAxis: [Int]
    /// Seats in turn order (the 5-player layout has 6 slots: the solo player twice).
    public let turnOrder: [Int]
    /// Solo players sitting on opposite edges (warned about: their paths are ties).
    public let opposedSoloSeats: [(Int, Int)]
    /// Axes some side must join, as a bitmask over 0...2.
    public let liveAxes: Int
    /// Cells the reference AI always considers (the published AI's filter): on the start
    /// edge of some seat in play, or next to such a cell. Cells next to a tile are added
    /// per position; a cell that is only next to another rim cell is not a candidate.
    let referenceCandidateCells: CellSet

    /// Default layouts by seat count.
    public static let defaultEdges: [Int: [Int]] = [2: [0, 2], 3: [0, 2, 4], 4: [0, 1, 3, 4], 5: [0, 1, 2, 3, 4], 6: [0, 1, 2, 3, 4, 5]]
    public static let seatRange = 2...6

    public init(rules: QuortexRules, seatCount: Int) throws(InputError) {
        guard Self.seatRange.contains(seatCount) else {
            throw InputError("quortex takes 2 to 6 seats; got \(seatCount)")
        }
        let edges = rules.edges ?? Self.defaultEdges[seatCount]!
        guard edges.count == seatCount else {
            throw InputError("rule edges=\(edges.map(String.init).joined(separator: ",")): \(edges.count) edges for \(seatCount) seats; give one edge per seat")
        }
        board = QuortexBoard(radius: rules.radius)
        self.rules = rules
        bag = rules.bag
        self.seatCount = seatCount
        self.edges = edges
        // With four or more players, seats on opposite edges are partners; otherwise
        // everyone plays alone (rule book table).
        var side = [Int](repeating: -1, count: seatCount)
        var axis: [Int] = []
        for s in 0..<seatCount where side[s] < 0 {
            side[s] = axis.count
            if seatCount >= 4, let partner = edges.firstIndex(of: (edges[s] + 3) % 6) { side[partner] = axis.count }
            axis.append(edges[s] % 3)
        }
        sideOfSeat = side
        sideAxis = axis
        liveAxes = axis.reduce(0) { $0 | 1 << $1 }
        var opposed: [(Int, Int)] = []
        for a in 0..<seatCount {
            for b in a + 1..<seatCount where edges[b] == (edges[a] + 3) % 6 && side[a] != side[b] { opposed.append((a, b)) }
        }
        opposedSoloSeats = opposed
        // Clockwise by edge from seat 0's edge; with five players the empty edge's slot
        // goes to the player opposite it.
        var order: [Int] = []
        for step in 0..<6 {
            let e = (edges[0] + step) % 6
            if let seat = edges.firstIndex(of: e) { order.append(seat) } else if seatCount == 5, let seat = edges.firstIndex(of: (e + 3) % 6) { order.append(seat) }
        }
        turnOrder = order
        var startEdges: CellSet = 0
        for e in edges { startEdges |= board.edgeCells[e] }
        var candidates = startEdges
        while startEdges != 0 { candidates |= board.neighbourSets[startEdges.trailingZeroBitCount]; startEdges &= startEdges &- 1 }
        referenceCandidateCells = candidates
    }

    /// Seats of `side`.
    public func seats(ofSide side: Int) -> [Int] { (0..<seatCount).filter { sideOfSeat[$0] == side } }
}

/// Quortex: rules and seats; deals ``QuortexState``s.
public struct QuortexGame: Game {
    public typealias State = QuortexState

    public static let name = "quortex"
    public let setup: QuortexSetup

    public init(rules: QuortexRules = QuortexRules(), seatCount: Int) throws(InputError) {
        setup = try QuortexSetup(rules: rules, seatCount: seatCount)
    }

    public var seatCount: Int { setup.seatCount }
    public var teams: [Int] { setup.sideOfSeat }

    public func newMatch(seed: UInt64) -> QuortexState { QuortexState(setup: setup, seed: seed) }
}
