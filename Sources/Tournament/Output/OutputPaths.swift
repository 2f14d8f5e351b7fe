import Foundation
import LabCore

/// What a path names on disk, read with stat(2) (symbolic links followed).
public enum PathKind: Equatable, Sendable {
    case missing
    case file
    case folder
    /// A FIFO, a device, a socket: nothing the lab reads or writes as a file.
    case special(String)

    public init(of path: String) {
        var info = stat()
        guard !path.isEmpty, stat(path, &info) == 0 else {
            self = .missing
            return
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: self = .file
        case S_IFDIR: self = .folder
        case S_IFIFO: self = .special("a FIFO")
        case S_IFCHR, S_IFBLK: self = .special("a device")
        case S_IFSOCK: self = .special("a socket")
        default: self = .special("not a regular file")
        }
    }

    /// "a file", "a folder", "a FIFO", ...: for messages.
    public var described: String {
        switch self {
        case .missing: "missing"
        case .file: "a file"
        case .folder: "a folder"
        case .special(let what): what
        }
    }
}

/// Checks on the paths a command writes, made before anything is written, locked or made:
/// a refusal leaves the file system as it was and says what the path is.
public enum OutputPaths {
    /// The files that make a folder a results folder of the lab's: a tournament's record,
    /// a tuning's, a learning's.
    public static let recordFiles = ["run.json", "tune.json", "learn.json"]

    /// The data files of a results folder, which no command writes over from outside the
    /// run that owns them (a page, `*.html`, may be written beside them).
    public static let dataFiles: Set<String> = [
        "run.json", "matches.csv", "matches.csv.gz", "summary.csv", "pairwise.csv", "ratings.csv", "findings.csv",
        "railroads.csv", "cells.csv", "tune.json", "measurements.csv", "tuning.csv", "verification.csv", "tuned.yaml",
        "ladder.yaml", "learn.json", "generations.csv",
    ]

    /// How a command may replace a file that exists at its output path.
    public enum Replacing: Sendable {
        /// Only with `--force` (the flag given or not).
        case withForce(Bool)
        /// Only a file of the kind the command writes: one whose text starts with one of
        /// these prefixes (an SVG picture, an HTML page the lab wrote), named `kind`.
        case sameKind(String, prefixes: [String])
    }

    /// An HTML page the lab writes (reports, replays).
    public static let htmlPage = Replacing.sameKind("an HTML page", prefixes: ["<!DOCTYPE html>", "<!doctype html>", "<html"])
    /// An SVG picture the lab writes.
    public static let svgPicture = Replacing.sameKind("an SVG picture", prefixes: ["<?xml", "<svg"])

    /// Refuses a file path a command is about to write: an empty path or one that names a
    /// folder; a folder part that is missing or is a file; a data file of a results folder
    /// (`run.json`, `matches.csv`, the summaries ...: only pages may go beside them); one
    /// of the command's `inputs` (its config, map or model); an existing file that
    /// `replacing` does not allow.
    /// - Parameters:
    ///   - label: how the path was given, for messages (e.g. `--out x.yaml`).
    ///   - what: what would be written (e.g. `the ladder`).
    public static func checkFile(_ path: String, label: String, what: String, inputs: [String] = [],
                                 replacing: Replacing) throws(InputError) {
        func refuse(_ reason: String) -> InputError { InputError("\(label): cannot write \(what): \(reason)") }
        let name = PathText.lastComponent(of: path)
        guard !path.isEmpty, !path.hasSuffix("/"), name != ".", name != ".." else {
            throw refuse("expected a file path, e.g. out/\(what.split(separator: " ").last ?? "file")")
        }
        let folder = PathText.folder(of: path)
        switch PathKind(of: folder) {
        case .folder: break
        case .missing: throw refuse("the folder \(folder) does not exist")
        case let other: throw refuse("\(folder) is \(other.described), not a folder")
        }
        let kind = PathKind(of: path)
        switch kind {
        case .folder: throw refuse("it is a folder")
        case .special: throw refuse("it is \(kind.described)")
        case .file, .missing: break
        }
        if isResultsData(path) {
            throw refuse("\(name) is data of the results folder \(folder), which only the run that made it writes; "
                + "choose a path outside it (a page, NAME.html, may go beside it)")
        }
        if kind == .missing { return }
        if let input = inputs.first(where: { sameFile($0, path) }) {
            throw refuse("it is \(input == path ? "" : "\(input), ")an input of this command; choose another path")
        }
        switch replacing {
        case .withForce(let force):
            guard force else { throw InputError("\(label) exists; pass --force to replace it") }
        case .sameKind(let kind, let prefixes):
            guard startsWith(path, oneOf: prefixes) else {
                throw refuse("\(path) exists and is not \(kind); oplab replaces only \(kind) it could have written, "
                    + "so choose another path or remove that file")
            }
        }
    }

    /// Whether `path` is a data file of a results folder: one of ``dataFiles`` in a
    /// folder that holds a record file (``recordFiles``).
    public static func isResultsData(_ path: String) -> Bool {
        let folder = PathText.folder(of: path)
        return dataFiles.contains(PathText.lastComponent(of: path))
            && recordFiles.contains { PathKind(of: PathText.join(folder, $0)) == .file }
    }

    /// Whether `a` and `b` name the same existing file (device and inode).
    public static func sameFile(_ a: String, _ b: String) -> Bool {
        var x = stat(), y = stat()
        guard stat(a, &x) == 0, stat(b, &y) == 0 else { return false }
        return x.st_dev == y.st_dev && x.st_ino == y.st_ino
    }

    /// Whether the file at `path` starts with one of `prefixes` (its first bytes only).
    static func startsWith(_ path: String, oneOf prefixes: [String]) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 64)) ?? Data()
        let text = String(decoding: head, as: UTF8.self).drop { $0 == "\u{FEFF}" || $0 == " " || $0 == "\n" || $0 == "\r" }
        return prefixes.contains { text.hasPrefix($0) }
    }

    /// Refuses a folder a command is about to make its results folder, before it is
    /// locked or made: an empty path; a file, a FIFO or a device; a missing folder that
    /// cannot be made (a file on the way, no permission); a folder that holds another
    /// kind's results (`record` is the record file of this command's kind, e.g.
    /// `run.json`); a folder of other files: anything but this kind's `ownFiles`, the
    /// lock file and half-written `*.partial` files.
    /// - Parameter label: how the folder was given, for messages (e.g. `--out results/x`).
    public static func checkFolder(_ directory: String, label: String, record: String, ownFiles: [String]) throws(InputError) {
        guard !directory.isEmpty else { throw InputError("\(label): expected a folder path, e.g. results/my-run") }
        // "results/x: results/x is a file" says the path twice: once is enough.
        let label = label == directory ? "results folder" : label
        switch PathKind(of: directory) {
        case .missing:
            try checkCanMake(directory, label: label)
        case .folder:
            guard access(directory, W_OK | X_OK) == 0 else {
                throw InputError("\(label): cannot write in the folder \(directory): permission denied")
            }
            let contents = ResultsLock.contents(of: directory).filter { !$0.hasSuffix(Files.partialSuffix) }
            if contents.isEmpty || contents.contains(record) { return }
            if let other = recordFiles.first(where: contents.contains) {
                throw InputError("\(label): \(directory) holds the results of another command (\(other), not \(record)); "
                    + "choose another folder")
            }
            let strangers = contents.filter { !ownFiles.contains($0) }.sorted()
            guard strangers.isEmpty else {
                let shown = strangers.prefix(3).map { "'\(String($0.prefix(60)))'" }.joined(separator: ", ")
                let more = strangers.count > 3 ? " and \(strangers.count - 3) more" : ""
                throw InputError("\(label): \(directory) is a folder of other files (\(shown)\(more)), not a results folder; "
                    + "results go into a new or empty folder or one that holds results already: choose another folder")
            }
        case let other:
            throw InputError("\(label): \(directory) is \(other.described), not a folder; results go in a folder: choose another")
        }
    }

    /// Refuses a missing folder that mkdir -p could not make: the nearest existing path on
    /// the way is a file (or not a folder), or a folder this process cannot write in.
    static func checkCanMake(_ directory: String, label: String?) throws(InputError) {
        let lead = label.map { "\($0): " } ?? ""
        var ancestor = PathText.parent(of: directory)
        while !ancestor.isEmpty, PathKind(of: ancestor) == .missing { ancestor = PathText.parent(of: ancestor) }
        if ancestor.isEmpty { ancestor = "." }
        switch PathKind(of: ancestor) {
        case .folder:
            guard access(ancestor, W_OK | X_OK) == 0 else {
                throw InputError("\(lead)cannot make the folder \(directory): no permission to write in \(ancestor)")
            }
        case let other:
            throw InputError("\(lead)cannot make the folder \(directory): \(ancestor) is \(other.described), not a folder")
        }
    }
}

extension Files {
    /// Why a file operation failed, in the system's words (`No such file or directory`,
    /// `Permission denied`, `No space left on device`): the POSIX error under a
    /// Foundation error, never Foundation's own text ("The operation could not be
    /// completed. (NSCocoaErrorDomain error 512.)").
    public static func reason(_ error: any Error) -> String {
        if let error = error as? InputError { return error.message }
        if let error = error as? DecodingError {
            switch error {
            case .dataCorrupted(let context), .keyNotFound(_, let context), .typeMismatch(_, let context),
                 .valueNotFound(_, let context):
                let key = context.codingPath.map(\.stringValue).joined(separator: ".")
                return (key.isEmpty ? "" : "key '\(key)': ") + context.debugDescription
            @unknown default:
                return "not the JSON expected"
            }
        }
        var current = error as NSError
        for _ in 0..<4 {
            if current.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(current.code))) }
            guard let underlying = current.userInfo[NSUnderlyingErrorKey] as? NSError else { break }
            current = underlying
        }
        switch CocoaError.Code(rawValue: (error as NSError).code) {
        case .fileNoSuchFile, .fileReadNoSuchFile: return "no such file or folder"
        case .fileReadNoPermission, .fileWriteNoPermission: return "permission denied"
        case .fileWriteOutOfSpace: return "no space left on the device"
        case .fileWriteVolumeReadOnly: return "the file system is read-only"
        case .fileWriteFileExists: return "a file is in the way"
        case .fileReadTooLarge: return "the file is too large"
        case .fileReadInapplicableStringEncoding, .fileReadCorruptFile: return "the file is not readable text"
        default: return "the file system refused it (code \((error as NSError).code))"
        }
    }

    /// Makes `path` and its missing parents (as mkdir -p), with errors in our words.
    public static func makeFolder(_ path: String) throws(InputError) {
        guard PathKind(of: path) != .folder else { return }
        try OutputPaths.checkCanMake(path, label: nil)
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw InputError("cannot make the folder \(path): \(reason(error))")
        }
    }
}
