import Dispatch
import LabCore
import Synchronization

/// How ``SelfPlay/positions(game:teachers:encoder:settings:progress:)`` makes training data.
public struct SelfPlaySettings: Sendable, Equatable {
    /// Matches to play.
    public var matches: Int
    /// Positions kept per match (drawn uniformly from its turns, without repeats); every
    /// seat's view of each is one row.
    public var positionsPerMatch: Int
    /// Chance that a move is uniformly random instead of the teacher's (variety).
    public var randomMoveRate: Double
    public var seed: UInt64
    /// Worker threads (the data are the same for any count).
    public var threads: Int

    public init(matches: Int, positionsPerMatch: Int = 8, randomMoveRate: Double = 0.1, seed: UInt64 = 1, threads: Int = 1) {
        precondition(matches >= 1 && positionsPerMatch >= 1 && (0...1).contains(randomMoveRate) && threads >= 1)
        self.matches = matches
        self.positionsPerMatch = positionsPerMatch
        self.randomMoveRate = randomMoveRate
        self.seed = seed
        self.threads = threads
    }
}

/// Training data from teachers playing themselves or each other.
public enum SelfPlay {
    /// Plays `settings.matches` matches of the teachers (seat s of match m plays
    /// `teachers[(m + s) % teachers.count]`: one teacher plays itself; several meet in
    /// every seating) where a move is uniformly random with probability `randomMoveRate`, keeps `positionsPerMatch` positions of
    /// each, and labels every seat's view of them with that seat's final score
    /// (``Outcome/score(of:)``: 1 for a sole win, 1/k for a win shared by k, 0 else).
    ///
    /// Match m is dealt from `Seeds.match(seed, m)` and its strategies, its random moves
    /// and its choice of positions are seeded from that, so the rows are the same, in
    /// match order, for any thread count.
    public static func positions<G: Game, E: FeatureEncoder>(
        game: G, teachers: [StrategyFactory<G>], encoder: E, settings: SelfPlaySettings,
        progress: @Sendable (Int) -> Void = { _ in }
    ) -> Dataset where E.Observation == G.State.Observation {
        precondition(!teachers.isEmpty, "at least one teacher")
        let chunk = 32
        let chunks = (settings.matches + chunk - 1) / chunk
        let results = Mutex<[Int: Dataset]>([:])
        let next = Atomic<Int>(0)
        let done = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: min(settings.threads, chunks)) { _ in
            var buffer = ActionBuffer()
            var row = [Float](repeating: 0, count: encoder.featureCount)
            while true {
                let c = next.add(1, ordering: .relaxed).oldValue
                guard c < chunks else { break }
                var data = Dataset(inputs: encoder.featureCount)
                for m in (c * chunk)..<min(settings.matches, (c + 1) * chunk) {
                    play(game, match: m, teachers: teachers, encoder: encoder, settings: settings, buffer: &buffer, row: &row, into: &data)
                }
                results.withLock { $0[c] = data }
                let total = done.add(min(settings.matches, (c + 1) * chunk) - c * chunk, ordering: .relaxed).newValue
                progress(total)
            }
        }
        return results.withLock { parts in
            var all = Dataset(inputs: encoder.featureCount)
            all.reserveCapacity(parts.values.reduce(0) { $0 + $1.count })
            for c in 0..<chunks { all.append(contentsOf: parts[c]!) }
            return all
        }
    }

    /// Plays match `m` of `teachers` (seat s plays `teachers[(m + s) % teachers.count]`),
    /// dealt from `Seeds.match(seed, m)`, each move uniformly random with probability
    /// `randomMoveRate` instead. `decided(state, legal, action, teacher)` sees each
    /// decision before it is applied, with the teacher that chose it (nil for a random
    /// move). Returns the final state and the match's generator, which a caller may draw on
    /// from (the same draws for the same match at any thread count).
    public static func match<G: Game>(_ game: G, match m: Int, teachers: [StrategyFactory<G>], randomMoveRate: Double, seed: UInt64,
                                      buffer: inout ActionBuffer,
                                      decided: (_ state: G.State, _ legal: ActionBuffer, _ action: Int, _ teacher: (any Strategy<G>)?) -> Void)
        -> (final: G.State, rng: LabRandom) {
        let seed = Seeds.match(seed, match: UInt64(m))
        var rng = LabRandom(seed: Seeds.derive(seed, 0x7465_6163_6865_72))
        let strategies = (0..<game.seatCount).map { s in
            teachers[(m + s) % teachers.count](StrategyContext(game: game, seat: s, seed: Seeds.strategy(seed, seat: s)))
        }
        let followers = strategies.filter(\.followsActions)
        var state = game.newMatch(seed: seed)
        while !state.isTerminal {
            state.legalActions(into: &buffer)
            let seat = state.currentSeat
            let action: Int
            let random = rng.chance(randomMoveRate)
            if random {
                action = buffer[rng.uniform(buffer.count)]
            } else {
                action = strategies[seat].chooseAction(state.observation(for: seat), legal: buffer)
            }
            decided(state, buffer, action, random ? nil : strategies[seat])
            state.apply(action)
            for f in followers { f.didApply(action, by: seat) }
        }
        return (state, rng)
    }

    private static func play<G: Game, E: FeatureEncoder>(
        _ game: G, match m: Int, teachers: [StrategyFactory<G>], encoder: E, settings: SelfPlaySettings,
        buffer: inout ActionBuffer, row: inout [Float], into data: inout Dataset
    ) where E.Observation == G.State.Observation {
        var history: [G.State] = []
        var (state, rng) = match(game, match: m, teachers: teachers, randomMoveRate: settings.randomMoveRate, seed: settings.seed,
                                 buffer: &buffer) { before, _, _, _ in history.append(before) }
        guard let outcome = state.outcome else { preconditionFailure("terminal state without an outcome") }
        // Positions: a uniform draw of distinct turns (partial Fisher-Yates).
        var turns = Array(history.indices)
        let keep = min(settings.positionsPerMatch, turns.count)
        for i in 0..<keep { turns.swapAt(i, i + rng.uniform(turns.count - i)) }
        for i in turns[..<keep].sorted() {
            for s in 0..<game.seatCount {
                row.withUnsafeMutableBufferPointer { encoder.encode(history[i].observation(for: s), into: $0) }
                row.withUnsafeBufferPointer { data.append($0, target: Float(outcome.score(of: s))) }
            }
        }
    }
}
