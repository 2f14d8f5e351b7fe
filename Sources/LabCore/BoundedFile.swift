#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads an input file (a map, a model, a record) no further than a limit, so that a
/// file of gigabytes, a FIFO or a device such as /dev/zero costs a bounded read and a
/// clear error instead of memory or a hang.
public enum BoundedFile {
    /// Why a file could not be read, in a few words (`no such file`, `it is a directory`,
    /// `it is larger than 1 MiB`).
    public struct Failure: Error, Sendable {
        public var reason: String
    }

    /// The bytes of the regular file at `path`, at most `limit` of them.
    /// - Parameter what: what the file is, for messages (`the map`, `the model file`).
    /// - Throws: ``InputError`` `PATH: cannot read WHAT: REASON` when it is missing, not a
    ///   regular file, unreadable, or longer than `limit` bytes.
    public static func contents(_ path: String, limit: Int, what: String) throws(InputError) -> [UInt8] {
        do {
            return try bytes(path, limit: limit)
        } catch {
            throw InputError("\(path): cannot read \(what): \(error.reason)")
        }
    }

    /// As ``contents(_:limit:what:)``, the reason alone.
    public static func bytes(_ path: String, limit: Int) throws(Failure) -> [UInt8] {
        func failure(_ reason: String) -> Failure { Failure(reason: reason) }
        var info = stat()
        guard stat(path, &info) == 0 else { throw failure(errno == ENOENT ? "no such file" : String(cString: strerror(errno))) }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw failure("it is a directory")
        case S_IFIFO: throw failure("it is a FIFO, not a file")
        case S_IFCHR, S_IFBLK: throw failure("it is a device, not a file")
        default: throw failure("it is not a regular file")
        }
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw failure(errno == EACCES ? "permission denied" : String(cString: strerror(errno))) }
        defer { close(fd) }
        let tooLong = failure("it is larger than \(describe(limit)), the most it may hold")
        guard Int(info.st_size) <= limit else { throw tooLong }
        // Read to the limit and one byte past it: a file that grew since stat is caught too.
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size) + 1)
        var length = 0
        while true {
            if length == bytes.count {
                guard bytes.count <= limit else { throw tooLong }
                bytes += [UInt8](repeating: 0, count: min(bytes.count, limit + 1 - bytes.count))
            }
            let n = bytes.withUnsafeMutableBytes { readFile(fd, $0.baseAddress! + length, $0.count - length) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw failure(String(cString: strerror(errno))) }
            if n == 0 { break }
            length += n
        }
        guard length <= limit else { throw tooLong }
        bytes.removeLast(bytes.count - length)  // in place: a checkpoint of gigabytes is not copied
        return bytes
    }

    /// `1 MiB`, `64 MiB`, `4096 bytes`.
    static func describe(_ bytes: Int) -> String {
        bytes >= 1 << 20 && bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB" : "\(bytes) bytes"
    }
}

/// read(2), named apart from the `read` members that hide it inside the type.
private func readFile(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(fd, buffer, count)
}
