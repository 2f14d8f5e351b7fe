import Foundation
import LabCore
import RailGame

/// Where the shipped map may be, first match wins: next to this source file's package
/// (`#filePath` is `<main>/Benchmarks/Benchmarks/RailBenchmarks/ShippedMap.swift`), then
/// relative to the working directory as the main package (`<main>`) or as the benchmark
/// package (`<main>/Benchmarks`, where `swift package benchmark` runs).
func shippedMapCandidates(filePath: String = #filePath) -> [String] {
    let source = URL(fileURLWithPath: filePath)
    let mainPackage = source.deletingLastPathComponent()  // RailBenchmarks/
        .deletingLastPathComponent()  // Benchmarks/Benchmarks/
        .deletingLastPathComponent()  // Benchmarks/
        .deletingLastPathComponent()  // <main>/
    let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    return [
        mainPackage.appendingPathComponent(RailMapFile.defaultPath).path,
        cwd.appendingPathComponent(RailMapFile.defaultPath).path,
        cwd.deletingLastPathComponent().appendingPathComponent(RailMapFile.defaultPath).path,
    ]
}

/// Loads `configs/maps/train-depot-europe.json` of the main package, or stops the run
/// with the paths it tried and what the loader said.
func loadShippedMap() -> RailMap {
    let candidates = shippedMapCandidates()
    guard let path = candidates.first(where: { FileManager.default.fileExists(atPath: $0) }) else {
        fatalError("RailBenchmarks: map \(RailMapFile.defaultPath) not found; tried:\n  "
            + candidates.joined(separator: "\n  ")
            + "\nrun from the main package or its Benchmarks/ folder")
    }
    do {
        return try RailMapFile.load(path: path)
    } catch {
        fatalError("RailBenchmarks: \(error)")
    }
}
