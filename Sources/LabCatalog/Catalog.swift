import ConnectFour
import LabCore
import Pictures
import TicTacToe

/// The registry: the one place where concrete games and strategies meet.
public enum Catalog {
    /// Every game, in listing order. Adding a game is one entry here.
    public static let games: [any GameEntry] = [
        RailEntry(),
        QuortexEntry(),
        CatalogEntry(ConnectFourGame.self, draw: ConnectFourGame.scene(of:), decisive: true) { _ in ConnectFourFeatures() },
        CatalogEntry(TicTacToeGame.self, decisive: true) { _ in TicTacToeFeatures() },
    ]

    /// Every game's picture of its board counts, for reports.
    public static var boardDrawings: [any BoardCountDrawing] { games.compactMap(\.boardDrawing) }

    /// The game called `name`, or an error listing the games.
    public static func game(named name: String) throws(InputError) -> any GameEntry {
        guard let game = games.first(where: { $0.name == name }) else {
            throw InputError("unknown game '\(name.excerpt())'\(Suggestion.didYouMean(name, among: games.map(\.name))); available: \(games.map(\.name).joined(separator: ", "))")
        }
        return game
    }

    /// The game that takes a map file, when exactly one does (the default of commands
    /// about maps).
    public static func mapGame() throws(InputError) -> any GameEntry {
        let withMaps = games.filter(\.usesMap)
        guard !withMaps.isEmpty else { throw InputError("no game takes a map file") }
        guard withMaps.count == 1 else {
            throw InputError("more than one game takes a map (\(withMaps.map(\.name).joined(separator: ", "))): name one with --game")
        }
        return withMaps[0]
    }

    /// Parses and checks a strategy spec for `game` without making a table.
    public static func validate(_ text: String, for game: any GameEntry) throws(InputError) -> StrategySpec {
        let spec = try StrategySpec.parse(text)
        guard let info = game.strategies.first(where: { $0.name == spec.name }) else {
            let names = game.strategies.map(\.name)
            throw InputError("unknown strategy '\(spec.name.excerpt())' for \(game.name)\(Suggestion.didYouMean(spec.name, among: names)); available: \(names.joined(separator: ", "))")
        }
        _ = try ResolvedParameters(spec: spec, accepted: info.parameters, openPrefix: info.openPrefix)
        return spec
    }
}
