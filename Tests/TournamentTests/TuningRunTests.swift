import Foundation
import LabCore
import Testing
@testable import Tournament

/// A 2-seat table of a synthetic game: entrant 0 of the table wins each match with
/// probability `p`, drawn from the deal seed and the match (so a measurement repeats
/// exactly and two measurements with other seeds differ).
private struct SyntheticTable: SeatedTable {
    /// The seat the table's entrant 0 holds at this rotation.
    let firstSeat: Int
    let p: Double

    func play(dealSeed: UInt64, strategySeed: UInt64, match: Int, buffer: inout ActionBuffer, timer: DecisionTimer?) -> MatchRecord {
        var random = LabRandom(seed: Seeds.derive(dealSeed, UInt64(match)))
        var places = [2, 2]
        places[random.unit() < p ? firstSeat : 1 - firstSeat] = 1
        return MatchRecord(outcome: Outcome(places: places, endReason: "synthetic", turns: 1), seatColumns: [[], []])
    }
}

/// Plans of the synthetic game: a strategy `s(x=V)` wins against `field` with
/// probability `strength(V)`; `field` against `field` one half. The first entrant of a
/// config is the one whose strength counts (measurements and verifications both put
/// the candidate first).
private func syntheticPlan(_ strength: @escaping @Sendable (Double) -> Double) -> (TournamentConfig) throws(InputError) -> TournamentPlan {
    { config throws(InputError) in
        func x(_ spec: String) -> Double? {
            guard let r = spec.range(of: "x=") else { return nil }
            return Double(spec[r.upperBound...].prefix { $0 != ")" && $0 != "," })
        }
        let names = config.entrants.map(\.name)
        let schedule = try Schedule(entrants: names.count, seats: 2, format: config.format,
                                    candidate: config.candidate.flatMap { names.firstIndex(of: $0) }, blocksPerTable: config.blocks)
        let seatings: [[any SeatedTable]] = schedule.tables.map { table in
            let first = x(config.entrants[table[0]].strategy), second = x(config.entrants[table[1]].strategy)
            // Two strengths meet: the logistic of the difference of their log-odds.
            func logit(_ p: Double) -> Double { log(p / (1 - p)) }
            let a = first.map(strength) ?? 0.5, b = second.map(strength) ?? 0.5
            let p = 1 / (1 + exp(-(logit(a) - logit(b))))
            return (0..<2).map { r in SyntheticTable(firstSeat: r == 0 ? 0 : 1, p: p) }
        }
        return TournamentPlan(config: config, schedule: schedule, seatings: seatings, columns: [], anchor: nil)
    }
}

private func request(_ method: TuningMethod, _ objective: TuningObjective, budget: Int, start: Double = 0.1, blocks: Int = 4) throws -> TuningRequest {
    TuningRequest(game: "synthetic", rules: [], map: nil, strategy: "s", startSpec: "s(x=\(start))",
                  parameters: [try TuningParameter(name: "x", low: 0.02, high: 0.98, step: 0.04)], start: [start], field: ["field"],
                  method: method, objective: objective, budget: budget, blocks: blocks, verifyMatches: 400, seed: 3, command: "test")
}

private func spec(_ point: [Double]) -> String { "s(x=\(Calibration.number(point[0], 6)))" }

@Suite("Tuning runs")
struct TuningRunTests {
    @Test("SPSA toward target=0.3 on a strength that is x itself lands within 0.06 of 0.3; the verification measures it")
    func spsaTarget() throws {
        let folder = ScriptedPlans.temporaryPath("tune-target")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let r = try request(.spsa(SPSA.Settings()), .target(0.3), budget: 16 * 200, start: 0.9)
        let outcome = try TuningRun.run(r, options: TuningOptions(directory: folder, threads: 2, quiet: true), spec: spec,
                                        plan: syntheticPlan { $0 }, progress: { _ in })
        #expect(abs(outcome.tuned[0] - 0.3) < 0.06, "tuned x = \(outcome.tuned[0])")
        let field = outcome.verification.tunedVsField
        #expect(field.matches == 400 && abs(field.score - 0.3) < 0.08, "\(field)")
        #expect(outcome.verification.verdicts(objective: r.objective).last?.hasPrefix("target 0.3: tuned lands ") == true)
    }

    @Test("NTBEA with objective max on a bowl peaking at x = 0.62 ends within two grid steps of it and beats the start")
    func ntbeaMax() throws {
        let folder = ScriptedPlans.temporaryPath("tune-max")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let r = try request(.ntbea(NTBEA.Settings()), .max, budget: 16 * 150, blocks: 8)
        let outcome = try TuningRun.run(r, options: TuningOptions(directory: folder, threads: 1, quiet: true), spec: spec,
                                        plan: syntheticPlan { max(0.02, 0.9 - 8 * ($0 - 0.62) * ($0 - 0.62)) }, progress: { _ in })
        #expect(abs(outcome.tuned[0] - 0.62) <= 0.08 + 1e-9, "tuned x = \(outcome.tuned[0])")
        #expect(outcome.verification.tunedVsStart.low > 0.5, "\(outcome.verification.tunedVsStart)")
        let lines = try String(contentsOfFile: folder + "/tuning.csv", encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 151 && lines[0] == "iteration,x,matches,score")
    }

    @Test("a torn journal line is cut and the run resumes to the same bytes; a journal of another search is refused")
    func journalResume() throws {
        let a = ScriptedPlans.temporaryPath("tune-a"), b = ScriptedPlans.temporaryPath("tune-b")
        defer { for f in [a, b] { try? FileManager.default.removeItem(atPath: f) } }
        let r = try request(.spsa(SPSA.Settings()), .max, budget: 16 * 20)
        let plan = syntheticPlan { 0.8 - ($0 - 0.5) * ($0 - 0.5) }
        _ = try TuningRun.run(r, options: TuningOptions(directory: a, threads: 2, quiet: true), spec: spec, plan: plan, progress: { _ in })
        _ = try TuningRun.run(r, options: TuningOptions(directory: b, threads: 1, quiet: true), spec: spec, plan: plan, progress: { _ in })
        // A kill mid-write: 11 whole measurements and half a line; the later files not yet written.
        let journal = try String(contentsOfFile: b + "/measurements.csv", encoding: .utf8)
        let lines = journal.split(separator: "\n", omittingEmptySubsequences: false)
        try (lines.prefix(12).joined(separator: "\n") + "\n" + lines[12].prefix(9)).write(toFile: b + "/measurements.csv", atomically: true, encoding: .utf8)
        for file in ["tuning.csv", "tuned.yaml", "verification.csv", "verify"] { try FileManager.default.removeItem(atPath: b + "/" + file) }
        var notes: [String] = []
        let resumed = try TuningRun.run(r, options: TuningOptions(directory: b, threads: 2, resume: true, quiet: true), spec: spec,
                                        plan: plan, progress: { _ in })
        notes = resumed.notes
        #expect(notes.contains("dropped 9 bytes of a torn line at the end of measurements.csv"), "\(notes)")
        #expect(resumed.matchesPlayed == (40 - 11) * 8)
        for file in ["measurements.csv", "tuning.csv", "tuned.yaml", "verification.csv", "verify/tuned-vs-start/matches.csv"] {
            #expect(FileManager.default.contents(atPath: a + "/" + file) == FileManager.default.contents(atPath: b + "/" + file), "\(file)")
        }
        // A journal line edited by hand no longer measures the point the search asks for.
        let edited = journal.replacingOccurrences(of: "\n3,2,plus,", with: "\n3,2,minus,")
        try edited.write(toFile: b + "/measurements.csv", atomically: true, encoding: .utf8)
        #expect(throws: InputError.self) {
            try TuningRun.run(r, options: TuningOptions(directory: b, threads: 2, resume: true, quiet: true), spec: spec, plan: plan,
                              progress: { _ in })
        }
        do {
            _ = try TuningRun.run(r, options: TuningOptions(directory: b, threads: 2, resume: true, quiet: true), spec: spec, plan: plan,
                                  progress: { _ in })
        } catch {
            #expect(error.message.contains("measurements.csv:4: measurement 3 was of iteration 2 minus"), "\(error.message)")
        }
    }

    @Test("objectives: max is the share, target=P minus the distance; parsing refuses what is not max or a target in (0, 1)")
    func objectives() throws {
        #expect(TuningObjective.max.value(share: 0.7) == 0.7)
        #expect(abs(try TuningObjective(parsing: "target=0.3").value(share: 0.25) + 0.05) < 1e-12)
        #expect(try TuningObjective(parsing: "target=0.3") == .target(0.3))
        for bad in ["target=0", "target=1", "target=-0.2", "target=x", "target=", "min", ""] {
            #expect(throws: InputError.self) { try TuningObjective(parsing: bad) }
        }
    }

    @Test("a budget below one iteration is refused, naming what an iteration plays")
    func budget() throws {
        let r = try request(.spsa(SPSA.Settings()), .max, budget: 15)
        #expect(throws: InputError.self) { try r.check() }
        #expect(try request(.spsa(SPSA.Settings()), .max, budget: 16).iterations == 1)
        #expect(try request(.ntbea(NTBEA.Settings()), .max, budget: 16).iterations == 2)
    }

    @Test("tune.json and measurements.csv numbers out of range are refused naming the file, the key or line, and what is accepted; a refused resume writes nothing")
    func numbersOutOfRange() throws {
        let folder = ScriptedPlans.temporaryPath("tune-numbers")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let r = try request(.spsa(SPSA.Settings()), .max, budget: 16 * 3)
        let plan = syntheticPlan { 0.8 - ($0 - 0.5) * ($0 - 0.5) }
        _ = try TuningRun.run(r, options: TuningOptions(directory: folder, threads: 1, quiet: true), spec: spec, plan: plan, progress: { _ in })
        let statePath = folder + "/tune.json", journalPath = folder + "/measurements.csv"
        let state = try Data(contentsOf: URL(fileURLWithPath: statePath)), journal = try String(contentsOfFile: journalPath, encoding: .utf8)
        func editState(_ edit: (inout [String: Any]) -> Void) throws {
            var json = try #require(try JSONSerialization.jsonObject(with: state) as? [String: Any])
            json["status"] = "running"
            edit(&json)
            try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: statePath))
        }
        // `oplab status` of a tuning: the rate went through Int() and crashed.
        try editState { $0["matchesPerSecond"] = 1e308 }
        #expect(throws: InputError("\(statePath): key 'matchesPerSecond': 1e+308 is out of range; expected a finite number in 0...1e9")) {
            try TuningState.statusLine(folder, stalledAfter: 60)
        }
        try editState { $0["iterationsDone"] = 7 }
        #expect(throws: InputError("\(statePath): key 'iterationsDone': 7 is out of range; expected a whole number in 0...iterations (3)")) {
            try TuningState.read(from: folder)
        }
        try editState { $0["identity"] = ["fields": [["game"]]] }
        #expect(throws: InputError("\(statePath): key 'identity.fields[0]': 1 strings; expected a pair [name, value]")) {
            try TuningState.read(from: folder)
        }
        // A measurement's matches added into the total: out of range, or not what the request plays.
        try editState { _ in }
        let edited = try Data(contentsOf: URL(fileURLWithPath: statePath))
        let resume = TuningOptions(directory: folder, threads: 1, resume: true, quiet: true)
        let line = try #require(journal.split(separator: "\n").first { $0.hasPrefix("2,") })
        var fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        fields[4] = "-9223372036854775807"
        try journal.replacingOccurrences(of: line, with: fields.joined(separator: ",")).write(toFile: journalPath, atomically: true, encoding: .utf8)
        let huge = #expect(throws: InputError.self) {
            try TuningRun.run(r, options: resume, spec: spec, plan: plan, progress: { _ in })
        }
        #expect(huge?.message.hasPrefix("\(journalPath):3: measurement 2: iteration 1, matches -9223372036854775807, score_share ") == true,
                "\(String(describing: huge))")
        #expect(huge?.message.contains(" are out of range; expected an iteration and a count of matches in 1...4503599627370496 and "
            + "0...4503599627370496, a score share in 0...1 and a finite objective") == true, "\(String(describing: huge))")
        fields[4] = "9"
        try journal.replacingOccurrences(of: line, with: fields.joined(separator: ",")).write(toFile: journalPath, atomically: true, encoding: .utf8)
        #expect(throws: InputError("\(journalPath):3: measurement 2 holds 9 matches, but a measurement of this request plays 8: the file "
            + "was made by another version or request; pass --force to start over")) {
            try TuningRun.run(r, options: resume, spec: spec, plan: plan, progress: { _ in })
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: statePath)) == edited, "the refused resume rewrote tune.json")
    }
}

