import Foundation

/// Pairwise results among n entrants, in half points: `points[i][j]` is what i scored against j (win 1, tie 0.5 each), `games[i][j] == games[j][i]` the number of pairwise games.
///
/// The diagonal stays 0: an entrant never plays itself.
public struct PairwiseResults: Sendable, Equatable {
    /// The number of entrants.
    public let count: Int
    /// `points[i][j]`: what entrant i scored against entrant j.
    public private(set) var points: [[Double]]
    /// `games[i][j]`: the number of pairwise games between i and j (symmetric).
    public private(set) var games: [[Double]]

    /// An empty table for `entrants` entrants.
    public init(entrants: Int) {
        precondition(entrants >= 0, "a table needs a non-negative number of entrants")
        count = entrants
        points = Array(repeating: Array(repeating: 0, count: entrants), count: entrants)
        games = points
    }

    /// Adds the pairwise results a finishing order implies: `places[k]` is the place (1 = first, ties share a place) of entrant `entrants[k]`; every pair of seats gives one pairwise game: the better place wins, equal places tie (half each).
    ///
    /// m seats held by m different entrants give m(m-1)/2 pairwise games. A pair of seats
    /// held by the same entrant is skipped: it says nothing about relative strength.
    /// - Complexity: O(m²) for m seats.
    public mutating func addFinishingOrder(entrants: [Int], places: [Int]) {
        precondition(entrants.count == places.count, "one place per seat")
        precondition(entrants.allSatisfy { (0..<count).contains($0) }, "entrant index out of range")
        for k in entrants.indices {
            for l in entrants.indices where l > k {
                let a = entrants[k], b = entrants[l]
                guard a != b else { continue }
                games[a][b] += 1
                games[b][a] += 1
                if places[k] < places[l] {
                    points[a][b] += 1
                } else if places[k] > places[l] {
                    points[b][a] += 1
                } else {
                    points[a][b] += 0.5
                    points[b][a] += 0.5
                }
            }
        }
    }

    /// Adds another table's counts elementwise.
    /// - Complexity: O(n²).
    /// Adds `games` games between `a` and `b` in which `a` scored `points`.
    mutating func addGames(_ games: Double, points: Double, of a: Int, against b: Int) {
        self.games[a][b] += games
        self.games[b][a] += games
        self.points[a][b] += points
        self.points[b][a] += games - points
    }

    public mutating func add(_ other: PairwiseResults) {
        add(other, times: 1)
    }

    /// Adds every count of `other` scaled by `factor` (used by the bootstrap to weight resampled blocks).
    /// - Complexity: O(n²).
    public mutating func add(_ other: PairwiseResults, times factor: Double) {
        precondition(other.count == count, "tables for different numbers of entrants")
        for i in 0..<count {
            for j in 0..<count {
                points[i][j] += factor * other.points[i][j]
                games[i][j] += factor * other.games[i][j]
            }
        }
    }
}

/// Bradley-Terry ratings fitted to a ``PairwiseResults`` (statistics spec, "Ratings").
public enum BradleyTerry {
    /// Largest |log10(gamma)| an iterate may reach around the geometric mean: ±4000 Elo.
    /// Only a fit without a prior whose likelihood peaks at infinity gets there.
    static let maxLogGamma = 10.0

    /// Bradley-Terry ratings on the Elo scale (400 * log10(gamma)), fitted by Hunter's MM iteration
    /// gamma_i <- W_i / sum_{j != i} n_ij / (gamma_i + gamma_j), normalised each step (geometric mean 1),
    /// with a prior of `priorDraws` virtual drawn games between every entrant and the anchor (so an undefeated or winless entrant stays finite),
    /// shifted so `anchor` is 0 (anchor nil: mean rating 0). Entrants with no games get rating 0 relative to the anchor because of the prior.
    /// Stops when the largest change in log10(gamma) is below `tolerance` or after `maxIterations`.
    ///
    /// Choices made here:
    /// - All gammas are updated at once from the previous iterate (Hunter's parallel MM
    ///   update), so the result does not depend on the entrants' order.
    /// - With `anchor` nil there is no anchor to draw against: every pair of entrants gets
    ///   `priorDraws / (n - 1)` virtual draws, so each entrant carries `priorDraws`
    ///   virtual games, as each non-anchor entrant does in the anchored case.
    /// - With `priorDraws == 0` the maximum-likelihood ratings are finite only when, for
    ///   every split of the entrants into two sets, each set scored against the other.
    ///   Otherwise the iterate is held within ±4000 Elo of the mean (log10(gamma) in
    ///   [-10, 10]), so the ratings stay finite but are meaningless. An entrant with no
    ///   games, real or virtual, is left out of the fit and rated 0 (the anchor, or the
    ///   mean when `anchor` is nil).
    /// - Precondition: `priorDraws >= 0`; `anchor`, when given, is an entrant index.
    /// - Complexity: O(k·n²) for n entrants and k iterations (k <= `maxIterations`).
    public static func fit(
        _ table: PairwiseResults, anchor: Int?, priorDraws: Double = 1, tolerance: Double = 1e-9,
        maxIterations: Int = 10_000
    ) -> [Double] {
        let n = table.count
        precondition(priorDraws >= 0, "priorDraws must be non-negative")
        if let anchor { precondition((0..<n).contains(anchor), "anchor out of range") }
        guard n > 0 else { return [] }

        // Counts with the prior: wins W_i and games n_ij.
        var games = table.games
        var wins = table.points.map { $0.reduce(0, +) }
        if priorDraws > 0, n > 1 {
            func addDraws(_ i: Int, _ j: Int, _ draws: Double) {
                games[i][j] += draws
                games[j][i] += draws
                wins[i] += draws / 2
                wins[j] += draws / 2
            }
            if let anchor {
                for i in 0..<n where i != anchor { addDraws(i, anchor, priorDraws) }
            } else {
                let perPair = priorDraws / Double(n - 1)
                for i in 0..<n { for j in (i + 1)..<n { addDraws(i, j, perPair) } }
            }
        }
        let isActive = (0..<n).map { i in games[i].contains { $0 > 0 } }
        let active = (0..<n).filter { isActive[$0] }
        guard !active.isEmpty else { return Array(repeating: 0, count: n) }

        var logGamma = [Double](repeating: 0, count: n)
        var gamma = [Double](repeating: 1, count: n)
        var next = logGamma
        for _ in 0..<maxIterations {
            for i in active {
                var denominator = 0.0
                for j in active where j != i && games[i][j] > 0 {
                    denominator += games[i][j] / (gamma[i] + gamma[j])
                }
                // W_i == 0 gives gamma 0; the clamp below keeps its logarithm finite.
                next[i] = log10(max(wins[i] / denominator, .leastNormalMagnitude))
            }
            let centre = active.reduce(0) { $0 + next[$1] } / Double(active.count)
            var change = 0.0
            for i in active {
                let value = min(max(next[i] - centre, -maxLogGamma), maxLogGamma)
                change = max(change, abs(value - logGamma[i]))
                logGamma[i] = value
                gamma[i] = pow(10, value)
            }
            if change < tolerance { break }
        }

        let ratings = logGamma.map { 400 * $0 }
        let shift: Double
        if let anchor, isActive[anchor] {
            shift = ratings[anchor]
        } else {
            shift = active.reduce(0) { $0 + ratings[$1] } / Double(active.count)
        }
        return (0..<n).map { isActive[$0] ? ratings[$0] - shift : 0 }
    }
}
