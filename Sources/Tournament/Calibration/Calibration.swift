/// A measured win rate with its 95 % interval.
public struct WinRateMeasurement: Sendable, Equatable {
    public var winRate: Double
    public var low: Double
    public var high: Double
    public var matches: Int

    public init(winRate: Double, low: Double, high: Double, matches: Int) {
        self.winRate = winRate
        self.low = low
        self.high = high
        self.matches = matches
    }
}

/// The knob value chosen for one target win rate.
public struct CalibratedLevel: Sendable, Equatable {
    public var target: Double
    public var value: Double
    public var measurement: WinRateMeasurement
    /// The target lies outside what the knob's range reaches: the nearest end was taken.
    public var outOfRange: Bool
}

/// Finds knob values whose win rates reach target rates, assuming the win rate moves
/// monotonically with the knob (up or down: the ends decide which).
public enum Calibration {
    /// - Parameters:
    ///   - targets: win rates to reach.
    ///   - range: the knob's range; `integer` rounds every probe.
    ///   - probes: bisection steps per target at most (each a `measure` call, cached by value).
    ///   - measure: plays the family at a knob value against the reference.
    /// - Returns: one level per target, in the order of `targets`: the probed value whose
    ///   rate came closest to the target.
    /// - Throws: what `measure` throws, at once.
    public static func search<E: Error>(targets: [Double], range: ClosedRange<Double>, integer: Bool, probes: Int,
                                        measure: (Double) throws(E) -> WinRateMeasurement) throws(E) -> [CalibratedLevel] {
        var cache: [Double: WinRateMeasurement] = [:]
        func at(_ v: Double) throws(E) -> WinRateMeasurement {
            let key = integer ? v.rounded() : v
            if let m = cache[key] { return m }
            let m = try measure(key)
            cache[key] = m
            return m
        }
        let low = try at(range.lowerBound), high = try at(range.upperBound)
        let increasing = high.winRate >= low.winRate
        var levels: [CalibratedLevel] = []
        for target in targets {
            let reachable = (min(low.winRate, high.winRate)...max(low.winRate, high.winRate)).contains(target)
            // Keep [a, b] with rate(a) <= target <= rate(b) in the increasing orientation.
            var a = increasing ? range.lowerBound : range.upperBound
            var b = increasing ? range.upperBound : range.lowerBound
            if reachable {
                for _ in 0..<probes {
                    var mid = (a + b) / 2
                    if integer {
                        mid = mid.rounded()
                        if mid == a.rounded() || mid == b.rounded() { break }
                    } else if abs(b - a) < (range.upperBound - range.lowerBound) * 1e-3 {
                        break
                    }
                    if try at(mid).winRate < target { a = mid } else { b = mid }
                }
            }
            let best = cache.min { abs($0.value.winRate - target) < abs($1.value.winRate - target)
                || (abs($0.value.winRate - target) == abs($1.value.winRate - target) && $0.key < $1.key) }!
            levels.append(CalibratedLevel(target: target, value: best.key, measurement: best.value, outOfRange: !reachable))
        }
        return levels
    }
}
