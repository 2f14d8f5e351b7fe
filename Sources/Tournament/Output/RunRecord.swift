import Foundation
import LabCore

/// The version written into `run.json`.
public enum OpponentLabVersion {
    public static let string = "0.7.0"
}

/// `run.json`: the resolved config and everything about a run that is not deterministic
/// (times, speed, memory, threads). The CSV files hold none of it. The harness writes
/// it; resume, merge and the report read it (``read(from:)``).
public struct RunRecord: Codable, Equatable, Sendable {
    public internal(set) var tool = "oplab"
    public internal(set) var version = OpponentLabVersion.string
    public internal(set) var config: ResolvedConfig
    /// "K/N"; "1/1" for a whole run.
    public internal(set) var shard: String
    public internal(set) var status: Status
    /// Blocks of this run (a shard's share), and how many are done.
    public internal(set) var blocks: Int
    public internal(set) var blocksDone: Int
    public internal(set) var matchesDone: Int
    public internal(set) var threads: Int
    public internal(set) var started: String
    public internal(set) var finished: String?
    public internal(set) var seconds: Double
    /// Matches played by this session (a resumed run counts only what it played).
    public internal(set) var matchesThisSession: Int
    public internal(set) var matchesPerSecond: Double
    public internal(set) var peakMemoryMB: Double
    public internal(set) var resumedAtBlock: Int?
    public internal(set) var mergedFrom: [String]?
    /// Per entrant, in config order, its time per decision over every session of the run
    /// (and every shard, once merged). Absent in records of earlier versions.
    public internal(set) var decisionTimes: [DecisionRecord]?
    /// Per entrant that forfeited matches (external bots), how many by kind, over the
    /// whole run: timeouts depend on the machine, so they are counted here as well as in
    /// the CSV files. Absent when no entrant forfeited.
    public internal(set) var forfeits: [ForfeitRecord]?
    /// When the record was last written: every few seconds while the run plays (the live
    /// state `oplab status` reads), and at its end. Absent in records of version 0.6.0
    /// and earlier.
    public internal(set) var updated: String?
    /// Seconds still to play at this session's rate; nil when unknown or done.
    public internal(set) var etaSeconds: Double?
    /// The entrant with the highest score share so far, with its 95 % interval over
    /// blocks; nil before the first block.
    public internal(set) var leader: Leader?

    /// An entrant's standing so far (``leader``).
    public struct Leader: Codable, Equatable, Sendable {
        public var entrant: String
        public var scoreShare: Double
        public var low: Double
        public var high: Double
        public var matches: Int
    }

    /// One entrant's forfeits by kind.
    public struct ForfeitRecord: Codable, Equatable, Sendable {
        public var entrant: String
        public var timeout: Int
        public var crash: Int
        public var illegal: Int
        public var malformed: Int
    }

    /// `running` while it plays (or after a kill), `complete`, `stopped` by its test
    /// (SPRT) or a broken bot, `interrupted` by SIGINT or SIGTERM (the blocks done are
    /// in the files; `--resume` continues).
    public enum Status: String, Codable, Sendable { case running, complete, stopped, interrupted }

    public static let fileName = "run.json"

    func write(to directory: String) throws(InputError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        do {
            let data = try encoder.encode(self)
            try Files.writeAtomically(data + Data("\n".utf8), to: directory + "/" + Self.fileName)
        } catch let error as InputError {
            throw error
        } catch {
            throw InputError("cannot write \(directory)/\(Self.fileName): \(Files.reason(error))")
        }
    }

    /// Reads `directory/run.json`.
    /// - Throws: when the file is missing, is not JSON, or lacks a key or holds one of the
    ///   wrong type: the error names the path and the key (`config.seats`).
    public static func read(from directory: String) throws(InputError) -> RunRecord {
        let path = directory + "/" + fileName
        guard PathKind(of: path) != .missing else { throw InputError("\(directory) is not a results folder: no \(fileName)") }
        // A record is a few kilobytes: one of more than 16 MiB is not one.
        let data = Data(try BoundedFile.contents(path, limit: 16 << 20, what: "the run's record"))
        func key(_ codingPath: [any CodingKey], _ last: (any CodingKey)? = nil) -> String {
            (codingPath + (last.map { [$0] } ?? [])).map { $0.intValue.map { "[\($0)]" } ?? "." + $0.stringValue }
                .joined().replacingOccurrences(of: ".[", with: "[").trimmingPrefix(".").description
        }
        let record: RunRecord
        do {
            record = try JSONDecoder().decode(RunRecord.self, from: data)
        } catch DecodingError.keyNotFound(let missing, let context) {
            throw InputError("\(path): missing key '\(key(context.codingPath, missing))'; `oplab tournament` writes it")
        } catch DecodingError.typeMismatch(let type, let context) {
            throw InputError("\(path): key '\(key(context.codingPath))': expected \(describe(type))")
        } catch DecodingError.valueNotFound(let type, let context) {
            throw InputError("\(path): key '\(key(context.codingPath))': expected \(describe(type)), found null")
        } catch DecodingError.dataCorrupted(let context) where !context.codingPath.isEmpty {
            throw InputError("\(path): key '\(key(context.codingPath))': \(context.debugDescription)")
        } catch {
            throw InputError("\(path): not a run record this version reads (not JSON, or not an object)")
        }
        try record.checkNumbers(path: path)
        return record
    }

    /// The most matches (and so blocks) a count in a record may hold: what a schedule
    /// can number (``Schedule/maxMatches``).
    static let maxCount = Schedule.maxMatches
    /// The most a count of decisions (or of a histogram's bucket) may hold: far above any
    /// run's, low enough that the shards' counts add up without overflow.
    static let maxDecisions = 100_000_000_000_000_000
    /// The most worker threads a record may name (a machine's cores, resolved from 0, may
    /// pass ``RunOptions/maxThreads``).
    static let maxThreads = 65_536
    /// The most seats a record's config may name: above any game's.
    static let maxSeats = 256

    /// Checks every number against what a run can write, so that no reader (status, the
    /// report, resume, merge) meets a count it cannot hold or a time it cannot convert.
    /// - Throws: naming the path, the key, the value found and the range accepted.
    func checkNumbers(path: String) throws(InputError) {
        let check = NumberCheck(path: path)
        try check.count("config.seats", config.seats, 1...Self.maxSeats)
        try check.count("config.blocks", config.blocks, 1...Self.maxCount)
        try check.count("blocks", blocks, 0...Self.maxCount)
        try check.count("blocksDone", blocksDone, 0...blocks, "0...blocks (\(blocks))")
        try check.count("matchesDone", matchesDone, 0...Self.maxCount)
        try check.count("matchesThisSession", matchesThisSession, 0...Self.maxCount)
        try check.count("threads", threads, 0...Self.maxThreads)
        try check.number("seconds", seconds, 0...1e9)
        try check.number("matchesPerSecond", matchesPerSecond, 0...1e9)
        try check.number("peakMemoryMB", peakMemoryMB, 0...1e9)
        if let etaSeconds { try check.number("etaSeconds", etaSeconds, 0...1e15) }
        if let resumedAtBlock { try check.count("resumedAtBlock", resumedAtBlock, 0...blocks, "0...blocks (\(blocks))") }
        if let leader {
            try check.number("leader.scoreShare", leader.scoreShare, 0...1)
            try check.number("leader.low", leader.low, 0...1)
            try check.number("leader.high", leader.high, 0...1)
            try check.count("leader.matches", leader.matches, 0...Self.maxCount)
        }
        for (i, d) in (decisionTimes ?? []).enumerated() {
            let key = "decisionTimes[\(i)]."
            try check.count(key + "decisions", d.decisions, 0...Self.maxDecisions)
            try check.count(key + "sampled", d.sampled, 0...Self.maxDecisions)
            try check.number(key + "seconds", d.seconds, 0...1e12)
            try check.number(key + "sampledSeconds", d.sampledSeconds, 0...1e9)
            try check.number(key + "meanMicroseconds", d.meanMicroseconds, 0...1e15)
            try check.number(key + "p99Microseconds", d.p99Microseconds, 0...1e15)
            for (j, pair) in d.histogram.enumerated() {
                let at = key + "histogram[\(j)]"
                guard pair.count == 2 else {
                    throw InputError("\(path): key '\(at)': \(pair.count) numbers; expected a pair [bucket, count]")
                }
                try check.count(at + "[0]", pair[0], 0...(DecisionTimes.bucketCount - 1), "a bucket 0...\(DecisionTimes.bucketCount - 1)")
                try check.count(at + "[1]", pair[1], 0...Self.maxDecisions)
            }
        }
        for (i, f) in (forfeits ?? []).enumerated() {
            for (name, value) in [("timeout", f.timeout), ("crash", f.crash), ("illegal", f.illegal), ("malformed", f.malformed)] {
                try check.count("forfeits[\(i)].\(name)", value, 0...Self.maxCount)
            }
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is Int.Type, is UInt64.Type: "a whole number"
        case is Double.Type: "a number"
        case is String.Type: "a string"
        case is [Any].Type: "an array"
        case is [String: Any].Type: "an object"
        default: "\(type)"
        }
    }

    static func now() -> String { ISO8601DateFormatter().string(from: Date()) }

    /// The live state of a running session from its tally: blocks and matches done,
    /// this session's `played` blocks of `remaining` in `seconds`, its rate and ETA,
    /// forfeits, the leader and the time of the update.
    mutating func showProgress(_ tally: Tally, played: Int, of remaining: Int, matchesPerBlock: Int, seconds: Double) {
        blocksDone = tally.blocks
        matchesDone = tally.blocks * matchesPerBlock
        self.seconds = seconds
        matchesThisSession = played * matchesPerBlock
        matchesPerSecond = seconds > 0 ? Double(matchesThisSession) / seconds : 0
        etaSeconds = played > 0 && seconds > 0 ? Double(remaining - played) * seconds / Double(played) : nil
        forfeits = tally.forfeitRecords
        leader = tally.leader()
        peakMemoryMB = Files.peakMemoryMB()
        updated = Self.now()
    }
}

/// Range checks of the numbers of a file, with errors that name the file, the key, the
/// value found and the range accepted.
struct NumberCheck {
    var path: String

    func count(_ key: String, _ value: Int, _ range: ClosedRange<Int>, _ accepted: String? = nil) throws(InputError) {
        guard range.contains(value) else {
            throw InputError("\(path): key '\(key)': \(value) is out of range; expected a whole number in "
                + (accepted ?? "\(range.lowerBound)...\(range.upperBound)"))
        }
    }

    func number(_ key: String, _ value: Double, _ range: ClosedRange<Double>) throws(InputError) {
        guard value.isFinite, range.contains(value) else {
            throw InputError("\(path): key '\(key)': \(value) is out of range; expected a finite number in "
                + "\(Self.text(range.lowerBound))...\(Self.text(range.upperBound))")
        }
    }

    /// A bound as people write it: `0`, `1`, `1e9`.
    static func text(_ x: Double) -> String {
        if x == x.rounded(), abs(x) < 1e6 { return String(Int(x)) }
        let exponent = Int(log10(abs(x)).rounded(.down))
        let mantissa = x / pow(10, Double(exponent))
        return (mantissa == 1 ? "1" : "\(mantissa)") + "e\(exponent)"
    }
}

/// A config with every default resolved and every override applied: what a run was
/// made from. Resume and merge refuse to mix runs whose resolved configs differ.
public struct ResolvedConfig: Codable, Equatable, Sendable {
    public internal(set) var name: String
    public internal(set) var game: String
    /// `[knob, value]` pairs.
    public internal(set) var rules: [[String]]
    public internal(set) var map: String?
    public internal(set) var seats: Int
    /// `[name, strategy]` pairs, in config order.
    public internal(set) var entrants: [[String]]
    public internal(set) var format: String
    public internal(set) var candidate: String?
    /// Blocks per table.
    public internal(set) var blocks: Int
    public internal(set) var seed: UInt64

    init(_ config: TournamentConfig) {
        name = config.name
        game = config.game
        rules = config.rules.map { [$0.key, $0.value] }
        map = config.map
        seats = config.seats
        entrants = config.entrants.map { [$0.name, $0.strategy] }
        format = config.format.rawValue
        candidate = config.candidate
        blocks = config.blocks
        seed = config.seed
    }

    /// The first field that differs from `other`, for an error message.
    func difference(from other: ResolvedConfig) -> String? {
        let mirror = Mirror(reflecting: self), theirs = Mirror(reflecting: other)
        for (mine, their) in zip(mirror.children, theirs.children) where "\(mine.value)" != "\(their.value)" {
            return "\(mine.label ?? "?"): \(their.value) there, \(mine.value) here"
        }
        return nil
    }
}

/// File helpers with errors that name the path.
public enum Files {
    /// Writes `data` to a temporary file beside `path` and renames it over `path`
    /// (``AtomicFile``), so a reader or a crash never leaves half a file or none.
    public static func writeAtomically(_ data: Data, to path: String) throws(InputError) {
        if let reason = data.withUnsafeBytes({ AtomicFile.write($0, to: path) }) { throw InputError("cannot write \(path): \(reason)") }
    }

    /// As the `Data` form, straight from the array (a checkpoint of gigabytes, not copied).
    public static func writeAtomically(_ bytes: [UInt8], to path: String) throws(InputError) {
        if let reason = AtomicFile.write(bytes, to: path) { throw InputError("cannot write \(path): \(reason)") }
    }

    /// What a file being written is called until it is renamed into place.
    static let partialSuffix = AtomicFile.partialSuffix

    /// Removes what a killed or failed writer left half-written in `directory`
    /// (`*.partial`). Call it only while holding the folder's ``ResultsLock``: then no
    /// one else is writing them.
    static func removeLeftovers(in directory: String) {
        for name in ResultsLock.contents(of: directory) where name.hasSuffix(partialSuffix) {
            try? FileManager.default.removeItem(atPath: directory + "/" + name)
        }
    }

    public static func writeAtomically(_ text: String, to path: String) throws(InputError) {
        try writeAtomically(Data(text.utf8), to: path)
    }

    /// Appends `bytes` with write(2) straight from the buffer (one call per block, no
    /// copy into `Data`); nil, or what went wrong.
    static func append(_ bytes: [UInt8], to handle: FileHandle) -> String? {
        append(bytes, to: handle.fileDescriptor)
    }

    /// Appends `bytes` to the file open as `fd`, as the `FileHandle` form does.
    static func append(_ bytes: [UInt8], to fd: Int32) -> String? {
        bytes.withUnsafeBytes { raw -> String? in
            var done = 0
            while done < raw.count {
                let n = write(fd, raw.baseAddress! + done, raw.count - done)
                if n < 0 {
                    if errno == EINTR { continue }
                    return String(cString: strerror(errno))
                }
                done += n
            }
            return nil
        }
    }

    /// Peak resident memory of this process, in MiB.
    static func peakMemoryMB() -> Double {
        var usage = rusage()
        #if os(Linux)
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return Double(usage.ru_maxrss) / 1024
        #else
        getrusage(RUSAGE_SELF, &usage)
        return Double(usage.ru_maxrss) / 1_048_576
        #endif
    }
}
