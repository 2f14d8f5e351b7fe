import ConnectFour
import LabCore
import Pictures
@testable import Search
import Testing

/// The lab's generic search on the template game, unchanged: it finds a win in one and
/// a forced block within OpenSpiel's MCTSBot budget (2,000 simulations, UCT c = 1.4,
/// random rollouts to the end).
@Suite("MCTS on Connect Four")
struct SearchTests {
    static let settings = MCTSSettings(iterations: 2000, exploration: 1.4, rolloutDepth: 60)

    /// The column `seat`'s MCTS picks in `state`, its search seeded from `seed`.
    static func choice(_ state: ConnectFourState, seed: UInt64) -> Int {
        let seat = state.currentSeat
        let search = MCTS(StrategyContext(game: C4.game, seat: seat, seed: seed), settings: settings)
        var legal = ActionBuffer()
        state.legalActions(into: &legal)
        return search.chooseAction(state.observation(for: seat), legal: legal)
    }

    @Test("a win in one: X holds columns 0-2 of the bottom row and takes column 3", arguments: [1, 2, 3, 4, 5] as [UInt64])
    func winInOne(seed: UInt64) throws {
        // X c0, O c0, X c1, O c1, X c2, O c6: X to move.
        let state = C4.play([0, 0, 1, 1, 2, 6])
        try #require(state.currentSeat == 0 && !state.isTerminal)
        var after = state
        after.apply(3)
        try #require(after.winningSeat == 0, "column 3 wins")
        #expect(Self.choice(state, seed: seed) == 3)
    }

    @Test("a forced block: X threatens column 3 on the bottom row and O blocks it", arguments: [1, 2, 3, 4, 5] as [UInt64])
    func forcedBlock(seed: UInt64) throws {
        // X c0, O c6, X c1, O c6, X c2: O to move; anything but column 3 loses at once.
        let state = C4.play([0, 6, 1, 6, 2])
        try #require(state.currentSeat == 1 && !state.isTerminal)
        for column in C4.legal(state) where column != 3 {
            var after = state
            after.apply(column)
            after.apply(3)
            try #require(after.winningSeat == 0, "X wins after O plays \(column)")
        }
        #expect(Self.choice(state, seed: seed) == 3)
    }

    @Test("a search of 2,000 simulations from the opening visits the root's children 2,000 times and grows one node per simulation")
    func everySimulationCounts() {
        let state = C4.game.newMatch(seed: 0)
        let search = MCTS(StrategyContext(game: C4.game, seat: 0, seed: 7), settings: Self.settings)
        var legal = ActionBuffer()
        state.legalActions(into: &legal)
        _ = search.chooseAction(state.observation(for: 0), legal: legal)
        #expect(search.rootVisits.values.reduce(0, +) == 2000)
        #expect(search.rootVisits.count == 7)
        #expect(search.treeSize == 2001, "the root and one expanded node per simulation (none reaches a terminal leaf this early)")
    }

    @Test("the replay picture draws one disc per action and rings the winning four")
    func replayPicture() throws {
        let moves = [0, 0, 1, 1, 2, 6, 3]
        var events: [MatchReplay<ConnectFourGame>.Event] = []
        var state = C4.game.newMatch(seed: 0)
        for column in moves {
            let before = state
            state.apply(column)
            events.append(.init(before: before, action: column, after: state))
        }
        let outcome = try #require(state.outcome)
        let seats = (0..<2).map { ReplaySeat(player: "p\($0)", place: outcome.places[$0], result: outcome.result(of: $0).rawValue, figures: []) }
        let scene = ConnectFourGame.scene(of: MatchReplay(game: C4.game, events: events, initial: C4.game.newMatch(seed: 0),
                                                          final: state, outcome: outcome, seats: seats, seed: 9))
        let picture = try #require(scene.picture)
        #expect(picture.components(separatedBy: "class=\"disc\"").count - 1 == moves.count)
        #expect(picture.contains("<g class=\"win\" data-step=\"6\""))
        #expect(scene.steps.count == moves.count && scene.steps[6].action == "drop c3")
        #expect(scene.notes[0].first?.outcome == "four in a row" && scene.notes[1].first?.outcome == nil)
    }
}
