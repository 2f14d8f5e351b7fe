import LabCore
import Testing
import RailGame

/// Rule book, "End of the game" and "Ranking".
@Suite("End of the game")
struct EndOfGameTests {
    struct Target: Sendable, CustomTestStringConvertible {
        var settings: [String: String]
        var completedBefore: Int
        var ends: Bool
        var testDescription: String { "\(settings.isEmpty ? "default" : "\(settings)"), \(completedBefore) done before: \(ends ? "ends" : "goes on")" }
    }

    @Test("the game ends at the completion that reaches missionsToWin (default 5)", arguments: [
        Target(settings: [:], completedBefore: 4, ends: true),
        Target(settings: [:], completedBefore: 3, ends: false),
        Target(settings: ["missionsToWin": "2"], completedBefore: 1, ends: true),
        Target(settings: ["missionsToWin": "3"], completedBefore: 1, ends: false),
    ])
    func gameEndsAtTheCompletionThatReachesMissionsToWin(target: Target) throws {
        var (state, build) = try MissionTests.chainPosition(target.settings)
        state.setCompleted(0, target.completedBefore)
        state.apply(build)
        #expect(state.completedMissions(0) == target.completedBefore + 1)
        #expect(state.isTerminal == target.ends)
        if target.ends {
            #expect(state.outcome?.endReason == "missions")
            #expect(state.outcome?.places == [1, 2])
        } else {
            #expect(state.outcome == nil)
        }
    }

    /// Seat 0 draws the deck's last card; seat 1 then holds two missions and `nextHand`.
    static func lastCardPosition(_ settings: [String: String], nextHand: [Int]) throws -> RailState {
        var state = try Rail.quietMatch(settings)
        state.setHand(1, nextHand)
        state.discardDeck(keeping: 1)
        state.setMission(1, slot: 0, from: try Rail.city("Lisbon"), to: try Rail.city("Moscow"))
        state.setMission(1, slot: 1, from: try Rail.city("Dublin"), to: try Rail.city("Athens"))
        state.apply(RailAction.drawCard)
        return state
    }

    @Test func emptyDeckEndsTheGameWhenTheMoverCanOnlyPass() throws {
        let state = try Self.lastCardPosition(["spentCards": "discard"], nextHand: Rail.hand())
        #expect(state.deckCount == 0)
        #expect(state.isTerminal)
        #expect(state.outcome?.endReason == "deck_exhausted")
        #expect(state.outcome?.turns == 1)
    }

    @Test func emptyDeckDoesNotEndTheGameWhileTheMoverCanStillAct() throws {
        let state = try Self.lastCardPosition(["spentCards": "discard", "deckExhaustion": "whenStuck"], nextHand: Rail.hand(red: 1))
        #expect(state.deckCount == 0)
        #expect(!state.isTerminal)
        #expect(state.currentSeat == 1)
        #expect(Rail.legal(state).allSatisfy(RailAction.isBuild))
    }

    @Test func immediateDeckExhaustionEndsTheGameOnceTheDeckIsEmpty() throws {
        let state = try Self.lastCardPosition(["spentCards": "discard", "deckExhaustion": "immediate"], nextHand: Rail.hand(red: 1))
        #expect(state.isTerminal)
        #expect(state.outcome?.endReason == "deck_exhausted")
    }

    @Test func everySeatPassingInOneRoundEndsTheGame() throws {
        // Hands full, nothing buildable (seat 0 owns every red and grey railroad, seat 1
        // every blue one), no missions to draw; the deck still holds cards.
        var state = try Rail.quietMatch(seats: 2)
        state.clearMissionDeck()
        for (r, rr) in state.map.railroads.enumerated() {
            if rr.colour == .red || rr.colour == .grey { state.give(r, to: 0) }
            if rr.colour == .blue { state.give(r, to: 1) }
        }
        state.setHand(0, Rail.hand(red: 6))
        state.setHand(1, Rail.hand(blue: 6))
        #expect(Rail.legal(state) == [RailAction.pass])
        state.apply(RailAction.pass)
        #expect(!state.isTerminal)
        #expect(Rail.legal(state) == [RailAction.pass])
        state.apply(RailAction.pass)
        #expect(state.deckCount > 0)
        #expect(state.outcome?.endReason == "all_passed")
    }

    @Test func aPassFollowedByAnotherActionDoesNotEndTheGame() throws {
        var state = try Rail.quietMatch(seats: 2)
        state.clearMissionDeck()
        for (r, rr) in state.map.railroads.enumerated() where rr.colour == .red || rr.colour == .grey {
            state.give(r, to: 1)
        }
        state.setHand(0, Rail.hand(red: 6))
        state.apply(RailAction.pass)
        state.apply(RailAction.drawCard)  // seat 1 can still draw
        state.apply(RailAction.pass)
        #expect(!state.isTerminal)
    }

    @Test("the turn cap ends the game and is recorded as turn_cap", arguments: [25, 137])
    func turnCapEndsTheGame(cap: Int) throws {
        let game = try Rail.game(seats: 3, ["turnCap": "\(cap)"])
        let result = Match.play(game, seed: 11, factories: Array(repeating: Rail.heuristic, count: 3))
        #expect(result.outcome.endReason == "turn_cap")
        #expect(result.outcome.turns == cap)
    }

    @Test func rulesDefaultToTheRuleBook() {
        let rules = RailRules()
        #expect(rules.initialHand == 0)
        #expect(rules.spentCards == .recycle)
        #expect(rules.completedMissionsOccupySlots == false)
        #expect(rules.missionsToWin == 5)
        #expect(rules.deckExhaustion == .whenStuck)
        #expect(rules.turnCap == 2000)
    }

    // MARK: Ranking

    /// Ends a 3-seat match by the turn cap after one card draw, with the given standings.
    static func ranked(completed: [Int], railroads: [Int], points: [Int] = [0, 0, 0]) throws -> Outcome? {
        var state = try Rail.quietMatch(seats: 3, ["turnCap": "1"])
        let singles = state.map.railroads.indices.filter { state.map.railroads[$0].twin < 0 }
        var next = 0
        for seat in 0..<3 {
            state.setCompleted(seat, completed[seat], points: points[seat])
            for _ in 0..<railroads[seat] {
                state.give(singles[next], to: seat)
                next += 1
            }
        }
        state.apply(RailAction.drawCard)
        #expect(state.invariantViolation() == nil)
        return state.outcome
    }

    @Test func rankingPutsTheMostCompletedMissionsFirst() throws {
        let outcome = try Self.ranked(completed: [1, 3, 2], railroads: [9, 0, 1])
        #expect(outcome?.places == [3, 1, 2])
    }

    @Test func rankingBreaksATieOnMissionsByRailroadsOwned() throws {
        let outcome = try Self.ranked(completed: [2, 2, 1], railroads: [1, 3, 9])
        #expect(outcome?.places == [2, 1, 3])
    }

    @Test func rankingSharesAPlaceOnATieOfMissionsAndRailroads() throws {
        let outcome = try Self.ranked(completed: [2, 2, 1], railroads: [3, 3, 0])
        #expect(outcome?.places == [1, 1, 3])
    }

    @Test func rankingIgnoresMissionPoints() throws {
        let outcome = try Self.ranked(completed: [1, 1, 1], railroads: [2, 2, 2], points: [20, 5, 8])
        #expect(outcome?.places == [1, 1, 1])
    }
}
