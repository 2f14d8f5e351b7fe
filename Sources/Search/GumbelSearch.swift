import LabCore

/// A Gumbel AlphaZero search over one decision, run as steps so that the caller batches
/// evaluations: ``begin(state:seat:legal:rng:)``, then, while ``pending`` is not empty,
/// evaluate those positions and hand the results to ``resume(logits:values:)``; once
/// ``isDone``, ``action`` and ``improvedPolicy`` hold the result.
///
/// - The root: the top `considered` actions of logits + Gumbel noise, then sequential
///   halving: in each phase every remaining action gets the same share of the
///   simulations, one simulation each per round (a round's leaves are one batch), and the
///   better half by g + logits + σ(completed Q) goes on. The action is the best remaining
///   one by that score; the policy target is softmax(logits + σ(completed Q)).
/// - Below the root: the deterministic selection of Gumbel MuZero, argmax of the improved
///   policy minus the visit share, among the actions legal in the simulation's sample.
/// - Hidden state: each simulation samples a full state from the root's observation
///   (the caller's `sample`); a node's statistics are shared by every sample reaching it.
/// - Values are vectors, one per seat (each seat maximises its own share: max^n).
public final class GumbelSearch<State: GameState> {
    public let settings: GumbelSettings
    public let model: any PolicyValueModel<State>
    private let actionCount: Int
    private let seatCount: Int
    private var nodes: [GumbelNode] = []
    private var logitStore: [Float] = []
    private var valueStore: [Double] = []
    /// Positions waiting for an evaluation: the node to expand, the sampled state there
    /// and the path from the root to it.
    public private(set) var pending: [(node: Int, state: State, seat: Int)] = []
    private var pendingPaths: [[Int]] = []
    /// The root's candidates: action, Gumbel noise, logit, still considered.
    private var candidates: [(action: Int, gumbel: Double, logit: Double)] = []
    private var remaining: [Int] = []
    private var phaseVisits = 0
    private var phaseRoundsLeft = 0
    private var simulationsLeft = 0
    private var rootState: State?
    private var rootLegal: [Int] = []
    private var sampler: ((inout LabRandom) -> State)?
    private var rng = LabRandom(seed: 0)
    /// The root noise of the decision under way.
    private var noise = 0.0
    private var buffer = ActionBuffer()
    private var playouts: Playouts<State>  // mixed into each leaf's value (``GumbelSettings/rollouts``)
    public private(set) var isDone = false
    /// The chosen action, once done.
    public private(set) var action = -1
    /// Per legal root action (in `rootLegal` order), the improved policy, once done.
    public private(set) var improvedPolicy: [(action: Int, probability: Double)] = []

    public init(model: any PolicyValueModel<State>, settings: GumbelSettings) {
        self.model = model
        self.settings = settings
        actionCount = model.actionCount
        seatCount = model.seatCount
        playouts = Playouts(seats: model.seatCount)
    }

    /// Starts a decision for `seat` in `state` (a full state consistent with the seat's
    /// observation; for hidden state, `sample` draws others for the simulations).
    /// - Parameter gumbelScale: the root noise of this decision (nil: the settings'), for
    ///   self-play's schedule: noise in the opening, none after it.
    public func begin(state: State, seat: Int, legal: ActionBuffer, rng: LabRandom, gumbelScale: Double? = nil,
                      sample: ((inout LabRandom) -> State)? = nil) {
        noise = gumbelScale ?? settings.gumbelScale
        nodes.removeAll(keepingCapacity: true)
        logitStore.removeAll(keepingCapacity: true)
        valueStore.removeAll(keepingCapacity: true)
        pending.removeAll(keepingCapacity: true)
        pendingPaths.removeAll(keepingCapacity: true)
        candidates.removeAll(keepingCapacity: true)
        improvedPolicy.removeAll(keepingCapacity: true)
        self.rng = rng
        sampler = sample
        rootState = state
        rootLegal = (0..<legal.count).map { legal[$0] }
        isDone = false
        action = -1
        _ = newNode(action: -1)
        if let win = winningAction(state, mover: seat, legal: legal) {
            // A win on the spot: no search, and the policy target is that move.
            action = win
            improvedPolicy = rootLegal.map { ($0, $0 == win ? 1 : 0) }
            isDone = true
            return
        }
        pending.append((0, state, seat))
        pendingPaths.append([0])
    }

    /// With decisive moves on, an action of `legal` after which the match is over with
    /// `mover` the winner (its share the largest and not everyone's), if there is one.
    private func winningAction(_ state: State, mover: Int, legal: ActionBuffer) -> Int? {
        guard settings.decisive else { return nil }
        return state.decisiveAction(for: mover, among: legal)
    }

    /// ``winningAction(_:mover:legal:)`` for the mover of `state`, a position below the root.
    private func decisiveAction(_ state: State) -> Int? {
        guard settings.decisive else { return nil }
        state.legalActions(into: &buffer)
        return winningAction(state, mover: state.currentSeat, legal: buffer)
    }

    /// Marks the result as taken: the search waits for its next ``begin(state:seat:legal:rng:sample:)``.
    public func reset() {
        isDone = false
        pending.removeAll(keepingCapacity: true)
        pendingPaths.removeAll(keepingCapacity: true)
    }

    private func newNode(action: Int, chance: Int = 0) -> Int {
        nodes.append(GumbelNode(action: Int32(action), chance: Int32(chance), values: Int32(valueStore.count)))
        valueStore.append(contentsOf: repeatElement(0, count: seatCount))
        return nodes.count - 1
    }

    /// Takes the evaluations of ``pending`` (`pending.count` rows of logits and values,
    /// the observer first) and runs the search on to its next batch or its end.
    public func resume(logits: UnsafePointer<Float>, values: UnsafePointer<Float>) {
        let evaluated = pending, paths = pendingPaths
        pending.removeAll(keepingCapacity: true)
        pendingPaths.removeAll(keepingCapacity: true)
        for k in evaluated.indices {  // by index: enumerated() allocated a frame for each element read
            let leaf = evaluated[k]
            var node = nodes[leaf.node]
            node.mover = Int32(leaf.seat)
            node.logits = Int32(logitStore.count)
            logitStore.append(contentsOf: UnsafeBufferPointer(start: logits + k * actionCount, count: actionCount))
            // The values come observer first: back to seat order.
            var vector = [Double](repeating: 0, count: seatCount)
            for s in 0..<seatCount { vector[(leaf.seat + s) % seatCount] = Double(values[k * seatCount + s]) }
            if settings.rollouts > 0 { playouts.mix(from: leaf.state, settings: settings, rng: &rng, into: &vector) }
            node.prior = vector[leaf.seat]
            nodes[leaf.node] = node
            backup(paths[k], vector)
        }
        if candidates.isEmpty && !isDone {
            startRoot()
        } else {
            finishRoundIfNeeded()
        }
    }

    /// The root was evaluated: choose the candidates and start the first phase.
    private func startRoot() {
        let root = nodes[0]
        for action in rootLegal {
            let g = noise > 0 ? noise * Self.gumbel(&rng) : 0
            candidates.append((action, g, Double(logitStore[Int(root.logits) + action])))
        }
        let m = min(settings.considered, candidates.count)
        remaining = Array(candidates.indices.sorted { score(candidates[$0], q: 0) > score(candidates[$1], q: 0) || (score(candidates[$0], q: 0) == score(candidates[$1], q: 0) && candidates[$0].action < candidates[$1].action) }.prefix(m))
        simulationsLeft = settings.simulations
        if remaining.count <= 1 || simulationsLeft == 0 {
            finish()
            return
        }
        startPhase()
    }

    private func score(_ c: (action: Int, gumbel: Double, logit: Double), q: Double) -> Double {
        c.gumbel + c.logit + q
    }

    /// Splits what is left of the budget over the phases still to come, as sequential
    /// halving does: each remaining action gets `phaseVisits` simulations this phase.
    private func startPhase() {
        let phases = max(1, Int((Double(remaining.count)).logarithm2.rounded(.up)))
        phaseVisits = max(1, simulationsLeft / (phases * remaining.count))
        phaseRoundsLeft = phaseVisits
        startRound()
    }

    /// One simulation under each remaining root action: the leaves they reach are the
    /// next batch (terminal ones are backed up at once).
    private func startRound() {
        while pending.isEmpty {
            guard phaseRoundsLeft > 0, simulationsLeft > 0 else {
                endPhase()
                return
            }
            phaseRoundsLeft -= 1
            for index in remaining where simulationsLeft > 0 {
                simulationsLeft -= 1
                simulate(from: index)
            }
        }
    }

    private func finishRoundIfNeeded() {
        if pending.isEmpty && !isDone { startRound() }
    }

    /// Keeps the better half of the remaining actions, or ends the search.
    private func endPhase() {
        let sigma = rootSigma()
        let ranked = remaining.sorted { a, b in
            let sa = score(candidates[a], q: sigma[a])
            let sb = score(candidates[b], q: sigma[b])
            return sa > sb || (sa == sb && candidates[a].action < candidates[b].action)
        }
        remaining = Array(ranked.prefix(max(1, (remaining.count + 1) / 2)))
        if remaining.count <= 1 || simulationsLeft <= 0 {
            finish()
        } else {
            startPhase()
        }
    }

    /// One simulation down root action `candidates[index]`: a sampled state, then the
    /// tree's selection to a leaf, which waits in ``pending`` (or, terminal, is backed up).
    private func simulate(from index: Int) {
        var state = sampler.map { $0(&rng) } ?? rootState!
        let rootAction = candidates[index].action
        state.apply(rootAction)
        var node = child(of: 0, action: rootAction, chance: state.chanceOutcome)
        var path = [0, node]
        while true {
            if state.isTerminal {
                backup(path, terminalValues(state))
                return
            }
            let chosen: Int
            if nodes[node].decisive >= 0 {
                chosen = Int(nodes[node].decisive)
            } else if nodes[node].logits >= 0 {
                state.legalActionsInPlace(into: &buffer)
                chosen = select(node, legal: buffer)
            } else if let win = decisiveAction(state) {
                // The mover wins here: the node's value is that win, with no evaluation.
                nodes[node].decisive = Int32(win)
                nodes[node].mover = Int32(state.currentSeat)
                chosen = win
            } else {
                // A leaf already waiting in this round (the last node of a pending path) is
                // evaluated once: this simulation backs up the value of its parent's view
                // instead (rare: distinct root actions lead to distinct subtrees).
                if pendingPaths.contains(where: { $0.last == node }) {
                    backup(path, Array(valueStore[Int(nodes[path[path.count - 2]].values)..<Int(nodes[path[path.count - 2]].values) + seatCount]).map { $0 / Double(max(1, nodes[path[path.count - 2]].visits)) })
                    return
                }
                pending.append((node, state, state.currentSeat))
                pendingPaths.append(path)
                return
            }
            state.apply(chosen)
            node = child(of: node, action: chosen, chance: state.chanceOutcome)
            path.append(node)
        }
    }

    /// The child of `node` for `action` followed by the chance outcome `chance`
    /// (``GameState/chanceOutcome``), made when missing. An action's children for
    /// different outcomes (Quortex: the tile the next mover draws) are apart, so each
    /// holds the evaluation and the replies of its own position; the action's statistics
    /// are their sum (``stats(of:action:)``), the samples' mean over the outcomes.
    private func child(of node: Int, action: Int, chance: Int) -> Int {
        var c = nodes[node].firstChild
        while c >= 0 {
            if Int(nodes[Int(c)].action) == action && Int(nodes[Int(c)].chance) == chance { return Int(c) }
            c = nodes[Int(c)].sibling
        }
        let made = newNode(action: action, chance: chance)
        nodes[made].sibling = nodes[node].firstChild
        nodes[node].firstChild = Int32(made)
        return made
    }

    /// Gumbel MuZero's selection below the root: argmax over `legal` of
    /// π'(a) − N(a) / (1 + Σ N), π' = softmax(logits + σ(completed Q)).
    private func select(_ node: Int, legal: ActionBuffer) -> Int {
        let improved = improved(node, legal: (0..<legal.count).map { legal[$0] })
        let counts = improved.map { visits(of: node, action: $0.action) }
        let total = counts.reduce(0, +)
        var best = improved[0].action, bestScore = -Double.infinity
        for ((action, p), n) in zip(improved, counts) {
            let s = p - Double(n) / Double(1 + total)
            if s > bestScore || (s == bestScore && action < best) {
                best = action
                bestScore = s
            }
        }
        return best
    }

    private func visits(of node: Int, action: Int) -> Int { stats(of: node, action: action, seat: 0).visits }

    /// The visits and the value sum for `seat` of `action` at `node`: the sums over its
    /// children, one for each chance outcome the simulations met after it.
    private func stats(of node: Int, action: Int, seat: Int) -> (visits: Int, value: Double) {
        var visits = 0, value = 0.0
        forEachChild(of: node, action: action) { child in
            visits += Int(child.visits)
            value += valueStore[Int(child.values) + seat]
        }
        return (visits, value)
    }

    /// Calls `body` with each child of `node` for `action`, one for each chance outcome.
    private func forEachChild(of node: Int, action: Int, _ body: (GumbelNode) -> Void) {
        var c = nodes[node].firstChild
        while c >= 0 {
            let child = nodes[Int(c)]
            if Int(child.action) == action { body(child) }
            c = child.sibling
        }
    }

    /// softmax(logits + σ(completed Q)) over `actions` at `node`.
    private func improved(_ node: Int, legal actions: [Int]) -> [(action: Int, probability: Double)] {
        let base = Int(nodes[node].logits)
        let sigma = sigmaQ(node, legal: actions)
        let scores = actions.indices.map { k in Double(logitStore[base + actions[k]]) + sigma[k] }
        return zip(actions, Self.softmax(scores)).map { ($0, $1) }
    }

    /// σ(completed Q) per action of `actions` at `node`, as mctx's
    /// `qtransform_completed_by_mix_value`: a visited child's Q for the node's mover, an
    /// unvisited one the mixed value (the node's own value and the prior-weighted mean Q of
    /// its visited children); rescaled by the min and max over the actions, so that the
    /// best gets 1 and the worst 0 whatever the scale of the game's values; times
    /// (cVisit + max visits) · cScale.
    private func sigmaQ(_ node: Int, legal actions: [Int]) -> [Double] {
        let base = Int(nodes[node].logits)
        let priors = Self.softmax(actions.map { Double(logitStore[base + $0]) })
        let mover = Int(nodes[node].mover)
        var visitedPrior = 0.0, weightedQ = 0.0, childVisits = 0
        var q = [Double?](repeating: nil, count: actions.count)
        var maxVisits = 0
        for (k, action) in actions.enumerated() {
            let (n, sum) = stats(of: node, action: action, seat: mover)
            guard n > 0 else { continue }
            q[k] = sum / Double(n)
            visitedPrior += priors[k]
            weightedQ += priors[k] * q[k]!
            childVisits += n
            maxVisits = max(maxVisits, n)
        }
        let own = nodes[node].prior
        let mixed = visitedPrior > 0 ? (own + Double(childVisits) * weightedQ / visitedPrior) / Double(1 + childVisits) : own
        let completed = q.map { $0 ?? mixed }
        let low = completed.min() ?? 0, high = completed.max() ?? 0
        let range = max(high - low, 1e-8)
        let scale = (settings.cVisit + Double(maxVisits)) * settings.cScale
        return completed.map { scale * ($0 - low) / range }
    }

    /// σ(completed Q) of each root candidate (indexed as `candidates`).
    private func rootSigma() -> [Double] {
        sigmaQ(0, legal: candidates.map(\.action))
    }

    private func finish() {
        let sigma = candidates.isEmpty ? [] : rootSigma()
        var best = remaining.first ?? 0, bestScore = -Double.infinity
        for index in remaining {
            let s = score(candidates[index], q: sigma[index])
            if s > bestScore || (s == bestScore && candidates[index].action < candidates[best].action) {
                best = index
                bestScore = s
            }
        }
        action = candidates.isEmpty ? (rootLegal.first ?? -1) : candidates[best].action
        improvedPolicy = rootLegal.isEmpty ? [] : improved(0, legal: rootLegal)
        isDone = true
        pending.removeAll()
    }

    /// Adds `vector` (per seat) to every node on `path` and counts the visit.
    private func backup(_ path: [Int], _ vector: [Double]) {
        for n in path {
            nodes[n].visits += 1
            let at = Int(nodes[n].values)
            for s in 0..<seatCount { valueStore[at + s] += vector[s] }
        }
    }

    /// A finished match's value per seat: each seat's share of the scores.
    func terminalValues(_ state: State) -> [Double] { Outcome.shares(state.outcome, seats: seatCount) }

    /// The visits of root action `action`'s child for each chance outcome the simulations
    /// met after it (for tests).
    func rootChildren(of action: Int) -> [Int: Int] {
        var out: [Int: Int] = [:]
        forEachChild(of: 0, action: action) { out[Int($0.chance), default: 0] += Int($0.visits) }
        return out
    }

    /// The chance outcome node `node` stands for (for tests).
    func chance(ofNode node: Int) -> Int { Int(nodes[node].chance) }
    /// The value a node was given for its mover when it was evaluated (for tests).
    func prior(ofNode node: Int) -> Double { nodes[node].prior }

    /// The root's visit count per legal action after the search (for tests).
    public var rootVisits: [Int: Int] {
        var out: [Int: Int] = [:]
        for a in rootLegal { out[a] = visits(of: 0, action: a) }
        return out
    }
}
