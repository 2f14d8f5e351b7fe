import Foundation
import LabCore

/// Simultaneous perturbation stochastic approximation, as fishtest tunes engines: each
/// iteration probes the current point `theta` at `theta + c_k * flip` and
/// `theta - c_k * flip` (one random sign per parameter), and steps every parameter along
/// the one gradient estimate those two scores give.
///
/// The tuner **maximizes** a score (a score share, say). A `target=P` objective (a level
/// that should score P, not as much as possible) maps onto it by measuring
/// `-abs(s - P)` for a measured share `s`.
///
/// Step sizes are in fractions of each parameter's range (`high - low`), so one `a` and
/// one `c` serve parameters of any scale: fishtest's per-parameter `c` is `c * width`.
/// Every draw comes from a ``LabRandom`` seeded from (seed, iteration): the same seed and
/// scores give the same trajectory.
public struct SPSA: Sendable {
    /// The gain schedule: `a_k = a / (A + k + 1)^alpha`, `c_k = c / (k + 1)^gamma` for
    /// iteration `k` counted from 0.
    public struct Settings: Sendable, Equatable {
        /// Iterations (each two measurements).
        public var iterations: Int
        /// The step gain, in fractions of a range per unit of score difference per unit
        /// of perturbation: a step moves a parameter by `a_k * (s+ - s-) / (2 c_k)` of its
        /// range. Default 1.
        public var a: Double
        /// The perturbation at the first iteration, as a fraction of each range. Default 0.2
        /// (0.12 after 200 iterations).
        public var c: Double
        /// The stability constant `A`; `nil` takes 10 % of the iterations (fishtest's habit).
        public var stability: Double?
        /// The step decay exponent; default 0.602 (Spall's, fishtest's).
        public var alpha: Double
        /// The perturbation decay exponent; default 0.101 (Spall's, fishtest's).
        public var gamma: Double

        public init(iterations: Int = 200, a: Double = 1, c: Double = 0.2, stability: Double? = nil,
                    alpha: Double = 0.602, gamma: Double = 0.101) {
            self.iterations = iterations
            self.a = a
            self.c = c
            self.stability = stability
            self.alpha = alpha
            self.gamma = gamma
        }

        /// `A` as used: ``stability``, or 10 % of the iterations.
        public var bigA: Double { stability ?? Double(iterations) / 10 }

        func validate() throws(InputError) {
            guard iterations >= 1 else { throw InputError("SPSA iterations must be at least 1, found \(iterations)") }
            guard a.isFinite, a > 0 else { throw InputError("SPSA a must be a positive number, found \(a)") }
            guard c.isFinite, c > 0, c <= 0.5 else { throw InputError("SPSA c must be in (0, 0.5] (a fraction of each range), found \(c)") }
            guard bigA.isFinite, bigA >= 0 else { throw InputError("SPSA A must be a number >= 0, found \(bigA)") }
            guard alpha.isFinite, alpha > 0 else { throw InputError("SPSA alpha must be a positive number, found \(alpha)") }
            guard gamma.isFinite, gamma >= 0 else { throw InputError("SPSA gamma must be a number >= 0, found \(gamma)") }
        }
    }

    /// One iteration.
    public struct Step: Sendable, Equatable {
        /// 1 for the first iteration.
        public var iteration: Int
        /// The gains used, `a_k` and `c_k`.
        public var a: Double
        public var c: Double
        /// The sign of each parameter's perturbation.
        public var flip: [Double]
        /// The probes measured (clamped; integers rounded stochastically).
        public var plus: [Double]
        public var minus: [Double]
        public var scorePlus: Double
        public var scoreMinus: Double
        /// `theta` after the step (real-valued, clamped). Unchanged when a score was not finite.
        public var theta: [Double]
    }

    /// A run's trajectory and where it ended.
    public struct Result: Sendable, Equatable {
        public var steps: [Step]
        /// The last `theta`, real-valued.
        public var theta: [Double]
        /// The tuned values: `theta` with integer parameters rounded to the nearest whole number.
        public var final: [Double]
        /// One `tuning.csv` record per step: `theta` after it, two measurements per
        /// iteration, the mean of the two scores.
        public var records: [TuningRecord]
    }

    public let parameters: [TuningParameter]
    public let start: [Double]
    public let settings: Settings
    public let seed: UInt64

    /// - Throws: ``InputError`` for no or repeated parameters, a start point that does
    ///   not fit them, or settings out of range.
    public init(parameters: [TuningParameter], start: [Double], settings: Settings = Settings(), seed: UInt64) throws(InputError) {
        try parameters.validate()
        try parameters.validate(point: start, field: "start")
        try settings.validate()
        self.parameters = parameters
        self.start = start
        self.settings = settings
        self.seed = seed
    }

    /// The gains of iteration `k` (from 0): `a_k = a / (A + k + 1)^alpha`,
    /// `c_k = c / (k + 1)^gamma`.
    public func gains(_ k: Int) -> (a: Double, c: Double) {
        let s = settings
        return (s.a / pow(s.bigA + Double(k) + 1, s.alpha), s.c / pow(Double(k) + 1, s.gamma))
    }

    /// Runs all iterations.
    ///
    /// Iteration `k` draws from `LabRandom(seed: Seeds.derive(seed, k, auxiliary))`:
    /// the flips, then the stochastic roundings of the plus probe and the minus probe.
    /// Each parameter moves by `a_k * (s+ - s-) / (2 c_k) * flip * width` and is clamped
    /// to its range. An iteration whose scores are not both finite leaves `theta` as it was.
    /// - Parameter measure: scores the two probes of iteration `iteration` (1-based); in
    ///   the lab, a seat-rotated block set of matches at each.
    /// - Throws: what `measure` throws, at once.
    /// - Complexity: O(iterations × parameters) besides the measurements.
    public func run<E: Error>(measure: (_ plus: [Double], _ minus: [Double], _ iteration: Int) throws(E) -> (plus: Double, minus: Double))
        throws(E) -> Result {
        var theta = start
        var steps: [Step] = []
        steps.reserveCapacity(settings.iterations)
        for k in 0..<settings.iterations {
            var random = LabRandom(seed: Seeds.derive(seed, UInt64(k), SeedPurpose.auxiliary.rawValue))
            let (ak, ck) = gains(k)
            let flip = parameters.map { _ in random.next() & 1 == 0 ? 1.0 : -1.0 }
            var plus: [Double] = [], minus: [Double] = []
            for (i, p) in parameters.enumerated() {
                plus.append(p.probe(theta[i] + ck * flip[i] * p.width, random: &random))
            }
            for (i, p) in parameters.enumerated() {
                minus.append(p.probe(theta[i] - ck * flip[i] * p.width, random: &random))
            }
            let scores = try measure(plus, minus, k + 1)
            let difference = scores.plus - scores.minus
            if difference.isFinite {
                for (i, p) in parameters.enumerated() {
                    theta[i] = p.clamp(theta[i] + ak * difference / (2 * ck) * flip[i] * p.width)
                }
            }
            steps.append(Step(iteration: k + 1, a: ak, c: ck, flip: flip, plus: plus, minus: minus,
                              scorePlus: scores.plus, scoreMinus: scores.minus, theta: theta))
        }
        let final = zip(parameters, theta).map { p, v in p.integer ? p.clamp(v.rounded()) : v }
        let records = steps.map {
            TuningRecord(iteration: $0.iteration, point: $0.theta, measurements: 2 * $0.iteration, score: ($0.scorePlus + $0.scoreMinus) / 2)
        }
        return Result(steps: steps, theta: theta, final: final, records: records)
    }
}
