import Foundation
import LabCatalog
import LabCore
import RailGame
import Testing
import Tournament

/// The shipped map and models are compiled into oplab from their files under configs/
/// (scripts/embed-shipped-files.sh), so oplab runs from any folder; the files stay the
/// one source of truth, and these tests fail while a compiled copy differs from its file.
@Suite("Shipped files compiled in")
struct ShippedFilesTests {
    static let rerun = "run scripts/embed-shipped-files.sh to compile the file in again"

    static func file(_ path: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: packageRoot + "/" + path))
    }

    @Test("the compiled-in shipped map holds the bytes of configs/maps/train-depot-europe.json")
    func shippedMapMatchesItsFile() throws {
        let file = try Self.file(RailMapFile.defaultPath)
        #expect(RailMapFile.shippedData == file,
                "\(RailMapFile.defaultPath) (\(file.count) bytes) differs from its compiled-in copy (\(RailMapFile.shippedData.count) bytes); \(Self.rerun)")
    }

    @Test("each compiled-in shipped model holds the bytes of its file under configs/models/")
    func shippedModelsMatchTheirFiles() throws {
        #expect(ShippedModel.all.map(\.path) == ["configs/models/rail-mlp.model", "configs/models/quortex-mlp.model"])
        for model in ShippedModel.all {
            let file = try Self.file(model.path)
            #expect(model.bytes == [UInt8](file),
                    "\(model.path) (\(file.count) bytes) differs from its compiled-in copy (\(model.bytes.count) bytes); \(Self.rerun)")
        }
    }

    @Test("a table without a map plays the compiled-in shipped map, named as such")
    func noMapMeansTheShippedMap() throws {
        let rail = try Catalog.game(named: "rail")
        let table = try rail.makeTable(TableSetup(players: [StrategySpec(name: "random"), StrategySpec(name: "random")]))
        #expect(table.setupLines.first?.hasPrefix("map Train Depot Europe, the shipped map (configs/maps/train-depot-europe.json): 36 cities") == true,
                "\(table.setupLines)")
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
