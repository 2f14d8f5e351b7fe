import ConnectFour
import Evaluators
import Foundation
import LabCore
import Testing
@testable import LabCatalog

/// A game's symmetries in its features: Connect Four's mirror maps a position's features
/// to those of the mirrored position; a network asked with `symmetric` answers the same
/// for both; training draws each position as itself or its image; games without
/// symmetries refuse both knobs.
@Suite("Feature symmetries")
struct SymmetryTests {
    /// A random Connect Four position after `moves` moves and the same game played in
    /// mirrored columns.
    static func positions(seed: UInt64, moves: Int) -> (ConnectFourState, ConnectFourState) {
        let game = ConnectFourGame()
        var state = game.newMatch(seed: 0), mirrored = game.newMatch(seed: 0)
        var rng = LabRandom(seed: seed)
        var buffer = ActionBuffer()
        for _ in 0..<moves where !state.isTerminal {
            state.legalActions(into: &buffer)
            let action = buffer[Int(rng.next() % UInt64(buffer.count))]
            state.apply(action)
            mirrored.apply(Bitboard.columns - 1 - action)
        }
        return (state, mirrored)
    }

    static func features(_ state: ConnectFourState, seat: Int) -> [Float] {
        let encoder = ConnectFourFeatures()
        var x = [Float](repeating: -1, count: encoder.featureCount)
        x.withUnsafeMutableBufferPointer { encoder.encode(state.observation(for: seat), into: $0) }
        return x
    }

    @Test("Connect Four's mirror maps the features of a position to those of the position played in mirrored columns, and column c to 6 - c")
    func connectFourMirror() throws {
        let symmetries = ConnectFourFeatures().symmetries
        let mirror = try #require(symmetries.first)
        #expect(symmetries.count == 1)
        #expect(mirror.actions == [6, 5, 4, 3, 2, 1, 0])
        var asymmetric = 0
        for seed: UInt64 in 1...40 {
            let (state, mirrored) = Self.positions(seed: seed, moves: Int(seed % 20))
            for seat in 0..<2 {
                let x = Self.features(state, seat: seat), expected = Self.features(mirrored, seat: seat)
                var image = [Float](repeating: -1, count: x.count)
                x.withUnsafeBufferPointer { source in image.withUnsafeMutableBufferPointer { mirror.mapFeatures(source.baseAddress!, to: $0.baseAddress!) } }
                #expect(image == expected, "seed \(seed), seat \(seat)")
                if x != expected { asymmetric += 1 }
            }
            // Legal columns map to legal columns.
            var legal = ActionBuffer(), legalMirrored = ActionBuffer()
            state.legalActions(into: &legal)
            mirrored.legalActions(into: &legalMirrored)
            #expect(Set((0..<legal.count).map { mirror.actions[legal[$0]] }) == Set((0..<legalMirrored.count).map { legalMirrored[$0] }))
        }
        #expect(asymmetric > 40, "most random positions are not their own mirror image")
    }

    @Test("a permutation is checked, and maps per-action values to the image's ids")
    func mapping() {
        let symmetry = FeatureSymmetry(features: [2, 0, 1], actions: [1, 2, 0])
        let source: [Float] = [10, 20, 30]
        var target = [Float](repeating: 0, count: 3)
        source.withUnsafeBufferPointer { s in target.withUnsafeMutableBufferPointer { symmetry.mapFeatures(s.baseAddress!, to: $0.baseAddress!) } }
        #expect(target == [30, 10, 20])
        source.withUnsafeBufferPointer { s in target.withUnsafeMutableBufferPointer { symmetry.mapActions(s.baseAddress!, to: $0.baseAddress!) } }
        #expect(target == [30, 10, 20])
    }

    @Test("symmetric: a network's answers for a position and its mirror image are each other's mirror, exactly; without it they are not")
    func symmetricEvaluation() {
        let encoder = ConnectFourFeatures()
        let shape = PolicyValueShape(inputs: encoder.featureCount, width: 32, blocks: 1, actions: 7, seats: 2, actionFeatures: 0)
        let network = PolicyValueNet(shape: shape, seed: 11)
        let (state, mirrored) = Self.positions(seed: 3, moves: 9)
        let x = Self.features(state, seat: state.currentSeat) + Self.features(mirrored, seat: mirrored.currentSeat)
        func answers(symmetric: Bool) -> ([Float], [Float]) {
            let model = NetworkModel<ConnectFourGame, ConnectFourFeatures>(network: network, encoder: encoder, symmetric: symmetric)
            var logits = [Float](repeating: 0, count: 14), values = [Float](repeating: 0, count: 4)
            model.evaluate(x, batch: 2, logits: &logits, values: &values)
            #expect(model.positions == 2)
            return (logits, values)
        }
        let (logits, values) = answers(symmetric: true)
        for a in 0..<7 { #expect(logits[a] == logits[7 + (6 - a)], "action \(a)") }
        #expect(Array(values[0..<2]) == Array(values[2..<4]))
        #expect(abs(values[0] + values[1] - 1) < 1e-5)
        let (plain, plainValues) = answers(symmetric: false)
        #expect((0..<7).contains { plain[$0] != plain[7 + (6 - $0)] } || plainValues[0] != plainValues[2])
        // The average of the two plain answers is the symmetric one.
        for a in 0..<7 { #expect(abs(logits[a] - (plain[a] + plain[7 + (6 - a)]) / 2) < 1e-5) }
    }

    @Test("training with symmetries draws each position as itself or its mirror image, features and policy together; without, as itself")
    func replayBufferImages() {
        let (state, _) = Self.positions(seed: 8, moves: 7)
        let x = Self.features(state, seat: state.currentSeat)
        var buffer = ReplayBuffer()
        buffer.append(generation: 1, positions: [LearnedPosition(features: x, legal: [0, 1, 5], policy: [0.5, 0.3, 0.2], value: [0.75, 0.25])], window: 4)
        let shape = PolicyValueShape(inputs: x.count, width: 8, blocks: 1, actions: 7, seats: 2, actionFeatures: 0)
        let mirror = ConnectFourFeatures().symmetries[0]
        var mirroredX = [Float](repeating: 0, count: x.count)
        x.withUnsafeBufferPointer { s in mirroredX.withUnsafeMutableBufferPointer { mirror.mapFeatures(s.baseAddress!, to: $0.baseAddress!) } }
        var batch = PolicyValueBatch(shape: shape, rows: 64)
        var rng = LabRandom(seed: 4)
        buffer.fill(&batch, rng: &rng, symmetries: [mirror])
        var seen = [0, 0]
        for r in 0..<batch.rows {
            let row = Array(batch.inputs[(r * x.count)..<((r + 1) * x.count)])
            let policy = Array(batch.policy[(r * 7)..<((r + 1) * 7)]), legal = Array(batch.legal[(r * 7)..<((r + 1) * 7)])
            if row == x {
                seen[0] += 1
                #expect(policy == [0.5, 0.3, 0, 0, 0, 0.2, 0] && legal == [1, 1, 0, 0, 0, 1, 0])
            } else {
                seen[1] += 1
                #expect(row == mirroredX)
                #expect(policy == [0, 0.2, 0, 0, 0, 0.3, 0.5] && legal == [0, 1, 0, 0, 0, 1, 1])
            }
            #expect(Array(batch.value[(r * 2)..<((r + 1) * 2)]) == [0.75, 0.25])
        }
        #expect(seen[0] > 10 && seen[1] > 10)
        rng = LabRandom(seed: 4)
        buffer.fill(&batch, rng: &rng)
        #expect((0..<batch.rows).allSatisfy { Array(batch.inputs[($0 * x.count)..<(($0 + 1) * x.count)]) == x })
    }

    @Test("the knobs: alphazero and policy take symmetric on Connect Four and refuse it where the features have none (before the model is read); learn --symmetries likewise")
    func knobs() throws {
        let connect4 = try Catalog.game(named: "connect4")
        for spec in ["alphazero(sims=4, symmetric=true)", "policy(symmetric=true)"] {
            let table = try connect4.makeTable(TableSetup(players: [try Catalog.validate(spec, for: connect4), StrategySpec(name: "random")]))
            var buffer = ActionBuffer()
            #expect(table.play(seed: 3, buffer: &buffer, trace: nil).outcome.turns > 0)
        }
        let rail = try Catalog.game(named: "rail")
        let error = try #require(throws: InputError.self) {
            _ = try rail.makeTable(TableSetup(players: [try Catalog.validate("policy(model=none.model, symmetric=true)", for: rail),
                                                        StrategySpec(name: "random")]))
        }
        #expect(error.message == "symmetric=true: rail's features have no symmetries to average over; leave it false")
        #expect(throws: InputError("strategy policy: symmetric=bogus is not accepted; symmetric takes one of model, true, false")) {
            _ = try Catalog.validate("policy(symmetric=bogus)", for: connect4)
        }
        #expect(throws: InputError("strategy alphazero: decisive=1 is not accepted; decisive takes true or false")) {
            _ = try Catalog.validate("alphazero(decisive=1)", for: connect4)
        }
        var request = LearnRequest(game: "quortex")
        request.symmetries = true
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("oplab-sym-\(UUID().uuidString)").path
        let learning = try #require(try Catalog.game(named: "quortex").learning)
        #expect(throws: InputError("--symmetries: quortex's features have no symmetries to train on")) {
            _ = try learning.learn(request, options: LearnOptions(directory: folder, threads: 1)) { _ in }
        }
        #expect(!FileManager.default.fileExists(atPath: folder))
    }

    @Test("learn --symmetries trains on something else than without, the same bytes on 1 and 2 threads; its model says so and plays symmetric by default; a resume must keep it")
    func learning() throws {
        var request = LearningTests.request(generations: 1)
        request.symmetries = true
        let one = LearningTests.folder(), two = LearningTests.folder(), plain = LearningTests.folder()
        defer { for f in [one, two, plain] { try? FileManager.default.removeItem(atPath: f) } }
        _ = try LearningTests.learn(request, into: one, threads: 1)
        _ = try LearningTests.learn(request, into: two, threads: 2)
        _ = try LearningTests.learn(LearningTests.request(generations: 1), into: plain, threads: 2)
        let model = { (folder: String) in LearningTests.bytes(folder + "/checkpoint.bin") }
        #expect(model(one) != nil && model(one) == model(two))
        #expect(model(one) != model(plain))
        // The model says it was learned on symmetric images, and symmetric=model (the
        // default) plays as symmetric=true with it; a model learned without says not.
        let learned = try LearnedModel.load(path: one + "/best.model")
        #expect(learned.note(LearnedModel.symmetricNote) == "true" && learned.learnedWithSymmetries)
        #expect(try !LearnedModel.load(path: plain + "/best.model").learnedWithSymmetries)
        let entry = try #require(try Catalog.game(named: "connect4") as? CatalogEntry<ConnectFourGame>)
        func moves(_ spec: String) throws -> [Int] {
            let factory = try StrategyLookup.resolve(try StrategySpec.parse(spec), in: entry.entries, game: ConnectFourGame())
            return (UInt64(1)...12).map { seed in
                let (state, _) = Self.positions(seed: seed, moves: Int(seed % 9))
                var legal = ActionBuffer()
                state.legalActions(into: &legal)
                return factory(StrategyContext(game: ConnectFourGame(), seat: state.currentSeat, seed: seed))
                    .chooseAction(state.observation(for: state.currentSeat), legal: legal)
            }
        }
        for name in ["alphazero", "policy"] {
            #expect(try moves("\(name)(model=\(one)/best.model)") == moves("\(name)(model=\(one)/best.model, symmetric=true)"))
        }
        var without = LearningTests.request(generations: 2)
        without.symmetries = false
        let error = try #require(throws: InputError.self) { _ = try LearningTests.learn(without, into: one, threads: 1, resume: true) }
        #expect(error.message.hasSuffix("learn.json: the learning there was made with symmetries: true, not nothing more; resume with the same flags, or pass --force to start over"))
    }
}
