import Evaluators
import Foundation
import LabCore
import Quortex
import RailGame
import Testing
@testable import Search

// MARK: - Fixtures

/// A model with no hidden layer: the logistic of `bias` plus the named features times
/// their weights, so what it prefers is known.
private func linearModel<E: FeatureEncoder>(_ encoder: E, _ weights: [String: Float], bias: Float = 0) throws -> MLP {
    let names = encoder.featureNames
    var parameters = [Float](repeating: 0, count: encoder.featureCount + 1)
    for (name, w) in weights {
        parameters[try #require(names.firstIndex(of: name), "no feature \(name)")] = w
    }
    parameters[encoder.featureCount] = bias
    return MLP(shape: MLPShape(inputs: encoder.featureCount, hidden: []), parameters: parameters)
}

/// The features of `view`.
private func encode<E: FeatureEncoder>(_ encoder: E, _ view: E.Observation) -> [Float] {
    var out = [Float](repeating: 0, count: encoder.featureCount)
    out.withUnsafeMutableBufferPointer { encoder.encode(view, into: $0) }
    return out
}

/// What a no-hidden-layer model says of `features`, computed plainly in doubles.
private func linearValue(_ model: MLP, _ features: [Float]) -> Double {
    var z = Double(model.parameters[features.count])
    for (i, x) in features.enumerated() { z += Double(model.parameters[i]) * Double(x) }
    return 1 / (1 + Foundation.exp(-z))
}

private func railMap() throws -> RailMap { try RailMapFile.load(path: packageRoot + "/" + RailMapFile.defaultPath) }

private func railroad(_ map: RailMap, _ a: String, _ b: String, _ colour: RailColour) throws -> Int {
    let (x, y) = (try #require(map.cityIndex(a)), try #require(map.cityIndex(b)))
    return try #require(map.railroads.firstIndex { Set([$0.from, $0.to]) == Set([x, y]) && $0.colour == colour })
}

/// A two-seat rail match with no missions held and seat 0 to move with `hand`.
private func quietRail(hand: [Int], seats: Int = 2) throws -> (RailGame, RailState) {
    let game = try RailGame(map: try railMap(), rules: RailRules(), seatCount: seats)
    var state = game.newMatch(seed: 3)
    for seat in 0..<seats { state.clearMissions(seat) }
    state.setHand(0, hand)
    return (game, state)
}

private func legalActions<S: GameState>(_ state: S) -> ActionBuffer {
    var buffer = ActionBuffer()
    state.legalActions(into: &buffer)
    return buffer
}

/// Counts its calls; seat 0's value is 1 when `cell` holds a tile, seat 1's the rest.
private final class CountingEvaluator: LeafEvaluator {
    typealias State = QuortexState
    let cell: Int
    var calls = 0

    init(cell: Int) { self.cell = cell }

    func evaluate(_ state: QuortexState, into values: UnsafeMutableBufferPointer<Double>) {
        calls += 1
        let v: Double = state.tileCode(at: cell) != nil ? 1 : 0
        values[0] = v
        values[1] = 1 - v
    }
}

// MARK: - blas-greedy

@Suite("blas-greedy (ValueGreedy)")
struct ValueGreedyTests {
    @Test("It builds the railroad whose ownership the model rewards most")
    func followsTheModel() throws {
        let (game, state) = try quietRail(hand: [2, 2, 0, 0, 0, 0])
        let map = state.map
        let encoder = RailFeatures(map: map)
        let brussels = try railroad(map, "London", "Brussels", .red)
        let paris = try railroad(map, "London", "Paris", .blue)
        let legal = legalActions(state)
        #expect(legal.contains(RailAction.build(brussels, pay: RailColour.red.rawValue)))
        #expect(legal.contains(RailAction.build(paris, pay: RailColour.blue.rawValue)))
        #expect(legal.count > 5)
        for (favoured, weights) in [(paris, (3, 5)), (brussels, (5, 3))] {
            let model = try linearModel(encoder, ["rail.\(brussels).\(map.railroadName(brussels)).mine": Float(weights.0),
                                                  "rail.\(paris).\(map.railroadName(paris)).mine": Float(weights.1)])
            let greedy = ValueGreedy<RailGame, RailFeatures>(StrategyContext(game: game, seat: 0, seed: 1), network: model,
                                                              encoder: encoder, samples: 4)
            let action = greedy.chooseAction(state.observation(for: 0), legal: legal)
            #expect(RailAction.isBuild(action) && RailAction.railroad(of: action) == favoured, "\(state.describe(action))")
        }
    }

    @Test("A winning action counts its real score (1), above any model value")
    func takesTheWin() throws {
        let (game, setUp) = try quietRail(hand: [1, 2, 0, 0, 0, 0])
        let map = setUp.map
        let encoder = RailFeatures(map: map)
        let brussels = try railroad(map, "London", "Brussels", .red)
        let paris = try railroad(map, "London", "Paris", .blue)
        // The model likes London-Paris (0.95) and is indifferent to London-Brussels (0.5).
        let model = try linearModel(encoder, ["rail.\(paris).\(map.railroadName(paris)).mine": 3])
        var state = setUp
        state.setCompleted(0, 4)
        let withoutMission = state
        state.setMission(0, slot: 0, from: try #require(map.cityIndex("London")), to: try #require(map.cityIndex("Brussels")))
        var won = state
        won.apply(RailAction.build(brussels, pay: RailColour.red.rawValue))
        #expect(won.isTerminal && won.searchValue(of: 0) == 1, "building London-Brussels completes the fifth mission")

        for (position, expected) in [(withoutMission, paris), (state, brussels)] {
            let greedy = ValueGreedy<RailGame, RailFeatures>(StrategyContext(game: game, seat: 0, seed: 2), network: model,
                                                              encoder: encoder, samples: 3)
            let action = greedy.chooseAction(position.observation(for: 0), legal: legalActions(position))
            #expect(RailAction.isBuild(action) && RailAction.railroad(of: action) == expected, "\(position.describe(action))")
        }
    }

    /// Plays `turns` turns of a 2-seat rail match with `greedy` in seat 0 and random
    /// moves in seat 1; returns seat 0's choices with the position and legal actions.
    private static func decisions(_ greedy: ValueGreedy<RailGame, RailFeatures>, game: RailGame, turns: Int)
        -> [(state: RailState, legal: ActionBuffer, action: Int)] {
        var state = game.newMatch(seed: 12)
        var rng = LabRandom(seed: 13)
        var out: [(state: RailState, legal: ActionBuffer, action: Int)] = []
        while !state.isTerminal && state.turn < turns {
            let legal = legalActions(state)
            let action: Int
            if state.currentSeat == 0 {
                action = greedy.chooseAction(state.observation(for: 0), legal: legal)
                out.append((state, legal, action))
            } else {
                action = legal[rng.uniform(legal.count)]
            }
            state.apply(action)
        }
        return out
    }

    @Test("The choice is the action with the highest mean over `samples` draws of the hidden parts (a plain reference), and the same for a seed")
    func averagesOverSamples() throws {
        let game = try RailGame(map: try railMap(), rules: RailRules(), seatCount: 2)
        let encoder = RailFeatures(map: game.map)
        // Values that depend on the cards drawn (hidden until drawn) and on the missions.
        let model = try linearModel(encoder, ["hand.rainbow": 4, "hand.red": 1.5, "hand.black": -1, "missions.slotsToWin": -3,
                                              "seat+0.railroads": 6, "mission0.distance": -2], bias: 0.2)
        let samples = 3, seed: UInt64 = 21
        let make = {
            ValueGreedy<RailGame, RailFeatures>(StrategyContext(game: game, seat: 0, seed: seed), network: model, encoder: encoder, samples: samples)
        }
        let played = Self.decisions(make(), game: game, turns: 80)
        #expect(played.count > 20)
        // The same draws as the strategy's: its sampling stream, derived from its seed.
        var rng = LabRandom(seed: Seeds.derive(seed, 0, 0, SeedPurpose.sampling.rawValue))
        var decided = 0
        for (state, legal, action) in played where legal.count > 1 {
            var totals = [Double](repeating: 0, count: legal.count)
            for _ in 0..<samples {
                let sample = state.observation(for: 0).sampleState(using: &rng)
                for i in 0..<legal.count {
                    var next = sample
                    next.apply(legal[i])
                    totals[i] += next.isTerminal ? next.searchValue(of: 0) : linearValue(model, encode(encoder, next.observation(for: 0)))
                }
            }
            let chosen = try #require(legal.actions.firstIndex(of: action))
            let best = totals.max()!
            #expect(totals[chosen] >= best - 1e-5, "turn \(state.turn): chose \(state.describe(action)) (\(totals[chosen])), best \(best)")
            decided += 1
        }
        #expect(decided > 20)
        // The same seed gives the same choices.
        #expect(Self.decisions(make(), game: game, turns: 80).map(\.action) == played.map(\.action))
    }
}

// MARK: - Leaf evaluator and MCTS

@Suite("Model leaf values and MCTS with an evaluator")
struct ModelLeafTests {
    @Test("ModelLeafEvaluator writes each seat's value: the model on that seat's own view")
    func everySeatsValue() throws {
        let (_, setUp) = try quietRail(hand: [1, 0, 0, 0, 0, 0], seats: 3)
        var state = setUp
        state.setHand(1, [0, 3, 0, 0, 0, 0])
        state.setHand(2, [0, 0, 2, 2, 1, 0])
        let encoder = RailFeatures(map: state.map)
        // Own hand size and being the mover: different for each seat.
        let model = try linearModel(encoder, ["seat+0.hand": 2, "toMove.seat+0": 1], bias: -1)
        let leaf = ModelLeafEvaluator<RailState, RailFeatures>(network: model, encoder: encoder)
        var values = [Double](repeating: -1, count: 3)
        values.withUnsafeMutableBufferPointer { leaf.evaluate(state, into: $0) }
        for (seat, cards) in [1, 3, 5].enumerated() {
            let z = 2 * Double(cards) / 6 + (seat == 0 ? 1 : 0) - 1
            #expect(abs(values[seat] - 1 / (1 + exp(-z))) < 1e-6, "seat \(seat): \(values[seat])")
            #expect(abs(values[seat] - linearValue(model, encode(encoder, state.observation(for: seat)))) < 1e-6)
        }
        #expect(Set(values).count == 3)
    }

    @Test("MCTS with rolloutDepth 0 asks the evaluator once per iteration, follows its values, and is the same for a seed")
    func mctsCallsTheEvaluator() throws {
        let game = try QuortexGame(seatCount: 2)
        var state = game.newMatch(seed: 6)
        state.setDrawnTile(3)
        let legal = legalActions(state)
        #expect(legal.count == 37 * 2)
        let favoured = try #require(game.setup.board.index(row: 1, col: 1))
        let iterations = 300
        func search(seed: UInt64) -> (action: Int, calls: Int, visits: [Int: Int]) {
            let evaluator = CountingEvaluator(cell: favoured)
            let mcts = MCTS(StrategyContext(game: game, seat: 0, seed: seed),
                            settings: MCTSSettings(iterations: iterations, rolloutDepth: 0), evaluator: evaluator)
            let action = mcts.chooseAction(state.observation(for: 0), legal: legal)
            return (action, evaluator.calls, mcts.rootVisits)
        }
        let a = search(seed: 4), b = search(seed: 4)
        #expect(a.calls == iterations, "no rollout and no terminal leaf: one evaluation per iteration")
        #expect(a.action / 6 == favoured, "the evaluator gives seat 0 a win for a tile on (1,1)")
        #expect(a.action == b.action)
        #expect(a.visits == b.visits)
    }
}

// MARK: - Self-play data

@Suite("Self-play training data")
struct SelfPlayTests {
    static let randomTeacher: StrategyFactory<RailGame> = { context in UniformRandomStrategy<RailGame>(seed: context.seed) }

    @Test("Rows: min(positions, turns) positions per match, each seat's view, labelled with that seat's final score")
    func rowsAndTargets() throws {
        let game = try RailGame(map: try railMap(), rules: RailRules(), seatCount: 2)
        let encoder = RailFeatures(map: game.map)
        let settings = SelfPlaySettings(matches: 5, positionsPerMatch: 6, randomMoveRate: 0, seed: 99, threads: 1)
        let data = SelfPlay.positions(game: game, teachers: [Self.randomTeacher], encoder: encoder, settings: settings)
        let width = encoder.featureCount
        #expect(data.inputs == width)
        func row(_ i: Int) -> [Float] { Array(data.features[(i * width)..<((i + 1) * width)]) }

        // Replay the matches: with no random moves, match m is `Match.play` of the teacher
        // dealt from Seeds.match(seed, m).
        var at = 0
        for m in 0..<settings.matches {
            var states: [RailState] = []
            let (outcome, _) = Match.play(game, seed: Seeds.match(settings.seed, match: UInt64(m)),
                                          factories: [Self.randomTeacher, Self.randomTeacher]) { before, _, _ in states.append(before) }
            let views = (0..<2).map { seat in states.map { encode(encoder, $0.observation(for: seat)) } }
            let keep = min(settings.positionsPerMatch, states.count)
            var last = -1
            for _ in 0..<keep {
                try #require(at + 1 < data.count, "too few rows")
                // Seat 0's row then seat 1's, of one position later than the last kept.
                let turn = try #require(((last + 1)..<states.count).first { views[0][$0] == row(at) && views[1][$0] == row(at + 1) },
                                        "match \(m): rows \(at), \(at + 1) are no later position's views")
                for seat in 0..<2 {
                    #expect(Double(data.targets[at + seat]) == outcome.score(of: seat), "match \(m) seat \(seat)")
                }
                #expect(data.targets[at] + data.targets[at + 1] == 1)
                last = turn
                at += 2
            }
        }
        #expect(at == data.count, "row count: \(data.count), expected \(at)")
    }

    @Test("The rows are the same for 1 and 2 threads", arguments: [0.0, 0.2])
    func sameForAnyThreadCount(randomMoves: Double) throws {
        let game = try QuortexGame(seatCount: 3)
        let encoder = QuortexFeatures(board: game.setup.board)
        let teacher: StrategyFactory<QuortexGame> = { context in UniformRandomStrategy<QuortexGame>(seed: context.seed) }
        // More than one chunk of 32 matches, so two threads share the work.
        func data(_ threads: Int) -> Dataset {
            SelfPlay.positions(game: game, teachers: [teacher], encoder: encoder,
                               settings: SelfPlaySettings(matches: 40, positionsPerMatch: 3, randomMoveRate: randomMoves, seed: 5, threads: threads))
        }
        let one = data(1), two = data(2)
        #expect(one.count == 40 * 3 * 3, "Quortex matches outlast 3 turns")
        #expect(one.features == two.features)
        #expect(one.targets == two.targets)
        for i in stride(from: 0, to: one.count, by: 3) {
            // Three solo seats: one sole winner or a tie; the scores of a position sum to 1.
            #expect(abs(one.targets[i] + one.targets[i + 1] + one.targets[i + 2] - 1) < 1e-6)
        }
    }
}
