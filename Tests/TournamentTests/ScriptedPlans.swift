import Foundation
import LabCore
@testable import Tournament

/// A 2-seat table that plays no game: `firstWins(match)` says whether entrant 0 wins
/// match number `match`, whichever seat the rotation gives it.
struct ScriptedTable: SeatedTable {
    /// The seat entrant 0 holds at this table's rotation.
    let firstSeat: Int
    let firstWins: @Sendable (Int) -> Bool

    func play(dealSeed: UInt64, strategySeed: UInt64, match: Int, buffer: inout ActionBuffer, timer: DecisionTimer?) -> MatchRecord {
        var places = [2, 2]
        places[firstWins(match) ? firstSeat : 1 - firstSeat] = 1
        return MatchRecord(outcome: Outcome(places: places, endReason: "scripted", turns: 1), seatColumns: [[], []])
    }
}

enum ScriptedPlans {
    /// The plan of a 2-entrant, 2-seat `config` on ``ScriptedTable``s.
    static func headToHead(_ config: TournamentConfig, firstWins: @escaping @Sendable (Int) -> Bool) throws(InputError) -> TournamentPlan {
        let schedule = try Schedule(entrants: 2, seats: 2, format: config.format, candidate: nil, blocksPerTable: config.blocks)
        let seatings: [[any SeatedTable]] = schedule.tables.indices.map { t in
            (0..<2).map { r in ScriptedTable(firstSeat: schedule.seating(table: t, rotation: r).firstIndex(of: 0)!, firstWins: firstWins) }
        }
        return TournamentPlan(config: config, schedule: schedule, seatings: seatings, columns: [], anchor: nil)
    }

    /// A fresh path in the temporary folder (not created).
    static func temporaryPath(_ label: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("oplab-\(label)-\(UUID().uuidString)").path
    }
}
