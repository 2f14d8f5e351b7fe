import LabCatalog
import LabCore
import Testing
import Tournament

/// `--param NAME=LOW..HIGH[:STEP]` for a strategy of a game: checked against the
/// parameters the strategy declares.
@Suite("Tuning parameters from the catalog")
struct TuningParameterTests {
    static func parameter(_ text: String, _ strategy: String = "mcts", game: String = "quortex") throws -> TuningParameter {
        let entry = try Catalog.game(named: game)
        return try Catalog.tuningParameter(text, strategy: try StrategySpec.parse(strategy), of: entry)
    }

    static func message(_ text: String, _ strategy: String = "mcts", game: String = "quortex") -> String? {
        do {
            _ = try parameter(text, strategy, game: game)
            return nil
        } catch let error as InputError { return error.message } catch { return "\(error)" }
    }

    @Test("a number and an integer inside their declared ranges; an integer tunes as one, step 1 unless given")
    func accepted() throws {
        let c = try Self.parameter("c=0.5..3")
        #expect(c.name == "c" && c.low == 0.5 && c.high == 3 && !c.integer && c.step == nil)
        let depth = try Self.parameter("rolloutDepth=0..60:10")
        #expect(depth.integer && depth.step == 10 && depth.grid?.count == 7)
        let focus = try Self.parameter("focus=0..1:0.25", "planner", game: "rail")
        #expect(focus.grid == [0, 0.25, 0.5, 0.75, 1])
    }

    @Test("unknown, out of range, reversed, non-numeric and malformed parameters are refused, saying what is accepted")
    func refused() {
        #expect(Self.message("cc=0..1")?.contains("--param cc=0..1: mcts has no numeric parameter 'cc' (did you mean 'c'?); numeric parameters: iterations, millis, c, rolloutDepth, epsilon") == true,
                "\(Self.message("cc=0..1") ?? "")")
        #expect(Self.message("focus=0..2", "planner", game: "rail") == "--param focus=0..2: 0..2 is outside focus's declared range (number in 0...1)")
        #expect(Self.message("c=3..1") == "tuning parameter c: LOW must be below HIGH, found 3.0..1.0")
        #expect(Self.message("rollout=0..1")?.hasPrefix("--param rollout=0..1: rollout takes one of random, reference, not a number to tune") == true,
                "\(Self.message("rollout=0..1") ?? "")")
        #expect(Self.message("c=1-3") == "--param c=1-3: expected NAME=LOW..HIGH or NAME=LOW..HIGH:STEP, e.g. c=0..100")
        #expect(Self.message("c") == "--param c: expected NAME=LOW..HIGH or NAME=LOW..HIGH:STEP")
        #expect(Self.message("c=0..1:x") == "--param c=0..1:x: the step 'x' is not a number")
    }
}
