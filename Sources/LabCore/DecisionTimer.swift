/// The time each decision of a match took, by seat: what the play loop records when a
/// tournament asks (``Match/play(_:seed:strategies:buffer:observe:timer:)``).
///
/// Clock readings never reach the deterministic results; the harness folds them into
/// per-entrant figures for `run.json` only. One thread uses a timer at a time.
public final class DecisionTimer {
    /// Per decision in play order: the mover's seat and the nanoseconds it took.
    public private(set) var seats: [Int] = []
    public private(set) var nanoseconds: [UInt64] = []

    public init() {
        seats.reserveCapacity(1024)
        nanoseconds.reserveCapacity(1024)
    }

    @inlinable
    public func record(seat: Int, elapsed: Duration) {
        let (s, atto) = elapsed.components
        record(seat: seat, nanoseconds: UInt64(max(0, s)) &* 1_000_000_000 &+ UInt64(max(0, atto / 1_000_000_000)))
    }

    public func record(seat: Int, nanoseconds ns: UInt64) {
        seats.append(seat)
        nanoseconds.append(ns)
    }

    /// Forgets the decisions recorded (keeping the capacity), for the next match.
    public func removeAll() {
        seats.removeAll(keepingCapacity: true)
        nanoseconds.removeAll(keepingCapacity: true)
    }
}
