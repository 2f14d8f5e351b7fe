import LabCore
import Search

/// `mcts(...)` and `mcts-perfect(...)` for a game whose other strategies are `base`:
/// the rollout policy is any of those, by name, with its default parameters.
///
/// The parameters' defaults are the game's: each game entry hands in its own
/// ``MCTSSettings`` (measured against its documented CPU, see docs/strategies.md); the
/// Search module's own defaults know no game.
enum SearchEntries {
    static let iterations = Parameter<Int>("iterations")
    static let millis = Parameter<Int>("millis")
    static let exploration = Parameter<Double>("c")
    static let rollout = Parameter<String>("rollout")
    static let rolloutDepth = Parameter<Int>("rolloutDepth")
    static let reuse = Parameter<Bool>("reuse")
    static let evaluator = Parameter<String>("evaluator")

    static func parameters(rollouts: [String], models: Bool, defaults: MCTSSettings) -> [ParameterSpec] {
        var list: [ParameterSpec] = [
            iterations.spec(1...10_000_000, default: defaults.iterations, "search iterations per move (deterministic)"),
            millis.spec(0...3_600_000, default: defaults.millis, "a time budget per move instead, in ms (0: use iterations)"),
            exploration.spec(0...100, default: defaults.exploration, "UCT exploration constant"),
            rollout.choice(rollouts, default: "random", "the rollout policy: a strategy of this game"),
            rolloutDepth.spec(0...100_000, default: defaults.rolloutDepth,
                              "actions per rollout before the game's estimate (or the evaluator) stands in for the result; 0 by default with an evaluator"),
            reuse.spec(default: defaults.reuse, "keep the subtree of the moves played between searches"),
        ]
        if models {
            list.append(evaluator.file(keywords: ["none", ShippedModel.keyword], default: "none",
                                      "a model file whose values score the leaves (after rolloutDepth actions) instead of the game's estimate; shipped: the game's shipped model"))
        }
        return list
    }

    /// - Parameter defaults: the game's defaults for the parameters not given (the
    ///   rollout policy's default is always `random`).
    static func entries<G: Game>(base: [StrategyEntry<G>], models: ModelSupport<G>? = nil,
                                 defaults: MCTSSettings = MCTSSettings()) -> [StrategyEntry<G>] {
        let rollouts = base.map(\.name)
        @Sendable func setup(_ params: ResolvedParameters, _ game: G) throws(InputError)
            -> (MCTSSettings, StrategyFactory<G>?, (@Sendable () -> any LeafEvaluator<G.State>)?) {
            let path = params.ifDeclared(evaluator) ?? "none"
            let loaded = try models.flatMap { support throws(InputError) in path == "none" ? nil : try support.load(path, game) }
            let depth = loaded != nil && !params.isGiven(rolloutDepth) ? 0 : params[rolloutDepth]
            let settings = MCTSSettings(iterations: params[iterations], millis: params[millis],
                                        exploration: params[exploration], rolloutDepth: depth,
                                        reuse: params[reuse])
            let name = params[rollout]
            guard name != "random", let entry = base.first(where: { $0.name == name }) else { return (settings, nil, loaded?.leaf) }
            return (settings, try entry.make(ResolvedParameters(spec: StrategySpec(name: name), accepted: entry.parameters), game, StrategyEnvironment()), loaded?.leaf)
        }
        return [
            StrategyEntry(name: "mcts",
                          summary: "information-set Monte Carlo tree search (UCT, vector rewards, samples hidden state from the observation)",
                          parameters: parameters(rollouts: rollouts, models: models != nil, defaults: defaults)) { params, game throws(InputError) in
                let (settings, rollout, leaf) = try setup(params, game)
                return { context in MCTS(context, settings: settings, rollout: rollout, evaluator: leaf?()) }
            },
            StrategyEntry(name: "mcts-perfect",
                          summary: "MCTS that reads the true hidden state: only to measure what hidden information is worth",
                          parameters: parameters(rollouts: rollouts, models: models != nil, defaults: defaults)) { params, game throws(InputError) in
                let (settings, rollout, leaf) = try setup(params, game)
                return { context in PerfectInformationMCTS(context, settings: settings, rollout: rollout, evaluator: leaf?()) }
            },
        ]
    }
}
