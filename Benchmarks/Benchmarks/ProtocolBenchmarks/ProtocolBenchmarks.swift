// The player protocol's speed (issue 16, item 7): how many decisions per second an
// external bot makes on one worker, and what the lab itself spends per decision.
//
// Each benchmark seats one bot, `external(command=...)`, in seat 0 against `random` in
// seat 1, on a catalog table (`MatchTable.play`, the call a tournament worker makes), and
// plays the same matches every iteration, each match three ways, one after the other:
//
//   1. protocol: through the table, the bot in a process of its own (kept from match to
//      match, as in a tournament);
//   2. in process: the same match by `Match.play`, the bot's recorded replies played
//      back by a strategy: the game and the opponent alone;
//   3. ping-pong: the match's recorded conversation, byte for byte, written to another
//      process of the same bot with blocking write(2) and read(2), one reply read after
//      each `turn`: the pipes, the scheduler and the bot alone, with no lab around them.
//
// Metrics, per decision of the bot (d decisions per iteration, times summed over its
// matches):
//   decisions/s   d / time(1): the rate a tournament worker gets with this bot.
//   lab ns        (time(1) - time(2) - time(3)) / d, wall clock: what the lab adds beyond
//                 the game and a bare exchange of the same bytes with the same bot, i.e.
//                 writing the turn line (observation, cached legal entries), the poll(2)
//                 calls, reading and parsing the reply, checking it, the start/end
//                 messages and the match report. The lab's own overhead per decision.
//   lab cpu ns    the same difference in this thread's processor time
//                 (CLOCK_THREAD_CPUTIME_ID), which leaves out waiting and other
//                 processes: a cross-check that load on the machine hardly moves.
//   ping-pong ns  time(3) / d: the bare round trip, the floor under run 1.
//   game ns       time(2) / d: the engine and the opponent.
// A difference that comes out negative (noise) is recorded as 0.
//
// Every benchmark runs twice, pinned (Placement.swift): "one core" (the lab's thread and
// the bots on one CPU, taking turns) and "two cores" (the bots on another CPU, so every
// message wakes the other core; on a virtual machine that costs tens of microseconds).
// Unpinned, the scheduler switches between the two from run to run.
//
// The recording is made once, in the benchmark's setup, through the lab itself: the bot
// runs as `sh -c 'tee IN | BOT | tee OUT'`, so IN is exactly what the lab wrote and OUT
// what the bot answered. The setup then checks that all three ways reproduce it (the same
// outcomes, decisions and replies), so they play the same games.
//
// Run from Benchmarks/: `swift package --disable-sandbox benchmark --target ProtocolBenchmarks`.
// Needs a C compiler (`cc`) for Bots/minimal_bot.c and `python3` for examples/bots/random_bot.py.

import Benchmark
import Foundation
import LabCatalog
import LabCore
import Players
import Quortex
import RailGame

let decisionsPerSecond = BenchmarkMetric.custom("decisions/s", polarity: .prefersLarger, useScalingFactor: false)
let labNanoseconds = BenchmarkMetric.custom("lab ns", polarity: .prefersSmaller, useScalingFactor: false)
let labCPUNanoseconds = BenchmarkMetric.custom("lab cpu ns", polarity: .prefersSmaller, useScalingFactor: false)
let pingPongNanoseconds = BenchmarkMetric.custom("ping-pong ns", polarity: .prefersSmaller, useScalingFactor: false)
let gameNanoseconds = BenchmarkMetric.custom("game ns", polarity: .prefersSmaller, useScalingFactor: false)

/// Match `i` of every benchmark is dealt from `Seeds.match(masterSeed, match: i)`.
let masterSeed: UInt64 = 20_261_125

let benchmarks: @Sendable () -> Void = {
    let configuration = Benchmark.Configuration(
        metrics: [decisionsPerSecond, labNanoseconds, labCPUNanoseconds, pingPongNanoseconds, gameNanoseconds],
        // Plain numbers: no (K) scaling of ns or decisions/s.
        units: [decisionsPerSecond: .count, labNanoseconds: .count, labCPUNanoseconds: .count, pingPongNanoseconds: .count,
                gameNanoseconds: .count],
        warmupIterations: 1,
        maxDuration: .seconds(20),
        maxIterations: 20
    )
    let main = mainPackagePath()
    let railMap = main + "/" + RailMapFile.defaultPath
    let rail: @Sendable () -> RailGame = {
        do throws(InputError) {
            return try RailGame(map: RailMapFile.load(path: railMap), rules: RailRules(), seatCount: 2)
        } catch {
            fatalError("ProtocolBenchmarks: \(error)")
        }
    }
    let quortex: @Sendable () -> QuortexGame = {
        do throws(InputError) {
            return try QuortexGame(rules: QuortexRules(), seatCount: 2)
        } catch {
            fatalError("ProtocolBenchmarks: \(error)")
        }
    }
    let minimal = BotCommand.minimal(source: main + "/Benchmarks/Bots/minimal_bot.c")
    let python = BotCommand.python(script: main + "/examples/bots/random_bot.py")

    for placement in Placement.available {
        register("rail, minimal C bot v random, \(placement)", game: rail, catalogName: "rail",
                 mapPath: railMap, bot: minimal, matches: 200, placement, configuration)
        register("rail, random_bot.py v random, \(placement)", game: rail, catalogName: "rail",
                 mapPath: railMap, bot: python, matches: 40, placement, configuration)
        register("quortex, minimal C bot v random, \(placement)", game: quortex, catalogName: "quortex",
                 mapPath: nil, bot: minimal, matches: 500, placement, configuration)
        register("quortex, random_bot.py v random, \(placement)", game: quortex, catalogName: "quortex",
                 mapPath: nil, bot: python, matches: 100, placement, configuration)
    }
}

/// One benchmark: `bot` in seat 0 against `random`, `matches` matches per run.
func register<G: ProtocolGame>(_ name: String, game: @escaping @Sendable () -> G, catalogName: String, mapPath: String?,
                               bot: BotCommand, matches: Int, _ placement: Placement, _ configuration: Benchmark.Configuration) {
    let rig = ProtocolRig(game: game, catalogName: catalogName, mapPath: mapPath, bot: bot, matches: matches, placement: placement)
    Benchmark(name, configuration: configuration) { benchmark in
        rig.iteration(benchmark)
    } setup: {
        rig.prepare()
    } teardown: {
        rig.finish()
    }
}
