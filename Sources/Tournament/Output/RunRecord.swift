import Foundation
import LabCore

/// The version written into `run.json`.
public enum OpponentLabVersion {
    public static let string = "0.4.0"
}

/// `run.json`: the resolved config and everything about a run that is not deterministic
/// (times, speed, memory, threads). The CSV files hold none of it.
struct RunRecord: Codable, Equatable {
    var tool = "oplab"
    var version = OpponentLabVersion.string
    var config: ResolvedConfig
    /// "K/N"; "1/1" for a whole run.
    var shard: String
    var status: Status
    var blocks: Int
    var blocksDone: Int
    var matchesDone: Int
    var threads: Int
    var started: String
    var finished: String?
    var seconds: Double
    /// Matches played by this session (a resumed run counts only what it played).
    var matchesThisSession: Int
    var matchesPerSecond: Double
    var peakMemoryMB: Double
    var resumedAtBlock: Int?
    var mergedFrom: [String]?

    enum Status: String, Codable { case running, complete, stopped }

    static let fileName = "run.json"

    func write(to directory: String) throws(InputError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        do {
            let data = try encoder.encode(self)
            try Files.writeAtomically(data + Data("\n".utf8), to: directory + "/" + Self.fileName)
        } catch let error as InputError {
            throw error
        } catch {
            throw InputError("cannot write \(directory)/\(Self.fileName): \(error.localizedDescription)")
        }
    }

    static func read(from directory: String) throws(InputError) -> RunRecord {
        let path = directory + "/" + fileName
        guard let data = FileManager.default.contents(atPath: path) else {
            throw InputError("\(directory) is not a results folder: no \(fileName)")
        }
        do {
            return try JSONDecoder().decode(RunRecord.self, from: data)
        } catch {
            throw InputError("\(path): not a run record this version reads (\(error.localizedDescription))")
        }
    }

    static func now() -> String { ISO8601DateFormatter().string(from: Date()) }
}

/// A config with every default resolved and every override applied: what a run was
/// made from. Resume and merge refuse to mix runs whose resolved configs differ.
struct ResolvedConfig: Codable, Equatable {
    var name: String
    var game: String
    var rules: [[String]]
    var map: String?
    var seats: Int
    var entrants: [[String]]
    var format: String
    var candidate: String?
    var blocks: Int
    var seed: UInt64

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
enum Files {
    /// Writes `data` to a temporary file beside `path` and renames it over `path`
    /// (rename(2) replaces atomically), so a reader or a crash never leaves half a file
    /// or none.
    static func writeAtomically(_ data: Data, to path: String) throws(InputError) {
        let temporary = path + ".partial"
        do {
            try data.write(to: URL(fileURLWithPath: temporary))
        } catch {
            throw InputError("cannot write \(temporary): \(error.localizedDescription)")
        }
        guard rename(temporary, path) == 0 else {
            throw InputError("cannot write \(path): \(String(cString: strerror(errno)))")
        }
    }

    static func writeAtomically(_ text: String, to path: String) throws(InputError) {
        try writeAtomically(Data(text.utf8), to: path)
    }

    /// Appends `bytes` with write(2) straight from the buffer (one call per block, no
    /// copy into `Data`); nil, or what went wrong.
    static func append(_ bytes: [UInt8], to handle: FileHandle) -> String? {
        let fd = handle.fileDescriptor
        return bytes.withUnsafeBytes { raw -> String? in
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
