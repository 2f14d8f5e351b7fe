import Foundation
@testable import LabCatalog
import LabCore
import Quortex
import RailGame
import Testing
import Tournament

/// The shipped map and models are compiled into oplab at build time from their files under
/// configs/ (Plugins/EmbedConfigs), so oplab runs from any folder; configs/ holds the only
/// copy.
@Suite("Shipped files compiled in")
struct ShippedFilesTests {
    static func file(_ path: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: packageRoot + "/" + path))
    }

    @Test("the build embeds the shipped map and each shipped model byte for byte, every file of configs/models/learned/ among them")
    func embeddedAsTheirFiles() throws {
        #expect(RailMapFile.shippedData == (try Self.file(RailMapFile.defaultPath)))
        // The value models, then every learned model in configs/models/learned/ (each the shipped model of the game it names).
        let learned = try FileManager.default.contentsOfDirectory(atPath: packageRoot + "/configs/models/learned").filter { $0.hasSuffix(".model") }.sorted()
        #expect(learned.contains("connect4.model") && learned.contains("rail.model"))
        #expect(ShippedModel.all.map(\.path) == ["configs/models/rail-mlp.model", "configs/models/quortex-mlp.model"]
                + learned.map { "configs/models/learned/" + $0 })
        for model in ShippedModel.all {
            #expect(model.bytes == [UInt8](try Self.file(model.path)), "\(model.path)")
        }
    }

    /// `name` against random in either seat of a 2-seat table, one match a seed: each
    /// match's seat, seed and report.
    static func againstRandom(_ game: any GameEntry, _ name: String, seeds: ClosedRange<UInt64>) throws
        -> [(seat: Int, seed: UInt64, report: MatchReport)] {
        var buffer = ActionBuffer()
        var played: [(seat: Int, seed: UInt64, report: MatchReport)] = []
        for seat in 0..<2 {
            var players = [StrategySpec(name: "random"), StrategySpec(name: "random")]
            players[seat] = StrategySpec(name: name)
            let table = try game.makeTable(TableSetup(players: players))
            for seed in seeds {
                played.append((seat, seed, table.play(seed: seed, buffer: &buffer, trace: nil)))
            }
        }
        return played
    }

    @Test("a table without a map plays the compiled-in shipped map, named as such")
    func noMapMeansTheShippedMap() throws {
        let rail = try Catalog.game(named: "rail")
        let table = try rail.makeTable(TableSetup(players: [StrategySpec(name: "random"), StrategySpec(name: "random")]))
        #expect(table.setupLines.first?.hasPrefix("map Train Depot Europe, the shipped map (configs/maps/train-depot-europe.json): 36 cities") == true,
                "\(table.setupLines)")
    }

    @Test("Connect Four's alphazero and policy play the shipped learned model (alphazero beats random in either seat); a game without one says so")
    func shippedLearnedModels() throws {
        let connect4 = try Catalog.game(named: "connect4")
        for name in ["alphazero", "policy"] {
            for (seat, seed, report) in try Self.againstRandom(connect4, name, seeds: 1...3) {
                if name == "alphazero" {
                    #expect(report.outcome.places[seat] == 1 && report.outcome.places[1 - seat] == 2, "\(name) in seat \(seat), seed \(seed)")
                } else {
                    #expect(report.outcome.turns >= 7, "\(name) in seat \(seat), seed \(seed)")
                }
            }
        }
        // A game with no shipped learned model says so (every game has one now, so the lookup is asked directly).
        do {
            _ = try LearnedSupport<QuortexGame>.shippedModel([], seats: 2, game: "quortex")
            Issue.record("an empty list of shipped models gave a model")
        } catch {
            #expect(error.message.contains("quortex has no shipped learned model yet") && error.message.contains("oplab learn quortex"), "\(error.message)")
        }
    }

    @Test("rail's alphazero and policy play the shipped learned model on the shipped map, and beat the documented CPU; another map's table refuses it")
    func shippedRailModel() throws {
        let rail = try Catalog.game(named: "rail")
        var buffer = ActionBuffer()
        for name in ["alphazero", "policy"] {
            let table = try rail.makeTable(TableSetup(players: [StrategySpec(name: name), StrategySpec(name: "heuristic")]))
            var wins = 0
            for seed in UInt64(1)...6 {
                let report = table.play(seed: seed, buffer: &buffer, trace: nil)
                if report.outcome.places[0] == 1 { wins += 1 }
            }
            // The model scores about 0.96 against heuristic; 4 of 6 is far below that.
            #expect(wins >= 4, "\(name) won \(wins) of 6 against heuristic")
        }
        // The same map under another name: another layout, so the shipped model is refused.
        let renamed = FileManager.default.temporaryDirectory.appendingPathComponent("renamed-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: renamed) }
        let text = try String(contentsOfFile: shippedMap, encoding: .utf8)
            .replacingOccurrences(of: "\"name\": \"Train Depot Europe\"", with: "\"name\": \"Elsewhere\"")
        try text.write(toFile: renamed, atomically: true, encoding: .utf8)
        do {
            _ = try rail.makeTable(TableSetup(mapPath: renamed, players: [StrategySpec(name: "alphazero"), StrategySpec(name: "heuristic")]))
            Issue.record("the shipped model played on another map")
        } catch {
            #expect(error.message.contains("layout"), "\(error.message)")
        }
    }

    @Test("Quortex's alphazero and policy play the shipped learned model and beat random in either seat; 3 and 4 seats play their own models, 5 seats are refused")
    func shippedQuortexModel() throws {
        let quortex = try Catalog.game(named: "quortex")
        for name in ["alphazero", "policy"] {
            let wins = try Self.againstRandom(quortex, name, seeds: 1...5)
                .filter { $0.report.outcome.places[$0.seat] == 1 && $0.report.outcome.places[1 - $0.seat] == 2 }.count
            // The model scores about 0.65 against reference, which random rarely beats; 8 of 10 is far below that.
            #expect(wins >= 8, "\(name) won \(wins) of 10 against random")
        }
        // 3 and 4 seats play their own models (quortex-3.model, quortex-4.model); 5 seats have none and are refused.
        for seats in 3...4 {
            var buffer = ActionBuffer()
            let table = try quortex.makeTable(TableSetup(players: [StrategySpec(name: "alphazero")] + Array(repeating: StrategySpec(name: "random"), count: seats - 1)))
            #expect(table.play(seed: 1, buffer: &buffer, trace: nil).outcome.places.count == seats)
        }
        do {
            _ = try quortex.makeTable(TableSetup(players: [StrategySpec(name: "policy")] + Array(repeating: StrategySpec(name: "random"), count: 4)))
            Issue.record("a 5-seat Quortex table played a shipped model")
        } catch {
            #expect(error.message.contains("for 2 seats (configs/models/learned/quortex.model) and 3 seats (configs/models/learned/quortex-3.model) "
                                           + "and 4 seats (configs/models/learned/quortex-4.model); this table has 5 seats"), "\(error.message)")
        }
    }

    @Test("a learned model file belongs to the game its name says: GAME.model, or GAME-N.model for N seats")
    func learnedModelNames() {
        let folder = "configs/models/learned/"
        for path in ["rail.model", "rail-4.model", "rail-12.model"] { #expect(ShippedModel.isLearned(folder + path, of: "rail"), "\(path)") }
        for path in ["railway.model", "rail-.model", "rail-x.model", "rail-4b.model", "rail.json", "quortex.model", "rail-mlp.model"] {
            #expect(!ShippedModel.isLearned(folder + path, of: "rail"), "\(path)")
        }
        #expect(!ShippedModel.isLearned("configs/models/rail.model", of: "rail"))
    }

    @Test("rail's model=shipped picks the shipped model of the table's seat count; a seat count without one is refused, naming the ones there are")
    func shippedModelPerSeatCount() throws {
        let rail = try Catalog.game(named: "rail")
        let served = try FileManager.default.contentsOfDirectory(atPath: packageRoot + "/configs/models/learned")
            .filter { ShippedModel.isLearned("configs/models/learned/" + $0, of: "rail") }
        #expect(served.contains("rail.model"))
        for seats in 2...4 {
            let players = [StrategySpec(name: "alphazero")] + Array(repeating: StrategySpec(name: "heuristic"), count: seats - 1)
            let own = seats == 2 ? "rail.model" : "rail-\(seats).model"
            do {
                let table = try rail.makeTable(TableSetup(players: players))
                #expect(served.contains(own), "\(seats) seats played without \(own)")
                var buffer = ActionBuffer()
                let report = table.play(seed: 1, buffer: &buffer, trace: nil)
                #expect(report.outcome.places.count == seats)
            } catch {
                #expect(!served.contains(own), "\(seats) seats: \(error.message)")
                #expect(error.message.contains("this table has \(seats) seats") && error.message.contains("shipped learned models are for 2 seats (configs/models/learned/rail.model)"),
                        "\(error.message)")
            }
        }
    }
}
/// Every tournament config under configs/ loads and plans: a shipped config that a user
/// runs as the README says must not fail on a field or a strategy spec.
@Suite("Shipped configs")
struct ShippedConfigTests {
    @Test("each configs/*.yaml loads and plans (no bots started)")
    func everyConfigPlans() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
        let names = try FileManager.default.contentsOfDirectory(atPath: root + "/configs").filter { $0.hasSuffix(".yaml") }.sorted()
        #expect(names.contains("ladder-rail-planner.yaml"))
        for name in names {
            let document = try ConfigLoader.load(path: root + "/configs/" + name)
            let plan = try Catalog.plan(Catalog.resolvingPaths(document.config, with: document.resolve),
                                        locate: { field, message in InputError("\(name): \(field): \(message)") }, startingBots: false)
            #expect(plan.schedule.blockCount > 0, "\(name)")
        }
    }
}
