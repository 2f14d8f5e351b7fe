import GameConformance
import LabCore
import Testing
import RailGame

/// The shared conformance suite, run on rail with 2-4 seats and several rule variants.
/// 9 configurations x 200 random matches, invariants checked after every action.
@Suite("Conformance")
struct ConformanceTests {
    static let budget = Conformance.Budget(randomMatches: 200, applyMatches: 3, copyMatches: 3, replayMatches: 5,
                                           samplingMatches: 2, samplesPerSeat: 2, stride: 5, horizon: 10)

    @Test("rail passes the conformance suite", arguments: [2, 3, 4])
    func railPassesTheConformanceSuite(seats: Int) throws {
        try Conformance.check(Rail.game(seats: seats), budget: Self.budget, seed: UInt64(seats))
    }

    @Test func railWithAnExplicitMissionListPassesTheConformanceSuite() throws {
        let game = try RailGame(map: Rail.mapWithMissions(), seatCount: 4)
        try Conformance.check(game, budget: Self.budget, seed: 5)
    }

    struct Variant: Sendable, CustomTestStringConvertible {
        var seats: Int
        var settings: [String: String]
        var testDescription: String { "\(seats) seats, \(settings.sorted(by: { $0.key < $1.key }).map { "\($0.key)=\($0.value)" }.joined(separator: " "))" }
    }

    @Test("rail passes the conformance suite under variant rules", arguments: [
        Variant(seats: 2, settings: ["spentCards": "discard", "deckExhaustion": "immediate"]),
        Variant(seats: 3, settings: ["spentCards": "discard", "initialHand": "3"]),
        Variant(seats: 4, settings: ["completedMissionsOccupySlots": "true", "turnCap": "300"]),
        Variant(seats: 2, settings: ["initialHand": "6", "missionsToWin": "1"]),
        Variant(seats: 1, settings: ["missionsToWin": "3"]),
    ])
    func railPassesTheConformanceSuiteUnderVariantRules(variant: Variant) throws {
        try Conformance.check(Rail.game(seats: variant.seats, variant.settings), budget: Self.budget, seed: 77)
    }
}
