import Quortex

/// The conformance suite's examples of the reference AI: the 58 positions of the
/// published AI's recorded choices (this file was generated from that record, record for
/// record) where the published AI chose differently from the lab's first version, whose
/// candidate filter also took cells next to any rim cell. Each is the position before
/// move `move` (1-based) of `oplab play quortex --player P0 --player P1 --seed S`, on the
/// line the first version played; `published` is the published AI's choice there and
/// `firstVersion` the first version's.
enum PublishedAIChoices {
    enum Player: String, Sendable { case reference, random }

    struct Placement: Sendable, Equatable, CustomStringConvertible {
        var row: Int
        var col: Int
        var rotation: Int
        init(_ row: Int, _ col: Int, _ rotation: Int) { (self.row, self.col, self.rotation) = (row, col, rotation) }
        var description: String { "(\(row),\(col)) r\(rotation)" }
    }

    struct Record: Sendable {
        var players: [Player]
        var seed: UInt64
        var move: Int
        var tile: Int
        var published: Placement
        var firstVersion: Placement
        var command: String { "oplab play quortex " + players.map { "--player \($0.rawValue) " }.joined() + "--seed \(seed)" }
    }

    static let records: [Record] = [
        .init(players: [.reference, .random], seed: 1, move: 3, tile: 2, published: .init(3, -1, 1), firstVersion: .init(-1, -1, 1)),
        .init(players: [.reference, .random], seed: 1, move: 5, tile: 0, published: .init(-2, 0, 0), firstVersion: .init(1, -3, 0)),
        .init(players: [.reference, .random], seed: 1, move: 13, tile: 2, published: .init(2, -1, 2), firstVersion: .init(2, -2, 1)),
        .init(players: [.reference, .random], seed: 7, move: 3, tile: 1, published: .init(3, -3, 1), firstVersion: .init(-1, -1, 1)),
        .init(players: [.reference, .random], seed: 9, move: 5, tile: 0, published: .init(3, -1, 0), firstVersion: .init(1, -3, 0)),
        .init(players: [.reference, .random], seed: 11, move: 3, tile: 0, published: .init(2, 0, 0), firstVersion: .init(-1, -1, 0)),
        .init(players: [.reference, .random], seed: 11, move: 7, tile: 2, published: .init(0, -1, 2), firstVersion: .init(1, -2, 1)),
        .init(players: [.reference, .random], seed: 17, move: 3, tile: 2, published: .init(3, -1, 1), firstVersion: .init(-1, -1, 1)),
        .init(players: [.reference, .random], seed: 19, move: 3, tile: 0, published: .init(3, -1, 2), firstVersion: .init(3, -3, 0)),
        .init(players: [.reference, .random], seed: 21, move: 9, tile: 2, published: .init(-3, 2, 0), firstVersion: .init(2, -3, 2)),
        .init(players: [.reference, .random], seed: 27, move: 5, tile: 2, published: .init(3, -1, 1), firstVersion: .init(2, -1, 1)),
        .init(players: [.reference, .random], seed: 31, move: 7, tile: 1, published: .init(3, -1, 4), firstVersion: .init(2, -2, 1)),
        .init(players: [.reference, .random], seed: 33, move: 9, tile: 1, published: .init(-1, -1, 2), firstVersion: .init(2, -3, 1)),
        .init(players: [.reference, .random], seed: 35, move: 3, tile: 1, published: .init(1, 1, 1), firstVersion: .init(-1, -1, 1)),
        .init(players: [.reference, .random], seed: 45, move: 5, tile: 2, published: .init(-3, 1, 0), firstVersion: .init(-1, -1, 2)),
        .init(players: [.reference, .random], seed: 47, move: 11, tile: 2, published: .init(2, -2, 2), firstVersion: .init(1, -2, 2)),
        .init(players: [.reference, .random], seed: 53, move: 7, tile: 1, published: .init(1, -1, 1), firstVersion: .init(-1, -1, 1)),
        .init(players: [.reference, .random], seed: 57, move: 9, tile: 1, published: .init(2, 0, 1), firstVersion: .init(2, -1, 1)),
        .init(players: [.reference, .random], seed: 59, move: 7, tile: 2, published: .init(-2, 0, 2), firstVersion: .init(2, -2, 1)),
        .init(players: [.reference, .random], seed: 67, move: 3, tile: 0, published: .init(-2, 0, 2), firstVersion: .init(1, -3, 0)),
        .init(players: [.reference, .random], seed: 75, move: 3, tile: 2, published: .init(2, -1, 1), firstVersion: .init(-1, -1, 1)),
        .init(players: [.reference, .random], seed: 77, move: 3, tile: 1, published: .init(2, -2, 1), firstVersion: .init(-1, -1, 1)),
        .init(players: [.reference, .random], seed: 79, move: 3, tile: 0, published: .init(3, -1, 2), firstVersion: .init(2, -2, 0)),
        .init(players: [.random, .reference], seed: 13, move: 2, tile: 0, published: .init(0, 3, 1), firstVersion: .init(0, -3, 1)),
        .init(players: [.random, .reference], seed: 19, move: 8, tile: 2, published: .init(0, 2, 0), firstVersion: .init(-1, 2, 0)),
        .init(players: [.random, .reference], seed: 23, move: 2, tile: 0, published: .init(3, -2, 0), firstVersion: .init(0, -3, 1)),
        .init(players: [.random, .reference], seed: 25, move: 2, tile: 2, published: .init(2, -1, 0), firstVersion: .init(-1, -2, 0)),
        .init(players: [.reference, .reference], seed: 3, move: 15, tile: 2, published: .init(3, -1, 1), firstVersion: .init(2, -2, 1)),
        .init(players: [.reference, .reference], seed: 9, move: 12, tile: 1, published: .init(-1, 3, 0), firstVersion: .init(-1, 2, 0)),
        .init(players: [.reference, .reference], seed: 11, move: 7, tile: 2, published: .init(0, -1, 2), firstVersion: .init(1, -2, 1)),
        .init(players: [.reference, .reference], seed: 13, move: 4, tile: 0, published: .init(0, 2, 0), firstVersion: .init(-1, 2, 0)),
        .init(players: [.reference, .random], seed: 6, move: 3, tile: 0, published: .init(3, -1, 2), firstVersion: .init(2, -2, 0)),
        .init(players: [.reference, .random], seed: 14, move: 5, tile: 0, published: .init(-1, -2, 0), firstVersion: .init(1, -3, 0)),
        .init(players: [.reference, .random], seed: 16, move: 9, tile: 2, published: .init(-3, 2, 0), firstVersion: .init(3, -3, 2)),
        .init(players: [.reference, .random], seed: 22, move: 3, tile: 0, published: .init(3, -1, 2), firstVersion: .init(2, -2, 0)),
        .init(players: [.reference, .random], seed: 26, move: 3, tile: 0, published: .init(3, -1, 2), firstVersion: .init(1, -3, 0)),
        .init(players: [.reference, .random], seed: 26, move: 7, tile: 2, published: .init(2, -3, 2), firstVersion: .init(3, -3, 2)),
        .init(players: [.reference, .random], seed: 28, move: 3, tile: 3, published: .init(1, -3, 0), firstVersion: .init(0, -3, 0)),
        .init(players: [.reference, .random], seed: 28, move: 5, tile: 1, published: .init(2, -1, 1), firstVersion: .init(-1, -1, 1)),
        .init(players: [.reference, .random], seed: 30, move: 3, tile: 0, published: .init(3, -3, 0), firstVersion: .init(1, -3, 0)),
        .init(players: [.reference, .random], seed: 36, move: 3, tile: 1, published: .init(3, -2, 1), firstVersion: .init(-1, -1, 1)),
        .init(players: [.reference, .random], seed: 36, move: 5, tile: 1, published: .init(3, -2, 1), firstVersion: .init(1, -2, 1)),
        .init(players: [.reference, .random], seed: 46, move: 3, tile: 2, published: .init(3, -1, 1), firstVersion: .init(-1, -1, 1)),
        .init(players: [.reference, .random], seed: 50, move: 9, tile: 2, published: .init(2, -2, 2), firstVersion: .init(3, -2, 2)),
        .init(players: [.reference, .random], seed: 52, move: 3, tile: 2, published: .init(2, -1, 1), firstVersion: .init(-1, -1, 1)),
        .init(players: [.reference, .random], seed: 60, move: 3, tile: 0, published: .init(-2, 0, 2), firstVersion: .init(1, -3, 0)),
        .init(players: [.reference, .random], seed: 68, move: 3, tile: 0, published: .init(3, -1, 2), firstVersion: .init(3, -3, 0)),
        .init(players: [.reference, .random], seed: 70, move: 3, tile: 1, published: .init(3, -1, 1), firstVersion: .init(-1, -1, 1)),
        .init(players: [.reference, .random], seed: 70, move: 5, tile: 2, published: .init(0, -1, 2), firstVersion: .init(1, -2, 1)),
        .init(players: [.reference, .random], seed: 78, move: 3, tile: 2, published: .init(3, -1, 1), firstVersion: .init(-1, -1, 1)),
        .init(players: [.reference, .random], seed: 80, move: 17, tile: 3, published: .init(2, -3, 0), firstVersion: .init(0, -3, 0)),
        .init(players: [.random, .reference], seed: 6, move: 6, tile: 2, published: .init(0, -2, 0), firstVersion: .init(0, -3, 0)),
        .init(players: [.random, .reference], seed: 30, move: 6, tile: 2, published: .init(0, -2, 0), firstVersion: .init(0, -3, 0)),
        .init(players: [.reference, .reference], seed: 2, move: 4, tile: 0, published: .init(0, 2, 0), firstVersion: .init(-1, 2, 0)),
        .init(players: [.reference, .reference], seed: 6, move: 7, tile: 2, published: .init(2, 0, 1), firstVersion: .init(2, -2, 1)),
        .init(players: [.reference, .reference], seed: 6, move: 20, tile: 1, published: .init(3, 0, 2), firstVersion: .init(0, -3, 0)),
        .init(players: [.reference, .reference], seed: 10, move: 7, tile: 0, published: .init(2, 0, 0), firstVersion: .init(2, -2, 0)),
        .init(players: [.reference, .reference], seed: 16, move: 27, tile: 0, published: .init(3, -2, 0), firstVersion: .init(3, -3, 0)),
    ]
}
