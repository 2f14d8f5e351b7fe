import ConnectFour
import GameConformance
import LabCore
import Testing

/// The shared conformance suite, run on Connect Four: 1,000 random matches with the
/// invariants checked after every drop, and the costlier checks on 100 each.
@Suite("Conformance")
struct ConformanceTests {
    @Test func connectFourPassesTheConformanceSuite() throws {
        try Conformance.check(ConnectFourGame(), budget: Conformance.Budget(matches: 1_000), seed: 4)
    }
}
