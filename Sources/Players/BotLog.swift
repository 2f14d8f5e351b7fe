import Foundation
import LabCore
import Synchronization

/// A bot's standard error, kept for its user (player protocol, "Transport"): appended to
/// `bots/ENTRANT.log` in the results folder, capped at ``cap`` bytes (the file says so
/// when the cap is reached), and its last few KiB kept in memory to quote in errors.
/// Every process of one entrant writes here, whole lines at a time, each line marked
/// with the process's number so their output can be told apart.
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
    }

    /// A log written to `path` (created with its folder on the first write), or kept
    /// only as a tail in memory when `path` is nil.
    public init(path: String?, cap: Int = BotLog.defaultCap) {
        self.cap = cap
        state = Mutex(State(path: path))
    }

    /// The file the log goes to (nil: memory only).
    public var path: String? { state.withLock { $0.path } }

    /// Sends the log to `path` from now on (the tail so far is not copied there).
    func attach(path: String) {
        state.withLock { s in
            guard s.path != path else { return }
            try? s.handle?.close()
            s = State(path: path, tail: s.tail)
        }
    }

    deinit { state.withLock { try? $0.handle?.close() } }

    /// Appends one or more whole lines of process `process`.
    func write(lines: ArraySlice<UInt8>, process: Int) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(lines.count + 16)
        var atLineStart = true
        for b in lines {
            if atLineStart { bytes += Array("[\(process)] ".utf8); atLineStart = false }
            bytes.append(b)
            if b == UInt8(ascii: "\n") { atLineStart = true }
        }
        let cap = cap
        state.withLock { s in
            s.tail += bytes
            if s.tail.count > Self.tailSize * 2 { s.tail.removeFirst(s.tail.count - Self.tailSize) }
            guard let path = s.path, !s.capped else { return }
            if !s.opened {
                s.opened = true
                let folder = PathText.parent(of: path)
                try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                // Appended to: a resumed run keeps the log of its earlier sessions.
                if FileManager.default.fileExists(atPath: path) || FileManager.default.createFile(atPath: path, contents: nil) {
                    s.handle = FileHandle(forWritingAtPath: path)
                    s.written = Int((try? s.handle?.seekToEnd()) ?? 0)
                }
            }
            guard let handle = s.handle else { return }
            if s.written + bytes.count > cap {
                let room = max(0, cap - s.written)
                try? handle.write(contentsOf: bytes.prefix(room))
                try? handle.write(contentsOf: Data("\n[oplab: this log reached its cap of \(cap) bytes; the rest of the bot's standard error was dropped]\n".utf8))
                s.capped = true
                s.written = cap
            } else {
                try? handle.write(contentsOf: bytes)
                s.written += bytes.count
            }
        }
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
