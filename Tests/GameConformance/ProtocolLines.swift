import Foundation
import LabCore

/// What a game's protocol tests build again and again: objects written with
/// ``JSONWriter``, parsed back or as text lines.
public enum ProtocolLines {
    /// The bytes did not parse to a JSON object.
    public struct NotAnObject: Error, CustomStringConvertible {
        public let text: String
        public var description: String { "not a JSON object: \(text)" }
    }

    /// The JSON object `write` writes, parsed.
    public static func object(_ write: (inout JSONWriter) throws -> Void) throws -> [String: Any] {
        var json = JSONWriter()
        try write(&json)
        guard let object = try JSONSerialization.jsonObject(with: Data(json.bytes)) as? [String: Any] else {
            throw NotAnObject(text: String(decoding: json.bytes, as: UTF8.self))
        }
        return object
    }

    /// `seat`'s observation of `state` as the protocol writes it.
    public static func observationBytes<S: GameState>(_ state: S, seat: Int) -> [UInt8] where S.Observation: ProtocolObservation {
        var json = JSONWriter()
        state.observation(for: seat).writeProtocolObservation(to: &json)
        return json.bytes
    }

    /// One object, its members written by `build`, as a line of text (no newline).
    public static func line(_ build: (inout JSONWriter) -> Void) -> String {
        var json = JSONWriter()
        json.beginObject()
        build(&json)
        json.endObject()
        return String(decoding: json.bytes, as: UTF8.self)
    }

    /// The `hello` line of `game` with the bot's `options` (JSON text).
    public static func hello<G: ProtocolGame>(_ game: G, options: String = "{}") -> String {
        var json = JSONWriter()
        game.writeHello(options: Array(options.utf8), to: &json)
        return String(decoding: json.bytes, as: UTF8.self)
    }

    /// The `turn` line of `state`'s mover: the observation, every legal action (id, object,
    /// text) and a 2,000 ms move budget.
    public static func turn<G: ProtocolGame>(_ game: G, _ state: G.State, match: String) -> String {
        var legal = ActionBuffer()
        state.legalActions(into: &legal)
        return line { json in
            json.member("type", "turn")
            json.member("match", match)
            json.member("turn", state.turn)
            json.member("seat", state.currentSeat)
            json.key("observation")
            state.observation(for: state.currentSeat).writeProtocolObservation(to: &json)
            json.key("legal")
            json.beginArray()
            for i in 0..<legal.count {
                json.beginObject()
                json.member("id", legal[i])
                json.key("action")
                game.writeProtocolAction(legal[i], to: &json)
                json.member("text", game.protocolText(of: legal[i]))
                json.endObject()
            }
            json.endArray()
            json.key("time")
            json.beginObject()
            json.member("move_ms", 2000)
            json.endObject()
        }
    }

    /// The `played` line of `seat`'s `action`.
    public static func played<G: ProtocolGame>(_ game: G, seat: Int, action: Int, match: String) -> String {
        line { json in
            json.member("type", "played")
            json.member("match", match)
            json.member("seat", seat)
            json.member("id", action)
            json.key("action")
            game.writeProtocolAction(action, to: &json)
            json.member("text", game.protocolText(of: action))
        }
    }
}
