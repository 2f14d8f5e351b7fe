import LabCore

/// The rule book's variant knobs (rail-game.md), each with the documented default.
public struct RailRules: Sendable, Equatable {
    /// Where spent cards go (rule book, "Spent cards").
    public enum SpentCards: String, Sendable, CaseIterable {
        /// Back into the deck, which is reshuffled (as shipped).
        case recycle
        /// Out of the game for good.
        case discard
    }

    /// When an empty train deck ends the game (rule book, "End of the game" 2).
    public enum DeckExhaustion: String, Sendable, CaseIterable {
        /// When the deck is empty and the mover can do nothing but pass.
        case whenStuck
        /// As soon as the deck is empty at the start of a turn.
        case immediate
    }

    /// Cards dealt to each hand at setup (the SRS deals none).
    public var initialHand = 0
    public var spentCards = SpentCards.recycle
    /// The shipped app's behaviour: completed missions keep their slot.
    public var completedMissionsOccupySlots = false
    /// Completed missions that end the game.
    public var missionsToWin = 5
    public var deckExhaustion = DeckExhaustion.whenStuck
    /// Actions after which the match stops (`turn_cap`).
    public var turnCap = 2000

    public init() {}

    /// `==` field by field, inlined where the play loop's observation update asks it every
    /// turn (the synthesised `==` is a call: 4,000 instructions a rail match). A test
    /// checks it tells apart rules that differ in any one knob.
    @inline(__always)
    func sameKnobs(as other: RailRules) -> Bool {
        initialHand == other.initialHand && spentCards == other.spentCards
            && completedMissionsOccupySlots == other.completedMissionsOccupySlots && missionsToWin == other.missionsToWin
            && deckExhaustion == other.deckExhaustion && turnCap == other.turnCap
    }

    /// Every knob with what it accepts and its default.
    public static let knobs: [RuleKnob] = [
        RuleKnob(name: "initialHand", accepted: "0...6", defaultValue: "0", summary: "cards dealt to each hand at setup"),
        RuleKnob(name: "spentCards", accepted: "recycle | discard", defaultValue: "recycle", summary: "spent cards go back into the deck (reshuffled) or leave the game"),
        RuleKnob(name: "completedMissionsOccupySlots", accepted: "true | false", defaultValue: "false", summary: "completed missions keep their slot and block new draws (shipped app)"),
        RuleKnob(name: "missionsToWin", accepted: "1...64", defaultValue: "5", summary: "completed missions that end the game"),
        RuleKnob(name: "deckExhaustion", accepted: "whenStuck | immediate", defaultValue: "whenStuck", summary: "an empty deck ends the game when the mover is stuck, or at once"),
        RuleKnob(name: "turnCap", accepted: "1...1000000", defaultValue: "2000", summary: "actions after which the match stops (recorded as turn_cap)"),
    ]

    /// Rules with `KEY=VALUE` settings applied over the defaults.
    public init(settings: [(key: String, value: String)]) throws(InputError) {
        self.init()
        for (key, value) in settings {
            let knob = try KnobParsing.knob(key, in: Self.knobs, game: "rail")
            switch key {
            case "initialHand": initialHand = try KnobParsing.int(value, knob, range: 0...RailMap.handLimit)
            case "spentCards": spentCards = try KnobParsing.choice(value, knob, as: SpentCards.self)
            case "completedMissionsOccupySlots": completedMissionsOccupySlots = try KnobParsing.bool(value, knob)
            case "missionsToWin": missionsToWin = try KnobParsing.int(value, knob, range: 1...64)
            case "deckExhaustion": deckExhaustion = try KnobParsing.choice(value, knob, as: DeckExhaustion.self)
            case "turnCap": turnCap = try KnobParsing.int(value, knob, range: 1...1_000_000)
            default: preconditionFailure("knob \(key) listed but not handled")
            }
        }
    }
}
