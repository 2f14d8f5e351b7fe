/// How a match ended: a place per seat (1 = first, shared places repeat), why it
/// ended, and its length.
public struct Outcome: Sendable, Equatable, Hashable {
    /// Place of each seat, 1-based, competition ranking (1, 1, 3).
    public var places: [Int]
    /// The game's name for why the match ended, e.g. `missions` or `flow`.
    public var endReason: String
    /// Actions applied.
    public var turns: Int
    /// The seat that forfeited and why, when the match ended by a fault (its end reason
    /// is then ``Forfeit/endReason``).
    public var forfeit: Forfeit?

    public init(places: [Int], endReason: String, turns: Int) {
        self.places = places
        self.endReason = endReason
        self.turns = turns
    }

    /// Competition ranking from one key per seat (higher is better, equal keys share).
    /// - Complexity: O(n^2) for n seats (n <= 6).
    @inlinable
    public static func places(fromKeys keys: [Int]) -> [Int] {
        var places = [Int](repeating: 1, count: keys.count)
        for i in keys.indices {
            for j in keys.indices where keys[j] > keys[i] { places[i] += 1 }
        }
        return places
    }

    /// Seats in first place.
    public var firstPlaceCount: Int { places.count(where: { $0 == 1 }) }

    /// The match score of `seat`: 1 for a sole first place, 1/k for a first place
    /// shared by k seats, 0 otherwise (statistics spec, "Win rate").
    public func score(of seat: Int) -> Double {
        places[seat] == 1 ? 1.0 / Double(firstPlaceCount) : 0
    }

    /// Each of `seats` seats' share of the match's scores (they sum to 1); equal shares for
    /// a match without an outcome or without a score. What learned values are trained on
    /// and what a search backs up from a finished match.
    public static func shares(_ outcome: Outcome?, seats: Int) -> [Double] {
        let scores = (0..<seats).map { outcome?.score(of: $0) ?? 1 / Double(seats) }
        let total = scores.reduce(0, +)
        return total > 0 ? scores.map { $0 / total } : scores.map { _ in 1 / Double(seats) }
    }

    /// `win`, `draw` (a shared first place) or `loss` for `seat`.
    public func result(of seat: Int) -> SeatResult {
        guard places[seat] == 1 else { return .loss }
        return firstPlaceCount == 1 ? .win : .draw
    }
}

/// A seat's result for the win/draw/loss columns.
public enum SeatResult: String, Sendable, Hashable {
    case win, draw, loss
}
