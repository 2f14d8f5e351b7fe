// swift-tools-version: 6.1
import PackageDescription

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
        .executableTarget(
            name: "RailBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "LabCore", package: "OpponentLab"),
                .product(name: "RailGame", package: "OpponentLab"),
            ],
            path: "Benchmarks/RailBenchmarks",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark"),
            ]
        ),
        .executableTarget(
            name: "QuortexBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "LabCore", package: "OpponentLab"),
                .product(name: "Quortex", package: "OpponentLab"),
            ],
            path: "Benchmarks/QuortexBenchmarks",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark"),
            ]
        ),
        .executableTarget(
            name: "HarnessBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "LabCore", package: "OpponentLab"),
                .product(name: "RailGame", package: "OpponentLab"),
                .product(name: "LabCatalog", package: "OpponentLab"),
                .product(name: "Tournament", package: "OpponentLab"),
            ],
            path: "Benchmarks/HarnessBenchmarks",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark"),
            ]
        ),
        .executableTarget(
            name: "PolicyValueBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "LabCore", package: "OpponentLab"),
                .product(name: "Evaluators", package: "OpponentLab"),
            ],
            path: "Benchmarks/PolicyValueBenchmarks",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark"),
            ]
        ),
        .executableTarget(
            name: "HotPathBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "LabCore", package: "OpponentLab"),
                .product(name: "RailGame", package: "OpponentLab"),
                .product(name: "Quortex", package: "OpponentLab"),
                .product(name: "ConnectFour", package: "OpponentLab"),
                .product(name: "Search", package: "OpponentLab"),
            ],
            path: "Benchmarks/HotPathBenchmarks",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark"),
            ]
        ),
        .target(name: "CPUAffinity", path: "Benchmarks/CPUAffinity"),
        .executableTarget(
            name: "ProtocolBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "LabCore", package: "OpponentLab"),
                .product(name: "RailGame", package: "OpponentLab"),
                .product(name: "Quortex", package: "OpponentLab"),
                .product(name: "Players", package: "OpponentLab"),
                .product(name: "LabCatalog", package: "OpponentLab"),
                "CPUAffinity",
            ],
            path: "Benchmarks/ProtocolBenchmarks",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark"),
            ]
        ),
        .executableTarget(
            name: "SearchBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "LabCore", package: "OpponentLab"),
                .product(name: "RailGame", package: "OpponentLab"),
                .product(name: "Quortex", package: "OpponentLab"),
                .product(name: "ConnectFour", package: "OpponentLab"),
                .product(name: "Search", package: "OpponentLab"),
            ],
            path: "Benchmarks/SearchBenchmarks",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark"),
            ]
        ),
        .executableTarget(
            name: "ConnectFourBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "LabCore", package: "OpponentLab"),
                .product(name: "ConnectFour", package: "OpponentLab"),
                .product(name: "Search", package: "OpponentLab"),
            ],
            path: "Benchmarks/ConnectFourBenchmarks",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark"),
            ]
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
        .executableTarget(
            name: "EvaluatorBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "LabCore", package: "OpponentLab"),
                .product(name: "Evaluators", package: "OpponentLab"),
            ],
            path: "Benchmarks/EvaluatorBenchmarks",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
