import Evaluators
import Foundation
import LabCatalog
import LabCore
import RailGame
import Testing

/// A fresh temporary folder for one test's model files.
private struct ModelFolder {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("oplab-models-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func callAsFunction(_ name: String) -> String { path + "/" + name }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// A small rail model with the shipped map's real feature layout, written to `path`;
/// `change` may spoil a field.
private func writeRailModel(_ path: String, change: (inout ValueModel) -> Void = { _ in }) throws {
    let encoder = RailFeatures(map: try RailMapFile.load(path: shippedMap))
    var model = ValueModel(game: RailFeatures.gameName, featureVersion: RailFeatures.featureVersion, layout: encoder.layoutKey,
                           network: MLP(shape: MLPShape(inputs: encoder.featureCount, hidden: [4]), seed: 3))
    change(&model)
    try model.write(to: path)
}

private func railTable(_ players: [String]) throws -> any MatchTable {
    let rail = try Catalog.game(named: "rail")
    return try rail.makeTable(TableSetup(mapPath: shippedMap, players: players.map { try StrategySpec.parse($0) }))
}

/// Expects `body` to throw an ``InputError`` whose message holds every one of `parts`.
private func expectRefusal(_ parts: [String], sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void) {
    do {
        try body()
        Issue.record("not refused; expected an error naming \(parts)", sourceLocation: sourceLocation)
    } catch let error as InputError {
        for part in parts {
            #expect(error.message.contains(part), "'\(part)' missing from: \(error.message)", sourceLocation: sourceLocation)
        }
    } catch {
        Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
    }
}

@Suite("Model strategies in the catalog")
struct ModelCatalogTests {
    @Test("Both games list blas-greedy, and mcts takes an evaluator")
    func listed() throws {
        for name in ["rail", "quortex"] {
            let game = try Catalog.game(named: name)
            let greedy = try #require(game.strategies.first { $0.name == "blas-greedy" }, "\(name)")
            #expect(greedy.parameters.map(\.name) == ["model", "samples", "epsilon"])
            let mcts = try #require(game.strategies.first { $0.name == "mcts" })
            #expect(mcts.parameters.contains { $0.name == "evaluator" && $0.defaultValue == "none" })
        }
    }

    @Test("blas-greedy(samples=0) is refused with the accepted range")
    func zeroSamples() throws {
        let rail = try Catalog.game(named: "rail")
        expectRefusal(["samples=0", "1...256"]) { _ = try Catalog.validate("blas-greedy(samples=0)", for: rail) }
        _ = try Catalog.validate("blas-greedy(samples=1)", for: rail)
    }

    @Test("A missing model file is refused naming the file, for blas-greedy and for mcts(evaluator=)")
    func missingFile() throws {
        let folder = try ModelFolder()
        defer { folder.remove() }
        let missing = folder("missing.model")
        expectRefusal([missing, "cannot read the model file"]) { _ = try railTable(["blas-greedy(model=\(missing))", "random"]) }
        expectRefusal([missing, "cannot read the model file"]) { _ = try railTable(["random", "mcts(evaluator=\(missing))"]) }
    }

    @Test("A model of another game, feature version or layout is refused naming what differs")
    func wrongModel() throws {
        let folder = try ModelFolder()
        defer { folder.remove() }
        let quortex = try Catalog.game(named: "quortex")

        // A Quortex model (the 37-cell board's 16 x 37 + 79 features) for a rail strategy.
        let quortexModel = folder("quortex.model")
        try ValueModel(game: quortex.name, featureVersion: 1, layout: "radius=3 cells=37",
                       network: MLP(shape: MLPShape(inputs: 16 * 37 + 79, hidden: [2]), seed: 1)).write(to: quortexModel)
        expectRefusal([quortexModel, "for game 'quortex', not 'rail'"]) { _ = try railTable(["blas-greedy(model=\(quortexModel))", "random"]) }

        // A rail model for a Quortex strategy.
        let railModel = folder("rail.model")
        try writeRailModel(railModel)
        expectRefusal([railModel, "for game 'rail', not 'quortex'"]) {
            _ = try quortex.makeTable(TableSetup(players: [try StrategySpec.parse("mcts(evaluator=\(railModel))"), StrategySpec(name: "random")]))
        }

        let oldVersion = folder("old.model")
        try writeRailModel(oldVersion) { $0.featureVersion = RailFeatures.featureVersion + 1 }
        expectRefusal([oldVersion, "version \(RailFeatures.featureVersion + 1)"]) { _ = try railTable(["blas-greedy(model=\(oldVersion))", "random"]) }

        let otherMap = folder("other-map.model")
        try writeRailModel(otherMap) { $0.layout = "map=Elsewhere cities=20 railroads=40" }
        expectRefusal([otherMap, "layout 'map=Elsewhere cities=20 railroads=40'"]) { _ = try railTable(["random", "blas-greedy(model=\(otherMap))"]) }
    }

    @Test("A matching model loads and plays: blas-greedy and mcts(evaluator=) finish a match")
    func loadsAndPlays() throws {
        let folder = try ModelFolder()
        defer { folder.remove() }
        let path = folder("rail.model")
        try writeRailModel(path)
        var buffer = ActionBuffer()
        for players in [["blas-greedy(model=\(path), samples=2)", "random"], ["random", "mcts(evaluator=\(path), iterations=8)"]] {
            let table = try railTable(players)
            let report = table.play(seed: 4, buffer: &buffer, trace: nil)
            #expect(report.outcome.places.count == 2, "\(players)")
            #expect(report.outcome.turns > 0)
        }
    }
}
