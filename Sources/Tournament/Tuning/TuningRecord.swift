import Foundation

/// One line of `tuning.csv`: where a tuner stood after an iteration and what it measured.
public struct TuningRecord: Sendable, Equatable {
    /// 1 for the first iteration.
    public var iteration: Int
    /// One value per parameter, in the parameters' order.
    public var point: [Double]
    /// Measurements made so far, this iteration's included (a caller multiplies by the
    /// matches of one measurement for the `matches` column).
    public var measurements: Int
    /// The score measured this iteration (SPSA: the mean of the two probes' scores).
    public var score: Double

    public init(iteration: Int, point: [Double], measurements: Int, score: Double) {
        self.iteration = iteration
        self.point = point
        self.measurements = measurements
        self.score = score
    }
}

/// The `tuning.csv` text of a run.
public enum TuningCSV {
    /// A header `iteration,<parameter names>,matches,score`, then one line per record;
    /// `matches` is the record's measurements times `matchesPerMeasurement`. Values are
    /// written with up to 6 decimals, integers as whole numbers.
    public static func text(parameters: [TuningParameter], records: [TuningRecord], matchesPerMeasurement: Int) -> String {
        var lines = [(["iteration"] + parameters.map(\.name) + ["matches", "score"]).joined(separator: ",")]
        for r in records {
            let values = r.point.map { Calibration.number($0, 6) }
            lines.append(([String(r.iteration)] + values + [String(r.measurements * matchesPerMeasurement), Calibration.number(r.score, 6)])
                .joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
