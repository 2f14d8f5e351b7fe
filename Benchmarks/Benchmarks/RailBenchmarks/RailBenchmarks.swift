// Rail match benchmarks: whole matches through `Match.play`, as a tournament plays them.
//
// Run from Benchmarks/: `swift package --disable-sandbox benchmark` (README.md).

import Benchmark
import LabCore
import RailGame

/// The master seed every benchmark derives its match seeds from (`Seeds.match`).
let masterSeed: UInt64 = 20_240_601

let benchmarks: @Sendable () -> Void = {
    let map = loadShippedMap()

    // Throughput: one whole match per iteration (`scaledIterations` is 0..<1), so the
    // throughput column is matches per second and the wall clock and malloc columns are
    // per match. The framework derives throughput as Int(1e9 / ns) of one iteration, and
    // its only larger scaling factor, `.kilo`, would print whole thousands of matches per
    // second. A fixed iteration count (reached well before `maxDuration`) makes every run
    // play the same deals: match i is dealt from `Seeds.match(masterSeed, match: i)`.
    let throughput = Benchmark.Configuration(
        metrics: [.throughput, .wallClock, .mallocCountTotal],
        units: [.throughput: .count],
        warmupIterations: 20,
        scalingFactor: .one,
        maxDuration: .seconds(10),
        maxIterations: 10_000
    )
    registerSelfPlay("rail heuristic self-play 2 seats", map: map, seats: 2, rules: RailRules(),
                     configuration: throughput, strategy: { RailHeuristicCPU(seed: $0) })
    registerSelfPlay("rail heuristic self-play 4 seats", map: map, seats: 4, rules: RailRules(),
                     configuration: throughput, strategy: { RailHeuristicCPU(seed: $0) })
    registerSelfPlay("rail random self-play 2 seats", map: map, seats: 2, rules: RailRules(),
                     configuration: throughput, strategy: { UniformRandomStrategy<RailGame>(seed: $0) })

    // Allocations: one match per iteration, so every percentile of the malloc count is one
    // match's count and p0 == p100 shows it is the same for every deal. `turns` is the
    // match length: the same count at 50 turns (turnCap 50) and at the natural end under
    // the default turnCap 2000 (about 80-250 turns) means the per-turn loop allocates
    // nothing; what remains is per match (strategies, their array, the outcome).
    let allocations = Benchmark.Configuration(
        metrics: [.mallocCountTotal, .freeCountTotal, .mallocBytesCount, turnsMetric],
        warmupIterations: 20,
        scalingFactor: .one,
        maxDuration: .seconds(10),
        maxIterations: 2_000
    )
    registerSelfPlay("rail allocations per match", map: map, seats: 2, rules: RailRules(),
                     configuration: allocations, strategy: { RailHeuristicCPU(seed: $0) })
    registerSelfPlay("rail allocations per match turnCap 50", map: map, seats: 2, rules: rules(turnCap: 50),
                     configuration: allocations, strategy: { RailHeuristicCPU(seed: $0) })

    // The planner with every knob acting (route search, hoarding, kept rainbows, pace):
    // its route buffers are sized on its first turn, so the same count at 50 turns and at
    // the natural end means its turns allocate nothing.
    let planner = { (seed: UInt64) -> any Strategy<RailGame> in RailPlanner(seed: seed, rainbows: 0.5, pace: 0.8) }
    registerSelfPlay("rail planner self-play 2 seats", map: map, seats: 2, rules: RailRules(),
                     configuration: throughput, strategy: planner)
    registerSelfPlay("rail planner allocations per match", map: map, seats: 2, rules: RailRules(),
                     configuration: allocations, strategy: planner)
    registerSelfPlay("rail planner allocations per match turnCap 50", map: map, seats: 2, rules: rules(turnCap: 50),
                     configuration: allocations, strategy: planner)
}

/// Actions applied in a match, recorded once per match next to the malloc counts
/// (smaller-is-better only so that p0 prints the shortest match).
let turnsMetric = BenchmarkMetric.custom("turns", polarity: .prefersSmaller, useScalingFactor: true)

/// Default rules with the turn cap set.
func rules(turnCap: Int) -> RailRules {
    var rules = RailRules()
    rules.turnCap = turnCap
    return rules
}

/// Registers a benchmark that plays self-play matches of `seats` copies of one strategy.
///
/// Match `i` of the benchmark (warm-up included) is dealt from
/// `Seeds.match(masterSeed, match: i)`, so each iteration plays a new deal and a rerun
/// plays the same ones. Strategies are made per match, as a tournament makes them; the
/// action buffer is made once, outside the measured loop, and reused by every match.
func registerSelfPlay(
    _ name: String,
    map: RailMap,
    seats: Int,
    rules: RailRules,
    configuration: Benchmark.Configuration,
    strategy make: @escaping (UInt64) -> any Strategy<RailGame>
) {
    let game: RailGame
    do {
        game = try RailGame(map: map, rules: rules, seatCount: seats)
    } catch {
        fatalError("\(name): \(error)")
    }
    let recordsTurns = configuration.metrics.contains(turnsMetric)
    var buffer = ActionBuffer()
    var matchIndex: UInt64 = 0

    Benchmark(name, configuration: configuration) { benchmark in
        var turns = 0
        for _ in benchmark.scaledIterations {
            let seed = Seeds.match(masterSeed, match: matchIndex)
            matchIndex &+= 1
            var strategies: [any Strategy<RailGame>] = []
            strategies.reserveCapacity(seats)
            for seat in 0..<seats { strategies.append(make(Seeds.strategy(seed, seat: seat))) }
            let result = Match.play(game, seed: seed, strategies: strategies, buffer: &buffer)
            turns &+= result.outcome.turns
            blackHole(result)
        }
        // Stop first, so recording the custom metric is outside the measured region.
        benchmark.stopMeasurement()
        if recordsTurns {
            benchmark.measurement(turnsMetric, turns)
        }
    }
}
