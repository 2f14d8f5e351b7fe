/// Counts the decisions of a match by seat and times a fixed sample of them: what the
/// play loop records when a tournament asks (``Match/play(_:seed:strategies:buffer:observe:timer:)``).
///
/// Reading a clock costs about 35 ns here, twice per decision, while a documented rail
/// CPU decides in about 150 ns: timing every decision slowed the quickstart by a third
/// (one in 16: by a tenth).
/// So every decision is counted, and one in ``sampleInterval`` of each seat (by its
/// position in the seat's sequence of decisions, never by anything it depends on) is
/// timed; the mean and the percentiles come from the sample, the time spent is the mean
/// times the count.
///
/// Clock readings never reach the deterministic results; the harness folds them into
/// per-entrant figures for `run.json` only. One thread uses a timer at a time.
public final class DecisionTimer {
    /// One decision in this many is timed.
    public static let sampleInterval = 64

    /// The most seats a timer counts.
    public static let maxSeats = 64

    /// Decisions made, by seat up to the highest seat seen (all of them, timed or not).
    public var decisionsBySeat: [Int] { (0..<seatsSeen).map { counts[$0] } }

    /// Decisions `seat` made (0 for a seat past ``maxSeats``).
    public func decisions(ofSeat seat: Int) -> Int { seat >= 0 && seat < Self.maxSeats ? counts[seat] : 0 }
    /// The timed decisions in play order: the mover's seat and the nanoseconds it took.
    public private(set) var seats: [Int] = []
    public private(set) var nanoseconds: [UInt64] = []
    /// Per seat, decisions made and decisions until the seat's next timed one: raw
    /// memory, so counting a decision costs two increments (no copy-on-write or
    /// exclusivity check in the play loop).
    @usableFromInline let counts: UnsafeMutablePointer<Int>
    @usableFromInline let countdowns: UnsafeMutablePointer<Int>
    @usableFromInline var seatsSeen = 0

    /// - Parameter phase: how many decisions of each seat pass before the first timed
    ///   one (taken modulo ``sampleInterval``); vary it (the harness uses the block
    ///   number) so that no position in a match is timed more often than another.
    public init(phase: Int = 0) {
        counts = .allocate(capacity: Self.maxSeats)
        counts.initialize(repeating: 0, count: Self.maxSeats)
        countdowns = .allocate(capacity: Self.maxSeats)
        countdowns.initialize(repeating: phase % Self.sampleInterval, count: Self.maxSeats)
        seats.reserveCapacity(64)
        nanoseconds.reserveCapacity(64)
    }

    deinit {
        counts.deallocate()
        countdowns.deallocate()
    }

    /// Counts a decision of `seat`; true when it is one to time (after `phase` of the
    /// seat's decisions, then every ``sampleInterval``-th).
    @inlinable
    public func begin(seat: Int) -> Bool {
        precondition(seat >= 0 && seat < Self.maxSeats, "seat \(seat) is past the timer's \(Self.maxSeats) seats")
        if seat >= seatsSeen { seatsSeen = seat + 1 }
        counts[seat] &+= 1
        if countdowns[seat] == 0 {
            countdowns[seat] = Self.sampleInterval - 1
            return true
        }
        countdowns[seat] &-= 1
        return false
    }

    @inlinable
    public func record(seat: Int, elapsed: Duration) {
        let (s, atto) = elapsed.components
        record(seat: seat, nanoseconds: UInt64(max(0, s)) &* 1_000_000_000 &+ UInt64(max(0, atto / 1_000_000_000)))
    }

    /// Records the time of a decision `begin(seat:)` chose to time.
    public func record(seat: Int, nanoseconds ns: UInt64) {
        seats.append(seat)
        nanoseconds.append(ns)
    }

    /// Forgets the match's counts and times (keeping the capacity and the sampling
    /// phase, so short matches are sampled evenly), for the next match.
    public func removeAll() {
        counts.update(repeating: 0, count: seatsSeen)
        seats.removeAll(keepingCapacity: true)
        nanoseconds.removeAll(keepingCapacity: true)
    }
}
