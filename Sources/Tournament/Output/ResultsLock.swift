import Foundation
import LabCore
import Synchronization

/// An exclusive hold on a results folder, so that one process at a time writes it.
///
/// The hold is flock(2) on `FOLDER/.oplab.lock`: the kernel drops it when the holder
/// exits, however it exits (kill -9 included), so a stale lock file never blocks the
/// next run. The file keeps the holder's pid for the refusal message; it is left in
/// place (removing a lock file races with the next holder) and every folder check
/// ignores it.
///
/// Within one process the hold is re-entrant: a command that holds a folder (say
/// `tournament`, which then draws the report) may take it again from inner code.
public final class ResultsLock: Sendable {
    /// The lock file's name inside a results folder.
    public static let fileName = ".oplab.lock"

    /// The folder held.
    public let directory: String
    private let key: String

    /// Folders this process holds: canonical path -> (descriptor, holds).
    private static let held = Mutex<[String: (fd: Int32, count: Int)]>([:])

    /// Takes the folder, creating it (and its parents) when missing.
    /// - Throws: ``InputError`` naming the holder's pid when another process holds the
    ///   folder (the caller exits with status 2), or when the folder or the lock file
    ///   cannot be made.
    public init(directory: String) throws(InputError) {
        self.directory = directory
        try Files.makeFolder(directory)
        let key = URL(fileURLWithPath: directory).resolvingSymlinksInPath().standardizedFileURL.path
        self.key = key
        let path = directory + "/" + Self.fileName
        let result: Result<Void, InputError> = Self.held.withLock { held in
            if let entry = held[key] {
                held[key] = (entry.fd, entry.count + 1)
                return .success(())
            }
            let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
            guard fd >= 0 else {
                return .failure(InputError("cannot open the lock file \(path): \(String(cString: strerror(errno)))"))
            }
            var status: Int32
            repeat { status = flock(fd, LOCK_EX | LOCK_NB) } while status != 0 && errno == EINTR
            guard status == 0 else {
                let reason = errno
                let holder = Self.readPid(fd)
                close(fd)
                guard reason == EWOULDBLOCK else {
                    return .failure(InputError("cannot lock \(path): \(String(cString: strerror(reason)))"))
                }
                let who = holder.map { "oplab (pid \($0))" } ?? "another oplab process"
                return .failure(InputError("\(directory) is in use by \(who): one process at a time writes a results folder; "
                    + "wait for it to finish, or stop it first"))
            }
            let pid = Array("\(getpid())\n".utf8)
            _ = ftruncate(fd, 0)
            _ = pid.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
            held[key] = (fd, 1)
            return .success(())
        }
        try result.get()
    }

    deinit {
        Self.held.withLock { held in
            guard let entry = held[key] else { return }
            if entry.count > 1 {
                held[key] = (entry.fd, entry.count - 1)
            } else {
                // Unlocked before the close: a child forked by another thread (a bot, a
                // browser) shares the descriptor until it execs, and a close alone would
                // leave the lock held through that copy, so that this process's next hold
                // finds it taken (by itself).
                _ = flock(entry.fd, LOCK_UN)
                close(entry.fd)
                held[key] = nil
            }
        }
    }

    /// The pid of the process holding `directory` on this machine, nil when none does
    /// (no lock file, or its lock free). A process on another machine sharing the folder
    /// over a network file system may not show.
    public static func holder(of directory: String) -> Int32? {
        let fd = open(directory + "/" + fileName, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var status: Int32
        repeat { status = flock(fd, LOCK_SH | LOCK_NB) } while status != 0 && errno == EINTR
        guard status != 0 else {
            _ = flock(fd, LOCK_UN)  // before the close, as in deinit
            return nil
        }
        return errno == EWOULDBLOCK ? (readPid(fd) ?? 0) : nil
    }

    /// The pid written in the lock file, if any.
    private static func readPid(_ fd: Int32) -> Int32? {
        var bytes = [UInt8](repeating: 0, count: 32)
        let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard n > 0 else { return nil }
        return Int32(String(decoding: bytes[..<n], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// The names in `directory` other than the lock file (empty when it is missing).
    public static func contents(of directory: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0 != fileName }
    }
}

/// An exclusive hold on a folder that a command writes one file into (a ladder, a model),
/// so that two such commands do not write the same folder at once: flock(2) on the
/// folder itself, which leaves no file behind. The kernel drops it when the holder exits.
public final class FolderHold: Sendable {
    private let fd: Int32

    /// Takes `folder`, which must exist.
    /// - Throws: ``InputError`` when another process holds it, or it cannot be opened.
    public init(_ folder: String) throws(InputError) {
        let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw InputError("cannot open the folder \(folder): \(String(cString: strerror(errno)))") }
        var status: Int32
        repeat { status = flock(fd, LOCK_EX | LOCK_NB) } while status != 0 && errno == EINTR
        guard status == 0 else {
            let reason = errno
            close(fd)
            throw InputError(reason == EWOULDBLOCK
                ? "\(folder) is in use by another oplab process writing into it; wait for it to finish"
                : "cannot lock the folder \(folder): \(String(cString: strerror(reason)))")
        }
        // A results folder another process writes is its own, as for any writer of it.
        if let pid = ResultsLock.holder(of: folder) {
            _ = flock(fd, LOCK_UN)
            close(fd)
            throw InputError("\(folder) is in use by oplab (pid \(pid)): one process at a time writes a folder; wait for it to finish")
        }
        self.fd = fd
    }

    deinit {
        _ = flock(fd, LOCK_UN)  // before the close, as in ResultsLock's deinit
        close(fd)
    }
}
