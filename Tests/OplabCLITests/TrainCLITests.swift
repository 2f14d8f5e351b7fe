import Foundation
import Testing

/// `oplab train GAME --teacher random --matches 40 --epochs 2 --hidden 8 --out OUT --quiet EXTRA...`:
/// 40 matches make two chunks of self-play, so a second thread has work.
private func train(_ game: String = "rail", out: String, _ extra: [String] = []) throws -> Run {
    try runArray(["train", game, "--teacher", "random", "--matches", "40", "--epochs", "2", "--hidden", "8", "--out", out, "--quiet"] + extra)
}

private func bytes(_ path: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) }

/// A model file's header lines (up to `weights:`) and the byte count after them.
private func header(_ file: [UInt8]) throws -> (lines: [String], weightBytes: Int) {
    let marker = Array("\nweights:\n".utf8)
    let end = try #require((0...(file.count - marker.count)).first { Array(file[$0..<($0 + marker.count)]) == marker }, "no weights line")
    let text = String(decoding: file[..<end], as: UTF8.self)
    return (text.split(separator: "\n").map(String.init), file.count - end - marker.count)
}

/// The file without its `note.command:` line (the command line as typed).
private func withoutCommand(_ file: [UInt8]) throws -> [UInt8] {
    let marker = Array("\nweights:\n".utf8)
    let end = try #require((0...(file.count - marker.count)).first { Array(file[$0..<($0 + marker.count)]) == marker }, "no weights line")
    let lines = String(decoding: file[..<end], as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
    let kept = lines.filter { !$0.hasPrefix("note.command: ") }.joined(separator: "\n")
    return Array(kept.utf8) + file[end...]
}

@Suite("oplab train")
struct TrainCLITests {
    @Test("It writes a model file: the rail layout, a 216-8-1 network, the weights after the header; a strategy plays it")
    func writesAModel() throws {
        let scratch = try Scratch("train")
        defer { scratch.remove() }
        let out = scratch("rail.model")
        let run = try train(out: out, ["--threads", "1"])
        try #require(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("wrote \(out)"))
        let file = try bytes(out)
        let (lines, weightBytes) = try header(file)
        #expect(lines.first == "oplab-model 1")
        for line in ["game: rail", "feature-version: 1", "inputs: 216", "hidden: 8"] { #expect(lines.contains(line), "\(line) missing: \(lines)") }
        // 216 x 8 weights and 8 biases, then 8 weights and 1 bias: float32 each.
        let parameters = 216 * 8 + 8 + 8 + 1
        #expect(lines.contains("parameters: \(parameters)"))
        #expect(weightBytes == 4 * parameters)
        #expect(lines.contains { $0.hasPrefix("layout: ") && $0.contains("railroads=80") })
        #expect(lines.contains("note.teacher: random"))
        // The file loads where a strategy takes a model.
        let play = try oplab("play", "rail", "--player", "blas-greedy(model=\(out), samples=1)", "--player", "random", "--seed", "2")
        #expect(play.status == 0, "\(play.stderr)")
        let search = try oplab("play", "rail", "--player", "random", "--player", "mcts(evaluator=\(out), iterations=5)", "--seed", "2")
        #expect(search.status == 0, "\(search.stderr)")
    }

    @Test("Quortex: the board's layout and 16 x 37 + 79 inputs")
    func quortexModel() throws {
        let scratch = try Scratch("train")
        defer { scratch.remove() }
        let out = scratch("quortex.model")
        let run = try train("quortex", out: out, ["--seats", "3"])
        try #require(run.status == 0, "\(run.stderr)")
        let (lines, _) = try header(try bytes(out))
        for line in ["game: quortex", "layout: radius=3 cells=37", "inputs: \(16 * 37 + 79)", "note.seats: 3"] {
            #expect(lines.contains(line), "\(line) missing: \(lines)")
        }
    }

    @Test("The same flags give the same bytes, for 1 or 2 threads and with or without --force")
    func deterministic() throws {
        let scratch = try Scratch("train")
        defer { scratch.remove() }
        let out = scratch("same.model")
        try #require(try train(out: out, ["--threads", "1"]).status == 0)
        let first = try bytes(out)
        let again = try train(out: out, ["--threads", "1", "--force"])
        try #require(again.status == 0, "\(again.stderr)")
        #expect(try bytes(out) == first, "the same command twice (--force is not recorded)")
        let twoThreads = try train(out: out, ["--threads", "2", "--force"])
        try #require(twoThreads.status == 0, "\(twoThreads.stderr)")
        #expect(try bytes(out) == first, "1 and 2 threads")
        #expect(try withoutCommand(first).count < first.count, "the command note is there")
        // Another seed gives another model.
        let reseeded = try train(out: out, ["--threads", "1", "--force", "--seed", "2"])
        try #require(reseeded.status == 0)
        #expect(try withoutCommand(try bytes(out)) != (try withoutCommand(first)))
    }

    @Test("Bad flags exit 2, say what is wrong, and write no file",
          arguments: [
            (["--hidden", "12,x"], "--hidden 12,x: expected layer widths 1...4096"),
            (["--epochs", "0"], "--epochs 0: expected 1...10000"),
            (["--matches", "0"], "--matches 0: expected at least 1"),
            (["--teacher", "nobody"], "unknown strategy 'nobody' for rail; available: random, heuristic, shipped-cpu"),
            (["--seats", "9"], "--seats 9: rail takes 1-4"),
          ])
    func badFlags(_ extra: [String], _ expected: String) throws {
        let scratch = try Scratch("train")
        defer { scratch.remove() }
        let out = scratch("bad.model")
        // A later --teacher replaces the default one.
        let run = try train(out: out, extra)
        #expect(run.status == 2)
        #expect(run.stderr.contains(expected), "stderr was: \(run.stderr)")
        #expect(run.stdout.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: out))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).isEmpty, "no partial file either")
    }

    @Test("An unknown game and an --out that is not a .model file are refused")
    func badGameAndOut() throws {
        let scratch = try Scratch("train")
        defer { scratch.remove() }
        let game = try train("chess", out: scratch("chess.model"))
        #expect(game.status == 2)
        #expect(game.stderr.contains("unknown game 'chess'; available: rail, quortex"), "\(game.stderr)")
        let text = try train(out: scratch("model.txt"))
        #expect(text.status == 2)
        #expect(text.stderr.contains("a model file name ends in .model"), "\(text.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).isEmpty)
    }

    @Test("An existing --out is kept unless --force is given")
    func existingOut() throws {
        let scratch = try Scratch("train")
        defer { scratch.remove() }
        let out = scratch("kept.model")
        try Data("not a model\n".utf8).write(to: URL(fileURLWithPath: out))
        let run = try train(out: out)
        #expect(run.status == 2)
        #expect(run.stderr.contains("--out \(out) exists; pass --force to replace it"), "\(run.stderr)")
        #expect(try bytes(out) == Array("not a model\n".utf8))
    }

    @Test("A tournament entrant whose model file is missing is refused at its strategy field and line")
    func tournamentMissingModel() throws {
        let scratch = try Scratch("train")
        defer { scratch.remove() }
        let missing = scratch("missing.model")
        let config = scratch("config.yaml")
        try """
            name: model-missing
            game: rail
            seats: 2
            entrants:
              - {name: cpu, strategy: heuristic}
              - {name: greedy, strategy: "blas-greedy(model=\(missing))"}
            format: round-robin
            blocks: 2
            seed: 1
            threads: 1

            """.write(toFile: config, atomically: true, encoding: .utf8)
        let run = try runArray(["tournament", config, "--out", scratch("out"), "--quiet"])
        #expect(run.status == 2)
        for part in ["config.yaml:6:", "entrants[1].strategy", missing, "cannot read the model file"] {
            #expect(run.stderr.contains(part), "'\(part)' missing from: \(run.stderr)")
        }
        #expect(!run.stderr.contains("rules:"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch("out/matches.csv")))
    }
}
