import Pictures

/// The rail game as the lab draws it, in plain data: the map (from a ``RailMap`` or read
/// back from a tournament's `railroads.csv`) and a played match.

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
