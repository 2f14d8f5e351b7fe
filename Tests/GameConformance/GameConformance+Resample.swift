import LabCore

extension Conformance {
    // MARK: (g) Resampling

    /// At every `every`-th state of `matches` random matches, for every seat: a state
    /// sampled from the seat's observation and then redrawn with
    /// ``GameObservation/resample(_:using:)`` equals the one ``GameObservation/sampleState(using:)``
    /// draws from the same stream (the streams advance alike; the same legal actions,
    /// observations and invariants, and the same future under the same actions). The
    /// searches sample through ``GameObservation/sampler()``, which resamples.
    public static func resampling<G: Game>(_ game: G, matches: Int, seed: UInt64, every: Int = 5, horizon: Int = 20,
                                           maxTurns: Int = 100_000) throws(ConformanceFailure) {
        try walk(game, matches: matches, seed: seed, maxTurns: maxTurns, check: .resampling) { state, matchSeed throws(ConformanceFailure) in
            guard state.turn % max(1, every) == 0 else { return }
            for seat in 0..<state.seatCount {
                try compareResample(state.observation(for: seat), seed: Seeds.derive(matchSeed, UInt64(state.turn), UInt64(seat)),
                                    horizon: horizon, matchSeed, state)
            }
        }
    }

    private static func compareResample<O: GameObservation>(_ observation: O, seed: UInt64, horizon: Int,
                                                            _ matchSeed: UInt64, _ at: O.State) throws(ConformanceFailure) {
        var direct = LabRandom(seed: seed)
        var sampled = observation.sampleState(using: &direct)
        var other = LabRandom(seed: seed &+ 1)
        var redrawn = observation.sampleState(using: &other)
        var again = LabRandom(seed: seed)
        observation.resample(&redrawn, using: &again)
        if direct.next() != again.next() {
            throw fail(.resampling, matchSeed, at, "seat \(observation.seat): resample advanced the stream otherwise than sampleState")
        }
        if let change = Snapshot(sampled).difference(Snapshot(redrawn)) {
            throw fail(.resampling, matchSeed, at, "seat \(observation.seat): a resampled state and a sample from the same stream differ in \(change)")
        }
        let futureSeed = Seeds.derive(seed, 7)
        let sampledFuture = try playOn(&sampled, seed: futureSeed, limit: horizon, checkInvariants: false, check: .resampling, matchSeed)
        let redrawnFuture = try playOn(&redrawn, seed: futureSeed, limit: horizon, checkInvariants: false, check: .resampling, matchSeed)
        if sampledFuture.actions != redrawnFuture.actions || sampledFuture.outcome != redrawnFuture.outcome {
            throw fail(.resampling, matchSeed, at, "seat \(observation.seat): a resampled state and a sample from the same stream played different futures")
        }
    }
}
