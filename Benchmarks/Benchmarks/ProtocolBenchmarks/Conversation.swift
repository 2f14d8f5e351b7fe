import LabCore
import Players

/// A recorded exchange between the lab and one bot process: what the lab wrote (`hello`,
/// then `start`, `turn`s and `end` per match, then `quit`) and what the bot answered
/// (`ready`, then one `action` per `turn`).
struct Conversation {
    /// One line the lab wrote, newline included.
    struct Message {
        var bytes: [UInt8]
        /// A `turn` (the bot answers it); `start` and `end` have no answer.
        var expectsReply: Bool
    }

    /// The `hello` line, newline included.
    let hello: [UInt8]
    /// The lines between `hello` and `quit`, one group per match (from its `start` to
    /// its `end`).
    let matches: [[Message]]
    /// The bot's lines after `ready`, newlines excluded.
    let replyLines: [[UInt8]]
    /// The ids of those replies.
    let replies: [Int]
    /// The outcome of each match as the lab recorded it.
    let outcomes: [Outcome]

    var turns: Int { matches.reduce(0) { $0 + $1.count { $0.expectsReply } } }

    init(labToBot: [UInt8], botToLab: [UInt8], outcomes: [Outcome]) {
        self.outcomes = outcomes
        let sent = Self.lines(labToBot)
        guard let first = sent.first, Self.type(of: first) == "hello", let last = sent.last, Self.type(of: last) == "quit" else {
            fatalError("ProtocolBenchmarks: the recording does not run from hello to quit (\(sent.count) lines)")
        }
        hello = first + [UInt8(ascii: "\n")]
        var matches: [[Message]] = []
        for line in sent.dropFirst().dropLast() {
            let type = Self.type(of: line)
            if type == "start" { matches.append([]) }
            guard !matches.isEmpty else {
                fatalError("ProtocolBenchmarks: the recording has a \(type ?? "?") line before the first start")
            }
            matches[matches.count - 1].append(Message(bytes: line + [UInt8(ascii: "\n")], expectsReply: type == "turn"))
        }
        self.matches = matches
        let answered = Self.lines(botToLab)
        guard let ready = answered.first, Self.type(of: ready) == "ready" else {
            fatalError("ProtocolBenchmarks: the bot's recording does not start with ready")
        }
        replyLines = Array(answered.dropFirst())
        replies = replyLines.map { line in
            guard let id = (try? JSONParser.parse(line))?["id"]?.integer else {
                fatalError("ProtocolBenchmarks: a recorded reply without an integer id: \(String(decoding: line, as: UTF8.self))")
            }
            return id
        }
    }

    static func lines(_ bytes: [UInt8]) -> [[UInt8]] {
        bytes.split(separator: UInt8(ascii: "\n")).map(Array.init)
    }

    /// The `type` of a message line.
    static func type(of line: [UInt8]) -> String? {
        (try? JSONParser.parse(line))?["type"]?.string
    }
}
