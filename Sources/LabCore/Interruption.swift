import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// SIGINT, SIGTERM and SIGHUP, handled in one place for the whole process.
///
/// The handlers run on a Dispatch queue (a signal source), not in signal context, so they
/// may take locks. What they do:
///
/// - While a run that can stop cleanly is playing (``stoppable(_:)``), the first SIGINT or
///   SIGTERM only asks it to stop: ``signal`` says which, and the hooks run (external bots
///   are killed, so the blocks they were playing end at once). The run then writes what
///   it has and the command exits as the signal would have (128 + n).
/// - Otherwise, and for any further signal, the hooks run and the process exits at once
///   with status 128 + n.
///
/// Nothing is installed until the first ``install()`` (a stoppable run, or the first
/// external bot): until then a signal ends the process as it always does.
public enum Interruption {
    private struct State {
        var installed = false
        /// Stoppable runs in progress.
        var stoppable = 0
        var hooks: [@Sendable () -> Void] = []
    }

    private static let state = Mutex(State())
    /// The signal that asked the run to stop; 0 while none has.
    private static let requested = Atomic<Int32>(0)
    nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []

    /// The signal (SIGINT or SIGTERM) that asked a stoppable run to stop; nil while none has.
    /// - Complexity: one atomic load: cheap enough to ask after every block.
    public static var signal: Int32? {
        let value = requested.load(ordering: .acquiring)
        return value == 0 ? nil : value
    }

    /// Adds `hook`, run on every signal before anything else (it must not block for long).
    public static func onSignal(_ hook: @escaping @Sendable () -> Void) {
        install()
        state.withLock { $0.hooks.append(hook) }
    }

    /// Runs `body` as a run that stops cleanly: a first SIGINT or SIGTERM while it runs
    /// sets ``signal`` instead of ending the process; `body` polls it.
    public static func stoppable<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        install()
        state.withLock { $0.stoppable += 1 }
        defer { state.withLock { $0.stoppable -= 1 } }
        return try body()
    }

    /// Installs the handlers (once per process).
    public static func install() {
        let first = state.withLock { s -> Bool in
            defer { s.installed = true }
            return !s.installed
        }
        guard first else { return }
        for sig in [SIGINT, SIGTERM, SIGHUP] {
            #if canImport(Glibc)
            _ = Glibc.signal(sig, SIG_IGN)
            #else
            _ = Darwin.signal(sig, SIG_IGN)
            #endif
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler { handle(sig) }
            source.resume()
            sources.append(source)
        }
    }

    private static func handle(_ sig: Int32) {
        let (stoppable, hooks) = state.withLock { ($0.stoppable > 0, $0.hooks) }
        // Only the first SIGINT or SIGTERM, and only while a run can stop: set before the
        // hooks run, so no block the hooks disturb is written.
        let stops = (sig == SIGINT || sig == SIGTERM) && stoppable
            && requested.compareExchange(expected: 0, desired: sig, ordering: .acquiringAndReleasing).exchanged
        for hook in hooks { hook() }
        if !stops { _exit(128 + sig) }
    }
}
