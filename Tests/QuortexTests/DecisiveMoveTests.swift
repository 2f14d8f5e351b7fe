import LabCore
import Testing
@testable import Quortex

/// Quortex's decisive moves (`decisiveAction(for:among:)`, read from the channels a
/// placement makes) are the ones found by applying every legal placement to a copy.
@Suite("Quortex decisive moves")
struct DecisiveMoveTests {
    /// Plays `matches` random matches of `game` and compares both answers in every state;
    /// returns how many states had a decisive move, and how many of those won by the
    /// next mover (a partner) being unable to play rather than by a flow.
    func compare(_ game: QuortexGame, matches: Int, seed: UInt64) -> (decisive: Int, byConstraint: Int) {
        var buffer = ActionBuffer()
        var decisive = 0, byConstraint = 0
        for m in 0..<matches {
            var state = game.newMatch(seed: Seeds.match(seed, match: UInt64(m)))
            var rng = LabRandom(seed: Seeds.match(seed &+ 1, match: UInt64(m)))
            while !state.isTerminal {
                state.legalActions(into: &buffer)
                let mover = state.currentSeat
                let fast = state.decisiveAction(for: mover, among: buffer)
                let applied = DecisiveMoves.byApplying(state, mover: mover, legal: buffer)
                #expect(fast == applied, "match \(m), turn \(state.turn): \(String(describing: fast)) against \(String(describing: applied))")
                if let applied {
                    decisive += 1
                    var next = state
                    next.apply(applied)
                    if next.endReason == .constraint { byConstraint += 1 }
                }
                state.apply(buffer[rng.uniform(buffer.count)])
            }
        }
        return (decisive, byConstraint)
    }

    @Test("the same move as applying each placement, 2 to 6 seats", arguments: 2...6)
    func sameAsApplying(seats: Int) throws {
        let found = compare(try Q.game(seats: seats), matches: 40, seed: UInt64(seats))
        #expect(found.decisive > 0)
    }

    @Test("the same move when a partner moves next and the bag runs out (explicit edges 0,3,4,5)")
    func partnerMovesNext() throws {
        // 17 tiles: the last is placed by seat 0, and its partner then draws from the empty bag.
        var rules = try QuortexRules(settings: [(key: "bag", value: "5,4,4,4")])
        rules.edges = [0, 3, 4, 5]
        let game = try QuortexGame(rules: rules, seatCount: 4)
        // Seats 0 and 1 (edges 0 and 3) are partners and move one after the other.
        #expect(game.setup.sideOfSeat[0] == game.setup.sideOfSeat[1])
        #expect(game.setup.turnOrder.prefix(2) == [0, 1])
        let found = compare(game, matches: 200, seed: 11)
        #expect(found.byConstraint > 0, "no decisive move by an empty bag or a blocked partner: the case is not exercised")
    }

    @Test("the same move on a small board with a small bag", arguments: [2, 3, 4])
    func smallBoard(seats: Int) throws {
        let found = compare(try Q.game(seats: seats, ["radius": "2", "bag": "3,3,3,3"]), matches: 60, seed: 30 + UInt64(seats))
        #expect(found.decisive > 0)
    }
}
