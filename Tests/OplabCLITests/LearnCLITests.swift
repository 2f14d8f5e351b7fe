import Foundation
import Testing

/// `oplab learn` end to end: kill -9 and --resume, and bad input refused before anything
/// is written (the loop itself is tested in-process in LabCatalogTests' LearningTests).
@Suite("oplab learn")
struct LearnCLITests {
    static let small = ["learn", "connect4", "--generations", "3", "--games", "48", "--sims", "8", "--seed", "5", "--width", "16",
                        "--blocks", "1", "--gate-blocks", "4", "--anchor-blocks", "0", "--quiet"]

    /// The generations `learn.json` in `folder` says are done (nil before it exists).
    static func done(_ folder: String) -> Int? {
        guard let data = FileManager.default.contents(atPath: folder + "/learn.json"),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
        return object["generationsDone"] as? Int
    }

    @Test("kill -9 after a generation, then --resume: the model and checkpoint bytes of a run straight through")
    func killAndResume() throws {
        let scratch = try Scratch("learn")
        defer { scratch.remove() }
        let straight = try runArray(Self.small + ["--out", scratch("straight"), "--threads", "2"])
        #expect(straight.status == 0, "\(straight.stderr)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try oplabBinary())
        process.arguments = Self.small + ["--out", scratch("killed"), "--threads", "1"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(120)
        while process.isRunning && Date() < deadline && (Self.done(scratch("killed")) ?? 0) < 1 { usleep(2_000) }
        let killedAt = Self.done(scratch("killed")) ?? 0
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        #expect(killedAt < 3, "the run ended before it could be killed")
        let status = try runArray(["status", scratch("killed")])
        #expect(status.stdout.contains("learning connect4"), "\(status.stdout)")
        let resumed = try runArray(Self.small + ["--out", scratch("killed"), "--resume"])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        for name in ["best.model", "checkpoint.bin"] {
            let a = FileManager.default.contents(atPath: scratch("straight/" + name))
            #expect(a != nil && a == FileManager.default.contents(atPath: scratch("killed/" + name)), "\(name) differs")
        }
    }

    /// A model file's `checksum:` line (of its weights: the note, which names paths, is not in it).
    static func checksum(_ path: String) -> String? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return String(decoding: data.prefix(4_096), as: UTF8.self).split(separator: "\n").first { $0.hasPrefix("checksum:") }.map(String.init)
    }

    @Test("--stages: two stages give the weights of their two commands run one after the other, DIR/best.model the last's, kept by a resume, status a line a stage; a stage's bad flag names its line, a learning flag beside --stages is refused, and neither writes anything")
    func stages() throws {
        let scratch = try Scratch("learn-stages")
        defer { scratch.remove() }
        let common = ["--generations", "1", "--games", "8", "--sims", "4", "--width", "16", "--blocks", "1", "--gate-blocks", "2", "--anchor-blocks", "0"]
        let file = scratch("c4.stages")
        try """
            # a warm start on the first stage's search
            \(common.joined(separator: " ")) --seed 5

            --init {previous} --teacher "alphazero(model={previous}, sims=4)" --teacher-games 8 \\
              \(common.joined(separator: " ")) --seed 6
            """.write(toFile: file, atomically: true, encoding: .utf8)
        let staged = try runArray(["learn", "connect4", "--stages", file, "--out", scratch("staged"), "--quiet"])
        #expect(staged.status == 0, "\(staged.stderr)")
        #expect(staged.stdout.hasSuffix("best model: \(scratch("staged"))/best.model (stage 2's)\n"), "\(staged.stdout)")
        let first = try runArray(["learn", "connect4"] + common + ["--seed", "5", "--out", scratch("a"), "--quiet"])
        let model = scratch("a/best.model")
        let second = try runArray(["learn", "connect4", "--init", model, "--teacher", "alphazero(model=\(model), sims=4)", "--teacher-games", "8"]
                                  + common + ["--seed", "6", "--out", scratch("b"), "--quiet"])
        #expect(first.status == 0 && second.status == 0, "\(first.stderr) \(second.stderr)")
        let expected = try #require(Self.checksum(scratch("b/best.model")))
        #expect(Self.checksum(scratch("staged/stage-2/best.model")) == expected)
        #expect(Self.checksum(scratch("staged/best.model")) == expected)
        #expect(Self.checksum(scratch("staged/stage-1/best.model")) == Self.checksum(model))
        // Resumed when complete: each stage says so and keeps its model; status has a line a stage.
        let again = try runArray(["learn", "connect4", "--stages", file, "--out", scratch("staged"), "--resume"])
        #expect(again.status == 0 && again.stderr.components(separatedBy: ": complete, generation 1 of 1 done; its best model stands").count == 3, "\(again.stderr)")
        #expect(again.stderr.components(separatedBy: "learn connect4: 1 generation of 8 games, 4 simulations").count == 3, "\(again.stderr)")
        #expect(Self.checksum(scratch("staged/best.model")) == expected)
        let status = try runArray(["status", scratch("staged")])
        let lines = status.stdout.split(separator: "\n")
        #expect(status.status == 0 && lines.count == 2, "\(status.stdout)\(status.stderr)")
        for (k, line) in lines.enumerated() {
            #expect(line.hasPrefix("\(scratch("staged"))/stage-\(k + 1): learning connect4, complete, generation 1 of 1"), "\(line)")
        }

        let bad = scratch("bad.stages")
        try "--generations 1\n--sims 0\n".write(toFile: bad, atomically: true, encoding: .utf8)
        let refused = try runArray(["learn", "connect4", "--stages", bad, "--out", scratch("refused")])
        #expect(refused.status == 2 && refused.stderr.hasPrefix("error: \(bad):2: --sims 0: expected 1...100000"), "\(refused.stderr)")
        let beside = try runArray(["learn", "connect4", "--stages", file, "--sims", "8", "--out", scratch("beside")])
        #expect(beside.status == 2 && beside.stderr.contains("--stages: the stages file gives the learning's flags, not the command line (here sims: 8)"),
                "\(beside.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch("refused")) && !FileManager.default.fileExists(atPath: scratch("beside")))
    }

    @Test("each shipped stages file (configs/learn/) checks clean: --dry-run prints its stages' commands, each stage's folder inside --out, and writes nothing")
    func shippedStages() throws {
        let scratch = try Scratch("learn-stages-dry")
        defer { scratch.remove() }
        let folder = packageRoot + "/configs/learn"
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".stages") }.sorted()
        #expect(files == ["quortex-4.stages", "quortex.stages", "rail.stages"])
        for (file, count) in zip(files, [4, 5, 3]) {
            let game = file.hasPrefix("rail") ? "rail" : "quortex"
            let run = try runArray(["learn", game, "--stages", folder + "/" + file, "--dry-run", "--out", scratch("out")])
            #expect(run.status == 0, "\(file): \(run.stderr)")
            let lines = run.stdout.split(separator: "\n")
            #expect(lines.count == count, "\(file): \(run.stdout)")
            for (k, line) in lines.enumerated() {
                #expect(line.hasPrefix("stage \(k + 1) (") && line.hasSuffix("--out \(scratch("out"))/stage-\(k + 1)"), "\(line)")
                #expect(k == 0 || line.contains("--init \(scratch("out"))/stage-\(k)/best.model"), "\(line)")
            }
        }
        #expect(!FileManager.default.fileExists(atPath: scratch("out")))
    }

    @Test("bad input exits 2, names what is accepted and writes nothing",
          arguments: [
            (["learn", "chess"], "unknown game 'chess'"),
            (["learn", "connect4", "--sims", "0"], "--sims 0: expected 1...100000 simulations"),
            (["learn", "connect4", "--self-play", "worst"], "--self-play worst: expected one of latest, best"),
            (["learn", "connect4", "--cscale", "0"], "--cscale 0: expected 0.001...100"),
            (["learn", "connect4", "--considered", "0"], "--considered 0: expected 1...256"),
            (["learn", "connect4", "--generations", "0"], "--generations 0: expected 1...100000"),
            (["learn", "connect4", "--anchor", "nobody"], "--anchor unknown strategy 'nobody'"),
            (["learn", "connect4", "--teacher", "nobody"], "--teacher unknown strategy 'nobody'"),
            (["learn", "connect4", "--init", "no-such.model"], "no-such.model"),
            (["learn", "connect4", "--teacher-games", "5"], "--teacher-games needs --teacher"),
            (["learn", "connect4", "--teacher", "mcts", "--teacher-games", "0"], "--teacher-games 0: expected 1...1000000"),
            (["learn", "connect4", "--teacher-keep", "0.5"], "--teacher-keep needs --teacher"),
            (["learn", "connect4", "--teacher", "mcts", "--teacher-keep", "0"], "--teacher-keep 0.0: expected a share in (0, 1]"),
            (["learn", "connect4", "--teacher", "external(command=\"python3 x.py\")"], "an external bot cannot teach"),
            (["learn", "connect4", "--teacher-targets", "search"], "--teacher-targets needs --teacher"),
            (["learn", "connect4", "--teacher", "mcts", "--teacher-targets", "search"], "--teacher-targets search: --teacher mcts does not search"),
            (["learn", "connect4", "--teacher", "alphazero", "--teacher-targets", "soft"], "--teacher-targets soft: expected one of move, search"),
            (["learn", "connect4", "--dry-run"], "--dry-run needs --stages"),
            (["play", "connect4", "--player", "policy(temperature=-1)", "--player", "random"], "temperature"),
            (["play", "connect4", "--player", "alphazero(sims=0)", "--player", "random"], "sims"),
          ])
    func badInput(arguments: [String], expected: String) throws {
        let scratch = try Scratch("learn-bad")
        defer { scratch.remove() }
        let run = try runArray(arguments + (arguments[0] == "learn" ? ["--out", scratch("out")] : []))
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr.hasPrefix("error: ") && run.stderr.contains(expected), "\(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).isEmpty)
    }
}
