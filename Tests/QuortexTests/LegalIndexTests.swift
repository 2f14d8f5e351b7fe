import LabCore
import Quortex
import Testing

/// The legal placements counted and indexed without their list
/// (``QuortexState/legalActionCountInPlace()``, ``QuortexState/legalAction(at:)``): what
/// the play loop asks for a `random` seat. The count must be the list's, each index must
/// name the list's action there, and a match of `random` players must play the moves a
/// draw from the list plays.
@Suite("Quortex legal placements by index")
struct LegalIndexTests {
    /// The playout steps' boards, each over at least 200 positions of whole matches (a
    /// cell takes only some rotations mostly near their end), and boards of more than 64
    /// cells (the second word of a cell set).
    static let configs = RandomPlayoutStepTests.configs.map { config in
        var config = config
        config.positions = max(config.positions, 200)
        return config
    } + [
        LegalityFuzzTests.Config(seats: 3, radius: 5, bag: "30,30,30,30", positions: 300),
        LegalityFuzzTests.Config(seats: 2, radius: 6, bag: "40,40,40,40", positions: 300, mixedPlayers: true),
    ]

    /// Count and every index of `state` against its list; whether a cell there takes only
    /// some of the tile's distinct rotations.
    static func check(_ state: QuortexState) -> Bool {
        let listed = RandomPlayoutStepTests.listed(state)
        var copy = state
        #expect(copy.legalActionCountInPlace() == listed.count)
        let indexed = (0..<listed.count).map { copy.legalAction(at: $0) }
        #expect(indexed == listed, "turn \(state.turn)\n\(state.renderBoard() ?? "")")
        let perCell = Dictionary(grouping: listed, by: { $0 / 6 }).values.map(\.count)
        return perCell.contains { $0 < QuortexTile.distinctRotations[state.drawnTile!].count }
    }

    @Test("the count is the list's and each index names the list's placement there, after plain moves and playout steps",
          arguments: configs)
    func indexNamesTheListedPlacement(config: LegalityFuzzTests.Config) throws {
        var rng = LabRandom(seed: 5)
        var buffer = ActionBuffer()
        var positions = 0, partial = 0
        try LegalityFuzzTests.positions(config, seed: 900, count: config.positions) { start in
            // The position, then playout steps (whose essential cells are left unchecked).
            var state = start
            for _ in 0..<4 where !state.isTerminal {
                if Self.check(state) { partial += 1 }
                positions += 1
                state.applyRandomAction(using: &rng, buffer: &buffer)
            }
            if state.isTerminal { #expect(state.legalActionCountInPlace() == nil) }
            return true
        }
        #expect(positions >= config.positions)
        // Some positions had a cell where only some rotations are legal.
        #expect(partial > 0)
    }

    /// `random`'s draw from the list, without saying it draws uniformly: the play loop
    /// lists every turn for it.
    final class ListedRandom: Strategy {
        typealias G = QuortexGame
        let inner: UniformRandomStrategy<QuortexGame>
        init(seed: UInt64) { inner = UniformRandomStrategy(seed: seed) }
        func chooseAction(_ observation: QuortexObservation, legal: ActionBuffer) -> Int {
            inner.chooseAction(observation, legal: legal)
        }
    }

    @Test("random players play the moves a draw from the list plays", arguments: [2, 4])
    func randomMatchesPlayTheListedDraws(seats: Int) throws {
        let game = try Q.game(seats: seats, ["radius": "4"])
        var buffer = ActionBuffer()
        var counted = 0
        for seed: UInt64 in 1...30 {
            var drawn: [Int] = [], listed: [Int] = []
            let uniform: [StrategyFactory<QuortexGame>] = (0..<seats).map { _ in { UniformRandomStrategy(seed: $0.seed) } }
            let list: [StrategyFactory<QuortexGame>] = (0..<seats).map { _ in { ListedRandom(seed: $0.seed) } }
            // Mixed: seat 0 draws by index, the others from the list.
            let mixed = [uniform[0]] + list.dropFirst()
            let a = Match.play(game, seed: seed, factories: uniform, buffer: &buffer, observe: { _, action, _ in drawn.append(action) })
            let b = Match.play(game, seed: seed, factories: list, buffer: &buffer, observe: { _, action, _ in listed.append(action) })
            let c = Match.play(game, seed: seed, factories: mixed, buffer: &buffer)
            #expect(drawn == listed)
            #expect(a.outcome == b.outcome && c.outcome == b.outcome)
            #expect(a.final.observation(for: 0) == b.final.observation(for: 0))
            counted += drawn.count
        }
        #expect(counted > 30 * 5)
    }
}
