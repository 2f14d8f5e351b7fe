import Foundation
import LabCore

/// Where and how to run a tuning.
public struct TuningOptions: Sendable {
    /// The results folder.
    public var directory: String
    /// Worker threads (0: every core).
    public var threads: Int
    /// Finish the tuning in an existing folder.
    public var resume: Bool
    /// Replace the tuning in an existing folder.
    public var force: Bool
    /// No progress lines.
    public var quiet: Bool
    /// Seconds between progress lines and rewrites of tune.json.
    public var statusInterval: TimeInterval

    public init(directory: String, threads: Int = 0, resume: Bool = false, force: Bool = false, quiet: Bool = false,
                statusInterval: TimeInterval = 2) {
        self.directory = directory
        self.threads = threads
        self.resume = resume
        self.force = force
        self.quiet = quiet
        self.statusInterval = statusInterval
    }

    /// ``threads`` with 0 as every core.
    var workerThreads: Int { threads == 0 ? ProcessInfo.processInfo.activeProcessorCount : threads }
}

/// What a finished tuning reports.
public struct TuningOutcome: Sendable {
    public var directory: String
    /// The parameters' tuned values.
    public var tuned: [Double]
    public var tunedSpec: String
    /// One `tuning.csv` record per iteration.
    public var records: [TuningRecord]
    public var verification: TuningVerification
    /// Matches this process played for the search (a resumed run replays the rest).
    public var matchesPlayed: Int
    /// What happened to an existing folder.
    public var notes: [String]
}

/// Runs a tuning into a results folder: `measurements.csv` (every measurement, appended
/// as it ends: the state a resume replays), then `tuning.csv` (one line per iteration),
/// the verification tournaments under `verify/`, `verification.csv` and `tuned.yaml`;
/// `tune.json` holds the request, the live state while it runs, and the times.
///
/// Every match is seeded from the request's seed, measurement by measurement, and every
/// measurement's score is summed in block order: the same request gives the same bytes
/// at any thread count, and a run killed at any moment and resumed gives the bytes of
/// one that was not.
public enum TuningRun {
    /// The files a tuning writes, besides the `verify/` folder and the bots' logs.
    public static let files = [TuningJournal.fileName, "tuning.csv", "verification.csv", "tuned.yaml", TuningState.fileName, "report.html"]
    /// The folder of the verification tournaments.
    public static let verifyFolder = "verify"

    /// Runs (or resumes) `request`.
    ///
    /// - Parameters:
    ///   - spec: the strategy spec at a point (the tuned parameters replaced).
    ///   - plan: checks a tournament config and makes its plan (the catalog's).
    ///   - progress: a line for the user every ``TuningOptions/statusInterval`` seconds,
    ///     and as each stage starts.
    /// - Throws: ``InputError`` for settings the tuners refuse, a folder that holds
    ///   another run, a spec the catalog refuses, or a file that cannot be written.
    ///   Nothing is written before the request and the folder are checked.
    public static func run(_ request: TuningRequest, options: TuningOptions, spec: @escaping ([Double]) -> String,
                           plan makePlan: (TournamentConfig) throws(InputError) -> TournamentPlan,
                           progress: @escaping (String) -> Void) throws(InputError) -> TuningOutcome {
        let progress = options.quiet ? { _ in } : progress
        try request.check()
        // The tuners check their settings and the start point before anything is written.
        let tuner = try Tuner(request)
        // The specs the search can reach are played: the start, and every parameter at
        // its low and at its high end (a catalog or bot refusing one says so now).
        for point in [request.start, request.parameters.map(\.low), request.parameters.map(\.high)] {
            _ = try makePlan(measurementConfig(request, candidate: spec(point), iteration: 0))
        }
        let directory = options.directory
        let threads = options.workerThreads
        let (lock, journal, prepared, notes) = try prepare(request, options: options, threads: threads)
        defer { withExtendedLifetime(lock) {} }
        var state = prepared
        RunFolder.announce(notes)
        state.updated = RunRecord.now()
        try state.write(to: directory)

        // 1. The search: each measurement replayed from the journal or played.
        var measurer = Measurer(request: request, journal: journal, spec: spec, threads: threads, directory: directory,
                                state: state, interval: options.statusInterval, progress: progress)
        progress("tune \(request.game): \(request.strategy) by \(request.parameters.map(\.name).joined(separator: ", ")) "
                 + "against \(request.field.joined(separator: ", ")), \(request.method.name), objective \(request.objective), "
                 + "\(request.iterations) iterations of \(request.matchesPerMeasurement * request.method.measurementsPerIteration) matches"
                 + (request.final.measurements > 0 ? ", then \(request.final.finalists) finalists x \(request.final.measurements) measurements" : ""))
        let search = try tuner.run { point, iteration, probe throws(InputError) in
            try measurer.measure(point, iteration: iteration, probe: probe, plan: makePlan)
        }
        try measurer.finish()
        state = measurer.state
        let tunedSpec = spec(search.tuned)
        try Files.writeAtomically(TuningCSV.text(parameters: request.parameters, records: search.records,
                                                 matchesPerMeasurement: request.matchesPerMeasurement), to: directory + "/tuning.csv")

        // 2. The verification, each tournament resumable on its own.
        progress("verify: \(tunedSpec) against \(request.startSpec) and against the field, \(request.verifyMatches) matches each "
                 + "(seed \(request.verificationSeed))")
        let verification = try TuningVerification.run(request, tuned: tunedSpec, in: directory + "/" + verifyFolder, threads: threads,
                                                       plan: makePlan, progress: progress)
        try Files.writeAtomically(verification.csv, to: directory + "/verification.csv")
        try Files.writeAtomically(TunedFile.text(request, tuned: search.tuned, tunedSpec: tunedSpec, verification: verification),
                                  to: directory + "/tuned.yaml")
        state.finish(tuned: tunedSpec)
        try state.write(to: directory)
        return TuningOutcome(directory: directory, tuned: search.tuned, tunedSpec: tunedSpec, records: search.records,
                             verification: verification, matchesPlayed: state.matchesThisSession, notes: notes)
    }

    /// The tuning's folder: held, then fresh, resumed (the same request; the journal read
    /// back) or replaced; checked before anything is written.
    private static func prepare(_ request: TuningRequest, options: TuningOptions,
                                threads: Int) throws(InputError) -> (ResultsLock, TuningJournal, TuningState, [String]) {
        let directory = options.directory
        let (lock, contents) = try RunFolder.hold(directory, label: "--out \(directory)", record: TuningState.fileName, ownFiles: Self.ownFiles)
        var notes: [String] = []
        let journalPath = directory + "/" + TuningJournal.fileName
        var journal: TuningJournal
        var state = TuningState(request: request, threads: threads)
        if !contents.isEmpty && options.resume {
            let earlier = try TuningState.read(from: directory)
            if let difference = earlier.identity.difference(from: state.identity) {
                throw InputError("\(directory)/\(TuningState.fileName): the tuning there was made with a different request "
                    + "(\(difference)); resume with the same flags, or pass --force to start over")
            }
            let (read, note) = try TuningJournal.resume(journalPath, parameters: request.parameters)
            // Each measurement of a request plays as many matches: checked before anything is written.
            if let entry = read.entries.first(where: { $0.matches != request.matchesPerMeasurement }) {
                throw InputError("\(journalPath):\(entry.measurement + 1): measurement \(entry.measurement) holds \(entry.matches) "
                    + "matches, but a measurement of this request plays \(request.matchesPerMeasurement): the file was made by "
                    + "another version or request; pass --force to start over")
            }
            journal = read
            if let note { notes.append(note) }
            state.started = earlier.started
            notes.append("resuming \(directory) after measurement \(journal.entries.count)")
        } else if !contents.isEmpty && !options.force {
            throw InputError("\(directory) already holds results; pass --resume to finish that tuning or --force to replace it")
        } else {
            if !contents.isEmpty {
                try clear(directory, contents: contents)
                notes.append("replaced the tuning in \(directory)")
            } else if options.resume {
                notes.append("warning: --resume: \(directory) holds no tuning yet; starting it")
            }
            journal = try TuningJournal.create(journalPath, parameters: request.parameters)
        }
        return (lock, journal, state, notes)
    }

    /// The gauntlet of one measurement: the candidate (entrant 0) against every field
    /// spec, the request's blocks per opponent, seeded for `iteration`.
    static func measurementConfig(_ request: TuningRequest, candidate: String, iteration: Int) -> TournamentConfig {
        TournamentConfig(name: "tune", game: request.game, rules: request.rules, map: request.map, seats: 2,
                         entrants: [Entrant(name: "candidate", strategy: candidate)] + fieldEntrants(request.field),
                         format: .gauntlet, candidate: "candidate", blocks: request.blocks,
                         seed: request.measurementSeed(iteration: iteration), threads: 0)
    }

    /// The field as entrants named after their strategies (`heuristic`, `heuristic-2`, ...).
    static func fieldEntrants(_ field: [String]) -> [Entrant] {
        var used: [String: Int] = [:]
        return field.map { spec in
            let base = String(spec.prefix { $0 != "(" }).trimmingSpaces
            let name = base.isEmpty || base == "candidate" || base == "tuned" || base == "start" ? "field" : base
            used[name, default: 0] += 1
            return Entrant(name: used[name]! == 1 ? name : "\(name)-\(used[name]!)", strategy: spec)
        }
    }

    /// Every name a tuning may leave in its folder.
    static var ownFiles: [String] { files + [verifyFolder, TournamentRunner.botLogs] }

    /// Removes a tuning's files for a run that replaces it (`--force`).
    /// - Throws: when the folder is not a tuning's folder (no tune.json, and files a
    ///   tuning does not write).
    static func clear(_ directory: String, contents: [String]) throws(InputError) {
        let known = ownFiles
        guard contents.contains(TuningState.fileName) || contents.allSatisfy(known.contains) else {
            throw InputError("\(directory) holds files but no \(TuningState.fileName): it is not a tuning's folder, and --force "
                + "replaces only a tuning; choose another --out, or empty the folder")
        }
        for file in known { try? FileManager.default.removeItem(atPath: directory + "/" + file) }
    }

    /// Plays every block of a measurement's plan (the candidate is entrant 0) on
    /// `threads` workers and returns the candidate's score share, summed in block order,
    /// and the matches a seat forfeited.
    static func play(_ plan: TournamentPlan, threads: Int, folder: String) throws(InputError) -> (share: Double, matches: Int, forfeits: Int) {
        let layout = MatchesLayout(plan: plan)
        let blocks = 0..<plan.schedule.blockCount
        plan.resources?.open(resultsFolder: folder)
        defer { plan.resources?.close() }
        let workers = max(1, min(threads, blocks.count))
        let seatings = try plan.seatings(forWorkers: workers)
        let master = plan.config.seed
        let seats = plan.schedule.seats
        var sum = 0.0, matches = 0, forfeits = 0
        ParallelBlocks.run(blocks: blocks, threads: workers, window: workers * 32,
                           play: { worker, block, buffer in
                               layout.playBlock(block, master: master, seatings: seatings[min(worker, seatings.count - 1)], buffer: &buffer)
                           },
                           emit: { _, played in
                               // One seat at most forfeits a match (it ends there).
                               forfeits += played.rows.count { $0.forfeit != nil }
                               MatchRow.scores(played.rows, seats: seats) { row, points in
                                   guard row.entrant == 0 else { return }
                                   sum += points
                                   matches += 1
                               }
                               return true
                           })
        return (matches > 0 ? sum / Double(matches) : .nan, matches, forfeits)
    }
}

/// The two tuners behind one call: each measurement named by its iteration and probe.
struct Tuner {
    let request: TuningRequest
    let spsa: SPSA?
    let ntbea: NTBEA?

    init(_ request: TuningRequest) throws(InputError) {
        self.request = request
        switch request.method {
        case .spsa(var settings):
            settings.iterations = request.iterations
            spsa = try SPSA(parameters: request.parameters, start: request.start, settings: settings, seed: request.seed)
            ntbea = nil
        case .ntbea(var settings):
            settings.iterations = request.iterations
            (settings.finalists, settings.finalMeasurements) = request.final
            ntbea = try NTBEA(parameters: request.parameters, start: request.start, settings: settings, seed: request.seed)
            spsa = nil
        }
    }

    /// The search's records and the tuned point.
    struct Search {
        var records: [TuningRecord]
        var tuned: [Double]
    }

    /// Runs the search; `measure` returns a point's score share, the tuners maximize its
    /// objective (NTBEA compares its finalists by the objective of their mean share).
    func run(_ measure: (_ point: [Double], _ iteration: Int, _ probe: String) throws(InputError) -> Double) throws(InputError) -> Search {
        let objective = request.objective
        if let spsa {
            let result = try spsa.run { plus, minus, iteration throws(InputError) in
                (objective.value(share: try measure(plus, iteration, "plus")), objective.value(share: try measure(minus, iteration, "minus")))
            }
            return Search(records: result.records, tuned: result.final)
        }
        // The final stage's measurements count on from the search's iterations.
        var iteration = 0
        let result = try ntbea!.run(objective: { objective.value(share: $0) }) { point throws(InputError) in
            iteration += 1
            return try measure(point, iteration, iteration > request.iterations ? "final" : "point")
        }
        return Search(records: result.records, tuned: result.best)
    }
}

/// Measures points for a tuner: replays the journal's measurements, plays the rest and
/// appends them, and keeps the live state and the progress lines.
struct Measurer {
    let request: TuningRequest
    var journal: TuningJournal
    let spec: ([Double]) -> String
    let threads: Int
    let directory: String
    var state: TuningState
    let interval: TimeInterval
    let progress: (String) -> Void
    /// Measurements made so far (replayed or played).
    private(set) var count = 0
    private let clock = Date()
    private var lastStatus = Date()

    init(request: TuningRequest, journal: TuningJournal, spec: @escaping ([Double]) -> String, threads: Int, directory: String,
         state: TuningState, interval: TimeInterval, progress: @escaping (String) -> Void) {
        self.request = request
        self.journal = journal
        self.spec = spec
        self.threads = threads
        self.directory = directory
        self.state = state
        self.interval = interval
        self.progress = progress
    }

    /// Search iterations complete after `count` measurements.
    private var iterationsDone: Int { min(request.iterations, count / request.method.measurementsPerIteration) }

    /// The score share of `point` (measurement number `count + 1`): the journal's, or played.
    mutating func measure(_ point: [Double], iteration: Int, probe: String,
                          plan: (TournamentConfig) throws(InputError) -> TournamentPlan) throws(InputError) -> Double {
        count += 1
        let values = zip(request.parameters, point).map { $0.text($1) }
        if count <= journal.entries.count {
            let entry = journal.entries[count - 1]
            guard entry.iteration == iteration, entry.probe == probe, entry.values == values else {
                throw InputError("\(journal.path):\(count + 1): measurement \(count) was of iteration \(entry.iteration) \(entry.probe) "
                    + "at \(entry.values.joined(separator: ", ")), but the search now asks for iteration \(iteration) \(probe) at "
                    + "\(values.joined(separator: ", ")): the file was made by another version or request; pass --force to start over")
            }
            state.record(measurement: count, iterationsDone: iterationsDone, matches: entry.matches, played: false)
            return entry.share
        }
        let candidate = spec(point)
        let measured = try TuningRun.play(try plan(TuningRun.measurementConfig(request, candidate: candidate, iteration: iteration)),
                                          threads: threads, folder: directory)
        if measured.forfeits == measured.matches {
            throw InputError("every match of measurement \(count) (\(candidate)) was forfeited; the bots' logs are in "
                + "\(directory)/\(TournamentRunner.botLogs)/. Fix the bot, then run again with --resume")
        }
        let objective = request.objective.value(share: measured.share)
        try journal.append(.init(measurement: count, iteration: iteration, probe: probe, values: values, matches: measured.matches,
                                 share: measured.share, objective: objective))
        state.record(measurement: count, iterationsDone: iterationsDone, matches: measured.matches, played: true)
        let now = Date()
        if now.timeIntervalSince(lastStatus) >= interval {
            lastStatus = now
            state.showProgress(seconds: now.timeIntervalSince(clock), point: candidate, share: measured.share)
            try state.write(to: directory)
            progress(state.progressLine)
        }
        return measured.share
    }

    /// Writes the last state of the search.
    mutating func finish() throws(InputError) {
        state.showProgress(seconds: Date().timeIntervalSince(clock), point: nil, share: nil)
        state.etaSeconds = nil
        try state.write(to: directory)
    }
}
