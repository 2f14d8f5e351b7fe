import LabCore

/// Where one seat of one worker's table keeps its bot process between matches: started
/// on first use, reused match after match, replaced after a fault. A slot belongs to one
/// worker thread (the harness gives each worker tables of its own), so it takes no lock.
public final class BotSlot: @unchecked Sendable {
    public let program: BotProgram
    let log: BotLog
    unowned let session: BotSession
    private(set) var process: BotProcess?
    /// Per action id, `"id":N,"action":{...},"text":"..."` (the inside of a legal entry
    /// and the tail of a `played` message): actions are public, so the bytes depend on
    /// the game only.
    private var actionBytes: [[UInt8]?] = []
    /// The message being written (its capacity kept).
    var writer = JSONWriter(capacity: 16384)
    let entrant: String
    /// Nanoseconds of each decision's round trip, when the session records them.
    private(set) var latencies: [UInt64] = []

    init(program: BotProgram, log: BotLog, session: BotSession, entrant: String) {
        self.program = program
        self.log = log
        self.session = session
        self.entrant = entrant
    }

    /// Notes one decision's round trip (turn written to reply read).
    func record(latency: UInt64) {
        if session.recordsLatencies { latencies.append(latency) }
    }

    /// Records a fault: a line in the bot's log and a note in the session; then the
    /// process is killed (the next match starts a fresh one).
    func fail(_ fault: BotFault, match: Int, seat: Int) {
        process?.drainErrors()
        log.write(lines: Array("[oplab] match \(match), seat \(seat): forfeit (\(fault.kind.rawValue)): \(fault.detail)\n".utf8)[...],
                  process: process?.number ?? 0)
        session.note(BotSession.FaultNote(entrant: entrant, match: match, seat: seat, fault: fault))
        discard()
    }

    /// The running process, started (and handshaken) if there is none.
    func running() throws(BotFault) -> BotProcess {
        if let process, !process.exited { return process }
        process?.terminate()
        process = nil
        let started = try program.start(log: log, number: session.nextProcessNumber())
        process = started
        return started
    }

    /// Kills the process after a fault: the next match starts a fresh one.
    func discard() {
        process?.terminate()
        process = nil
    }

    /// First half of a polite end: `quit` sent and input closed (see ``finishQuit(by:)``).
    func sendQuit() {
        process?.requestQuit()
    }

    /// Second half: waits for the exit until `deadline`, then kills the group. Returns
    /// whether the bot had exited by itself (true when there was no process).
    func finishQuit(by deadline: UInt64) -> Bool {
        guard let process else { return true }
        process.awaitExit(until: deadline)
        let exited = process.exited
        process.terminate()
        self.process = nil
        return exited
    }

    /// The bytes of `action`'s entry, made once.
    func entry<G: ProtocolGame>(_ action: Int, game: G) -> [UInt8] {
        if action < actionBytes.count, let known = actionBytes[action] { return known }
        if action >= actionBytes.count { actionBytes += Array(repeating: nil, count: action + 1 - actionBytes.count) }
        var w = JSONWriter(capacity: 128)
        w.beginObject()
        w.member("id", action)
        w.key("action")
        game.writeProtocolAction(action, to: &w)
        w.member("text", game.protocolText(of: action))
        w.endObject()
        // Without the braces: the caller wraps it.
        let inner = Array(w.bytes.dropFirst().dropLast())
        actionBytes[action] = inner
        return inner
    }
}
