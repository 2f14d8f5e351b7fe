import Players

/// What a table is made from: rule settings, an optional map file and one strategy
/// spec per seat (seat order).
public struct TableSetup: Sendable {
    public var rules: [(key: String, value: String)]
    public var mapPath: String?
    public var players: [StrategySpec]
    /// The entrant of each seat (seat order), in a tournament.
    public var entrants: [String]?
    /// The run's bot session (external players' processes and logs).
    public var bots: BotSession?

    public init(rules: [(key: String, value: String)] = [], mapPath: String? = nil, players: [StrategySpec],
                entrants: [String]? = nil, bots: BotSession? = nil) {
        self.rules = rules
        self.mapPath = mapPath
        self.players = players
        self.entrants = entrants
        self.bots = bots
    }
}
