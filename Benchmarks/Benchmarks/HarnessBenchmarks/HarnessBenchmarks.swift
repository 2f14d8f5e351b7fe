// The tournament harness against the bare engine loop: the same rail matches
// (heuristic against shipped-cpu, seat-rotated deals) played by `Match.play` alone and
// by `TournamentRunner` on one thread, writing matches.csv and the summaries.
//
// Run from Benchmarks/: `swift package --disable-sandbox benchmark --target HarnessBenchmarks`.

import Benchmark
import Foundation
import LabCatalog
import LabCore
import RailGame
import Tournament

/// Matches per benchmark iteration (blocks of two): long enough that the end-of-run
/// summaries (a 200-replicate bootstrap) weigh as they do in a real run.
let blocks = 5_000
let matchesPerIteration = blocks * 2
let masterSeed: UInt64 = 20_261_121

let benchmarks: @Sendable () -> Void = {
    let mapPath = shippedMapPath()
    let configuration = Benchmark.Configuration(
        metrics: [.throughput, .wallClock, .peakMemoryResident],
        units: [.throughput: .count],
        warmupIterations: 1,
        scalingFactor: .kilo,
        maxDuration: .seconds(60),
        maxIterations: 12
    )

    // The engine alone: the deals and seatings a tournament plays, strategies made per
    // match, nothing written.
    let map = try! RailMapFile.load(path: mapPath)
    let game = try! RailGame(map: map, rules: RailRules(), seatCount: 2)
    let heuristic: StrategyFactory<RailGame> = { RailHeuristicCPU(seed: $0.seed) }
    let shipped: StrategyFactory<RailGame> = { RailShippedCPU(seed: $0.seed) }
    Benchmark("bare engine loop: rail heuristic v shipped-cpu, 10,000 matches", configuration: configuration) { benchmark in
        var buffer = ActionBuffer()
        for block in 0..<blocks {
            let deal = Schedule.dealSeed(master: masterSeed, block: block)
            for rotation in 0..<2 {
                let factories = rotation == 0 ? [heuristic, shipped] : [shipped, heuristic]
                blackHole(Match.play(game, seed: deal, strategySeed: deal, factories: factories,
                                     buffer: &buffer).outcome)
            }
        }
    }

    // The harness: the same matches through `oplab tournament`'s runner on one thread.
    let config = TournamentConfig(name: "harness-bench", game: "rail", map: mapPath, seats: 2,
                                  entrants: [Entrant(name: "cpu", strategy: "heuristic"), Entrant(name: "shipped", strategy: "shipped-cpu")],
                                  blocks: blocks, seed: masterSeed, threads: 1)
    let plan = try! Catalog.plan(config)
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("oplab-harness-bench-\(getpid())").path
    Benchmark("tournament runner, 1 thread: rail heuristic v shipped-cpu, 10,000 matches", configuration: configuration) { _ in
        let result = try! TournamentRunner.run(plan, options: RunOptions(directory: directory, threads: 1, force: true, quiet: true))
        blackHole(result)
    } teardown: {
        try? FileManager.default.removeItem(atPath: directory)
    }
}

/// The main package's shipped map (this file is `<main>/Benchmarks/Benchmarks/HarnessBenchmarks/...`).
func shippedMapPath(filePath: String = #filePath) -> String {
    URL(fileURLWithPath: filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent(RailMapFile.defaultPath).path
}
