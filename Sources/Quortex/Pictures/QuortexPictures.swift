import Pictures

/// Quortex as the lab draws it, in plain data: the board (from a ``QuortexBoard`` or read
/// back from a tournament's `cells.csv`) and a played match.

/// A hex board of radius R (rule book "Board"): cells in canonical order (row ascending
/// from -R to R, then col ascending), axial (row, col) with row growing north and col
/// east. Side d of a cell faces the neighbour at `HexBoardPicture.steps[d]`:
/// 0 SW (-1, 0), 1 W (0, -1), 2 NW (+1, -1), 3 NE (+1, 0), 4 E (0, +1), 5 SE (-1, +1);
/// so, drawn pointy-top with north up, side d's midpoint lies at angle 240° - 60° d
/// (side 4 east at 0°, side 3 at 60°, side 2 at 120°, side 1 west at 180°, ...).
public struct HexBoardPicture: Sendable, Equatable {
    public struct Cell: Sendable, Equatable {
        public var row: Int
        public var col: Int

        public init(row: Int, col: Int) {
            self.row = row
            self.col = col
        }
    }

    /// An outward rim side of a cell and the board edge (0...5) that owns it.
    public struct Port: Sendable, Equatable {
        public var cell: Int
        public var side: Int
        public var edge: Int

        public init(cell: Int, side: Int, edge: Int) {
            self.cell = cell
            self.side = side
            self.edge = edge
        }
    }

    public static let steps: [(row: Int, col: Int)] = [(-1, 0), (0, -1), (1, -1), (1, 0), (0, 1), (-1, 1)]

    public var radius: Int
    public var cells: [Cell]
    public var ports: [Port]

    public init(radius: Int, cells: [Cell], ports: [Port]) {
        self.radius = radius
        self.cells = cells
        self.ports = ports
    }
}

/// A Quortex match to draw: the board, every placed tile with its channels, each seat's
/// edge and completed flow.
public struct QuortexReplay: Sendable, Equatable {
    public struct Placement: Sendable, Equatable {
        public var cell: Int
        /// Tile type 0...3 (no sharps ... three sharps) and rotation 0...5.
        public var tileType: Int
        public var rotation: Int
        /// The three channels, each the pair of sides it joins.
        public var channels: [[Int]]
        public var seat: Int
        /// Index in ``steps`` of the placement.
        public var step: Int

        public init(cell: Int, tileType: Int, rotation: Int, channels: [[Int]], seat: Int, step: Int) {
            self.cell = cell
            self.tileType = tileType
            self.rotation = rotation
            self.channels = channels
            self.seat = seat
            self.step = step
        }
    }

    /// One cell of a flow: where it enters and leaves.
    public struct FlowCell: Sendable, Equatable {
        public var cell: Int
        public var entering: Int
        public var exit: Int

        public init(cell: Int, entering: Int, exit: Int) {
            self.cell = cell
            self.entering = entering
            self.exit = exit
        }
    }

    public var board: HexBoardPicture
    public var seed: UInt64
    public var seats: [ReplaySeat]
    /// Each seat's board edge.
    public var seatEdges: [Int]
    public var steps: [ReplayStep]
    public var placements: [Placement]
    /// Per seat, the flow that completed its connection (empty when none did).
    public var flows: [[FlowCell]]
    public var endReason: String

    public init(board: HexBoardPicture, seed: UInt64, seats: [ReplaySeat], seatEdges: [Int], steps: [ReplayStep],
                placements: [Placement], flows: [[FlowCell]], endReason: String) {
        self.board = board
        self.seed = seed
        self.seats = seats
        self.seatEdges = seatEdges
        self.steps = steps
        self.placements = placements
        self.flows = flows
        self.endReason = endReason
    }
}
