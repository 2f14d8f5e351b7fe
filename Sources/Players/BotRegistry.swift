import Glibc
import LabCore
import Synchronization

/// Every bot process group alive, so that none outlives oplab (player protocol,
/// "Guarantees"): they are killed when oplab exits (`atexit`) and on SIGINT, SIGTERM and
/// SIGHUP, whose handlers (``Interruption``) run on a Dispatch queue (not in signal
/// context, so they may take the lock) and kill the groups; then the process exits as
/// the signal would have, or a run that stops cleanly writes what it has first.
///
/// A bot runs in a process group of its own, so a terminal's Ctrl-C reaches oplab only
/// and oplab decides. After `kill -9` of oplab nothing can run: a bot then reads the end
/// of its input, and the protocol asks it to exit there.
enum BotRegistry {
    private struct Groups {
        var alive: Set<pid_t> = []
        /// Set once oplab is ending: no bot starts after that.
        var closing = false
    }
    private static let groups = Mutex(Groups())
    private static let installed = Mutex(false)

    /// Starts a bot with `spawn` and registers its group in one step under the lock, so
    /// a signal's ``killAll()`` either sees the new group or comes first and stops it
    /// from starting: no bot is started, or left, behind the kill's back.
    /// - Returns: `spawn`'s result; `ECANCELED` once oplab is ending.
    static func spawn(_ spawn: (inout pid_t) -> Int32) -> (rc: Int32, pid: pid_t) {
        installOnce()
        return groups.withLock { g in
            guard !g.closing else { return (ECANCELED, 0) }
            var pid: pid_t = 0
            let rc = spawn(&pid)
            if rc == 0 { g.alive.insert(pid) }
            return (rc, pid)
        }
    }

    /// Forgets a group, once it has been killed.
    static func remove(_ pid: pid_t) {
        _ = groups.withLock { $0.alive.remove(pid) }
    }

    /// Kills every group still registered (SIGKILL), without waiting; with `closing`,
    /// no bot starts afterwards.
    static func killAll(closing: Bool = false) {
        groups.withLock { g in
            if closing { g.closing = true }
            for pid in g.alive { kill(-pid, SIGKILL) }
        }
    }

    /// How many groups are alive (tests).
    package static var count: Int { groups.withLock { $0.alive.count } }

    private static func installOnce() {
        let first = installed.withLock { done -> Bool in
            defer { done = true }
            return !done
        }
        guard first else { return }
        // A bot that exits while the lab writes to it must not kill the lab: the write
        // fails with EPIPE instead, a fault of the bot.
        signal(SIGPIPE, SIG_IGN)
        atexit { BotRegistry.killAll(closing: true) }
        Interruption.onSignal { killAll(closing: true) }
    }
}
