import Foundation
import LabCore
import Quortex
import Testing

/// A random playout's step (``QuortexState/applyRandomAction(using:buffer:)``): it draws
/// a placement from every empty cell and distinct rotation, keeps it when legal, and
/// leaves the next turn's essential cells unworked until a draw lands on one. It must
/// draw the legal placements with the odds of a draw from the listed ones, and the
/// position after it must be the one ``QuortexState/apply(_:)`` makes.
@Suite("Quortex random playout steps")
struct RandomPlayoutStepTests {
    /// The placement `after` made from `before` (its cell and rotation), read off the board.
    static func placement(from before: QuortexState, to after: QuortexState) throws -> Int {
        let cell = try #require(before.board.cells.indices.first { before.tileCode(at: $0) == nil && after.tileCode(at: $0) != nil })
        return QuortexState.action(cell: cell, rotation: try #require(after.tileCode(at: cell)) % 6)
    }

    static func listed(_ state: QuortexState) -> [Int] {
        var buffer = ActionBuffer()
        state.legalActions(into: &buffer)
        return (0..<buffer.count).map { buffer[$0] }
    }

    static func listedInPlace(_ state: QuortexState) -> [Int] {
        var copy = state
        var buffer = ActionBuffer()
        copy.legalActionsInPlace(into: &buffer)
        return (0..<buffer.count).map { buffer[$0] }
    }

    static let configs = [
        LegalityFuzzTests.Config(seats: 2, radius: 2, bag: "10,10,10,10", positions: 60),
        LegalityFuzzTests.Config(seats: 2, radius: 3, bag: "10,10,10,10", positions: 60),
        LegalityFuzzTests.Config(seats: 4, radius: 2, bag: "10,10,10,10", positions: 60, mixedPlayers: true),
        LegalityFuzzTests.Config(seats: 6, radius: 2, bag: "0,0,30,30", positions: 60),
        LegalityFuzzTests.Config(seats: 3, radius: 4, bag: "20,20,20,20", positions: 20),
    ]

    @Test("each step places a legal placement and leaves the position apply makes: the same views, end, legal placements and invariants",
          arguments: configs)
    func stepsMatchApply(config: LegalityFuzzTests.Config) throws {
        var steps = 0, ends = 0, restricted = 0
        var rng = LabRandom(seed: 77)
        var buffer = ActionBuffer()
        try LegalityFuzzTests.positions(config, seed: 500, count: config.positions) { start in
            var playout = start
            for _ in 0..<12 where !playout.isTerminal {
                let legal = Self.listed(playout)
                var next = playout
                next.applyRandomAction(using: &rng, buffer: &buffer)
                guard let action = try? Self.placement(from: playout, to: next) else {
                    Issue.record("no placement made")
                    return false
                }
                #expect(legal.contains(action), "\(playout.describe(action)) is not legal")
                var applied = playout
                applied.apply(action)
                #expect(next.isTerminal == applied.isTerminal && next.outcome == applied.outcome)
                for seat in 0..<next.seatCount { #expect(next.observation(for: seat) == applied.observation(for: seat)) }
                if !next.isTerminal {
                    let expected = Self.listed(applied)
                    #expect(Self.listed(next) == expected)
                    #expect(Self.listedInPlace(next) == expected)
                    if expected.count < Set(expected.map { $0 / 6 }).count * QuortexTile.distinctRotations[next.drawnTile!].count
                        || Set(expected.map { $0 / 6 }).count < next.board.cells.count - next.turn {
                        restricted += 1
                    }
                } else {
                    ends += 1
                }
                #expect(next.invariantViolation() == nil)
                playout = next
                steps += 1
            }
            return true
        }
        #expect(steps > 5 * config.positions)
        // Positions where some placement is not legal: the steps checked cells.
        #expect(restricted > 0)
        if config.radius <= 3 { #expect(ends > 0) }
    }

    @Test("a step draws every legal placement with the same odds (chi-square over 60 draws a placement), from a step's position too")
    func stepsAreUniform() throws {
        var tested = 0
        var rng = LabRandom(seed: 5)
        var buffer = ActionBuffer()
        let config = LegalityFuzzTests.Config(seats: 2, radius: 2, bag: "10,10,10,10", positions: 400)
        try LegalityFuzzTests.positions(config, seed: 900, count: config.positions) { start in
            // Half the positions after a step, whose essential cells are not worked out yet.
            var state = start
            if rng.chance(0.5) { state.applyRandomAction(using: &rng, buffer: &buffer) }
            guard !state.isTerminal else { return true }
            let legal = Self.listed(state)
            let cells = Set(legal.map { $0 / 6 })
            // Only positions where the drawn tile is refused somewhere an empty cell is.
            guard legal.count > 1, cells.count < state.board.cells.count - state.turn
                || legal.count < cells.count * QuortexTile.distinctRotations[state.drawnTile!].count else { return true }
            let draws = 60 * legal.count
            var counts = [Int: Int]()
            for _ in 0..<draws {
                var next = state
                next.applyRandomAction(using: &rng, buffer: &buffer)
                counts[try! Self.placement(from: state, to: next), default: 0] += 1
            }
            #expect(Set(counts.keys) == Set(legal), "drawn: \(counts.keys.sorted()), legal: \(legal)")
            let expected = Double(draws) / Double(legal.count)
            let chi2 = legal.reduce(0.0) { $0 + pow(Double(counts[$1, default: 0]) - expected, 2) / expected }
            let df = Double(legal.count - 1)
            // Mean df, standard deviation sqrt(2 df): five deviations above is p < 1e-5.
            #expect(chi2 < df + 5 * (2 * df).squareRoot(), "chi-square \(chi2) over \(legal.count) placements")
            tested += 1
            return tested < 12
        }
        #expect(tested == 12)
    }
}
