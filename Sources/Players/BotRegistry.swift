import Dispatch
import Glibc
import Synchronization

/// Every bot process group alive, so that none outlives oplab (player protocol,
/// "Guarantees"): they are killed when oplab exits (`atexit`) and on SIGINT, SIGTERM and
/// SIGHUP, whose handlers run on a Dispatch queue (not in signal context, so they may
/// take the lock), kill the groups, then exit as the signal would have.
///
/// A bot runs in a process group of its own, so a terminal's Ctrl-C reaches oplab only
/// and oplab decides. After `kill -9` of oplab nothing can run: a bot then reads the end
/// of its input, and the protocol asks it to exit there.
enum BotRegistry {
    private static let groups = Mutex<Set<pid_t>>([])
    private static let installed = Mutex(false)
    nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []

    /// Notes a new group (its leader's pid); installs the handlers on first use.
    static func add(_ pid: pid_t) {
        installOnce()
        _ = groups.withLock { $0.insert(pid) }
    }

    static func remove(_ pid: pid_t) {
        _ = groups.withLock { $0.remove(pid) }
    }

    /// Kills every group still registered (SIGKILL), without waiting.
    static func killAll() {
        let all = groups.withLock { $0 }
        for pid in all { kill(-pid, SIGKILL) }
    }

    /// How many groups are alive (tests).
    package static var count: Int { groups.withLock { $0.count } }

    private static func installOnce() {
        let first = installed.withLock { done -> Bool in
            defer { done = true }
            return !done
        }
        guard first else { return }
        // A bot that exits while the lab writes to it must not kill the lab: the write
        // fails with EPIPE instead, a fault of the bot.
        signal(SIGPIPE, SIG_IGN)
        atexit { BotRegistry.killAll() }
        for sig in [SIGINT, SIGTERM, SIGHUP] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler {
                killAll()
                _exit(128 + sig)
            }
            source.resume()
            sources.append(source)
        }
    }
}
