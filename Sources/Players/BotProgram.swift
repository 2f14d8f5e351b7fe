import LabCore

/// A bot as a strategy spec names it: its command, the user's options, its time limits,
/// and the `hello` it is sent, checked once by a handshake before any match.
public final class BotProgram: Sendable {
    /// The command line as given (for messages).
    public let command: String
    let argv: [String]
    /// Milliseconds per decision (`turn.time.move_ms`).
    public let timeoutMs: Int
    /// Milliseconds from start to `ready`.
    public let startupMs: Int
    /// The `hello` line, newline included.
    let hello: [UInt8]
    /// The bot's `ready`, as its first process said it.
    public let identity: BotIdentity

    /// Starts the bot once and checks its handshake and the user's options against its
    /// declarations; the process is quit again.
    /// - Throws: an error naming the command, what went wrong and the end of its log.
    /// - Parameter handshake: false makes the program without starting the bot (its
    ///   identity unknown, options unchecked): for plans that play no match (`merge`).
    public init(command: String, options: [(key: String, value: String)], timeoutMs: Int, startupMs: Int, handshake: Bool = true,
                helloWithoutOptions: (inout JSONWriter, [(key: String, value: JSONValue)]) -> Void) throws(InputError) {
        self.command = command
        argv = try CommandWords.split(command)
        self.timeoutMs = timeoutMs
        self.startupMs = startupMs
        let typed = options.map { (key: $0.key, value: Self.typed($0.value)) }
        guard handshake else {
            var writer = JSONWriter()
            helloWithoutOptions(&writer, typed)
            writer.bytes.append(UInt8(ascii: "\n"))
            hello = writer.bytes
            identity = BotIdentity(name: "", version: "", follow: false, options: [])
            return
        }
        var probeHello = JSONWriter()
        helloWithoutOptions(&probeHello, typed)
        probeHello.bytes.append(UInt8(ascii: "\n"))
        let log = BotLog(path: nil)
        let probe: BotProcess
        let identity: BotIdentity
        do {
            (probe, identity) = try Self.start(argv: argv, hello: probeHello.bytes, startupMs: startupMs, log: log, number: 0)
        } catch {
            throw Self.startError(command: command, fault: error, log: log)
        }
        probe.quit(grace: 2_000_000_000)
        // The user's options against the declared ones: checked before any match.
        let checked = try identity.check(options: typed, command: command)
        var writer = JSONWriter()
        helloWithoutOptions(&writer, checked)
        writer.bytes.append(UInt8(ascii: "\n"))
        hello = writer.bytes
        self.identity = identity
    }

    /// A fresh process of this bot, handshaken (`hello` sent, `ready` read).
    func start(log: BotLog, number: Int) throws(BotFault) -> BotProcess {
        try Self.start(argv: argv, hello: hello, startupMs: startupMs, log: log, number: number).0
    }

    static func start(argv: [String], hello: [UInt8], startupMs: Int, log: BotLog, number: Int) throws(BotFault) -> (BotProcess, BotIdentity) {
        let process = try BotProcess(argv: argv, log: log, number: number)
        let deadline = monotonicNanoseconds() + UInt64(startupMs) * 1_000_000
        do {
            try process.send(hello, deadline: deadline)
            let line = try process.readLine(deadline: deadline)
            return (process, try BotIdentity.read(line))
        } catch {
            process.terminate()
            if error.kind == .timeout { throw BotFault(.timeout, "did not say ready within \(startupMs) ms") }
            throw error
        }
    }

    /// The error for a bot that failed its handshake: the command, the fault and the end
    /// of its log.
    static func startError(command: String, fault: BotFault, log: BotLog) -> InputError {
        let tail = log.tail.split(separator: "\n").suffix(12).map { "    " + $0 }.joined(separator: "\n")
        return InputError("external(command=\"\(command)\"): the bot failed its handshake: \(fault.detail)"
            + (fault.kind == .timeout ? " (startup= sets the limit in ms)" : "")
            + (fault.detail.hasPrefix("cannot start") ? "" // it never ran: no log to quote
                : tail.allSatisfy({ $0 == " " || $0 == "\n" }) ? "; its standard error was empty" : "; the end of its standard error:\n\(tail)"))
    }

    /// A user's option value as the protocol sends it: a JSON number or boolean when it
    /// reads as one, a string otherwise.
    public static func typed(_ text: String) -> JSONValue {
        if text == "true" { return .bool(true) }
        if text == "false" { return .bool(false) }
        if let value = try? JSONParser.parse(text.utf8) {
            switch value {
            case .integer, .number: return value
            default: break
            }
        }
        return .string(text)
    }

    static func written(_ value: JSONValue) -> String {
        switch value {
        case .integer(let n): String(n)
        case .number(let x): String(x)
        case .bool(let b): String(b)
        case .string(let s): s
        default: value.typeName
        }
    }

    /// A line of the bot's, shortened for a message.
    static func quote(_ line: ArraySlice<UInt8>) -> String {
        let text = String(decoding: line.prefix(200), as: UTF8.self)
        return "'" + text + (line.count > 200 ? "...' (\(line.count) bytes)" : "'")
    }
}

extension JSONWriter {
    /// A parsed JSON value, written back.
    public mutating func value(_ v: JSONValue) {
        switch v {
        case .null: null()
        case .bool(let b): value(b)
        case .integer(let n): value(n)
        case .number(let x): value(x)
        case .string(let s): value(s)
        case .array(let elements):
            beginArray()
            for e in elements { value(e) }
            endArray()
        case .object(let members):
            beginObject()
            for (k, e) in members {
                key(k)
                value(e)
            }
            endObject()
        }
    }
}


extension ProtocolGame {
    /// ``writeHello(options:to:)`` with the bot's options as parsed values.
    public func writeHello(options: [(key: String, value: JSONValue)], to w: inout JSONWriter) {
        var object = JSONWriter(capacity: 64)
        object.beginObject()
        for (k, v) in options {
            object.key(k)
            object.value(v)
        }
        object.endObject()
        writeHello(options: object.bytes, to: &w)
    }
}
