import Foundation
import LabCore

/// A difficulty ladder from tunings toward several targets (`oplab tune` with more than
/// one `--objective target=P`): one level per target, weakest first, in the shape of the
/// ladders `oplab calibrate` writes, each level's figures from its verification against
/// the field.
public enum TuningLadder {
    public static func text(_ levels: [(request: TuningRequest, outcome: TuningOutcome)]) -> String {
        guard let first = levels.first?.request else { return "" }
        var lines = [
            "# Difficulty levels for \(first.game), tuned toward target score shares against `\(first.field.joined(separator: ", "))` (2 seats, seat-rotated).",
            "# Made by: \(first.command)",
            "# Each level's score share and its 95 % interval over seat-rotation blocks come from its verification run of",
            "# \(first.verifyMatches) matches with seed \(first.verificationSeed) (the search used seed \(first.seed)); `remeasure` is where a new run",
            "# of as many matches with another seed lands 95 % of the time (the noise of both runs).",
            "game: \(first.game)",
            "reference: \"\(first.field.joined(separator: ", "))\"",
            "seats: 2",
            "levels:",
        ]
        for (request, outcome) in levels {
            lines += TunedFile.level(request.objective, spec: outcome.tunedSpec, verification: outcome.verification)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Writes ``text(_:)`` to `path` atomically.
    public static func write(_ levels: [(request: TuningRequest, outcome: TuningOutcome)], to path: String) throws(InputError) {
        try Files.writeAtomically(text(levels), to: path)
    }
}
