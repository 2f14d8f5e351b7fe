import LabCore

/// A sequential test played as a tournament, as it ended.
public struct SPRTRun: Sendable {
    /// The run's folder and summaries (`run.json` says `stopped` when the test ended early).
    public var result: RunResult
    /// The blocks' pentanomial scores, in block order, up to the one that decided.
    public var counts: Pentanomial
    /// ``SPRTDecision/undecided`` when the plan's blocks ran out first.
    public var decision: SPRTDecision
}

extension TournamentRunner {
    /// Plays `plan`, a head-to-head of the candidate (entrant 0) against the baseline
    /// (``TournamentConfig/headToHead(name:game:rules:map:_:_:matches:seed:threads:)``),
    /// as a sequential test: after each block, in block order, the candidate's block score
    /// joins the pentanomial counts, and the run stops as soon as `settings` decide. The
    /// decision and the files do not depend on the thread count.
    ///
    /// - Parameter onBlock: called after each counted block with the counts so far and
    ///   their decision (for progress lines).
    public static func runSPRT(_ plan: TournamentPlan, settings: SPRTSettings, options: RunOptions,
                               onBlock: @escaping (Pentanomial, SPRTDecision) -> Void = { _, _ in }) throws(InputError) -> SPRTRun {
        var counts = Pentanomial()
        var decision = SPRTDecision.undecided
        let result = try run(plan, options: options) { _, scores in
            guard let score = scores[0] else { return false }
            counts.add(blockScore: score)
            decision = counts.decision(settings)
            onBlock(counts, decision)
            return decision != .undecided
        }
        return SPRTRun(result: result, counts: counts, decision: decision)
    }
}
