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
/// weight on that action; with `searchTargets`, a searching teacher's own policy), and
/// each seat's share of the final score; with `keep` below 1,
/// each such move is recorded with that probability (game m's draws from its own stream).
struct TeacherPlay<G: Game, E: FeatureEncoder> where E.Observation == G.State.Observation {
    let game: G
    let encoder: E
    let teachers: [StrategyFactory<G>]
    var keep = 1.0
    var randomMoveRate = 0.1
    /// Record a searching teacher's policy (``Strategy/searchPolicy``) as the target
    /// instead of its move alone.
    var searchTargets = false

    /// Games `0..<games`, seeded from `seed`, in chunks over `threads`; the positions in
    /// game order, the same for any thread count. `progress` hears the games played so far
    /// each time they pass another tenth of `games` (from the thread that passed it).
    func play(games: Int, seed: UInt64, threads: Int, progress: (@Sendable (Int) -> Void)? = nil) -> [LearnedPosition] {
        precondition(!teachers.isEmpty)
        let chunk = 16
        let chunks = (games + chunk - 1) / chunk
        let results = Mutex<[Int: [LearnedPosition]]>([:])
        let played = Mutex<(games: Int, tenths: Int)>((0, 0))
        let next = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: max(1, min(threads, chunks))) { _ in
            var buffer = ActionBuffer()
            while true {
                let c = next.add(1, ordering: .relaxed).oldValue
                guard c < chunks else { break }
                var positions: [LearnedPosition] = []
                let range = (c * chunk)..<min(games, (c + 1) * chunk)
                for m in range { play(m, seed: seed, buffer: &buffer, into: &positions) }
                results.withLock { $0[c] = positions }
                guard let progress else { continue }
                played.withLock { done in
                    done.games += range.count
                    let tenths = 10 * done.games / games
                    if tenths > done.tenths && done.games < games {
                        done.tenths = tenths
                        progress(done.games)
                    }
                }
            }
        }
        return results.withLock { parts in (0..<chunks).flatMap { parts[$0]! } }
    }

    private func play(_ m: Int, seed: UInt64, buffer: inout ActionBuffer, into positions: inout [LearnedPosition]) {
        let seats = game.seatCount
        var recorded: [(position: LearnedPosition, seat: Int)] = []
        var sample = LabRandom(seed: Seeds.derive(seed, UInt64(m), 0x6b65))
        let (state, _) = SelfPlay.match(game, match: m, teachers: teachers, randomMoveRate: randomMoveRate, seed: seed,
                                        buffer: &buffer) { before, legal, action, teacher in
            guard let teacher, legal.count > 1, keep >= 1 || sample.chance(keep) else { return }
            let seat = before.currentSeat
            var features = [Float](repeating: 0, count: encoder.featureCount)
            features.withUnsafeMutableBufferPointer { encoder.encode(before.observation(for: seat), into: $0) }
            let ids = (0..<legal.count).map { Int32(legal[$0]) }
            var policy = ids.map { Float(Int($0) == action ? 1 : 0) }
            if searchTargets, let searched = teacher.searchPolicy {
                var probability = [Int: Float](minimumCapacity: searched.count)
                for (a, p) in searched { probability[a] = Float(p) }
                policy = ids.map { probability[Int($0)] ?? 0 }
            }
            recorded.append((LearnedPosition(features: features, legal: ids, policy: policy, value: []), seat))
        }
        let shares = Outcome.shares(state.outcome, seats: seats).map(Float.init)
        for (var position, seat) in recorded {
            position.value = (0..<seats).map { shares[(seat + $0) % seats] }
            positions.append(position)
        }
    }
}
