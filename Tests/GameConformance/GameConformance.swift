import LabCore

/// The generic suite every game must pass (ARCHITECTURE.md, "Tests/"; in the spirit of
/// OpenSpiel's shared game tests). It knows a game only through LabCore's contract.
///
/// Every check plays seeded matches with uniformly random legal actions, so a failure
/// names the match seed and turn that reproduce it. The checks:
/// - ``randomPlay(_:matches:seed:maxTurns:)``: invariants after every action, well-formed
///   legal actions in every state, termination with a well-formed outcome.
/// - ``legalActionsApply(_:matches:seed:every:maxTurns:)``: every legal action applies
///   cleanly to a copy.
/// - ``copyIndependence(_:matches:seed:every:horizon:maxTurns:)``: a copy is an independent value.
/// - ``replay(_:matches:seed:maxTurns:)``: the same seed replays the same match.
/// - ``observationsHideHiddenState(_:matches:seed:every:samplesPerSeat:horizon:maxTurns:)``:
///   information-set samples agree with the observation they came from.
/// - ``inPlaceReads(_:matches:seed:maxTurns:)`` (GameConformance+InPlace.swift): the play
///   loop's in-place legal actions and observations equal the plain ones.
/// - ``resampling(_:matches:seed:every:horizon:maxTurns:)`` (GameConformance+Resample.swift):
///   a resampled state equals a new sample from the same stream.
public enum Conformance {
    /// How many matches each check plays. Debug builds are slow: keep counts modest.
    public struct Budget: Sendable {
        public var randomMatches: Int
        public var applyMatches: Int
        public var copyMatches: Int
        public var replayMatches: Int
        public var samplingMatches: Int
        /// Information-set samples per seat at each sampled state.
        public var samplesPerSeat: Int
        /// The apply, copy and sampling checks look at every `stride`-th state of a match.
        public var stride: Int
        /// Actions a copy or a sample is played on for (the checks compare futures).
        public var horizon: Int
        /// A match longer than this is reported as not terminating.
        public var maxTurns: Int

        public init(randomMatches: Int, applyMatches: Int, copyMatches: Int, replayMatches: Int,
                    samplingMatches: Int, samplesPerSeat: Int = 2, stride: Int = 5, horizon: Int = 20,
                    maxTurns: Int = 100_000) {
            self.randomMatches = randomMatches
            self.applyMatches = applyMatches
            self.copyMatches = copyMatches
            self.replayMatches = replayMatches
            self.samplingMatches = samplingMatches
            self.samplesPerSeat = samplesPerSeat
            self.stride = stride
            self.horizon = horizon
            self.maxTurns = maxTurns
        }

        /// `matches` random matches; the costlier checks get a tenth (at least one each).
        public init(matches: Int) {
            let tenth = max(1, matches / 10)
            self.init(randomMatches: matches, applyMatches: tenth, copyMatches: tenth,
                      replayMatches: tenth, samplingMatches: tenth)
        }
    }

    /// Runs every check with `Budget(matches:)`.
    public static func check<G: Game>(_ game: G, matches: Int, seed: UInt64) throws(ConformanceFailure) {
        try check(game, budget: Budget(matches: matches), seed: seed)
    }

    /// Runs every check; each derives its own match seeds from `seed`.
    public static func check<G: Game>(_ game: G, budget: Budget, seed: UInt64) throws(ConformanceFailure) {
        try randomPlay(game, matches: budget.randomMatches, seed: Seeds.derive(seed, 1), maxTurns: budget.maxTurns)
        try legalActionsApply(game, matches: budget.applyMatches, seed: Seeds.derive(seed, 2), every: budget.stride, maxTurns: budget.maxTurns)
        try copyIndependence(game, matches: budget.copyMatches, seed: Seeds.derive(seed, 3), every: budget.stride,
                             horizon: budget.horizon, maxTurns: budget.maxTurns)
        try replay(game, matches: budget.replayMatches, seed: Seeds.derive(seed, 4), maxTurns: budget.maxTurns)
        try observationsHideHiddenState(game, matches: budget.samplingMatches, seed: Seeds.derive(seed, 5),
                                        every: budget.stride, samplesPerSeat: budget.samplesPerSeat,
                                        horizon: budget.horizon, maxTurns: budget.maxTurns)
        try inPlaceReads(game, matches: budget.applyMatches, seed: Seeds.derive(seed, 6), maxTurns: budget.maxTurns)
        try resampling(game, matches: budget.samplingMatches, seed: Seeds.derive(seed, 7), every: budget.stride,
                       horizon: budget.horizon, maxTurns: budget.maxTurns)
    }

    // MARK: (a) Random play

    /// Plays `matches` random matches checking, in every state, the invariants and that
    /// the legal actions are unique, inside `0..<actionSpaceSize` and non-empty until the
    /// end; every match must end within `maxTurns` with a well-formed outcome.
    public static func randomPlay<G: Game>(_ game: G, matches: Int, seed: UInt64, maxTurns: Int = 100_000) throws(ConformanceFailure) {
        var buffer = ActionBuffer()
        var seen: [Bool] = []
        for m in 0..<matches {
            let matchSeed = Seeds.match(seed, match: UInt64(m))
            var rng = actionStream(matchSeed)
            var state = game.newMatch(seed: matchSeed)
            var applied = 0
            try checkDeal(state, game, matchSeed)
            while !state.isTerminal {
                try checkLegalActions(state, &buffer, &seen, .randomPlay, matchSeed)
                if state.outcome != nil { throw fail(.randomPlay, matchSeed, state, "a running match has an outcome") }
                if applied >= maxTurns { throw fail(.randomPlay, matchSeed, state, "no end after \(maxTurns) actions") }
                let action = buffer[rng.uniform(buffer.count)]
                let before = state
                state.apply(action)
                applied += 1
                if let broken = state.invariantViolation() {
                    throw fail(.randomPlay, matchSeed, state, "after \(before.describe(action)): \(broken)")
                }
            }
            try checkOutcome(state, game, applied: applied, matchSeed)
        }
    }

    // MARK: (d) Every legal action applies

    /// In every state of `matches` random matches checks the legal actions are unique and
    /// inside the action space, and at every `every`-th state applies each of them to a
    /// copy and checks the copy's invariants (and that the action moved the turn on).
    public static func legalActionsApply<G: Game>(_ game: G, matches: Int, seed: UInt64, every: Int = 1,
                                                  maxTurns: Int = 100_000) throws(ConformanceFailure) {
        var buffer = ActionBuffer()
        var seen: [Bool] = []
        for m in 0..<matches {
            let matchSeed = Seeds.match(seed, match: UInt64(m))
            var rng = actionStream(matchSeed)
            var state = game.newMatch(seed: matchSeed)
            while !state.isTerminal {
                try checkLegalActions(state, &buffer, &seen, .legalActionsApply, matchSeed)
                for i in 0..<buffer.count where state.turn % max(1, every) == 0 {
                    var next = state
                    next.apply(buffer[i])
                    if let broken = next.invariantViolation() {
                        throw fail(.legalActionsApply, matchSeed, state, "\(state.describe(buffer[i])): \(broken)")
                    }
                    if next.turn != state.turn + 1 {
                        throw fail(.legalActionsApply, matchSeed, state, "\(state.describe(buffer[i])) moved the turn from \(state.turn) to \(next.turn)")
                    }
                }
                if state.turn >= maxTurns { throw fail(.legalActionsApply, matchSeed, state, "no end after \(maxTurns) actions") }
                state.apply(buffer[rng.uniform(buffer.count)])
            }
        }
    }

    // MARK: (b) Copies are independent values

    /// At every `every`-th state of `matches` random matches: a copy played on for
    /// `horizon` actions leaves the original's legal actions, observations and
    /// invariants unchanged, and the original then plays the very same future (same
    /// actions, same end) as the copy did from the same action stream, so no hidden part
    /// (deck order, random stream) is shared either. Also the reverse: the original
    /// moving on leaves an earlier copy unchanged.
    public static func copyIndependence<G: Game>(_ game: G, matches: Int, seed: UInt64, every: Int = 5, horizon: Int = 20,
                                                 maxTurns: Int = 100_000) throws(ConformanceFailure) {
        var buffer = ActionBuffer()
        for m in 0..<matches {
            let matchSeed = Seeds.match(seed, match: UInt64(m))
            var rng = actionStream(matchSeed)
            var state = game.newMatch(seed: matchSeed)
            while !state.isTerminal {
                if state.turn % max(1, every) == 0 {
                    let before = Snapshot(state)
                    var copy = state
                    let futureSeed = Seeds.derive(matchSeed, UInt64(state.turn), SeedPurpose.auxiliary.rawValue)
                    let copyFuture = try playOn(&copy, seed: futureSeed, limit: horizon, checkInvariants: false, check: .copyIndependence, matchSeed)
                    if let change = before.difference(Snapshot(state)) {
                        throw fail(.copyIndependence, matchSeed, state, "playing a copy on changed the original's \(change)")
                    }
                    var original = state
                    let originalFuture = try playOn(&original, seed: futureSeed, limit: horizon, checkInvariants: false, check: .copyIndependence, matchSeed)
                    if originalFuture.actions != copyFuture.actions || originalFuture.outcome != copyFuture.outcome {
                        throw fail(.copyIndependence, matchSeed, state, "a copy and its original played different futures from the same action stream")
                    }
                    if let change = Snapshot(copy).difference(Snapshot(original)) {
                        throw fail(.copyIndependence, matchSeed, state, "a copy and its original ended their futures with different \(change)")
                    }
                    let kept = state
                    let keptSnapshot = Snapshot(kept)
                    state.legalActions(into: &buffer)
                    state.apply(buffer[rng.uniform(buffer.count)])
                    if let change = keptSnapshot.difference(Snapshot(kept)) {
                        throw fail(.copyIndependence, matchSeed, kept, "applying an action to the original changed an earlier copy's \(change)")
                    }
                } else {
                    state.legalActions(into: &buffer)
                    state.apply(buffer[rng.uniform(buffer.count)])
                }
                if state.turn >= maxTurns { throw fail(.copyIndependence, matchSeed, state, "no end after \(maxTurns) actions") }
            }
        }
    }

    // MARK: (c) Same seed, same match

    /// Deals and plays each of `matches` matches twice with the same seeds: the action
    /// sequences, every seat's final observation and the outcomes must be identical.
    public static func replay<G: Game>(_ game: G, matches: Int, seed: UInt64, maxTurns: Int = 100_000) throws(ConformanceFailure) {
        for m in 0..<matches {
            let matchSeed = Seeds.match(seed, match: UInt64(m))
            var first = game.newMatch(seed: matchSeed)
            var second = game.newMatch(seed: matchSeed)
            let a = try playOn(&first, seed: matchSeed, limit: maxTurns, checkInvariants: false, check: .replay, matchSeed)
            let b = try playOn(&second, seed: matchSeed, limit: maxTurns, checkInvariants: false, check: .replay, matchSeed)
            if a.actions != b.actions {
                let at = zip(a.actions, b.actions).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset ?? min(a.actions.count, b.actions.count)
                throw fail(.replay, matchSeed, first, "the same seed replayed differently from action \(at) (\(a.actions.count) vs \(b.actions.count) actions)")
            }
            guard let outcome = a.outcome else { throw fail(.replay, matchSeed, first, "no end after \(maxTurns) actions") }
            if outcome != b.outcome {
                throw fail(.replay, matchSeed, first, "the same seed gave outcomes \(outcome) and \(b.outcome.map { "\($0)" } ?? "none")")
            }
            for seat in 0..<game.seatCount where first.observation(for: seat) != second.observation(for: seat) {
                throw fail(.replay, matchSeed, first, "the same seed left seat \(seat) different final observations")
            }
        }
    }

    // MARK: (e) Observations reveal nothing hidden

    /// At every `every`-th state of `matches` random matches, for each seat draws
    /// `samplesPerSeat` states from its observation (information-set sampling) and
    /// checks that each sample: gives the seat the very same observation (so the
    /// observation cannot tell the sample from the truth, which differs in hidden parts
    /// only); passes its invariants; agrees on mover, turn and terminal flag; lists the
    /// true legal actions when the seat is the mover; and, for the first sample of the
    /// mover, plays on for `horizon` random actions with its invariants intact (a search
    /// plays its samples).
    public static func observationsHideHiddenState<G: Game>(_ game: G, matches: Int, seed: UInt64, every: Int = 5,
                                                            samplesPerSeat: Int = 2, horizon: Int = 20,
                                                            maxTurns: Int = 100_000) throws(ConformanceFailure) {
        var buffer = ActionBuffer()
        var truth = ActionBuffer()
        for m in 0..<matches {
            let matchSeed = Seeds.match(seed, match: UInt64(m))
            var rng = actionStream(matchSeed)
            var sampler = LabRandom(seed: Seeds.derive(matchSeed, 0, SeedPurpose.sampling.rawValue))
            var state = game.newMatch(seed: matchSeed)
            while !state.isTerminal {
                state.legalActions(into: &truth)
                if state.turn % max(1, every) == 0 {
                    for seat in 0..<game.seatCount {
                        let view = state.observation(for: seat)
                        if view.seat != seat { throw fail(.observations, matchSeed, state, "observation for seat \(seat) says seat \(view.seat)") }
                        for k in 0..<samplesPerSeat {
                            var sample = view.sampleState(using: &sampler)
                            let prefix = "seat \(seat), sample \(k)"
                            if let broken = sample.invariantViolation() {
                                throw fail(.observations, matchSeed, state, "\(prefix) breaks an invariant: \(broken)")
                            }
                            if sample.observation(for: seat) != view {
                                throw fail(.observations, matchSeed, state, "\(prefix) does not give the seat the observation it was sampled from")
                            }
                            if sample.currentSeat != state.currentSeat || sample.turn != state.turn || sample.isTerminal != state.isTerminal {
                                throw fail(.observations, matchSeed, state, "\(prefix) disagrees on the mover, turn or end")
                            }
                            guard seat == state.currentSeat else { continue }
                            sample.legalActions(into: &buffer)
                            if buffer.actions != truth.actions {
                                throw fail(.observations, matchSeed, state, "\(prefix): the mover's legal actions differ in the sample (\(buffer.count) vs \(truth.count))")
                            }
                            if k == 0 {
                                _ = try playOn(&sample, seed: Seeds.derive(matchSeed, UInt64(state.turn), UInt64(seat), SeedPurpose.sampling.rawValue),
                                               limit: horizon, checkInvariants: true, check: .observations, matchSeed)
                            }
                        }
                    }
                }
                if state.turn >= maxTurns { throw fail(.observations, matchSeed, state, "no end after \(maxTurns) actions") }
                state.apply(truth[rng.uniform(truth.count)])
            }
        }
    }

    // MARK: Helpers

    /// The random action stream of a match (not the deal's: that one is the game's).
    static func actionStream(_ matchSeed: UInt64) -> LabRandom {
        LabRandom(seed: Seeds.derive(matchSeed, 0, SeedPurpose.auxiliary.rawValue))
    }

    static func fail<S: GameState>(_ check: ConformanceFailure.Check, _ matchSeed: UInt64, _ state: S, _ message: String) -> ConformanceFailure {
        ConformanceFailure(check: check, matchSeed: matchSeed, turn: state.turn, message: message)
    }

    /// The freshly dealt state: invariants hold, turn 0, not over, seats as the game says.
    static func checkDeal<G: Game>(_ state: G.State, _ game: G, _ matchSeed: UInt64) throws(ConformanceFailure) {
        if let broken = state.invariantViolation() { throw fail(.randomPlay, matchSeed, state, "the deal breaks an invariant: \(broken)") }
        if state.turn != 0 { throw fail(.randomPlay, matchSeed, state, "a new match starts at turn \(state.turn)") }
        if state.seatCount != game.seatCount { throw fail(.randomPlay, matchSeed, state, "state has \(state.seatCount) seats, game \(game.seatCount)") }
        if game.teams.count != game.seatCount { throw fail(.randomPlay, matchSeed, state, "teams lists \(game.teams.count) seats") }
    }

    /// Legal actions of a running state: non-empty, unique, inside the action space.
    static func checkLegalActions<S: GameState>(_ state: S, _ buffer: inout ActionBuffer, _ seen: inout [Bool],
                                                _ check: ConformanceFailure.Check, _ matchSeed: UInt64) throws(ConformanceFailure) {
        state.legalActions(into: &buffer)
        if buffer.isEmpty { throw fail(check, matchSeed, state, "a running match has no legal action") }
        if !(0..<state.seatCount).contains(state.currentSeat) { throw fail(check, matchSeed, state, "mover \(state.currentSeat) is not a seat") }
        let size = state.actionSpaceSize
        if seen.count != size { seen = [Bool](repeating: false, count: size) }
        defer { for i in 0..<buffer.count where (0..<size).contains(buffer[i]) { seen[buffer[i]] = false } }
        for i in 0..<buffer.count {
            let action = buffer[i]
            guard (0..<size).contains(action) else {
                throw fail(check, matchSeed, state, "legal action \(action) is outside 0..<\(size)")
            }
            if seen[action] { throw fail(check, matchSeed, state, "legal action \(action) (\(state.describe(action))) is listed twice") }
            seen[action] = true
        }
    }

    /// A finished match: an outcome with a competition-ranked place per seat, shared by
    /// team mates, and the number of actions applied.
    static func checkOutcome<G: Game>(_ state: G.State, _ game: G, applied: Int, _ matchSeed: UInt64) throws(ConformanceFailure) {
        guard let outcome = state.outcome else { throw fail(.randomPlay, matchSeed, state, "a finished match has no outcome") }
        let places = outcome.places
        let n = game.seatCount
        if places.count != n { throw fail(.randomPlay, matchSeed, state, "\(places.count) places for \(n) seats") }
        for (seat, place) in places.enumerated() {
            if !(1...n).contains(place) { throw fail(.randomPlay, matchSeed, state, "seat \(seat) has place \(place), outside 1...\(n)") }
            // Competition ranking: a place is one more than the seats placed before it.
            let ahead = places.count(where: { $0 < place })
            if place != ahead + 1 { throw fail(.randomPlay, matchSeed, state, "places \(places) are not a competition ranking") }
        }
        for a in 0..<n {
            for b in 0..<n where game.teams[a] == game.teams[b] && places[a] != places[b] {
                throw fail(.randomPlay, matchSeed, state, "team mates \(a) and \(b) have places \(places[a]) and \(places[b])")
            }
        }
        if outcome.endReason.isEmpty { throw fail(.randomPlay, matchSeed, state, "the outcome records no end reason") }
        if outcome.turns != applied { throw fail(.randomPlay, matchSeed, state, "outcome says \(outcome.turns) turns, \(applied) actions were applied") }
    }

    /// A played future: the actions taken, and the outcome if the match ended.
    struct Future {
        var actions: [Int]
        var outcome: Outcome?
    }

    /// Plays `state` on with random actions from `seed` until it ends or `limit` actions
    /// were applied, checking the invariants after each if asked (they cost the most).
    static func playOn<S: GameState>(_ state: inout S, seed: UInt64, limit: Int, checkInvariants: Bool,
                                     check: ConformanceFailure.Check, _ matchSeed: UInt64) throws(ConformanceFailure) -> Future {
        var rng = LabRandom(seed: seed)
        var buffer = ActionBuffer()
        var actions: [Int] = []
        while !state.isTerminal && actions.count < limit {
            state.legalActions(into: &buffer)
            if buffer.isEmpty { throw fail(check, matchSeed, state, "a running match has no legal action") }
            let action = buffer[rng.uniform(buffer.count)]
            let before = state
            state.apply(action)
            actions.append(action)
            if checkInvariants, let broken = state.invariantViolation() {
                throw fail(check, matchSeed, state, "after \(before.describe(action)): \(broken)")
            }
        }
        if state.isTerminal && state.outcome == nil { throw fail(check, matchSeed, state, "a finished match has no outcome") }
        return Future(actions: actions, outcome: state.outcome)
    }

    /// What the copy check compares: everything observable of a state.
    struct Snapshot<S: GameState> {
        var legal: [Int]
        var views: [S.Observation]
        var invariant: String?
        var mover: Int
        var turn: Int
        var terminal: Bool

        init(_ state: S) {
            var buffer = ActionBuffer()
            state.legalActions(into: &buffer)
            legal = buffer.actions
            views = (0..<state.seatCount).map { state.observation(for: $0) }
            invariant = state.invariantViolation()
            mover = state.currentSeat
            turn = state.turn
            terminal = state.isTerminal
        }

        /// The first difference, described, or nil.
        func difference(_ other: Self) -> String? {
            if legal != other.legal { return "legal actions" }
            if let seat = views.indices.first(where: { views[$0] != other.views[$0] }) { return "seat \(seat)'s observation" }
            if invariant != other.invariant { return "invariants (\(other.invariant ?? "none"))" }
            if mover != other.mover || turn != other.turn || terminal != other.terminal { return "mover, turn or end" }
            return nil
        }
    }
}

/// The first failed conformance check: which check, and the match seed and turn that
/// reproduce it.
public struct ConformanceFailure: Error, CustomStringConvertible, Sendable, Equatable {
    public enum Check: String, Sendable {
        case randomPlay = "random play"
        case legalActionsApply = "legal actions apply"
        case copyIndependence = "copy independence"
        case replay = "same seed, same match"
        case observations = "observations hide hidden state"
        case inPlaceReads = "in-place reads"
        case resampling = "resampling"
    }

    public var check: Check
    public var matchSeed: UInt64
    public var turn: Int
    public var message: String

    public var description: String {
        "conformance (\(check.rawValue)) failed in match seed \(matchSeed) at turn \(turn): \(message)"
    }
}
