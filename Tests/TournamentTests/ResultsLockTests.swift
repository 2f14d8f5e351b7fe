import Foundation
import Testing
import Tournament

/// The hold on a results folder, within one process.
@Suite("Results folder lock")
struct ResultsLockTests {
    /// This process's descriptors open on `path` (from /proc/self/fd).
    static func descriptors(of path: String) throws -> [Int32] {
        let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        return try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").compactMap { name in
            guard let fd = Int32(name), let link = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + name),
                  link == target else { return nil }
            return fd
        }
    }

    @Test("a released hold is free at once, even while a copy of its descriptor lives on (a child forked by another thread, not yet exec'd)")
    func releaseWithACopyAlive() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("oplab-lock-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var lock: ResultsLock? = try ResultsLock(directory: folder)
        let held = try Self.descriptors(of: folder + "/" + ResultsLock.fileName)
        try #require(held.count == 1)
        // What fork(2) gives a child: the same open file description, flock included.
        let copy = dup(held[0])
        defer { close(copy) }
        #expect(ResultsLock.holder(of: folder) == getpid())
        lock = nil
        #expect(ResultsLock.holder(of: folder) == nil, "released, though a copy of the descriptor is open")
        let again = try ResultsLock(directory: folder)
        withExtendedLifetime(again) {}
        _ = lock
    }
}
