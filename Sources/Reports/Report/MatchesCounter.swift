import Synchronization
import Tournament

/// Counts a run's rows as the run writes them (a ``RowsObserver``), so the findings and
/// the page at the end of `oplab tournament` need not read `matches.csv` again: the
/// counts ``ReportTally/read(_:entrants:seats:limit:)`` makes from the file, row by row
/// in the same order through the same ``ReportTally/Counting``. A resumed run's earlier
/// blocks are not seen; then there is no count and the report reads the file.
public final class MatchesCounter: RowsObserver {
    private struct State {
        var counting: ReportTally.Counting
        /// Whether the folder held blocks before the run (whose rows are not counted).
        var partial = false
    }

    private let state: Mutex<State>

    /// A counter for a run of `entrants` entrants (config order) at `seats` seats.
    public init(entrants: Int, seats: Int) {
        state = Mutex(State(counting: ReportTally.Counting(entrants: entrants, seats: seats)))
    }

    /// A counter for a run of `plan`.
    public convenience init(plan: TournamentPlan) {
        self.init(entrants: plan.config.entrants.count, seats: plan.schedule.seats)
    }

    public func begin(blocksBefore: Int) {
        state.withLock { $0.partial = $0.partial || blocksBefore > 0 }
    }

    public func take(rows: [MatchRow], reasons: [String]) {
        state.withLock { state in
            let seats = state.counting.tally.seats
            var reason = 0
            // Fields read where they lie: a row taken whole is copied with its marks array.
            for k in rows.indices {
                if k % seats == 0 { reason = state.counting.tally.reasonIndex(reasons[k / seats]) }
                let result = rows[k].result
                let outcome = result == .win ? 0 : result == .draw ? 1 : 2
                let counted = state.counting.add(entrant: rows[k].entrant, seat: rows[k].seat, outcome: outcome, reason: reason,
                                                 turns: rows[k].turns, block: rows[k].block)
                precondition(counted, "a run's rows come a match at a time, seats in order")
            }
        }
    }

    /// The counts of every row the run wrote, with its last block closed; nil when the
    /// folder held rows this counter did not see.
    var counted: ReportTally? {
        state.withLock { $0.partial ? nil : $0.counting.finished() }
    }
}
