import LabCore
import Search

/// `mcts(...)` and `mcts-perfect(...)` for a game whose other strategies are `base`:
/// the rollout policy is any of those, by name, with its default parameters.
enum SearchEntries {
    static func parameters(rollouts: [String]) -> [ParameterSpec] {
        [
            ParameterSpec("iterations", .integer(1...10_000_000), default: "800", "search iterations per move (deterministic)"),
            ParameterSpec("millis", .integer(0...3_600_000), default: "0", "a time budget per move instead, in ms (0: use iterations)"),
            ParameterSpec("c", .number(0...100), default: "1.4", "UCT exploration constant"),
            ParameterSpec("rollout", .choice(rollouts), default: "random", "the rollout policy: a strategy of this game"),
            ParameterSpec("rolloutDepth", .integer(0...100_000), default: "60",
                          "actions per rollout before the game's estimate stands in for the result"),
            ParameterSpec("reuse", .flag, default: "false", "keep the subtree of the moves played between searches"),
        ]
    }

    static func entries<G: Game>(base: [StrategyEntry<G>]) -> [StrategyEntry<G>] {
        let rollouts = base.map(\.name)
        @Sendable func setup(_ params: ResolvedParameters) throws(InputError) -> (MCTSSettings, StrategyFactory<G>?) {
            let settings = MCTSSettings(iterations: params.integer("iterations"), millis: params.integer("millis"),
                                        exploration: params.number("c"), rolloutDepth: params.integer("rolloutDepth"),
                                        reuse: params.flag("reuse"))
            let name = params.text("rollout")
            guard name != "random", let entry = base.first(where: { $0.name == name }) else { return (settings, nil) }
            return (settings, try entry.make(ResolvedParameters(spec: StrategySpec(name: name), accepted: entry.parameters)))
        }
        return [
            StrategyEntry(name: "mcts",
                          summary: "information-set Monte Carlo tree search (UCT, vector rewards, samples hidden state from the observation)",
                          parameters: parameters(rollouts: rollouts)) { params throws(InputError) in
                let (settings, rollout) = try setup(params)
                return { context in MCTS(context, settings: settings, rollout: rollout) }
            },
            StrategyEntry(name: "mcts-perfect",
                          summary: "MCTS that reads the true hidden state: only to measure what hidden information is worth",
                          parameters: parameters(rollouts: rollouts)) { params throws(InputError) in
                let (settings, rollout) = try setup(params)
                return { context in PerfectInformationMCTS(context, settings: settings, rollout: rollout) }
            },
        ]
    }
}
