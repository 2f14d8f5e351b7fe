import LabCore

/// The play loop of one concrete game: made where the game type is known (each game's
/// entry), so `Match.play` is specialised for it instead of reaching the state through
/// generic witnesses, which copy it on every call.
typealias PlayLoop<G: Game> = @Sendable (_ seed: UInt64, _ strategySeed: UInt64?, _ match: Int, _ buffer: inout ActionBuffer,
                                         _ observe: ((G.State, Int, G.State) -> Void)?,
                                         _ timer: DecisionTimer?) -> (outcome: Outcome, final: G.State)

/// The play loop of `game` with `factories`, for a game entry to hand its table. Called
/// from each entry with its concrete game type, so the optimiser specialises it there.
@inline(__always)
func playLoop<G: Game>(_ game: G, _ factories: [StrategyFactory<G>]) -> PlayLoop<G> {
    { seed, strategySeed, match, buffer, observe, timer in
        // Two calls, so the untraced one (every tournament match) is compiled without
        // the trace branch.
        if let observe {
            Match.play(game, seed: seed, strategySeed: strategySeed, match: match, factories: factories, buffer: &buffer,
                       observe: observe, timer: timer)
        } else {
            Match.play(game, seed: seed, strategySeed: strategySeed, match: match, factories: factories, buffer: &buffer, timer: timer)
        }
    }
}
