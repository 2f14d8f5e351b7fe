import LabCatalog
import LabCore
import Testing

/// The stages file of `oplab learn GAME --stages FILE`: how it splits into stages, which
/// line each starts on, `{previous}`, and what it refuses (the runs themselves: the CLI
/// tests' "oplab learn" suite).
@Suite("Learning in stages: the stages file")
struct LearnStagesTests {
    @Test("comments and blank lines separate nothing; a line ending in \\ goes on; words split as a shell splits them")
    func splitting() throws {
        let text = """
            # the warm start
            --teacher "mcts(iterations=50)" --teacher-games 8 \\
              --generations 1

            --init {previous} --teacher 'alphazero(model={previous}, sims=8)'\r
            """
        let plan = try LearnStages(text: text, file: "c4.stages")
        #expect(plan.stages.map(\.line) == [2, 5])
        #expect(plan.stages[0].words == ["--teacher", "mcts(iterations=50)", "--teacher-games", "8", "--generations", "1"])
        #expect(plan.stages[1].words == ["--init", "{previous}", "--teacher", "alphazero(model={previous}, sims=8)"])
        #expect(plan.location(1) == "c4.stages:5")
    }

    @Test("{previous} is the best model of the stage before, inside any word")
    func previous() throws {
        let plan = try LearnStages(text: "--generations 1\n--init {previous} --teacher alphazero(model={previous})\n--init {previous}\n", file: "f")
        #expect(LearnStages.folder(0, in: "out") == "out/stage-1")
        #expect(plan.words(0, in: "out") == ["--generations", "1"])
        #expect(plan.words(1, in: "out") == ["--init", "out/stage-1/best.model", "--teacher", "alphazero(model=out/stage-1/best.model)"])
        #expect(plan.words(2, in: "results/x") == ["--init", "results/x/stage-2/best.model"])
    }

    @Test("refused, naming the file and line: the command's own flags, a game, {previous} in the first stage, no stage, a bad quote",
          arguments: [
            ("--generations 1\n\n--sims 4 --out x\n", "f:3: --out: the command gives every stage"),
            ("--threads=2\n", "f:1: --threads=2: the command gives every stage"),
            ("--generations 1 --resume\n", "f:1: --resume:"),
            ("--force\n", "f:1: --force:"),
            ("--quiet\n", "f:1: --quiet:"),
            ("--stages other\n", "f:1: --stages:"),
            ("connect4 --sims 4\n", "f:1: 'connect4': a stage gives flags only"),
            ("# a comment\n--init {previous}\n", "f:2: {previous} in the first stage"),
            ("# only comments\n\n", "f: no stages"),
            ("--teacher \"alphazero(\n", "f:1: command"),
          ])
    func refusals(text: String, expected: String) {
        #expect {
            _ = try LearnStages(text: text, file: "f")
        } throws: { error in
            (error as? InputError)?.message.hasPrefix(expected) == true
        }
    }

    @Test("a file that cannot be read is an error naming it")
    func unreadable() {
        #expect {
            _ = try LearnStages.load("/nonexistent/quortex.stages")
        } throws: { error in
            (error as? InputError)?.message == "/nonexistent/quortex.stages: cannot read the stages file: no such file"
        }
    }
}
