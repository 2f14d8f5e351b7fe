import Benchmark
import Foundation
import LabCatalog
import LabCore
import Players

/// One benchmark's matches, each played three ways (see ProtocolBenchmarks.swift):
/// through the protocol, in process with the bot's recorded replies, and as a bare
/// ping-pong of the recorded conversation. Everything is made in ``prepare()`` (the
/// benchmark's setup), so listing the benchmarks starts no process.
///
/// The three ways alternate match by match, so a burst of load on the machine tends to
/// fall on all three alike and to cancel out of their difference.
///
/// A benchmark runs on one thread: the rig takes no lock.
final class ProtocolRig<G: ProtocolGame>: @unchecked Sendable {
    let makeGame: @Sendable () -> G
    let catalogName: String
    let mapPath: String?
    let bot: BotCommand
    let matches: Int
    let placement: Placement
    private var ready: Prepared?

    /// What ``prepare()`` makes.
    private struct Prepared {
        var folder: String
        var game: G
        /// The session of the protocol run's bot process (quit in ``finish()``).
        var session: BotSession
        var table: any MatchTable
        /// What the lab and the bot wrote, match by match, and the recorded outcomes.
        var conversation: Conversation
        /// The bot's recorded action ids, handed out in order by the in-process run's
        /// strategy, and its factories (seat 0 scripted, seat 1 the catalog's `random`).
        var replies: ScriptedReplies
        var factories: [StrategyFactory<G>]
        var pingPong: PingPong
        /// The bot's decisions in one run of the matches.
        var decisions: Int
        /// The CPU of the lab's thread (its bots were started pinned to theirs).
        var labCPU: Int
        var buffer = ActionBuffer()
    }

    init(game: @escaping @Sendable () -> G, catalogName: String, mapPath: String?, bot: BotCommand, matches: Int,
         placement: Placement) {
        makeGame = game
        self.catalogName = catalogName
        self.mapPath = mapPath
        self.bot = bot
        self.matches = matches
        self.placement = placement
    }

    /// Records the conversation through the lab, starts the processes (pinned to the
    /// bots' CPU, which they inherit), and checks that the three ways replay the recording.
    func prepare() {
        let (labCPU, botCPU) = placement.cpus()
        var p = pinned(to: botCPU) { start(labCPU: labCPU) }
        pinned(to: labCPU) { check(&p) }
        ready = p
    }

    /// The recording, then the processes of the protocol run and of the ping-pong.
    private func start(labCPU: Int) -> Prepared {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("oplab-protocol-bench-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            fatalError("ProtocolBenchmarks: cannot make the folder \(folder): \(error)")
        }
        let words = bot.words(folder)

        // The recording: the bot behind two tees, played by the lab.
        let input = folder + "/lab-to-bot.jsonl", output = folder + "/bot-to-lab.jsonl"
        let script = "tee \(shellQuoted(input)) | \(words.map(shellQuoted).joined(separator: " ")) | tee \(shellQuoted(output))"
        let recordingSession = BotSession()
        let recordingTable = table(command: ["sh", "-c", script], session: recordingSession)
        let timer = DecisionTimer()
        var buffer = ActionBuffer()
        let recorded = (0..<matches).map { playThroughProtocol(recordingTable, match: $0, buffer: &buffer, timer: timer) }
        recordingSession.close()
        let decisions = timer.decisions(ofSeat: 0)
        let conversation = Conversation(labToBot: read(input), botToLab: read(output), outcomes: recorded)
        guard conversation.turns == decisions, conversation.replies.count == decisions, conversation.matches.count == matches else {
            fatalError("ProtocolBenchmarks: the recording holds \(conversation.matches.count) matches, \(conversation.turns) turns and "
                + "\(conversation.replies.count) replies for \(matches) matches and \(decisions) decisions (\(folder))")
        }

        let session = BotSession()
        let replies = ScriptedReplies(conversation.replies)
        var p = Prepared(folder: folder, game: makeGame(), session: session, table: table(command: words, session: session),
                         conversation: conversation, replies: replies,
                         factories: [
                             { _ in ScriptedStrategy<G>(replies) },
                             { context in UniformRandomStrategy<G>(seed: context.seed) },
                         ],
                         pingPong: PingPong(argv: words, hello: conversation.hello), decisions: decisions, labCPU: labCPU)
        // The table starts its bot process at its first match.
        _ = playThroughProtocol(p.table, match: 0, buffer: &p.buffer, timer: DecisionTimer())
        return p
    }

    /// The three ways must play the recorded matches: the bot and the game are
    /// deterministic, and the in-process strategy replays the bot's choices.
    private func check(_ p: inout Prepared) {
        let (protocolTimer, gameTimer) = (DecisionTimer(), DecisionTimer())
        p.replies.rewind()
        var echoed: [[UInt8]] = []
        for i in 0..<matches {
            let recorded = p.conversation.outcomes[i]
            let viaProtocol = playThroughProtocol(p.table, match: i, buffer: &p.buffer, timer: protocolTimer)
            let inProcess = playInProcess(&p, match: i, timer: gameTimer)
            guard viaProtocol == recorded, inProcess == recorded else {
                fatalError("ProtocolBenchmarks: match \(i) played again (\(viaProtocol), in process \(inProcess)) differs from "
                    + "the recording (\(recorded)): the bot or the game is not deterministic")
            }
            echoed += p.pingPong.play(p.conversation.matches[i], keepReplies: true)
        }
        guard protocolTimer.decisions(ofSeat: 0) == p.decisions, gameTimer.decisions(ofSeat: 0) == p.decisions else {
            fatalError("ProtocolBenchmarks: the replays made another number of decisions than the recording")
        }
        guard echoed == p.conversation.replyLines else {
            fatalError("ProtocolBenchmarks: the ping-pong bot answered differently from the recording")
        }
    }

    /// One iteration: every match three ways, and the metrics from the summed times.
    func iteration(_ benchmark: Benchmark) {
        guard var p = ready.take() else { fatalError("ProtocolBenchmarks: the benchmark ran without its setup") }
        defer { ready = p }
        pinned(to: p.labCPU) { measure(&p, benchmark) }
    }

    private func measure(_ p: inout Prepared, _ benchmark: Benchmark) {
        var watch = Stopwatch(laps: 3)
        let (protocolTimer, gameTimer) = (DecisionTimer(), DecisionTimer())
        p.replies.rewind()
        for i in 0..<matches {
            watch.start()
            blackHole(playThroughProtocol(p.table, match: i, buffer: &p.buffer, timer: protocolTimer))
            watch.lap(0)
            blackHole(playInProcess(&p, match: i, timer: gameTimer))
            watch.lap(1)
            blackHole(p.pingPong.play(p.conversation.matches[i], keepReplies: false))
            watch.lap(2)
        }
        precondition(protocolTimer.decisions(ofSeat: 0) == p.decisions && gameTimer.decisions(ofSeat: 0) == p.decisions,
                     "a run made another number of decisions than the recording")
        let d = Double(p.decisions)
        func perDecision(_ ns: Double) -> Int { Int((ns / d).rounded()) }
        let (wall, cpu) = (watch.wall, watch.cpu)
        benchmark.measurement(decisionsPerSecond, Int((d / wall[0] * 1e9).rounded()))
        // A difference that comes out negative (noise: load from other processes that
        // fell on the other two runs) counts as 0; the histograms take no negative values.
        benchmark.measurement(labNanoseconds, max(0, perDecision(wall[0] - wall[1] - wall[2])))
        benchmark.measurement(labCPUNanoseconds, max(0, perDecision(cpu[0] - cpu[1] - cpu[2])))
        benchmark.measurement(pingPongNanoseconds, perDecision(wall[2]))
        benchmark.measurement(gameNanoseconds, perDecision(wall[1]))
    }

    /// Quits the bots and removes the folder.
    func finish() {
        guard let p = ready else { return }
        p.session.close()
        p.pingPong.quit()
        try? FileManager.default.removeItem(atPath: p.folder)
        ready = nil
    }

    /// The catalog table `external(command=WORDS)` against `random`.
    private func table(command words: [String], session: BotSession) -> any MatchTable {
        let external = StrategySpec(name: "external", parameters: [("command", words.map(shellQuoted).joined(separator: " "))])
        let setup = TableSetup(mapPath: mapPath, players: [external, StrategySpec(name: "random")], bots: session)
        do throws(InputError) {
            return try Catalog.game(named: catalogName).makeTable(setup)
        } catch {
            fatalError("ProtocolBenchmarks: \(error)")
        }
    }

    /// Match `match` on `table`, as a tournament worker plays it (no board drawn).
    private func playThroughProtocol(_ table: any MatchTable, match: Int, buffer: inout ActionBuffer, timer: DecisionTimer) -> Outcome {
        table.play(seed: Seeds.match(masterSeed, match: UInt64(match)), strategySeed: nil, match: match, render: false,
                   buffer: &buffer, trace: nil, timer: timer).outcome
    }

    /// Match `match` by `Match.play`: the bot's recorded replies in seat 0 and the
    /// catalog's `random` (the same strategy, the same seeds) in seat 1.
    private func playInProcess(_ p: inout Prepared, match: Int, timer: DecisionTimer) -> Outcome {
        Match.play(p.game, seed: Seeds.match(masterSeed, match: UInt64(match)), match: match, factories: p.factories,
                   buffer: &p.buffer, timer: timer).outcome
    }

    private func read(_ path: String) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else {
            fatalError("ProtocolBenchmarks: cannot read the recording \(path)")
        }
        return [UInt8](data)
    }
}

/// Sums of the times between laps, by lap number, on two clocks: the wall clock
/// (`CLOCK_MONOTONIC`) and this thread's processor time (`CLOCK_THREAD_CPUTIME_ID`,
/// which leaves out the time spent waiting for a bot and the time other processes held
/// the processor).
struct Stopwatch {
    /// Nanoseconds per lap number.
    private(set) var wall: [Double], cpu: [Double]
    private var last: (wall: Double, cpu: Double) = (0, 0)

    init(laps: Int) {
        wall = Array(repeating: 0, count: laps)
        cpu = Array(repeating: 0, count: laps)
    }

    mutating func start() { last = (Self.now(CLOCK_MONOTONIC), Self.now(CLOCK_THREAD_CPUTIME_ID)) }

    /// Adds the time since the last lap (or start) to lap `lap`.
    mutating func lap(_ lap: Int) {
        let now = (wall: Self.now(CLOCK_MONOTONIC), cpu: Self.now(CLOCK_THREAD_CPUTIME_ID))
        wall[lap] += now.wall - last.wall
        cpu[lap] += now.cpu - last.cpu
        last = now
    }

    private static func now(_ clock: clockid_t) -> Double {
        var t = timespec()
        clock_gettime(clock, &t)
        return Double(t.tv_sec) * 1e9 + Double(t.tv_nsec)
    }
}

/// `word` quoted for `CommandWords.split` (and a POSIX shell): one word, taken literally.
func shellQuoted(_ word: String) -> String {
    "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
}
