import Foundation
import LabCore

/// What a calibration is asked: a strategy family turned by one numeric knob, measured
/// against a reference, and the win rates its levels should reach.
///
/// The texts (`family`, `reference`, `rangeText`, `command`) are recorded as given: the
/// ladder file and the progress lines quote them.
public struct CalibrationRequest: Sendable, Equatable {
    /// The game's name, for the ladder's `game:`.
    public var game: String
    /// The family's strategy spec without the knob, e.g. `reference` or `mcts(rolloutDepth=0)`.
    public var family: String
    /// The parameter turned, e.g. `epsilon`.
    public var knob: String
    /// The knob's range; both ends are measured first.
    public var range: ClosedRange<Double>
    /// The range as the user wrote it (`0..1`), for the progress lines and the ladder's notes.
    public var rangeText: String
    /// Whether the knob takes integers only (every probe is rounded).
    public var integer: Bool
    /// The strategy spec the win rates are measured against.
    public var reference: String
    /// Target win rates, each in (0, 1), in ascending order: the levels, weakest first.
    public var targets: [Double]
    /// One name per target (``defaultNames(count:)`` when the user gives none).
    public var names: [String]
    /// Matches per probe and for each level's final measurement.
    public var matches: Int
    /// Bisection steps per target at most.
    public var probes: Int
    /// The probes' master seed; the final measurements use `seed &+ 1`.
    public var seed: UInt64
    /// How the ladder was made, for its header (`oplab calibrate GAME --family ...`).
    public var command: String

    public init(game: String, family: String, knob: String, range: ClosedRange<Double>, rangeText: String, integer: Bool,
                reference: String, targets: [Double], names: [String], matches: Int, probes: Int, seed: UInt64, command: String) {
        precondition(names.count == targets.count, "one level name per target")
        self.game = game
        self.family = family
        self.knob = knob
        self.range = range
        self.rangeText = rangeText
        self.integer = integer
        self.reference = reference
        self.targets = targets
        self.names = names
        self.matches = matches
        self.probes = probes
        self.seed = seed
        self.command = command
    }

    /// The level names when none are given: beginner, easy, medium, hard, expert for five
    /// targets, else `level-1`, `level-2`, ...
    public static func defaultNames(count: Int) -> [String] {
        count == 5 ? ["beginner", "easy", "medium", "hard", "expert"] : (0..<count).map { "level-\($0 + 1)" }
    }

    /// The levels `--targets` and `--names` ask for: the targets in ascending order (each
    /// in (0, 1), none twice) and one name per target in the order given (none twice;
    /// ``defaultNames(count:)`` without `names`).
    /// - Throws: ``InputError`` naming the flag, what it holds and what is accepted.
    public static func levels(targets: String, names: String?) throws(InputError) -> (targets: [Double], names: [String]) {
        let accepted = "expected win rates in (0, 1) separated by commas, each once"
        var list: [Double] = []
        for part in targets.split(separator: ",") {
            guard let t = Double(String(part).trimmingSpaces), t > 0, t < 1 else {
                throw InputError("--targets \(targets.excerpt()): \(accepted)")
            }
            if list.contains(t) {
                throw InputError("--targets \(targets.excerpt()): \(String(part).trimmingSpaces.excerpt()) is given twice; \(accepted)")
            }
            list.append(t)
        }
        guard !list.isEmpty else { throw InputError("--targets \(targets.excerpt()): \(accepted)") }
        list.sort()
        guard let names else { return (list, defaultNames(count: list.count)) }
        let given = names.split(separator: ",").map { String($0).trimmingSpaces }
        guard given.count == list.count, given.allSatisfy({ !$0.isEmpty }) else {
            throw InputError("--names \(names.excerpt()): expected \(list.count) names, one per target")
        }
        for (i, name) in given.enumerated() where given[..<i].contains(name) {
            throw InputError("--names \(names.excerpt()): '\(name.excerpt())' is given twice; each level needs its own name")
        }
        return (list, given)
    }
}

/// A difficulty ladder: one level per target, each with its strategy and its final
/// measurement; ``text`` is the ladder file, ``table`` the lines a user reads.
public struct CalibrationLadder: Sendable, Equatable {
    /// One rung of the ladder.
    public struct Level: Sendable, Equatable {
        public var name: String
        public var target: Double
        /// The knob value chosen (a probed one).
        public var value: Double
        /// The family's strategy spec at ``value``.
        public var strategy: String
        /// The final measurement, with the seed after the search's.
        public var measurement: WinRateMeasurement
        /// The target lies outside what the knob's range reaches: the nearest end was taken.
        public var outOfRange: Bool

        /// Where a new run of as many matches with another seed lands 95 % of the time:
        /// both runs' noise, √2 times one run's, whose 95 % half-width is half the interval
        /// over blocks; clipped to 0...1.
        public var remeasure: ClosedRange<Double> {
            let m = measurement
            let spread = 2.0.squareRoot() * (m.high - m.low) / 2
            return max(0, m.winRate - spread)...min(1, m.winRate + spread)
        }
    }

    public var request: CalibrationRequest
    /// In the order of the request's targets (weakest first).
    public var levels: [Level]

    public init(request: CalibrationRequest, levels: [Level]) {
        self.request = request
        self.levels = levels
    }

    /// The ladder file (YAML), each level with its strategy spec, target, measured win
    /// rate, 95 % interval, `remeasure` range and match count.
    public var text: String {
        let r = request
        var lines = [
            "# Difficulty levels for \(r.game), measured against `\(r.reference)` (2 seats, seat-rotated).",
            "# Made by: \(r.command)",
            "# Each level's win rate and its 95 % interval over seat-rotation blocks come from its own run of",
            "# \(r.matches) matches with seed \(r.seed &+ 1) (the search used seed \(r.seed)); `remeasure` is where a new run",
            "# of as many matches with another seed lands 95 % of the time (the noise of both runs).",
            "game: \(r.game)",
            "reference: \"\(r.reference)\"",
            "seats: 2",
            "levels:",
        ]
        for level in levels {
            let m = level.measurement
            lines += [
                "  - name: \(level.name)",
                "    strategy: \"\(level.strategy)\"",
                "    target: \(Calibration.number(level.target))",
                "    win_rate: \(Calibration.number(m.winRate, 4))",
                "    interval: [\(Calibration.number(m.low, 4)), \(Calibration.number(m.high, 4))]",
                "    remeasure: [\(Calibration.number(level.remeasure.lowerBound, 4)), \(Calibration.number(level.remeasure.upperBound, 4))]",
                "    matches: \(m.matches)",
            ] + (level.outOfRange ? ["    note: the target lies outside what \(r.knob) in \(r.rangeText) reaches; this is the nearest end"] : [])
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The ladder as an aligned table: a header, then one line per level. The name and
    /// strategy columns widen for a long name or spec (never cut).
    public var table: [String] {
        let nameWidth = max(10, (levels.map(\.name.count).max() ?? 0) + 2)
        let strategyWidth = max(42, (levels.map(\.strategy.count).max() ?? 0) + 2)
        func pad(_ text: String, _ width: Int) -> String { text.padding(toLength: width, withPad: " ", startingAt: 0) }
        var table = [pad("level", nameWidth) + "target  " + pad("strategy", strategyWidth) + "win rate  95 % interval"]
        for level in levels {
            let m = level.measurement
            table.append(pad(level.name, nameWidth) + pad(Calibration.number(level.target, 2), 8) + pad(level.strategy, strategyWidth)
                         + pad(Calibration.number(m.winRate, 4), 10)
                         + "[\(Calibration.number(m.low, 4)), \(Calibration.number(m.high, 4))]" + (level.outOfRange ? "  (target out of range)" : ""))
        }
        return table
    }

    /// A ladder must get stronger level by level: one warning for each level whose
    /// measured win rate is not above the one before it.
    public var warnings: [String] {
        var warnings: [String] = []
        for (below, level) in zip(levels, levels.dropFirst()) where level.measurement.winRate <= below.measurement.winRate {
            warnings.append("\(level.name) (\(Calibration.number(level.measurement.winRate, 4))) is not stronger than \(below.name) "
                            + "(\(Calibration.number(below.measurement.winRate, 4))); use more --matches, fewer targets or a wider --range")
        }
        return warnings
    }

    /// Writes ``text`` to `path` (atomically: a reader never sees half a ladder); the
    /// folder is made when missing.
    /// - Throws: ``InputError`` naming `--out` and the path.
    public func write(to path: String) throws(InputError) {
        let folder = PathText.parent(of: path)
        do {
            if !folder.isEmpty { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            throw InputError("--out \(path): cannot write the ladder: \(Files.reason(error))")
        }
    }
}

extension Calibration {
    /// Calibrates a strategy family: finds, for each target, the knob value whose win rate
    /// comes closest (``search(targets:range:integer:probes:measure:)``, every probe with
    /// the request's seed), then measures each chosen value once more with the next seed;
    /// those final measurements are the ladder's.
    ///
    /// - Parameters:
    ///   - strategy: the family's strategy spec at a knob value (for the ladder and the
    ///     progress lines).
    ///   - measure: plays the family at a knob value against the reference with the given
    ///     master seed, `matches` 2-seat seat-rotated matches (``measure(_:in:threads:)``
    ///     does it by a tournament). Called once per distinct value and seed.
    ///   - progress: a line for the user as each stage starts and each measurement ends.
    /// - Throws: what `measure` throws, at once.
    public static func ladder<E: Error>(_ request: CalibrationRequest, strategy: (Double) -> String,
                                        measure: (_ value: Double, _ seed: UInt64) throws(E) -> WinRateMeasurement,
                                        progress: (String) -> Void = { _ in }) throws(E) -> CalibrationLadder {
        func measured(_ value: Double, seed: UInt64) throws(E) -> WinRateMeasurement {
            let m = try measure(value, seed)
            progress("  \(strategy(value)): win rate \(number(m.winRate, 3)) [\(number(m.low, 3)), \(number(m.high, 3))] over \(m.matches) matches")
            return m
        }
        progress("calibrate \(request.game): \(request.family) by \(request.knob) in \(request.rangeText) against \(request.reference), "
                 + "targets \(request.targets.map { number($0) }.joined(separator: ", "))")
        let found = try search(targets: request.targets, range: request.range, integer: request.integer, probes: request.probes) {
            value throws(E) in try measured(value, seed: request.seed)
        }
        let finalSeed = request.seed &+ 1
        progress("final measurements (seed \(finalSeed)):")
        // Two targets out of reach can share an end: measure each value once.
        var finals: [Double: WinRateMeasurement] = [:]
        var levels: [CalibrationLadder.Level] = []
        for (k, level) in found.enumerated() {
            let m: WinRateMeasurement
            if let known = finals[level.value] {
                m = known
            } else {
                m = try measured(level.value, seed: finalSeed)
                finals[level.value] = m
            }
            levels.append(.init(name: request.names[k], target: level.target, value: level.value, strategy: strategy(level.value),
                                measurement: m, outOfRange: level.outOfRange))
        }
        return CalibrationLadder(request: request, levels: levels)
    }

    /// A knob value as a strategy spec writes it: an integer knob's without a decimal
    /// point, a number's with up to 3 decimals and no trailing zeros.
    public static func knobText(_ value: Double, integer: Bool) -> String {
        integer ? String(Int(value)) : number(value)
    }

    /// `x` with up to `digits` decimals and no trailing zeros ("0.875", "1", "0").
    static func number(_ x: Double, _ digits: Int = 3) -> String {
        var s = String(format: "%.\(digits)f", x)
        while s.contains(".") && (s.hasSuffix("0") || s.hasSuffix(".")) { s.removeLast() }
        return s == "-0" ? "0" : s
    }
}
