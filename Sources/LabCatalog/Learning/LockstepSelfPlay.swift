import Evaluators
import LabCore
import Search

/// One recorded position of self-play: what the network is trained on.
struct LearnedPosition: Sendable {
    /// The mover's features (its observation only).
    var features: [Float]
    /// The legal actions and the search's improved policy over them.
    var legal: [Int32]
    var policy: [Float]
    /// Each seat's share of the match's score, the mover first (set when the game ends).
    var value: [Float]
}

/// How self-play searches: KataGo's playout-cap randomisation (a full search on a share of
/// the moves, whose policies are recorded; a cheap one elsewhere), Gumbel noise at the root
/// for exploration.
struct LearnedSelfPlaySettings: Sendable, Equatable {
    var simulations: Int
    var cheapSimulations: Int
    /// The share of moves searched in full and recorded.
    var fullShare: Double
    var considered: Int
    /// Moves of each game played with Gumbel noise at the root (exploration); the rest
    /// without (AlphaZero's temperature schedule: varied openings, then the best moves,
    /// so that the outcomes the values learn from are not decided by noise).
    var exploreMoves: Int
    /// Searches take decisive moves (wins on the spot) at every node.
    var decisive: Bool
    /// σ's scale.
    var cScale: Double
    /// Playouts mixed into each leaf's value (``GumbelSettings/rollouts``).
    var rollouts = 0
}

/// What a round of self-play produced: positions in game order, and counters.
struct SelfPlayYield: Sendable {
    var positions: [LearnedPosition] = []
    var games = 0
    var evaluations = 0
    var batches = 0
}

/// Plays games of self-play in lockstep, a chunk at a time: every search of the chunk
/// advances to its next batch, the leaves of all of them are evaluated as one product,
/// and each search takes its rows back (KataGo's way of batching across games; no
/// virtual loss). Chunks are fixed by game index, so the batches, and so the bytes, do
/// not depend on the thread count.
struct LockstepSelfPlay<G: Game, E: FeatureEncoder> where E.Observation == G.State.Observation {
    let game: G
    let encoder: E
    let network: PolicyValueNet
    let settings: LearnedSelfPlaySettings

    /// Plays games `range` of a generation whose seeds come from `seed`.
    func play(_ range: Range<Int>, seed: UInt64) -> SelfPlayYield {
        let round = LockstepRound(self, range: range, seed: seed)
        round.startDecisions()
        while round.isLive {
            round.evaluateBatch()
            round.playDecided()
            round.startDecisions()
        }
        return round.out
    }
}

/// The games of one chunk in lockstep: their states, searches and what they yield.
private final class LockstepRound<G: Game, E: FeatureEncoder> where E.Observation == G.State.Observation {
    let encoder: E
    let settings: LearnedSelfPlaySettings
    let model: NetworkModel<G, E>
    var live: [LiveGame<G>]
    let fullSearches: [GumbelSearch<G.State>]
    let cheapSearches: [GumbelSearch<G.State>]
    var out = SelfPlayYield()
    var buffer = ActionBuffer()
    var features: [Float] = [], logits: [Float] = [], values: [Float] = []
    let f: Int, a: Int, s: Int

    init(_ player: LockstepSelfPlay<G, E>, range: Range<Int>, seed: UInt64) {
        let settings = player.settings
        encoder = player.encoder
        self.settings = settings
        let model = NetworkModel<G, E>(network: player.network, encoder: player.encoder, dense: true)
        self.model = model
        let full = GumbelSettings(simulations: settings.simulations, considered: settings.considered, cScale: settings.cScale,
                                  gumbelScale: 1, decisive: settings.decisive, rollouts: settings.rollouts)
        let cheap = GumbelSettings(simulations: settings.cheapSimulations, considered: settings.considered, cScale: settings.cScale,
                                   gumbelScale: 1, decisive: settings.decisive, rollouts: settings.rollouts)
        live = range.map { index in
            let gameSeed = Seeds.derive(seed, UInt64(index), 0, 0x5e1f)
            return LiveGame(state: player.game.newMatch(seed: gameSeed), rng: LabRandom(seed: Seeds.derive(gameSeed, 1, 0, 0x5e1f)),
                            search: GumbelSearch(model: model, settings: full))
        }
        fullSearches = live.map(\.search)
        cheapSearches = range.map { _ in GumbelSearch<G.State>(model: model, settings: cheap) }
        f = player.encoder.featureCount
        a = player.network.shape.actions
        s = player.network.shape.seats
    }

    var isLive: Bool { live.contains { !$0.done } }

    /// Starts each live game's next decision (moves with one legal action are played at once).
    func startDecisions() {
        for k in live.indices where !live[k].done && live[k].search.pending.isEmpty {
            while !live[k].state.isTerminal {
                live[k].state.legalActionsInPlace(into: &buffer)
                if buffer.count == 1 {
                    live[k].state.apply(buffer[0])
                    continue
                }
                let seat = live[k].state.currentSeat
                let observation = live[k].state.observation(for: seat)
                live[k].recordThisMove = live[k].rng.unit() < settings.fullShare
                let search = live[k].recordThisMove ? fullSearches[k] : cheapSearches[k]
                live[k].search = search
                let noise = live[k].state.turn < settings.exploreMoves ? 1.0 : 0.0
                search.begin(state: live[k].state, seat: seat, legal: buffer, rng: LabRandom(seed: live[k].rng.next()),
                             gumbelScale: noise, sample: observation.sampler())
                break
            }
            if live[k].state.isTerminal { finish(k) }
        }
    }

    /// Ends game `k`: its recorded positions get each seat's share of the outcome.
    func finish(_ k: Int) {
        live[k].done = true
        out.games += 1
        let shares = Outcome.shares(live[k].state.outcome, seats: s).map(Float.init)
        for (var position, seat) in live[k].recorded {
            position.value = (0..<s).map { shares[(seat + $0) % s] }
            out.positions.append(position)
        }
        live[k].recorded.removeAll()
    }

    /// Plays the decided move of each search that finished, recording the full ones.
    func playDecided() {
        for k in live.indices where !live[k].done && live[k].search.isDone {
            let search = live[k].search
            if live[k].recordThisMove {
                let seat = live[k].state.currentSeat
                var position = LearnedPosition(features: [Float](repeating: 0, count: f), legal: [], policy: [], value: [])
                position.features.withUnsafeMutableBufferPointer { encoder.encode(live[k].state.observation(for: seat), into: $0) }
                position.legal = search.improvedPolicy.map { Int32($0.action) }
                position.policy = search.improvedPolicy.map { Float($0.probability) }
                live[k].recorded.append((position, seat))
            }
            live[k].state.apply(search.action)
            search.reset()
        }
    }

    /// One batch: every waiting leaf of every live search in one product; each search
    /// takes its rows back.
    func evaluateBatch() {
        var rows = 0
        for k in live.indices where !live[k].done { rows += live[k].search.pending.count }
        if features.count < rows * f { features = [Float](repeating: 0, count: rows * f) }
        if logits.count < rows * a { logits = [Float](repeating: 0, count: rows * a) }
        if values.count < rows * s { values = [Float](repeating: 0, count: rows * s) }
        var at = 0
        let f = f
        features.withUnsafeMutableBufferPointer { x in
            for k in live.indices where !live[k].done {
                for leaf in live[k].search.pending {
                    model.encode(leaf.state, seat: leaf.seat, into: UnsafeMutableBufferPointer(rebasing: x[(at * f)..<((at + 1) * f)]))
                    at += 1
                }
            }
        }
        if rows > 0 {
            features.withUnsafeBufferPointer { x in
                logits.withUnsafeMutableBufferPointer { l in
                    values.withUnsafeMutableBufferPointer { v in
                        model.evaluate(x.baseAddress!, batch: rows, logits: l.baseAddress!, values: v.baseAddress!)
                    }
                }
            }
            out.evaluations += rows
            out.batches += 1
        }
        at = 0
        logits.withUnsafeBufferPointer { l in
            values.withUnsafeBufferPointer { v in
                for k in live.indices where !live[k].done {
                    let count = live[k].search.pending.count
                    guard count > 0 else { continue }
                    live[k].search.resume(logits: l.baseAddress! + at * a, values: v.baseAddress! + at * s)
                    at += count
                }
            }
        }
    }
}

/// One game of a lockstep round: its state, generator, the search deciding its move,
/// the positions recorded so far (with their movers) and whether this move is recorded.
private struct LiveGame<G: Game> {
    var state: G.State
    var rng: LabRandom
    var search: GumbelSearch<G.State>
    var recorded: [(position: LearnedPosition, seat: Int)] = []
    var recordThisMove = false
    var done = false
}
