import LabCatalog
import LabCore
import Testing

/// `Catalog.knob`: the numeric parameter a calibration turns, and the family's spec at
/// each of its values.
@Suite("Strategy knobs")
struct StrategyKnobTests {
    static func knob(_ name: String, of family: String, game: String = "quortex") throws -> StrategyKnob {
        let entry = try Catalog.game(named: game)
        return try Catalog.knob(name, of: try Catalog.validate(family, for: entry), for: entry)
    }

    @Test("A number knob: its range, and the spec with the value last, at most 3 decimals")
    func numberKnob() throws {
        let knob = try Self.knob("epsilon", of: "reference")
        #expect(!knob.integer && knob.allowed == 0...1 && knob.accepted == "number in 0...1")
        #expect(knob.strategy(at: 0.875) == "reference(epsilon=0.875)")
        #expect(knob.strategy(at: 1.0 / 3) == "reference(epsilon=0.333)")
        #expect(knob.strategy(at: 0) == "reference(epsilon=0)")
    }

    @Test("An integer knob replaces the family's own value and keeps its other parameters")
    func integerKnob() throws {
        let knob = try Self.knob("iterations", of: "mcts(iterations=5, rolloutDepth=0)")
        #expect(knob.integer && knob.allowed == 1...10_000_000)
        #expect(knob.strategy(at: 23) == "mcts(rolloutDepth=0, iterations=23)")
    }

    @Test("A parameter the strategy lacks, or one that is not a number, is refused with what it takes",
          arguments: [("depth", "reference", "depth: reference has no such parameter; it takes epsilon"),
                      ("rollout", "mcts", "rollout: a numeric parameter is needed; rollout takes one of random, reference")])
    func refused(_ name: String, _ family: String, _ message: String) {
        #expect(throws: InputError(message)) { try Self.knob(name, of: family) }
    }
}
