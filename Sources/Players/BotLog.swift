import Foundation
import Glibc
import LabCore
import Synchronization

/// A bot's standard error, kept for its user (player protocol, "Transport"): appended to
/// `bots/ENTRANT.log` in the results folder, capped at ``cap`` bytes (the file says so
/// when the cap is reached), and its last few KiB kept in memory to quote in errors.
/// Every process of one entrant writes here, whole lines at a time, each line marked
/// with the process's number so their output can be told apart.
///
/// A file that cannot be opened or written is not an error of the bot's (its matches
/// play on): the log keeps why in ``failure``, and the session warns of it when the run
/// ends (``BotSession/close()``).
public final class BotLog: Sendable {
    /// Bytes a log file may reach before the rest is dropped.
    public static let defaultCap = 16 << 20
    /// Bytes of the end of the log kept for error messages.
    static let tailSize = 4096

    let cap: Int
    private let state: Mutex<State>

    struct State {
        var path: String?
        var handle: FileHandle?
        var opened = false
        var written = 0
        var capped = false
        var tail: [UInt8] = []
        /// Why the file could not be opened or written, once that happened.
        var failure: String?
    }

    /// A log written to `path` (created with its folder on the first write), or kept
    /// only as a tail in memory when `path` is nil.
    public init(path: String?, cap: Int = BotLog.defaultCap) {
        self.cap = cap
        state = Mutex(State(path: path))
    }

    /// The file the log goes to (nil: memory only).
    public var path: String? { state.withLock { $0.path } }

    /// Why the file could not be opened or written (`cannot open PATH: REASON`), if
    /// it could not: what the bot wrote from then on is not in it.
    public var failure: String? { state.withLock { $0.failure } }

    /// Sends the log to `path` from now on (the tail so far is not copied there).
    func attach(path: String) {
        state.withLock { s in
            guard s.path != path else { return }
            try? s.handle?.close()
            s = State(path: path, tail: s.tail)
        }
    }

    deinit { state.withLock { try? $0.handle?.close() } }

    /// `lines` with every line marked `[process] `.
    private static func marked(_ lines: ArraySlice<UInt8>, process: Int) -> [UInt8] {
        let mark = Array("[\(process)] ".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(lines.count + 16)
        var atLineStart = true
        for b in lines {
            if atLineStart { bytes += mark; atLineStart = false }
            bytes.append(b)
            if b == UInt8(ascii: "\n") { atLineStart = true }
        }
        return bytes
    }

    /// Appends one or more whole lines of process `process`. Once the file is full (or
    /// there is none) only the end of `lines` is marked and kept, for ``tail``: a bot that
    /// writes without end costs little more than the reading.
    func write(lines: ArraySlice<UInt8>, process: Int) {
        let toFile = state.withLock { s in s.path != nil && !s.capped && s.failure == nil }
        var lines = lines
        if !toFile, lines.count > Self.tailSize * 2 {
            // Whole lines, from one after the cut (the line cut into is dropped).
            let cut = lines.endIndex - Self.tailSize * 2
            lines = lines[cut...]
            if let newline = lines.firstIndex(of: UInt8(ascii: "\n")), newline + 1 < lines.endIndex { lines = lines[(newline + 1)...] }
        }
        let bytes = Self.marked(lines, process: process)
        let cap = cap
        state.withLock { s in
            s.tail += bytes
            if s.tail.count > Self.tailSize * 2 { s.tail.removeFirst(s.tail.count - Self.tailSize) }
            guard let path = s.path, !s.capped, s.failure == nil else { return }
            if !s.opened {
                s.opened = true
                do throws(InputError) {
                    let handle = try Self.open(path)
                    s.handle = handle
                    s.written = Int((try? handle.seekToEnd()) ?? 0)
                } catch {
                    s.failure = "cannot open \(path): \(error.message)"
                    return
                }
            }
            guard let handle = s.handle else { return }
            do {
                if s.written + bytes.count > cap {
                    let room = max(0, cap - s.written)
                    s.capped = true
                    s.written = cap
                    try handle.write(contentsOf: bytes.prefix(room))
                    try handle.write(contentsOf: Data("\n[oplab: this log reached its cap of \(cap) bytes; the rest of the bot's standard error was dropped]\n".utf8))
                } else {
                    s.written += bytes.count
                    try handle.write(contentsOf: bytes)
                }
            } catch {
                s.failure = "cannot write \(path): \(Self.reason(error))"
                try? handle.close()
                s.handle = nil
            }
        }
    }

    /// The file at `path` opened for appending (created with its folder when missing):
    /// a resumed run keeps the log of its earlier sessions.
    /// A write error in the system's words (not Foundation's "The operation could not be completed").
    private static func reason(_ error: any Error) -> String {
        var current = error as NSError
        for _ in 0..<3 {
            if current.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(current.code))) }
            guard let next = current.userInfo[NSUnderlyingErrorKey] as? NSError else { break }
            current = next
        }
        return "the file system refused it (code \((error as NSError).code))"
    }

    private static func open(_ path: String) throws(InputError) -> FileHandle {
        // The log's folder (`bots/`) sits in the results folder, which exists.
        let folder = PathText.parent(of: path)
        if !folder.isEmpty, mkdir(folder, 0o755) != 0, errno != EEXIST {
            throw InputError("cannot make its folder \(folder): \(String(cString: strerror(errno)))")
        }
        let fd = Glibc.open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw InputError(String(cString: strerror(errno))) }
        return FileHandle(fileDescriptor: fd, closeOnDealloc: true)
    }

    /// The last lines of the log (at most about 4 KiB), for an error message.
    public var tail: String {
        state.withLock { s in
            var bytes = s.tail.suffix(Self.tailSize)
            if s.tail.count > Self.tailSize, let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) {
                bytes = bytes[(newline + 1)...]
            }
            return String(decoding: bytes, as: UTF8.self)
        }
    }
}
