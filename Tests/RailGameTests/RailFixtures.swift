import Foundation
import LabCore
import Testing
import RailGame

/// Shared set-up for the rail tests: the shipped map (found from this file's path, so
/// the tests run from any working directory), games, named cities and railroads.
enum Rail {
    /// The package root: three levels up from this file (Tests/RailGameTests/<file>).
    static let packageRoot: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    static let mapPath = packageRoot + "/" + RailMapFile.defaultPath

    private static let loaded = Result { () throws(InputError) -> RailMap in try RailMapFile.load(path: mapPath) }

    /// The shipped map, loaded once.
    static func map() throws -> RailMap { try loaded.get() }

    /// A rail game on the shipped map with `KEY=VALUE` rule settings.
    static func game(seats: Int = 2, _ settings: [String: String] = [:]) throws -> RailGame {
        let rules = try RailRules(settings: settings.sorted(by: { $0.key < $1.key }).map { (key: $0.key, value: $0.value) })
        return try RailGame(map: map(), rules: rules, seatCount: seats)
    }

    /// A new match with every mission slot emptied, so railroads given or built in a
    /// test complete only the missions the test puts in place. Seat 0 moves.
    static func quietMatch(seats: Int = 2, _ settings: [String: String] = [:], seed: UInt64 = 1) throws -> RailState {
        var state = try game(seats: seats, settings).newMatch(seed: seed)
        for seat in 0..<seats { state.clearMissions(seat) }
        return state
    }

    /// The shipped map with an explicit mission list (12 missions, the last worth 42).
    static func mapWithMissions() throws -> RailMap {
        let data = try #require(FileManager.default.contents(atPath: mapPath))
        var top = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let pairs = [("London", "Rome"), ("Paris", "Vienna"), ("Madrid", "Berlin"), ("Oslo", "Athens"), ("Dublin", "Kiev"),
                     ("Lisbon", "Moscow"), ("Amsterdam", "Budapest"), ("Stockholm", "Istanbul"), ("Milan", "Warsaw"),
                     ("Edinburgh", "Sofia"), ("Zurich", "Riga")]
        top["missions"] = pairs.map { ["from": $0.0, "to": $0.1] } + [["from": "Brussels", "to": "Prague", "points": 42]]
        let report = RailMapFile.check(data: try JSONSerialization.data(withJSONObject: top))
        return try #require(report.map, "\(report.errors)")
    }

    static func city(_ name: String) throws -> Int {
        try #require(try map().cityIndex(name), "no city \(name) on the shipped map")
    }

    /// The railroad joining `a` and `b` with `colour` (either direction).
    static func railroad(_ a: String, _ b: String, _ colour: RailColour) throws -> Int {
        let map = try map()
        let (x, y) = (try city(a), try city(b))
        return try #require(map.railroads.firstIndex(where: {
            Set([$0.from, $0.to]) == Set([x, y]) && $0.colour == colour
        }), "no \(colour.name) railroad \(a)-\(b)")
    }

    static func legal(_ state: RailState) -> [Int] {
        var buffer = ActionBuffer()
        state.legalActions(into: &buffer)
        return buffer.actions
    }

    /// The colours a build of `railroad` may be paid with in `state`.
    static func payOptions(_ state: RailState, _ railroad: Int) -> [Int] {
        legal(state).filter { RailAction.isBuild($0) && RailAction.railroad(of: $0) == railroad }.map(RailAction.payColour(of:))
    }

    /// A hand as six counts (red, blue, yellow, green, black, rainbow).
    static func hand(red: Int = 0, blue: Int = 0, yellow: Int = 0, green: Int = 0, black: Int = 0, rainbow: Int = 0) -> [Int] {
        [red, blue, yellow, green, black, rainbow]
    }

    static func handOf(_ state: RailState, _ seat: Int) -> [Int] { (0..<6).map { state.cards(seat, $0) } }

    static let red = RailColour.red.rawValue
    static let blue = RailColour.blue.rawValue
    static let yellow = RailColour.yellow.rawValue
    static let green = RailColour.green.rawValue
    static let black = RailColour.black.rawValue
    static let rainbow = RailColour.rainbow

    /// Heuristic CPUs in every seat.
    static let heuristic: StrategyFactory<RailGame> = { context in RailHeuristicCPU(seed: context.seed) }
}
