import ConnectFour
import LabCore
import Testing
@testable import Search

/// A model that knows nothing: equal logits everywhere, every seat's share 1/2. What the
/// search finds with it, it finds by its own simulations.
private final class UniformModel: PolicyValueModel {
    typealias State = ConnectFourState
    let featureCount = 1
    let actionCount = 7
    let seatCount = 2
    private(set) var batches: [Int] = []

    func encode(_ state: ConnectFourState, seat: Int, into features: UnsafeMutableBufferPointer<Float>) { features[0] = 0 }

    func evaluate(_ features: UnsafePointer<Float>, batch: Int, logits: UnsafeMutablePointer<Float>, values: UnsafeMutablePointer<Float>) {
        batches.append(batch)
        for i in 0..<(batch * 7) { logits[i] = 0 }
        for i in 0..<(batch * 2) { values[i] = 0.5 }
    }
}

/// Runs `search` to its end, evaluating each batch it asks for with `model` (each
/// leaf's features from the model's own encoder).
private func run<M: PolicyValueModel>(_ search: GumbelSearch<ConnectFourState>, _ model: M) where M.State == ConnectFourState {
    while !search.pending.isEmpty {
        let batch = search.pending.count, f = model.featureCount
        var features = [Float](repeating: 0, count: batch * f)
        features.withUnsafeMutableBufferPointer { x in
            for (k, leaf) in search.pending.enumerated() {
                model.encode(leaf.state, seat: leaf.seat, into: UnsafeMutableBufferPointer(rebasing: x[(k * f)..<((k + 1) * f)]))
            }
        }
        var logits = [Float](repeating: 0, count: batch * 7), values = [Float](repeating: 0, count: batch * 2)
        model.evaluate(features, batch: batch, logits: &logits, values: &values)
        search.resume(logits: logits, values: values)
    }
}

/// A model whose values barely differ: a position is worth 0.01 more to seat 0 when seat 0
/// holds the bottom cell of the middle column (and 0.01 less to seat 1). Logits are equal.
private final class SlightModel: PolicyValueModel {
    typealias State = ConnectFourState
    let featureCount = 1
    let actionCount = 7
    let seatCount = 2

    func encode(_ state: ConnectFourState, seat: Int, into features: UnsafeMutableBufferPointer<Float>) {
        let held = state.discs(of: 0) & Bitboard.bit(column: 3, row: 0) != 0
        features[0] = held ? (seat == 0 ? 1 : -1) : 0
    }

    func evaluate(_ features: UnsafePointer<Float>, batch: Int, logits: UnsafeMutablePointer<Float>, values: UnsafeMutablePointer<Float>) {
        for i in 0..<(batch * 7) { logits[i] = 0 }
        for r in 0..<batch {
            values[2 * r] = 0.5 + 0.01 * features[r]
            values[2 * r + 1] = 0.5 - 0.01 * features[r]
        }
    }
}

/// A model sure of the wrong move: `bias` more logits on column 6, every seat's share 1/2.
private final class MisledModel: PolicyValueModel {
    typealias State = ConnectFourState
    let bias: Float
    init(bias: Float) { self.bias = bias }
    let featureCount = 1
    let actionCount = 7
    let seatCount = 2
    private(set) var rows = 0

    func encode(_ state: ConnectFourState, seat: Int, into features: UnsafeMutableBufferPointer<Float>) { features[0] = 0 }

    func evaluate(_ features: UnsafePointer<Float>, batch: Int, logits: UnsafeMutablePointer<Float>, values: UnsafeMutablePointer<Float>) {
        rows += batch
        for r in 0..<batch { for a in 0..<7 { logits[7 * r + a] = a == 6 ? bias : 0 } }
        for i in 0..<(batch * 2) { values[i] = 0.5 }
    }
}

/// A search of `state` for `seat` run to its end on `model`.
private func searched<M: PolicyValueModel>(_ model: M, _ settings: GumbelSettings, _ state: ConnectFourState, seat: Int) -> GumbelSearch<ConnectFourState>
where M.State == ConnectFourState {
    let search = GumbelSearch<ConnectFourState>(model: model, settings: settings)
    var legal = ActionBuffer()
    state.legalActions(into: &legal)
    search.begin(state: state, seat: seat, legal: legal, rng: LabRandom(seed: 3))
    run(search, model)
    return search
}

@Suite("Gumbel search")
struct GumbelSearchTests {
    /// X has three in column 0 and is to move: column 0 wins at once.
    static func threatened() -> ConnectFourState {
        var state = ConnectFourGame().newMatch(seed: 1)
        for column in [0, 1, 0, 1, 0, 1] { state.apply(column) }
        return state
    }

    static func legal(_ state: ConnectFourState) -> ActionBuffer {
        var buffer = ActionBuffer()
        state.legalActions(into: &buffer)
        return buffer
    }

    @Test("with a model that knows nothing, 16 simulations find the winning move; the policy target prefers it")
    func findsTheWin() {
        let model = UniformModel()
        let state = Self.threatened()
        let search = searched(model, GumbelSettings(simulations: 16), state, seat: 0)
        #expect(search.isDone)
        #expect(search.action == 0)
        let policy = Dictionary(uniqueKeysWithValues: search.improvedPolicy.map { ($0.action, $0.probability) })
        #expect(policy[0]! > 0.5)
        #expect(abs(search.improvedPolicy.map(\.probability).reduce(0, +) - 1) < 1e-9)
    }

    @Test("Q is rescaled to [0, 1] over a node's actions (mctx): values 0.01 apart still decide the move and the target")
    func rescaledQ() {
        let model = SlightModel()
        let state = ConnectFourGame().newMatch(seed: 1)
        let search = searched(model, GumbelSettings(simulations: 16), state, seat: 0)
        #expect(search.action == 3)
        let policy = Dictionary(uniqueKeysWithValues: search.improvedPolicy.map { ($0.action, $0.probability) })
        // Unscaled, σ(q) would separate the moves by about 0.05 logits: 3 would get ~0.15.
        #expect(policy[3]! > 0.9)
    }

    @Test("decisive moves: a win on the spot is taken without a search, and the opponent's is blocked, against a prior sure of another move")
    func decisiveMoves() {
        // X to move with three in column 0: the prior wants column 6.
        let won = Self.threatened()
        for decisive in [false, true] {
            let model = MisledModel(bias: 12)
            let search = searched(model, GumbelSettings(simulations: 16, decisive: decisive), won, seat: 0)
            if decisive {
                #expect(search.action == 0)
                #expect(model.rows == 0)
                #expect(search.improvedPolicy.first { $0.action == 0 }?.probability == 1)
            } else {
                #expect(search.action == 6)
            }
        }
        // O to move must block column 0: below the root, X's win is found at every node.
        var threatened = ConnectFourGame().newMatch(seed: 1)
        for column in [0, 1, 0, 1, 0] { threatened.apply(column) }
        // (A prior 5.5 logits sure of column 6: without the check, X's reply under column 6
        // follows the prior too, so column 6 looks as good as the block.)
        for decisive in [false, true] {
            let model = MisledModel(bias: 5.5)
            let search = searched(model, GumbelSettings(simulations: 32, decisive: decisive), threatened, seat: 1)
            #expect(search.action == (decisive ? 0 : 6))
        }
    }

    @Test("each round is one batch: the root alone, then one leaf per remaining root action (7, then 4, then 2)")
    func batchesPerRound() {
        let model = UniformModel()
        let state = ConnectFourGame().newMatch(seed: 1)
        let search = searched(model, GumbelSettings(simulations: 32), state, seat: 0)
        #expect(model.batches.first == 1)
        #expect(model.batches.dropFirst().first == 7)
        #expect(model.batches.max()! <= 7)
        #expect(search.rootVisits.values.reduce(0, +) <= 32)
        #expect(Set(model.batches.dropFirst()).isSubset(of: [7, 4, 2]))
    }

    @Test("the same seed gives the same decisions; Gumbel noise in self-play spreads them")
    func determinism() {
        func decide(seed: UInt64, scale: Double) -> Int {
            let model = UniformModel()
            let search = GumbelSearch<ConnectFourState>(model: model, settings: GumbelSettings(simulations: 4, gumbelScale: scale))
            let state = ConnectFourGame().newMatch(seed: 1)
            search.begin(state: state, seat: 0, legal: Self.legal(state), rng: LabRandom(seed: seed))
            run(search, model)
            return search.action
        }
        #expect(decide(seed: 5, scale: 1) == decide(seed: 5, scale: 1))
        #expect(Set((0..<40).map { decide(seed: $0, scale: 1) }).count >= 4)
        // Without noise the ties go to the lowest action: the same move whatever the seed.
        #expect(Set((0..<10).map { decide(seed: $0, scale: 0) }).count == 1)
    }
}
