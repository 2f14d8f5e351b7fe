import Foundation
import LabCore
import Testing
import Tournament

// MARK: - Fixtures

/// The smallest valid config: the required fields only (lines 1-5).
private let minimal = """
    name: t
    game: rail
    entrants:
      - {name: a, strategy: heuristic}
      - {name: b, strategy: random}

    """

/// Every field set (the brief's example, as a gauntlet so that `candidate` applies).
private let full = """
    name: rail-baseline
    game: rail                 # or quortex
    rules: {spentCards: discard}          # any rule knob; optional
    map: configs/maps/train-depot-europe.json   # optional
    seats: 2                   # players per match
    entrants:
      - {name: cpu, strategy: heuristic}
      - {name: shipped, strategy: shipped-cpu}
      - {name: rnd, strategy: "random"}
    format: gauntlet           # or round-robin
    candidate: cpu             # gauntlet only
    blocks: 500                # seat-rotation blocks per table
    seed: 20261121
    threads: 0                 # 0 = all cores

    """

/// Runs `body` with `yaml` written to `config.yaml` in a fresh temporary folder, then removes the folder.
private func withConfigFile<T>(_ yaml: String, _ body: (String) throws -> T) throws -> T {
    let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("oplab-config-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("config.yaml").path
    try yaml.write(toFile: path, atomically: true, encoding: .utf8)
    return try body(path)
}

/// Loads `yaml` from a temporary file.
private func load(_ yaml: String) throws -> ConfigDocument {
    try withConfigFile(yaml) { path in try ConfigLoader.load(path: path) }
}

/// The message `yaml` is refused with, its temporary path shown as `config.yaml`; "" when it loads.
private func failure(_ yaml: String) throws -> String {
    try withConfigFile(yaml) { path in
        do throws(InputError) {
            _ = try ConfigLoader.load(path: path)
            Issue.record("expected the config to be refused:\n\(yaml)")
            return ""
        } catch {
            return error.message.replacingOccurrences(of: path, with: "config.yaml")
        }
    }
}

/// A config text and the exact message it is refused with.
struct RefusedConfig: Sendable, CustomTestStringConvertible {
    var yaml: String
    var message: String
    var testDescription: String { message }

    init(_ yaml: String, _ message: String) {
        self.yaml = yaml
        self.message = message
    }
}

// MARK: - Valid configs

@Suite("Config loading")
struct ConfigLoadingTests {
    @Test("A minimal config gets every default")
    func minimalDefaults() throws {
        let config = try load(minimal).config
        #expect(config.name == "t")
        #expect(config.game == "rail")
        #expect(config.entrants == [Entrant(name: "a", strategy: "heuristic"), Entrant(name: "b", strategy: "random")])
        #expect(config.rules == [])
        #expect(config.map == nil)
        #expect(config.seats == 2)
        #expect(config.format == .roundRobin)
        #expect(config.candidate == nil)
        #expect(config.blocks == 100)
        #expect(config.seed == 1)
        #expect(config.threads == 0)
        #expect(config.compact == nil)

        let d = TournamentConfig.defaults
        #expect(config.rules == d.rules && config.map == d.map && config.seats == d.seats && config.format == d.format)
        #expect(config.candidate == d.candidate && config.blocks == d.blocks && config.seed == d.seed && config.threads == d.threads)
        #expect(config == TournamentConfig(name: "t", game: "rail", entrants: config.entrants))
    }

    @Test("compact: true or false is kept; left out, the run's size decides (nil)")
    func compactField() throws {
        #expect(try load(minimal + "compact: true\n").config.compact == true)
        #expect(try load(minimal + "compact: false\n").config.compact == false)
        #expect(try load(minimal + "compact:\n").config.compact == nil)
    }

    @Test("Optional fields left empty take their defaults")
    func emptyOptionalFields() throws {
        let config = try load(minimal + "map: ~\nseats:\nrules:\nformat: null\nseed:\n").config
        #expect(config == TournamentConfig(name: "t", game: "rail", entrants: config.entrants))
    }

    @Test("The full example loads every field")
    func fullExample() throws {
        let document = try load(full)
        #expect(document.path.hasSuffix("config.yaml"))
        #expect(document.config == TournamentConfig(
            name: "rail-baseline",
            game: "rail",
            rules: [RuleSetting(key: "spentCards", value: "discard")],
            map: "configs/maps/train-depot-europe.json",
            seats: 2,
            entrants: [
                Entrant(name: "cpu", strategy: "heuristic"),
                Entrant(name: "shipped", strategy: "shipped-cpu"),
                Entrant(name: "rnd", strategy: "random"),
            ],
            format: .gauntlet,
            candidate: "cpu",
            blocks: 500,
            seed: 20_261_121,
            threads: 0
        ))
    }

    @Test("Parsing text gives the same config, with the given path in messages")
    func parseText() throws {
        let parsed = try ConfigLoader.parse(yaml: full, path: "configs/rail.yaml")
        #expect(parsed.path == "configs/rail.yaml")
        #expect(parsed.config == (try load(full)).config)
        #expect(throws: InputError("configs/rail.yaml:6:8: seats: expected an integer >= 1, found 'two'")) {
            try ConfigLoader.parse(yaml: minimal + "seats: two\n", path: "configs/rail.yaml")
        }
    }

    @Test("Rules keep file order; numbers and booleans become their text")
    func rulesInFileOrder() throws {
        let yaml = minimal + """
            rules:
              turnCap: 50
              spentCards: discard
              longestRoute: true
              missionProbability: 0.25
              code: "007"
              alpha: 'x y'

            """
        let rules = try load(yaml).config.rules
        #expect(rules.map(\.key) == ["turnCap", "spentCards", "longestRoute", "missionProbability", "code", "alpha"])
        #expect(rules.map(\.value) == ["50", "discard", "true", "0.25", "007", "x y"])
    }

    @Test("The largest seed and a 64-character name are accepted")
    func limits() throws {
        let name = String(repeating: "a", count: 63) + "_"
        let config = try load(minimal.replacingOccurrences(of: "name: t\n", with: "name: \(name)\n")
            + "seed: 18446744073709551615\n").config
        #expect(config.seed == UInt64.max)
        #expect(config.name == name)
    }

    @Test("location(of:) finds nested fields, falling back to the nearest parent, then the file")
    func locations() throws {
        let document = try ConfigLoader.parse(yaml: full, path: "rail.yaml")
        #expect(document.location(of: "entrants[2].strategy") == "rail.yaml:9:27")
        #expect(document.location(of: "entrants[1]") == "rail.yaml:8:5")
        #expect(document.location(of: "entrants[1].name") == "rail.yaml:8:12")
        #expect(document.location(of: "rules.spentCards") == "rail.yaml:3:21")
        #expect(document.location(of: "seats") == "rail.yaml:5:8")
        #expect(document.location(of: "seed") == "rail.yaml:13:7")
        #expect(document.location(of: "entrants[7].name") == "rail.yaml:7:3")
        #expect(document.location(of: "rules.turnCap") == "rail.yaml:3:8")
        #expect(document.location(of: "nothing.here") == "rail.yaml:1:1")
        #expect(document.location(of: "") == "rail.yaml:1:1")

        let comments = try ConfigLoader.parse(yaml: "# a comment\n\n" + minimal, path: "c.yaml")
        #expect(comments.location(of: "entrants[1].strategy") == "c.yaml:7:25")
    }

    @Test("error(at:) makes a located message for checks made after loading")
    func laterErrors() throws {
        let document = try ConfigLoader.parse(yaml: full, path: "rail.yaml")
        #expect(document.error(at: "entrants[1].strategy", "unknown strategy 'shipped-cpu2'; available: random")
            == InputError("rail.yaml:8:31: entrants[1].strategy: unknown strategy 'shipped-cpu2'; available: random"))
        #expect(document.error(at: "rules.turnCap", "unknown rule knob")
            == InputError("rail.yaml:3:8: rules.turnCap: unknown rule knob"))
    }
}

// MARK: - Refused configs

@Suite("Config errors")
struct ConfigErrorTests {
    @Test("A missing file or a folder cannot be read")
    func unreadable() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-\(UUID().uuidString).yaml").path
        #expect(throws: InputError("cannot read config '\(missing)': no such file")) {
            try ConfigLoader.load(path: missing)
        }
        try withConfigFile(minimal) { path in
            let folder = (path as NSString).deletingLastPathComponent
            #expect(throws: InputError("cannot read config '\(folder)': it is a directory")) {
                try ConfigLoader.load(path: folder)
            }
        }
    }

    @Test("A file that is not UTF-8 is refused")
    func notUTF8() throws {
        try withConfigFile(minimal) { path in
            try Data([0x6E, 0x61, 0x6D, 0x65, 0x3A, 0x20, 0xFF, 0xFE, 0x0A]).write(to: URL(fileURLWithPath: path))
            #expect(throws: InputError("cannot read config '\(path)': not UTF-8 text")) {
                try ConfigLoader.load(path: path)
            }
        }
    }

    @Test("YAML syntax errors carry the line and column of the problem",
          arguments: [
              RefusedConfig("name: t\nseats: 2: 3\n",
                            "config.yaml:2:9: YAML syntax error: mapping values are not allowed in this context"),
              RefusedConfig("name: t\ngame: [rail\n",
                            "config.yaml:3:1: YAML syntax error: did not find expected ',' or ']' (while parsing a flow sequence at 2:7)"),
              RefusedConfig("name: t\n  game: rail\n",
                            "config.yaml:2:7: YAML syntax error: mapping values are not allowed in this context"),
          ])
    func syntax(_ refused: RefusedConfig) throws {
        let message = try failure(refused.yaml)
        #expect(message == refused.message)
    }

    @Test("Characters YAML does not allow are reported at their line and column")
    func controlCharacter() {
        #expect(throws: InputError("c.yaml:2:9: YAML syntax error: control characters are not allowed")) {
            try ConfigLoader.parse(yaml: "name: t\ngame: ra\u{1}il\n", path: "c.yaml")
        }
    }

    @Test("An empty document or a top level that is not a mapping is refused",
          arguments: [
              RefusedConfig("", "config.yaml: the config is empty; expected a mapping of config fields (at least name, game and entrants)"),
              RefusedConfig("# nothing yet\n", "config.yaml: the config is empty; expected a mapping of config fields (at least name, game and entrants)"),
              RefusedConfig("---\n", "config.yaml: the config is empty; expected a mapping of config fields (at least name, game and entrants)"),
              RefusedConfig("- name: t\n- game: rail\n",
                            "config.yaml:1:1: expected a mapping of config fields (at least name, game and entrants) at the top level, found a list"),
              RefusedConfig("rail\n",
                            "config.yaml:1:1: expected a mapping of config fields (at least name, game and entrants) at the top level, found 'rail'"),
          ])
    func notAMapping(_ refused: RefusedConfig) throws {
        let message = try failure(refused.yaml)
        #expect(message == refused.message)
    }

    @Test("Unknown fields are refused with the accepted ones",
          arguments: [
              RefusedConfig(minimal + "blcoks: 500\n",
                            "config.yaml:6:1: unknown field 'blcoks'; accepted: name, game, rules, map, seats, entrants, format, candidate, blocks, seed, threads, compact"),
              RefusedConfig(minimal + "  - {name: c, strategy: random, strenght: 3}\n",
                            "config.yaml:6:33: entrants[2]: unknown field 'strenght'; accepted: name, strategy"),
          ])
    func unknownFields(_ refused: RefusedConfig) throws {
        let message = try failure(refused.yaml)
        #expect(message == refused.message)
    }

    @Test("Missing required fields are reported at the enclosing mapping",
          arguments: [
              RefusedConfig("game: rail\nentrants: [{name: a, strategy: x}, {name: b, strategy: y}]\n",
                            "config.yaml:1:1: missing required field 'name' (the tournament's name, used for its results folder)"),
              RefusedConfig("name: t\nentrants: [{name: a, strategy: x}, {name: b, strategy: y}]\n",
                            "config.yaml:1:1: missing required field 'game' (the game to play; `oplab games` lists them)"),
              RefusedConfig("name: t\ngame: rail\n",
                            "config.yaml:1:1: missing required field 'entrants' (a list of entrants, each {name, strategy})"),
              RefusedConfig(minimal + "  - {name: c}\n",
                            "config.yaml:6:5: entrants[2]: missing required field 'strategy' (the strategy it plays, e.g. heuristic)"),
              RefusedConfig(minimal + "  - strategy: random\n",
                            "config.yaml:6:5: entrants[2]: missing required field 'name' (the entrant's name in results)"),
              RefusedConfig(minimal.replacingOccurrences(of: "name: t\n", with: "name:\n"),
                            "config.yaml:1:6: name: expected 1 to 64 characters from A-Z a-z 0-9 . _ - not starting with '.', found an empty value"),
          ])
    func missingFields(_ refused: RefusedConfig) throws {
        let message = try failure(refused.yaml)
        #expect(message == refused.message)
    }

    @Test("Values of the wrong type name what was expected and found",
          arguments: [
              RefusedConfig(minimal + "seats: two\n", "config.yaml:6:8: seats: expected an integer >= 1, found 'two'"),
              RefusedConfig(minimal + "blocks: 2.5\n", "config.yaml:6:9: blocks: expected an integer >= 1, found '2.5'"),
              RefusedConfig(minimal + "threads: [1]\n", "config.yaml:6:10: threads: expected an integer in 0...1024 (0 = all cores), found a list"),
              RefusedConfig("name: t\ngame: rail\nentrants: {a: heuristic, b: random}\n",
                            "config.yaml:3:11: entrants: expected a list of entrants, each {name, strategy}, found a mapping"),
              RefusedConfig(minimal + "  - heuristic\n",
                            "config.yaml:6:5: entrants[2]: expected a mapping {name, strategy}, found 'heuristic'"),
              RefusedConfig(minimal + "rules: [spentCards, discard]\n",
                            "config.yaml:6:8: rules: expected a mapping of rule knob to value, e.g. {spentCards: discard}, found a list"),
              RefusedConfig(minimal + "rules:\n  turnCap: 50\n  spentCards: {mode: discard}\n",
                            "config.yaml:8:15: rules.spentCards: expected a string, number or boolean, found a mapping"),
              RefusedConfig(minimal + "rules: {turnCap: }\n",
                            "config.yaml:6:18: rules.turnCap: expected a string, number or boolean, found an empty value"),
              RefusedConfig(minimal.replacingOccurrences(of: "game: rail", with: "game: {name: rail}"),
                            "config.yaml:2:7: game: expected a game name, found a mapping"),
              RefusedConfig(minimal + "map: [a.json]\n", "config.yaml:6:6: map: expected a map file path, found a list"),
              RefusedConfig(minimal + "compact: maybe\n", "config.yaml:6:10: compact: expected true or false, found 'maybe'"),
              RefusedConfig("name: t\ngame: rail\nentrants:\n",
                            "config.yaml:3:10: entrants: expected a list of entrants, each {name, strategy}, found an empty value"),
              RefusedConfig(minimal + "seats: \"3\"\n", "config.yaml:6:8: seats: expected an integer >= 1, found '3' (quoted, so text)"),
              RefusedConfig(minimal + "rules: {\"on\": 1}\n", "config.yaml:6:15: rules.on: write this knob name without quotes or tags"),
              RefusedConfig(minimal + "? [seats]\n: 2\n", "config.yaml:6:3: field names must be text, found a list"),
          ])
    func wrongTypes(_ refused: RefusedConfig) throws {
        let message = try failure(refused.yaml)
        #expect(message == refused.message)
    }

    @Test("Values out of range are refused",
          arguments: [
              RefusedConfig(minimal + "seats: 0\n", "config.yaml:6:8: seats: expected an integer >= 1, found '0'"),
              RefusedConfig(minimal + "blocks: 0\n", "config.yaml:6:9: blocks: expected an integer >= 1, found '0'"),
              RefusedConfig(minimal + "threads: -1\n", "config.yaml:6:10: threads: expected an integer in 0...1024 (0 = all cores), found '-1'"),
              RefusedConfig(minimal + "threads: 5000\n", "config.yaml:6:10: threads: expected an integer in 0...1024 (0 = all cores), found '5000'"),
              RefusedConfig(minimal + "seed: -5\n",
                            "config.yaml:6:7: seed: expected an integer from 0 to 18446744073709551615, found '-5'"),
              RefusedConfig(minimal + "seed: 18446744073709551616\n",
                            "config.yaml:6:7: seed: expected an integer from 0 to 18446744073709551615, found '18446744073709551616'"),
              RefusedConfig("name: t\ngame: rail\nentrants:\n  - {name: a, strategy: heuristic}\n",
                            "config.yaml:4:3: entrants: expected at least 2 entrants, found 1"),
              RefusedConfig("name: t\ngame: rail\nentrants: []\n", "config.yaml:3:11: entrants: expected at least 2 entrants, found 0"),
              RefusedConfig(minimal.replacingOccurrences(of: "name: t\n", with: "name: my league\n"),
                            "config.yaml:1:7: name: expected 1 to 64 characters from A-Z a-z 0-9 . _ - not starting with '.', found 'my league'"),
              RefusedConfig(minimal.replacingOccurrences(of: "name: t\n", with: "name: .hidden\n"),
                            "config.yaml:1:7: name: expected 1 to 64 characters from A-Z a-z 0-9 . _ - not starting with '.', found '.hidden'"),
              RefusedConfig(minimal.replacingOccurrences(of: "name: t\n", with: "name: ../up\n"),
                            "config.yaml:1:7: name: expected 1 to 64 characters from A-Z a-z 0-9 . _ - not starting with '.', found '../up'"),
              RefusedConfig(minimal.replacingOccurrences(of: "name: t\n", with: "name: \(String(repeating: "x", count: 65))\n"),
                            "config.yaml:1:7: name: expected 1 to 64 characters from A-Z a-z 0-9 . _ - not starting with '.', found '\(String(repeating: "x", count: 40))… (65 characters)'"),
              RefusedConfig(minimal + "  - {name: c, strategy: \"\"}\n",
                            "config.yaml:6:25: entrants[2].strategy: expected a strategy spec such as name or name(key=value, ...), on one line, found ''"),
              RefusedConfig(minimal + "  - {name: '', strategy: random}\n",
                            "config.yaml:6:12: entrants[2].name: expected an entrant name of 1 to 64 characters (64 bytes in UTF-8) on one line (no control characters), found ''"),
              RefusedConfig(minimal.replacingOccurrences(of: "game: rail", with: "game: ''"),
                            "config.yaml:2:7: game: expected a game name, found ''"),
              RefusedConfig(minimal + "map: ''\n", "config.yaml:6:6: map: expected a map file path, found ''"),
          ])
    func outOfRange(_ refused: RefusedConfig) throws {
        let message = try failure(refused.yaml)
        #expect(message == refused.message)
    }

    @Test("An entrant name or strategy with a line break is refused: matches.csv keeps one row per line")
    func lineBreaksRefused() throws {
        let name = try failure(minimal + "  - {name: \"c\\npu\", strategy: random}\n")
        #expect(name.hasPrefix("config.yaml:6:12: entrants[2].name: expected an entrant name of 1 to 64 characters (64 bytes in UTF-8) on one line"))
        let strategy = try failure(minimal + "  - {name: c, strategy: \"random\\r\\n\"}\n")
        #expect(strategy.hasPrefix("config.yaml:6:25: entrants[2].strategy: expected a strategy spec"))
    }

    @Test("An entrant name is 1 to 64 bytes, as the run's name is: a longer one could not name its bot's log file")
    func entrantNameLength() throws {
        let rule = "expected an entrant name of 1 to 64 characters (64 bytes in UTF-8) on one line (no control characters)"
        let long = String(repeating: "a", count: 5000)
        #expect(try failure(minimal + "  - {name: \(long), strategy: random}\n")
            == "config.yaml:6:12: entrants[2].name: \(rule), found '\(String(repeating: "a", count: 40))… (5000 characters)'")
        // 22 characters of 3 bytes each are 66 bytes: too long for the limit in bytes.
        #expect(try failure(minimal + "  - {name: \(String(repeating: "€", count: 22)), strategy: random}\n").contains(rule))
        let document = try load(minimal + "  - {name: \(String(repeating: "b", count: 64)), strategy: random}\n")
        #expect(document.config.entrants[2].name.count == 64)
    }

    @Test("A megabyte in a field gives a short error that quotes the value's start and its length")
    func hugeValuesQuotedShort() throws {
        let huge = String(repeating: "9", count: 1_000_000)
        let seats = try failure(minimal + "seats: \"\(huge)\"\n")
        #expect(seats == "config.yaml:6:8: seats: expected an integer >= 1, found '\(huge.prefix(40))… (1000000 characters)' (quoted, so text)")
        let candidate = try failure(minimal + "format: gauntlet\ncandidate: \(huge)\n")
        #expect(candidate == "config.yaml:7:12: candidate: '\(huge.prefix(40))… (1000000 characters)' is not an entrant; accepted: a, b")
        // (YAML takes keys of at most 1,024 characters.)
        let field = try failure(minimal + "x\(huge.prefix(1000)): 1\n")
        #expect(field.hasPrefix("config.yaml:6:1: unknown field 'x\(huge.prefix(39))… (1001 characters)'; accepted: name, game"))
        for message in [seats, candidate, field] { #expect(message.count <= 500, "\(message.count) characters") }
    }

    @Test("An unknown format lists the accepted ones")
    func unknownFormat() throws {
        #expect(try failure(minimal + "format: swiss\n") == "config.yaml:6:9: format: expected one of round-robin, gauntlet, found 'swiss'")
    }

    @Test("A duplicate entrant name points at the second entrant")
    func duplicateEntrants() throws {
        #expect(try failure(minimal + "  - {name: a, strategy: random}\n")
            == "config.yaml:6:12: entrants[2].name: duplicate entrant name 'a' (also entrants[0].name); each entrant needs its own name")
        let second = "name: t\ngame: rail\nentrants:\n  - {name: cpu, strategy: heuristic}\n  - {name: cpu, strategy: random}\n"
        #expect(try failure(second).contains("config.yaml:5:12: entrants[1].name: duplicate entrant name 'cpu'"))
    }

    @Test("The candidate must be an entrant of a gauntlet, and only of a gauntlet",
          arguments: [
              RefusedConfig(minimal + "format: gauntlet\n",
                            "config.yaml:6:9: format: gauntlet needs a candidate: add 'candidate: <entrant name>' with one of: a, b"),
              RefusedConfig(minimal + "format: gauntlet\ncandidate: c\n",
                            "config.yaml:7:12: candidate: 'c' is not an entrant; accepted: a, b"),
              RefusedConfig(minimal + "candidate: a\n",
                            "config.yaml:6:12: candidate: candidate applies only to format: gauntlet"),
              RefusedConfig(full.replacingOccurrences(of: "format: gauntlet ", with: "format: round-robin"),
                            "config.yaml:11:12: candidate: candidate applies only to format: gauntlet"),
          ])
    func candidate(_ refused: RefusedConfig) throws {
        let message = try failure(refused.yaml)
        #expect(message == refused.message)
    }

    @Test("A key given twice in one mapping is refused",
          arguments: [
              RefusedConfig(minimal + "seats: 2\nseats: 3\n",
                            "config.yaml:6:1: duplicate key 'seats' in one mapping (first given here); each field may be given only once"),
              RefusedConfig(minimal + "  - {name: c, strategy: random, name: d}\n",
                            "config.yaml:6:6: duplicate key 'name' in one mapping (first given here); each field may be given only once"),
              RefusedConfig(minimal + "rules: {turnCap: 5, turnCap: 6}\n",
                            "config.yaml:6:9: duplicate key 'turnCap' in one mapping (first given here); each field may be given only once"),
          ])
    func duplicateKeys(_ refused: RefusedConfig) throws {
        let message = try failure(refused.yaml)
        #expect(message == refused.message)
    }
}
