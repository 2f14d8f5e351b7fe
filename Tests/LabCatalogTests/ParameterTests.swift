@testable import LabCatalog
import LabCore
import Testing

/// Strategy parameters read through typed handles (`params[handle]`): each declared
/// value, checked once, read as its type, defaults filled in.
@Suite("Strategy parameters")
struct ParameterTests {
    enum Shade: String, CaseIterable, ParameterValue { case light, dark }

    static let count = Parameter<Int>("count")
    static let rate = Parameter<Double>("rate")
    static let fast = Parameter<Bool>("fast")
    static let label = Parameter<String>("label")
    static let shade = Parameter<Shade>("shade")
    static let accepted = [
        count.spec(1...9, default: 3, "a count"),
        rate.spec(0...1, default: 0.25, "a rate"),
        fast.spec(default: false, "a flag"),
        label.text(default: "none", "a label"),
        shade.spec(default: .light, "a shade"),
    ]

    static func resolve(_ text: String) throws -> ResolvedParameters {
        try ResolvedParameters(spec: StrategySpec.parse(text), accepted: accepted)
    }

    @Test("Each handle reads its value as its type; the ones not given hold their defaults")
    func typedValues() throws {
        let given = try Self.resolve("x(count=7, rate=0.5, fast=true, label=abc, shade=dark)")
        #expect(given[Self.count] == 7 && given[Self.rate] == 0.5 && given[Self.fast] && given[Self.label] == "abc" && given[Self.shade] == .dark)
        #expect(given.isGiven(Self.count) && given.isGiven(Self.shade))
        let defaults = try Self.resolve("x")
        #expect(defaults[Self.count] == 3 && defaults[Self.rate] == 0.25 && !defaults[Self.fast] && defaults[Self.label] == "none"
                && defaults[Self.shade] == .light)
        #expect(!defaults.isGiven(Self.count))
    }

    @Test("A handle's spec lists its kind and default as `oplab strategies` shows them")
    func specs() {
        #expect(Self.accepted.map(\.accepted) == ["integer in 1...9", "number in 0...1", "true or false", "text", "one of light, dark"])
        #expect(Self.accepted.map(\.defaultValue) == ["3", "0.25", "false", "none", "light"])
    }

    @Test("A value outside a handle's declaration is refused when resolved, with what it takes")
    func refusals() {
        #expect(throws: InputError("strategy x: shade=grey is not accepted; shade takes one of light, dark")) { try Self.resolve("x(shade=grey)") }
        #expect(throws: InputError("strategy x: count=1.5 is not accepted; count takes an integer in 1...9")) { try Self.resolve("x(count=1.5)") }
    }

    @Test("A parameter only some games declare reads as nil where it is not declared")
    func undeclared() throws {
        let params = try Self.resolve("x")
        #expect(params.ifDeclared(Parameter<String>("evaluator")) == nil)
        #expect(params.ifDeclared(Self.label) == "none")
    }

    @Test("Every strategy of every game (but an external bot) builds with each of its parameters given at its default",
          arguments: ["rail", "quortex", "connect4", "tictactoe"])
    func everyStrategyReadsItsParameters(_ name: String) throws {
        let game = try Catalog.game(named: name)
        for info in game.strategies where info.name != "external" {
            let given = info.parameters.map { "\($0.name)=\($0.defaultValue)" }.joined(separator: ", ")
            let spec = try Catalog.validate("\(info.name)(\(given))", for: game)
            do {
                _ = try game.makeTable(TableSetup(players: Array(repeating: spec, count: game.tournamentSeats.lowerBound)))
            } catch {
                // Only a game without a shipped model of that kind may refuse, and says so.
                #expect(error.message.contains("shipped"), "\(info.name): \(error.message)")
            }
        }
    }
}
