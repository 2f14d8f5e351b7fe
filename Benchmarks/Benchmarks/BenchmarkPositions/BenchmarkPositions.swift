import Foundation
import LabCore
import RailGame

/// The position after `moves` random actions of match 0 of seed 20261121: the mid-game
/// position `SearchBenchmarks` and `HotPathBenchmarks` search from.
public func midGame<G: Game>(_ game: G, moves: Int) -> G.State {
    var state = game.newMatch(seed: Seeds.match(20_261_121, match: 0))
    var rng = LabRandom(seed: 5)
    var buffer = ActionBuffer()
    for _ in 0..<moves where !state.isTerminal {
        state.legalActions(into: &buffer)
        state.apply(buffer[rng.uniform(buffer.count)])
    }
    precondition(!state.isTerminal, "the mid-game position ended the match")
    return state
}

/// The main package's shipped map (this file is `<main>/Benchmarks/Benchmarks/BenchmarkPositions/...`).
public func shippedMapPath() -> String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent(RailMapFile.defaultPath).path
}
