// MCTS iterations per second from mid-game positions of both games, with the raw
// rollout rate of the same policy beside it: the gap is what the tree costs; and
// `alphazero`'s time a simulation outside the network (AlphaZeroSearch.swift). One
// benchmark iteration is one search of 1,000 iterations (or 1,000 rollouts), so the
// throughput column (scaling factor kilo) reads as thousands of iterations per second
// and the malloc column is per search: a warm search allocates nothing per iteration
// when it stays flat.
//
// Run from Benchmarks/: `swift package --disable-sandbox benchmark --target SearchBenchmarks`.

import Benchmark
import BenchmarkPositions
import ConnectFour
import Foundation
import LabCore
import Quortex
import RailGame
import Search

let budget = 1_000

let benchmarks: @Sendable () -> Void = {
    let configuration = Benchmark.Configuration(
        metrics: [.throughput, .wallClock, .mallocCountTotal],
        units: [.throughput: .count],
        warmupIterations: 2,
        scalingFactor: .kilo,
        maxDuration: .seconds(10),
        maxIterations: 40
    )
    let map = try! RailMapFile.load(path: shippedMapPath())
    let rail = try! RailGame(map: map, rules: RailRules(), seatCount: 2)
    let quortex = try! QuortexGame(seatCount: 2)
    let railHeuristic: StrategyFactory<RailGame> = { RailHeuristicCPU(seed: $0.seed) }
    let reference: StrategyFactory<QuortexGame> = { _ in QuortexReferenceAI() }
    register("rail", rail, midGame(rail, moves: 40), rollout: nil, "random", configuration)
    register("rail", rail, midGame(rail, moves: 40), rollout: railHeuristic, "heuristic", configuration)
    register("quortex", quortex, midGame(quortex, moves: 10), rollout: nil, "random", configuration)
    register("quortex", quortex, midGame(quortex, moves: 10), rollout: reference, "reference", configuration)
    registerAlphaZero("rail", midGame(rail, moves: 40), encoder: RailFeatures(map: map), decisive: false)
    registerAlphaZero("quortex", midGame(quortex, moves: 10), encoder: QuortexPolicyFeatures(board: quortex.setup.board), decisive: true)
    let connectFour = ConnectFourGame()
    registerAlphaZero("connect4", midGame(connectFour, moves: 8), encoder: ConnectFourFeatures(), decisive: true)
}

/// A search benchmark and a raw-rollout benchmark for one game and rollout policy.
func register<G: Game>(_ name: String, _ game: G, _ state: G.State, rollout: StrategyFactory<G>?, _ policy: String,
                       _ configuration: Benchmark.Configuration) {
    let seat = state.currentSeat
    let observation = state.observation(for: seat)
    var legal = ActionBuffer()
    state.legalActions(into: &legal)
    let context = StrategyContext(game: game, seat: seat, seed: 1)
    let search = MCTS(context, settings: MCTSSettings(iterations: budget, rolloutDepth: 60), rollout: rollout)
    Benchmark("\(name) mcts iterations, mid-game, rollout \(policy)", configuration: configuration) { _ in
        blackHole(search.chooseAction(observation, legal: legal))
    }
    // The same rollouts without a tree: sample, play the policy up to 60 actions, score.
    let policies = rollout.map { make in (0..<game.seatCount).map { make(StrategyContext(game: game, seat: $0, seed: 2)) } }
    var rng = LabRandom(seed: 3)
    var buffer = ActionBuffer()
    Benchmark("\(name) raw rollouts, mid-game, rollout \(policy)", configuration: configuration) { _ in
        var total = 0.0
        for _ in 0..<budget {
            var sample = observation.sampleState(using: &rng)
            var depth = 0
            while !sample.isTerminal && depth < 60 {
                sample.legalActions(into: &buffer)
                let mover = sample.currentSeat
                let action = policies.map { $0[mover].chooseAction(sample.observation(for: mover), legal: buffer) }
                    ?? buffer[rng.uniform(buffer.count)]
                sample.apply(action)
                depth += 1
            }
            total += sample.searchValue(of: seat)
        }
        blackHole(total)
    }
}
