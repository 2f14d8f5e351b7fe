import Foundation
import LabCore
import Synchronization

/// The bots of one run: their programs (each handshaken once), their processes (one
/// per worker thread and seat, in ``BotSlot``s), and their logs. A run tells the session
/// its results folder (logs go to `bots/ENTRANT.log` there) and closes it at its end:
/// every process is sent `quit` and its group killed after the grace period.
public final class BotSession: Sendable {
    /// A fault as it happened: which entrant's bot, in which match and seat, and why.
    public struct FaultNote: Sendable {
        public var entrant: String
        public var match: Int
        public var seat: Int
        public var fault: BotFault
    }

    /// Whether slots record every decision's round trip (``latencies``): `bot check`.
    public let recordsLatencies: Bool
    /// The most fault notes kept (the latest).
    static let faultNotesKept = 1000

    private struct State {
        var faults: [FaultNote] = []
        var folder: String?
        var logs: [String: BotLog] = [:]
        var programs: [String: BotProgram] = [:]
        /// Handshakes that failed, so a plan's second look at the same bot (the catalog
        /// locating which entrant fails) does not start it again.
        var failures: [String: InputError] = [:]
        var slots: [BotSlot] = []
        var processes = 0
        /// The log failures already warned of.
        var warned: Set<String> = []
    }
    private let state = Mutex(State())

    /// Whether bots are started to check their handshake when their program is made
    /// (false: for plans that play no match, such as a merge's).
    public let handshakes: Bool

    public init(recordsLatencies: Bool = false, handshakes: Bool = true) {
        self.recordsLatencies = recordsLatencies
        self.handshakes = handshakes
    }

    /// The latest faults (at most ``faultNotesKept``), oldest first.
    public var faults: [FaultNote] { state.withLock { $0.faults } }

    func note(_ fault: FaultNote) {
        state.withLock { s in
            s.faults.append(fault)
            if s.faults.count > Self.faultNotesKept { s.faults.removeFirst(s.faults.count - Self.faultNotesKept) }
        }
    }

    /// The programs handshaken so far.
    public var programs: [BotProgram] { state.withLock { Array($0.programs.values) } }

    /// Every recorded round trip, in nanoseconds (when ``recordsLatencies``).
    public var latencies: [UInt64] {
        let slots = state.withLock { $0.slots }
        return slots.flatMap(\.latencies)
    }

    /// Where the logs go from now on: `FOLDER/bots/ENTRANT.log`.
    public func open(resultsFolder folder: String) {
        state.withLock { s in
            s.folder = folder
            for (name, log) in s.logs { log.attach(path: Self.logPath(folder, name)) }
        }
    }

    /// Quits every bot process of the session (they exit within the grace period, or
    /// their groups are killed), then warns on standard error of each log that could not
    /// be written (``logWarnings``), once. The slots stay usable: a later match starts a
    /// new process.
    public func close() {
        _ = quitAll()
        let warnings = state.withLock { s in
            let new = Self.warnings(s.logs).filter { !s.warned.contains($0) }
            s.warned.formUnion(new)
            return new
        }
        for warning in warnings { Diagnostics.write("warning: " + warning + "\n") }
    }

    /// One line per entrant whose log file could not be opened or written: which, why,
    /// and that its standard error is lost from then on (its matches count as played).
    public var logWarnings: [String] { state.withLock { Self.warnings($0.logs) } }

    private static func warnings(_ logs: [String: BotLog]) -> [String] {
        logs.sorted { $0.key < $1.key }.compactMap { entrant, log in
            log.failure.map { "the log of \(entrant.excerpt()) was not kept: \($0); what the bot wrote on its standard error from then on is lost (its matches count as played)" }
        }
    }

    /// ``close()``, returning how many processes did not exit within the grace period
    /// after `quit` (and were killed).
    public func quitAll() -> Int {
        let slots = state.withLock { $0.slots }
        for slot in slots { slot.sendQuit() }
        // One grace period for all (player protocol: `quit`, exit within 2 s).
        let deadline = monotonicNanoseconds() + 2_000_000_000
        return slots.reduce(0) { $0 + ($1.finishQuit(by: deadline) ? 0 : 1) }
    }

    /// The log of `entrant` (its file under the results folder once there is one).
    public func log(for entrant: String) -> BotLog {
        state.withLock { s in
            if let log = s.logs[entrant] { return log }
            let log = BotLog(path: s.folder.map { Self.logPath($0, entrant) })
            s.logs[entrant] = log
            return log
        }
    }

    /// The program for `key`, made (and handshaken) by `make` the first time only.
    /// A failed handshake is remembered and thrown again.
    public func program(key: String, make: () throws(InputError) -> BotProgram) throws(InputError) -> BotProgram {
        let known = state.withLock { s in (s.programs[key], s.failures[key]) }
        if let program = known.0 { return program }
        if let failure = known.1 { throw failure }
        let made: BotProgram
        do { made = try make() } catch {
            state.withLock { $0.failures[key] = error }
            throw error
        }
        return state.withLock { s in
            if let known = s.programs[key] { return known }
            s.programs[key] = made
            return made
        }
    }

    /// A new slot (one process at a time) for one seat of one worker's table.
    public func slot(program: BotProgram, entrant: String) -> BotSlot {
        let slot = BotSlot(program: program, log: log(for: entrant), session: self, entrant: entrant)
        state.withLock { $0.slots.append(slot) }
        return slot
    }

    /// The next process number (the marks in the logs).
    func nextProcessNumber() -> Int {
        state.withLock { s in
            s.processes += 1
            return s.processes
        }
    }

    /// `FOLDER/bots/NAME.log`, the name kept to letters, digits, `.`, `-` and `_`.
    static func logPath(_ folder: String, _ entrant: String) -> String {
        let safe = String(entrant.map { $0.isLetter || $0.isNumber || "._-".contains($0) ? $0 : "_" })
        return folder + "/bots/" + (safe.isEmpty ? "bot" : safe) + ".log"
    }

    /// The session of strategies made outside a run (`play`, training): logs kept in
    /// memory only; its processes end with oplab.
    public static let detached = BotSession()
}
