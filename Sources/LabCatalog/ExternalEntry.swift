import LabCore
import Players

/// `external(command=..., timeout=..., startup=..., opt.NAME=VALUE...)`: a bot in any
/// language, played through the player protocol (`docs/protocol.md`), in every game that
/// speaks it.
enum ExternalEntry {
    /// Milliseconds per decision unless `timeout=` says otherwise.
    static let defaultTimeoutMs = 2000
    /// Milliseconds from start to `ready` unless `startup=` says otherwise (the spec's 10 s).
    static let defaultStartupMs = 10_000

    static let command = Parameter<String>("command")
    static let timeout = Parameter<Int>("timeout")
    static let startup = Parameter<Int>("startup")

    static func entry<G: ProtocolGame>(for _: G.Type) -> StrategyEntry<G> {
        StrategyEntry(
            name: "external",
            summary: "a bot outside the lab, any language, over the player protocol (docs/protocol.md)",
            parameters: [
                command.text(default: "", "the command line that starts the bot (split as a shell would, run without one)"),
                timeout.spec(1...3_600_000, default: defaultTimeoutMs, "milliseconds per decision; a later reply forfeits the match"),
                startup.spec(1...3_600_000, default: defaultStartupMs, "milliseconds from start to the bot's ready"),
            ],
            openPrefix: "opt."
        ) { params, game, environment throws(InputError) in
            let command = params[Self.command]
            guard command.contains(where: { $0 != " " && $0 != "\t" }) else {
                throw InputError("strategy external: command= is required, e.g. external(command=\"python3 examples/bots/random_bot.py\")")
            }
            let session = environment.bots ?? BotSession.detached
            let options = params.open
            let timeout = params[Self.timeout]
            let startup = params[Self.startup]
            let hello = { (w: inout JSONWriter, options: [(key: String, value: JSONValue)]) in game.writeHello(options: options, to: &w) }
            // One handshake per bot, options and table shape in a run (tables of one
            // tournament share their game).
            let key = ([command, String(timeout), String(startup), String(game.seatCount)] + options.map { "\($0.key)=\($0.value)" })
                .joined(separator: "\u{1}")
            let program = try session.program(key: key) { () throws(InputError) in
                try BotProgram(command: command, options: options, timeoutMs: timeout, startupMs: startup, handshake: session.handshakes,
                               helloWithoutOptions: hello)
            }
            let slot = session.slot(program: program, entrant: environment.entrant ?? "external")
            return { context in ExternalStrategy(slot: slot, context: context) }
        }
    }
}

extension Catalog {
    /// Quits the bots played outside a run (`oplab play`): `quit`, 2 s, then their groups
    /// are killed.
    public static func closeDetachedBots() { BotSession.detached.close() }

    /// The faults of external bots played outside a run (`oplab play`): one line each
    /// (match, seat, kind, what happened), then the end of the bot's standard error.
    public static func detachedBotFaults() -> [String] {
        BotSession.detached.faults.map { note in
            let log = BotSession.detached.log(for: note.entrant).tail
                .split(separator: "\n").filter { !$0.contains("] [oplab] ") }.suffix(8).map { "    " + $0 }
            return "P\(note.seat) forfeited (\(note.fault.kind.rawValue)): \(note.fault.detail)"
                + (log.isEmpty ? "" : "; the end of its standard error:\n" + log.joined(separator: "\n"))
        }
    }
}
