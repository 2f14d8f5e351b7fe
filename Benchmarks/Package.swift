// swift-tools-version: 6.1
import PackageDescription

/// A package-benchmark suite: an executable in `Benchmarks/NAME` with the plugin, on the
/// lab's products `lab` (and any other target of this package in `also`).
func suite(_ name: String, lab: [String], also: [Target.Dependency] = []) -> Target {
    .executableTarget(
        name: name,
        dependencies: [.product(name: "Benchmark", package: "benchmark")]
            + lab.map { .product(name: $0, package: "OpponentLab") } + also,
        path: "Benchmarks/\(name)",
        plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    )
}

let package = Package(
    name: "OpponentLabBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "OpponentLab", path: ".."),
        // Only MallocInterposer (the malloc metrics): the default RuntimeInterposer trait
        // would add swift-runtime-interposer on Linux/Swift 6.3, which does not resolve
        // offline here, and only feeds the ARC metrics these benchmarks do not use.
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        suite("RailBenchmarks", lab: ["LabCore", "RailGame"]),
        suite("QuortexBenchmarks", lab: ["LabCore", "Quortex"]),
        suite("HarnessBenchmarks", lab: ["LabCore", "RailGame", "LabCatalog", "Tournament"]),
        suite("PolicyValueBenchmarks", lab: ["LabCore", "Evaluators"]),
        suite("HotPathBenchmarks", lab: ["LabCore", "RailGame", "Quortex", "ConnectFour", "Search"], also: ["BenchmarkPositions"]),
        suite("ProtocolBenchmarks", lab: ["LabCore", "RailGame", "Quortex", "Players", "LabCatalog"], also: ["CPUAffinity"]),
        suite("SearchBenchmarks", lab: ["LabCore", "RailGame", "Quortex", "ConnectFour", "Search"], also: ["BenchmarkPositions"]),
        suite("ConnectFourBenchmarks", lab: ["LabCore", "ConnectFour", "Search"]),
        suite("EvaluatorBenchmarks", lab: ["LabCore", "Evaluators"]),
        .target(name: "CPUAffinity", path: "Benchmarks/CPUAffinity"),
        // The mid-game positions and the shipped map's path the search suites share.
        .target(
            name: "BenchmarkPositions",
            dependencies: [.product(name: "LabCore", package: "OpponentLab"), .product(name: "RailGame", package: "OpponentLab")],
            path: "Benchmarks/BenchmarkPositions"
        ),
        // Our MCTS's simulations/s on Connect Four, for openspiel/compare_mcts.sh (a plain
        // executable: one figure on one line, for the script to read). Outside
        // Benchmarks/: package-benchmark takes every executable there for a suite, and
        // `swift package benchmark` stopped at this one ("benchmarkCrashed").
        .executableTarget(
            name: "ConnectFourMCTSRate",
            dependencies: [
                .product(name: "LabCore", package: "OpponentLab"),
                .product(name: "ConnectFour", package: "OpponentLab"),
                .product(name: "Search", package: "OpponentLab"),
            ],
            path: "Tools/ConnectFourMCTSRate"
        ),
    ],
    swiftLanguageModes: [.v6]
)
