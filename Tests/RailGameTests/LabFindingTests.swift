import LabCore
import Testing
import RailGame

/// The lab's first finding (rule book, "Missions"): under the shipped app's rule that
/// completed missions keep their slots, a seat completes at most two missions, so a
/// table of CPUs can never reach the fifth and the game never ends by missions.
@Suite("Lab findings")
struct LabFindingTests {
    /// End reasons of 200 heuristic matches with 2, 3 and 4 seats in turn.
    static func endReasons(_ settings: [String: String]) throws -> [String: Int] {
        var reasons: [String: Int] = [:]
        for m in 0..<200 {
            let game = try Rail.game(seats: 2 + m % 3, settings)
            let result = Match.play(game, seed: Seeds.match(2024, match: UInt64(m)), factories: Array(repeating: Rail.heuristic, count: game.seatCount))
            reasons[result.outcome.endReason, default: 0] += 1
        }
        return reasons
    }

    @Test func heuristicTablesNeverEndByMissionsWhenCompletedMissionsOccupySlots() throws {
        let reasons = try Self.endReasons(["completedMissionsOccupySlots": "true"])
        #expect(reasons["missions", default: 0] == 0, "\(reasons)")
    }

    @Test func heuristicTablesDoEndByMissionsUnderTheDefaultRules() throws {
        // These 200 matches give 32 `missions` endings; the rest end `all_passed` (the
        // board fills up and full hands cannot build what is left).
        let reasons = try Self.endReasons([:])
        #expect(reasons["missions", default: 0] >= 20, "\(reasons)")
    }
}
