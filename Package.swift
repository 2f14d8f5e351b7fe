// swift-tools-version: 6.1
import Foundation
import PackageDescription

/// x86-64 builds target Nehalem's instruction set (x86-64-v2: POPCNT and SSE4.2, in every
/// x86-64 processor since 2009; the toolchain names the level by that processor), so a bit
/// count (`nonzeroBitCount`, the engines' cell and railroad sets) is one instruction, not
/// fifteen. Only where the building machine has POPCNT (read from /proc/cpuinfo), so an
/// emulated processor without it (QEMU's default) still builds a binary that runs; other
/// architectures build for their default.
#if arch(x86_64)
let cpuInfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
let cpuLevel: [SwiftSetting] = cpuInfo.contains(" popcnt") ? [.unsafeFlags(["-target-cpu", "nehalem"])] : []
#else
let cpuLevel: [SwiftSetting] = []
#endif

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    // Exclusive access is proven at compile time; the run-time check of what the compiler
    // cannot prove (a class's stored properties: a strategy's random stream, the timer)
    // cost 40,000 instructions a rail match (swift_beginAccess on every decision) and
    // is left out of release builds, as the Swift project's own hot code does. Debug
    // builds (the inner loop's tests) keep it.
    .unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release)),
] + cpuLevel

/// The games: each a module under Sources/ (knowing LabCore and Pictures) with its tests in
/// Tests/<Module>Tests (the shared conformance suite among them). A new game is its name
/// here and one line in LabCatalog's Catalog.games (docs/adding-a-game.md).
let games = ["RailGame", "Quortex", "ConnectFour", "TicTacToe"]
/// Games that compile files from configs/ in (rail's shipped map).
let embedding: Set<String> = ["RailGame"]

let package = Package(
    name: "OpponentLab",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "oplab", targets: ["oplab"]),
        .library(name: "LabCore", targets: ["LabCore"]),
        .library(name: "Pictures", targets: ["Pictures"]),
        .library(name: "Search", targets: ["Search"]),
        .library(name: "Evaluators", targets: ["Evaluators"]),
        .library(name: "Tournament", targets: ["Tournament"]),
        .library(name: "Reports", targets: ["Reports"]),
        .library(name: "Players", targets: ["Players"]),
        .library(name: "LabCatalog", targets: ["LabCatalog"]),
    ] + games.map { .library(name: $0, targets: [$0]) },
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
    ],
    targets: [
        .target(name: "LabCore", swiftSettings: strict),
        // How a game draws itself for generic tools: SVG building blocks, replay scenes,
        // board-count pictures. Knows LabCore only; games and Reports use it.
        .target(name: "Pictures", dependencies: ["LabCore"], swiftSettings: strict),
        // Files under configs/ compiled in at build time (the shipped map, the shipped
        // models): Plugins/EmbedConfigs runs the EmbedFiles tool.
        .executableTarget(name: "EmbedFiles", dependencies: ["LabCore"], swiftSettings: strict),
        .plugin(name: "EmbedConfigs", capability: .buildTool(), dependencies: ["EmbedFiles"]),
        .target(name: "Search", dependencies: ["LabCore"], swiftSettings: strict),
        // OpenBLAS, opened at start-up with one thread (Sources/CBLAS/loader.c: linked, it
        // started a pool of spinning threads); scripts/setup.sh installs it where it is missing.
        .target(name: "CBLAS", cSettings: [.unsafeFlags(["-fvisibility=hidden"])], linkerSettings: [.linkedLibrary("dl")]),
        .target(name: "CKernels"),
        .target(name: "Evaluators", dependencies: ["LabCore", "CBLAS", "CKernels"], swiftSettings: strict),
        // External bots over the player protocol: processes, pipes, deadlines, faults.
        .target(name: "CBotProcess"),
        .target(name: "Players", dependencies: ["LabCore", "CBotProcess"], swiftSettings: strict),
        // zlib through pkg-config, for compact results (matches.csv.gz); scripts/setup.sh
        // installs it where it is missing.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .target(name: "Tournament", dependencies: ["LabCore", "CZlib", .product(name: "Yams", package: "Yams")], swiftSettings: strict),
        // Pages (HTML, SVG) from results folders and replays, drawing what each game
        // supplies through Pictures; no game types.
        .target(name: "Reports", dependencies: ["LabCore", "Pictures", "Tournament"], swiftSettings: strict),
        .target(name: "LabCatalog",
                dependencies: ["LabCore", "Pictures", "Search", "Evaluators", "Players", "Tournament", "Reports"] + games.map { .target(name: $0) },
                swiftSettings: strict, plugins: ["EmbedConfigs"]),
        .executableTarget(
            name: "oplab",
            dependencies: [
                "LabCatalog", "LabCore", "Evaluators", "Players", "Tournament", "Reports",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict
        ),
        // Shared conformance suite every game must pass (not a test target itself).
        .target(name: "GameConformance", dependencies: ["LabCore"], path: "Tests/GameConformance",
                swiftSettings: strict),
        .testTarget(name: "LabCoreTests", dependencies: ["LabCore"], swiftSettings: strict),
        .testTarget(name: "SearchTests", dependencies: ["Search", "LabCore", "RailGame", "Quortex", "Evaluators"], swiftSettings: strict),
        .testTarget(name: "EvaluatorsTests", dependencies: ["Evaluators", "CBLAS", "LabCore"], swiftSettings: strict),
        .testTarget(name: "PlayersTests", dependencies: ["Players", "LabCore", "RailGame", "Quortex", "GameConformance"], exclude: ["Bots"],
                    swiftSettings: strict),
        .testTarget(name: "TournamentTests", dependencies: ["Tournament", "LabCore"], swiftSettings: strict),
        .testTarget(name: "LabCatalogTests", dependencies: ["LabCatalog", "RailGame", "Quortex", "ConnectFour", "Evaluators", "LabCore"],
                    swiftSettings: strict),
        .testTarget(name: "ReportsTests", dependencies: ["Reports", "Pictures", "LabCore", "Tournament", "RailGame", "Quortex"],
                    swiftSettings: strict),
        .testTarget(name: "OplabCLITests", dependencies: ["oplab", "LabCore"], exclude: ["Bots"], swiftSettings: strict),
    ] + games.flatMap { game -> [Target] in [
        .target(name: game, dependencies: ["LabCore", "Pictures"], swiftSettings: strict, plugins: embedding.contains(game) ? ["EmbedConfigs"] : []),
        .testTarget(name: game + "Tests", dependencies: [.target(name: game), "LabCore", "Pictures", "Search", "GameConformance"], swiftSettings: strict),
    ] },
    swiftLanguageModes: [.v6]
)
