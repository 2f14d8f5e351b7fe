import Foundation
import LabCore
import Tournament

/// One verdict in words about a run, with the statistic behind it and its 95 % interval.
public struct Finding: Sendable, Equatable {
    /// What kind of verdict: `stronger`, `beaten-by-random`, `no-better-than-random`,
    /// `weak-documented-cpu`, `seat-advantage`, `end-reason`, `forfeits`.
    public var kind: String
    /// Who or what it is about (entrants `a>b`, a seat, an end reason, an entrant).
    public var subject: String
    /// The verdict as a sentence.
    public var text: String
    /// The statistic (`elo`, `score`, `seat-score`, `share`, `forfeit-rate`), its value and
    /// its interval (equal to the value for a count).
    public var statistic: String
    public var value: Double
    public var low: Double
    public var high: Double

    /// The columns of `findings.csv`.
    public static let columns = ["kind", "subject", "statistic", "value", "low", "high", "text"]

    /// `findings.csv`: one row per finding, in the order the report lists them.
    public static func csv(_ findings: [Finding]) -> String {
        var out = CSV.line(columns)
        for finding in findings {
            out += CSV.line([finding.kind, finding.subject, finding.statistic, FixedPoint.text(finding.value, digits: 4),
                             FixedPoint.text(finding.low, digits: 4), FixedPoint.text(finding.high, digits: 4), finding.text])
        }
        return out
    }
}

/// The verdicts a results folder supports at the 95 % level, each stated only when its
/// interval excludes "no difference":
/// - who is stronger than whom (pairwise score interval above 1/2), strongest gaps first;
/// - an entrant beaten by, or no better than, a `random` entrant it met;
/// - the game's documented CPU (its bare spec) barely beating `random` (under +100 Elo,
///   score 0.64);
/// - a seat advantage (a seat's score per match, pooled over entrants with the block as
///   the unit, away from 1/seats; from 30 blocks);
/// - an end reason ending most matches (share over blocks above 1/2; from 30 blocks);
/// - forfeits (counted, with kinds).
enum Findings {
    /// The most `stronger` verdicts listed; the rest are counted in one more line.
    static let strongerShown = 8
    /// Below this score against `random` (about +100 Elo) the documented CPU is called weak.
    static let weakScore = 0.64
    /// Blocks a seat or end-reason verdict needs: its interval is a normal approximation
    /// over blocks, rough below this.
    static let minimumBlocks = 30

    static func of(_ folder: ResultsFolder, documentedCPU: String?) -> [Finding] {
        stronger(folder) + random(folder, documentedCPU: documentedCPU) + seats(folder) + endReasons(folder) + forfeits(folder)
    }

    static func name(_ folder: ResultsFolder, _ e: Int) -> String { folder.run.entrants[e].name }

    /// The strategy name of entrant `e` (its spec before any parenthesis).
    static func strategy(_ folder: ResultsFolder, _ e: Int) -> String {
        let spec = folder.run.entrants[e].strategy
        return String(spec.prefix { $0 != "(" }).trimmingCharacters(in: .whitespaces)
    }

    static func elo(_ x: Double) -> String { (x >= 0 ? "+" : "") + FixedPoint.text(x, digits: 1) }
    static func share(_ x: Double) -> String { FixedPoint.text(x, digits: 4) }

    /// "a is stronger than b: +21.1 Elo [19.6, 22.6] (score 0.5303 [0.5282, 0.5324] over 200,000 games)".
    static func stronger(_ folder: ResultsFolder) -> [Finding] {
        let pairs = folder.pairs.filter { $0.scoreLow > 0.5 }.sorted { ($0.elo, $1.entrant) > ($1.elo, $0.entrant) }
        var out: [Finding] = pairs.prefix(strongerShown).map { p in
            let interval = p.eloInterval.map { " [\(FixedPoint.text($0.low, digits: 1)), \(FixedPoint.text($0.high, digits: 1))]" } ?? ""
            return Finding(kind: "stronger", subject: "\(name(folder, p.entrant))>\(name(folder, p.opponent))",
                           text: "\(name(folder, p.entrant)) is stronger than \(name(folder, p.opponent)): \(elo(p.elo)) Elo\(interval) "
                               + "(score \(share(p.score)) [\(share(p.scoreLow)), \(share(p.scoreHigh))] over \(Charts.grouped(Int(p.games))) games)",
                           statistic: "elo", value: p.elo, low: p.eloInterval?.low ?? p.elo, high: p.eloInterval?.high ?? p.elo)
        }
        if pairs.count > strongerShown {
            let rest = pairs.count - strongerShown
            out.append(Finding(kind: "stronger", subject: "more", text: "and \(rest) more pairs differ (pairwise.csv)", statistic: "pairs",
                               value: Double(rest), low: Double(rest), high: Double(rest)))
        }
        return out
    }

    /// Against each `random` entrant met: beaten by it (score interval below 1/2), no
    /// better (interval around 1/2), or, for the documented CPU, better by too little.
    static func random(_ folder: ResultsFolder, documentedCPU: String?) -> [Finding] {
        let randoms = folder.run.entrants.indices.filter { strategy(folder, $0) == "random" }
        var out: [Finding] = []
        for p in folder.pairs where randoms.contains(p.opponent) && !randoms.contains(p.entrant) {
            let who = name(folder, p.entrant), rnd = name(folder, p.opponent)
            // The documented CPU as documented: its bare name, no parameters changed.
            let spec = folder.run.entrants[p.entrant].strategy.trimmingCharacters(in: .whitespaces)
            let documented = documentedCPU.map { $0 != "random" && (spec == $0 || spec == $0 + "()") } ?? false
            let role = documented ? " (the documented CPU)" : ""
            let score = "score \(share(p.score)) [\(share(p.scoreLow)), \(share(p.scoreHigh))] over \(Charts.grouped(Int(p.games))) games"
            let eloText = p.eloInterval.map { ", \(elo(p.elo)) Elo [\(FixedPoint.text($0.low, digits: 1)), \(FixedPoint.text($0.high, digits: 1))]" } ?? ""
            if p.scoreHigh < 0.5 {
                out.append(Finding(kind: "beaten-by-random", subject: who, text: "\(who)\(role) is beaten by random (\(rnd)): \(score)\(eloText)",
                                   statistic: "score", value: p.score, low: p.scoreLow, high: p.scoreHigh))
            } else if p.scoreLow <= 0.5 {
                out.append(Finding(kind: "no-better-than-random", subject: who,
                                   text: "\(who)\(role) is no better than random (\(rnd)): \(score)\(eloText)",
                                   statistic: "score", value: p.score, low: p.scoreLow, high: p.scoreHigh))
            } else if documented && p.scoreHigh < weakScore {
                out.append(Finding(kind: "weak-documented-cpu", subject: who,
                                   text: "\(who), the documented CPU, barely beats random (\(rnd)): \(score)\(eloText); "
                                       + "under +100 Elo, a weak baseline",
                                   statistic: "score", value: p.score, low: p.scoreLow, high: p.scoreHigh))
            }
        }
        return out
    }

    /// A seat whose score per match, pooled over every entrant with the block as the unit,
    /// lies away from 1/seats (the no-advantage line). With two seats one seat's advantage
    /// is the other's disadvantage, so only the advantage is said.
    static func seats(_ folder: ResultsFolder) -> [Finding] {
        let seats = folder.run.seats
        guard seats > 1 else { return [] }
        let even = 1 / Double(seats)
        var out: [Finding] = []
        for (s, sums) in folder.matches.seatBlocks.enumerated() where sums.count >= minimumBlocks {
            let i = Intervals.proportionOverBlocks([sums])
            guard i.lower > even || (i.upper < even && seats > 2) else { continue }
            let verdict = i.lower > even ? "has the advantage" : "is at a disadvantage"
            out.append(Finding(kind: "seat-advantage", subject: "seat \(s)",
                               text: "seat \(s) \(verdict): score \(share(i.mean)) [\(share(i.lower)), \(share(i.upper))] per match "
                                   + "against \(share(even)) with no advantage (\(Charts.grouped(sums.count)) blocks)",
                               statistic: "seat-score", value: i.mean, low: i.lower, high: i.upper))
        }
        return out
    }

    /// An end reason whose share of matches, over blocks, is above one half.
    static func endReasons(_ folder: ResultsFolder) -> [Finding] {
        let tally = folder.matches
        var out: [Finding] = []
        for (r, sums) in tally.reasonBlocks.enumerated() where sums.count >= minimumBlocks {
            let i = Intervals.proportionOverBlocks([sums])
            guard i.lower > 0.5 else { continue }
            let reason = tally.reasons[r]
            out.append(Finding(kind: "end-reason", subject: reason,
                               text: "most matches end by \(reason): \(FixedPoint.text(i.mean * 100, digits: 1)) % "
                                   + "[\(FixedPoint.text(i.lower * 100, digits: 1)), \(FixedPoint.text(i.upper * 100, digits: 1))] of matches",
                               statistic: "share", value: i.mean, low: i.lower, high: i.upper))
        }
        return out
    }

    /// Each entrant that forfeited matches: how many, of how many, and by which faults.
    static func forfeits(_ folder: ResultsFolder) -> [Finding] {
        folder.summary.compactMap { s -> Finding? in
            guard let count = s.forfeits, count > 0 else { return nil }
            let who = name(folder, s.entrant)
            let rate = s.matches > 0 ? Double(count) / Double(s.matches) : 0
            let kinds = folder.run.forfeitKinds.first { $0.entrant == who }.map { k in
                [("timeout", k.timeout), ("crash", k.crash), ("illegal", k.illegal), ("malformed", k.malformed)]
                    .filter { $0.1 > 0 }.map { "\(Charts.grouped($0.1)) \($0.0)" }.joined(separator: ", ")
            } ?? ""
            return Finding(kind: "forfeits", subject: who,
                           text: "\(who) forfeited \(Charts.grouped(count)) of \(Charts.grouped(s.matches)) matches "
                               + "(\(FixedPoint.text(rate * 100, digits: 1)) %)" + (kinds.isEmpty ? "" : ": \(kinds)"),
                           statistic: "forfeit-rate", value: rate, low: rate, high: rate)
        }
    }
}
