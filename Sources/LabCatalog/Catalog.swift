import LabCore

/// The registry: the one place where concrete games and strategies meet.
public enum Catalog {
    /// Every game, in listing order. Adding a game is one entry here.
    public static let games: [any GameEntry] = [RailEntry(), QuortexEntry()]

    /// The game called `name`, or an error listing the games.
    public static func game(named name: String) throws(InputError) -> any GameEntry {
        guard let game = games.first(where: { $0.name == name }) else {
            throw InputError("unknown game '\(name)'\(Suggestion.didYouMean(name, among: games.map(\.name))); available: \(games.map(\.name).joined(separator: ", "))")
        }
        return game
    }

    /// Parses and checks a strategy spec for `game` without making a table.
    public static func validate(_ text: String, for game: any GameEntry) throws(InputError) -> StrategySpec {
        let spec = try StrategySpec.parse(text)
        guard let info = game.strategies.first(where: { $0.name == spec.name }) else {
            let names = game.strategies.map(\.name)
            throw InputError("unknown strategy '\(spec.name)' for \(game.name)\(Suggestion.didYouMean(spec.name, among: names)); available: \(names.joined(separator: ", "))")
        }
        _ = try ResolvedParameters(spec: spec, accepted: info.parameters, openPrefix: info.openPrefix)
        return spec
    }
}
