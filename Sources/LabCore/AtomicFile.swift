#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a file whole or not at all: the bytes go to `PATH.partial` with write(2), which
/// is then renamed over `PATH` (rename(2) replaces atomically), so a reader or a crash
/// never sees half a file.
///
/// write(2) from the caller's buffer, in chunks, each short write resumed where it stopped:
/// Foundation's `Data.write` on Linux (swift-corelibs-foundation 6.x) rewrites the buffer's
/// start after the kernel's first short write of 0x7ffff000 bytes, so a file of more than
/// 2 GiB (a learning's checkpoint) came out the right length with the wrong bytes.
public enum AtomicFile {
    /// What a file being written is called until it is renamed into place.
    public static let partialSuffix = ".partial"

    /// The most one write(2) is asked for; smaller in tests, to cover resumed writes.
    public static let chunk = 1 << 30

    /// Writes `bytes` to `path` through `path.partial`.
    /// - Returns: nil, or why it failed (strerror's words), with the temporary removed.
    public static func write(_ bytes: UnsafeRawBufferPointer, to path: String, chunk: Int = chunk) -> String? {
        let temporary = path + partialSuffix
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return String(cString: strerror(errno)) }
        var failure: String?
        var done = 0
        while done < bytes.count {
            let n = writeFile(fd, bytes.baseAddress! + done, min(chunk, bytes.count - done))
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                failure = n == 0 ? "the file system took no bytes" : String(cString: strerror(errno))
                break
            }
            done += n
        }
        if close(fd) != 0 && failure == nil { failure = String(cString: strerror(errno)) }
        if failure == nil && rename(temporary, path) != 0 { failure = String(cString: strerror(errno)) }
        if failure != nil { unlink(temporary) }
        return failure
    }

    /// As the buffer form, for an array.
    public static func write(_ bytes: [UInt8], to path: String, chunk: Int = chunk) -> String? {
        bytes.withUnsafeBytes { write($0, to: path, chunk: chunk) }
    }
}

/// write(2), named apart from the `write` members that hide it inside the type.
private func writeFile(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, buffer, count)
}
