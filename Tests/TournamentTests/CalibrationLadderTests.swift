import Foundation
import LabCore
import Testing
@testable import Tournament

/// The calibration harness behind `oplab calibrate` (search, final measurements, the
/// ladder file), on synthetic win-rate curves: no game, no command line.
@Suite("Calibration ladder")
struct CalibrationLadderTests {
    static func request(targets: [Double], names: [String]? = nil, range: ClosedRange<Double> = 0...1, integer: Bool = false,
                        probes: Int = 12, seed: UInt64 = 5) -> CalibrationRequest {
        CalibrationRequest(game: "toy", family: "toy", knob: "noise", range: range, rangeText: "\(Int(range.lowerBound))..\(Int(range.upperBound))",
                           integer: integer, reference: "ref", targets: targets,
                           names: names ?? CalibrationRequest.defaultNames(count: targets.count), matches: 1000, probes: probes,
                           seed: seed, command: "oplab calibrate toy --family toy")
    }

    static func strategy(_ value: Double) -> String { "toy(noise=\(Calibration.knobText(value, integer: false)))" }

    /// `rate` with a ±0.01 interval over `matches` matches.
    static func exact(_ rate: Double, matches: Int = 1000) -> WinRateMeasurement {
        WinRateMeasurement(winRate: rate, low: rate - 0.01, high: rate + 0.01, matches: matches)
    }

    @Test("Each level lands on the knob value that gives its target, and keeps its final measurement (the next seed's)")
    func converges() {
        // Win rate 0.1 + 0.8 v: target t at v = (t - 0.1) / 0.8. The final measurements
        // (seed 6) say so by their match count.
        let ladder = Calibration.ladder(Self.request(targets: [0.3, 0.5, 0.7]), strategy: Self.strategy) { v, seed in
            Self.exact(0.1 + 0.8 * v, matches: seed == 6 ? 2000 : 1000)
        }
        #expect(ladder.levels.map(\.name) == ["level-1", "level-2", "level-3"])
        for level in ladder.levels {
            #expect(abs(level.value - (level.target - 0.1) / 0.8) < 0.002, "\(level)")
            #expect(abs(level.measurement.winRate - level.target) < 0.002)
            #expect(level.measurement.matches == 2000, "the final measurement, not the probe's")
            #expect(level.strategy == Self.strategy(level.value))
            #expect(!level.outOfRange)
        }
        #expect(ladder.warnings.isEmpty)
    }

    @Test("The search probes with the request's seed; each chosen value is measured once more with seed + 1 (wrapping)",
          arguments: [UInt64(5), UInt64.max])
    func seeds(seed: UInt64) {
        var calls: [(value: Double, seed: UInt64)] = []
        let ladder = Calibration.ladder(Self.request(targets: [0.3, 0.7], probes: 6, seed: seed), strategy: Self.strategy) { v, s in
            calls.append((v, s))
            return Self.exact(0.1 + 0.8 * v)
        }
        let finals = calls.filter { $0.seed == seed &+ 1 }
        #expect(calls.allSatisfy { $0.seed == seed || $0.seed == seed &+ 1 })
        #expect(calls.prefix(calls.count - finals.count).allSatisfy { $0.seed == seed }, "finals come after the search")
        #expect(finals.map(\.value) == ladder.levels.map(\.value))
    }

    @Test("Targets out of reach take the nearest end, are marked, and one value shared by two levels is measured once")
    func outOfReach() {
        // Win rate 0.2 + 0.6 v: 0.1 and 0.15 lie below the weak end, 0.9 above the strong one.
        var finals: [Double: Int] = [:]
        let ladder = Calibration.ladder(Self.request(targets: [0.1, 0.15, 0.9], probes: 4), strategy: Self.strategy) { v, seed in
            if seed == 6 { finals[v, default: 0] += 1 }
            return Self.exact(0.2 + 0.6 * v)
        }
        #expect(ladder.levels.map(\.value) == [0, 0, 1])
        #expect(ladder.levels.allSatisfy { $0.outOfRange })
        #expect(finals == [0: 1, 1: 1])
        #expect(ladder.table.dropFirst().allSatisfy { $0.hasSuffix("  (target out of range)") }, "\(ladder.table)")
        let notes = ladder.text.split(separator: "\n").filter { $0 == "    note: the target lies outside what noise in 0..1 reaches; this is the nearest end" }
        #expect(notes.count == 3, "\(ladder.text)")
        #expect(ladder.warnings == ["level-2 (0.2) is not stronger than level-1 (0.2); use more --matches, fewer targets or a wider --range"])
    }

    @Test("An integer knob is probed and written as integers")
    func integerKnob() {
        var probed: [Double] = []
        let ladder = Calibration.ladder(Self.request(targets: [0.25, 0.5], range: 1...64, integer: true),
                                        strategy: { "toy(noise=\(Calibration.knobText($0, integer: true)))" }) { v, _ in
            probed.append(v)
            return Self.exact(v / 64)
        }
        #expect(probed.allSatisfy { $0 == $0.rounded() }, "\(probed)")
        #expect(ladder.levels.map(\.value) == [16, 32])
        #expect(ladder.levels.map(\.strategy) == ["toy(noise=16)", "toy(noise=32)"])
    }

    @Test("A knob value is written as a spec writes it: integers without a point, numbers with at most 3 decimals")
    func knobText() {
        #expect(Calibration.knobText(16, integer: true) == "16")
        #expect(Calibration.knobText(0.125, integer: false) == "0.125")
        #expect(Calibration.knobText(1.0 / 3, integer: false) == "0.333")
        #expect(Calibration.knobText(2, integer: false) == "2")
        #expect(Calibration.knobText(-0.0001, integer: false) == "0")
    }

    @Test("Progress: the request, each measurement as it ends, then the final measurements' seed")
    func progressLines() {
        var lines: [String] = []
        _ = Calibration.ladder(Self.request(targets: [0.5], probes: 1), strategy: Self.strategy,
                               measure: { v, _ in Self.exact(0.2 + 0.6 * v) }, progress: { lines.append($0) })
        #expect(lines == [
            "calibrate toy: toy by noise in 0..1 against ref, targets 0.5",
            "  toy(noise=0): win rate 0.2 [0.19, 0.21] over 1000 matches",
            "  toy(noise=1): win rate 0.8 [0.79, 0.81] over 1000 matches",
            "  toy(noise=0.5): win rate 0.5 [0.49, 0.51] over 1000 matches",
            "final measurements (seed 6):",
            "  toy(noise=0.5): win rate 0.5 [0.49, 0.51] over 1000 matches",
        ])
    }

    @Test("A failed measurement ends the calibration at once with its error")
    func measurementErrorStops() {
        var calls = 0
        #expect(throws: InputError("--rule: no such knob")) {
            _ = try Calibration.ladder(Self.request(targets: [0.5]), strategy: Self.strategy) { v, _ throws(InputError) in
                calls += 1
                if calls == 3 { throw InputError("--rule: no such knob") }
                return Self.exact(0.2 + 0.6 * v)
            }
        }
        #expect(calls == 3)
    }

    @Test("Level names default to beginner ... expert for five targets, else level-1 ...")
    func defaultNames() {
        #expect(CalibrationRequest.defaultNames(count: 5) == ["beginner", "easy", "medium", "hard", "expert"])
        #expect(CalibrationRequest.defaultNames(count: 2) == ["level-1", "level-2"])
        #expect(CalibrationRequest.defaultNames(count: 0) == [])
    }

    @Test("--targets and --names: a target or a name given twice is refused (two levels would be one)")
    func duplicateLevels() throws {
        let levels = try CalibrationRequest.levels(targets: "0.5, 0.2", names: "easy,hard")
        #expect(levels.targets == [0.2, 0.5] && levels.names == ["easy", "hard"])
        #expect(try CalibrationRequest.levels(targets: "0.3", names: nil).names == ["level-1"])
        #expect(throws: InputError("--targets 0.5,0.5: 0.5 is given twice; expected win rates in (0, 1) separated by commas, each once")) {
            try CalibrationRequest.levels(targets: "0.5,0.5", names: nil)
        }
        #expect(throws: InputError("--targets 0.5,0.50: 0.50 is given twice; expected win rates in (0, 1) separated by commas, each once")) {
            try CalibrationRequest.levels(targets: "0.5,0.50", names: nil)
        }
        #expect(throws: InputError("--names a, a: 'a' is given twice; each level needs its own name")) {
            try CalibrationRequest.levels(targets: "0.2,0.5", names: "a, a")
        }
    }
}

@Suite("The ladder file")
struct LadderFileTests {
    /// Two levels: one measured as aimed, one out of reach whose `remeasure` is clipped at 1.
    static let ladder = CalibrationLadder(
        request: CalibrationRequest(game: "toy", family: "toy", knob: "noise", range: 0...1, rangeText: "0..1", integer: false,
                                    reference: "ref", targets: [0.3, 0.7], names: ["easy", "hard"], matches: 100, probes: 5, seed: 9,
                                    command: "oplab calibrate toy --family toy"),
        levels: [
            .init(name: "easy", target: 0.3, value: 0.75, strategy: "toy(noise=0.75)",
                  measurement: WinRateMeasurement(winRate: 0.3, low: 0.25, high: 0.35, matches: 100), outOfRange: false),
            .init(name: "hard", target: 0.7, value: 0, strategy: "toy(noise=0)",
                  measurement: WinRateMeasurement(winRate: 0.98, low: 0.95, high: 1, matches: 100), outOfRange: true),
        ])

    @Test("The YAML names the game, reference, command and seeds, then each level with its measurement")
    func text() {
        #expect(Self.ladder.text == """
            # Difficulty levels for toy, measured against `ref` (2 seats, seat-rotated).
            # Made by: oplab calibrate toy --family toy
            # Each level's win rate and its 95 % interval over seat-rotation blocks come from its own run of
            # 100 matches with seed 10 (the search used seed 9); `remeasure` is where a new run
            # of as many matches with another seed lands 95 % of the time (the noise of both runs).
            game: toy
            reference: "ref"
            seats: 2
            levels:
              - name: easy
                strategy: "toy(noise=0.75)"
                target: 0.3
                win_rate: 0.3
                interval: [0.25, 0.35]
                remeasure: [0.2293, 0.3707]
                matches: 100
              - name: hard
                strategy: "toy(noise=0)"
                target: 0.7
                win_rate: 0.98
                interval: [0.95, 1]
                remeasure: [0.9446, 1]
                matches: 100
                note: the target lies outside what noise in 0..1 reaches; this is the nearest end

            """)
    }

    @Test("remeasure is the rate ± √2 times the interval's half-width, clipped to 0...1")
    func remeasure() {
        let easy = Self.ladder.levels[0].remeasure
        #expect(abs(easy.lowerBound - (0.3 - 2.0.squareRoot() * 0.05)) < 1e-12)
        #expect(abs(easy.upperBound - (0.3 + 2.0.squareRoot() * 0.05)) < 1e-12)
        #expect(Self.ladder.levels[1].remeasure.upperBound == 1)
        let weak = CalibrationLadder.Level(name: "w", target: 0.1, value: 1, strategy: "w",
                                           measurement: WinRateMeasurement(winRate: 0.01, low: 0, high: 0.1, matches: 10), outOfRange: false)
        #expect(weak.remeasure.lowerBound == 0)
    }

    @Test("The table aligns name, target, strategy, win rate and interval, and marks targets out of range")
    func table() {
        #expect(Self.ladder.table == [
            "level     target  strategy                                  win rate  95 % interval",
            "easy      0.3     toy(noise=0.75)                           0.3       [0.25, 0.35]",
            "hard      0.7     toy(noise=0)                              0.98      [0.95, 1]  (target out of range)",
        ])
    }

    @Test("A long level name or strategy widens its column instead of being cut")
    func tableWidens() {
        var long = Self.ladder
        long.levels[0].name = "grandmaster"
        long.levels[1].strategy = "policy(model=/some/long/path/to/a/model/file.model, temperature=1.219)"
        let table = long.table
        #expect(table[1].hasPrefix("grandmaster  0.3     toy(noise=0.75)"), "\(table[1])")
        #expect(table[2].contains("temperature=1.219)  0.98"), "\(table[2])")
        // Every line's win rate starts in the header's column.
        let column = table[0].range(of: "win rate")!.lowerBound.utf16Offset(in: table[0])
        #expect(table[1].dropFirst(column).hasPrefix("0.3 ") && table[2].dropFirst(column).hasPrefix("0.98 "), "\(table)")
    }

    @Test("A level not stronger than the one below it is warned about; a rising ladder is not")
    func warnings() {
        #expect(Self.ladder.warnings.isEmpty)
        var flat = Self.ladder
        flat.levels[1].measurement.winRate = 0.3
        #expect(flat.warnings == ["hard (0.3) is not stronger than easy (0.3); use more --matches, fewer targets or a wider --range"])
    }

    @Test("write makes the missing folders and writes the text")
    func writes() throws {
        let root = ScriptedPlans.temporaryPath("ladder")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let path = root + "/difficulty/toy.yaml"
        try Self.ladder.write(to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == Self.ladder.text)
    }

    @Test("A ladder that cannot be written is an input error naming --out and the path")
    func unwritable() throws {
        let root = ScriptedPlans.temporaryPath("ladder")
        defer { try? FileManager.default.removeItem(atPath: root) }
        try "not a folder".write(toFile: root, atomically: true, encoding: .utf8)
        let path = root + "/toy.yaml"
        do {
            try Self.ladder.write(to: path)
            Issue.record("wrote under a file")
        } catch {
            #expect(error.message.hasPrefix("--out \(path): cannot write the ladder: "), "\(error.message)")
        }
    }
}

@Suite("Calibration by tournaments")
struct CalibrationTournamentTests {
    static let summaryHeader = "entrant,strategy,matches,blocks,wins,draws,losses,score,score_share,score_share_low,score_share_high,"
        + "win_rate,win_rate_low,win_rate_high,mean_place,mean_place_low,mean_place_high,rating,rating_low,rating_high,forfeits"

    @Test("A summary's level row gives the win rate, its interval over blocks and the matches")
    func readsTheLevelRow() throws {
        let path = ScriptedPlans.temporaryPath("summary") + ".csv"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try [Self.summaryHeader,
             "reference,\"mcts(c=1, iterations=5)\",40,20,10,0,30,10.0000,0.2500,0.2,0.3,0.2500,0.1500,0.3500,1.7500,1.7,1.8,0.0,0.0,0.0,0",
             "level,\"toy(noise=0.5)\",40,20,30,0,10,30.0000,0.7500,0.7,0.8,0.7500,0.6250,0.8500,1.2500,1.2,1.3,190.8,150.0,230.0,0",
        ].joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let m = try WinRateMeasurement(summary: path, entrant: "level")
        #expect(m == WinRateMeasurement(winRate: 0.75, low: 0.625, high: 0.85, matches: 40))
    }

    @Test("A summary without the file, the row or a column is an input error naming the file",
          arguments: ["missing", "no row", "no column"])
    func unreadableSummary(_ fault: String) throws {
        let path = ScriptedPlans.temporaryPath("summary") + ".csv"
        defer { try? FileManager.default.removeItem(atPath: path) }
        switch fault {
        case "no row":
            try [Self.summaryHeader, "reference,ref,40,20,10,0,30,10,0.25,0.2,0.3,0.25,0.15,0.35,1.75,1.7,1.8,0,0,0,0"]
                .joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        case "no column":
            try ["entrant,strategy,matches,win_rate,win_rate_high", "level,toy,40,0.75,0.85"]
                .joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        default:
            break
        }
        let expected = fault == "missing" ? InputError("cannot read \(path)")
            : InputError("\(path): no row for the level with matches and win_rate columns")
        #expect(throws: expected) { try WinRateMeasurement(summary: path, entrant: "level") }
    }

    @Test("A probe's config: the level against the reference, 2 seats, seat-rotated, the matches rounded up to blocks of 2")
    func probeConfig() {
        let config = Calibration.config(game: "toy", rules: [RuleSetting(key: "size", value: "3")], map: "m.json", strategy: "toy(noise=1)",
                                        reference: "ref", matches: 7, seed: 11, threads: 2)
        #expect(config == TournamentConfig(name: "calibrate", game: "toy", rules: [RuleSetting(key: "size", value: "3")], map: "m.json", seats: 2,
                                           entrants: [Entrant(name: "level", strategy: "toy(noise=1)"), Entrant(name: "reference", strategy: "ref")],
                                           format: .roundRobin, blocks: 4, seed: 11, threads: 2))
    }

    @Test("measure runs the plan into the folder, replacing the run there, and reads the level's rate back")
    func measureByTournament() throws {
        try Calibration.withScratchFolder { folder in
            let config = Calibration.config(game: "toy", rules: [], map: nil, strategy: "a", reference: "b", matches: 20, seed: 1, threads: 1)
            // The level wins 3 matches in 4, then (the same folder again) 1 in 4.
            let first = try Calibration.measure(try ScriptedPlans.headToHead(config) { $0 % 4 != 0 }, in: folder, threads: 1)
            #expect(first.winRate == 0.75 && first.matches == 20 && first.low <= 0.75 && first.high >= 0.75)
            let second = try Calibration.measure(try ScriptedPlans.headToHead(config) { $0 % 4 == 0 }, in: folder, threads: 2)
            #expect(second.winRate == 0.25 && second.matches == 20)
        }
    }

    @Test("The scratch folder is removed when the body ends, and when it throws")
    func scratchFolderRemoved() {
        let kept = Calibration.withScratchFolder { folder in
            try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            return folder
        }
        #expect(!FileManager.default.fileExists(atPath: kept))
        var thrownFrom = ""
        #expect(throws: InputError("stop")) {
            try Calibration.withScratchFolder { folder throws(InputError) in
                try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                thrownFrom = folder
                throw InputError("stop")
            }
        }
        #expect(!thrownFrom.isEmpty && !FileManager.default.fileExists(atPath: thrownFrom))
    }

    @Test("A whole ladder from scripted tournaments: each level's final run measures its target")
    func ladderFromTournaments() throws {
        // At knob value v the level wins the matches whose number ends in a digit below
        // 10 v: a win rate of v in tenths over 20 matches.
        let request = CalibrationRequest(game: "toy", family: "toy", knob: "noise", range: 0...1, rangeText: "0..1", integer: false,
                                         reference: "ref", targets: [0.3, 0.7], names: ["easy", "hard"], matches: 20, probes: 6, seed: 3,
                                         command: "oplab calibrate toy")
        let ladder = try Calibration.withScratchFolder { folder throws(InputError) in
            try Calibration.ladder(request, strategy: { "toy(noise=\(Calibration.knobText($0, integer: false)))" }) { v, seed throws(InputError) in
                let config = Calibration.config(game: "toy", rules: [], map: nil, strategy: "toy", reference: "ref", matches: 20,
                                                seed: seed, threads: 1)
                let tenths = Int((v * 10).rounded(.down))
                return try Calibration.measure(ScriptedPlans.headToHead(config) { $0 % 10 < tenths }, in: folder, threads: 1)
            }
        }
        #expect(ladder.levels.map(\.measurement.winRate) == [0.3, 0.7], "\(ladder.levels)")
        #expect(ladder.levels.allSatisfy { $0.measurement.matches == 20 && !$0.outOfRange })
        #expect(ladder.levels.map { Int(($0.value * 10).rounded(.down)) } == [3, 7])
    }
}
