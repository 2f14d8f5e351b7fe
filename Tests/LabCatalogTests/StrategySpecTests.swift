import LabCatalog
import LabCore
import Testing

@Suite("Strategy specs")
struct StrategySpecTests {
    @Test("A bare name has no parameters")
    func bareName() throws {
        #expect(try StrategySpec.parse("heuristic") == StrategySpec(name: "heuristic"))
        #expect(try StrategySpec.parse("  shipped-cpu ") == StrategySpec(name: "shipped-cpu"))
    }

    @Test("Parameters keep their order; spaces are ignored")
    func parameters() throws {
        let spec = try StrategySpec.parse("mcts( iterations = 800, c=1.4 ,rollout=heuristic)")
        #expect(spec.name == "mcts")
        #expect(spec.parameters.map(\.key) == ["iterations", "c", "rollout"])
        #expect(spec.parameters.map(\.value) == ["800", "1.4", "heuristic"])
        #expect(spec.description == "mcts(iterations=800, c=1.4, rollout=heuristic)")
    }

    @Test("Values may nest parentheses or be quoted")
    func nestedAndQuoted() throws {
        let spec = try StrategySpec.parse(#"mcts(rollout=heuristic(missionProbability=0.5), model="a,b(c).model")"#)
        #expect(spec.parameters[0].value == "heuristic(missionProbability=0.5)")
        #expect(spec.parameters[1].value == "a,b(c).model")
    }

    @Test("A quoted value holds a quote as \\\" and a backslash as \\\\; any other backslash is itself")
    func escapesInQuotes() throws {
        let spec = try StrategySpec.parse(#"external(command="python3 \"my bot.py\" --dir C:\\bots\\", timeout=500)"#)
        #expect(spec.parameters[0].value == #"python3 "my bot.py" --dir C:\bots\"#)
        #expect(spec.parameters[1].value == "500")
        #expect(try StrategySpec.parse(#"external(command="a\b\$c")"#).parameters[0].value == #"a\b\$c"#)
        // Written back, every value reads back the same.
        for value in [#"python3 "my bot.py", x"#, #"ends with \"#, #"a\"b"#, #"(("#, #"plain"q"#, "a,b", #"\\"#, #"a,\"#, #"a,\\b"#, #"x,a\"b"#] {
            let written = StrategySpec(name: "external", parameters: [("command", value), ("timeout", "9")])
            #expect(try StrategySpec.parse(written.description) == written, "\(written.description)")
        }
        // A value that needs no quotes is written as before.
        #expect(StrategySpec(name: "external", parameters: [("command", #"python3 "x.py""#)]).description == #"external(command=python3 "x.py")"#)
        #expect(StrategySpec(name: "m", parameters: [("model", #"C:\m,1"#)]).description == #"m(model="C:\m,1")"#)
    }

    @Test("A spec of a megabyte is refused at once in a short line quoting its start and its length")
    func hugeSpec() throws {
        let huge = String(repeating: "9", count: 1_000_000)
        let rail = try Catalog.game(named: "rail")
        let cases: [(String, String)] = [
            ("heuristic(missionProbability=\(huge))",
             "strategy heuristic: missionProbability=\(huge.prefix(40))… (1000000 characters) is not accepted; missionProbability takes a number in 0...1"),
            ("heuristic(missionProbability=\(huge)", "… (1000029 characters)': missing ')' at character 1000030"),
            ("heuristic(x\(huge))", "missing '=' after 'x\(huge.prefix(39))… (1000001 characters)'"),
            ("heur\(huge)", "unknown strategy 'heur\(huge.prefix(36))… (1000004 characters)' for rail"),
        ]
        for (text, expected) in cases {
            do {
                _ = try Catalog.validate(text, for: rail)
                Issue.record("accepted")
            } catch {
                #expect(error.message.contains(expected), "\(error.message.prefix(300))")
                #expect(error.message.count <= 500, "\(error.message.count) characters")
            }
        }
    }

    @Test("Malformed specs are refused with the position and the accepted form",
          arguments: ["", "(x=1)", "mcts(", "mcts(iterations)", "mcts(iterations=)", "mcts(a=1,a=2)",
                      "mcts(a=(1)", "mcts(a=1) extra", "mcts(a=\"1)"])
    func malformed(_ text: String) {
        #expect {
            try StrategySpec.parse(text)
        } throws: { error in
            let message = (error as? InputError)?.message ?? ""
            return message.contains("expected name or name(key=value, ...)") && message.contains("character")
        }
    }
}

@Suite("Catalog")
struct CatalogTests {
    @Test("The rail game lists random, heuristic, shipped-cpu and planner, the searches over them, the model's greedy player, the learned players, then external bots")
    func railStrategies() throws {
        let rail = try Catalog.game(named: "rail")
        #expect(rail.strategies.map(\.name) == ["random", "heuristic", "shipped-cpu", "planner", "mcts", "mcts-perfect", "blas-greedy", "alphazero", "policy", "external"])
        let external = try #require(rail.strategies.first { $0.name == "external" })
        #expect(external.parameters.map(\.name) == ["command", "timeout", "startup", "epsilon"])
        #expect(external.parameters.map(\.defaultValue) == ["", "2000", "10000", "0"])
        #expect(external.openPrefix == "opt.")
        let mcts = try #require(rail.strategies.first { $0.name == "mcts" })
        #expect(mcts.parameters.map(\.name) == ["iterations", "millis", "c", "rollout", "rolloutDepth", "reuse", "evaluator", "epsilon"])
        #expect(mcts.parameters.map(\.defaultValue) == ["800", "0", "1.4", "random", "60", "false", "none", "0"])
        let greedy = try #require(rail.strategies.first { $0.name == "blas-greedy" })
        #expect(greedy.parameters.map(\.name) == ["model", "samples", "epsilon"])
        #expect(greedy.parameters.map(\.defaultValue) == ["shipped", "8", "0"])
        #expect(mcts.parameters[3].accepted == "one of random, heuristic, shipped-cpu, planner")
        // A search cannot roll out with itself, and a budget must be positive.
        #expect(throws: InputError.self) { try Catalog.validate("mcts(rollout=mcts)", for: rail) }
        #expect(throws: InputError.self) { try Catalog.validate("mcts(iterations=0)", for: rail) }
        _ = try Catalog.validate("mcts(iterations=1000, c=0.7, rollout=heuristic, rolloutDepth=40)", for: rail)
        #expect(rail.documentedCPU == "heuristic")
        let heuristic = try #require(rail.strategies.first { $0.name == "heuristic" })
        #expect(heuristic.parameters.map(\.name) == ["missionProbability", "epsilon"])
        // Every strategy takes epsilon, 0...1, default 0.
        for info in rail.strategies {
            let epsilon = try #require(info.parameters.last, "\(info.name)")
            #expect(epsilon.name == "epsilon" && epsilon.defaultValue == "0" && epsilon.accepted == "number in 0...1", "\(info.name)")
        }
        #expect(throws: InputError.self) { try Catalog.validate("heuristic(epsilon=1.5)", for: rail) }
        #expect(heuristic.parameters[0].defaultValue == "0.7")
    }

    @Test("An unknown game is refused with the list of games")
    func unknownGame() {
        #expect(throws: InputError("unknown game 'chess'; available: rail, quortex, connect4, tictactoe")) { try Catalog.game(named: "chess") }
    }

    @Test("Unknown strategies and parameters, and bad values, name what is accepted")
    func strategyErrors() throws {
        let rail = try Catalog.game(named: "rail")
        #expect(throws: InputError("unknown strategy 'muzero' for rail; available: random, heuristic, shipped-cpu, planner, mcts, mcts-perfect, blas-greedy, alphazero, policy, external")) {
            try Catalog.validate("muzero", for: rail)
        }
        #expect(throws: InputError("strategy heuristic: unknown parameter 'depth'; accepted: missionProbability (number in 0...1, default 0.7); epsilon (number in 0...1, default 0)")) {
            try Catalog.validate("heuristic(depth=3)", for: rail)
        }
        #expect(throws: InputError("strategy heuristic: missionProbability=1.5 is not accepted; missionProbability takes a number in 0...1")) {
            try Catalog.validate("heuristic(missionProbability=1.5)", for: rail)
        }
        #expect(throws: InputError("strategy random: unknown parameter 'x'; accepted: epsilon (number in 0...1, default 0)")) {
            try Catalog.validate("random(x=1)", for: rail)
        }
        #expect(try Catalog.validate("heuristic(missionProbability=0.25)", for: rail).parameters[0].value == "0.25")
    }
}
