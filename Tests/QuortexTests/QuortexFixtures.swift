import LabCore
import Quortex
import Testing

/// Shared set-up for the Quortex tests: games from knobs, positions built tile by tile,
/// cells by (row, col), legal actions as arrays.
enum Q {
    /// A game with `KEY=VALUE` rule settings.
    static func game(seats: Int = 2, _ settings: [String: String] = [:]) throws -> QuortexGame {
        let rules = try QuortexRules(settings: settings.sorted(by: { $0.key < $1.key }).map { (key: $0.key, value: $0.value) })
        return try QuortexGame(rules: rules, seatCount: seats)
    }

    /// A game whose seats sit on `edges` (seat order), other knobs at their defaults.
    static func game(edges: [Int]) throws -> QuortexGame {
        var rules = QuortexRules()
        rules.edges = edges
        return try QuortexGame(rules: rules, seatCount: edges.count)
    }

    /// A tile on a cell: (row, col), type, rotation.
    struct Tile: Sendable {
        var row: Int
        var col: Int
        var type: Int
        var rotation: Int
    }

    /// A new match of `game` with `tiles` put on the board by the test hooks and the
    /// mover (seat 0) holding a tile of type `drawn`.
    static func position(_ game: QuortexGame, tiles: [Tile], drawn: Int, seed: UInt64 = 1) -> QuortexState {
        var state = game.newMatch(seed: seed)
        for t in tiles { state.place(row: t.row, col: t.col, type: t.type, rotation: t.rotation) }
        state.setDrawnTile(drawn)
        return state
    }

    /// The two-sharps channel of the published implementation's tests: tiles of type 2 at
    /// rotation 5 (SW joined to NE) on (r, 0) for every row r but `except`, a straight
    /// channel from edge 0 to edge 3.
    static func column(except: Set<Int> = []) -> [Tile] {
        (-3...3).filter { !except.contains($0) }.map { Tile(row: $0, col: 0, type: 2, rotation: 5) }
    }

    /// Three-sharps at rotation 0 (SW-SE, W-NW, NE-E) on (0, c) for every column c but
    /// `except`: flows along row 0 stay on the side they came from.
    static func sealingRow(except: Set<Int> = []) -> [Tile] {
        (-3...3).filter { !except.contains($0) }.map { Tile(row: 0, col: $0, type: 3, rotation: 0) }
    }

    static func legal(_ state: QuortexState) -> [Int] {
        var buffer = ActionBuffer()
        state.legalActions(into: &buffer)
        return buffer.actions
    }

    static func cell(_ board: QuortexBoard, _ row: Int, _ col: Int) throws -> Int {
        try #require(board.index(row: row, col: col), "(\(row),\(col)) is off the board")
    }

    /// Tile code of every cell, -1 when empty (the form the plain rule functions take).
    static func codes(_ state: QuortexState) -> [Int] {
        state.board.cells.indices.map { state.tileCode(at: $0) ?? -1 }
    }

    /// Axes (edge e and e + 3, as e mod 3) some side must join.
    static func liveAxes(_ setup: QuortexSetup) -> [Int] {
        (0..<3).filter { setup.liveAxes & (1 << $0) != 0 }
    }

    /// Plays `state` on with uniformly random legal actions from `rng` until it ends.
    static func playOut(_ state: inout QuortexState, _ rng: inout LabRandom, each: (QuortexState) -> Void = { _ in }) {
        var buffer = ActionBuffer()
        while !state.isTerminal {
            state.legalActions(into: &buffer)
            state.apply(buffer[rng.uniform(buffer.count)])
            each(state)
        }
    }

    static let randomPlayer: StrategyFactory<QuortexGame> = { context in UniformRandomStrategy<QuortexGame>(seed: context.seed) }
}
