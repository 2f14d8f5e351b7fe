import LabCatalog
import LabCore
import RailGame
import Testing

/// `epsilon=`: every strategy's difficulty knob (``EpsilonStrategy``).
@Suite("epsilon")
struct EpsilonTests {
    /// Always the last legal action; counts its calls.
    final class Last: Strategy {
        typealias G = RailGame
        var calls = 0
        func chooseAction(_ observation: RailObservation, legal: ActionBuffer) -> Int {
            calls += 1
            return legal[legal.count - 1]
        }
    }

    static func positions() throws -> [(RailObservation, ActionBuffer)] {
        let game = try RailGame(map: RailMapFile.load(path: RailMapFile.defaultPath), rules: RailRules(), seatCount: 2)
        var state = game.newMatch(seed: 3)
        var rng = LabRandom(seed: 4)
        var out: [(RailObservation, ActionBuffer)] = []
        while !state.isTerminal && out.count < 400 {
            var buffer = ActionBuffer()
            state.legalActions(into: &buffer)
            if buffer.count > 1 { out.append((state.observation(for: state.currentSeat), buffer)) }
            state.apply(buffer[rng.uniform(buffer.count)])
        }
        return out
    }

    @Test("epsilon 0 always asks the strategy; 1 never does; 0.3 plays its own move about 70 % of the time")
    func shares() throws {
        let positions = try Self.positions()
        for (epsilon, low, high) in [(0.0, 1.0, 1.0), (1.0, 0.0, 0.0), (0.3, 0.6, 0.8)] {
            let inner = Last()
            let noisy = EpsilonStrategy<RailGame>(inner: inner, epsilon: epsilon, seed: 9)
            var ownMoves = 0
            for (view, legal) in positions {
                let before = inner.calls
                let action = noisy.chooseAction(view, legal: legal)
                #expect(legal.contains(action))
                if inner.calls > before {
                    ownMoves += 1
                    #expect(action == legal[legal.count - 1], "an asked move is the strategy's own")
                }
            }
            #expect(ownMoves == inner.calls)
            let share = Double(inner.calls) / Double(positions.count)
            #expect(share >= low && share <= high, "epsilon \(epsilon): asked the strategy \(inner.calls) of \(positions.count)")
        }
    }

    @Test("The catalog wraps any strategy with epsilon > 0 and keeps it plain at 0; a value outside 0...1 is refused")
    func catalog() throws {
        let rail = try Catalog.game(named: "rail")
        _ = try Catalog.validate("blas-greedy(epsilon=0.5)", for: rail)
        _ = try Catalog.validate("mcts(iterations=10, epsilon=0.25)", for: rail)
        #expect(throws: InputError("strategy heuristic: epsilon=-0.1 is not accepted; epsilon takes a number in 0...1")) {
            try Catalog.validate("heuristic(epsilon=-0.1)", for: rail)
        }
        // A whole match with epsilon 1 plays (random moves only).
        let table = try rail.makeTable(TableSetup(players: [StrategySpec(name: "heuristic", parameters: [("epsilon", "1")]), StrategySpec(name: "heuristic")]))
        var buffer = ActionBuffer()
        #expect(table.play(seed: 5, buffer: &buffer, trace: nil).outcome.places.count == 2)
    }
}
