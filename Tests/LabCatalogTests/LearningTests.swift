import ConnectFour
import Quortex
import Evaluators
import Foundation
import LabCore
import Synchronization
import Testing
@testable import LabCatalog

/// `oplab learn` in process, on Connect Four at a tiny size: the same bytes at any thread
/// count and across a resume; its models play as `alphazero` and `policy`; bad models and
/// knobs are refused.
@Suite("Learning by self-play")
struct LearningTests {
    static func request(generations: Int) -> LearnRequest {
        var request = LearnRequest(game: "connect4")
        request.generations = generations
        request.games = 40
        request.sims = 8
        request.width = 16
        request.blocks = 1
        request.steps = 4
        request.batch = 32
        request.gateBlocks = 2
        request.anchorBlocks = 0
        request.chunk = 16
        request.seed = 5
        return request
    }

    static func folder() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("oplab-learn-\(UUID().uuidString)").path
    }

    static func learn(_ request: LearnRequest, into folder: String, threads: Int, resume: Bool = false) throws -> [GenerationRecord] {
        let learning = try #require(try Catalog.game(named: "connect4").learning)
        return try learning.learn(request, options: LearnOptions(directory: folder, threads: threads, resume: resume)) { _ in }
    }

    static func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    @Test("the same flags and seed give the same model and checkpoint bytes on 1 and 2 threads (3 chunks of games)")
    func threadsDoNotMatter() throws {
        let one = Self.folder(), two = Self.folder()
        defer { for f in [one, two] { try? FileManager.default.removeItem(atPath: f) } }
        let records = try Self.learn(Self.request(generations: 2), into: one, threads: 1)
        _ = try Self.learn(Self.request(generations: 2), into: two, threads: 2)
        #expect(records.count == 2)
        #expect(records.allSatisfy { $0.games == 40 && $0.positions > 0 && $0.meanBatch > 1 })
        for name in ["best.model", "checkpoint.bin"] {
            #expect(Self.bytes(one + "/" + name) != nil)
            #expect(Self.bytes(one + "/" + name) == Self.bytes(two + "/" + name), "\(name) differs")
        }
        // A different seed learns something else.
        var other = Self.request(generations: 2)
        other.seed = 6
        let third = Self.folder()
        defer { try? FileManager.default.removeItem(atPath: third) }
        _ = try Self.learn(other, into: third, threads: 2)
        #expect(Self.bytes(third + "/checkpoint.bin") != Self.bytes(one + "/checkpoint.bin"))
    }

    @Test("--rollouts: the learning's searches mix playouts in; the same bytes on 1 and 2 threads, others than without; a resume with another count is refused")
    func rollouts() throws {
        var request = Self.request(generations: 1)
        request.rollouts = 2
        let one = Self.folder(), two = Self.folder(), none = Self.folder()
        defer { for f in [one, two, none] { try? FileManager.default.removeItem(atPath: f) } }
        _ = try Self.learn(request, into: one, threads: 1)
        _ = try Self.learn(request, into: two, threads: 2)
        _ = try Self.learn(Self.request(generations: 1), into: none, threads: 2)
        #expect(Self.bytes(one + "/checkpoint.bin") != nil)
        #expect(Self.bytes(one + "/checkpoint.bin") == Self.bytes(two + "/checkpoint.bin"))
        #expect(Self.bytes(one + "/checkpoint.bin") != Self.bytes(none + "/checkpoint.bin"))
        #expect(request.searchSpec("best.model", gumbel: 0).contains("rollouts=2"))
        var other = request
        other.generations = 2
        other.rollouts = 3
        #expect(throws: InputError.self) { _ = try Self.learn(other, into: one, threads: 1, resume: true) }
    }

    @Test("a learning resumed after its first generation ends with the bytes of one run straight through; other flags are refused")
    func resume() throws {
        let straight = Self.folder(), stepwise = Self.folder()
        defer { for f in [straight, stepwise] { try? FileManager.default.removeItem(atPath: f) } }
        _ = try Self.learn(Self.request(generations: 2), into: straight, threads: 2)
        _ = try Self.learn(Self.request(generations: 1), into: stepwise, threads: 1)
        var changed = Self.request(generations: 2)
        changed.sims = 9
        #expect(throws: InputError.self) { _ = try Self.learn(changed, into: stepwise, threads: 1, resume: true) }
        changed = Self.request(generations: 2)
        changed.selfPlayer = .best
        #expect(throws: InputError.self) { _ = try Self.learn(changed, into: stepwise, threads: 1, resume: true) }
        #expect(throws: InputError("\(stepwise) already holds a learning; pass --resume to go on with it or --force to start over")) {
            _ = try Self.learn(Self.request(generations: 2), into: stepwise, threads: 1)
        }
        let more = try Self.learn(Self.request(generations: 2), into: stepwise, threads: 2, resume: true)
        #expect(more.map(\.generation) == [2])
        for name in ["best.model", "checkpoint.bin"] {
            #expect(Self.bytes(straight + "/" + name) == Self.bytes(stepwise + "/" + name), "\(name) differs")
        }
        let page = try String(contentsOfFile: stepwise + "/report.html", encoding: .utf8)
        #expect(page.contains("<h1>Learning connect4 by self-play</h1>") && page.contains("id=\"gate\"") && page.contains("id=\"losses\""))
        let csv = try String(contentsOfFile: stepwise + "/generations.csv", encoding: .utf8).split(separator: "\n")
        #expect(csv.count == 3 && csv[1].hasPrefix("1,") && csv[2].hasPrefix("2,"))
    }

    @Test("a complete learning resumed does nothing and leaves its checkpoint unread; asked for more generations it reads it (and refuses a damaged one)")
    func resumeComplete() throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        _ = try Self.learn(Self.request(generations: 1), into: folder, threads: 2)
        let best = Self.bytes(folder + "/best.model")
        let checkpoint = folder + "/checkpoint.bin"
        var damaged = try #require(Self.bytes(checkpoint))
        damaged.removeLast(4)  // it ends early
        try damaged.write(to: URL(fileURLWithPath: checkpoint))
        #expect(try Self.learn(Self.request(generations: 1), into: folder, threads: 1, resume: true).isEmpty)
        #expect(Self.bytes(folder + "/best.model") == best && Self.bytes(checkpoint) == damaged)
        #expect(throws: InputError("\(checkpoint): damaged learning checkpoint (it ends early); pass --force to start the learning over")) {
            _ = try Self.learn(Self.request(generations: 2), into: folder, threads: 1, resume: true)
        }
    }

    @Test("a warm start on a teacher's games: the same bytes on 1 and 2 threads and across a resume; it changes what generation 1 learns from; the request records it")
    func warmStart() throws {
        var request = Self.request(generations: 2)
        request.teachers = ["mcts(iterations=40)"]
        request.teacherGames = 12
        let one = Self.folder(), two = Self.folder(), stepwise = Self.folder(), plain = Self.folder()
        defer { for f in [one, two, stepwise, plain] { try? FileManager.default.removeItem(atPath: f) } }
        let records = try Self.learn(request, into: one, threads: 1)
        _ = try Self.learn(request, into: two, threads: 2)
        var first = request
        first.generations = 1
        _ = try Self.learn(first, into: stepwise, threads: 2)
        _ = try Self.learn(request, into: stepwise, threads: 1, resume: true)
        for name in ["best.model", "checkpoint.bin"] {
            #expect(Self.bytes(one + "/" + name) == Self.bytes(two + "/" + name), "\(name) differs between 1 and 2 threads")
            #expect(Self.bytes(one + "/" + name) == Self.bytes(stepwise + "/" + name), "\(name) differs after a resume")
        }
        let without = try Self.learn(Self.request(generations: 2), into: plain, threads: 2)
        #expect(records[0].buffer > without[0].buffer, "the teacher's positions are in generation 1's buffer")
        #expect(records[0].loss != without[0].loss)
        let record = try String(contentsOfFile: one + "/learn.json", encoding: .utf8)
        #expect(record.contains("teachers: mcts(iterations=40)") && record.contains("teacherGames: 12"))
        #expect(!(try String(contentsOfFile: plain + "/learn.json", encoding: .utf8)).contains("teachers"))
    }

    @Test("--init starts from a learned model: generation 1 plays with it; a model of another shape or game is refused before anything is written")
    func initFromModel() throws {
        let first = Self.folder(), tuned = Self.folder(), plain = Self.folder(), refused = Self.folder()
        defer { for f in [first, tuned, plain, refused] { try? FileManager.default.removeItem(atPath: f) } }
        // Another seed's model (with seed 5's, a rejected gate would leave the network
        // seed 5 starts from anyway).
        var seed6 = Self.request(generations: 1)
        seed6.seed = 6
        _ = try Self.learn(seed6, into: first, threads: 2)
        var request = Self.request(generations: 1)
        request.initial = first + "/best.model"
        let fromModel = try Self.learn(request, into: tuned, threads: 2)
        let fromScratch = try Self.learn(Self.request(generations: 1), into: plain, threads: 2)
        #expect(fromModel[0].loss != fromScratch[0].loss, "self-play and training start from the model, not the seed's network")
        #expect(try String(contentsOfFile: tuned + "/learn.json", encoding: .utf8).replacingOccurrences(of: "\\/", with: "/")
                    .contains("init: \(first)/best.model"))
        request.width = 32
        #expect(throws: InputError("--init \(first)/best.model: the model is 16 wide with 1 blocks; pass --width 16 --blocks 1")) {
            _ = try Self.learn(request, into: refused, threads: 1)
        }
        #expect(!FileManager.default.fileExists(atPath: refused), "nothing written")
        var other = LearnRequest(game: "quortex")
        other.initial = first + "/best.model"
        other.generations = 1
        let learning = try #require(try Catalog.game(named: "quortex").learning)
        #expect(throws: InputError("\(first)/best.model: the model is for game 'connect4', not 'quortex'")) {
            _ = try learning.learn(other, options: LearnOptions(directory: refused, threads: 1)) { _ in }
        }
        #expect(!FileManager.default.fileExists(atPath: refused), "nothing written")
    }

    @Test("--init a model without contextual action weights into a learning with them: its parameters, then Wφ at 0, so the same logits; the other way is refused")
    func initWidensToContextualActions() throws {
        // The 3-seat model: learned without contextual weights.
        let path = packageRoot + "/configs/models/learned/quortex-3.model"
        let model = try LearnedModel.load(path: path)
        let plain = model.network.shape
        #expect(plain.actionFeatures > 0 && !plain.contextualActions)
        let game = try QuortexGame(seatCount: 3)
        let encoder = QuortexPolicyFeatures(board: game.setup.board)
        typealias QuortexLearner = Learner<QuortexGame, QuortexPolicyFeatures>
        let widened = try QuortexLearner.initial(path, shape: plain.withContextualActions, encoder: encoder)
        #expect(widened.shape == plain.withContextualActions)
        #expect(Array(widened.parameters.prefix(plain.parameterCount)) == model.network.parameters)
        #expect(widened.parameters.dropFirst(plain.parameterCount).allSatisfy { $0 == 0 })
        // The same logits and values on a real position.
        let state = game.newMatch(seed: 4)
        var features = [Float](repeating: 0, count: plain.inputs)
        features.withUnsafeMutableBufferPointer { encoder.encode(state.observation(for: 0), into: $0) }
        func run(_ net: PolicyValueNet) -> [Float] {
            var logits = [Float](repeating: 0, count: plain.actions), values = [Float](repeating: 0, count: plain.seats)
            net.evaluate(features, batch: 1, logits: &logits, values: &values, workspace: PolicyValueWorkspace())
            return logits + values
        }
        #expect(run(widened) == run(model.network))
        // A contextual model into a plain learning: refused, naming the flag.
        let file = Self.folder() + ".model"
        defer { try? FileManager.default.removeItem(atPath: file) }
        try LearnedModel(game: model.game, featureVersion: model.featureVersion, layout: model.layout, network: widened).write(to: file)
        #expect(throws: InputError("--init \(file): the model's action weights read the trunk; pass --contextual-actions")) {
            _ = try QuortexLearner.initial(file, shape: plain, encoder: encoder)
        }
        // A game whose features have no action features: refused before anything is written.
        var connect4 = Self.request(generations: 1)
        connect4.contextualActions = true
        let refused = Self.folder()
        #expect(throws: InputError("--contextual-actions: connect4's features have no action features to weigh")) {
            _ = try Self.learn(connect4, into: refused, threads: 1)
        }
        #expect(!FileManager.default.fileExists(atPath: refused), "nothing written")
    }

    /// Games of `specs` as teachers on Connect Four, recorded with its features.
    static func connect4Teaching(_ specs: StrategySpec...) throws -> TeacherPlay<ConnectFourGame, ConnectFourFeatures> {
        let entry = try #require(try Catalog.game(named: "connect4") as? CatalogEntry<ConnectFourGame>)
        let game = try ConnectFourGame(rules: [], seatCount: 2)
        return TeacherPlay(game: game, encoder: ConnectFourFeatures(), teachers: try StrategyLookup.teachers(specs, in: entry.entries, game: game))
    }

    @Test("a teacher's games: every recorded move is the teacher's, with all its weight on one legal action, and each seat's share of the outcome")
    func teacherPositions() throws {
        var play = try Self.connect4Teaching(StrategySpec(name: "mcts", parameters: [("iterations", "30")]))
        play.randomMoveRate = 0
        let positions = play.play(games: 6, seed: 3, threads: 2)
        #expect(positions.count >= 6 * 7, "every move of 6 games")
        for p in positions {
            #expect(p.policy.count == p.legal.count && p.policy.filter { $0 == 1 }.count == 1 && p.policy.reduce(0, +) == 1)
            #expect(p.value.count == 2 && abs(p.value.reduce(0, +) - 1) < 1e-6)
            #expect(p.features.count == ConnectFourFeatures().featureCount)
        }
        // A different seed plays other games; the same seed the same, on any thread count.
        #expect(play.play(games: 6, seed: 3, threads: 1).map(\.policy) == positions.map(\.policy))
        #expect(play.play(games: 6, seed: 4, threads: 2).map(\.features) != positions.map(\.features))
    }

    @Test("a teacher's games report their progress at each tenth passed, below the total, and the positions are those of a silent run")
    func teacherProgress() throws {
        let play = try Self.connect4Teaching(StrategySpec(name: "random", parameters: []))
        for threads in [1, 2] {
            let heard = Mutex<[Int]>([])
            let reported = play.play(games: 100, seed: 3, threads: threads) { done in heard.withLock { $0.append(done) } }
            let counts = heard.withLock { $0 }
            if threads == 1 {
                // Chunks of 16 games: 16, 32, ..., 96 each cross a new tenth; the end (100) is not reported.
                #expect(counts == [16, 32, 48, 64, 80, 96])
            } else {
                #expect(!counts.isEmpty && counts == counts.sorted() && Set(counts.map { $0 * 10 / 100 }).count == counts.count
                    && counts.allSatisfy { $0 < 100 }, "\(counts)")
            }
            #expect(reported.map(\.features) == play.play(games: 100, seed: 3, threads: threads).map(\.features))
        }
    }

    @Test("teacher targets: an alphazero teacher's improved policy replaces its move as the target, over the same legal actions of the same games; a non-searching teacher keeps its move")
    func teacherSearchTargets() throws {
        var moves = try Self.connect4Teaching(StrategySpec(name: "alphazero", parameters: [("sims", "8")]))
        moves.randomMoveRate = 0
        var searched = moves
        searched.searchTargets = true
        let one = moves.play(games: 4, seed: 3, threads: 2), soft = searched.play(games: 4, seed: 3, threads: 2)
        #expect(one.count == soft.count && one.map(\.features) == soft.map(\.features) && one.map(\.legal) == soft.map(\.legal))
        for (hard, p) in zip(one, soft) {
            #expect(abs(p.policy.reduce(0, +) - 1) < 1e-4 && p.policy.allSatisfy { $0 >= 0 })
            // The move played is the search's choice, among its likeliest.
            let played = try #require(hard.policy.firstIndex(of: 1))
            #expect(p.policy[played] > 0)
        }
        #expect(soft.contains { p in p.policy.filter { $0 > 0 }.count > 1 }, "some target spreads over several actions")
        #expect(soft.map(\.policy) != one.map(\.policy))
        // A teacher that does not search has no policy to give: its move stays the target.
        var plain = try Self.connect4Teaching(StrategySpec(name: "mcts", parameters: [("iterations", "20")]))
        plain.searchTargets = true
        #expect(plain.play(games: 2, seed: 3, threads: 1).allSatisfy { $0.policy.filter { $0 == 1 }.count == 1 && $0.policy.reduce(0, +) == 1 })
    }

    @Test("teacher-keep: a share of the teacher's moves is recorded, the same ones on any thread count, each as when all are kept")
    func teacherKeep() throws {
        let all = try Self.connect4Teaching(StrategySpec(name: "mcts", parameters: [("iterations", "30")])).play(games: 24, seed: 3, threads: 2)
        var half = try Self.connect4Teaching(StrategySpec(name: "mcts", parameters: [("iterations", "30")]))
        half.keep = 0.5
        let kept = half.play(games: 24, seed: 3, threads: 2)
        #expect(kept.count > all.count / 3 && kept.count < all.count * 2 / 3, "\(kept.count) of \(all.count) kept")
        #expect(half.play(games: 24, seed: 3, threads: 1).map(\.features) == kept.map(\.features))
        // The same games, so every kept position is one of all's, in order, with its targets.
        var rest = all[...]
        for p in kept {
            guard let i = rest.firstIndex(where: { $0.features == p.features && $0.policy == p.policy && $0.value == p.value }) else {
                Issue.record("a kept position is not among all the teacher's")
                break
            }
            rest = all[(i + 1)...]
        }
    }

    @Test("self-play searches with the trainee (latest) or the last accepted network (best): generation 2 plays alike only when generation 1's gate accepted")
    func selfPlayer() throws {
        let latest = Self.folder(), best = Self.folder()
        defer { for f in [latest, best] { try? FileManager.default.removeItem(atPath: f) } }
        var request = Self.request(generations: 2)
        let a = try Self.learn(request, into: latest, threads: 2)
        request.selfPlayer = .best
        let b = try Self.learn(request, into: best, threads: 2)
        #expect(a[0].positions == b[0].positions && a[0].loss == b[0].loss && a[0].gate == b[0].gate)
        let alike = a[1].positions == b[1].positions && a[1].loss == b[1].loss
        #expect(alike == a[0].accepted, "generation 1 \(a[0].accepted ? "accepted" : "rejected"): generation 2 should play \(a[0].accepted ? "alike" : "otherwise")")
    }

    @Test("a model carries the σ scale it was learned with, and alphazero searches with it unless cscale is given")
    func learnedScale() throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var request = Self.request(generations: 1)
        request.cScale = 2
        _ = try Self.learn(request, into: folder, threads: 1)
        let model = folder + "/best.model"
        #expect(try LearnedModel.load(path: model).note(LearnedModel.searchScaleNote) == "2.0")
        let connect4 = try Catalog.game(named: "connect4")
        func moves(_ spec: String) throws -> [String] {
            let table = try connect4.makeTable(TableSetup(players: [try Catalog.validate(spec, for: connect4), StrategySpec(name: "random")]))
            var buffer = ActionBuffer()
            return (1...6).map { seed in
                let outcome = table.play(seed: UInt64(seed), buffer: &buffer, trace: nil).outcome
                return "\(outcome.turns) \(outcome.places) \(outcome.endReason)"
            }
        }
        #expect(try moves("alphazero(model=\(model), sims=16)") == moves("alphazero(model=\(model), sims=16, cscale=2)"))
    }

    @Test("--gate-blocks 0: no gate, every generation's trainee is the best; generations.csv says ungated and the page has no gate section")
    func ungated() throws {
        var request = Self.request(generations: 1)
        request.gateBlocks = 0
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        _ = try Self.learn(request, into: folder, threads: 2)
        let first = Self.bytes(folder + "/best.model")
        request.generations = 2
        let records = try Self.learn(request, into: folder, threads: 2, resume: true)
        #expect(records.map(\.generation) == [2] && records.allSatisfy { $0.accepted && $0.gate == nil })
        // Every generation's trainee becomes the best.
        #expect(first != nil && Self.bytes(folder + "/best.model") != first)
        let rows = try String(contentsOfFile: folder + "/generations.csv", encoding: .utf8).split(separator: "\n").dropFirst()
        #expect(rows.count == 2 && rows.allSatisfy { $0.contains(",ungated,,,,") })
        let page = try String(contentsOfFile: folder + "/report.html", encoding: .utf8)
        #expect(!page.contains("id=\"gate\"") && page.contains("id=\"losses\""))
    }

    @Test("a learned model plays as alphazero and policy; another game's, a value model, a damaged file and bad knobs are refused")
    func modelsPlay() throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        _ = try Self.learn(Self.request(generations: 1), into: folder, threads: 2)
        let model = folder + "/best.model"
        let connect4 = try Catalog.game(named: "connect4")
        for spec in ["alphazero(model=\(model), sims=4)", "policy(model=\(model), temperature=0.5)"] {
            _ = try Catalog.validate(spec, for: connect4)
            let table = try connect4.makeTable(TableSetup(players: [try Catalog.validate(spec, for: connect4), StrategySpec(name: "random")]))
            var buffer = ActionBuffer()
            #expect(table.play(seed: 3, buffer: &buffer, trace: nil).outcome.turns > 0)
        }
        let quortex = try Catalog.game(named: "quortex")
        #expect(throws: InputError("\(model): the model is for game 'connect4', not 'quortex'")) {
            _ = try quortex.makeTable(TableSetup(players: [try Catalog.validate("policy(model=\(model))", for: quortex), StrategySpec(name: "random")]))
        }
        var bytes = try #require(Self.bytes(model))
        bytes[bytes.count - 5] ^= 0x40
        let damaged = folder + "/damaged.model"
        try bytes.write(to: URL(fileURLWithPath: damaged))
        let error = try #require(throws: InputError.self) {
            _ = try connect4.makeTable(TableSetup(players: [try Catalog.validate("policy(model=\(damaged))", for: connect4), StrategySpec(name: "random")]))
        }
        #expect(error.message.contains("checksum mismatch"))
        #expect(throws: InputError.self) { _ = try Catalog.validate("policy(model=\(model), temperature=-1)", for: connect4) }
        #expect(throws: InputError.self) { _ = try Catalog.validate("alphazero(model=\(model), sims=0)", for: connect4) }
        #expect(throws: InputError.self) { _ = try Catalog.validate("alphazero(model=\(model), decisive=1)", for: connect4) }
        #expect(throws: InputError.self) { _ = try Catalog.validate("alphazero(model=\(model), cscale=-1)", for: connect4) }
        // Decisive moves are the default where a match ends on a move, not on rail.
        let defaults = { (game: String) throws -> String? in
            try Catalog.game(named: game).strategies.first { $0.name == "alphazero" }?.parameters.first { $0.name == "decisive" }?.defaultValue
        }
        #expect(try defaults("connect4") == "true")
        #expect(try defaults("quortex") == "true")
        #expect(try defaults("rail") == "false")
        let valueModel = try #require(ShippedModel.all.first)
        let rail = try Catalog.game(named: "rail")
        let refused = try #require(throws: InputError.self) {
            _ = try rail.makeTable(TableSetup(players: [try Catalog.validate("policy(model=\(packageRoot)/\(valueModel.path))", for: rail),
                                                        StrategySpec(name: "random")]))
        }
        #expect(refused.message.contains("a value model of `oplab train`"))
    }

    @Test("more than 2 seats: rail at 3 and Quortex at 4 (two teams) learn a value per seat, gated against copies of the best",
          arguments: [("rail", 3), ("quortex", 4)])
    func manySeats(game: String, seats: Int) throws {
        var request = Self.request(generations: 1)
        request.game = game
        request.seats = seats
        request.games = 4
        request.gateBlocks = 1
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let learning = try #require(try Catalog.game(named: game).learning)
        let records = try learning.learn(request, options: LearnOptions(directory: folder, threads: 2)) { _ in }
        #expect(records.count == 1 && records[0].positions > 0)
        let model = try LearnedModel.load(path: folder + "/best.model")
        #expect(model.network.shape.seats == seats && model.game == game)
    }
}
