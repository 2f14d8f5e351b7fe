import LabCore
import Players

/// `oplab bot check`: what a cutechess user checks by hand before a long run, done for
/// them. The bot is handshaken, plays `matchesPerSeat` matches against `random` from
/// every seat, every reply is read by the protocol's rules (a fault is a forfeit, counted
/// by kind), the same seeds are replayed with fresh processes to see whether it plays the
/// same, and its processes are asked to quit. Conformant: a clean handshake, no fault,
/// the same play on replay, and every process gone within the grace period after `quit`.
public struct BotCheck: Sendable {
    public var game: any GameEntry
    public var command: String
    public var seats: Int
    public var matchesPerSeat: Int
    public var timeoutMs: Int
    public var startupMs: Int
    /// The bot's options, as `opt.NAME=VALUE` would pass them.
    public var options: [(key: String, value: String)]
    public var rules: [(key: String, value: String)]
    public var mapPath: String?
    public var seed: UInt64

    public init(game: any GameEntry, command: String, seats: Int, matchesPerSeat: Int, timeoutMs: Int, startupMs: Int,
                options: [(key: String, value: String)], rules: [(key: String, value: String)], mapPath: String?, seed: UInt64) {
        self.game = game
        self.command = command
        self.seats = seats
        self.matchesPerSeat = matchesPerSeat
        self.timeoutMs = timeoutMs
        self.startupMs = startupMs
        self.options = options
        self.rules = rules
        self.mapPath = mapPath
        self.seed = seed
    }

    /// What the check found.
    public struct Findings: Sendable {
        /// The handshake's failure, if it failed (nothing else was tried then).
        public var handshakeError: String?
        /// What the bot said in `ready`: name, version, whether it follows, its options.
        public var botName = ""
        public var botVersion = ""
        public var follows = false
        public var declaredOptions: [String] = []
        public var handshakeMilliseconds: Double = 0
        public var matches = 0
        public var decisions = 0
        /// Round trips of every decision, nanoseconds, sorted.
        public var latencies: [UInt64] = []
        /// Faults by kind, in ``ForfeitKind/allCases`` order, and the first few in words.
        public var faultCounts: [ForfeitKind: Int] = [:]
        public var faultExamples: [String] = []
        /// Matches whose replay differed from the first play (actions or outcome).
        public var differingReplays: [Int] = []
        /// Processes that did not exit within 2 s of `quit` (and were killed).
        public var lingering = 0

        public var conformant: Bool {
            handshakeError == nil && faultCounts.values.allSatisfy { $0 == 0 } && differingReplays.isEmpty && lingering == 0
        }

        /// The latency at quantile `q` (nearest rank), in milliseconds.
        public func latencyMilliseconds(_ q: Double) -> Double {
            guard !latencies.isEmpty else { return 0 }
            let rank = min(latencies.count - 1, max(0, Int((q * Double(latencies.count)).rounded(.up)) - 1))
            return Double(latencies[rank]) / 1e6
        }
    }

    /// Runs the check. Throws only for input the check cannot start from (a command line
    /// with no program or an unclosed quote, an unknown rule, a bad map, a seat count the
    /// game does not take).
    public func run() throws(InputError) -> Findings {
        _ = try CommandWords.split(command)
        guard game.seatRange.contains(seats) else {
            throw InputError("--seats: \(game.name) seats \(game.seatRange.lowerBound)-\(game.seatRange.upperBound) players, not \(seats)")
        }
        try game.checkRules(rules)
        try game.checkMap(mapPath)
        var findings = Findings()
        let spec = StrategySpec(name: "external", parameters: [("command", command), ("timeout", String(timeoutMs)), ("startup", String(startupMs))]
                                + options.map { ("opt." + $0.key, $0.value) })
        // The user's options are input, not the bot's conduct: checked against what the
        // bot declares (a handshake without them) before the check proper.
        if !options.isEmpty {
            let identity: BotIdentity?
            do { identity = try Catalog.botIdentity(of: spec, for: game, seats: seats, rules: rules, mapPath: mapPath) } catch {
                findings.handshakeError = error.message
                return findings
            }
            if let identity {
                _ = try identity.check(options: options.map { ($0.key, BotProgram.typed($0.value)) }, command: command)
            }
        }
        let first = BotSession(recordsLatencies: true)
        // The handshake, alone (the table's first seat makes the program).
        let clock = ContinuousClock()
        let started = clock.now
        let tables: [any MatchTable]
        do {
            tables = try (0..<seats).map { seat throws(InputError) in try table(botSeat: seat, spec: spec, session: first) }
        } catch {
            findings.handshakeError = error.message
            return findings
        }
        let elapsed = started.duration(to: clock.now)
        findings.handshakeMilliseconds = Double(elapsed.components.seconds) * 1e3 + Double(elapsed.components.attoseconds) / 1e15
        if let identity = first.programs.first?.identity {
            findings.botName = identity.name
            findings.botVersion = identity.version
            findings.follows = identity.follow
            findings.declaredOptions = identity.options.map(\.summary)
        }
        let played = play(tables, session: first, findings: &findings)
        findings.lingering += first.quitAll()
        findings.latencies = first.latencies.sorted()
        // The same seeds again, with fresh processes: the same play, or not deterministic.
        let second = BotSession()
        guard let again = try? (0..<seats).map({ seat throws(InputError) in try table(botSeat: seat, spec: spec, session: second) }) else {
            findings.handshakeError = "the second handshake (for the replay) failed"
            return findings
        }
        var scratch = Findings()
        let replayed = play(again, session: second, findings: &scratch)
        findings.lingering += second.quitAll()
        for (k, (a, b)) in zip(played, replayed).enumerated() where a != b { findings.differingReplays.append(k) }
        return findings
    }

    private func table(botSeat: Int, spec: StrategySpec, session: BotSession) throws(InputError) -> any MatchTable {
        var players = Array(repeating: StrategySpec(name: "random"), count: seats)
        players[botSeat] = spec
        var entrants = Array(repeating: "random", count: seats)
        entrants[botSeat] = "bot"
        return try game.makeTable(TableSetup(rules: rules, mapPath: mapPath, players: players, entrants: entrants, bots: session))
    }

    /// Plays every match; returns, per match, its actions and outcome (for the replay).
    private func play(_ tables: [any MatchTable], session: BotSession, findings: inout Findings) -> [[String]] {
        var buffer = ActionBuffer()
        var records: [[String]] = []
        for (botSeat, table) in tables.enumerated() {
            for k in 0..<matchesPerSeat {
                let match = botSeat * matchesPerSeat + k
                let seed = Seeds.match(self.seed, match: UInt64(k))
                var actions: [String] = []
                let report = table.play(seed: seed, strategySeed: nil, match: match, render: false, buffer: &buffer,
                                        trace: { event in actions.append("\(event.seat):\(event.action)") }, timer: nil)
                let outcome = report.outcome
                findings.matches += 1
                findings.decisions += actions.count { $0.hasPrefix("\(botSeat):") }
                if let forfeit = outcome.forfeit, forfeit.seat == botSeat {
                    findings.faultCounts[forfeit.kind, default: 0] += 1
                }
                actions.append("end \(outcome.places) \(outcome.endReason) \(outcome.turns)")
                records.append(actions)
            }
        }
        for note in session.faults.prefix(5) where findings.faultExamples.count < 5 {
            findings.faultExamples.append("match \(note.match), seat \(note.seat): \(note.fault.kind.rawValue): \(note.fault.detail)")
        }
        return records
    }
}
