import Foundation
import GameConformance
import LabCore
import Testing
import TicTacToe

/// Tic-tac-toe in the player protocol (docs/protocol/tictactoe.md): every action names its
/// cell, row and column, both seats see the whole board, a finished match names its end,
/// the page's examples are this code's bytes, and the messages match the published schemas.
/// (The objects' fields themselves are checked in TicTacToeTests.)
@Suite("Tic-tac-toe protocol")
struct TicTacToeProtocolTests {
    @Test func helloCarriesTheOptionsAndTheSetup() throws {
        let hello = try #require(try JSONSerialization.jsonObject(with: Data(TP.hello(options: #"{"depth":3}"#).utf8)) as? [String: Any])
        #expect(hello["game"] as? String == "tictactoe" && hello["seats"] as? Int == 2 && hello["protocol"] as? Int == 1)
        #expect(hello["options"] as? [String: Int] == ["depth": 3])
        let setup = try #require(hello["setup"] as? [String: Any])
        #expect(Set(setup.keys) == ["rows", "columns", "action_count", "marks"])
        #expect(setup["columns"] as? Int == 3 && setup["action_count"] as? Int == TicTacToeState().actionSpaceSize)
    }

    @Test func everyActionNamesItsCellRowAndColumn() throws {
        for cell in 0..<9 {
            let object = try TP.parse { TP.game.writeProtocolAction(cell, to: &$0) }
            #expect(object.count == 3 && object["cell"] as? Int == cell, "cell \(cell)")
            #expect(object["row"] as? Int == cell / 3 && object["col"] as? Int == cell % 3, "cell \(cell)")
            #expect(TP.game.protocolText(of: cell) == "mark r\(cell / 3)c\(cell % 3)")
            #expect(TP.game.protocolText(of: cell) == TicTacToeState().describe(cell))
        }
    }

    @Test func finishedMatchesNameTheirEnd() throws {
        // X takes the diagonal 2-4-6 on the fifth mark.
        let won = TP.play([4, 0, 2, 1, 6])
        let object = try TP.parse { won.observation(for: 1).writeProtocolObservation(to: &$0) }
        #expect(Set(object.keys) == ["seat", "turn", "mover", "board", "winner", "reason"])
        #expect(object["winner"] as? Int == 0 && object["reason"] as? String == "three-in-a-row")
        #expect(object["turn"] as? Int == 5 && object["mover"] as? Int == won.currentSeat)
        let draw = TP.play([0, 1, 2, 4, 3, 5, 7, 6, 8])
        let drawn = try TP.parse { draw.observation(for: 0).writeProtocolObservation(to: &$0) }
        #expect(drawn["winner"] is NSNull && drawn["reason"] as? String == "board-full" && drawn["turn"] as? Int == 9)
        let board = try #require(drawn["board"] as? [[Int]])
        #expect(board == [[0, 1, 0], [0, 1, 1], [1, 0, 0]], "a full board, top row first")
    }

    @Test func bothSeatsSeeTheSameBoard() throws {
        // Perfect information: the two seats' observations differ in `seat` alone.
        let state = TP.play([4, 0, 2])
        let zero = String(decoding: TP.observationBytes(state, seat: 0), as: UTF8.self)
        let one = String(decoding: TP.observationBytes(state, seat: 1), as: UTF8.self)
        #expect(zero != one)
        #expect(zero.replacingOccurrences(of: #"{"seat":0,"#, with: #"{"seat":1,"#) == one)
        // Another position gives other bytes.
        #expect(TP.observationBytes(TP.play([4, 0, 6]), seat: 0) != TP.observationBytes(state, seat: 0))
    }

    @Test func messagesMatchThePublishedSchemas() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tictactoe-protocol-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let hellos = [TP.hello(), TP.hello(options: #"{"noise":0.1,"name":"x"}"#)]
        var turns: [String] = [], played: [String] = []
        var rng = LabRandom(seed: 3)
        for match in 0..<30 {
            var state = TP.game.newMatch(seed: UInt64(match))
            while !state.isTerminal {
                turns.append(TP.turn(state, match: "\(match)"))
                let legal = TP.legal(state)
                let action = legal[rng.uniform(legal.count)]
                played.append(TP.played(seat: state.currentSeat, action: action, match: "\(match)"))
                state.apply(action)
            }
        }
        var checks = SchemaChecks(schemas: TP.schemas)
        checks.add(hellos, schema: "hello", valid: true)
        checks.add(turns, schema: "turn", valid: true)
        checks.add(played, schema: "played", valid: true)
        // The schemas reject what is not the game's: each line is wrong in one field.
        let turn = turns[3]
        checks.add([turn.replacingOccurrences(of: #""reason":"none""#, with: #""reason":"none","hidden":1"#),
                    turn.replacingOccurrences(of: #""action":{"cell":"#, with: #""action":{"cell":9,"x":"#),
                    turn.replacingOccurrences(of: #""reason":"none""#, with: #""reason":"resign""#),
                    turn.replacingOccurrences(of: #""board":[["#, with: #""board":[[2,"#),
                    turn.replacingOccurrences(of: #""text":"mark r"#, with: #""text":"mark row "#)], schema: "turn", valid: false)
        checks.add([hellos[0].replacingOccurrences(of: #""rules":{}"#, with: #""rules":{"rows":4}"#),
                    hellos[0].replacingOccurrences(of: #""rows":3"#, with: #""rows":4"#)], schema: "hello", valid: false)
        checks.add([played[0].replacingOccurrences(of: #""text":"mark r"#, with: #""text":"mark cell "#),
                    played[0].replacingOccurrences(of: #""col":"#, with: #""col":3,"x":"#)], schema: "played", valid: false)
        for outcome in try checks.run(in: folder) { #expect(outcome.passed, "\(outcome)") }
    }

    /// The examples in docs/protocol/tictactoe.md are these bytes; on a mismatch the test
    /// writes the fresh examples to a temporary file and names it.
    @Test func docsShowTheMessagesThisCodeWrites() throws {
        let examples = TP.docExamples()
        let docs = try String(contentsOf: TP.root.appendingPathComponent("docs/protocol/tictactoe.md"), encoding: .utf8)
        let missing = examples.filter { !docs.contains($0) }
        if !missing.isEmpty {
            let out = FileManager.default.temporaryDirectory.appendingPathComponent("tictactoe-protocol-examples.md")
            try examples.joined(separator: "\n\n").write(to: out, atomically: true, encoding: .utf8)
            Issue.record("docs/protocol/tictactoe.md lacks \(missing.count) of the \(examples.count) examples; the fresh ones are in \(out.path)")
        }
    }
}

/// Lines as the lab writes them (docs/protocol.md), with the tic-tac-toe objects, and the
/// helpers that read them back.
enum TP {
    static let game = TicTacToeGame()

    /// The package's folder.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The position after marking `cells` in turn from the empty board.
    static func play(_ cells: [Int]) -> TicTacToeState {
        var state = game.newMatch(seed: 0)
        for cell in cells { state.apply(cell) }
        return state
    }

    static func legal(_ state: TicTacToeState) -> [Int] {
        var buffer = ActionBuffer()
        state.legalActions(into: &buffer)
        return buffer.actions
    }

    static func parse(_ write: (inout JSONWriter) -> Void) throws -> [String: Any] { try ProtocolLines.object(write) }

    static func observationBytes(_ state: TicTacToeState, seat: Int) -> [UInt8] { ProtocolLines.observationBytes(state, seat: seat) }

    static func hello(options: String = "{}") -> String { ProtocolLines.hello(game, options: options) }

    /// A `turn` line of the mover.
    static func turn(_ state: TicTacToeState, match: String) -> String { ProtocolLines.turn(game, state, match: match) }

    static func played(seat: Int, action: Int, match: String) -> String {
        ProtocolLines.played(game, seat: seat, action: action, match: match)
    }

    /// docs/schemas/tictactoe/, for ``SchemaChecks``.
    static let schemas = root.appendingPathComponent("docs/schemas/tictactoe")

    /// The examples docs/protocol/tictactoe.md shows: the `hello`, and a `turn` and a
    /// `played` line after three marks (X in the centre and the top right, O in the top
    /// left; O to move, and O blocks the diagonal).
    static func docExamples() -> [String] {
        let state = play([4, 0, 2])
        let hello = hello(options: #"{"depth":3}"#)
        let turn = turn(state, match: "17")
        let played = played(seat: state.currentSeat, action: 6, match: "17")
        return ["```json\n" + hello + "\n```", "```json\n" + turn + "\n```", "```json\n" + played + "\n```"]
    }
}
