import CBotProcess
import Glibc
import LabCore

/// Why a bot process failed a request: the protocol's faults, with what happened.
public struct BotFault: Error, Sendable, CustomStringConvertible {
    public var kind: ForfeitKind
    public var detail: String

    public init(_ kind: ForfeitKind, _ detail: String) {
        self.kind = kind
        self.detail = detail
    }

    public var description: String { "\(kind.rawValue): \(detail)" }
}

/// Nanoseconds on the monotonic clock: deadlines never move with the wall clock.
@inline(__always) func monotonicNanoseconds() -> UInt64 {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return UInt64(t.tv_sec) &* 1_000_000_000 &+ UInt64(t.tv_nsec)
}

/// One running bot: its process group, the pipes to its standard input, output and
/// error, and what it has written that was not read yet.
///
/// Every wait is a `poll(2)` on the pipes against a monotonic deadline; while it waits
/// for a reply it also drains the bot's standard error into its log, so a chatty bot
/// never blocks on a full pipe. One thread uses a process at a time.
final class BotProcess {
    /// The longest line either side may write, newline excluded (player protocol).
    static let maxLine = 1 << 20

    let pid: pid_t
    /// This process's number among those of its log (for the log's line marks).
    let number: Int
    let log: BotLog
    private var input: Int32
    private var output: Int32
    private var errors: Int32
    /// Readable once the bot has exited (pidfd), or -1 where the kernel has none: then
    /// an exit is seen only when the bot's output closes.
    private var exitWatch: Int32
    private var terminated = false
    /// Bytes read from the bot's output; `start` is the first not yet consumed.
    private var pending: [UInt8] = []
    private var start = 0
    /// Bytes of the bot's standard error after its last newline.
    private var errorLine: [UInt8] = []
    private(set) var exited = false
    private var readChunk = [UInt8](repeating: 0, count: 65536)

    /// Starts `argv` (argv[0] found on PATH; a relative path resolves against the
    /// current folder). Throws the `errno` message for a command that cannot start.
    init(argv: [String], log: BotLog, number: Int) throws(BotFault) {
        self.log = log
        self.number = number
        var toBot: [Int32] = [0, 0], fromBot: [Int32] = [0, 0], errs: [Int32] = [0, 0]
        guard oplab_pipe(&toBot) == 0 else { throw BotFault(.crash, "cannot make a pipe: \(String(cString: strerror(errno)))") }
        guard oplab_pipe(&fromBot) == 0 else {
            close(toBot[0]); close(toBot[1])
            throw BotFault(.crash, "cannot make a pipe: \(String(cString: strerror(errno)))")
        }
        guard oplab_pipe(&errs) == 0 else {
            close(toBot[0]); close(toBot[1]); close(fromBot[0]); close(fromBot[1])
            throw BotFault(.crash, "cannot make a pipe: \(String(cString: strerror(errno)))")
        }
        var cArgs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) }
        cArgs.append(nil)
        defer { for p in cArgs { free(p) } }
        let (rc, child) = cArgs.withUnsafeBufferPointer { args in
            BotRegistry.spawn { pid in oplab_spawn(args.baseAddress, toBot[0], fromBot[1], errs[1], &pid) }
        }
        close(toBot[0]); close(fromBot[1]); close(errs[1])
        guard rc == 0 else {
            close(toBot[1]); close(fromBot[0]); close(errs[0])
            throw BotFault(.crash, rc == ECANCELED ? "oplab is ending" : "cannot start '\(argv[0])': \(String(cString: strerror(rc)))")
        }
        pid = child
        exitWatch = oplab_pidfd(child)
        input = toBot[1]
        output = fromBot[0]
        errors = errs[0]
        _ = oplab_nonblocking(input)
        _ = oplab_nonblocking(output)
        _ = oplab_nonblocking(errors)
    }

    deinit { terminate() }

    /// Writes `bytes` (whole lines) before `deadline`, draining the bot's output pipes
    /// meanwhile so neither side can block the other.
    func send(_ bytes: [UInt8], deadline: UInt64) throws(BotFault) {
        guard !exited, input >= 0 else { throw BotFault(.crash, "the bot has exited") }
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes { raw in write(input, raw.baseAddress! + sent, raw.count - sent) }
            if n > 0 { sent += n; continue }
            if n < 0 && errno == EINTR { continue }
            guard n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) else {
                throw BotFault(.crash, "closed its input (\(String(cString: strerror(errno))))")
            }
            try wait(forWriting: true, deadline: deadline)
        }
    }

    /// The next line the bot writes (newline excluded) before `deadline`.
    /// - Throws: `timeout` past the deadline; `crash` when the bot closes its output;
    ///   `malformed` for a line over ``maxLine`` bytes.
    func readLine(deadline: UInt64) throws(BotFault) -> ArraySlice<UInt8> {
        var scanned = start
        while true {
            if let newline = pending[scanned...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = pending[start..<newline]
                start = newline + 1
                return line
            }
            scanned = pending.count
            if pending.count - start > Self.maxLine {
                throw BotFault(.malformed, "wrote a line longer than \(Self.maxLine) bytes")
            }
            if start > 0 && start == pending.count {
                pending.removeAll(keepingCapacity: true)
                start = 0
                scanned = 0
            }
            try wait(forWriting: false, deadline: deadline)
        }
    }

    /// Whether the bot has written output not asked for yet (read without waiting).
    func hasUnreadOutput() -> Bool {
        if start < pending.count { return true }
        var fd = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
        guard poll(&fd, 1, 0) > 0, fd.revents & Int16(POLLIN) != 0 else { return false }
        _ = readAvailable(output)
        return start < pending.count
    }

    /// Waits until the input can take bytes (`forWriting`) or output has arrived,
    /// reading what arrives; stderr is drained into the log throughout.
    private func wait(forWriting: Bool, deadline: UInt64) throws(BotFault) {
        while true {
            let now = monotonicNanoseconds()
            guard now < deadline else {
                throw BotFault(.timeout, forWriting ? "did not read its input in time" : "did not answer in time")
            }
            let ms = Int32(min(UInt64(Int32.max), (deadline - now + 999_999) / 1_000_000))
            var fds = [pollfd(fd: forWriting ? input : output, events: Int16(forWriting ? POLLOUT : POLLIN), revents: 0),
                       pollfd(fd: errors, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: exitWatch, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, 3, ms)
            if ready < 0 {
                if errno == EINTR { continue }
                throw BotFault(.crash, "poll failed: \(String(cString: strerror(errno)))")
            }
            if fds[1].revents != 0 { drainErrors() }
            let r = fds[0].revents
            if forWriting {
                if r & Int16(POLLOUT) != 0 { return }
                if r & Int16(POLLERR | POLLHUP) != 0 { throw BotFault(.crash, "closed its input") }
            } else if r & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
                let n = readAvailable(output)
                if n == 0 {
                    drainErrors()
                    throw BotFault(.crash, exitDescription())
                }
                if n > 0 { return }
            }
            // The bot exited while something else (a child of its) holds its pipes open:
            // a crash all the same, once what it wrote before has been read.
            if fds[2].revents != 0 {
                if !forWriting, readAvailable(output) > 0 { return }
                drainErrors()
                throw BotFault(.crash, exitDescription())
            }
        }
    }

    /// Reads what the output pipe holds into `pending`: the bytes read, 0 at its end,
    /// -1 when nothing was there.
    private func readAvailable(_ fd: Int32) -> Int {
        var total = 0
        while true {
            let n = readChunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            if n > 0 {
                pending.append(contentsOf: readChunk[0..<n])
                total += n
                if pending.count - start > Self.maxLine + 1 { return total }
                continue
            }
            if n == 0 { return total > 0 ? total : 0 }
            if errno == EINTR { continue }
            return total > 0 ? total : -1
        }
    }

    /// Bytes of standard error one ``drainErrors()`` reads at most: a bot that writes
    /// without end is read in turns with its deadline, not until it stops.
    static let drainBudget = 1 << 20

    /// Moves what the bot wrote to its standard error into the log, whole lines at a
    /// time: what the pipe holds, up to ``drainBudget`` bytes. Returns the bytes read.
    @discardableResult
    func drainErrors() -> Int {
        guard errors >= 0 else { return 0 }
        var total = 0
        while total < Self.drainBudget {
            let n = readChunk.withUnsafeMutableBytes { read(errors, $0.baseAddress!, $0.count) }
            if n > 0 {
                total += n
                errorLine.append(contentsOf: readChunk[0..<n])
                if let last = errorLine.lastIndex(of: UInt8(ascii: "\n")) {
                    log.write(lines: errorLine[...last], process: number)
                    errorLine.removeFirst(last + 1)
                } else if errorLine.count > 65536 {
                    errorLine.append(UInt8(ascii: "\n"))
                    log.write(lines: errorLine[...], process: number)
                    errorLine.removeAll()
                }
                continue
            }
            if n < 0 && errno == EINTR { continue }
            return total
        }
        return total
    }

    /// How the process ended, if it has (reaping it), for a crash's detail.
    private func exitDescription() -> String {
        var status: Int32 = 0
        for _ in 0..<50 {
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid {
                exited = true
                let code = (status >> 8) & 0xff, sig = status & 0x7f
                return sig == 0 ? "exited with status \(code)" : "was killed by signal \(sig)"
            }
            if r < 0 { break }
            usleep(1000)
        }
        return "closed its output"
    }

    /// Asks the bot to quit (`quit`, then its input closed) and gives it `grace`
    /// nanoseconds to exit; then its whole group is killed.
    func quit(grace: UInt64 = 2_000_000_000) {
        requestQuit()
        awaitExit(until: monotonicNanoseconds() + grace)
        terminate()
    }

    /// Sends `quit` and closes the bot's input (its end of input, too, says quit).
    func requestQuit() {
        guard !exited, input >= 0 else { return }
        try? send(Array("{\"type\":\"quit\"}\n".utf8), deadline: monotonicNanoseconds() + 100_000_000)
        close(input)
        input = -1
    }

    /// Waits until the bot has exited or `deadline` has passed, keeping its log.
    func awaitExit(until deadline: UInt64) {
        guard !exited else { return }
        var status: Int32 = 0
        while true {
            drainErrors()
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid || r < 0 {
                exited = true
                return
            }
            guard monotonicNanoseconds() < deadline else { return }
            usleep(500)
        }
    }

    /// Kills the whole process group at once and reaps the bot; idempotent.
    func terminate() {
        guard !terminated else { return }
        terminated = true
        kill(-pid, SIGKILL)
        if !exited {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            exited = true
        }
        BotRegistry.remove(pid)
        drainErrors()
        if !errorLine.isEmpty {
            errorLine.append(UInt8(ascii: "\n"))
            log.write(lines: errorLine[...], process: number)
            errorLine.removeAll()
        }
        if input >= 0 { close(input); input = -1 }
        close(output)
        output = -1
        close(errors)
        errors = -1
        if exitWatch >= 0 { close(exitWatch) }
        exitWatch = -1
    }
}
