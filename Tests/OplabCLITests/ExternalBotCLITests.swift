import Foundation
import Testing

// The player protocol's faults, end to end: faulty bots from
// `Tests/OplabCLITests/Bots/` play tournaments through the built `oplab`.
//
// Each faulty bot (see `Bots/faultlib.py`) breaks exactly the matches whose id is
// divisible by 3, at its second turn there, unless the file `mended` exists in the folder
// given as its argument: the same command then plays the same run intact. That folder is
// the test's scratch folder, so every bot process (and its children) carries the scratch
// path in its command line, which is how the tests find leftovers.

// MARK: - Fixtures

/// The fault suite's bots, as a command names them from the package root (where
/// `runArray` runs oplab).
private let botsFolder = "Tests/OplabCLITests/Bots"

/// Matches a faulty bot breaks (faultlib.py): those whose id is divisible by 3.
private func breaks(match: Int) -> Bool { match % 3 == 0 }

/// `external(...)` for `bot` of the fault suite, tagged with (and switched by) `scratch`.
private func external(_ bot: String, _ scratch: Scratch, _ parameters: String = "") -> String {
    "external(command=\"python3 \(botsFolder)/\(bot) \(scratch.path)\"\(parameters.isEmpty ? "" : ", " + parameters))"
}

/// A config of two entrants, `bot` (an external strategy spec) and `opponent`: one table,
/// `blocks` blocks of two matches (match 2b with the bot in seat 0, 2b + 1 in seat 1).
private func duelConfig(game: String, bot: String, opponent: String, blocks: Int, seed: UInt64 = 5) -> String {
    """
    name: duel
    game: \(game)
    seats: 2
    entrants:
      - {name: bot, strategy: '\(bot)'}
      - {name: opp, strategy: \(opponent)}
    blocks: \(blocks)
    seed: \(seed)
    threads: 1

    """
}

/// The rows of `matches.csv` as written (to compare bytes) and read (to check fields).
private struct MatchRow {
    var line: Substring
    var fields: [String: String]
    var match: Int { Int(fields["match"] ?? "") ?? -1 }
}

private func matchRows(_ folder: String) throws -> [MatchRow] {
    let text = String(decoding: try contents(folder + "/matches.csv"), as: UTF8.self)
    #expect(text.hasSuffix("\n"), "\(folder)/matches.csv does not end with a newline")
    let lines = text.split(separator: "\n")
    let header = csvFields(try #require(lines.first))
    return try lines.dropFirst().map { line in
        let fields = csvFields(line)
        try #require(fields.count == header.count, "\(fields.count) fields, header has \(header.count): \(line)")
        return MatchRow(line: line, fields: Dictionary(uniqueKeysWithValues: zip(header, fields)))
    }
}

/// `summary.csv` (or any CSV the lab writes) as rows keyed by the header.
private func table(_ path: String) throws -> [[String: String]] {
    let lines = String(decoding: try contents(path), as: UTF8.self).split(separator: "\n")
    let header = csvFields(try #require(lines.first))
    return lines.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(header, csvFields($0))) }
}

/// The fields of one CSV record of the lab's (no line breaks inside fields; a quoted field
/// holds commas and doubled quotes: the `strategy` column of an external entrant).
/// TournamentCLITests' `csvRecords` reads the same, but is private to its file.
private func csvFields(_ line: Substring) -> [String] {
    var fields: [String] = [], field = ""
    var quoted = false, justClosed = false
    for c in line {
        if quoted {
            if c == "\"" { quoted = false; justClosed = true } else { field.append(c) }
            continue
        }
        switch c {
        case "\"":
            // A quote right after a closing one is a doubled quote: one quote, still quoted.
            if justClosed { field.append("\"") }
            quoted = true
        case ",": fields.append(field); field = ""
        default: field.append(c)
        }
        justClosed = false
    }
    fields.append(field)
    return fields
}

/// The processes whose command line mentions `tag` (a scratch folder), as "pid: command".
/// Zombies have an empty command line and do not count: they run nothing.
private func processes(mentioning tag: String) -> [String] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.compactMap { pid -> String? in
        guard Int32(pid) != nil, let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return nil }
        let command = String(decoding: data.map { $0 == 0 ? 0x20 : $0 }, as: UTF8.self)
        return command.contains(tag) ? "\(pid): \(command)" : nil
    }
}

/// The processes that mention the scratch folder once none does or `seconds` have
/// passed (a bound, not a speed: a killed process is gone within milliseconds, a bot that
/// read the end of its input within one Python exit).
private func survivors(_ scratch: Scratch, within seconds: Double) -> [String] {
    let deadline = Date().addingTimeInterval(seconds)
    var left = processes(mentioning: scratch.path)
    while !left.isEmpty && Date() < deadline {
        usleep(20_000)
        left = processes(mentioning: scratch.path)
    }
    return left
}

/// Kills what a failing check left behind (processes of this test, by pid), so that it
/// does not outlive the test.
private func killSurvivors(_ left: [String]) {
    for entry in left { if let pid = Int32(entry.prefix { $0 != ":" }) { kill(pid, SIGKILL) } }
}

/// Expects that no process mentions the scratch folder within `seconds`.
private func expectNoBotsLeft(_ scratch: Scratch, within seconds: Double = 10, _ when: String,
                              sourceLocation: SourceLocation = #_sourceLocation) {
    let left = survivors(scratch, within: seconds)
    #expect(left.isEmpty, "bot processes left \(when): \(left)", sourceLocation: sourceLocation)
    killSurvivors(left)
}

/// `oplab tournament CONFIG --out OUT --quiet --no-report EXTRA...` started in the
/// background, its output discarded.
private func startTournament(_ config: String, out: String, _ extra: [String] = []) throws -> Process {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try oplabBinary())
    process.arguments = ["tournament", config, "--out", out, "--quiet", "--no-report"] + extra
    process.currentDirectoryURL = URL(fileURLWithPath: packageRoot)
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    return process
}

/// Polls `condition` every millisecond while `process` runs, up to a generous minute (a
/// condition, not a speed); whether it came true.
private func waitWhile(_ process: Process, until condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(60)
    while process.isRunning && Date() < deadline {
        if condition() { return true }
        usleep(1_000)
    }
    return false
}

/// Rows (newlines) past the header of `folder/matches.csv`, 0 while it does not exist.
private func writtenRows(_ folder: String) -> Int {
    guard let data = FileManager.default.contents(atPath: folder + "/matches.csv") else { return 0 }
    return max(0, data.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) } - 1)
}

/// How many children of grandchild_bot.py (sleeping 1000 s) run for `scratch`.
private func children(of scratch: Scratch) -> Int {
    processes(mentioning: scratch.path).count { $0.contains("time.sleep(1000)") }
}

/// A 2-thread rail tournament of grandchild_bot.py in `scratch`, sent `signal` as soon as
/// `ready` holds. Returns whether oplab exited within a minute of the signal (it is
/// killed otherwise) and how; nil when the run ended before `ready`.
private func interruptGrandchildRun(_ scratch: Scratch, out: String, with signal: Int32, when ready: () -> Bool) throws
    -> (exited: Bool, status: (Process.TerminationReason, Int32))? {
    let config = try scratch.config(duelConfig(game: "rail", bot: external("grandchild_bot.py", scratch), opponent: "heuristic",
                                               blocks: 100_000))
    // Plain, as `ready` watches matches.csv (200,000 matches would be compact).
    let process = try startTournament(config, out: out, ["--threads", "2", "--no-compact"])
    guard waitWhile(process, until: ready), process.isRunning else {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        return nil
    }
    kill(process.processIdentifier, signal)
    _ = waitWhile(process) { false }
    let exited = !process.isRunning
    if !exited { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
    return (exited, (process.terminationReason, process.terminationStatus))
}

/// One faulty bot against one opponent, and the forfeit kind its fault must give.
struct FaultCase: Sendable, CustomTestStringConvertible {
    var bot: String
    var kind: String
    var game = "rail"
    var opponent = "heuristic"
    var parameters = ""
    var testDescription: String { "\(bot) against \(opponent) (\(game)): \(kind)" }
}

private let faultCases = [
    FaultCase(bot: "crash_bot.py", kind: "crash"),
    // The one fault that depends on the clock: a 3 s sleep against 500 ms, while every
    // other reply takes about a millisecond.
    FaultCase(bot: "sleepy_bot.py", kind: "timeout", parameters: "timeout=500"),
    FaultCase(bot: "garbage_bot.py", kind: "malformed"),
    FaultCase(bot: "illegal_bot.py", kind: "illegal"),
    FaultCase(bot: "huge_line_bot.py", kind: "malformed"),
    FaultCase(bot: "grandchild_bot.py", kind: "crash"),
    FaultCase(bot: "crash_bot.py", kind: "crash", game: "quortex", opponent: "reference"),
    FaultCase(bot: "illegal_bot.py", kind: "illegal", game: "quortex", opponent: "random"),
]

/// A handshake the tournament must refuse before any match, and what its error must say.
struct RefusedBot: Sendable, CustomTestStringConvertible {
    var label: String
    /// The strategy spec; `SCRATCH` stands for the scratch folder.
    var spec: String
    var expected: [String]
    var testDescription: String { label }
}

private let refusedBots = [
    RefusedBot(label: "no command=", spec: "external(timeout=300)",
               expected: ["command= is required", "e.g. external(command=\"python3 examples/bots/random_bot.py\")"]),
    RefusedBot(label: "a command that does not exist", spec: "external(command=\"no-such-oplab-bot --fast\")",
               expected: ["external(command=\"no-such-oplab-bot --fast\")", "failed its handshake",
                          "cannot start 'no-such-oplab-bot': No such file or directory"]),
    RefusedBot(label: "a bot that never says ready",
               spec: "external(command=\"python3 \(botsFolder)/never_ready_bot.py SCRATCH\", startup=2000)",
               expected: ["never_ready_bot.py", "failed its handshake", "did not say ready within 2000 ms", "startup=",
                          "the end of its standard error:", "never_ready_bot: still warming up, ready never comes"]),
    RefusedBot(label: "an option the bot does not declare",
               spec: "external(command=\"python3 examples/bots/random_bot.py SCRATCH\", opt.depth=3)",
               expected: ["random_bot.py", "option 'depth' is not one the bot declares", "it declares: first_bias, verbose"]),
    RefusedBot(label: "an option value outside the declared range",
               spec: "external(command=\"python3 examples/bots/random_bot.py SCRATCH\", opt.first_bias=2)",
               expected: ["random_bot.py", "opt.first_bias=2 is not accepted", "'first_bias' as a float in 0...1"]),
]

// MARK: - Tests

/// In parallel with each other and the rest: each test's processes carry its own scratch
/// folder, so a leftover check sees only its own, and the one deadline (the sleepy bot's
/// 3 s sleep against 500 ms, where a reply takes a millisecond) has seconds to spare.
@Suite("External bots: faults, forfeits, leftovers")
struct ExternalBotCLITests {
    @Test("A faulty bot forfeits exactly the matches it breaks, by the right kind; every other match is intact; no process remains",
          arguments: faultCases)
    func faultsForfeitTheirMatches(_ fault: FaultCase) throws {
        let scratch = try Scratch("bots")
        defer { scratch.remove() }
        let config = try scratch.config(duelConfig(game: fault.game, bot: external(fault.bot, scratch, fault.parameters),
                                                   opponent: fault.opponent, blocks: 3))
        // The same command, mended: the run the broken one must equal outside its faults.
        try Data().write(to: URL(fileURLWithPath: scratch("mended")))
        let intact = try tournament(config, out: scratch("intact"), "--no-report")
        try #require(intact.status == 0, "\(intact.stderr)")
        try FileManager.default.removeItem(atPath: scratch("mended"))
        // On 2 threads: a fault must not disturb the order or the bytes of anything else.
        let broken = try tournament(config, out: scratch("broken"), "--no-report", "--threads", "2")
        try #require(broken.status == 0, "\(broken.stderr)")

        let intactRows = try matchRows(scratch("intact")), brokenRows = try matchRows(scratch("broken"))
        try #require(intactRows.count == 3 * 2 * 2 && brokenRows.count == intactRows.count)
        #expect(intactRows.allSatisfy { $0.fields["forfeit"] == "" && $0.fields["end_reason"] != "forfeit" })
        for (good, row) in zip(intactRows, brokenRows) {
            try #require(good.match == row.match && good.fields["seat"] == row.fields["seat"])
            guard breaks(match: row.match) else {
                #expect(row.line == good.line, "match \(row.match) is not intact")
                continue
            }
            let faulty = row.fields["entrant"] == "bot"
            #expect(row.fields["end_reason"] == "forfeit", "match \(row.match): \(row.line)")
            #expect(row.fields["forfeit"] == (faulty ? fault.kind : ""), "match \(row.match): \(row.line)")
            #expect(row.fields["place"] == (faulty ? "2" : "1"), "match \(row.match): \(row.line)")
            #expect(row.fields["outcome"] == (faulty ? "loss" : "win"), "match \(row.match): \(row.line)")
        }
        // The bot sat in both seats of the broken matches (0: seat 0, 3: seat 1).
        #expect(Set(brokenRows.filter { $0.fields["forfeit"] != "" }.map { "\($0.match)/\($0.fields["seat"]!)" }) == ["0/0", "3/1"])

        // The counts agree: matches.csv, summary.csv, run.json.
        let forfeits = brokenRows.count { $0.fields["forfeit"] != "" }
        #expect(forfeits == 2)
        let summary = try table(scratch("broken") + "/summary.csv")
        #expect(summary.first { $0["entrant"] == "bot" }?["forfeits"] == String(forfeits), "\(summary)")
        #expect(summary.first { $0["entrant"] == "opp" }?["forfeits"] == "0", "\(summary)")
        #expect(try table(scratch("intact") + "/summary.csv").allSatisfy { $0["forfeits"] == "0" })
        let record = try #require(try runRecord(scratch("broken"))["forfeits"] as? [[String: Any]])
        #expect(record.count == 1 && record.first?["entrant"] as? String == "bot", "\(record)")
        for kind in ["timeout", "crash", "illegal", "malformed"] {
            #expect(record.first?[kind] as? Int == (kind == fault.kind ? forfeits : 0), "\(kind): \(record)")
        }
        #expect(try runRecord(scratch("intact"))["forfeits"] == nil)

        // The log holds the bot's own line and the lab's word on each fault.
        let log = String(decoding: try contents(scratch("broken") + "/bots/bot.log"), as: UTF8.self)
        for (match, seat) in [(0, 0), (3, 1)] {
            #expect(log.contains("\(fault.bot): breaking match \(match) at turn"), "\(log)")
            #expect(log.contains("[oplab] match \(match), seat \(seat): forfeit (\(fault.kind)): "), "\(log)")
        }
        expectNoBotsLeft(scratch, "after the runs")
    }

    @Test("A bot that fails its handshake or refuses the user's options stops the run before any match: exit 2, the problem named, no --out folder",
          arguments: refusedBots)
    func refusedHandshake(_ refused: RefusedBot) throws {
        let scratch = try Scratch("bots")
        defer { scratch.remove() }
        let spec = refused.spec.replacingOccurrences(of: "SCRATCH", with: scratch.path)
        // The external entrant second, so the message must name the entrant, not the first field it meets.
        let config = try scratch.config("""
            name: refused
            game: rail
            seats: 2
            entrants:
              - {name: cpu, strategy: heuristic}
              - {name: bot, strategy: '\(spec)'}
            blocks: 3

            """)
        let out = scratch("out")
        let run = try tournament(config, out: out)
        #expect(run.status == 2, "stderr was: \(run.stderr)")
        #expect(run.stderr.hasPrefix("error: \(config):6:"), "stderr was: \(run.stderr)")
        #expect(run.stderr.contains("entrants[1].strategy"), "stderr was: \(run.stderr)")
        for text in refused.expected {
            #expect(run.stderr.contains(text), "missing '\(text)' in: \(run.stderr)")
        }
        #expect(run.stdout.isEmpty, "stdout was: \(run.stdout)")
        #expect(!FileManager.default.fileExists(atPath: out), "\(refused.label) left \(out) behind")
        expectNoBotsLeft(scratch, "after the refusal")
    }

    @Test("A bot that forfeits every match stops the run at the streak limit with exit 2 and whole blocks; fixed, --resume completes it")
    func forfeitStreakStopsAndResumes() throws {
        let scratch = try Scratch("bots")
        defer { scratch.remove() }
        // 2 matches a block: the 10th forfeit in a row comes in block 4.
        let config = try scratch.config(duelConfig(game: "rail", bot: external("always_crash_bot.py", scratch), opponent: "heuristic",
                                                   blocks: 8))
        let out = scratch("out")
        let stopped = try tournament(config, out: out, "--no-report")
        #expect(stopped.status == 2, "stderr was: \(stopped.stderr)")
        #expect(stopped.stderr.contains("error: bot forfeited 10 matches in a row (the last by crash)"), "\(stopped.stderr)")
        #expect(stopped.stderr.contains("the run stopped after block 4 with 5 of 8 blocks in \(out)"), "\(stopped.stderr)")
        #expect(stopped.stderr.contains("--resume"), "\(stopped.stderr)")
        let atStop = try matchRows(out)
        #expect(atStop.map(\.match) == (0..<10).flatMap { [$0, $0] }, "whole blocks 0-4, two rows a match")
        #expect(atStop.allSatisfy { $0.fields["end_reason"] == "forfeit" && $0.fields["forfeit"] == ($0.fields["entrant"] == "bot" ? "crash" : "") })
        let record = try runRecord(out)
        #expect(record["status"] as? String == "stopped")
        #expect(record["blocksDone"] as? Int == 5)
        #expect(try table(out + "/summary.csv").first { $0["entrant"] == "bot" }?["forfeits"] == "10")
        expectNoBotsLeft(scratch, "after the stop")

        // The fix: the same config (a resume compares it), the bot mended by its switch file.
        try Data().write(to: URL(fileURLWithPath: scratch("mended")))
        let resumed = try tournament(config, out: out, "--no-report", "--resume")
        try #require(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stderr.contains("resuming \(out) at block 5 of 8"), "\(resumed.stderr)")
        #expect(try runRecord(out)["status"] as? String == "complete")
        let rows = try matchRows(out)
        #expect(rows.prefix(atStop.count).map(\.line) == atStop.map(\.line), "the stopped run's rows are kept")
        // Blocks 5-7 are what a run of the mended bot plays there from the start.
        let fresh = try tournament(config, out: scratch("fresh"), "--no-report")
        try #require(fresh.status == 0, "\(fresh.stderr)")
        let freshRows = try matchRows(scratch("fresh"))
        #expect(rows.count == freshRows.count)
        #expect(rows.dropFirst(atStop.count).map(\.line) == freshRows.dropFirst(atStop.count).map(\.line))
        #expect(freshRows.allSatisfy { $0.fields["forfeit"] == "" })
        // Nothing of the first session is lost: its forfeits are counted, its log kept.
        #expect(try table(out + "/summary.csv").first { $0["entrant"] == "bot" }?["forfeits"] == "10")
        let forfeits = try #require(try runRecord(out)["forfeits"] as? [[String: Any]])
        #expect(forfeits.count == 1 && forfeits.first?["crash"] as? Int == 10, "\(forfeits)")
        let log = String(decoding: try contents(out + "/bots/bot.log"), as: UTF8.self)
        #expect(log.contains("[oplab] match 9, seat 1: forfeit (crash): "), "\(log)")
        expectNoBotsLeft(scratch, "after the resume")
    }

    @Test("The Python random bot gives byte-identical results at 1 and 2 threads, and after kill -9 and --resume; its processes exit")
    func determinismAndKill9() throws {
        let scratch = try Scratch("bots")
        defer { scratch.remove() }
        // random_bot.py, holdable: while scratch/hold exists it answers no turn after block 0.
        let bot = external("held_random_bot.py", scratch)
        let config = try scratch.config(duelConfig(game: "rail", bot: bot, opponent: "heuristic", blocks: 8))
        let one = try tournament(config, out: scratch("t1"), "--no-report", "--threads", "1")
        let two = try tournament(config, out: scratch("t2"), "--no-report", "--threads", "2")
        try #require(one.status == 0, "\(one.stderr)")
        try #require(two.status == 0, "\(two.stderr)")
        try expectSameFiles(scratch("t1"), scratch("t2"))
        #expect(try matchRows(scratch("t1")).allSatisfy { $0.fields["forfeit"] == "" })

        // Held after its first block (4 rows), then killed with 7 blocks to go: a known point
        // at any speed.
        try Data().write(to: URL(fileURLWithPath: scratch("hold")))
        let killed = scratch("killed")
        let process = try startTournament(config, out: killed, ["--threads", "2"])
        let started = waitWhile(process) { writtenRows(killed) >= 4 }
        guard started, process.isRunning else {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            Issue.record("the run ended (status \(process.terminationStatus)) before it could be killed; \(writtenRows(killed)) rows")
            return
        }
        #expect(kill(process.processIdentifier, SIGKILL) == 0)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(writtenRows(killed) == 4, "only block 0 is on disk")
        // No code of oplab's runs after kill -9: the bots read the end of their input and exit.
        expectNoBotsLeft(scratch, "after kill -9")
        try FileManager.default.removeItem(atPath: scratch("hold"))
        let resumed = try tournament(config, out: killed, "--no-report", "--resume", "--threads", "2")
        try #require(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stderr.contains("resuming"), "\(resumed.stderr)")
        try expectSameFiles(scratch("t2"), killed)
        expectNoBotsLeft(scratch, "after the resume")
    }

    @Test("SIGINT, SIGTERM or SIGHUP to a running tournament: oplab exits and no bot process, nor a bot's child, remains",
          arguments: [SIGINT, SIGTERM, SIGHUP])
    func signalKillsEveryBot(_ signal: Int32) throws {
        let scratch = try Scratch("bots")
        defer { scratch.remove() }
        // Mended, the bot breaks nothing: its 4 processes (2 workers x 2 seats) start once,
        // so the signal meets no start of a process (see signalDuringRestarts).
        try Data().write(to: URL(fileURLWithPath: scratch("mended")))
        let out = scratch("out")
        let ended = try interruptGrandchildRun(scratch, out: out, with: signal) {
            writtenRows(out) >= 4 && children(of: scratch) >= 4
        }
        expectNoBotsLeft(scratch, within: 2, "after signal \(signal)")
        let end = try #require(ended, "the run ended or never got going; \(writtenRows(out)) rows")
        #expect(end.exited, "oplab did not exit within a minute of signal \(signal)")
        // Exits as the signal would have (128 + n in a shell's terms).
        #expect(end.status == (.exit, 128 + signal) || end.status == (.uncaughtSignal, signal), "terminated by \(end.status)")
    }

    /// The kill and a worker starting a bot are one step each under the registry's lock
    /// (BotRegistry.spawn): before the fix about 1 SIGINT in 10 left a child.
    @Test("A signal while bots are being restarted after faults leaves no bot's child either")
    func signalDuringRestarts() throws {
        // grandchild_bot.py crashes in every third match, so its processes restart all
        // the time; the signal comes after 1, 2 or 3 blocks, trial after trial: with two
        // matches a block, those are the three phases of the crash cycle.
        for trial in 0..<12 {
            let scratch = try Scratch("bots")
            defer { scratch.remove() }
            let out = scratch("out")
            let rows = 4 * (1 + trial % 3)
            _ = try interruptGrandchildRun(scratch, out: out, with: SIGINT) { writtenRows(out) >= rows }
            let left = survivors(scratch, within: 2)
            if !left.isEmpty {
                killSurvivors(left)
                Issue.record("trial \(trial), SIGINT at \(rows) rows: left \(left)")
                break
            }
        }
    }

    /// The bot's exit is watched through a pidfd in the poll set, not only its output's end.
    @Test("A bot that exits while a child of its own holds its output open forfeits by crash, not by timeout")
    func exitWhileChildHoldsOutput() throws {
        let scratch = try Scratch("bots")
        defer { scratch.remove() }
        let config = try scratch.config(duelConfig(game: "quortex", bot: external("stdout_holder_bot.py", scratch, "timeout=2000"),
                                                   opponent: "random", blocks: 2))
        let run = try tournament(config, out: scratch("out"), "--no-report")
        try #require(run.status == 0, "\(run.stderr)")
        let forfeited = try matchRows(scratch("out")).filter { $0.fields["forfeit"] != "" }
        #expect(forfeited.map(\.match) == [0, 3])
        #expect(forfeited.allSatisfy { $0.fields["forfeit"] == "crash" }, "\(forfeited.map(\.line))")
        expectNoBotsLeft(scratch, "after the run")
    }

    @Test("A bot's standard error is kept in OUT/bots/ENTRANT.log, each line marked with its process")
    func stderrGoesToTheEntrantsLog() throws {
        let scratch = try Scratch("bots")
        defer { scratch.remove() }
        let config = try scratch.config("""
            name: chatty
            game: quortex
            seats: 2
            entrants:
              - {name: chatty, strategy: 'external(command="python3 examples/bots/random_bot.py \(scratch.path)", opt.verbose=true)'}
              - {name: ref, strategy: reference}
            blocks: 2

            """)
        let out = scratch("out")
        let run = try tournament(config, out: out, "--no-report")
        try #require(run.status == 0, "\(run.stderr)")
        let log = String(decoding: try contents(out + "/bots/chatty.log"), as: UTF8.self)
        let lines = log.split(separator: "\n")
        // random_bot.py with verbose logs "match M turn T: TEXT" for each of its decisions.
        #expect(!lines.isEmpty && lines.allSatisfy { $0.wholeMatch(of: /\[\d+\] match \d turn \d+: .+/) != nil }, "\(log)")
        for match in 0..<4 {
            #expect(log.contains("] match \(match) turn "), "match \(match) is missing from \(log)")
        }
        #expect(!FileManager.default.fileExists(atPath: out + "/bots/ref.log"), "a lab strategy has no log")
        #expect(!run.stdout.contains("match 0 turn") && !run.stderr.contains("match 0 turn"), "the bot's log leaked into oplab's output")
        expectNoBotsLeft(scratch, "after the run")
    }
}
