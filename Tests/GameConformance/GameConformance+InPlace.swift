import LabCore

extension Conformance {
    // MARK: (f) In-place reads

    /// In every state of `matches` random matches: ``GameState/legalActionsInPlace(into:)``
    /// lists the same actions in the same order as ``GameState/legalActions(into:)``, and
    /// ``GameState/observationInPlace(for:)`` gives every seat the observation
    /// ``GameState/observation(for:)`` gives, as does ``GameState/observe(_:into:)`` over
    /// the observation kept from the states before (as the play loop keeps one),
    /// ``GameState/legalActionCountInPlace()`` and ``GameState/legalAction(at:)`` count and
    /// name the listed actions, ``GameState/isLegalInPlace(_:)`` (where the game answers)
    /// tells every action of the action space (and two past it) as the list does, and none
    /// changes the state (its legal actions and every
    /// seat's observation are the same afterwards); and
    /// ``GameState/searchValues(into:)`` and ``GameState/searchValuesInPlace(into:)`` give every
    /// seat its ``GameState/searchValue(of:)``, running and finished; and
    /// ``GameState/playUniformRollout(upTo:using:buffer:)`` plays the draws of a loop of
    /// draws from the list. The play loop and the searches use these forms; a game that
    /// implements them (rail, Quortex) must not differ from its plain ones.
    public static func inPlaceReads<G: Game>(_ game: G, matches: Int, seed: UInt64,
                                             maxTurns: Int = 100_000) throws(ConformanceFailure) {
        var plain = ActionBuffer(), inPlace = ActionBuffer()
        var kept: G.State.Observation?
        try walk(game, matches: matches, seed: seed, maxTurns: maxTurns, check: .inPlaceReads, { state, matchSeed throws(ConformanceFailure) in
            state.legalActions(into: &plain)
            let seen = (0..<state.seatCount).map { state.observation(for: $0) }
            state.legalActionsInPlace(into: &inPlace)
            if plain.actions != inPlace.actions {
                throw fail(.inPlaceReads, matchSeed, state, "legalActionsInPlace listed \(inPlace.actions), legalActions \(plain.actions)")
            }
            try checkIndexedActions(&state, plain, matchSeed)
            try checkUniformRollout(state, matchSeed)
            try checkLegalityAnswers(&state, plain, matchSeed)
            for seat in 0..<state.seatCount where state.observationInPlace(for: seat) != seen[seat] {
                throw fail(.inPlaceReads, matchSeed, state, "observationInPlace(for: \(seat)) differs from observation(for: \(seat))")
            }
            var observation = kept ?? seen[state.seatCount - 1]
            for seat in 0..<state.seatCount {
                state.observe(seat, into: &observation)
                if observation != seen[seat] {
                    throw fail(.inPlaceReads, matchSeed, state, "observe(\(seat), into:) differs from observation(for: \(seat))")
                }
            }
            kept = observation
            state.legalActions(into: &inPlace)
            if plain.actions != inPlace.actions || (0..<state.seatCount).contains(where: { state.observation(for: $0) != seen[$0] }) {
                throw fail(.inPlaceReads, matchSeed, state, "an in-place read changed the state")
            }
            try checkSearchValues(state, matchSeed)
        }, finished: { state, matchSeed throws(ConformanceFailure) in try checkSearchValues(state, matchSeed) })
    }

    /// ``GameState/legalActionCountInPlace()``, where the game answers, is the list's
    /// count, and ``GameState/legalAction(at:)`` names the list's action at every index
    /// (a uniform draw's index picks what a draw from the list picks).
    private static func checkIndexedActions<S: GameState>(_ state: inout S, _ listed: ActionBuffer,
                                                          _ matchSeed: UInt64) throws(ConformanceFailure) {
        if let count = state.legalActionCountInPlace(), count != listed.count {
            throw fail(.inPlaceReads, matchSeed, state, "legalActionCountInPlace gave \(count), the list has \(listed.count)")
        }
        var indexed: [Int] = []
        for index in 0..<listed.count { indexed.append(state.legalAction(at: index)) }
        if indexed != listed.actions {
            throw fail(.inPlaceReads, matchSeed, state, "legalAction(at:) named \(indexed), the list is \(listed.actions)")
        }
    }

    /// ``GameState/playUniformRollout(upTo:using:buffer:)`` plays what a loop of draws from
    /// the list plays from the same stream: up to 6 actions, fewer at the end of the match,
    /// the same positions after (every seat's observation and the legal actions), and the
    /// stream left where the loop leaves it.
    private static func checkUniformRollout<S: GameState>(_ state: S, _ matchSeed: UInt64) throws(ConformanceFailure) {
        let limit = 6
        var rolled = state, drawn = state
        var rolledStream = LabRandom(seed: matchSeed ^ UInt64(state.turn)), drawnStream = rolledStream
        var buffer = ActionBuffer(), listed = ActionBuffer()
        let played = rolled.playUniformRollout(upTo: limit, using: &rolledStream, buffer: &buffer)
        var expected = 0
        while expected < limit && !drawn.isTerminal {
            drawn.legalActions(into: &listed)
            drawn.apply(listed[drawnStream.uniform(listed.count)])
            expected += 1
        }
        var rolledList = ActionBuffer()
        rolled.legalActions(into: &rolledList)
        drawn.legalActions(into: &listed)
        if played != expected || rolled.turn != drawn.turn || rolled.isTerminal != drawn.isTerminal || rolledList.actions != listed.actions
            || (0..<state.seatCount).contains(where: { rolled.observation(for: $0) != drawn.observation(for: $0) }) {
            throw fail(.inPlaceReads, matchSeed, state,
                       "playUniformRollout(upTo: \(limit)) played \(played) actions to turn \(rolled.turn); draws from the list play \(expected) to turn \(drawn.turn), or the positions differ")
        }
        if rolledStream.next() != drawnStream.next() {
            throw fail(.inPlaceReads, matchSeed, state, "playUniformRollout left the random stream elsewhere than draws from the list")
        }
    }

    /// ``GameState/isLegalInPlace(_:)``, where the game answers, says of each action of the
    /// action space, and of -1 and the space's size, whether the list holds it.
    private static func checkLegalityAnswers<S: GameState>(_ state: inout S, _ listed: ActionBuffer,
                                                           _ matchSeed: UInt64) throws(ConformanceFailure) {
        let legal = Set(listed.actions)
        for action in -1...state.actionSpaceSize {
            if let answer = state.isLegalInPlace(action), answer != legal.contains(action) {
                throw fail(.inPlaceReads, matchSeed, state, "isLegalInPlace(\(action)) said \(answer), the list is \(listed.actions)")
            }
        }
    }

    /// ``GameState/searchValues(into:)`` and ``GameState/searchValuesInPlace(into:)`` give
    /// every seat its ``GameState/searchValue(of:)``, the latter leaving the state's values as they were.
    private static func checkSearchValues<S: GameState>(_ state: S, _ matchSeed: UInt64) throws(ConformanceFailure) {
        var values = [Double](repeating: -1, count: state.seatCount)
        state.searchValues(into: &values)
        for seat in 0..<state.seatCount where values[seat] != state.searchValue(of: seat) {
            throw fail(.inPlaceReads, matchSeed, state, "searchValues gave seat \(seat) \(values[seat]), searchValue(of:) \(state.searchValue(of: seat))")
        }
        var copy = state
        var inPlace = [Double](repeating: -1, count: state.seatCount)
        copy.searchValuesInPlace(into: &inPlace)
        if inPlace != values || (0..<state.seatCount).contains(where: { copy.searchValue(of: $0) != values[$0] }) {
            throw fail(.inPlaceReads, matchSeed, state, "searchValuesInPlace gave \(inPlace), searchValues \(values), or changed the state")
        }
    }
}
