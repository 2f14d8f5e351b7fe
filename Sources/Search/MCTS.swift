import Foundation
import LabCore

/// How an ``MCTS`` searches.
public struct MCTSSettings: Sendable, Equatable {
    /// Iterations per move (deterministic; what tests and CI use).
    public var iterations: Int
    /// A wall-clock budget per move instead of `iterations`, in milliseconds (0: none):
    /// the search runs at least one iteration, then stops after the first iteration that
    /// ends with the budget spent (read from the search's ``SearchClock``).
    public var millis: Int
    /// UCT exploration constant c.
    public var exploration: Double
    /// Actions a rollout plays before the game's estimate (``GameState/searchValue(of:)``)
    /// stands in for the result.
    public var rolloutDepth: Int
    /// Keep the subtree of the moves played between searches (the search follows the
    /// match's actions through ``Strategy/didApply(_:by:)``).
    public var reuse: Bool

    public init(iterations: Int = 800, millis: Int = 0, exploration: Double = 1.4, rolloutDepth: Int = 60, reuse: Bool = false) {
        precondition(iterations >= 1 && millis >= 0 && exploration >= 0 && rolloutDepth >= 0)
        self.iterations = iterations
        self.millis = millis
        self.exploration = exploration
        self.rolloutDepth = rolloutDepth
        self.reuse = reuse
    }
}

/// Where a timed search (``MCTSSettings/millis``) reads the time: nanoseconds since a
/// fixed origin, never decreasing. The search reads it only with a time budget, once
/// when a search starts and once after each iteration; an `iterations` budget never
/// reads it.
public struct SearchClock: Sendable {
    public let nanoseconds: @Sendable () -> UInt64

    public init(nanoseconds: @escaping @Sendable () -> UInt64) {
        self.nanoseconds = nanoseconds
    }

    /// The monotonic clock (`DispatchTime`, unaffected by changes of the wall time).
    public static let monotonic = SearchClock { DispatchTime.now().uptimeNanoseconds }
}

/// Information-set Monte Carlo tree search (single-observer ISMCTS, Cowling, Powley and
/// Whitehouse 2012), game-agnostic through LabCore.
///
/// - Each iteration samples a full state consistent with the mover's observation
///   (``GameObservation/sampleState(using:)``, drawn through
///   ``GameObservation/sampler()``): hidden hands, missions, deck and bag
///   orders are re-dealt, never read. The tree is over the mover's information set;
///   a node's statistics are shared by every sample that reaches it.
/// - Selection is UCT among the children legal in the sampled state, with each child's
///   *availability* (how often it could have been chosen) in place of its parent's
///   visits; a node with untried legal actions expands one at random.
/// - Rollouts play a policy (uniform random, or any strategy) for up to `rolloutDepth`
///   actions; a terminal end scores its result; a cut-off one is valued by the
///   ``LeafEvaluator`` if there is one (a learned model), else by the game's
///   ``GameState/searchValue(of:)``.
/// - Rewards are vectors, one per seat (a win 1, a first place shared by k 1/k, a loss
///   0; teammates share their place); each node keeps the reward of the seat that moved
///   into it, so every seat maximises its own (max^n).
/// - The move played is the root child with the most visits.
/// - With `reuse`, the subtree under the actions played since the last search becomes
///   the new root (its statistics kept); otherwise, or when an action leads out of the
///   tree, the tree starts afresh.
/// - Nodes live in one contiguous arena of structs, cleared (capacity kept) per move;
///   every scratch buffer is kept too, so a warm search allocates nothing per iteration
///   beyond what the game's sampler and the rollout policy allocate.
public final class MCTS<G: Game>: Strategy {
    public let settings: MCTSSettings
    private let seat: Int
    private let seatCount: Int
    /// Rollout strategies, one per seat; nil: uniform random.
    private let rollout: [any Strategy<G>]?
    /// Seats whose rollout strategy reads the legal list (``Strategy/readsLegalActions``):
    /// a rollout lists the legal actions only for their moves.
    private let rolloutListing: UInt64
    /// Leaf values after the rollout (a learned model); nil: the game's own estimate.
    private let evaluator: (any LeafEvaluator<G.State>)?
    /// The tree and every scratch buffer, kept between searches. A search moves it into
    /// a local and back, so its loop works on a value it owns: no runtime exclusivity
    /// check per access of a class property, and array code specialised for
    /// ``MCTSNode`` rather than for a type nested in the generic class.
    private var work: MCTSWork
    /// Actions played since the last search (with `reuse`).
    private var played: [Int] = []
    /// The time source of a `millis` budget (read only with one).
    private let clock: SearchClock

    /// - Parameters:
    ///   - context: the game, the seat and the strategy's seed.
    ///   - rollout: the rollout policy's factory (nil: uniform random); its strategies
    ///     are made once here, one per seat, with seeds of their own.
    ///   - evaluator: values a rollout's end when it is not terminal (nil: the game's
    ///     ``GameState/searchValue(of:)``); with `rolloutDepth` 0 it values the leaf.
    ///   - clock: where a `millis` budget reads the time (tests hand in a fake one).
    public init(_ context: StrategyContext<G>, settings: MCTSSettings, rollout: StrategyFactory<G>? = nil,
                evaluator: (any LeafEvaluator<G.State>)? = nil, clock: SearchClock = .monotonic) {
        self.settings = settings
        self.evaluator = evaluator
        self.clock = clock
        seat = context.seat
        seatCount = context.game.seatCount
        work = MCTSWork(rng: LabRandom(seed: Seeds.derive(context.seed, 0, 0, SeedPurpose.sampling.rawValue)),
                        seatCount: context.game.seatCount)
        let strategies = rollout.map { make in
            (0..<context.game.seatCount).map { s in
                make(StrategyContext(game: context.game, seat: s, seed: Seeds.derive(context.seed, UInt64(s) + 1, 0, SeedPurpose.sampling.rawValue)))
            }
        }
        self.rollout = strategies
        rolloutListing = Match.seatMask(strategies ?? []) { $0.readsLegalActions }
    }

    public func chooseAction(_ observation: G.State.Observation, legal: ActionBuffer) -> Int {
        search(legal: legal, sample: observation.sampler())
    }

    public var followsActions: Bool { settings.reuse }

    public func didApply(_ action: Int, by seat: Int) { played.append(action) }

    /// The node reached from the current root by the actions played since, or nil when
    /// one of them has no node.
    private func keptRoot(_ work: MCTSWork) -> Int32? {
        guard settings.reuse, !work.nodes.isEmpty else { return nil }
        var node = work.root
        for action in played {
            var child = work.nodes[Int(node)].firstChild
            while child >= 0 && Int(work.nodes[Int(child)].action) != action { child = work.nodes[Int(child)].sibling }
            guard child >= 0 else { return nil }
            node = child
        }
        return node
    }

    /// Searches from the states `sample` draws (one per iteration) and returns the root
    /// child with the most visits among `legal` (ties: the lower action).
    func search(legal: ActionBuffer, sample: (inout LabRandom) -> G.State) -> Int {
        defer { played.removeAll(keepingCapacity: true) }
        if legal.count == 1 { return legal[0] }
        // Own the working set for the search (swapped, so its arrays stay unique).
        var work = MCTSWork.empty
        swap(&work, &self.work)
        defer { swap(&work, &self.work) }
        if let kept = keptRoot(work) {
            work.root = kept
        } else {
            work.nodes.removeAll(keepingCapacity: true)
            work.nodes.append(MCTSNode(action: -1, mover: -1))
            work.root = 0
        }
        if settings.millis > 0 {
            // A time budget: at least one iteration, then until the budget is spent. The
            // clock is read once per iteration, which costs far less than the iteration.
            let budget = UInt64(settings.millis) * 1_000_000
            let start = clock.nanoseconds()
            repeat {
                var state = sample(&work.rng)
                iterate(&state, &work)
            } while clock.nanoseconds() &- start < budget
        } else {
            for _ in 0..<settings.iterations {
                var state = sample(&work.rng)
                iterate(&state, &work)
            }
        }
        // The most visited root child among the legal actions (ties: the lower action).
        var best = legal[0], bestVisits: Int32 = -1
        var child = work.nodes[Int(work.root)].firstChild
        while child >= 0 {
            let node = work.nodes[Int(child)]
            if legal.contains(Int(node.action)) && (node.visits > bestVisits || (node.visits == bestVisits && Int(node.action) < best)) {
                best = Int(node.action)
                bestVisits = node.visits
            }
            child = node.sibling
        }
        return best
    }

    /// One iteration from the sampled `state`: select down the tree (UCT over the
    /// children legal here), expand one untried legal action, roll out, back up.
    private func iterate(_ state: inout G.State, _ work: inout MCTSWork) {
        work.path.removeAll(keepingCapacity: true)
        work.path.append(work.root)
        var current = work.root
        work.reserveMarks(actionSpace: state.actionSpaceSize)
        // Selection and expansion.
        while !state.isTerminal {
            state.legalActionsInPlace(into: &work.buffer)
            let next = work.step(from: current, mover: state.currentSeat, exploration: settings.exploration)
            state.apply(Int(work.nodes[Int(next.node)].action))
            work.path.append(next.node)
            current = next.node
            if next.expanded { break }
        }
        // Rollout.
        if let rollout {
            var depth = 0
            while !state.isTerminal && depth < settings.rolloutDepth {
                let mover = state.currentSeat
                // A strategy that decides from its observation alone is handed no list.
                if rolloutListing & (1 &<< UInt64(mover)) != 0 { state.legalActionsInPlace(into: &work.buffer) } else { work.buffer.removeAll() }
                state.apply(rollout[mover].chooseAction(state.observationInPlace(for: mover), legal: work.buffer))
                depth += 1
            }
        } else {
            // Uniform draws from the list, played by the game in one call (Quortex names
            // each by its index without writing the list of a few hundred placements).
            _ = state.playUniformRollout(upTo: settings.rolloutDepth, using: &work.rng, buffer: &work.buffer)
        }
        if let evaluator, !state.isTerminal {
            work.values.withUnsafeMutableBufferPointer { evaluator.evaluate(state, into: $0) }
        } else {
            state.searchValuesInPlace(into: &work.values)
        }
        work.backUp()
    }

    /// Nodes in the tree after the last search (for tests).
    var treeSize: Int { work.nodes.count }
    /// Mean reward of each root child after the last search (for tests).
    var rootMeans: [Int: Double] {
        var out: [Int: Double] = [:]
        let nodes = work.nodes
        var child = nodes.isEmpty ? -1 : nodes[Int(work.root)].firstChild
        while child >= 0 { let n = nodes[Int(child)]; out[Int(n.action)] = n.reward / Double(max(n.visits, 1)); child = n.sibling }
        return out
    }

    /// Visits of each root child after the last search (for tests).
    var rootVisits: [Int: Int] {
        var out: [Int: Int] = [:]
        let nodes = work.nodes
        var child = nodes.isEmpty ? -1 : nodes[Int(work.root)].firstChild
        while child >= 0 { out[Int(nodes[Int(child)].action)] = Int(nodes[Int(child)].visits); child = nodes[Int(child)].sibling }
        return out
    }
}

/// `mcts-perfect`: the same search on the true state, hidden parts included. It exists
/// only to measure what hidden information is worth (against ``MCTS`` at an equal
/// budget); no player could meet its strength.
public final class PerfectInformationMCTS<G: Game>: PerfectInformationStrategy {
    let search: MCTS<G>

    public init(_ context: StrategyContext<G>, settings: MCTSSettings, rollout: StrategyFactory<G>? = nil,
                evaluator: (any LeafEvaluator<G.State>)? = nil, clock: SearchClock = .monotonic) {
        search = MCTS(context, settings: settings, rollout: rollout, evaluator: evaluator, clock: clock)
    }

    public func chooseAction(state: G.State, legal: ActionBuffer) -> Int {
        search.search(legal: legal) { _ in state }
    }

    public var followsActions: Bool { search.followsActions }

    public func didApply(_ action: Int, by seat: Int) { search.didApply(action, by: seat) }

    /// Never called by ``Match/play(_:seed:strategies:buffer:observe:)``, which hands a
    /// perfect-information strategy the state; here for the protocol.
    public func chooseAction(_ observation: G.State.Observation, legal: ActionBuffer) -> Int {
        search.chooseAction(observation, legal: legal)
    }
}
