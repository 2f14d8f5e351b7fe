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

    init(program: BotProgram, log: BotLog, session: BotSession) {
        self.program = program
        self.log = log
        self.session = session
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

    /// Second half: waits for the exit until `deadline`, then kills the group.
    func finishQuit(by deadline: UInt64) {
        process?.awaitExit(until: deadline)
        process?.terminate()
        process = nil
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
