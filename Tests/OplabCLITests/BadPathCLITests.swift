import Foundation
import Testing

/// What `oplab` does with odd paths and hostile configs (one-character names, outputs
/// onto inputs, an alias bomb, a merge refused half-way); the checks themselves are
/// tested on their own in TournamentTests and LabCoreTests' PathAndLimitTests.
@Suite("Odd paths and hostile configs: written or refused, nothing left behind")
struct BadPathCLITests {
    @Test("one-character output paths are written, not crashed on (play --svg d, --html x, report --out h, calibrate --out y)")
    func oneCharacterPaths() throws {
        let scratch = try Scratch("one-char")
        defer { scratch.remove() }
        let config = try scratch.config("name: t\ngame: connect4\nentrants:\n  - {name: a, strategy: random}\n  - {name: b, strategy: random}\nblocks: 2\n")
        let runs: [[String]] = [
            ["play", "connect4", "--player", "random", "--player", "random", "--svg", "d"],
            ["play", "connect4", "--player", "random", "--player", "random", "--html", "x"],
            ["tournament", config, "--out", "r", "--quiet", "--no-report"],
            ["report", "r", "--out", "h"],
            ["calibrate", "connect4", "--family", "random", "--knob", "epsilon", "--range", "0..1", "--reference", "random",
             "--matches", "2", "--probes", "1", "--targets", "0.5", "--names", "one", "--out", "y", "--quiet"],
        ]
        for arguments in runs {
            let run = try runArray(arguments, in: scratch.path)
            #expect(run.status == 0, "\(arguments.joined(separator: " ")): \(run.status) \(run.stderr.prefix(300))")
        }
        for name in ["d", "x", "h", "y"] { #expect(FileManager.default.fileExists(atPath: scratch(name)), "\(name) not written") }
        // calibrate held the folder it wrote into without leaving a lock file there.
        #expect(!FileManager.default.fileExists(atPath: scratch(".oplab.lock")))
    }

    @Test("report --out onto a results folder's data and play --svg onto a config are refused; the files stay as they were")
    func noOverwrites() throws {
        let scratch = try Scratch("overwrite")
        defer { scratch.remove() }
        let config = try scratch.config("name: t\ngame: connect4\nentrants:\n  - {name: a, strategy: random}\n  - {name: b, strategy: random}\nblocks: 2\n")
        #expect(try runArray(["tournament", config, "--out", "r", "--quiet", "--no-report", "--no-compact"], in: scratch.path).status == 0)
        let rows = try Data(contentsOf: URL(fileURLWithPath: scratch("r/matches.csv")))
        let record = try Data(contentsOf: URL(fileURLWithPath: scratch("r/run.json")))
        for name in ["matches.csv", "run.json"] {
            let run = try runArray(["report", "r", "--out", "r/" + name], in: scratch.path)
            #expect(run.status == 2)
            #expect(run.stderr == "error: --out r/\(name): cannot write the report: \(name) is data of the results folder r, which only "
                + "the run that made it writes; choose a path outside it (a page, NAME.html, may go beside it)\n")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: scratch("r/matches.csv"))) == rows)
        #expect(try Data(contentsOf: URL(fileURLWithPath: scratch("r/run.json"))) == record)
        let yaml = try Data(contentsOf: URL(fileURLWithPath: config))
        let play = try runArray(["play", "connect4", "--player", "random", "--player", "random", "--svg", config], in: scratch.path)
        #expect(play.status == 2)
        #expect(play.stderr.contains("exists and is not an SVG picture"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: config)) == yaml)
    }

    @Test("an alias bomb is refused at once with exit 2, and --out / leaves no lock file at the root")
    func bombAndRoot() throws {
        let scratch = try Scratch("bomb")
        defer { scratch.remove() }
        var lines = ["a0: &a0 [\"x\",\"x\",\"x\",\"x\",\"x\",\"x\",\"x\",\"x\",\"x\"]"]
        for i in 1...7 { lines.append("a\(i): &a\(i) [" + Array(repeating: "*a\(i - 1)", count: 9).joined(separator: ",") + "]") }
        let bomb = try scratch.config(lines.joined(separator: "\n") + "\nname: *a7\ngame: connect4\n", name: "bomb.yaml")
        let refused = try runArray(["tournament", bomb, "--out", scratch("o")])
        #expect(refused.status == 2)
        #expect(refused.stderr.hasPrefix("error: \(bomb):6:10: the alias *a4 takes the config past 100000 YAML nodes"))
        #expect(!FileManager.default.fileExists(atPath: scratch("o")))

        let config = try scratch.config("name: t\ngame: connect4\nentrants:\n  - {name: a, strategy: random}\n  - {name: b, strategy: random}\nblocks: 2\n")
        let root = try runArray(["tournament", config, "--out", "/", "--force", "--quiet"])
        #expect(root.status == 2)
        #expect(root.stderr.hasPrefix("error: --out /: / is a folder of other files ("))
        #expect(!FileManager.default.fileExists(atPath: "/.oplab.lock"))
    }

    @Test("a merge refused after it took its folder (a shard's rows cut short) removes the folder it made; none is left")
    func refusedMergeLeavesNoFolder() throws {
        let scratch = try Scratch("merge-refused")
        defer { scratch.remove() }
        let config = try scratch.config("name: t\ngame: connect4\nentrants:\n  - {name: a, strategy: random}\n  - {name: b, strategy: random}\nblocks: 6\n")
        let shards = try runShards(config, in: scratch, "--no-report", "--no-compact")
        // Shard 2 loses its last block: its header still reads, the merge fails while writing.
        let rows = shards[1] + "/matches.csv"
        let lines = try String(contentsOfFile: rows, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        try (lines.dropLast(3).joined(separator: "\n") + "\n").write(toFile: rows, atomically: true, encoding: .utf8)
        let merge = try runArray(["merge"] + shards + ["--out", scratch("merged")])
        #expect(merge.status == 2, "\(merge.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch("merged")), "the refused merge left its folder")
    }
}
