/// Why a seat gave up a match: the faults of the player protocol (an external bot that
/// missed its deadline, exited, answered an action not offered, or wrote a line that is
/// not a message).
public enum ForfeitKind: String, Sendable, Hashable, CaseIterable {
    /// Missed the deadline (the only fault that depends on the machine's speed).
    case timeout
    /// Exited, closed its output, or could not be started.
    case crash
    /// Named an action id not among the legal ones.
    case illegal
    /// Wrote a line that is not a JSON object of a known type, or a line over the limit.
    case malformed
}

/// The seat that forfeited a match, and why.
public struct Forfeit: Sendable, Hashable {
    public var seat: Int
    public var kind: ForfeitKind

    public init(seat: Int, kind: ForfeitKind) {
        self.seat = seat
        self.kind = kind
    }

    /// What ``Strategy/chooseAction(_:legal:)`` returns instead of an action when the
    /// strategy forfeits; the play loop then reads ``Strategy/forfeitKind``.
    public static let action = -1

    /// The end reason of a forfeited match.
    public static let endReason = "forfeit"
}

extension Outcome {
    /// The outcome of a match that `seat` forfeited after `turns` actions: the seat and
    /// its team take the last place, every other seat shares the first (player protocol,
    /// "Faults").
    public static func forfeit(_ forfeit: Forfeit, teams: [Int], turns: Int) -> Outcome {
        let team = teams[forfeit.seat]
        let losers = teams.filter { $0 == team }.count
        let places = teams.map { $0 == team ? teams.count - losers + 1 : 1 }
        var outcome = Outcome(places: places, endReason: Forfeit.endReason, turns: turns)
        outcome.forfeit = forfeit
        return outcome
    }
}
