import ConnectFour
import LabCore
import Testing

/// The game's face: its name, seats and (absent) knobs, a deal, and how states
/// describe themselves in traces.
@Suite("Game and descriptions")
struct GameTests {
    @Test func theGameIsTwoSeatsWithoutKnobsOrChance() throws {
        #expect(ConnectFourGame.name == "connect4")
        #expect(ConnectFourGame.knobs.isEmpty)
        let game = try ConnectFourGame(rules: [], seatCount: 2)
        #expect(game.seatCount == 2 && game.teams == [0, 1])
        #expect(game.newMatch(seed: 1) == game.newMatch(seed: 2), "every seed deals the empty board")
        let state = game.newMatch(seed: 7)
        #expect(state.seatCount == 2 && state.actionSpaceSize == 7 && state.turn == 0 && !state.isTerminal)
        #expect(ConnectFourState.seatStatNames == ["discs"])
    }

    @Test func aRuleSettingOrAnotherSeatCountIsRefused() {
        #expect(throws: InputError("rule rows=7: connect4 has no rule knobs (it is the standard 7 x 6 game)")) {
            try ConnectFourGame(rules: [(key: "rows", value: "7")], seatCount: 2)
        }
        #expect(throws: InputError("connect4 takes 2 seats; got 3")) { try ConnectFourGame(rules: [], seatCount: 3) }
    }

    @Test func actionsAreDescribedAsDropsIntoNumberedColumns() {
        let state = C4.play([3])
        #expect((0..<7).map(state.describe) == ["drop c0", "drop c1", "drop c2", "drop c3", "drop c4", "drop c5", "drop c6"])
    }

    @Test func theBoardIsDrawnTopRowFirst() {
        let state = C4.play([3, 3, 2, 6])
        #expect(state.renderBoard() == """
            . . . . . . .
            . . . . . . .
            . . . . . . .
            . . . . . . .
            . . . O . . .
            . . X X . . O
            0 1 2 3 4 5 6
            """)
        #expect(ConnectFourState(picture: (state.renderBoard() ?? "").split(separator: "\n").dropLast().map(String.init)) == state,
                "a drawing reads back as the same position")
    }

    @Test func traceDetailGivesTheMarkAndTheDiscs() {
        let state = C4.play([3, 3, 2])
        #expect(state.traceDetail(seat: 0) == "X | discs 2")
        #expect(state.traceDetail(seat: 1) == "O | discs 1")
        #expect(state.seatStats(0) == [2] && state.seatStats(1) == [1])
    }

    @Test func anObservationIsTheWholePositionAndSamplesAsIt() {
        let state = C4.play([3, 3, 2, 6, 0])
        var rng = LabRandom(seed: 1)
        for seat in 0..<2 {
            let view = state.observation(for: seat)
            #expect(view.seat == seat && view.position == state && view.turn == 5)
            #expect(view.sampleState(using: &rng) == state)
        }
        #expect(state.observation(for: 0) != C4.play([3, 3, 2, 6, 1]).observation(for: 0))
    }
}
