import Foundation
import LabCore

/// How a results folder stores its rows: `matches.csv` as text, or compact,
/// `matches.csv.gz`: the same bytes in gzip members of about ``memberBytes`` of rows each,
/// whole blocks only, appended as the run goes.
public enum MatchesFormat: String, Sendable, CaseIterable {
    case plain, compact

    /// Runs of more matches than this (the whole run's, a shard's folder included) are
    /// compact unless the config's `compact` or the command line says otherwise.
    public static let compactAbove = 100_000

    /// The rows a compact member gathers before it is compressed and written: a member
    /// holds whole blocks, the first that reach this size. Measured on the quickstart's rows
    /// (116 bytes each; level 5, zlib 1.2.13): members of 4 rows take 106 bytes per match,
    /// of 400 rows 59, of 4,000 rows 58, so 256 KiB (about 2,300 rows) is past the knee.
    /// A kill loses the rows not yet in a member, which resume plays again.
    public static let memberBytes = 256 << 10

    public var fileName: String {
        switch self {
        case .plain: "matches.csv"
        case .compact: "matches.csv.gz"
        }
    }

    /// The format of a new run of `plan`: the command line's choice, else the config's
    /// `compact`, else compact above ``compactAbove`` matches.
    static func forNewRun(_ plan: TournamentPlan, option: Bool?) -> MatchesFormat {
        let matches = plan.schedule.blockCount * plan.schedule.matchesPerBlock
        return (option ?? plan.config.compact ?? (matches > compactAbove)) ? .compact : .plain
    }

    /// The format of the rows `directory` holds: the matches file that is there; nil when
    /// there is none.
    /// - Throws: when both are there (a folder written by hand or by two runs).
    public static func present(in directory: String) throws(InputError) -> MatchesFormat? {
        let found = allCases.filter { FileManager.default.fileExists(atPath: directory + "/" + $0.fileName) }
        guard found.count <= 1 else {
            throw InputError("\(directory) holds both matches.csv and matches.csv.gz: a results folder holds its rows in one "
                + "of them; remove the one that is not this run's")
        }
        return found.first
    }

    /// The path of the matches file in `directory`, either format; nil when there is none.
    /// - Throws: when both are there.
    public static func path(in directory: String) throws(InputError) -> String? {
        try present(in: directory).map { directory + "/" + $0.fileName }
    }
}

/// The rows of a matches file as bytes, in chunks, memory bounded: `matches.csv` as it is,
/// or `matches.csv.gz` decompressed member by member. Of a compact file only members whose
/// CRC-32 and length zlib has checked are handed out; a torn last member ends the rows
/// as a torn last line does in `matches.csv` (``damage`` says so).
public final class MatchesSource {
    public let path: String
    public let format: MatchesFormat
    private let handle: FileHandle?
    private let members: GzipMemberReader?
    private let acceptsCorruptTail: Bool
    private var member: [UInt8] = []
    private var cursor = 0

    /// Opens `path`; a name ending in `.gz` is compact.
    /// - Parameter acceptsCorruptTail: end the rows at a member zlib refuses, as at a torn
    ///   one (resume, which cuts the file there), instead of throwing.
    public init(path: String, acceptsCorruptTail: Bool = false) throws(InputError) {
        self.path = path
        self.acceptsCorruptTail = acceptsCorruptTail
        if path.hasSuffix(".gz") {
            format = .compact
            members = try GzipMemberReader(path: path)
            handle = nil
        } else {
            format = .plain
            guard let handle = FileHandle(forReadingAtPath: path) else { throw InputError("cannot read '\(path)'") }
            self.handle = handle
            members = nil
        }
    }

    deinit { try? handle?.close() }

    /// Compact: what ended the rows before the end of the file when the last member is
    /// torn (`a torn gzip member at byte N`); nil otherwise.
    public var tornMember: String? {
        members?.damage == .torn ? "a torn gzip member at byte \(completeLength)" : nil
    }

    /// Compact: why the members stopped before the end of the file, if they did.
    var damage: GzipMemberReader.Damage? { members?.damage }
    /// Compact: the compressed bytes up to the end of the last complete member read.
    var completeLength: Int { members?.completeLength ?? 0 }
    /// Compact: complete members read (the header's is the first).
    var membersRead: Int { members?.membersRead ?? 0 }

    /// Up to `count` bytes of rows; empty at the end.
    /// - Throws: when the file cannot be read, or a member is corrupt (unless the source
    ///   accepts a corrupt tail), naming the file and the member's byte offset.
    public func read(upToCount count: Int) throws(InputError) -> Data {
        guard let members else {
            do { return try handle?.read(upToCount: count) ?? Data() } catch {
                throw InputError("cannot read '\(path)': \(Files.reason(error))")
            }
        }
        var data = Data()
        while data.count < count {
            if cursor == member.count {
                guard let next = try members.nextMember() else {
                    if case .corrupt(let why) = members.damage, !acceptsCorruptTail {
                        throw InputError("\(path): the gzip member at byte \(members.completeLength) is damaged (\(why)); "
                            + "the rows before it are intact (`oplab tournament CONFIG --out FOLDER --resume` cuts a damaged last "
                            + "member off and plays its blocks again; when intact members follow it, it asks for --drop-damaged first)")
                    }
                    break
                }
                member = next
                cursor = 0
            }
            let end = min(member.count, cursor + count - data.count)
            data.append(contentsOf: member[cursor..<end])
            cursor = end
        }
        return data
    }
}
