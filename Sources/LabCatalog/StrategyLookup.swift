import LabCore

/// A game's strategies found by spec: one factory per seat, teachers for training.
enum StrategyLookup {
    /// One factory per seat, for `specs` in seat order; `setup` (when given) says whose
    /// entrant each seat is and which run's bot session it plays in.
    static func resolve<G: Game>(_ specs: [StrategySpec], in entries: [StrategyEntry<G>], game: G,
                          setup: TableSetup? = nil) throws(InputError) -> [StrategyFactory<G>] {
        var factories: [StrategyFactory<G>] = []
        for (seat, spec) in specs.enumerated() {
            let environment = StrategyEnvironment(entrant: setup?.entrants?[seat], bots: setup?.bots)
            factories.append(try resolve(spec, in: entries, game: game, environment: environment))
        }
        return factories
    }

    /// Teachers for self-play training: any strategy but an external bot (training plays
    /// on every core with one table, and a bot process serves one match at a time).
    static func teachers<G: Game>(_ specs: [StrategySpec], in entries: [StrategyEntry<G>], game: G) throws(InputError) -> [StrategyFactory<G>] {
        if specs.contains(where: { $0.name == "external" }) {
            throw InputError("--teacher: an external bot cannot teach: training plays on every core from one table, and a bot process "
                + "serves one match at a time; play it in a tournament, or teach with the lab's own strategies")
        }
        return try resolve(specs, in: entries, game: game)
    }

    /// Finds strategy `spec.name` among `entries` or lists the ones that exist.
    static func resolve<G: Game>(_ spec: StrategySpec, in entries: [StrategyEntry<G>], game: G,
                          environment: StrategyEnvironment = StrategyEnvironment()) throws(InputError) -> StrategyFactory<G> {
        guard let entry = entries.first(where: { $0.name == spec.name }) else {
            let names = entries.map(\.name)
            throw InputError("unknown strategy '\(spec.name.excerpt())' for \(G.name)\(Suggestion.didYouMean(spec.name, among: names)); available: \(names.joined(separator: ", "))")
        }
        return try entry.make(ResolvedParameters(spec: spec, accepted: entry.parameters, openPrefix: entry.openPrefix), game, environment)
    }
}
