import Foundation
import LabCore

/// `tune.json`: what a tuning was asked (its identity, which a resume must match), its
/// live state while it runs (rewritten every few seconds) and its times. Nothing in it
/// is deterministic output: the CSV and YAML files are.
public struct TuningState: Codable, Equatable, Sendable {
    public static let fileName = "tune.json"

    /// The request as `[key, value]` pairs, in a fixed order.
    public struct Identity: Codable, Equatable, Sendable {
        public var fields: [[String]]

        /// The first field that differs, in words (`budget: 4000 now, 2000 in the folder`).
        func difference(from now: Identity) -> String? {
            let mine = Dictionary(fields.map { ($0[0], $0[1]) }, uniquingKeysWith: { a, _ in a })
            for field in now.fields where mine[field[0]] != field[1] {
                return "\(field[0]): \(field[1]) now, \(mine[field[0]] ?? "absent") in the folder"
            }
            return nil
        }
    }

    public var tool = "oplab"
    public var version = OpponentLabVersion.string
    public var identity: Identity
    /// `running` or `complete`.
    public var status: String
    public var iterations: Int
    public var measurements: Int
    public var measurementsDone = 0
    /// Matches of all the measurements (the verification is extra).
    public var matches: Int
    public var iterationsDone = 0
    public var matchesDone = 0
    public var threads: Int
    public var started: String
    public var updated: String?
    public var finished: String?
    public var seconds = 0.0
    public var matchesThisSession = 0
    public var matchesPerSecond = 0.0
    public var etaSeconds: Double?
    /// The spec last measured and its score share.
    public var current: String?
    public var currentShare: Double?
    /// The tuned spec, once the search is done.
    public var tuned: String?

    init(request: TuningRequest, threads: Int) {
        let r = request
        var fields: [[String]] = [
            ["game", r.game],
            ["rules", r.rules.map { "\($0.key)=\($0.value)" }.joined(separator: " ")],
            ["map", r.map ?? ""],
            ["strategy", r.strategy],
            ["start", r.startSpec],
        ]
        for p in r.parameters {
            fields.append(["param " + p.name, "\(p.low)..\(p.high)" + (p.step.map { ":\($0)" } ?? "") + (p.integer ? " integer" : "")])
        }
        fields += [
            ["against", r.field.joined(separator: " | ")],
            ["method", r.method.settingsText],
            ["objective", r.objective.description],
            ["budget", String(r.budget)],
            ["blocks", String(r.blocks)],
            ["verify-matches", String(r.verifyMatches)],
            ["seed", String(r.seed)],
        ]
        identity = Identity(fields: fields)
        status = "running"
        iterations = r.iterations
        measurements = r.measurements
        matches = r.measurements * r.matchesPerMeasurement
        self.threads = threads
        started = RunRecord.now()
    }

    mutating func record(measurement: Int, iterationsDone: Int, matches: Int, played: Bool) {
        measurementsDone = measurement
        self.iterationsDone = iterationsDone
        matchesDone += matches
        if played { matchesThisSession += matches }
    }

    /// The rate of this session's matches over `seconds`, the ETA, and the point last measured.
    mutating func showProgress(seconds: Double, point: String?, share: Double?) {
        self.seconds = seconds
        matchesPerSecond = seconds > 0 ? Double(matchesThisSession) / seconds : 0
        etaSeconds = matchesPerSecond > 0 ? Double(matches - matchesDone) / matchesPerSecond : nil
        if let point { current = point }
        if let share { currentShare = share }
        updated = RunRecord.now()
    }

    mutating func finish(tuned: String) {
        status = "complete"
        self.tuned = tuned
        etaSeconds = nil
        finished = RunRecord.now()
        updated = finished
    }

    /// `tune: iteration 12 of 50, 1,536 of 6,400 matches, 412 matches/s, ETA 12 s: planner(focus=0.8) scored 0.625`.
    var progressLine: String {
        var line = "tune: iteration \(iterationsDone) of \(iterations), \(NumberText.grouped(matchesDone)) of "
            + "\(NumberText.grouped(matches)) matches, \(Int(matchesPerSecond)) matches/s"
        if let eta = etaSeconds { line += ", ETA \(Progress.clock(eta))" }
        if let current, let currentShare { line += ": \(current) scored \(Calibration.number(currentShare, 3))" }
        return line
    }

    func write(to directory: String) throws(InputError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data: Data
        do { data = try encoder.encode(self) } catch { throw InputError("cannot encode \(Self.fileName): \(error)") }
        try Files.writeAtomically(data + Data("\n".utf8), to: directory + "/" + Self.fileName)
    }

    /// Reads `DIR/tune.json`.
    /// - Parameter advice: what the error suggests (`tune --resume`: pass --force to
    ///   start over); nil for a reader that offers nothing (`oplab status`).
    /// - Throws: ``InputError`` naming the file when it is missing or does not read.
    public static func read(from directory: String, advice: String? = "pass --force to start over") throws(InputError) -> TuningState {
        let path = directory + "/" + fileName
        let then = advice.map { "; \($0)" } ?? ""
        guard PathKind(of: path) != .missing else {
            throw InputError("\(path) is missing: \(directory) holds no tuning\(advice == nil ? "" : " to resume")\(then)")
        }
        let data = Data(try BoundedFile.contents(path, limit: 16 << 20, what: "the tuning's record"))
        let state: TuningState
        do { state = try JSONDecoder().decode(TuningState.self, from: data) } catch {
            throw InputError("\(path): not a tuning's record (\(Files.reason(error)))\(then)")
        }
        try state.check(path: path)
        return state
    }

    /// Checks the shape of the identity, the status and every number against what a
    /// tuning writes, so that no reader (status, the report, resume) meets a count it
    /// cannot hold or a rate it cannot convert.
    /// - Throws: naming the path, the key, the value found and what is accepted.
    func check(path: String) throws(InputError) {
        for (i, field) in identity.fields.enumerated() where field.count != 2 {
            throw InputError("\(path): key 'identity.fields[\(i)]': \(field.count) strings; expected a pair [name, value]")
        }
        guard ["running", "complete"].contains(status) else {
            throw InputError("\(path): key 'status': '\(status)'; expected running or complete")
        }
        let check = NumberCheck(path: path)
        let most = RunRecord.maxCount
        try check.count("iterations", iterations, 0...most)
        try check.count("iterationsDone", iterationsDone, 0...iterations, "0...iterations (\(iterations))")
        try check.count("measurements", measurements, 0...most)
        try check.count("measurementsDone", measurementsDone, 0...most)
        try check.count("matches", matches, 0...most)
        try check.count("matchesDone", matchesDone, 0...most)
        try check.count("matchesThisSession", matchesThisSession, 0...most)
        try check.count("threads", threads, 0...RunRecord.maxThreads)
        try check.number("seconds", seconds, 0...1e9)
        try check.number("matchesPerSecond", matchesPerSecond, 0...1e9)
        if let etaSeconds { try check.number("etaSeconds", etaSeconds, 0...1e15) }
        if let currentShare { try check.number("currentShare", currentShare, 0...1) }
    }
}

extension TuningState {
    /// The line `oplab status` prints for a tuning's folder: state, iteration and matches
    /// done of the total, rate, ETA, the point last measured, and how fresh the record is
    /// (or why it counts as stalled: not updated for `stalledAfter` seconds, or no
    /// process holds the folder).
    public static func statusLine(_ directory: String, stalledAfter: Double, now: Date = Date()) throws(InputError) -> String {
        let state = try read(from: directory, advice: nil)
        let holder = ResultsLock.holder(of: directory)
        let age = state.updated.flatMap { ISO8601DateFormatter().date(from: $0) }.map { max(0, now.timeIntervalSince($0)) }
        var text = "\(directory): tuning \(state.status), iteration \(state.iterationsDone)/\(state.iterations), "
            + "\(NumberText.grouped(state.matchesDone)) matches"
        guard state.status == "running" else { return text + (state.tuned.map { ", tuned \($0)" } ?? "") }
        text += ", \(Int(state.matchesPerSecond)) matches/s, ETA \(state.etaSeconds.map(Progress.clock) ?? "?")"
        if let current = state.current, let share = state.currentShare { text += ", \(current) scored \(Calibration.number(share, 3))" }
        if (age ?? .infinity) > stalledAfter || holder == nil {
            text += "; STALLED: " + (age.map { "not updated for \(Progress.clock($0))" } ?? "never updated")
                + (holder == nil ? " and no process holds the folder (kill -9? --resume continues it)" : "")
        } else if let age {
            text += "; updated \(Progress.clock(age)) ago" + (holder.map { $0 > 0 ? " by pid \($0)" : "" } ?? "")
        }
        return text
    }
}
