import Dispatch
import Evaluators
import LabCore
import Synchronization

/// A warm start for a learning: games of teacher strategies (the lab's own, e.g. a tuned
/// `mcts`), whose moves become policy targets and whose outcomes value targets, as
/// AlphaGo's supervised stage before its self-play. Self-play then improves on what the
/// network imitated; the teacher's positions leave the replay buffer with the window.
///
/// Seat s of game m plays `teachers[(m + s) % teachers.count]`. With probability
/// `randomMoveRate` a move is uniformly random instead (variety for a deterministic
/// teacher); those moves are played, not recorded. Every other move is one position: the
/// mover's features, the legal actions and the teacher's choice as the policy (all its
/// weight on that action), and each seat's share of the final score.
struct TeacherPlay<G: Game, E: FeatureEncoder> where E.Observation == G.State.Observation {
    let game: G
    let encoder: E
    let teachers: [StrategyFactory<G>]
    var randomMoveRate = 0.1

    /// Games `0..<games`, seeded from `seed`, in chunks over `threads`; the positions in
    /// game order, the same for any thread count.
    func play(games: Int, seed: UInt64, threads: Int) -> [LearnedPosition] {
        precondition(!teachers.isEmpty)
        let chunk = 16
        let chunks = (games + chunk - 1) / chunk
        let results = Mutex<[Int: [LearnedPosition]]>([:])
        let next = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: max(1, min(threads, chunks))) { _ in
            var buffer = ActionBuffer()
            while true {
                let c = next.add(1, ordering: .relaxed).oldValue
                guard c < chunks else { break }
                var positions: [LearnedPosition] = []
                for m in (c * chunk)..<min(games, (c + 1) * chunk) { play(m, seed: seed, buffer: &buffer, into: &positions) }
                results.withLock { $0[c] = positions }
            }
        }
        return results.withLock { parts in (0..<chunks).flatMap { parts[$0]! } }
    }

    private func play(_ m: Int, seed: UInt64, buffer: inout ActionBuffer, into positions: inout [LearnedPosition]) {
        let gameSeed = Seeds.match(seed, match: UInt64(m))
        var rng = LabRandom(seed: Seeds.derive(gameSeed, 0x7465_6163_6865_72))
        let seats = game.seatCount
        let strategies = (0..<seats).map { s in
            teachers[(m + s) % teachers.count](StrategyContext(game: game, seat: s, seed: Seeds.strategy(gameSeed, seat: s)))
        }
        let followers = strategies.filter(\.followsActions)
        var state = game.newMatch(seed: gameSeed)
        var recorded: [(position: LearnedPosition, seat: Int)] = []
        while !state.isTerminal {
            state.legalActions(into: &buffer)
            let seat = state.currentSeat
            let action: Int
            if rng.chance(randomMoveRate) {
                action = buffer[rng.uniform(buffer.count)]
            } else {
                let observation = state.observation(for: seat)
                action = strategies[seat].chooseAction(observation, legal: buffer)
                if buffer.count > 1 {
                    var features = [Float](repeating: 0, count: encoder.featureCount)
                    features.withUnsafeMutableBufferPointer { encoder.encode(observation, into: $0) }
                    let legal = (0..<buffer.count).map { Int32(buffer[$0]) }
                    recorded.append((LearnedPosition(features: features, legal: legal, policy: legal.map { Int($0) == action ? 1 : 0 }, value: []), seat))
                }
            }
            state.apply(action)
            for f in followers { f.didApply(action, by: seat) }
        }
        let outcome = state.outcome
        let scores = (0..<seats).map { outcome?.score(of: $0) ?? 1 / Double(seats) }
        let total = scores.reduce(0, +)
        let shares = scores.map { Float(total > 0 ? $0 / total : 1 / Double(seats)) }
        for (var position, seat) in recorded {
            position.value = (0..<seats).map { shares[(seat + $0) % seats] }
            positions.append(position)
        }
    }
}
