/// The play loop: one match from deal to outcome.
public enum Match {
    /// Plays a match to the end.
    ///
    /// - Parameters:
    ///   - game: the game, dealt with `seed`.
    ///   - seed: the match seed (see ``Seeds/match(_:match:)``).
    ///   - strategies: one per seat, in seat order.
    ///   - buffer: a reusable action buffer (keeps its capacity across matches).
    ///   - observe: called after each action with the state before it, the action and
    ///     the state after it (traces); nil in tournaments.
    ///   - timer: when given, every decision is counted in it by seat and a fixed sample
    ///     of them timed (the strategy's call, on a monotonic clock); nil reads no clock.
    /// - Returns: the outcome and the final state (for game-specific figures). A match a
    ///   strategy forfeits (``Forfeit/action``) ends at once: its outcome has end reason
    ///   ``Forfeit/endReason`` and the final state is the one the fault left.
    /// - Complexity: allocation-free per turn once `buffer` has grown to the largest
    ///   legal-action list, as long as the strategies are.
    @inlinable
    public static func play<G: Game>(
        _ game: G,
        seed: UInt64,
        strategies: [any Strategy<G>],
        buffer: inout ActionBuffer,
        observe: ((G.State, Int, G.State) -> Void)? = nil,
        timer: DecisionTimer? = nil
    ) -> (outcome: Outcome, final: G.State) {
        precondition(strategies.count == game.seatCount, "one strategy per seat")
        // Only a perfect-information strategy (a measuring device) is handed the state.
        let anyPerfect = strategies.contains { $0.readsState }
        let anyFollower = strategies.contains { $0.followsActions }
        var state = game.newMatch(seed: seed)
        // One observation a match, updated in place for each decision (GameState.observe).
        var observation = state.observationInPlace(for: state.currentSeat)
        // Each seat's strategy behind a box held unretained: a decision called through
        // `strategies[seat]` retained and released the strategy every turn (60
        // instructions a turn, 11,000 a rail match). Kept in a fixed array on the stack,
        // not a heap array a match (at most DecisionTimer.maxSeats seats, as the timer).
        precondition(strategies.count <= DecisionTimer.maxSeats, "at most \(DecisionTimer.maxSeats) seats")
        var deciders = InlineArray<64, Unmanaged<Decider<G>>?>(repeating: nil)
        for (seat, strategy) in strategies.enumerated() { deciders[seat] = .passRetained(Decider.boxing(strategy)) }
        defer { for seat in strategies.indices { deciders[seat]?.release() } }
        // Seats whose strategy draws uniformly (`random`): their turns ask the game how
        // many legal actions there are instead of listing them, where it can tell.
        let drawing = seatMask(strategies) { $0.drawsUniformly }
        // Seats whose strategy reads the legal list (all but those that work out what they
        // may do from the observation): only their turns list the legal actions.
        let listing = seatMask(strategies) { $0.readsLegalActions }
        var forfeit: Forfeit?
        while !state.isTerminal {
            let seat = state.currentSeat, bit = UInt64(1) &<< UInt64(seat)
            let count = drawing & bit != 0 ? state.legalActionCountInPlace() : nil
            let listed = count == nil && listing & bit != 0
            if listed { state.legalActionsInPlace(into: &buffer) } else if count == nil { buffer.removeAll() }
            let action: Int
            // The clock's instant is touched only on a timed decision: an optional instant
            // made on every turn goes through the stdlib's value witnesses (2 % of a rail run).
            if let timer, timer.begin(seat: seat) {
                let started = ContinuousClock.now
                action = choose(strategies, deciders[seat].unsafelyUnwrapped, seat: seat, anyPerfect: anyPerfect, state: &state,
                                observation: &observation, legal: buffer, count: count)
                timer.record(seat: seat, elapsed: started.duration(to: .now))
            } else {
                action = choose(strategies, deciders[seat].unsafelyUnwrapped, seat: seat, anyPerfect: anyPerfect, state: &state,
                                observation: &observation, legal: buffer, count: count)
            }
            if action == Forfeit.action, let kind = strategies[seat].forfeitKind {
                // A fault (an external bot's): the match ends here, the seat's team last.
                forfeit = Forfeit(seat: seat, kind: kind)
                break
            }
            precondition(count != nil || (listed ? buffer.contains(action) : isLegal(action, &state, buffer: &buffer)),
                         "strategy in seat \(seat) chose illegal action \(action)")
            if let observe {
                let before = state
                state.apply(action)
                observe(before, action, state)
            } else {
                state.apply(action)
            }
            if anyFollower {
                for strategy in strategies where strategy.followsActions { strategy.didApply(action, by: seat) }
            }
        }
        let outcome: Outcome
        if let forfeit {
            outcome = .forfeit(forfeit, teams: game.teams, turns: state.turn)
        } else if let ended = state.outcome {
            outcome = ended
        } else {
            preconditionFailure("terminal state without an outcome")
        }
        for strategy in strategies { strategy.matchDidEnd(outcome) }
        return (outcome, consume state)
    }

    /// The seats (bit s for seat s) whose strategy passes `test`: what the play loop and
    /// a search's rollouts ask once, not every turn.
    @inlinable
    public static func seatMask<G: Game>(_ strategies: [any Strategy<G>], where test: (any Strategy<G>) -> Bool) -> UInt64 {
        var mask: UInt64 = 0
        for (seat, strategy) in strategies.enumerated() where test(strategy) { mask |= 1 &<< UInt64(seat) }
        return mask
    }

    /// Whether `action` is legal in `state`: asked of the game, or found in the list where
    /// the game cannot tell without one (written into `buffer`).
    @inlinable
    static func isLegal<S: GameState>(_ action: Int, _ state: inout S, buffer: inout ActionBuffer) -> Bool {
        if let legal = state.isLegalInPlace(action) { return legal }
        state.legalActionsInPlace(into: &buffer)
        return buffer.contains(action)
    }

    /// The decision of the strategy in `seat`: a perfect-information strategy (a
    /// measuring device) is handed the state, every other strategy its seat's observation
    /// (the match's `observation`, updated for the seat). With `count` (the legal actions
    /// counted, not listed, for a strategy that draws uniformly) the strategy draws an
    /// index and the state names that action; `legal` is then not this turn's, and it is
    /// empty for a strategy that does not read it (``Strategy/readsLegalActions``).
    /// Not inlined: the loop calls it from two places (timed or not), and inlined twice the
    /// observation was built in a temporary and copied to the call's argument every turn
    /// (rail 4,000 instructions a match more; Quortex, with a small observation, 600 less).
    @inlinable @inline(never)
    static func choose<G: Game>(_ strategies: [any Strategy<G>], _ decider: Unmanaged<Decider<G>>, seat: Int, anyPerfect: Bool,
                                state: inout G.State, observation: inout G.State.Observation, legal: ActionBuffer,
                                count: Int?) -> Int {
        if let count { return state.legalAction(at: decider._withUnsafeGuaranteedRef { $0.drawIndex(among: count) }) }
        if anyPerfect, strategies[seat].readsState, let perfect = strategies[seat] as? any PerfectInformationStrategy<G> {
            return perfect.chooseAction(state: state, legal: legal)
        }
        state.observe(seat, into: &observation)
        return decider._withUnsafeGuaranteedRef { $0.chooseAction(observation, legal: legal) }
    }

    /// Plays a match with strategies made by `factories` (one per seat), each seeded
    /// from `strategySeed` (by default the match seed) and its seat.
    ///
    /// A tournament plays one deal several times with the seating rotated and passes the
    /// deal seed as the strategy seed of every rotation: seat s draws the same stream in
    /// each, whoever sits there (common random numbers). Two players that choose alike
    /// then play mirrored matches, so a block measures only how their play differs.
    @inlinable
    public static func play<G: Game>(
        _ game: G,
        seed: UInt64,
        strategySeed: UInt64? = nil,
        match: Int = 0,
        factories: [StrategyFactory<G>],
        buffer: inout ActionBuffer,
        observe: ((G.State, Int, G.State) -> Void)? = nil,
        timer: DecisionTimer? = nil
    ) -> (outcome: Outcome, final: G.State) {
        var strategies: [any Strategy<G>] = []
        strategies.reserveCapacity(factories.count)
        let base = strategySeed ?? seed
        for (seat, make) in factories.enumerated() {
            strategies.append(make(StrategyContext(game: game, seat: seat, seed: Seeds.strategy(base, seat: seat), match: match)))
        }
        return play(game, seed: seed, strategies: strategies, buffer: &buffer, observe: observe, timer: timer)
    }

    /// ``play(_:seed:factories:buffer:observe:)`` with a buffer of its own.
    public static func play<G: Game>(
        _ game: G,
        seed: UInt64,
        factories: [StrategyFactory<G>],
        observe: ((G.State, Int, G.State) -> Void)? = nil
    ) -> (outcome: Outcome, final: G.State) {
        var buffer = ActionBuffer()
        return play(game, seed: seed, factories: factories, buffer: &buffer, observe: observe)
    }
}

/// One seat's strategy as the play loop calls it every turn: a class, so the loop can
/// hold it unmanaged and call it borrowed (`Unmanaged._withUnsafeGuaranteedRef`), where a
/// call through an `any Strategy<G>` read from an array retains and releases it. The
/// subclass holds the strategy's concrete type, opened once a match.
@usableFromInline
class Decider<G: Game> {
    @usableFromInline init() {}

    @usableFromInline func chooseAction(_ observation: G.State.Observation, legal: ActionBuffer) -> Int {
        preconditionFailure("Decider is abstract: StrategyDecider overrides chooseAction")
    }

    @usableFromInline func drawIndex(among count: Int) -> Int {
        preconditionFailure("Decider is abstract: StrategyDecider overrides drawIndex")
    }

    /// A decider calling `strategy`.
    @usableFromInline static func boxing(_ strategy: some Strategy<G>) -> Decider<G> { StrategyDecider(strategy) }
}

@usableFromInline
final class StrategyDecider<S: Strategy>: Decider<S.G> {
    @usableFromInline let strategy: S

    @usableFromInline init(_ strategy: S) {
        self.strategy = strategy
        super.init()
    }

    @usableFromInline override func chooseAction(_ observation: S.G.State.Observation, legal: ActionBuffer) -> Int {
        strategy.chooseAction(observation, legal: legal)
    }

    @usableFromInline override func drawIndex(among count: Int) -> Int { strategy.drawIndex(among: count) }
}
