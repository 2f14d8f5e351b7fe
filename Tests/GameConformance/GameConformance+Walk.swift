import LabCore

extension Conformance {
    /// Plays `matches` random matches of `game` (match seeds from `seed`, actions from
    /// each match's action stream) and calls `visit` with every running state before its
    /// action is drawn, then `finished` with the final state. A match longer than
    /// `maxTurns` fails `check`.
    static func walk<G: Game>(_ game: G, matches: Int, seed: UInt64, maxTurns: Int, check: ConformanceFailure.Check,
                              _ visit: (inout G.State, _ matchSeed: UInt64) throws(ConformanceFailure) -> Void,
                              finished: (G.State, _ matchSeed: UInt64) throws(ConformanceFailure) -> Void = { _, _ in })
        throws(ConformanceFailure) {
        var buffer = ActionBuffer()
        for m in 0..<matches {
            let matchSeed = Seeds.match(seed, match: UInt64(m))
            var rng = actionStream(matchSeed)
            var state = game.newMatch(seed: matchSeed)
            while !state.isTerminal {
                try visit(&state, matchSeed)
                if state.turn >= maxTurns { throw fail(check, matchSeed, state, "no end after \(maxTurns) actions") }
                state.legalActions(into: &buffer)
                state.apply(buffer[rng.uniform(buffer.count)])
            }
            try finished(state, matchSeed)
        }
    }
}
