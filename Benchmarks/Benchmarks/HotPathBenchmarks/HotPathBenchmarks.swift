// The hot paths with committed thresholds: `make bench` ends with
// `swift package benchmark thresholds check --target HotPathBenchmarks`, which fails when
// one of these allocates more than its threshold in `Benchmarks/Thresholds/` (2 %).
//
// The metric is allocations (`mallocCountTotal`): instruction counters are not readable
// in this container and wall-clock time varies on a shared machine, while every
// iteration here does the same work from the same seeds, so its allocation count is the
// same on every run and machine with this toolchain. A play loop or search that starts
// allocating per turn or per iteration shows at once. Instructions a match are guarded
// by `scripts/speed-check.sh` (callgrind) in CI.
//
// Names carry no spaces or slashes: package-benchmark 1.38.1 writes a threshold file
// with them replaced by underscores and then looks for it under the name as it is.
//
// Run from Benchmarks/: `swift package --disable-sandbox benchmark --target HotPathBenchmarks`;
// after a change that moves a figure on purpose, update the files in the same commit:
// `swift package --disable-sandbox --allow-writing-to-package-directory benchmark thresholds update --target HotPathBenchmarks`.

import Benchmark
import BenchmarkPositions
import ConnectFour
import LabCore
import Quortex
import RailGame
import Search

let masterSeed: UInt64 = 20_261_127

let benchmarks: @Sendable () -> Void = {
    let configuration = Benchmark.Configuration(
        metrics: [.mallocCountTotal],
        warmupIterations: 1,
        maxDuration: .seconds(5),
        maxIterations: 10,
        thresholds: [.mallocCountTotal: .init(relative: [.p90: 2.0])]
    )
    let rail = try! RailGame(map: try! RailMapFile.load(path: shippedMapPath()), rules: RailRules(), seatCount: 2)
    let quortex = try! QuortexGame(seatCount: 2)
    let connectFour = ConnectFourGame()

    registerSelfPlay("rail-heuristic-self-play-20-matches", rail, matches: 20, configuration) { RailHeuristicCPU(seed: $0) }
    registerSelfPlay("quortex-random-self-play-200-matches", quortex, matches: 200, configuration) { UniformRandomStrategy(seed: $0) }
    registerSelfPlay("quortex-reference-self-play-50-matches", quortex, matches: 50, configuration) { _ in QuortexReferenceAI() }
    registerSelfPlay("connect4-random-self-play-200-matches", connectFour, matches: 200, configuration) { UniformRandomStrategy(seed: $0) }
    registerSearch("rail-mcts-1000-iterations-mid-game", rail, midGame(rail, moves: 40), configuration)
    registerSearch("quortex-mcts-1000-iterations-mid-game", quortex, midGame(quortex, moves: 10), configuration)
    registerSearch("connect4-mcts-1000-iterations-mid-game", connectFour, midGame(connectFour, moves: 8), configuration)
}

/// `matches` whole matches of self-play through `Match.play` per iteration, the same
/// seeds every iteration.
func registerSelfPlay<G: Game>(_ name: String, _ game: G, matches: Int, _ configuration: Benchmark.Configuration,
                               _ make: @escaping @Sendable (UInt64) -> any Strategy<G>) {
    var buffer = ActionBuffer()
    Benchmark(name, configuration: configuration) { _ in
        for m in 0..<UInt64(matches) {
            let seed = Seeds.match(masterSeed, match: m)
            let strategies = (0..<game.seatCount).map { make(Seeds.strategy(seed, seat: $0)) }
            blackHole(Match.play(game, seed: seed, strategies: strategies, buffer: &buffer))
        }
    }
}

/// One MCTS decision of 1,000 iterations (random rollouts of at most 60 actions) per
/// iteration, a fresh search from the same seed each time.
func registerSearch<G: Game>(_ name: String, _ game: G, _ state: G.State, _ configuration: Benchmark.Configuration) {
    let seat = state.currentSeat
    let observation = state.observation(for: seat)
    var legal = ActionBuffer()
    state.legalActions(into: &legal)
    precondition(legal.count > 1, "\(name): the mid-game position has one legal action (no search)")
    Benchmark(name, configuration: configuration) { _ in
        let search = MCTS(StrategyContext(game: game, seat: seat, seed: masterSeed), settings: MCTSSettings(iterations: 1_000, rolloutDepth: 60))
        blackHole(search.chooseAction(observation, legal: legal))
    }
}
