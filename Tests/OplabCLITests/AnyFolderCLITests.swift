import Foundation
import Testing

/// `oplab ARGUMENTS...` run with `directory` as the current folder.
private func oplab(in directory: String, _ arguments: String...) throws -> Run {
    try runArray(arguments, in: directory)
}

/// The shipped map and models travel with the executable, and paths in a config resolve
/// against the config's folder: `oplab` works from any folder (docs/tournaments.md).
@Suite("oplab from any folder")
struct AnyFolderCLITests {
    @Test("the shipped quickstart config runs from a folder outside the package (the shipped map is compiled in)")
    func quickstartFromAnotherFolder() throws {
        let scratch = try Scratch("anyfolder")
        defer { scratch.remove() }
        let run = try oplab(in: scratch.path, "tournament", packageRoot + "/configs/quickstart.yaml", "--blocks", "2",
                            "--threads", "1", "--out", scratch("q"), "--quiet", "--no-report")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(FileManager.default.fileExists(atPath: scratch("q/summary.csv")))
    }

    @Test("blas-greedy's default model and evaluator=shipped are the shipped models, from any folder")
    func shippedModelsFromAnotherFolder() throws {
        let scratch = try Scratch("anyfolder")
        defer { scratch.remove() }
        for (game, player) in [("rail", "blas-greedy(samples=1)"), ("quortex", "blas-greedy(samples=1)"),
                               ("rail", "mcts(iterations=20, evaluator=shipped)")] {
            let run = try oplab(in: scratch.path, "play", game, "--player", player, "--player", "random", "--seed", "3")
            #expect(run.status == 0, "\(game) \(player): \(run.stderr)")
        }
    }

    @Test("a config's map and model paths resolve against its folder; the run resumes from another folder")
    func configFolderPathsAndResume() throws {
        let scratch = try Scratch("anyfolder")
        defer { scratch.remove() }
        let files = FileManager.default
        for folder in ["cfg/maps", "cfg/models", "a", "b"] {
            try files.createDirectory(atPath: scratch(folder), withIntermediateDirectories: true)
        }
        try files.copyItem(atPath: packageRoot + "/configs/maps/train-depot-europe.json", toPath: scratch("cfg/maps/mymap.json"))
        try files.copyItem(atPath: packageRoot + "/configs/models/rail-mlp.model", toPath: scratch("cfg/models/mine.model"))
        let config = try scratch.config("""
            name: any-folder
            game: rail
            map: maps/mymap.json
            entrants:
              - {name: cpu, strategy: heuristic}
              - {name: greedy, strategy: "blas-greedy(model=models/mine.model, samples=1)"}
            blocks: 2
            seed: 5
            threads: 1

            """, name: "cfg/config.yaml")

        let first = try oplab(in: scratch("a"), "tournament", config, "--out", scratch("out"), "--quiet", "--no-report")
        #expect(first.status == 0, "\(first.stderr)")
        let record = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: scratch("out/run.json"))))
            as? [String: Any])
        let recorded = try #require(record["config"] as? [String: Any])
        #expect(recorded["map"] as? String == scratch("cfg/maps/mymap.json"))

        // The same config named from another folder by a relative path: the same run.
        let resumed = try oplab(in: scratch("b"), "tournament", "../cfg/config.yaml", "--out", scratch("out"), "--resume", "--quiet",
                                "--no-report")
        #expect(resumed.status == 0, "\(resumed.stderr)")
    }
}
