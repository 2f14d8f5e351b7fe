import ArgumentParser
import Foundation
import LabCatalog
import LabCore
import Tournament

struct SPRTCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sprt",
        abstract: "Is the candidate stronger than the baseline? A sequential test that stops as soon as the evidence allows.",
        discussion: """
            Plays seat-rotation blocks (game pairs: one deal, seats swapped) of the candidate \
            against the baseline, 2 seats, on every core, and after each block, in block order, \
            updates the generalised SPRT on the blocks' pentanomial scores: H0 elo = --elo0 \
            against H1 elo = --elo1, in normalized Elo (--model normalized, the default, as \
            fishtest and fastchess) or logistic Elo (--model logistic). It stops when the \
            log-likelihood ratio leaves \
            [ln(beta/(1-alpha)), ln((1-beta)/alpha)], or at --max-matches. The decision does not \
            depend on --threads. The results folder gets the tournament's files (run.json says \
            `stopped` when the test ended early).
            Exit status: 0 the candidate is stronger (H1 accepted), 1 it is not (H0 accepted), \
            3 no decision within --max-matches, 2 bad input.
            Example: oplab sprt rail --candidate "mcts(iterations=400)" --baseline heuristic
            """
    )

    @Argument(help: "The game (`oplab games` lists them).")
    var game: String

    @Option(help: "The strategy spec under test.")
    var candidate: String

    @Option(help: "The strategy spec it must beat.")
    var baseline: String

    @Option(parsing: .unconditional, help: "Elo difference under H0, on the --model scale.")
    var elo0: Double = 0

    @Option(parsing: .unconditional, help: "Elo difference under H1 (above --elo0), on the --model scale.")
    var elo1: Double = 20

    @Option(help: "The Elo scale of --elo0 and --elo1: normalized (fishtest's and fastchess's default) or logistic.")
    var model: SPRTModel = .normalized

    @Option(parsing: .unconditional, help: "False-positive rate: accepting H1 when H0 holds (0...0.5).")
    var alpha: Double = 0.05

    @Option(parsing: .unconditional, help: "False-negative rate: accepting H0 when H1 holds (0...0.5).")
    var beta: Double = 0.05

    @Option(name: .customLong("max-matches"), parsing: .unconditional, help: "Stop undecided after this many matches (rounded up to whole blocks of 2).")
    var maxMatches: Int = 20_000

    @OptionGroup var workers: ThreadsOption

    @OptionGroup var seeding: SeedOption

    @OptionGroup var setup: GameOptions

    @Option(help: "The results folder (default: results/sprt-GAME).")
    var out: String?

    @OptionGroup var output: OutputFlags

    func run() throws {
        var decision = SPRTDecision.undecided
        try reportingInputErrors {
            let (settings, plan) = try parse()
            output.progress("sprt \(plan.config.game): \(candidate) against \(baseline); \(settings.model.rawValue) elo, "
                            + "H0 \(bound(settings.elo0)), H1 \(bound(settings.elo1)), alpha \(settings.alpha), beta \(settings.beta); "
                            + "bounds \(f(settings.lowerBound, 3)) .. \(f(settings.upperBound, 3)); at most \(plan.config.blocks * 2) matches")
            var lastPrint = Date()
            var options = RunOptions(directory: out, threads: workers.threads, force: output.force, quiet: true)
            options.folderFlags = .force  // a test is not resumed: it starts over
            options.stopsOnSignal = true
            let test = try TournamentRunner.runSPRT(plan, settings: settings, options: options) {
                [output] counts, verdict in
                if verdict != .undecided || Date().timeIntervalSince(lastPrint) >= 2 {
                    lastPrint = Date()
                    output.progress(Self.status(counts, settings))
                }
            }
            try exitIfInterrupted(test.result, resumed: false,
                                  advice: "the test had not decided; oplab sprt does not resume: run it again with --force to start over")
            decision = test.decision
            let counts = test.counts
            printOutput("\(Self.verdict(decision, settings)) after \(counts.matches) matches (\(counts.blocks) game pairs): "
                  + "LLR \(f(counts.llr(settings), 3)) in [\(f(settings.lowerBound, 3)), \(f(settings.upperBound, 3))] "
                  + "(\(settings.model.rawValue) elo, H0 \(bound(settings.elo0)), H1 \(bound(settings.elo1))), \(Self.estimates(counts)), "
                  + "score \(f(counts.mean, 4)), pentanomial LL, LD, WL+DD, WD, WW \(counts.description); results in \(test.result.directory)")
        }
        switch decision {
        case .h1: return
        case .h0: throw ExitCode(1)
        case .undecided: throw ExitCode(3)
        }
    }

    /// The test's settings, checked before the game is looked up.
    func validate() throws {
        try reportingInputErrors {
            for (flag, elo) in [("--elo0", elo0), ("--elo1", elo1)] where !elo.isFinite {
                throw InputError("\(flag) \(elo): expected a finite Elo difference")
            }
            guard elo1 > elo0 else { throw InputError("--elo1 \(elo1) must be above --elo0 \(elo0)") }
            guard alpha > 0 && alpha < 0.5 else { throw InputError("--alpha \(alpha): expected a number in (0, 0.5)") }
            guard beta > 0 && beta < 0.5 else { throw InputError("--beta \(beta): expected a number in (0, 0.5)") }
            guard maxMatches >= 2 else { throw InputError("--max-matches \(maxMatches): expected at least 2 (one block)") }
        }
    }

    /// The flags checked: the test's settings, and the head-to-head of the candidate
    /// against the baseline, planned.
    func parse() throws(InputError) -> (SPRTSettings, TournamentPlan) {
        let settings = SPRTSettings(elo0: elo0, elo1: elo1, alpha: alpha, beta: beta, model: model)
        let config = TournamentConfig.headToHead(
            name: "sprt-\(game.filter { $0.isLetter || $0.isNumber })", game: game, rules: try setup.ruleSettings(), map: setup.map,
            Entrant(name: "candidate", strategy: candidate), Entrant(name: "baseline", strategy: baseline),
            matches: maxMatches, seed: seeding.seed, threads: workers.threads)
        return (settings, try Catalog.plan(config, locate: flagLocator(entrants: ["--candidate", "--baseline"])))
    }

    static func status(_ counts: Pentanomial, _ settings: SPRTSettings) -> String {
        "\(counts.matches) matches: LLR \(f(counts.llr(settings), 3)) [\(f(settings.lowerBound, 3)), \(f(settings.upperBound, 3))], "
            + "\(estimates(counts)), pentanomial \(counts.description)"
    }

    /// Both Elo estimates with their 95 % intervals: `elo 35.2 [20.1, 50.6], nelo 61.0 [34.7, 87.3]`.
    static func estimates(_ counts: Pentanomial) -> String {
        let (elo, low, high) = counts.elo
        let (nelo, nlow, nhigh) = counts.normalizedElo
        return "elo \(f(elo, 1)) [\(f(low, 1)), \(f(high, 1))], nelo \(f(nelo, 1)) [\(f(nlow, 1)), \(f(nhigh, 1))]"
    }

    static func verdict(_ decision: SPRTDecision, _ settings: SPRTSettings) -> String {
        switch decision {
        case .h1: "H1 accepted: the candidate is stronger (\(settings.model.rawValue) elo >= \(bound(settings.elo1)) more likely than \(bound(settings.elo0)))"
        case .h0: "H0 accepted: the candidate is not stronger by \(bound(settings.elo1)) \(settings.model.rawValue) elo"
        case .undecided: "no decision"
        }
    }
}

/// An Elo bound as given, without zeros at the end ("20", "2.5").
private func bound(_ x: Double) -> String {
    var text = FixedPoint.text(x, digits: 3)
    while text.contains(".") && (text.hasSuffix("0") || text.hasSuffix(".")) { text.removeLast() }
    return text
}

/// `x` with `digits` decimals ("2.944").
private func f(_ x: Double, _ digits: Int = 0) -> String { FixedPoint.text(x, digits: digits) }

extension SPRTModel: ExpressibleByArgument {}
