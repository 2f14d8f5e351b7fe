// `alphazero`'s cost outside the network: a Gumbel search of the default budget (32
// simulations over 16 considered root actions) from the same mid-game positions as the
// MCTS benchmarks, its evaluations answered by a stand-in that returns flat logits and
// equal values at no cost. "search only" skips the features too (the tree, the sampled
// states, the moves); "search and features" writes each leaf's features with the game's
// encoder as `alphazero` does. The custom metric is nanoseconds a simulation.

import Benchmark
import LabCore
import Search

let nanosecondsPerSimulation = BenchmarkMetric.custom("ns/simulation", polarity: .prefersSmaller, useScalingFactor: false)

/// A policy-value model with no network: flat logits, equal values; `encode` writes the
/// encoder's features when there is one (what `alphazero` pays per leaf besides the network).
final class NoNetworkModel<State: GameState, Encoder: FeatureEncoder>: PolicyValueModel where Encoder.Observation == State.Observation {
    let encoder: Encoder?
    let featureCount: Int
    let actionCount: Int
    let seatCount: Int

    init(encoder: Encoder?, actionCount: Int, seatCount: Int) {
        self.encoder = encoder
        featureCount = encoder?.featureCount ?? 1
        self.actionCount = actionCount
        self.seatCount = seatCount
    }

    func encode(_ state: State, seat: Int, into features: UnsafeMutableBufferPointer<Float>) {
        encoder?.encode(state.observation(for: seat), into: features)
    }

    func evaluate(_ features: UnsafePointer<Float>, batch: Int, logits: UnsafeMutablePointer<Float>, values: UnsafeMutablePointer<Float>) {
        logits.update(repeating: 0, count: batch * actionCount)
        values.update(repeating: 1 / Float(seatCount), count: batch * seatCount)
    }
}

/// One `alphazero` decision at the default knobs from `state`, its batches answered by
/// the search's model through the driver `alphazero` uses.
func decide<State: GameState>(_ search: GumbelSearch<State>, _ driver: inout SearchDriver<State>, _ state: State,
                              _ legal: ActionBuffer, _ rng: inout LabRandom) -> Int {
    let observation = state.observation(for: state.currentSeat)
    search.begin(state: observation.sampleState(using: &rng), seat: state.currentSeat, legal: legal,
                 rng: LabRandom(seed: rng.next()), sample: observation.sampler())
    driver.run(search)
    return search.action
}

/// The two `alphazero` benchmarks of one game: search only, then search and features.
func registerAlphaZero<State: GameState, Encoder: FeatureEncoder>(_ name: String, _ state: State, encoder: Encoder, decisive: Bool)
    where Encoder.Observation == State.Observation {
    let settings = GumbelSettings(decisive: decisive)
    var legal = ActionBuffer()
    state.legalActions(into: &legal)
    for (label, withFeatures) in [("search only", false), ("search and features", true)] {
        let model = NoNetworkModel<State, Encoder>(encoder: withFeatures ? encoder : nil, actionCount: state.actionSpaceSize,
                                                   seatCount: state.seatCount)
        let search = GumbelSearch(model: model, settings: settings)
        var rng = LabRandom(seed: 7)
        var driver = SearchDriver<State>()
        Benchmark("\(name) alphazero 32 simulations, mid-game, no network: \(label)",
                  configuration: .init(metrics: [nanosecondsPerSimulation, .wallClock, .mallocCountTotal],
                                       warmupIterations: 5, maxDuration: .seconds(5), maxIterations: 2_000)) { benchmark in
            let start = ContinuousClock.now
            blackHole(decide(search, &driver, state, legal, &rng))
            let elapsed = start.duration(to: .now)
            let nanoseconds = Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) * 1e-9
            benchmark.measurement(nanosecondsPerSimulation, Int((nanoseconds / Double(settings.simulations)).rounded()))
        }
    }
}
