// Quortex benchmarks: whole matches through `Match.play`, and the legal-placement
// search on mid-game positions.
//
// Run from Benchmarks/: `swift package --disable-sandbox benchmark --target QuortexBenchmarks`.

import Benchmark
import LabCore
import Quortex

let masterSeed: UInt64 = 20_261_121

let benchmarks: @Sendable () -> Void = {
    // One whole match per iteration: the throughput column is matches per second.
    let matches = Benchmark.Configuration(
        metrics: [.throughput, .wallClock, .mallocCountTotal],
        units: [.throughput: .count],
        warmupIterations: 20,
        scalingFactor: .one,
        maxDuration: .seconds(10),
        maxIterations: 20_000
    )
    registerSelfPlay("quortex random self-play 2 seats", seats: 2, configuration: matches) { UniformRandomStrategy<QuortexGame>(seed: $0) }
    registerSelfPlay("quortex random self-play 4 seats", seats: 4, configuration: matches) { UniformRandomStrategy<QuortexGame>(seed: $0) }
    var reference = matches
    reference.maxIterations = 3_000
    registerSelfPlay("quortex reference self-play 2 seats", seats: 2, configuration: reference) { _ in QuortexReferenceAI() }
    registerSelfPlay("quortex reference self-play 4 seats", seats: 4, configuration: reference) { _ in QuortexReferenceAI() }

    // The legal-placement search from the kept junction graph, with no routes remembered
    // from earlier turns (essential cells, exact checks, listing), on positions 10-25
    // placements into random games: one enumeration per iteration.
    let positions = midGamePositions(count: 2_000)
    var buffer = ActionBuffer(capacity: 1024)
    var next = 0
    Benchmark("quortex legal-placement enumeration, mid-game, 2 seats",
              configuration: .init(metrics: [.throughput, .wallClock, .mallocCountTotal], units: [.throughput: .count],
                                   warmupIterations: 100, scalingFactor: .one, maxDuration: .seconds(5), maxIterations: 50_000)) { benchmark in
        for _ in benchmark.scaledIterations {
            positions[next].enumerateLegalPlacements(into: &buffer)
            next = (next + 1) % positions.count
            blackHole(buffer.count)
        }
    }
}

/// Running positions after 10-25 random placements, 2 seats.
func midGamePositions(count: Int) -> [QuortexState] {
    let game = try! QuortexGame(seatCount: 2)
    var positions: [QuortexState] = []
    var buffer = ActionBuffer()
    var rng = LabRandom(seed: masterSeed)
    var match: UInt64 = 0
    while positions.count < count {
        var state = game.newMatch(seed: Seeds.match(masterSeed, match: match))
        match += 1
        let depth = 10 + rng.uniform(16)
        while !state.isTerminal && state.turn < depth {
            state.legalActions(into: &buffer)
            state.apply(buffer[rng.uniform(buffer.count)])
        }
        if !state.isTerminal { positions.append(state) }
    }
    return positions
}

/// Registers self-play of `seats` copies of one strategy, one match per iteration; match
/// i is dealt from `Seeds.match(masterSeed, match: i)` and strategies are made per match.
func registerSelfPlay(_ name: String, seats: Int, configuration: Benchmark.Configuration,
                      strategy make: @escaping (UInt64) -> any Strategy<QuortexGame>) {
    let game = try! QuortexGame(seatCount: seats)
    var buffer = ActionBuffer()
    var matchIndex: UInt64 = 0
    Benchmark(name, configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            let seed = Seeds.match(masterSeed, match: matchIndex)
            matchIndex &+= 1
            var strategies: [any Strategy<QuortexGame>] = []
            strategies.reserveCapacity(seats)
            for seat in 0..<seats { strategies.append(make(Seeds.strategy(seed, seat: seat))) }
            blackHole(Match.play(game, seed: seed, strategies: strategies, buffer: &buffer))
        }
    }
}
