import Foundation
import Testing

// MARK: - Fixtures

/// The small rail round robin most tests run: 3 tables of 2 seats, `blocks` blocks each.
func railConfig(blocks: Int, seed: UInt64 = 20261121, name: String = "cli-test") -> String {
    """
    name: \(name)
    game: rail
    seats: 2
    entrants:
      - {name: cpu, strategy: heuristic}
      - {name: shipped, strategy: shipped-cpu}
      - {name: rnd, strategy: random}
    format: round-robin
    blocks: \(blocks)
    seed: \(seed)
    threads: 1

    """
}

/// A two-seat Quortex round robin: the reference AI against random play.
func quortexConfig(name: String, blocks: Int, seed: UInt64) -> String {
    """
    name: \(name)
    game: quortex
    seats: 2
    entrants:
      - {name: reference, strategy: reference}
      - {name: rnd, strategy: random}
    blocks: \(blocks)
    seed: \(seed)

    """
}

/// `oplab tournament CONFIG --out OUT --quiet EXTRA...`.
func tournament(_ config: String, out: String, _ extra: String...) throws -> Run {
    try runArray(["tournament", config, "--out", out, "--quiet"] + extra)
}

/// What a rail run writes besides run.json (railroads.csv: the board counts).
let summaryFiles = ["matches.csv", "summary.csv", "pairwise.csv", "ratings.csv", "railroads.csv"]

func contents(_ path: String) throws -> Data {
    try Data(contentsOf: URL(fileURLWithPath: path))
}

/// Every regular file of a folder by name, with its bytes.
/// A finished 40-block rail run in a fresh scratch folder (its `out` subfolder), with
/// the config file it came from and a snapshot of its files.
func finishedRun() throws -> (scratch: Scratch, config: String, out: String, files: [String: Data]) {
    let scratch = try Scratch()
    let config = try scratch.config(railConfig(blocks: 40))
    let out = scratch("out")
    let first = try tournament(config, out: out)
    try #require(first.status == 0, "\(first.stderr)")
    return (scratch, config, out, try snapshot(out))
}

func snapshot(_ folder: String) throws -> [String: Data] {
    var out: [String: Data] = [:]
    // The lock file holds the pid of the last writer: it is not a result.
    for name in try FileManager.default.contentsOfDirectory(atPath: folder) where name != ".oplab.lock" {
        out[name] = try contents(folder + "/" + name)
    }
    return out
}

/// Expects the named files of two results folders to hold the same bytes.
func expectSameFiles(_ a: String, _ b: String, _ files: [String] = summaryFiles,
                             sourceLocation: SourceLocation = #_sourceLocation) throws {
    for file in files {
        let left = try contents(a + "/" + file), right = try contents(b + "/" + file)
        #expect(!left.isEmpty, "\(a)/\(file) is empty", sourceLocation: sourceLocation)
        #expect(left == right, "\(file) differs: \(left.count) bytes in \(a), \(right.count) in \(b)", sourceLocation: sourceLocation)
    }
}

/// The records of a CSV file the lab wrote (no line breaks inside fields), header first.
private func csvRecords(_ path: String) throws -> [[String]] {
    let text = String(decoding: try contents(path), as: UTF8.self)
    #expect(text.hasSuffix("\n"), "\(path) does not end with a newline")
    return try text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { line in
        try #require(parseCSVLine(line), "unparsable line: \(line)")
    }
}

/// A CSV record written independently of the code under test: quoted fields may hold
/// commas and doubled quotes.
private func parseCSVLine(_ line: Substring) -> [String]? {
    var fields: [String] = []
    var field = ""
    var chars = Array(line)[...]
    while true {
        if chars.first == "\"" {
            chars = chars.dropFirst()
            while true {
                guard let c = chars.popFirst() else { return nil }
                if c == "\"" {
                    if chars.first == "\"" { field.append("\""); chars = chars.dropFirst() } else { break }
                } else {
                    field.append(c)
                }
            }
        }
        while let c = chars.first, c != "," { field.append(c); chars = chars.dropFirst() }
        fields.append(field)
        field = ""
        guard chars.popFirst() != nil else { return fields }
    }
}

/// The elements of a board-count column: hex digits, bit i (from the least significant)
/// for element i. Decoded here independently of the code under test.
private func elements(hex: String) throws -> [Int] {
    var out: [Int] = []
    for (k, c) in hex.reversed().enumerated() {
        let v = try #require(c.hexDigitValue, "'\(hex)' is not hex")
        for bit in 0..<4 where v & (1 << bit) != 0 { out.append(4 * k + bit) }
    }
    return out
}

/// Rows of a CSV as dictionaries keyed by the header.
private func csvTable(_ path: String) throws -> [[String: String]] {
    let records = try csvRecords(path)
    let header = try #require(records.first)
    return try records.dropFirst().map { record in
        try #require(record.count == header.count, "\(path): \(record.count) fields, header has \(header.count)")
        return Dictionary(uniqueKeysWithValues: zip(header, record))
    }
}

/// Rewrites `run.json` in `folder` with `change` applied to its top-level object.
private func editRunRecord(_ folder: String, _ change: (inout [String: Any]) -> Void) throws {
    let path = folder + "/run.json"
    var object = try #require(try JSONSerialization.jsonObject(with: contents(path)) as? [String: Any])
    change(&object)
    try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys]).write(to: URL(fileURLWithPath: path))
}

func runRecord(_ folder: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: contents(folder + "/run.json")) as? [String: Any])
}

/// Runs shards 1/3, 2/3 and 3/3 of `config` into `shard-K` folders and returns them.
func runShards(_ config: String, in scratch: Scratch, _ extra: String...) throws -> [String] {
    try (1...3).map { k in
        let folder = scratch("shard-\(k)")
        let run = try runArray(["tournament", config, "--out", folder, "--quiet", "--shard", "\(k)/3"] + extra)
        try #require(run.status == 0, "shard \(k)/3 failed: \(run.stderr)")
        return folder
    }
}

private func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

/// A config that the tournament command must refuse, and what its message must say.
struct RefusedRun: Sendable, CustomTestStringConvertible {
    var label: String
    var yaml: String
    var arguments: [String] = []
    /// Substrings the stderr must hold; `config.yaml` stands for the config's path.
    var expected: [String]
    var testDescription: String { label }
}

/// The valid base of the refused configs, line by line (line 1 is `name: bad`).
private let baseLines = [
    "name: bad",                                        // 1
    "game: rail",                                       // 2
    "seats: 2",                                         // 3
    "entrants:",                                        // 4
    "  - {name: cpu, strategy: heuristic}",             // 5
    "  - {name: shipped, strategy: shipped-cpu}",       // 6
    "  - {name: rnd, strategy: random}",                // 7
    "blocks: 40",                                       // 8
    "seed: 5",                                          // 9
]

/// The base config with line `line` (1-based) replaced by `text`, and `append` added.
private func base(replacing line: Int? = nil, with text: String = "", append: [String] = []) -> String {
    var lines = baseLines
    if let line { lines[line - 1] = text }
    return (lines + append).joined(separator: "\n") + "\n"
}

private let refusedRuns: [RefusedRun] = [
    RefusedRun(label: "YAML syntax error", yaml: base(replacing: 3, with: "seats: 2: 3"),
               expected: ["config.yaml:3:", "YAML syntax error"]),
    RefusedRun(label: "unknown top-level field", yaml: base(append: ["colour: red"]),
               expected: ["config.yaml:10:", "unknown field 'colour'", "accepted: ", "entrants", "blocks"]),
    RefusedRun(label: "unknown game", yaml: base(replacing: 2, with: "game: chess"),
               expected: ["config.yaml:2:", "game", "'chess'", "rail", "quortex"]),
    RefusedRun(label: "unknown strategy in entrants[1]",
               yaml: base(replacing: 6, with: "  - {name: shipped, strategy: nobody}"),
               expected: ["config.yaml:6:", "entrants[1].strategy", "'nobody'", "available:", "random", "heuristic", "shipped-cpu"]),
    RefusedRun(label: "bad strategy parameter value",
               yaml: base(replacing: 7, with: "  - {name: rnd, strategy: \"heuristic(missionProbability=2)\"}"),
               expected: ["config.yaml:7:", "entrants[2].strategy", "missionProbability", "0...1"]),
    RefusedRun(label: "unknown strategy parameter",
               yaml: base(replacing: 5, with: "  - {name: cpu, strategy: \"heuristic(speed=2)\"}"),
               expected: ["config.yaml:5:", "entrants[0].strategy", "'speed'", "missionProbability"]),
    RefusedRun(label: "unknown rule knob", yaml: base(append: ["rules: {speed: 9}"]),
               expected: ["config.yaml:10:", "rules.speed", "'speed'", "accepted:", "initialHand", "spentCards"]),
    RefusedRun(label: "seats 7 for rail", yaml: base(replacing: 3, with: "seats: 7"),
               expected: ["config.yaml:3:", "seats", "2-4", "7"]),
    RefusedRun(label: "seats 1 for rail (solitaire: every match a win)", yaml: base(replacing: 3, with: "seats: 1"),
               expected: ["config.yaml:3:8: seats: rail seats 2-4 players in a tournament, not 1"]),
    RefusedRun(label: "an entrant name of 5,000 characters",
               yaml: base(replacing: 7, with: "  - {name: \(String(repeating: "r", count: 5000)), strategy: random}"),
               expected: ["config.yaml:7:12: entrants[2].name: expected an entrant name of 1 to 64 characters", "… (5000 characters)'"]),
    RefusedRun(label: "gauntlet without candidate", yaml: base(append: ["format: gauntlet"]),
               expected: ["config.yaml:10:", "format", "candidate"]),
    RefusedRun(label: "duplicate entrant names", yaml: base(replacing: 7, with: "  - {name: cpu, strategy: random}"),
               expected: ["config.yaml:7:", "entrants[2].name", "duplicate", "'cpu'"]),
    RefusedRun(label: "map for quortex",
               yaml: "name: bad\ngame: quortex\nmap: configs/maps/train-depot-europe.json\nentrants:\n"
                   + "  - {name: a, strategy: reference}\n  - {name: b, strategy: random}\nblocks: 2\n",
               expected: ["config.yaml:3:", "map", "quortex"]),
    RefusedRun(label: "fewer entrants than seats", yaml: base(replacing: 3, with: "seats: 4"),
               expected: ["config.yaml:3:", "seats", "4 seats", "3"]),
    RefusedRun(label: "--shard 4/3", yaml: base(), arguments: ["--shard", "4/3"], expected: ["--shard", "4/3"]),
    RefusedRun(label: "--shard 0/3", yaml: base(), arguments: ["--shard", "0/3"], expected: ["--shard", "0/3"]),
    RefusedRun(label: "--shard a/b", yaml: base(), arguments: ["--shard", "a/b"], expected: ["--shard", "a/b"]),
]

// MARK: - Tests

@Suite("oplab tournament and merge")
struct TournamentCLITests {
    @Test("the CSV files are byte-identical for --threads 1 and --threads 2")
    func threadCountDoesNotMatter() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let config = try scratch.config(railConfig(blocks: 100))
        let one = try tournament(config, out: scratch("t1"), "--threads", "1")
        let two = try tournament(config, out: scratch("t2"), "--threads", "2")
        try #require(one.status == 0, "\(one.stderr)")
        try #require(two.status == 0, "\(two.stderr)")
        try expectSameFiles(scratch("t1"), scratch("t2"))
        #expect(try runRecord(scratch("t2"))["threads"] as? Int == 2)
    }

    @Test("shards 1/3, 2/3, 3/3 merged in any order equal one whole run")
    func shardsMergeToWholeRun() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let config = try scratch.config(railConfig(blocks: 50))
        let whole = try tournament(config, out: scratch("whole"), "--threads", "2")
        try #require(whole.status == 0, "\(whole.stderr)")
        let shards = try runShards(config, in: scratch, "--threads", "2")
        // The shards hold every third block only.
        let firstShardRows = try csvRecords(shards[0] + "/matches.csv").count - 1
        #expect(firstShardRows == 50 * 4, "shard 1/3 of 150 blocks should hold 50 blocks of 4 rows")
        let merge = try runArray(["merge", shards[2], shards[0], shards[1], "--out", scratch("merged")])
        try #require(merge.status == 0, "\(merge.stderr)")
        try expectSameFiles(scratch("whole"), scratch("merged"))
        let record = try runRecord(scratch("merged"))
        #expect(record["status"] as? String == "complete")
        #expect(record["shard"] as? String == "1/1")
    }

    @Test("a run killed with SIGKILL and resumed equals an uninterrupted run")
    func killAndResume() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        // 3 tables x 300 blocks x 2 matches. The kill comes as soon as the first block is
        // on disk, so it lands mid-run unless a machine plays 900 blocks between two polls
        // (1 ms): no assumption about speed within a factor of a thousand.
        let config = try scratch.config(railConfig(blocks: 300))
        let killed = scratch("killed")
        let matches = killed + "/matches.csv"

        let process = Process()
        process.executableURL = URL(fileURLWithPath: try oplabBinary())
        process.arguments = ["tournament", config, "--out", killed, "--quiet", "--threads", "2"]
        process.currentDirectoryURL = URL(fileURLWithPath: packageRoot)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Wait for the first block past the header, then kill.
        let deadline = Date().addingTimeInterval(60)
        var rows = 0
        while process.isRunning && Date() < deadline {
            if let data = FileManager.default.contents(atPath: matches) {
                rows = data.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) } - 1
                if rows >= 4 { break }
            }
            usleep(1_000)
        }
        guard process.isRunning else {
            Issue.record("the run finished (or failed, status \(process.terminationStatus)) before it could be killed; \(rows) rows seen")
            return
        }
        #expect(kill(process.processIdentifier, SIGKILL) == 0)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        // The kill may tear the last line: count newlines, not records.
        let rowsAtKill = try contents(matches).reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) } - 1
        #expect(rowsAtKill >= 4 && rowsAtKill < 3 * 300 * 4, "\(rowsAtKill) rows when killed")
        #expect(try runRecord(killed)["status"] as? String == "running")

        let resumed = try tournament(config, out: killed, "--resume", "--threads", "2")
        try #require(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stderr.contains("resuming"), "stderr was: \(resumed.stderr)")
        #expect(try runRecord(killed)["status"] as? String == "complete")

        let reference = try tournament(config, out: scratch("reference"), "--threads", "2")
        try #require(reference.status == 0, "\(reference.stderr)")
        try expectSameFiles(scratch("reference"), killed)
    }

    @Test("--resume on a folder whose matches.csv ends in a torn line gives the complete run's bytes")
    func tornTail() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let config = try scratch.config(railConfig(blocks: 40))
        let a = scratch("A"), b = scratch("B")
        let complete = try tournament(config, out: a)
        try #require(complete.status == 0, "\(complete.stderr)")

        // Header, two whole blocks and one row of the third (4 rows a block), then half a line.
        let text = try contents(a + "/matches.csv")
        let lines = text.split(separator: 0x0A, omittingEmptySubsequences: false)
        let kept = lines.prefix(10).map { Data($0) + Data([0x0A]) }.reduce(Data(), +)
        let next = Data(lines[10])
        let torn = kept + next.prefix(next.count / 2)
        #expect(torn.last != 0x0A)
        try FileManager.default.createDirectory(atPath: b, withIntermediateDirectories: false)
        try torn.write(to: URL(fileURLWithPath: b + "/matches.csv"))
        try FileManager.default.copyItem(atPath: a + "/run.json", toPath: b + "/run.json")

        let resumed = try tournament(config, out: b, "--resume")
        try #require(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stderr.contains("resuming"), "stderr was: \(resumed.stderr)")
        try expectSameFiles(a, b)
    }

    @Test("an existing results folder is refused without --resume or --force and left untouched; --force replaces it")
    func existingFolder() throws {
        let (scratch, config, out, before) = try finishedRun()
        defer { scratch.remove() }

        let again = try tournament(config, out: out)
        #expect(again.status == 2)
        #expect(again.stderr.contains("error:"), "stderr was: \(again.stderr)")
        #expect(again.stderr.contains("--resume"), "stderr was: \(again.stderr)")
        #expect(try snapshot(out) == before, "the refused run changed the folder")

        let overridden = try tournament(config, out: out, "--seed", "99")
        #expect(overridden.status == 2, "a different seed must not slip past the check")
        #expect(try snapshot(out) == before)

        let forced = try tournament(config, out: out, "--force", "--seed", "99")
        try #require(forced.status == 0, "\(forced.stderr)")
        let after = try snapshot(out)
        #expect(Set(after.keys) == Set(before.keys))
        #expect(after["matches.csv"] != before["matches.csv"], "--force with another seed kept the old matches")
        let seed = try #require(try runRecord(out)["config"] as? [String: Any])["seed"] as? Int
        #expect(seed == 99)

        // --force on the same config writes what a fresh run writes.
        let fresh = try tournament(config, out: scratch("fresh"), "--seed", "99")
        try #require(fresh.status == 0)
        try expectSameFiles(out, scratch("fresh"))
    }

    @Test("--resume with a different config (another seed) is refused and leaves the folder untouched")
    func resumeDifferentConfig() throws {
        let (scratch, config, out, before) = try finishedRun()
        defer { scratch.remove() }
        let resumed = try tournament(config, out: out, "--resume", "--seed", "99")
        #expect(resumed.status == 2)
        #expect(resumed.stderr.contains("error:"), "stderr was: \(resumed.stderr)")
        #expect(resumed.stderr.contains("seed"), "stderr was: \(resumed.stderr)")
        #expect(try snapshot(out) == before)
    }

    @Test("a number flag that does not read, or that the run cannot take, is one error line naming the flag",
          arguments: [
            (["--threads", "abc"], "error: --threads abc: expected a whole number\n"),
            (["--blocks", "x"], "error: --blocks x: expected a whole number\n"),
            (["--seed", "-1"], "error: --seed -1: expected a whole number in 0...18446744073709551615\n"),
            (["--blocks", "0"], "error: --blocks 0: expected 1 or more\n"),
            (["--threads", "5000"], "error: --threads 5000: expected 0 (every core) to 1024\n"),
            (["--blocks", "99999999999999999"],
             "error: --blocks 99999999999999999: 3 tables x 99999999999999999 blocks x 2 matches is more than the 4503599627370496 "
             + "matches (2^52) a run can number; expected blocks in 1...750599937895082\n"),
          ])
    func numberFlags(_ arguments: [String], _ expected: String) throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let config = try scratch.config(railConfig(blocks: 2))
        let run = try runArray(["tournament", config, "--out", scratch("out"), "--quiet"] + arguments)
        #expect(run.status == 2)
        #expect(run.stderr == expected)
        #expect(!exists(scratch("out")))
    }

    @Test("bad input exits 2, names the file and line or field, and writes nothing", arguments: refusedRuns)
    func badInput(_ refused: RefusedRun) throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let config = try scratch.config(refused.yaml)
        let out = scratch("out")
        let run = try runArray(["tournament", config, "--out", out, "--quiet"] + refused.arguments)
        #expect(run.status == 2, "stderr was: \(run.stderr)")
        let stderr = run.stderr.replacingOccurrences(of: config, with: "config.yaml")
        #expect(stderr.contains("error:"), "stderr was: \(stderr)")
        for text in refused.expected {
            #expect(stderr.contains(text), "missing '\(text)' in: \(stderr)")
        }
        #expect(run.stdout.isEmpty, "stdout was: \(run.stdout)")
        #expect(!exists(out), "\(refused.label) left \(out) behind")
    }

    @Test("rail matches.csv: header, quoting, seat rotations and seeds per block")
    func railMatchesLayout() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let config = try scratch.config("""
            name: layout
            game: rail
            seats: 2
            entrants:
              - {name: "cpu, tuned", strategy: 'heuristic(missionProbability="0.5")'}
              - {name: cpu, strategy: heuristic}
              - {name: rnd, strategy: random}
            blocks: 20
            seed: 11

            """)
        let out = scratch("out")
        let run = try tournament(config, out: out)
        try #require(run.status == 0, "\(run.stderr)")

        let text = String(decoding: try contents(out + "/matches.csv"), as: UTF8.self)
        let header = "run,block,match,table,seat,entrant,strategy,seed,place,outcome,end_reason,turns,forfeit,"
            + "missions_completed,mission_points,railroads,cards_in_hand,built_railroads"
        #expect(text.hasPrefix(header + "\n"))
        // Fields with a comma or a quote are quoted, inner quotes doubled.
        #expect(text.contains(",\"cpu, tuned\",\"heuristic(missionProbability=\"\"0.5\"\")\","))

        let rows = try csvTable(out + "/matches.csv")
        let entrants = ["cpu, tuned": "heuristic(missionProbability=\"0.5\")", "cpu": "heuristic", "rnd": "random"]
        for row in rows {
            #expect(row["run"] == "layout")
            #expect(entrants[row["entrant"] ?? ""] == row["strategy"], "\(row)")
            #expect(["win", "draw", "loss"].contains(row["outcome"] ?? ""), "\(row)")
            #expect(["1", "2"].contains(row["place"] ?? ""), "\(row)")
        }
        try checkBlocks(rows, seats: 2, blocks: 3 * 20, tables: 3)
    }

    @Test("Common random numbers: players that choose alike play mirrored matches, so every block splits evenly",
          arguments: [("rail", 4, "heuristic"), ("quortex", 2, "random"), ("rail", 2, "random")])
    func mirroredBlocks(game: String, seats: Int, strategy: String) throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let entrants = (0..<seats).map { "  - {name: p\($0), strategy: \(strategy)}" }.joined(separator: "\n")
        let config = try scratch.config("""
            name: mirror
            game: \(game)
            seats: \(seats)
            entrants:
            \(entrants)
            blocks: 12
            seed: 8

            """)
        let out = scratch("out")
        let run = try tournament(config, out: out)
        try #require(run.status == 0, "\(run.stderr)")
        let rows = try csvTable(out + "/matches.csv")
        // In every block each entrant sits in each seat once on the same deal with the
        // same seat streams, so each entrant collects the same places: the block ties.
        for block in Set(rows.map { $0["block"]! }) {
            let inBlock = rows.filter { $0["block"] == block }
            var places: [String: [String]] = [:]
            for row in inBlock { places[row["entrant"]!, default: []].append(row["place"]!) }
            let sorted = places.values.map { $0.sorted() }
            #expect(sorted.allSatisfy { $0 == sorted[0] }, "block \(block): \(places)")
            // The matches differ between rotations only by who sits where: same turns.
            #expect(Set(inBlock.map { $0["turns"]! }).count == 1, "block \(block)")
        }
    }

    @Test("rail at 3 seats: every block has 9 rows and every entrant of the table sits in every seat")
    func railThreeSeatBlocks() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let config = try scratch.config("""
            name: three
            game: rail
            seats: 3
            entrants:
              - {name: cpu, strategy: heuristic}
              - {name: shipped, strategy: shipped-cpu}
              - {name: rnd, strategy: random}
              - {name: eager, strategy: "heuristic(missionProbability=0.9)"}
            blocks: 5
            seed: 3

            """)
        let out = scratch("out")
        let run = try tournament(config, out: out)
        try #require(run.status == 0, "\(run.stderr)")
        try checkBlocks(try csvTable(out + "/matches.csv"), seats: 3, blocks: 4 * 5, tables: 4)
    }

    @Test("quortex matches.csv has the win_type and tiles_placed columns")
    func quortexMatchesLayout() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let config = try scratch.config(quortexConfig(name: "quortex-layout", blocks: 5, seed: 3))
        let out = scratch("out")
        let run = try tournament(config, out: out)
        try #require(run.status == 0, "\(run.stderr)")
        let records = try csvRecords(out + "/matches.csv")
        #expect(records.first?.joined(separator: ",")
            == "run,block,match,table,seat,entrant,strategy,seed,place,outcome,end_reason,turns,forfeit,win_type,tiles_placed,placed_cells,flow_cells")
        let rows = try csvTable(out + "/matches.csv")
        for row in rows {
            #expect(row["win_type"] == row["end_reason"], "\(row)")
            #expect(Int(row["tiles_placed"] ?? "") != nil, "\(row)")
        }
        try checkBlocks(rows, seats: 2, blocks: 5, tables: 1)
        let ratings = try csvTable(out + "/ratings.csv")
        #expect(ratings.first { $0["entrant"] == "reference" }?["anchor"] == "yes")
    }

    @Test("railroads.csv counts, per railroad and entrant, the matches whose seat row lists it as built")
    func railroadCounts() throws {
        let (scratch, _, out, _) = try finishedRun()
        defer { scratch.remove() }
        let matches = try csvTable(out + "/matches.csv")
        var expected: [String: Int] = [:]
        for row in matches {
            // 80 railroads: 20 hex digits, bit i for railroad i.
            #expect(row["built_railroads"]!.count == 20, "\(row)")
            let built = try elements(hex: row["built_railroads"]!)
            // The set is the seat's railroads: as many as its `railroads` figure.
            #expect(built.count == Int(row["railroads"]!), "\(row)")
            for r in built { expected["\(r)/\(row["entrant"]!)", default: 0] += 1 }
        }
        let counts = try csvTable(out + "/railroads.csv")
        #expect(try csvRecords(out + "/railroads.csv").first == ["railroad", "from", "to", "length", "colour", "lane", "from_latitude",
                                                                  "from_longitude", "to_latitude", "to_longitude", "entrant", "built"])
        // Every railroad of the shipped map (80) once per entrant (3).
        #expect(counts.count == 80 * 3)
        for row in counts {
            #expect(Int(row["built"]!) == expected["\(row["railroad"]!)/\(row["entrant"]!)", default: 0], "\(row)")
        }
        let paris = try #require(counts.first { $0["from"] == "Paris" || $0["to"] == "Paris" })
        let lat = paris["from"] == "Paris" ? paris["from_latitude"]! : paris["to_latitude"]!
        #expect(abs(Double(lat)! - 48.86) < 0.1, "Paris at its latitude: \(paris)")
        #expect(Set(counts.map { $0["lane"]! }) == ["0", "1"], "doubles have a second lane")
    }

    @Test("cells.csv counts placed tiles per cell and entrant, and the winners' flow cells")
    func quortexCellCounts() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let config = try scratch.config(quortexConfig(name: "cells", blocks: 30, seed: 4))
        let out = scratch("out")
        let run = try tournament(config, out: out)
        try #require(run.status == 0, "\(run.stderr)")
        var placed: [String: Int] = [:], flow: [String: Int] = [:]
        for row in try csvTable(out + "/matches.csv") {
            let cells = try elements(hex: row["placed_cells"]!)
            #expect(cells.count == Int(row["tiles_placed"]!), "\(row)")
            for c in cells { placed["\(c)/\(row["entrant"]!)", default: 0] += 1 }
            let path = try elements(hex: row["flow_cells"]!)
            // A flow is written for the seats whose connection is complete: the winners.
            #expect(path.isEmpty == (row["win_type"] != "flow" && row["win_type"] != "tie" || row["place"] != "1"), "\(row)")
            if row["place"] == "1" { for c in path { flow["\(c)/\(row["entrant"]!)", default: 0] += 1 } }
        }
        let counts = try csvTable(out + "/cells.csv")
        #expect(counts.count == 37 * 2)
        for row in counts {
            let key = "\(row["cell"]!)/\(row["entrant"]!)"
            #expect(Int(row["placed"]!) == placed[key, default: 0], "\(row)")
            #expect(Int(row["winning_flow"]!) == flow[key, default: 0], "\(row)")
        }
        #expect(flow.values.reduce(0, +) > 0, "some match ended with a flow")
    }

    @Test("--resume refuses a matches.csv whose board column is not a hex element set, naming line and column")
    func resumeBadMarks() throws {
        let (scratch, config, out, _) = try finishedRun()
        defer { scratch.remove() }
        var text = String(decoding: try contents(out + "/matches.csv"), as: UTF8.self)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines[3] = String(lines[3].dropLast()) + "g"
        text = lines.joined(separator: "\n")
        try text.write(toFile: out + "/matches.csv", atomically: true, encoding: .utf8)
        let resumed = try tournament(config, out: out, "--resume")
        #expect(resumed.status == 2)
        #expect(resumed.stderr.contains("matches.csv:4: column built_railroads:"), "\(resumed.stderr)")
        #expect(resumed.stderr.contains("expected 20 lowercase hex digits, bit i set when railroad i is marked (railroads 0...79)"),
                "\(resumed.stderr)")
    }

    @Test("summary.csv lists every entrant with matches = wins + draws + losses; the heuristic entrant anchors at 0.0")
    func summaryAndAnchor() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        // The anchor is found by strategy, not by position, and a heuristic with parameters is not it.
        let config = try scratch.config("""
            name: summary
            game: rail
            seats: 2
            entrants:
              - {name: shipped, strategy: shipped-cpu}
              - {name: eager, strategy: "heuristic(missionProbability=0.9)"}
              - {name: rnd, strategy: random}
              - {name: cpu, strategy: heuristic}
            blocks: 20
            seed: 8

            """)
        let out = scratch("out")
        let run = try tournament(config, out: out)
        try #require(run.status == 0, "\(run.stderr)")
        let names = ["shipped", "eager", "rnd", "cpu"]

        let matchRows = try csvTable(out + "/matches.csv")
        let summary = try csvTable(out + "/summary.csv")
        #expect(summary.map { $0["entrant"] ?? "" } == names)
        for row in summary {
            let entrant = row["entrant"] ?? "?"
            let matches = try #require(Int(row["matches"] ?? ""), "\(row)")
            let wins = try #require(Int(row["wins"] ?? "")), draws = try #require(Int(row["draws"] ?? ""))
            let losses = try #require(Int(row["losses"] ?? ""))
            #expect(matches == wins + draws + losses, "\(entrant): \(row)")
            #expect(matches == matchRows.filter { $0["entrant"] == entrant }.count, "\(entrant): matches differs from matches.csv")
            #expect(wins == matchRows.filter { $0["entrant"] == entrant && $0["outcome"] == "win" }.count, "\(entrant)")
            // 4 entrants, 6 tables, each entrant at 3 of them: 3 x 20 blocks x 2 matches.
            #expect(matches == 120, "\(entrant)")
        }
        let anchor = try #require(summary.first { $0["entrant"] == "cpu" })
        #expect(anchor["rating"] == "0.0")

        let ratings = try csvTable(out + "/ratings.csv")
        #expect(Set(ratings.map { $0["entrant"] ?? "" }) == Set(names))
        for row in ratings {
            #expect(row["anchor"] == (row["entrant"] == "cpu" ? "yes" : "no"), "\(row)")
        }
        #expect(ratings.first { $0["entrant"] == "cpu" }?["rating"] == "0.0")
        #expect(ratings.map { $0["rank"] ?? "" } == ["1", "2", "3", "4"])
    }

    @Test("merge refuses a missing shard and names it")
    func mergeMissingShard() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let config = try scratch.config(railConfig(blocks: 20))
        let shards = try runShards(config, in: scratch)
        let merged = scratch("merged")
        let run = try runArray(["merge", shards[2], shards[0], "--out", merged])
        #expect(run.status == 2)
        #expect(run.stderr.contains("error:"), "stderr was: \(run.stderr)")
        #expect(run.stderr.contains("2/3"), "stderr was: \(run.stderr)")
        #expect(run.stderr.contains("missing"), "stderr was: \(run.stderr)")
        #expect(!exists(merged))
    }

    @Test("merge refuses a shard from a different config (another seed)")
    func mergeDifferentConfig() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let config = try scratch.config(railConfig(blocks: 20))
        let shards = try runShards(config, in: scratch)
        let other = scratch("other-2")
        let stray = try tournament(config, out: other, "--shard", "2/3", "--seed", "7")
        try #require(stray.status == 0, "\(stray.stderr)")
        let merged = scratch("merged")
        let run = try runArray(["merge", shards[0], other, shards[2], "--out", merged])
        #expect(run.status == 2)
        #expect(run.stderr.contains("error:"), "stderr was: \(run.stderr)")
        #expect(run.stderr.contains("seed"), "stderr was: \(run.stderr)")
        #expect(run.stderr.contains(other), "stderr should name the folder: \(run.stderr)")
        #expect(!exists(merged))
    }

    @Test("merge refuses an unfinished shard")
    func mergeUnfinishedShard() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let config = try scratch.config(railConfig(blocks: 20))
        let shards = try runShards(config, in: scratch)
        // Shard 3 as a killed run leaves it: status running, part of its blocks written.
        try editRunRecord(shards[2]) { record in
            record["status"] = "running"
            record["blocksDone"] = 5
            record["finished"] = nil
        }
        let merged = scratch("merged")
        let run = try runArray(["merge", shards[0], shards[1], shards[2], "--out", merged])
        #expect(run.status == 2)
        #expect(run.stderr.contains("error:"), "stderr was: \(run.stderr)")
        #expect(run.stderr.contains("unfinished"), "stderr was: \(run.stderr)")
        #expect(run.stderr.contains("3/3"), "stderr was: \(run.stderr)")
        #expect(!exists(merged))
    }
}

/// Checks the block structure of `matches.csv` rows: blocks 0..<blocks in order on table
/// block mod tables, seats x seats rows each, every entrant of the table in every seat,
/// one seed per block and a different one for every block.
private func checkBlocks(_ rows: [[String: String]], seats: Int, blocks: Int, tables: Int,
                         sourceLocation: SourceLocation = #_sourceLocation) throws {
    try #require(rows.count == blocks * seats * seats, "\(rows.count) rows for \(blocks) blocks of \(seats) seats",
                 sourceLocation: sourceLocation)
    var seeds = Set<String>()
    var tableEntrants: [String: Set<String>] = [:]
    for block in 0..<blocks {
        let chunk = rows[(block * seats * seats)..<((block + 1) * seats * seats)]
        #expect(chunk.allSatisfy { $0["block"] == String(block) }, "block \(block) is not \(seats * seats) rows together",
                sourceLocation: sourceLocation)
        #expect(chunk.allSatisfy { $0["table"] == String(block % tables) }, "block \(block) table", sourceLocation: sourceLocation)
        let blockSeeds = Set(chunk.map { $0["seed"] ?? "" })
        #expect(blockSeeds.count == 1, "block \(block) has seeds \(blockSeeds)", sourceLocation: sourceLocation)
        if let seed = blockSeeds.first {
            #expect(seeds.insert(seed).inserted, "block \(block) repeats seed \(seed)", sourceLocation: sourceLocation)
        }
        let entrants = Set(chunk.map { $0["entrant"] ?? "" })
        #expect(entrants.count == seats, "block \(block) has entrants \(entrants)", sourceLocation: sourceLocation)
        let table = String(block % tables)
        if let known = tableEntrants[table] {
            #expect(known == entrants, "table \(table) changed entrants in block \(block)", sourceLocation: sourceLocation)
        } else {
            tableEntrants[table] = entrants
        }
        for seat in 0..<seats {
            let inSeat = chunk.filter { $0["seat"] == String(seat) }.map { $0["entrant"] ?? "" }
            #expect(inSeat.count == seats && Set(inSeat) == entrants,
                    "block \(block) seat \(seat) holds \(inSeat)", sourceLocation: sourceLocation)
        }
        // One match per rotation, numbered block * seats + rotation, every seat once per match.
        for rotation in 0..<seats {
            let match = String(block * seats + rotation)
            let matchRows = chunk.filter { $0["match"] == match }
            #expect(matchRows.map { $0["seat"] ?? "" } == (0..<seats).map(String.init), "block \(block) match \(match)",
                    sourceLocation: sourceLocation)
            #expect(Set(matchRows.map { $0["turns"] ?? "" }).count == 1, "match \(match) turns differ by seat",
                    sourceLocation: sourceLocation)
        }
    }
    #expect(Set(tableEntrants.values).count == tables, "tables are not all different", sourceLocation: sourceLocation)
}
