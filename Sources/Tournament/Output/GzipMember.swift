import CZlib
import Foundation
import LabCore

/// gzip members (RFC 1952) made and read with zlib.
///
/// A gzip file is a series of members, each a complete gzip stream with its own CRC-32 and
/// length (RFC 1952 section 2.2); `zcat`, Python's `gzip` and pandas read the series as one
/// text. `matches.csv.gz` is such a series, appended one member at a time, so every member
/// but a torn last one is whole and checkable on its own.
package enum GzipMember {
    /// The deflate level of every member. Measured on the quickstart's rows in members of
    /// 256 KiB (zlib 1.2.13 through Python, one core): level 4 gives 60.9 bytes per match at
    /// 83 MB/s of rows, 5 gives 58.1 at 57 MB/s, 6 (zlib's default) 57.6 at 38 MB/s; 5 keeps
    /// nearly all of 6's saving for two thirds of its time.
    package static let level: Int32 = 5

    /// `bytes` as one complete gzip member: a header without name or time (so the same
    /// rows give the same bytes), the deflate stream, the CRC-32 and the length.
    /// - Complexity: O(bytes).
    package static func compress(_ bytes: UnsafeRawBufferPointer, level: Int32 = level) -> [UInt8] {
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        defer {
            deflateEnd(stream)
            stream.deinitialize(count: 1)
            stream.deallocate()
        }
        // Fails only without memory (the level and window are fixed and valid).
        let initialized = czlib_deflate_init_gzip(stream, level)
        precondition(initialized == Z_OK, "deflateInit2 failed (\(initialized)): out of memory")
        let bound = Int(deflateBound(stream, uLong(bytes.count)))
        return [UInt8](unsafeUninitializedCapacity: bound) { out, count in
            stream.pointee.next_in = UnsafeMutablePointer(mutating: bytes.baseAddress?.assumingMemoryBound(to: Bytef.self))
            stream.pointee.avail_in = uInt(bytes.count)
            stream.pointee.next_out = out.baseAddress
            stream.pointee.avail_out = uInt(bound)
            // deflateBound bytes always hold the whole member: one call finishes it.
            let finished = deflate(stream, Z_FINISH)
            precondition(finished == Z_STREAM_END, "deflate into deflateBound bytes returned \(finished)")
            count = Int(stream.pointee.total_out)
        }
    }

    package static func compress(_ bytes: [UInt8], level: Int32 = level) -> [UInt8] {
        bytes.withUnsafeBytes { compress($0, level: level) }
    }
}

/// Reads a file of gzip members one member at a time, and hands out a member's bytes only
/// once zlib has checked its CRC-32 and length: what it returns was written whole.
///
/// Memory: one compressed chunk (256 KiB) and one member's bytes. oplab writes members of
/// about 256 KiB of rows; a member of more than ``largestMember`` bytes (a whole file
/// compressed by `gzip` in one piece) is refused rather than held.
final class GzipMemberReader {
    /// Why the members stopped before the end of the file.
    enum Damage: Equatable, Sendable {
        /// The file ends inside a member (a write cut short: kill -9, a full disk).
        case torn
        /// zlib refused a member: a bad header, bad deflate data, or a CRC-32 or length
        /// that does not match (zlib's message).
        case corrupt(String)
    }

    /// The most bytes one member may inflate to.
    static let largestMember = 64 << 20
    static let chunk = 256 << 10

    let path: String
    private let fd: Int32
    private let stream: UnsafeMutablePointer<z_stream>
    private let input: UnsafeMutablePointer<UInt8>
    private let output: UnsafeMutablePointer<UInt8>
    /// Compressed bytes read from the file so far.
    private var inputRead = 0
    private var finished = false
    /// Compressed bytes up to the end of the last complete member.
    private(set) var completeLength = 0
    /// Set when the members stop before the end of the file; ``completeLength`` is where.
    private(set) var damage: Damage?
    /// Complete members handed out so far.
    private(set) var membersRead = 0

    /// Opens `path` to read its members from byte `offset` on (0: the whole file).
    init(path: String, offset: Int = 0) throws(InputError) {
        self.path = path
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw InputError("cannot read '\(path)': \(String(cString: strerror(errno)))") }
        if offset > 0 {
            guard lseek(fd, off_t(offset), SEEK_SET) == off_t(offset) else {
                let reason = String(cString: strerror(errno))
                close(fd)
                throw InputError("cannot read '\(path)' from byte \(offset): \(reason)")
            }
        }
        inputRead = offset
        completeLength = offset
        self.fd = fd
        stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        input = UnsafeMutablePointer<UInt8>.allocate(capacity: Self.chunk)
        output = UnsafeMutablePointer<UInt8>.allocate(capacity: Self.chunk)
        let initialized = czlib_inflate_init_gzip(stream)
        precondition(initialized == Z_OK, "inflateInit2 failed (\(initialized)): out of memory")
    }

    deinit {
        inflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
        input.deallocate()
        output.deallocate()
        close(fd)
    }

    /// The next complete member's bytes; nil at the end of the file, or at the first member
    /// that is torn or corrupt (``damage`` says which, ``completeLength`` where it starts).
    /// - Complexity: O(member).
    /// - Throws: when the file cannot be read, or a member inflates past ``largestMember``.
    func nextMember() throws(InputError) -> [UInt8]? {
        guard !finished, damage == nil else { return nil }
        var member: [UInt8] = []
        while true {
            if stream.pointee.avail_in == 0 {
                let count = try refill()
                if count == 0 {
                    // The end of the file: between members, or inside one.
                    if inputRead == completeLength {
                        finished = true
                    } else {
                        damage = .torn
                    }
                    return nil
                }
            }
            stream.pointee.next_out = output
            stream.pointee.avail_out = uInt(Self.chunk)
            let status = inflate(stream, Z_NO_FLUSH)
            member.append(contentsOf: UnsafeBufferPointer(start: output, count: Self.chunk - Int(stream.pointee.avail_out)))
            guard member.count <= Self.largestMember else {
                throw InputError("\(path): the gzip member at byte \(completeLength) holds more than \(Self.largestMember >> 20) MiB; "
                    + "oplab writes members of about 256 KiB of rows and does not hold a bigger one in memory "
                    + "(a file gzip compressed in one piece: gunzip it to matches.csv)")
            }
            switch status {
            case Z_STREAM_END:
                completeLength = inputRead - Int(stream.pointee.avail_in)
                inflateReset(stream)
                membersRead += 1
                return member
            case Z_OK:
                continue
            case Z_BUF_ERROR where stream.pointee.avail_in == 0:
                continue  // wants more input
            default:
                let message = stream.pointee.msg.map { String(cString: $0) } ?? "zlib status \(status)"
                damage = .corrupt(message)
                return nil
            }
        }
    }

    /// The intact members that follow a damaged one: where the first starts, how many
    /// there are, their rows, and the first and the last row they hold.
    struct Followers: Equatable {
        var offset: Int
        var members: Int
        var rows: Int
        var firstRow: [UInt8]
        var lastRow: [UInt8]
    }

    /// The intact members after the damaged member that starts at byte `start` of
    /// `path`: the first place past `start` where a member begins (the gzip magic
    /// 1f 8b 08) and inflates whole (zlib checks its CRC-32 and length), and the members
    /// that follow it up to the end of the file or the next damage; nil when none does,
    /// that is when the damaged member is the file's last.
    /// - Complexity: O(bytes after `start`), read in chunks.
    static func followers(of path: String, after start: Int) throws(InputError) -> Followers? {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw InputError("cannot read '\(path)'") }
        defer { try? handle.close() }
        var position = start + 1  // file offset of window[0]
        do { try handle.seek(toOffset: UInt64(position)) } catch {
            throw InputError("cannot read '\(path)': \(Files.reason(error))")
        }
        var window: [UInt8] = []
        while true {
            let chunk: Data
            do { chunk = try handle.read(upToCount: Self.chunk) ?? Data() } catch {
                throw InputError("cannot read '\(path)': \(Files.reason(error))")
            }
            window += chunk
            var candidates: [Int] = []
            window.withUnsafeBufferPointer { bytes in
                guard let base = bytes.baseAddress, bytes.count >= 3 else { return }
                var i = 0
                while i <= bytes.count - 3, let hit = memchr(base + i, 0x1F, bytes.count - 2 - i) {
                    let k = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                    if bytes[k + 1] == 0x8B && bytes[k + 2] == 0x08 { candidates.append(k) }
                    i = k + 1
                }
            }
            for k in candidates {
                if let found = try intactMembers(of: path, from: position + k) { return found }
            }
            guard !chunk.isEmpty else { return nil }
            // Keep the last two bytes: a magic may straddle the chunks.
            let keep = min(2, window.count)
            position += window.count - keep
            window = Array(window.suffix(keep))
        }
    }

    /// The members from byte `offset` on, when the first of them is whole.
    private static func intactMembers(of path: String, from offset: Int) throws(InputError) -> Followers? {
        let reader = try GzipMemberReader(path: path, offset: offset)
        guard let first = try? reader.nextMember() else { return nil }
        var followers = Followers(offset: offset, members: 0, rows: 0, firstRow: [], lastRow: [])
        var member: [UInt8]? = first
        while let bytes = member {
            followers.members += 1
            let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
            followers.rows += lines.count - 1
            if followers.firstRow.isEmpty, let line = lines.first(where: { !$0.isEmpty }) { followers.firstRow = Array(line) }
            if let line = lines.dropLast().last(where: { !$0.isEmpty }) { followers.lastRow = Array(line) }
            member = try? reader.nextMember()
        }
        return followers
    }

    /// Reads the next compressed chunk into the stream's input; its byte count, 0 at the end.
    private func refill() throws(InputError) -> Int {
        var count: Int
        repeat { count = read(fd, input, Self.chunk) } while count < 0 && errno == EINTR
        guard count >= 0 else { throw InputError("cannot read '\(path)': \(String(cString: strerror(errno)))") }
        inputRead += count
        stream.pointee.next_in = input
        stream.pointee.avail_in = uInt(count)
        return count
    }
}
