import Foundation
import LabCore

/// One tuned parameter: a name, a closed range and how its values are spaced.
///
/// SPSA moves the parameter continuously inside `low...high` (rounding integers
/// stochastically at each probe); NTBEA searches the discrete ``grid``
/// `low, low + step, ..., high`.
public struct TuningParameter: Sendable, Equatable {
    /// The name, as the strategy spec and the `tuning.csv` header spell it.
    public let name: String
    public let low: Double
    public let high: Double
    /// The grid spacing; `nil` for a real parameter with no grid (SPSA only).
    public let step: Double?
    /// The parameter takes whole numbers only: SPSA rounds each probe stochastically,
    /// the grid's step is a whole number (1 unless given).
    public let integer: Bool

    /// - Parameters:
    ///   - step: the grid spacing; it must divide `high - low` into whole steps. An
    ///     integer parameter's step defaults to 1 and must be whole.
    /// - Throws: ``InputError`` naming the parameter, the field that is wrong and what
    ///   would be accepted: an empty or unsafe name, a non-finite bound, `low >= high`,
    ///   non-whole bounds of an integer parameter, a step that is non-finite, not positive,
    ///   wider than the range, not whole for an integer, or not dividing the range.
    public init(name: String, low: Double, high: Double, step: Double? = nil, integer: Bool = false) throws(InputError) {
        let forbidden = CharacterSet(charactersIn: ",\"=\n\r\t ")
        guard !name.isEmpty, name.rangeOfCharacter(from: forbidden) == nil else {
            throw InputError("tuning parameter '\(name)': the name must be non-empty, without spaces, commas, quotes or '='")
        }
        guard low.isFinite, high.isFinite else {
            throw InputError("tuning parameter \(name): LOW and HIGH must be finite numbers, found \(low)..\(high)")
        }
        guard low < high else {
            throw InputError("tuning parameter \(name): LOW must be below HIGH, found \(low)..\(high)")
        }
        if integer, low.rounded() != low || high.rounded() != high {
            throw InputError("tuning parameter \(name): an integer parameter needs whole LOW and HIGH, found \(low)..\(high)")
        }
        let spacing = step ?? (integer ? 1 : nil)
        if let s = spacing {
            guard s.isFinite, s > 0 else {
                throw InputError("tuning parameter \(name): the step must be a positive finite number, found \(s)")
            }
            guard s <= high - low else {
                throw InputError("tuning parameter \(name): the step \(s) is wider than the range \(low)..\(high)")
            }
            if integer, s.rounded() != s {
                throw InputError("tuning parameter \(name): an integer parameter needs a whole step, found \(s)")
            }
            let count = (high - low) / s
            guard abs(count - count.rounded()) <= 1e-9 * max(1, count) else {
                throw InputError("tuning parameter \(name): the step \(s) does not divide \(low)..\(high) into whole steps "
                                 + "(\(Calibration.number(count, 4)) steps); use a step that divides HIGH - LOW")
            }
            guard count.rounded() <= Double(Self.maximumGridSize - 1) else {
                throw InputError("tuning parameter \(name): the step \(s) makes \(count < 1e15 ? String(Int(count.rounded()) + 1) : "more than 10^15") grid points; "
                                 + "at most \(Self.maximumGridSize) are accepted, use a wider step")
            }
        }
        self.name = name
        self.low = low
        self.high = high
        self.step = spacing
        self.integer = integer
    }

    /// The largest grid a parameter may have.
    public static let maximumGridSize = 10_000

    /// The width of the range, `high - low`.
    public var width: Double { high - low }

    /// The discrete values NTBEA searches, `low` first and `high` exactly last; `nil`
    /// when the parameter has no step.
    public var grid: [Double]? {
        guard let step else { return nil }
        let count = Int(((high - low) / step).rounded())
        return (0...count).map { $0 == count ? high : low + Double($0) * step }
    }

    /// `value` clamped to `low...high`.
    public func clamp(_ value: Double) -> Double { min(high, max(low, value)) }

    /// `value` clamped, and for an integer parameter rounded stochastically: up with the
    /// probability of its fractional part, so the mean of many roundings is `value`
    /// (fishtest's rounding of SPSA probes). Draws one number from `random` for an
    /// integer parameter, none otherwise.
    public func probe(_ value: Double, random: inout LabRandom) -> Double {
        let v = clamp(value)
        guard integer else { return v }
        let floor = v.rounded(.down)
        let rounded = random.unit() < v - floor ? floor + 1 : floor
        return clamp(rounded)
    }
}

extension Array where Element == TuningParameter {
    /// Checks a parameter list for a tuning run: at least one, names distinct.
    func validate() throws(InputError) {
        guard !isEmpty else { throw InputError("tuning needs at least one parameter") }
        var seen = Set<String>()
        for p in self where !seen.insert(p.name).inserted {
            throw InputError("tuning parameter \(p.name) is given twice; each parameter may appear once")
        }
    }

    /// Checks that `point` has one value per parameter, each finite and in its range.
    func validate(point: [Double], field: String) throws(InputError) {
        guard point.count == count else {
            throw InputError("the \(field) point has \(point.count) values; expected one per parameter (\(count): \(map(\.name).joined(separator: ", ")))")
        }
        for (p, v) in zip(self, point) where !(v.isFinite && v >= p.low && v <= p.high) {
            throw InputError("the \(field) value of \(p.name) is \(v); expected a number in \(p.low)..\(p.high)")
        }
    }
}

extension TuningParameter {
    /// `value` as a strategy spec and `tuning.csv` write it: an integer parameter's as a
    /// whole number, a real one's with up to 6 decimals and no trailing zeros.
    public func text(_ value: Double) -> String {
        integer ? String(Int(value.rounded())) : Calibration.number(value, 6)
    }
}
