import LabCore

/// Random playouts that value a search's leaf besides the network (AlphaGo's mixed
/// evaluation, Silver et al. 2016; ``GumbelSettings/rollouts``).
struct Playouts<State: GameState> {
    private var buffer = ActionBuffer()
    private var estimate: [Double]
    private var mean: [Double]

    init(seats: Int) {
        estimate = [Double](repeating: 0, count: seats)
        mean = estimate
    }

    /// Mixes the mean of `settings.rollouts` playouts from `state` into `vector` (seat
    /// order): `vector = (1 - mix) · vector + mix · mean`. Each playout deals the hidden
    /// state afresh from the view of the mover in `state` (so the playouts of one leaf do
    /// not all meet the same draws), plays `rolloutDepth` uniformly random actions and is
    /// valued by its outcome's shares, or by the game's estimate where it stops short.
    mutating func mix(from state: State, settings: GumbelSettings, rng: inout LabRandom, into vector: inout [Double]) {
        let seats = vector.count
        for s in 0..<seats { mean[s] = 0 }
        let observation = state.observation(for: state.currentSeat)
        // One full deal a leaf, then a cheap redeal a playout (``GameObservation/sampler()``):
        // each equals a fresh `sampleState` from the same stream, at a fraction of the cost.
        let sample = observation.sampler()
        for _ in 0..<settings.rollouts {
            var playout = sample(&rng)
            var depth = 0
            while !playout.isTerminal && depth < settings.rolloutDepth {
                playout.applyRandomAction(using: &rng, buffer: &buffer)
                depth += 1
            }
            if playout.isTerminal {
                let shares = Outcome.shares(playout.outcome, seats: seats)
                for s in 0..<seats { mean[s] += shares[s] }
            } else {
                playout.searchValuesInPlace(into: &estimate)
                for s in 0..<seats { mean[s] += estimate[s] }
            }
        }
        let weight = settings.mix / Double(settings.rollouts)
        for s in 0..<seats { vector[s] = (1 - settings.mix) * vector[s] + weight * mean[s] }
    }
}
