import Foundation
import LabCatalog
import LabCore
import Testing
import Tournament

/// A config file in a fresh temporary folder, with files beside it.
private struct ConfigFolder {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("oplab-config-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func callAsFunction(_ name: String) -> String { path + "/" + name }

    /// Writes `bytes` to `name` (creating its folders) and returns its path.
    @discardableResult
    func write(_ name: String, _ bytes: Data) throws -> String {
        let url = URL(fileURLWithPath: self(name))
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try bytes.write(to: url)
        return url.path
    }

    /// Writes a two-entrant rail config to `config.yaml`.
    func config(map: String? = nil, _ strategies: [String]) throws -> String {
        let entrants = strategies.enumerated().map { "  - {name: e\($0.offset), strategy: \"\($0.element)\"}" }
        let yaml = (["name: paths", "game: rail"] + (map.map { ["map: \($0)"] } ?? []) + ["entrants:"] + entrants + ["blocks: 1", ""])
            .joined(separator: "\n")
        return try write("config.yaml", Data(yaml.utf8))
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// A three-city map called `name`.
private func tinyMap(name: String) -> Data {
    Data("""
    {"name": "\(name)",
     "cities": [{"name": "Aa", "lat": 50, "lon": 5}, {"name": "Bb", "lat": 51, "lon": 6}, {"name": "Cc", "lat": 52, "lon": 7}],
     "railroads": [{"from": "Aa", "to": "Bb", "length": 1, "colour": "red"}, {"from": "Bb", "to": "Cc", "length": 1, "colour": "grey"}]}
    """.utf8)
}

/// Paths written in a config file resolve against the config's folder, not the current
/// folder (docs/tournaments.md); the tests run from the package root, so a path read
/// from the current folder is not found.
@Suite("Paths in a config")
struct ConfigPathTests {
    @Test("map: NAME loads the map beside the config, and the plan records its absolute path")
    func mapBesideTheConfig() throws {
        let folder = try ConfigFolder()
        defer { folder.remove() }
        try folder.write("mymap.json", tinyMap(name: "Beside The Config"))
        let config = try folder.config(map: "mymap.json", ["heuristic", "random"])
        let plan = try Catalog.plan(ConfigLoader.load(path: config))
        #expect(plan.config.map == folder("mymap.json"))
        #expect(plan.setupLines.first?.contains("Beside The Config") == true, "\(plan.setupLines)")
    }

    @Test("model= and evaluator= name files beside the config; the plan records their absolute paths")
    func modelBesideTheConfig() throws {
        let folder = try ConfigFolder()
        defer { folder.remove() }
        let shipped = try Data(contentsOf: URL(fileURLWithPath: packageRoot + "/configs/models/rail-mlp.model"))
        try folder.write("models/mine.model", shipped)
        let config = try folder.config(["blas-greedy(model=models/mine.model, samples=1)",
                                        "mcts(iterations=10, evaluator=models/mine.model)"])
        let plan = try Catalog.plan(ConfigLoader.load(path: config))
        let model = folder("models/mine.model")
        #expect(plan.config.entrants.map(\.strategy) == ["blas-greedy(model=\(model), samples=1)",
                                                        "mcts(iterations=10, evaluator=\(model))"])
    }

    @Test("absolute paths, the keywords shipped and none, and strategies without paths stay as written")
    func whatStaysAsWritten() throws {
        let config = TournamentConfig(name: "paths", game: "rail", map: "/maps/europe.json", entrants: [
            Entrant(name: "a", strategy: "blas-greedy(model=/models/a.model)"),
            Entrant(name: "b", strategy: "blas-greedy( model = shipped , samples=2)"),
            Entrant(name: "c", strategy: "mcts(evaluator=none, rollout=heuristic)"),
            Entrant(name: "d", strategy: "mcts( iterations=5 )"),
            Entrant(name: "e", strategy: "no-such-strategy(model=x.model)"),
        ])
        let document = try ConfigLoader.parse(yaml: "name: x\ngame: rail\nentrants:\n  - {name: a, strategy: random}\n  - {name: b, strategy: random}\n",
                                              path: "/config/folder/x.yaml")
        #expect(Catalog.resolvingPaths(config, with: document.resolve) == config)
    }

    @Test("a resolved path that needs quotes is written quoted, and reads back")
    func quotedPathsReadBack() throws {
        let config = TournamentConfig(name: "paths", game: "quortex", entrants: [
            Entrant(name: "a", strategy: #"blas-greedy(model="my models/a,b (1).model", samples=2)"#),
            Entrant(name: "b", strategy: "mcts(rollout=reference, evaluator=m.model)"),
        ])
        let resolved = Catalog.resolvingPaths(config, with: { "/config/folder/" + $0 })
        #expect(resolved.entrants.map(\.strategy) == [#"blas-greedy(model="/config/folder/my models/a,b (1).model", samples=2)"#,
                                                      "mcts(rollout=reference, evaluator=/config/folder/m.model)"])
        let spec = try StrategySpec.parse(resolved.entrants[0].strategy)
        #expect(spec.parameters.map(\.value) == ["/config/folder/my models/a,b (1).model", "2"])
    }

    @Test("a config's folder is absolute and standardised, whatever the current folder")
    func folderOfARelativeConfigPath() throws {
        let document = try ConfigLoader.parse(yaml: "name: x\ngame: rail\nentrants:\n  - {name: a, strategy: random}\n  - {name: b, strategy: random}\n",
                                              path: "configs/../configs/x.yaml")
        let here = FileManager.default.currentDirectoryPath
        #expect(document.folder == here + "/configs")
        #expect(document.resolve("maps/m.json") == here + "/configs/maps/m.json")
        #expect(document.resolve("../m.json") == here + "/m.json")
        #expect(document.resolve("/abs/m.json") == "/abs/m.json")
    }

    @Test("a relative map path that is not beside the config is refused, naming the resolved path")
    func missingMapNamesTheResolvedPath() throws {
        let folder = try ConfigFolder()
        defer { folder.remove() }
        // configs/maps/... exists under the current folder (the package root), not beside the config.
        let config = try folder.config(map: "configs/maps/train-depot-europe.json", ["heuristic", "random"])
        let error = #expect(throws: InputError.self) { try Catalog.plan(ConfigLoader.load(path: config)) }
        #expect(error?.message.contains(folder("configs/maps/train-depot-europe.json")) == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("config.yaml:3:") == true, "\(error?.message ?? "")")
    }
}
