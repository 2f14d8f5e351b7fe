import LabCore
import Testing
import RailGame

/// Rule book knobs as `KEY=VALUE` settings, and the seat range.
@Suite("Rule settings and seats")
struct RulesAndSeatsTests {
    @Test func ruleSettingsSetEveryKnob() throws {
        let rules = try RailRules(settings: [
            (key: "initialHand", value: "3"), (key: "spentCards", value: "discard"),
            (key: "completedMissionsOccupySlots", value: "true"), (key: "missionsToWin", value: "7"),
            (key: "deckExhaustion", value: "immediate"), (key: "turnCap", value: "500"),
        ])
        #expect(rules.initialHand == 3)
        #expect(rules.spentCards == .discard)
        #expect(rules.completedMissionsOccupySlots)
        #expect(rules.missionsToWin == 7)
        #expect(rules.deckExhaustion == .immediate)
        #expect(rules.turnCap == 500)
    }

    @Test func unknownRuleKnobIsRefusedListingTheKnobsThatExist() throws {
        let error = #expect(throws: InputError.self) {
            try RailRules(settings: [(key: "handLimit", value: "8")])
        }
        let message = try #require(error?.message)
        #expect(message.contains("'handLimit'"))
        for knob in RailRules.knobs { #expect(message.contains(knob.name), "lists \(knob.name)") }
    }

    struct BadValue: Sendable, CustomTestStringConvertible {
        var knob: String
        var value: String
        var accepted: String
        var testDescription: String { "\(knob)=\(value)" }
    }

    @Test("a bad knob value is refused naming the knob and what is accepted", arguments: [
        BadValue(knob: "initialHand", value: "7", accepted: "0...6"),
        BadValue(knob: "initialHand", value: "-1", accepted: "0...6"),
        BadValue(knob: "initialHand", value: "two", accepted: "0...6"),
        BadValue(knob: "spentCards", value: "burn", accepted: "recycle | discard"),
        BadValue(knob: "completedMissionsOccupySlots", value: "maybe", accepted: "true or false"),
        BadValue(knob: "missionsToWin", value: "0", accepted: "1...64"),
        BadValue(knob: "missionsToWin", value: "65", accepted: "1...64"),
        BadValue(knob: "deckExhaustion", value: "never", accepted: "whenStuck | immediate"),
        BadValue(knob: "turnCap", value: "0", accepted: "1...1000000"),
    ])
    func badKnobValueIsRefused(bad: BadValue) throws {
        let error = #expect(throws: InputError.self) {
            try RailRules(settings: [(key: bad.knob, value: bad.value)])
        }
        let message = try #require(error?.message)
        #expect(message.contains(bad.knob))
        #expect(message.contains(bad.value))
        #expect(message.contains(bad.accepted))
    }

    @Test("rail refuses a table of 0 or 5 seats", arguments: [0, 5])
    func railRefusesSeatCount(seats: Int) throws {
        let error = #expect(throws: InputError.self) {
            try RailGame(map: Rail.map(), seatCount: seats)
        }
        let message = try #require(error?.message)
        #expect(message.contains("1 to 4"))
        #expect(message.contains("got \(seats)"))
    }

    @Test("rail seats 1 to 4 players", arguments: 1...4)
    func railSeats(seats: Int) throws {
        let game = try RailGame(map: Rail.map(), seatCount: seats)
        #expect(game.newMatch(seed: 1).seatCount == seats)
    }
}
