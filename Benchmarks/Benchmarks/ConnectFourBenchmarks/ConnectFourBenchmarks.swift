// Connect Four: random playouts per second (the rollout MCTS plays), whole random
// matches through `Match.play`, and MCTS with OpenSpiel's `MCTSBot` settings (UCT
// c = 1.4, one uniformly random rollout to the end per simulation, 2,000 simulations
// per move) from the opening, as simulations per second.
// `openspiel/compare_mcts.sh` runs the same search against OpenSpiel's C++ MCTSBot.
//
// Run from Benchmarks/: `swift package --disable-sandbox benchmark --target ConnectFourBenchmarks`.

import Benchmark
import ConnectFour
import LabCore
import Search

/// Simulations per MCTS search (OpenSpiel's `max_simulations` in the comparison).
let simulations = 2_000
let simulationsPerSecond = BenchmarkMetric.custom("simulations/s", polarity: .prefersLarger, useScalingFactor: false)
let masterSeed: UInt64 = 20_261_125

let benchmarks: @Sendable () -> Void = {
    let game = ConnectFourGame()

    // (a) 1,000 random playouts from the opening per iteration, as MCTS rolls out:
    // legal actions into a kept buffer, a uniform pick, apply, until the end; the
    // throughput column (scaling factor kilo) reads as thousands of playouts per second.
    var rng = LabRandom(seed: masterSeed)
    var buffer = ActionBuffer()
    Benchmark("connect4 random playouts from the opening",
              configuration: .init(metrics: [.throughput, .wallClock, .mallocCountTotal], units: [.throughput: .count],
                                   warmupIterations: 5, scalingFactor: .kilo, maxDuration: .seconds(5), maxIterations: 1_000)) { benchmark in
        blackHole(playOut(game, benchmark.scaledIterations.count, &rng, &buffer))
    }

    // Whole matches of two `UniformRandomStrategy` through the play loop a tournament
    // uses: one match per iteration (matches per second, mallocs per match).
    var matchIndex: UInt64 = 0
    var matchBuffer = ActionBuffer()
    Benchmark("connect4 random self-play through Match.play",
              configuration: .init(metrics: [.throughput, .wallClock, .mallocCountTotal], units: [.throughput: .count],
                                   warmupIterations: 20, scalingFactor: .one, maxDuration: .seconds(5), maxIterations: 100_000)) { benchmark in
        for _ in benchmark.scaledIterations {
            let seed = Seeds.match(masterSeed, match: matchIndex)
            matchIndex &+= 1
            let strategies: [any Strategy<ConnectFourGame>] = [UniformRandomStrategy(seed: Seeds.strategy(seed, seat: 0)),
                                                              UniformRandomStrategy(seed: Seeds.strategy(seed, seat: 1))]
            blackHole(Match.play(game, seed: seed, strategies: strategies, buffer: &matchBuffer))
        }
    }

    // (b) One MCTS search of 2,000 simulations from the opening per iteration, a fresh
    // tree each time (no reuse), each simulation one random rollout to the end
    // (rolloutDepth 42: no match has more discs left). The metric is simulations/s.
    let opening = game.newMatch(seed: 0)
    var legal = ActionBuffer()
    opening.legalActions(into: &legal)
    let settings = MCTSSettings(iterations: simulations, exploration: 1.4, rolloutDepth: 42, reuse: false)
    let search = MCTS(StrategyContext(game: game, seat: 0, seed: masterSeed), settings: settings)
    let observation = opening.observation(for: 0)
    Benchmark("connect4 mcts 2,000 simulations from the opening, c 1.4, random rollouts to the end",
              configuration: .init(metrics: [simulationsPerSecond, .wallClock, .mallocCountTotal],
                                   warmupIterations: 3, maxDuration: .seconds(10), maxIterations: 200)) { benchmark in
        let start = ContinuousClock.now
        blackHole(search.chooseAction(observation, legal: legal))
        let elapsed = start.duration(to: .now)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        benchmark.measurement(simulationsPerSecond, Int((Double(simulations) / seconds).rounded()))
    }
}

/// Plays `count` uniformly random matches from the opening; returns seat 0's total score.
/// (The random stream and the buffer come in `inout`, so the loop works on locals: the
/// benchmark closure's captured variables live in boxes that every access would check.)
func playOut(_ game: ConnectFourGame, _ count: Int, _ rng: inout LabRandom, _ buffer: inout ActionBuffer) -> Double {
    var score = 0.0
    for _ in 0..<count {
        var state = game.newMatch(seed: 0)
        while !state.isTerminal {
            state.legalActions(into: &buffer)
            state.apply(buffer[rng.uniform(buffer.count)])
        }
        score += state.searchValue(of: 0)
    }
    return score
}
