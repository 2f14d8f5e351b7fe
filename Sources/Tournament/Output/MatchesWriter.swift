import Dispatch
import Foundation
import LabCore
import Synchronization

/// Appends played blocks to a run's matches file, in block order.
///
/// Plain: one write(2) per block, as it comes. Compact: blocks gather in a buffer, and
/// the first block that brings it to ``MatchesFormat/memberBytes`` (and ``finish()``)
/// makes it one gzip member, compressed on a thread of its own while the run plays on and
/// appended in order with one write. A member therefore holds whole blocks, and where a
/// member ends depends only on the rows since the last one: a run resumed after the last
/// complete member cuts the next ones where an uninterrupted run does.
final class MatchesWriter {
    let path: String
    let format: MatchesFormat
    private let handle: FileHandle?
    private let members: GzipMemberPipeline?
    private let memberBytes: Int
    private var buffer: [UInt8] = []
    /// Compact: the blocks gathered for the next member, not yet submitted (0 right after
    /// a block completes a member; always 0 for plain rows, each written at once).
    private(set) var gatheredBlocks = 0

    /// Opens `path` (which exists: ``create(_:format:header:)``) to append to.
    /// - Parameter compressors: threads compressing members at once (compact).
    init(appendingTo path: String, format: MatchesFormat, compressors: Int,
         memberBytes: Int = MatchesFormat.memberBytes) throws(InputError) {
        self.path = path
        self.format = format
        self.memberBytes = memberBytes
        switch format {
        case .plain:
            guard let handle = FileHandle(forWritingAtPath: path) else { throw InputError("cannot open \(path) for writing") }
            _ = try? handle.seekToEnd()
            self.handle = handle
            members = nil
        case .compact:
            let fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC)
            guard fd >= 0 else { throw InputError("cannot open \(path) for writing: \(String(cString: strerror(errno)))") }
            members = GzipMemberPipeline(fd: fd, compressors: compressors)
            handle = nil
            buffer.reserveCapacity(memberBytes + (memberBytes >> 2))
        }
    }

    /// Waits for the members already submitted (a writer dropped on an error writes no
    /// more after it is gone), then closes the file.
    deinit {
        _ = members?.finish()
        try? handle?.close()
    }

    /// Writes a new matches file holding `header` (compact: as its first member), atomically.
    static func create(_ path: String, format: MatchesFormat, header: String) throws(InputError) {
        switch format {
        case .plain: try Files.writeAtomically(header, to: path)
        case .compact: try Files.writeAtomically(Data(GzipMember.compress(Array(header.utf8))), to: path)
        }
    }

    /// Writes (plain) or gathers (compact) one block's rows.
    /// - Returns: nil, or what went wrong with this or an earlier write.
    func append(_ bytes: [UInt8]) -> String? {
        guard let members else { return handle.flatMap { Files.append(bytes, to: $0) } }
        buffer += bytes
        gatheredBlocks += 1
        if buffer.count >= memberBytes {
            members.submit(buffer)
            buffer.removeAll(keepingCapacity: true)
            gatheredBlocks = 0
        }
        return members.failure
    }

    /// Drops the blocks gathered for the next member (a run that stops on a signal: a
    /// member written now would end where an uninterrupted run's does not, so `--resume`
    /// plays them again instead). Returns how many were dropped.
    func dropGathered() -> Int {
        defer {
            buffer.removeAll()
            gatheredBlocks = 0
        }
        return gatheredBlocks
    }

    /// Compresses and writes what is gathered, and waits until every member is written.
    /// - Returns: nil, or what went wrong.
    func finish() -> String? {
        guard let members else { return nil }
        if !buffer.isEmpty {
            members.submit(buffer)
            buffer.removeAll()
            gatheredBlocks = 0
        }
        return members.finish()
    }
}

/// Compresses gzip members on up to `compressors` threads at once and appends them to a
/// file in the order they were submitted, one write each. At most two members per
/// compressor wait or compress at a time: ``submit(_:)`` blocks until one is written, so
/// memory stays flat when compression is slower than play.
final class GzipMemberPipeline: Sendable {
    private let fd: Int32
    /// Serial queues, one per compressor, taking members in turn. Serial queues get a
    /// thread even while the run's workers hold every core's (they overcommit), so a
    /// member is never stuck behind the workers that wait for it.
    private let queues: [DispatchQueue]
    private let group = DispatchGroup()
    private let slots: DispatchSemaphore
    private let state = Mutex(State())

    private struct State {
        var submitted = 0
        var written = 0
        /// Compressed members waiting for the ones before them.
        var ready: [Int: [UInt8]] = [:]
        var failure: String?
    }

    /// Takes over `fd` (open for appending) and closes it when done.
    init(fd: Int32, compressors: Int) {
        self.fd = fd
        let count = max(1, min(compressors, 16))
        queues = (0..<count).map { DispatchQueue(label: "oplab.gzip-member.\($0)") }
        slots = DispatchSemaphore(value: 2 * count)
    }

    deinit { close(fd) }

    /// Queues `rows` to be one member, after every member submitted before.
    func submit(_ rows: [UInt8]) {
        slots.wait()
        let number = state.withLock { state in
            defer { state.submitted += 1 }
            return state.submitted
        }
        queues[number % queues.count].async(group: group) { [self] in
            let member = GzipMember.compress(rows)
            state.withLock { state in
                state.ready[number] = member
                while let next = state.ready.removeValue(forKey: state.written) {
                    if state.failure == nil { state.failure = Files.append(next, to: fd) }
                    state.written += 1
                    slots.signal()
                }
            }
        }
    }

    /// What went wrong with a write so far, if anything (later members are not written).
    var failure: String? { state.withLock { $0.failure } }

    /// Waits until every submitted member is written.
    /// - Returns: nil, or what went wrong.
    func finish() -> String? {
        group.wait()
        return failure
    }
}
