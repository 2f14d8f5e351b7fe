import Players

/// What a strategy's factory is made for beyond its parameters: the entrant it plays
/// for (an external bot's log is named after it) and the bots' session of the run.
public struct StrategyEnvironment: Sendable {
    /// The entrant's name in a tournament; nil outside one.
    public var entrant: String?
    /// The session that owns the run's bot processes and logs; nil outside a run.
    public var bots: BotSession?

    public init(entrant: String? = nil, bots: BotSession? = nil) {
        self.entrant = entrant
        self.bots = bots
    }
}
