import Foundation
import LabCatalog
import LabCore
import Testing

/// The package root, so tests find `configs/` from any working directory.
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
let shippedMap = packageRoot + "/configs/maps/train-depot-europe.json"

@Suite("Tables")
struct TableTests {
    func table(_ players: [String], rules: [(key: String, value: String)] = []) throws -> any MatchTable {
        let rail = try Catalog.game(named: "rail")
        return try rail.makeTable(TableSetup(rules: rules, mapPath: shippedMap, players: players.map { try StrategySpec.parse($0) }))
    }

    @Test("The same match seed plays the same match; another seed another")
    func determinism() throws {
        let t = try table(["heuristic", "random"])
        var buffer = ActionBuffer()
        var traceA: [String] = [], traceB: [String] = [], traceC: [String] = []
        let a = t.play(seed: 11, buffer: &buffer) { traceA.append("\($0.seat) \($0.action)") }
        let b = t.play(seed: 11, buffer: &buffer) { traceB.append("\($0.seat) \($0.action)") }
        let c = t.play(seed: 12, buffer: &buffer) { traceC.append("\($0.seat) \($0.action)") }
        #expect(traceA == traceB)
        #expect(a.outcome == b.outcome)
        #expect(a.seatStats == b.seatStats)
        #expect(traceA != traceC)
        _ = c
    }

    @Test("A strategy parameter changes play: missionProbability=0 never draws a mission by choice")
    func parameterReachesStrategy() throws {
        let t = try table(["heuristic(missionProbability=0)", "heuristic(missionProbability=1)"])
        var buffer = ActionBuffer()
        var draws = [0, 0]
        _ = t.play(seed: 5, buffer: &buffer) { if $0.action == "draw mission" { draws[$0.seat] += 1 } }
        #expect(draws[1] > draws[0])
    }

    @Test("Seat counts outside 1-4, unknown knobs and missing maps are refused")
    func setupErrors() throws {
        #expect(throws: InputError("rail takes 1 to 4 seats (2-4 for tournaments, 1 for solitaire); got 5")) {
            try table(Array(repeating: "random", count: 5))
        }
        #expect(throws: InputError.self) { try table(["random", "random"], rules: [("noSuchKnob", "1")]) }
        let rail = try Catalog.game(named: "rail")
        #expect {
            try rail.makeTable(TableSetup(mapPath: "/nonexistent/map.json", players: [StrategySpec(name: "random")]))
        } throws: { error in
            (error as? InputError)?.message.contains("cannot read file '/nonexistent/map.json'") == true
        }
    }
}
