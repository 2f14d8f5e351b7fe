import LabCore

/// Train Depot Europe: a map, its rules and a seat count; deals ``RailState``s.
public struct RailGame: Game {
    public typealias State = RailState

    public static let name = "rail"
    /// Seats the engine plays (rule book, "Setup" 4: 1-4; one is solitaire).
    public static let seatRange = 1...4

    public let map: RailMap
    public let rules: RailRules
    public let seatCount: Int

    public init(map: RailMap, rules: RailRules = RailRules(), seatCount: Int) throws(InputError) {
        guard Self.seatRange.contains(seatCount) else {
            throw InputError("rail takes 1 to 4 seats (2-4 for tournaments, 1 for solitaire); got \(seatCount)")
        }
        self.map = map
        self.rules = rules
        self.seatCount = seatCount
    }

    public func newMatch(seed: UInt64) -> RailState {
        RailState(map: map, rules: rules, seatCount: seatCount, seed: seed)
    }
}
