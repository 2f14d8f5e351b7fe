/// What a game says of itself for the catalog: a line of description, its seats, its rule
/// knobs and how it is made from `KEY=VALUE` settings. A game that also speaks the player
/// protocol is listed and played from one catalog line (LabCatalog's `CatalogEntry`):
/// `random`, search over it, external bots and, with a feature encoder, the learned players.
public protocol CatalogGame: Game {
    /// One line for `oplab games`: the game, its board and its players.
    static var summary: String { get }
    /// Seats the game takes.
    static var seatRange: ClosedRange<Int> { get }
    /// The rule knobs (`--rule KEY=VALUE`); none by default.
    static var knobs: [RuleKnob] { get }
    /// The game from rule settings and a seat count; an unknown knob, a bad value or a seat
    /// count outside ``seatRange`` is an error that says what is accepted.
    init(rules settings: [(key: String, value: String)], seatCount: Int) throws(InputError)
    /// What `oplab play` and traces print about the setup (`board 7 x 6, standard rules`).
    var setupLines: [String] { get }
}

extension CatalogGame {
    public static var knobs: [RuleKnob] { [] }

    /// The checks of a game without rule knobs (`standard` names its one rule set, e.g.
    /// `the standard 7 x 6 game`): any setting is refused, and a seat count outside
    /// ``seatRange``.
    public static func checkStandardRules(_ settings: [(key: String, value: String)], seatCount: Int,
                                          standard: String) throws(InputError) {
        if let (key, value) = settings.first {
            throw InputError("rule \(key)=\(value): \(name) has no rule knobs (it is \(standard))")
        }
        guard seatRange.contains(seatCount) else {
            let seats = seatRange.count == 1 ? "\(seatRange.lowerBound)" : "\(seatRange.lowerBound)-\(seatRange.upperBound)"
            throw InputError("\(name) takes \(seats) seats; got \(seatCount)")
        }
    }
}
