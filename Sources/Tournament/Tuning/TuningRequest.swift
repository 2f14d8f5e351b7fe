import Foundation
import LabCore

/// What a tuning maximizes: the candidate's score share against the field, or closeness
/// to a target share (a difficulty level).
public enum TuningObjective: Sendable, Equatable, CustomStringConvertible {
    /// As strong as possible: the objective is the score share itself.
    case max
    /// A level that scores `P` against the field: the objective is `-abs(share - P)`.
    case target(Double)

    /// Reads `max` or `target=P` with P in (0, 1).
    /// - Throws: ``InputError`` naming `--objective` and what is accepted.
    public init(parsing text: String) throws(InputError) {
        let accepted = "expected max or target=P with P in (0, 1), e.g. target=0.3"
        if text == "max" {
            self = .max
            return
        }
        guard text.hasPrefix("target=") else { throw InputError("--objective \(text): \(accepted)") }
        let value = text.dropFirst("target=".count)
        guard let p = Double(value), p.isFinite else { throw InputError("--objective \(text): '\(value)' is not a number; \(accepted)") }
        guard p > 0, p < 1 else { throw InputError("--objective \(text): the target \(value) is outside (0, 1); \(accepted)") }
        self = .target(p)
    }

    /// The value the tuners maximize for a measured score share.
    public func value(share: Double) -> Double {
        switch self {
        case .max: share
        case .target(let p): -abs(share - p)
        }
    }

    /// `max` or `target=0.3`.
    public var description: String {
        switch self {
        case .max: "max"
        case .target(let p): "target=\(Calibration.number(p, 6))"
        }
    }
}

/// The search a tuning runs, with its settings.
public enum TuningMethod: Sendable, Equatable {
    case spsa(SPSA.Settings)
    case ntbea(NTBEA.Settings)

    /// `spsa` or `ntbea`.
    public var name: String {
        switch self {
        case .spsa: "spsa"
        case .ntbea: "ntbea"
        }
    }

    /// The method and its settings in words (`spsa a=1 c=0.2 A=auto alpha=0.602 gamma=0.101`),
    /// the iterations left out (the budget sets them).
    public var settingsText: String {
        switch self {
        case .spsa(let s):
            "spsa a=\(s.a) c=\(s.c) A=\(s.stability.map { "\($0)" } ?? "auto") alpha=\(s.alpha) gamma=\(s.gamma)"
        case .ntbea(let s):
            "ntbea neighbours=\(s.neighbours) mutations=\(s.mutations) k=\(s.k) epsilon=\(s.epsilon) finalists=\(s.finalists)"
        }
    }

    /// Measurements per iteration: SPSA measures two probes, NTBEA one point.
    public var measurementsPerIteration: Int {
        switch self {
        case .spsa: 2
        case .ntbea: 1
        }
    }
}

/// One tuning: a strategy with some numeric parameters, a field to measure it against,
/// the search and how many matches it may play.
///
/// A *measurement* plays the candidate (the strategy at one point) in a gauntlet
/// against every field spec, ``blocks`` seat-rotated 2-seat blocks per opponent, with a
/// seed derived from (``seed``, measurement number); its score share is the candidate's
/// mean score over those matches (1 a win, 1/2 a shared first place, 0 a loss).
public struct TuningRequest: Sendable, Equatable {
    /// The game's name.
    public var game: String
    public var rules: [RuleSetting]
    public var map: String?
    /// The strategy spec tuned, as given (its tuned parameters are replaced at each point).
    public var strategy: String
    /// The strategy spec the tuning starts from (``strategy`` at ``start``).
    public var startSpec: String
    public var parameters: [TuningParameter]
    /// The first point: the strategy's values of the tuned parameters (given or default).
    public var start: [Double]
    /// The strategy specs the candidate plays against.
    public var field: [String]
    public var method: TuningMethod
    public var objective: TuningObjective
    /// Matches the search may play (the verification is extra).
    public var budget: Int
    /// Seat-rotated blocks per field spec in one measurement.
    public var blocks: Int
    /// Matches of each verification tournament.
    public var verifyMatches: Int
    public var seed: UInt64
    /// How the tuning was asked for (`oplab tune GAME ...`), for tuned.yaml.
    public var command: String

    public init(game: String, rules: [RuleSetting], map: String?, strategy: String, startSpec: String, parameters: [TuningParameter],
                start: [Double], field: [String], method: TuningMethod, objective: TuningObjective, budget: Int, blocks: Int,
                verifyMatches: Int, seed: UInt64, command: String) {
        self.game = game
        self.rules = rules
        self.map = map
        self.strategy = strategy
        self.startSpec = startSpec
        self.parameters = parameters
        self.start = start
        self.field = field
        self.method = method
        self.objective = objective
        self.budget = budget
        self.blocks = blocks
        self.verifyMatches = verifyMatches
        self.seed = seed
        self.command = command
    }

    /// Matches in one measurement: 2 per block, per field spec.
    public var matchesPerMeasurement: Int { 2 * blocks * field.count }

    /// NTBEA's final stage: the finalists (the points its model rates best) and the
    /// measurements of each, paid from a fifth of the budget; none for SPSA, or when a
    /// fifth of the budget does not pay for one measurement of each finalist.
    public var final: (finalists: Int, measurements: Int) {
        guard case .ntbea(let s) = method, s.finalists > 1 else { return (1, 0) }
        let each = budget / 5 / (matchesPerMeasurement * s.finalists)
        return each >= 1 ? (s.finalists, each) : (1, 0)
    }

    /// Search iterations the budget pays for (besides the final stage): whole iterations
    /// of the method's measurements.
    public var iterations: Int {
        (budget - final.finalists * final.measurements * matchesPerMeasurement) / (matchesPerMeasurement * method.measurementsPerIteration)
    }

    /// Measurements in all: the search's and the final stage's.
    public var measurements: Int { iterations * method.measurementsPerIteration + final.finalists * final.measurements }

    /// Checks what the tuners cannot: a budget that pays for at least one iteration.
    /// - Throws: ``InputError`` naming `--budget`, `--blocks` or `--verify-matches`.
    public func check() throws(InputError) {
        guard blocks >= 1 else { throw InputError("--blocks \(blocks): expected at least 1 block per opponent per measurement") }
        guard !field.isEmpty else { throw InputError("--against: at least one strategy to measure against is needed") }
        let perIteration = matchesPerMeasurement * method.measurementsPerIteration
        guard budget >= perIteration else {
            throw InputError("--budget \(budget): one \(method.name) iteration plays \(perIteration) matches "
                + "(\(method.measurementsPerIteration) measurement\(method.measurementsPerIteration == 1 ? "" : "s") x \(blocks) blocks x 2 seats "
                + "x \(field.count) opponent\(field.count == 1 ? "" : "s")); expected a budget of at least \(perIteration)")
        }
        guard verifyMatches >= 2 else { throw InputError("--verify-matches \(verifyMatches): expected at least 2") }
    }

    /// The seed of measurement `n` (from 0): SPSA's two probes of one iteration share
    /// their deals (common random numbers), so they share a seed.
    func measurementSeed(iteration: Int) -> UInt64 {
        Seeds.derive(seed, UInt64(iteration), SeedPurpose.auxiliary.rawValue, 1)
    }

    /// The seed of the verification tournaments.
    public var verificationSeed: UInt64 { seed &+ 1 }
}
