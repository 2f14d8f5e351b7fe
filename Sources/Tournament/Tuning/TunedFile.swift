import Foundation
import LabCore

/// `tuned.yaml`: the tuned spec, ready for a config (`strategy:`) or a difficulty ladder
/// (`levels:`, the shape `oplab calibrate` writes, one level), with how it was made and
/// its verification.
public enum TunedFile {
    /// The level's name: `tuned` for `max`, `target-P` for a target.
    public static func levelName(_ objective: TuningObjective) -> String {
        switch objective {
        case .max: "tuned"
        case .target(let p): "target-\(Calibration.number(p, 4))"
        }
    }

    /// One level of a ladder (`levels:` item): the tuned spec, its target, and its
    /// verified share against the field with the interval and the `remeasure` range, where
    /// a new run of as many matches with another seed lands 95 % of the time (both runs'
    /// noise: sqrt(2) times the interval's half-width), as `oplab calibrate`'s ladders say.
    static func level(_ objective: TuningObjective, spec: String, verification v: TuningVerification) -> [String] {
        let m = v.tunedVsField
        let spread = 2.0.squareRoot() * (m.high - m.low) / 2
        var lines = ["  - name: \(levelName(objective))", "    strategy: \"\(spec)\""]
        if case .target(let p) = objective { lines.append("    target: \(Calibration.number(p, 4))") }
        return lines + [
            "    score_share: \(Calibration.number(m.score, 4))",
            "    interval: [\(Calibration.number(m.low, 4)), \(Calibration.number(m.high, 4))]",
            "    remeasure: [\(Calibration.number(max(0, m.score - spread), 4)), \(Calibration.number(min(1, m.score + spread), 4))]",
            "    matches: \(m.matches)",
        ]
    }

    public static func text(_ request: TuningRequest, tuned: [Double], tunedSpec: String, verification v: TuningVerification) -> String {
        let r = request
        func interval(_ row: TuningVerification.Row) -> String {
            "[\(Calibration.number(row.low, 4)), \(Calibration.number(row.high, 4))]"
        }
        let field = v.tunedVsField, start = v.tunedVsStart
        var lines = [
            "# Tuned by: \(r.command)",
            "# \(r.method.name.uppercased()) over \(r.parameters.map(\.name).joined(separator: ", ")), objective \(r.objective), "
                + "\(r.iterations) iterations, \(r.budget) matches budget, seed \(r.seed).",
            "# Verification (seed \(r.verificationSeed)): the tuned spec against the start and against the field, "
                + "\(r.verifyMatches) seat-rotated matches each;",
            "# scores are score shares (a win 1, a shared first place 1/2) with 95 % intervals over blocks.",
            "game: \(r.game)",
            "reference: \"\(r.field.joined(separator: ", "))\"",
            "seats: 2",
            "strategy: \"\(tunedSpec)\"",
            "start: \"\(r.startSpec)\"",
            "objective: \(r.objective)",
            "parameters:",
        ]
        for (p, value) in zip(r.parameters, tuned) {
            lines.append("  \(p.name): \(p.text(value))")
        }
        lines += ["levels:"] + level(r.objective, spec: tunedSpec, verification: v) + [
            "verification:",
            "  tuned_vs_start: {score: \(Calibration.number(start.score, 4)), interval: \(interval(start)), "
                + "elo: \(TuningVerification.eloText(start.score)), elo_interval: [\(TuningVerification.eloText(start.low)), "
                + "\(TuningVerification.eloText(start.high))], matches: \(start.matches)}",
            "  tuned_vs_field: {score_share: \(Calibration.number(field.score, 4)), interval: \(interval(field)), matches: \(field.matches)}",
            "  start_vs_field: {score_share: \(Calibration.number(v.startVsField.score, 4)), interval: \(interval(v.startVsField)), "
                + "matches: \(v.startVsField.matches)}",
        ]
        return lines.joined(separator: "\n") + "\n"
    }
}
