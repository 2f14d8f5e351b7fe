import ArgumentParser
import Foundation
import LabCatalog
import LabCore

struct BotCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bot",
        abstract: "Tools for external bots (the player protocol, docs/protocol.md).",
        subcommands: [BotCheckCommand.self]
    )
}

struct BotCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check that a bot speaks the player protocol: handshake, matches from every seat, replies, determinism, latency.",
        discussion: """
            The bot plays --matches matches against `random` from each seat; every reply is read \
            by the protocol's rules (a fault is counted by kind: timeout, crash, illegal, \
            malformed); the same seeds are replayed with fresh processes to see whether it plays \
            the same; its processes are asked to quit and must exit within 2 s.
            Exit status: 0 conformant, 1 not conformant, 2 bad input.
            Example: oplab bot check rail "python3 examples/bots/random_bot.py" --opt first_bias=0.2
            """
    )

    @Argument(help: "The game (`oplab games` lists them).")
    var game: String

    @Argument(help: "The bot's command line (quote it as one argument; split as a shell would, run without one).")
    var command: String

    @Option(parsing: .unconditional, help: "Matches from each seat.", transform: CommandLineNumbers.integer)
    var matches = 10

    @Option(parsing: .unconditional, help: "Seats at the table (default 2).", transform: CommandLineNumbers.integer)
    var seats: Int?

    @Option(parsing: .unconditional, help: "Milliseconds per decision.", transform: CommandLineNumbers.integer)
    var timeout = 2000

    @Option(parsing: .unconditional, help: "Milliseconds from start to the bot's ready.", transform: CommandLineNumbers.integer)
    var startup = 10_000

    @Option(name: .customLong("opt"), help: "One of the bot's own options, NAME=VALUE (repeatable).")
    var options: [String] = []

    @OptionGroup var setup: GameOptions

    @OptionGroup var seeding: SeedOption

    func run() throws {
        var findings: BotCheck.Findings?
        var entryName = ""
        var seatCount = 0
        try reportingInputErrors {
            let check = try parse()
            entryName = check.game.name
            seatCount = check.seats
            findings = try check.run()
        }
        guard let findings else { return }
        printOutput("bot check: \(entryName), \(seatCount) seats, command: \(command)")
        if let error = findings.handshakeError {
            printOutput("handshake: FAILED: \(error)")
            printOutput("verdict: not conformant")
            throw ExitCode(1)
        }
        printOutput("handshake: ok in \(Self.number(findings.handshakeMilliseconds)) ms: name \(findings.botName), "
              + "version \(findings.botVersion.isEmpty ? "-" : findings.botVersion), follow \(findings.follows), "
              + "options: \(findings.declaredOptions.isEmpty ? "none" : findings.declaredOptions.joined(separator: ", "))")
        printOutput("matches: \(findings.matches) against random (\(matches) from each seat), \(findings.decisions) decisions answered")
        let faults = ForfeitKind.allCases.compactMap { kind in findings.faultCounts[kind].map { "\(kind.rawValue) \($0)" } }
        printOutput("faults: " + (faults.isEmpty ? "none" : faults.joined(separator: ", ")))
        for example in findings.faultExamples { printOutput("  \(example)") }
        printOutput("latency per decision: p50 \(Self.ms(findings.latencyMilliseconds(0.5))), p99 \(Self.ms(findings.latencyMilliseconds(0.99))), "
              + "max \(Self.ms(findings.latencyMilliseconds(1))) (turn written to reply read, \(findings.latencies.count) decisions)")
        if findings.differingReplays.isEmpty {
            printOutput("determinism: the same \(findings.matches) seeds replayed with fresh processes: the same play in every match")
        } else {
            printOutput("determinism: FAILED: \(findings.differingReplays.count) of \(findings.matches) matches played differently on replay "
                  + "(first: match \(findings.differingReplays[0])); seed the bot from start.seed only")
        }
        printOutput("quit: " + (findings.lingering == 0 ? "every process exited within 2 s" : "\(findings.lingering) processes did not exit within 2 s of quit (killed)"))
        printOutput("verdict: " + (findings.conformant ? "conformant" : "not conformant"))
        if !findings.conformant { throw ExitCode(1) }
    }

    /// The check's own numbers, checked before the game is looked up.
    func validate() throws {
        try reportingInputErrors {
            guard (1...100_000).contains(matches) else { throw InputError("--matches: expected an integer in 1...100000, found \(matches)") }
            guard (1...3_600_000).contains(timeout) else { throw InputError("--timeout: expected milliseconds in 1...3600000, found \(timeout)") }
            guard (1...3_600_000).contains(startup) else { throw InputError("--startup: expected milliseconds in 1...3600000, found \(startup)") }
        }
    }

    /// The flags checked: the check to run.
    func parse() throws(InputError) -> BotCheck {
        let entry = try Catalog.game(named: game)
        try setup.checkMap(for: entry)
        var opts: [(key: String, value: String)] = []
        for text in options {
            guard let eq = text.firstIndex(of: "="), eq != text.startIndex else {
                throw InputError("--opt '\(text)': expected NAME=VALUE")
            }
            opts.append((String(text[..<eq]), String(text[text.index(after: eq)...])))
        }
        return BotCheck(game: entry, command: command, seats: seats ?? max(2, entry.seatRange.lowerBound), matchesPerSeat: matches,
                        timeoutMs: timeout, startupMs: startup, options: opts, rules: try setup.rulePairs(), mapPath: setup.map,
                        seed: seeding.seed)
    }

    static func ms(_ x: Double) -> String { String(format: x < 1 ? "%.3f ms" : "%.1f ms", x) }
    static func number(_ x: Double) -> String { x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : String(format: "%.1f", x) }
}
