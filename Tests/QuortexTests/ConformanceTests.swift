import GameConformance
import LabCore
import Quortex
import Testing

/// The shared conformance suite, run on quortex with 2-6 seats and a small board.
/// 7 configurations x 60 random matches, invariants checked after every action.
@Suite("Conformance")
struct ConformanceTests {
    static let budget = Conformance.Budget(randomMatches: 60, applyMatches: 3, copyMatches: 3, replayMatches: 5,
                                           samplingMatches: 2, samplesPerSeat: 2, stride: 5, horizon: 10)

    @Test("quortex passes the conformance suite", arguments: QuortexSetup.seatRange)
    func quortexPassesTheConformanceSuite(seats: Int) throws {
        try Conformance.check(Q.game(seats: seats), budget: Self.budget, seed: UInt64(seats))
    }

    @Test("quortex passes the conformance suite on a radius-2 board", arguments: [2, 4])
    func quortexPassesTheConformanceSuiteOnARadiusTwoBoard(seats: Int) throws {
        try Conformance.check(Q.game(seats: seats, ["radius": "2", "bag": "5,5,5,5"]), budget: Self.budget, seed: 20 + UInt64(seats))
    }
}
