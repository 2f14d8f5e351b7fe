import Foundation
import LabCore
import Quortex
import Testing

/// Rule book, "Legal placement": the engine's fast legality (the cells every route needs,
/// worked out once per turn) lists exactly the placements the rule book allows, on every
/// position of many random matches.
///
/// The module's oracle, ``QuortexState/plainLegalActions()``, takes 15-200 ms a position
/// in a debug build, so it is checked against the engine on a few hundred positions;
/// ``RuleBookOracle`` (the same rule over the same plain graph, checked against it here
/// too) takes a tenth of that and carries the thousands. For a longer run set
/// `QUORTEX_FUZZ_POSITIONS` to the number of positions to compare (default 3,100), e.g.
/// `QUORTEX_FUZZ_POSITIONS=100000 swift test -c release --filter LegalityFuzzTests`.
@Suite("Fast legality against the rule book")
struct LegalityFuzzTests {
    struct Config: Sendable, CustomTestStringConvertible {
        var seats: Int
        var radius: Int
        var bag: String
        /// Positions compared in the default run.
        var positions: Int
        /// Half the moves by the reference AI (tighter routes, near-complete flows).
        var mixedPlayers = false
        var testDescription: String { "\(seats) seats, radius \(radius), bag \(bag)\(mixedPlayers ? ", half AI moves" : "")" }
    }

    static let configs = [
        Config(seats: 2, radius: 1, bag: "10,10,10,10", positions: 200),
        Config(seats: 4, radius: 1, bag: "10,10,10,10", positions: 200, mixedPlayers: true),
        Config(seats: 2, radius: 2, bag: "10,10,10,10", positions: 600),
        Config(seats: 3, radius: 2, bag: "4,4,4,4", positions: 400),
        Config(seats: 4, radius: 2, bag: "10,10,10,10", positions: 400, mixedPlayers: true),
        Config(seats: 6, radius: 2, bag: "0,0,30,30", positions: 400),
        Config(seats: 5, radius: 3, bag: "10,10,10,10", positions: 300),
        Config(seats: 2, radius: 3, bag: "40,0,0,0", positions: 200),
        Config(seats: 6, radius: 3, bag: "0,20,0,20", positions: 100, mixedPlayers: true),
        Config(seats: 3, radius: 4, bag: "20,20,20,20", positions: 150),
        Config(seats: 4, radius: 4, bag: "15,15,15,15", positions: 150, mixedPlayers: true),
        // Boards of more than 64 cells, whose searches read 128-bit sets (the smaller
        // ones above read 64-bit sets).
        Config(seats: 2, radius: 5, bag: "25,25,25,25", positions: 100),
        Config(seats: 3, radius: 6, bag: "35,35,35,35", positions: 60, mixedPlayers: true),
    ]

    static let defaultTotal = configs.reduce(0) { $0 + $1.positions }

    /// Positions to compare in all, from `QUORTEX_FUZZ_POSITIONS` or the default.
    static let total: Int = ProcessInfo.processInfo.environment["QUORTEX_FUZZ_POSITIONS"].flatMap { Int($0) } ?? defaultTotal

    /// Plays matches of `config` from `seed` on, calling `check` on every running
    /// position until it has seen `positions` of them or `check` returns false.
    static func positions(_ config: Config, seed: UInt64, count: Int, _ check: (QuortexState) -> Bool) throws {
        let game = try Q.game(seats: config.seats, ["radius": "\(config.radius)", "bag": config.bag])
        var buffer = ActionBuffer()
        var seen = 0
        var match = seed
        while seen < count {
            var state = game.newMatch(seed: match)
            var rng = LabRandom(seed: Seeds.derive(match, 11))
            let ai = QuortexReferenceAI()
            match += 1
            while !state.isTerminal && seen < count {
                guard check(state) else { return }
                seen += 1
                state.legalActions(into: &buffer)
                let action = config.mixedPlayers && rng.chance(0.5)
                    ? ai.chooseAction(state.observation(for: state.currentSeat), legal: buffer)
                    : buffer[rng.uniform(buffer.count)]
                state.apply(action)
            }
        }
    }

    /// The placements on which `a` and `b` differ, named.
    static func difference(_ state: QuortexState, _ a: [Int], _ b: [Int]) -> String {
        let only = { (x: [Int], y: [Int]) in Set(x).subtracting(y).sorted().map(state.describe).joined(separator: ", ") }
        return "engine only: [\(only(a, b))]; rule book only: [\(only(b, a))]; turn \(state.turn), seat \(state.currentSeat)\n\(state.renderBoard() ?? "")"
    }

    @Test("fast legality lists exactly the rule book's placements", arguments: configs)
    func fastLegalityListsExactlyTheRuleBooksPlacements(config: Config) throws {
        let count = max(1, config.positions * Self.total / Self.defaultTotal)
        let oracle = RuleBookOracle(board: QuortexBoard(radius: config.radius))
        var compared = 0
        try Self.positions(config, seed: UInt64(config.seats * 100 + config.radius), count: count) { state in
            guard let drawn = state.drawnTile else { Issue.record("a running match without a drawn tile"); return false }
            let fast = Q.legal(state)
            let plain = oracle.legalPlacements(Q.codes(state), type: drawn, liveAxes: state.setup.liveAxes)
            #expect(fast == plain, "\(Self.difference(state, fast, plain))")
            compared += 1
            return fast == plain
        }
        #expect(compared == count)
        if Self.total != Self.defaultTotal { print("quortex legality (\(config.testDescription)): \(compared) positions agree") }
    }

    @Test("fast legality and the tests' oracle agree with plainLegalActions", arguments: [
        Config(seats: 2, radius: 1, bag: "10,10,10,10", positions: 60),
        Config(seats: 4, radius: 2, bag: "10,10,10,10", positions: 90, mixedPlayers: true),
        Config(seats: 5, radius: 2, bag: "4,4,4,4", positions: 90),
        Config(seats: 3, radius: 3, bag: "10,10,10,10", positions: 30),
    ])
    func fastLegalityAndTheOracleAgreeWithPlainLegalActions(config: Config) throws {
        let oracle = RuleBookOracle(board: QuortexBoard(radius: config.radius))
        var compared = 0
        try Self.positions(config, seed: 500 + UInt64(config.seats), count: config.positions) { state in
            guard let drawn = state.drawnTile else { Issue.record("a running match without a drawn tile"); return false }
            let plain = state.plainLegalActions()
            let fast = Q.legal(state)
            let ours = oracle.legalPlacements(Q.codes(state), type: drawn, liveAxes: state.setup.liveAxes)
            #expect(fast == plain, "\(Self.difference(state, fast, plain))")
            #expect(ours == plain, "oracle: \(Self.difference(state, ours, plain))")
            compared += 1
            return fast == plain && ours == plain
        }
        #expect(compared == config.positions)
    }
}
