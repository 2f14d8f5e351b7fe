import LabCore

/// The play loop of one game, as a table holds it: a closure made where the entry knows
/// the game, holding the game and its factories. A generic `Table<G>` calling
/// `game.playMatch` on its own stored game instead reaches it through `G`'s value
/// witnesses on every match (measured: 1,200 to 1,700 more instructions a Quortex match).
typealias PlayLoop<G: Game> = @Sendable (_ seed: UInt64, _ strategySeed: UInt64?, _ match: Int, _ buffer: inout ActionBuffer,
                                         _ observe: ((G.State, Int, G.State) -> Void)?,
                                         _ timer: DecisionTimer?) -> (outcome: Outcome, final: G.State)

/// The play loop of `game` with `factories`, for a game entry to hand its table: the
/// game's own ``Game/playMatch(seed:strategySeed:match:factories:buffer:observe:timer:)``,
/// specialised in its module.
func playLoop<G: Game>(_ game: G, _ factories: [StrategyFactory<G>]) -> PlayLoop<G> {
    { seed, strategySeed, match, buffer, observe, timer in
        game.playMatch(seed: seed, strategySeed: strategySeed, match: match, factories: factories, buffer: &buffer,
                       observe: observe, timer: timer)
    }
}
