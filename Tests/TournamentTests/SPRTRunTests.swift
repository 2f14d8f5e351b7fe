import Foundation
import LabCore
import Testing
@testable import Tournament

/// `TournamentRunner.runSPRT`, the sequential test behind `oplab sprt`, on scripted
/// head-to-heads whose every result is known.
@Suite("A sequential test played as a tournament")
struct SPRTRunTests {
    static func plan(maxMatches: Int, firstWins: @escaping @Sendable (Int) -> Bool) throws -> TournamentPlan {
        let config = TournamentConfig.headToHead(name: "sprt-toy", game: "toy", rules: [], map: nil, Entrant(name: "candidate", strategy: "a"),
                                                 Entrant(name: "baseline", strategy: "b"), matches: maxMatches, seed: 1, threads: 1)
        return try ScriptedPlans.headToHead(config, firstWins: firstWins)
    }

    static func run(_ plan: TournamentPlan, threads: Int = 1, in folder: String,
                    onBlock: @escaping (Pentanomial, SPRTDecision) -> Void = { _, _ in }) throws -> SPRTRun {
        try TournamentRunner.runSPRT(plan, settings: SPRTSettings(), options: RunOptions(directory: folder, threads: threads, quiet: true),
                                     onBlock: onBlock)
    }

    @Test("A candidate that wins every match is accepted (H1) before the last block; the run says it stopped")
    func acceptsH1() throws {
        let folder = ScriptedPlans.temporaryPath("sprt")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var seen: [(Pentanomial, SPRTDecision)] = []
        let test = try Self.run(try Self.plan(maxMatches: 2000) { _ in true }, in: folder) { seen.append(($0, $1)) }
        #expect(test.decision == .h1)
        #expect(test.counts.blocks > 0 && test.counts.blocks < 1000 && test.counts == Pentanomial(counts: [0, 0, 0, 0, test.counts.blocks]))
        #expect(seen.count == test.counts.blocks && seen.last?.1 == .h1 && seen.dropLast().allSatisfy { $0.1 == .undecided })
        #expect(try RunRecord.read(from: folder).status == .stopped)
    }

    @Test("A candidate that loses every match is rejected (H0)")
    func acceptsH0() throws {
        let folder = ScriptedPlans.temporaryPath("sprt")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let test = try Self.run(try Self.plan(maxMatches: 2000) { _ in false }, in: folder)
        #expect(test.decision == .h0)
        #expect(test.counts == Pentanomial(counts: [test.counts.blocks, 0, 0, 0, 0]))
    }

    @Test("Out of blocks before a decision: undecided, every block counted, the run complete")
    func undecided() throws {
        let folder = ScriptedPlans.temporaryPath("sprt")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // Each block one win and one loss: even, and only 3 blocks (5 matches rounded up).
        let test = try Self.run(try Self.plan(maxMatches: 5) { $0 % 2 == 0 }, in: folder)
        #expect(test.decision == .undecided)
        #expect(test.counts == Pentanomial(counts: [0, 0, 3, 0, 0]))
        #expect(test.result.matchesPlayed == 6)
        #expect(try RunRecord.read(from: folder).status == .complete)
    }

    @Test("The test stops at the same block, with the same files, on 1 thread and on 2")
    func threadIndependent() throws {
        let one = ScriptedPlans.temporaryPath("sprt"), two = ScriptedPlans.temporaryPath("sprt")
        defer {
            try? FileManager.default.removeItem(atPath: one)
            try? FileManager.default.removeItem(atPath: two)
        }
        // Three wins in four: stronger, decided after some blocks.
        let plan = try Self.plan(maxMatches: 4000) { $0 % 4 != 3 }
        let a = try Self.run(plan, threads: 1, in: one), b = try Self.run(plan, threads: 2, in: two)
        #expect(a.decision == .h1 && b.decision == .h1)
        #expect(a.counts == b.counts)
        for file in ["matches.csv", "summary.csv"] {
            #expect(try Data(contentsOf: URL(fileURLWithPath: one + "/" + file)) == Data(contentsOf: URL(fileURLWithPath: two + "/" + file)), "\(file)")
        }
    }

    @Test("A folder that holds results is refused with the advice the caller offers: sprt takes --force, not --resume")
    func existingFolderAdvice() throws {
        let folder = ScriptedPlans.temporaryPath("sprt")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let plan = try Self.plan(maxMatches: 4) { _ in true }
        _ = try Self.run(plan, in: folder)
        var options = RunOptions(directory: folder, threads: 1, quiet: true)
        options.folderFlags = .force
        #expect(throws: InputError("\(folder) already holds results; pass --force to replace it, or choose another folder")) {
            try TournamentRunner.runSPRT(plan, settings: SPRTSettings(), options: options)
        }
        // A tournament offers both.
        #expect(throws: InputError("\(folder) already holds results; pass --resume to finish that run or --force to replace it")) {
            try TournamentRunner.run(plan, options: RunOptions(directory: folder, threads: 1, quiet: true))
        }
    }

    @Test("headToHead: 2 seats, seat-rotated, the matches rounded up to blocks of 2")
    func headToHeadConfig() {
        let a = Entrant(name: "a", strategy: "x"), b = Entrant(name: "b", strategy: "y")
        let config = TournamentConfig.headToHead(name: "h", game: "g", rules: [RuleSetting(key: "k", value: "1")], map: "m.json", a, b,
                                                 matches: 5, seed: 3, threads: 2)
        #expect(config == TournamentConfig(name: "h", game: "g", rules: [RuleSetting(key: "k", value: "1")], map: "m.json", seats: 2,
                                           entrants: [a, b], format: .roundRobin, blocks: 3, seed: 3, threads: 2))
        #expect(TournamentConfig.headToHead(name: "h", game: "g", rules: [], map: nil, a, b, matches: 6, seed: 3, threads: 2).blocks == 3)
    }
}
