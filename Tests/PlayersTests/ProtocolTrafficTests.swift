import Foundation
import GameConformance
import LabCore
import Quortex
import RailGame
import Testing

@testable import Players

/// What the lab really sends and receives, checked against `docs/schemas/`, and the
/// fair-play guarantee on whole `turn` lines.
@Suite struct ProtocolTrafficTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    static let recordingBot = root + "/Tests/PlayersTests/Bots/recording_bot.py"
    static let randomBot = root + "/examples/bots/random_bot.py"

    /// A program for `game`, handshaken with `command` (the catalog's hello).
    static func program<G: ProtocolGame>(_ game: G, command: String, options: [(key: String, value: String)] = [],
                                         timeoutMs: Int = 5000) throws -> BotProgram {
        try BotProgram(command: command, options: options, timeoutMs: timeoutMs, startupMs: 10_000) { w, options in
            game.writeHello(options: options, to: &w)
        }
    }

    /// Plays `matches` matches of the recording bot (seat 0, then seat 1) against random.
    static func record<G: ProtocolGame>(_ game: G, matches: Int, into folder: String) throws {
        let session = BotSession()
        let program = try program(game, command: "env RECORD_DIR=\(folder) python3 \(recordingBot)", options: [("level", "3"), ("tag", "seven")])
        let slots = [session.slot(program: program, entrant: "bot"), session.slot(program: program, entrant: "bot")]
        var buffer = ActionBuffer()
        for m in 0..<matches {
            let botSeat = m % 2
            var factories: [StrategyFactory<G>] = []
            for seat in 0..<game.seatCount {
                let slot = slots[botSeat]
                if seat == botSeat {
                    factories.append { context in ExternalStrategy(slot: slot, context: context) }
                } else {
                    factories.append { context in UniformRandomStrategy<G>(seed: context.seed) }
                }
            }
            let (outcome, _) = Match.play(game, seed: UInt64(100 + m), match: m, factories: factories, buffer: &buffer)
            #expect(outcome.forfeit == nil, "match \(m): \(session.faults.map(\.fault.description))")
        }
        session.close()
    }

    /// Validates each line of each of `files` against the schema its `type` names:
    /// `GAME/TYPE` for hello, turn and played, `TYPE` for the rest; one python3 process for
    /// all. Returns a verdict a file: status 0 and the counts of each type, or 1 and the
    /// first error (status 2 for all when python3 failed, with what it said).
    static func validate(_ files: [String], game: String) throws -> [(status: Int32, output: String)] {
        let script = """
            import json, sys, jsonschema
            root, game, paths = sys.argv[1], sys.argv[2], sys.argv[3:]
            per_game = {"hello", "turn", "played"}
            validators, verdicts = {}, []
            def check(path):
                counts = {}
                for n, line in enumerate(open(path), 1):
                    message = json.loads(line)
                    kind = message["type"]
                    name = f"{game}/{kind}" if kind in per_game else kind
                    if name not in validators:
                        schema = json.load(open(f"{root}/docs/schemas/{name}.schema.json"))
                        jsonschema.Draft202012Validator.check_schema(schema)
                        validators[name] = jsonschema.Draft202012Validator(schema)
                    errors = list(validators[name].iter_errors(message))
                    if errors:
                        return [1, f"line {n} ({kind}): {errors[0].message}"]
                    counts[kind] = counts.get(kind, 0) + 1
                return [0, " ".join(f"{k}={v}" for k, v in sorted(counts.items()))]
            for path in paths:
                verdicts.append(check(path))
            print(json.dumps(verdicts))
            """
        let python = try PythonScript.run(script, arguments: [root, game] + files)
        let verdicts = python.status == 0 ? (try? JSONSerialization.jsonObject(with: Data(python.output.utf8))) as? [[Any]] : nil
        guard let verdicts, verdicts.count == files.count else {
            return files.map { _ in (2, "python3 exited \(python.status): \(python.errors)\(python.output)") }
        }
        return verdicts.map { (Int32($0.first as? Int ?? 2), $0.last as? String ?? "") }
    }

    static func scratch() throws -> String {
        let path = NSTemporaryDirectory() + "oplab-traffic-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func everyRailMessageEitherWayMatchesItsSchema() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.record(try RailGame(map: RailMapFile.load(path: nil), rules: RailRules(), seatCount: 2), matches: 2, into: folder)
        let verdicts = try Self.validate([folder + "/received.jsonl", folder + "/sent.jsonl"], game: "rail")
        let (received, sent) = (verdicts[0], verdicts[1])
        #expect(received.status == 0, "\(received.output)")
        // Every message type the lab sends, in a session with `follow` (the bot in each seat once).
        for kind in ["hello=", "start=2", "turn=", "played=", "end=2", "quit="] { #expect(received.output.contains(kind), "\(received.output)") }
        #expect(sent.status == 0, "\(sent.output)")
        #expect(sent.output.contains("ready=") && sent.output.contains("action="), "\(sent.output)")
        // The user's options arrive typed as the bot declared them.
        let hello = try String(contentsOfFile: folder + "/received.jsonl", encoding: .utf8).split(separator: "\n")[0]
        let options = try JSONParser.parse(Array(hello.utf8))["options"]
        #expect(options == .object([("level", .integer(3)), ("tag", .string("seven"))]))
    }

    @Test func everyQuortexMessageEitherWayMatchesItsSchema() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.record(try QuortexGame(seatCount: 2), matches: 4, into: folder)
        let verdicts = try Self.validate([folder + "/received.jsonl", folder + "/sent.jsonl"], game: "quortex")
        let (received, sent) = (verdicts[0], verdicts[1])
        #expect(received.status == 0, "\(received.output)")
        for kind in ["hello=", "start=4", "turn=", "played=", "end=4", "quit="] { #expect(received.output.contains(kind), "\(received.output)") }
        #expect(sent.status == 0, "\(sent.output)")
    }

    /// The schemas are not vacuous: a message with a field missing or one too many fails.
    @Test func theEnvelopeSchemasRefuseBrokenMessages() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let broken = [
            #"{"type":"start","match":"1","seat":0,"teams":[0,1]}"#,
            #"{"type":"start","match":1,"seat":0,"teams":[0,1],"seed":"5"}"#,
            #"{"type":"end","match":"1","places":[1,2],"reason":"flow","extra":1}"#,
            #"{"type":"end","match":"1","places":[1,2],"reason":"forfeit","forfeit":{"seat":0,"kind":"slow"}}"#,
            #"{"type":"action","id":"3"}"#,
            #"{"type":"ready","version":"1"}"#,
            #"{"type":"ready","name":"x","options":[{"name":"a","type":"bool","min":0}]}"#,
            #"{"type":"quit","now":true}"#,
        ]
        var files: [String] = []
        for (n, line) in broken.enumerated() {
            files.append(folder + "/broken-\(n).jsonl")
            try (line + "\n").write(toFile: files[n], atomically: true, encoding: .utf8)
        }
        let verdicts = try Self.validate(files, game: "rail")
        for (line, verdict) in zip(broken, verdicts) { #expect(verdict.status == 1, "\(line): \(verdict.output)") }
    }

    /// The turn line a seat is sent, for a state.
    static func turnLine<G: ProtocolGame>(_ state: G.State, seat: Int, game: G, slot: BotSlot) -> [UInt8] {
        let strategy = ExternalStrategy(slot: slot, context: StrategyContext(game: game, seat: seat, seed: 1, match: 5))
        var legal = ActionBuffer()
        state.legalActions(into: &legal)
        strategy.writeTurn(state.observation(for: seat), legal: legal)
        return slot.writer.bytes
    }

    /// The position after up to `moves` uniformly random actions from the deal of `seed`.
    static func position<G: Game>(_ game: G, seed: UInt64, moves: Int) -> G.State {
        var state = game.newMatch(seed: seed)
        var rng = LabRandom(seed: seed)
        var buffer = ActionBuffer()
        for _ in 0..<moves where !state.isTerminal {
            state.legalActions(into: &buffer)
            state.apply(buffer[rng.uniform(buffer.count)])
        }
        return state
    }

    /// Fair play: states that differ only in what the mover cannot see give the same
    /// `turn` line, byte for byte; the lab's whole line, not the observation alone.
    @Test func railTurnLinesHideWhatTheSeatCannotSee() throws {
        let game = try RailGame(map: RailMapFile.load(path: nil), rules: RailRules(), seatCount: 3)
        let program = try Self.program(game, command: "python3 \(Self.randomBot)")
        let session = BotSession()
        defer { session.close() }
        let slot = session.slot(program: program, entrant: "bot")
        var checked = 0
        for seed in 1...6 as ClosedRange<UInt64> {
            let state = Self.position(game, seed: seed, moves: Int(seed) * 7)
            guard !state.isTerminal else { continue }
            let seat = state.currentSeat
            var a = LabRandom(seed: 1), b = LabRandom(seed: 2)
            let (one, two) = (state.observation(for: seat).sampleState(using: &a), state.observation(for: seat).sampleState(using: &b))
            // The hidden parts really differ: another seat sees something else.
            let other = (seat + 1) % 3
            #expect(one.observation(for: other) != two.observation(for: other))
            #expect(Self.turnLine(one, seat: seat, game: game, slot: slot) == Self.turnLine(state, seat: seat, game: game, slot: slot))
            #expect(Self.turnLine(two, seat: seat, game: game, slot: slot) == Self.turnLine(state, seat: seat, game: game, slot: slot))
            // And the other seat's line (what it would be sent) differs: the test can fail.
            #expect(Self.turnLine(one, seat: other, game: game, slot: slot) != Self.turnLine(two, seat: other, game: game, slot: slot))
            checked += 1
        }
        #expect(checked >= 4)
    }

    @Test func quortexTurnLinesHideTheBagOrder() throws {
        let game = try QuortexGame(seatCount: 2)
        let program = try Self.program(game, command: "python3 \(Self.randomBot)")
        let session = BotSession()
        defer { session.close() }
        let slot = session.slot(program: program, entrant: "bot")
        var checked = 0
        for seed in 1...6 as ClosedRange<UInt64> {
            let state = Self.position(game, seed: seed, moves: Int(seed) * 3)
            var buffer = ActionBuffer()
            guard !state.isTerminal else { continue }
            let seat = state.currentSeat
            var a = LabRandom(seed: 1), b = LabRandom(seed: 2)
            let one = state.observation(for: seat).sampleState(using: &a)
            let two = state.observation(for: seat).sampleState(using: &b)
            let line = Self.turnLine(state, seat: seat, game: game, slot: slot)
            #expect(Self.turnLine(one, seat: seat, game: game, slot: slot) == line)
            #expect(Self.turnLine(two, seat: seat, game: game, slot: slot) == line)
            // The bag orders differ: after the same placement the next tiles drawn differ
            // in some sample (so the hidden part is really hidden, not absent).
            var differs = false
            for k in 0..<8 where !differs {
                var c = LabRandom(seed: UInt64(10 + k))
                let three = state.observation(for: seat).sampleState(using: &c)
                state.legalActions(into: &buffer)
                var (x, y) = (one, three)
                x.apply(buffer[0])
                y.apply(buffer[0])
                differs = !x.isTerminal && !y.isTerminal && x.observation(for: x.currentSeat) != y.observation(for: y.currentSeat)
            }
            #expect(differs)
            checked += 1
        }
        #expect(checked >= 4)
    }
}
