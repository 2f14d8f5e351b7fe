/// What the lab draws, as plain data: no game types, so this module never imports a
/// game. LabCatalog fills these from a map, a board or a played match.

/// A rail map: cities at their coordinates and the railroads between them.
public struct RailMapPicture: Sendable, Equatable {
    public struct City: Sendable, Equatable {
        public var name: String
        public var latitude: Double
        public var longitude: Double

        public init(name: String, latitude: Double, longitude: Double) {
            self.name = name
            self.latitude = latitude
            self.longitude = longitude
        }
    }

    public struct Railroad: Sendable, Equatable {
        /// City indices.
        public var from: Int
        public var to: Int
        public var length: Int
        /// The rule book's colour name: red, blue, yellow, green, black or grey.
        public var colour: String
        /// 0 for a single railroad or the first of a double; 1 for the second of a double
        /// (drawn beside the first).
        public var lane: Int

        public init(from: Int, to: Int, length: Int, colour: String, lane: Int) {
            self.from = from
            self.to = to
            self.length = length
            self.colour = colour
            self.lane = lane
        }
    }

    public var name: String
    public var cities: [City]
    public var railroads: [Railroad]

    public init(name: String, cities: [City], railroads: [Railroad]) {
        self.name = name
        self.cities = cities
        self.railroads = railroads
    }
}

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

/// One action of a replayed match.
public struct ReplayStep: Sendable, Equatable {
    /// The turn after the action (the game's count).
    public var turn: Int
    public var seat: Int
    /// The action as `oplab play --trace` prints it.
    public var action: String
    /// The mover's standing after it.
    public var detail: String

    public init(turn: Int, seat: Int, action: String, detail: String) {
        self.turn = turn
        self.seat = seat
        self.action = action
        self.detail = detail
    }
}

/// A seat's result at the end of a replayed match.
public struct ReplaySeat: Sendable, Equatable {
    /// The strategy spec that played the seat.
    public var player: String
    public var place: Int
    /// win, draw or loss.
    public var result: String
    /// The game's per-seat figures (name, value), as `oplab play` prints them.
    public var figures: [Figure]

    public struct Figure: Sendable, Equatable {
        public var name: String
        public var value: Int

        public init(name: String, value: Int) {
            self.name = name
            self.value = value
        }
    }

    public init(player: String, place: Int, result: String, figures: [Figure]) {
        self.player = player
        self.place = place
        self.result = result
        self.figures = figures
    }
}

/// A rail match to draw: the map, who built what and when, the missions.
public struct RailReplay: Sendable, Equatable {
    public struct Build: Sendable, Equatable {
        public var railroad: Int
        public var seat: Int
        /// Index in ``steps`` of the action that built it.
        public var step: Int

        public init(railroad: Int, seat: Int, step: Int) {
            self.railroad = railroad
            self.seat = seat
            self.step = step
        }
    }

    public struct Mission: Sendable, Equatable {
        public var seat: Int
        /// City indices.
        public var from: Int
        public var to: Int
        public var points: Int
        /// Index in ``steps`` of the action after which the seat held it.
        public var step: Int
        /// Index in ``steps`` of the action that completed it, nil when never completed.
        public var completedStep: Int?

        public init(seat: Int, from: Int, to: Int, points: Int, step: Int, completedStep: Int?) {
            self.seat = seat
            self.from = from
            self.to = to
            self.points = points
            self.step = step
            self.completedStep = completedStep
        }
    }

    public var map: RailMapPicture
    public var seed: UInt64
    public var seats: [ReplaySeat]
    public var steps: [ReplayStep]
    public var builds: [Build]
    public var missions: [Mission]
    /// The game's end reason (e.g. `all-missions`, `turn-cap`).
    public var endReason: String

    public init(map: RailMapPicture, seed: UInt64, seats: [ReplaySeat], steps: [ReplayStep], builds: [Build],
                missions: [Mission], endReason: String) {
        self.map = map
        self.seed = seed
        self.seats = seats
        self.steps = steps
        self.builds = builds
        self.missions = missions
        self.endReason = endReason
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

/// A replayed match of either game.
public enum Replay: Sendable, Equatable {
    case rail(RailReplay)
    case quortex(QuortexReplay)
}
