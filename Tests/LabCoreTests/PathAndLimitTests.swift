import Foundation
import Testing
@testable import LabCore

@Suite("Paths as text: any length, no crash")
struct PathTextTests {
    @Test("parent and last component of short, rooted, repeated-slash and trailing-slash paths",
          arguments: [
            ("", "", ""), ("d", "", "d"), ("/", "/", "/"), ("//", "/", "/"), ("/x", "/", "x"), ("a/", "", "a"),
            ("a/b", "a", "b"), ("a//b", "a", "b"), ("a/b/c", "a/b", "c"), ("a/b/", "a", "b"), ("./x", ".", "x"),
            ("../y", "..", "y"), ("/a/b", "/a", "b"),
          ])
    func splits(path: String, parent: String, last: String) {
        #expect(PathText.parent(of: path) == parent)
        #expect(PathText.lastComponent(of: path) == last)
    }

    @Test("a bare name's folder is '.', and joining never doubles a slash")
    func folderAndJoin() {
        #expect(PathText.folder(of: "d") == ".")
        #expect(PathText.folder(of: "x/d") == "x")
        #expect(PathText.join("/", "b") == "/b")
        #expect(PathText.join("a", "b") == "a/b")
    }

    @Test("paths of one to 100,000 characters split (Foundation's deletingLastPathComponent trapped on one)")
    func anyLength() {
        for length in [1, 2, 3, 255, 4_097, 100_000] {
            let name = String(repeating: "q", count: length)
            #expect(PathText.parent(of: name) == "")
            #expect(PathText.lastComponent(of: "dir/" + name) == name)
        }
    }
}

@Suite("Error lines are short whatever they quote")
struct InputErrorLengthTests {
    @Test("a line over 500 characters keeps its start and end and says how many characters were cut")
    func longLineCut() {
        let value = String(repeating: "x", count: 1_000_000)
        let error = InputError("c.yaml:1:7: name: expected 1 to 64 characters, found '\(value)' here")
        #expect(error.message.count <= InputError.maxLineLength)
        #expect(error.message.hasPrefix("c.yaml:1:7: name: expected 1 to 64 characters, found 'xxx"))
        #expect(error.message.hasSuffix("xxx' here"))
        let cut = 1_000_000 + "c.yaml:1:7: name: expected 1 to 64 characters, found '' here".count - 440
        #expect(error.message.contains("[... \(cut) characters cut ...]"))
    }

    @Test("each line of a message is capped on its own; short messages are untouched")
    func perLine() {
        let short = "map m.json is not valid:\n  $.cities: expected an array"
        #expect(InputError(short).message == short)
        let long = "header\n" + String(repeating: "y", count: 2_000) + "\nfooter"
        let lines = InputError(long).message.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[0] == "header" && lines[2] == "footer")
        #expect(lines[1].count <= InputError.maxLineLength)
    }
}

/// A new empty folder under the temporary directory, named PREFIX-UUID.
private func scratchFolder(_ prefix: String) throws -> String {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    return folder
}

@Suite("Input files read no further than a limit")
struct BoundedFileTests {
    let folder: String

    init() throws {
        folder = try scratchFolder("oplab-bounded")
    }

    @Test("a file within the limit is read whole; one byte over is refused naming the limit")
    func limit() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/m"
        try Data(repeating: 7, count: 4_096).write(to: URL(fileURLWithPath: path))
        #expect(try BoundedFile.contents(path, limit: 4_096, what: "the model file").count == 4_096)
        #expect(throws: InputError("\(path): cannot read the model file: it is larger than 4095 bytes, the most it may hold")) {
            _ = try BoundedFile.contents(path, limit: 4_095, what: "the model file")
        }
        // A sparse file of a gigabyte is refused from its size, before any read.
        let huge = folder + "/huge"
        #expect(FileManager.default.createFile(atPath: huge, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: huge))
        try handle.truncate(atOffset: 1 << 30)
        try handle.close()
        #expect(throws: InputError("\(huge): cannot read a map: it is larger than 4 MiB, the most it may hold")) {
            _ = try BoundedFile.contents(huge, limit: 4 << 20, what: "a map")
        }
    }

    @Test("a missing file, a folder, a FIFO and /dev/zero are refused at once, naming what they are")
    func notFiles() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let fifo = folder + "/fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        let cases: [(String, String)] = [(folder + "/none", "no such file"), (folder, "it is a directory"),
                                          (fifo, "it is a FIFO, not a file"), ("/dev/zero", "it is a device, not a file")]
        for (path, reason) in cases {
            #expect(throws: InputError("\(path): cannot read the map: \(reason)")) {
                _ = try BoundedFile.contents(path, limit: 1 << 20, what: "the map")
            }
        }
    }
}

@Suite("Files written whole or not at all")
struct AtomicFileTests {
    let folder: String

    init() throws {
        folder = try scratchFolder("oplab-atomic")
    }

    @Test("bytes written in chunks come out whole, each write going on where the last stopped (a 2.7 GB checkpoint came out shifted); an old file is replaced",
          arguments: [1, 7, 4_096, 1 << 30])
    func chunks(chunk: Int) throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/checkpoint.bin"
        try Data(repeating: 9, count: 50_000).write(to: URL(fileURLWithPath: path))
        var rng = LabRandom(seed: 3)
        let bytes = (0..<10_007).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        #expect(AtomicFile.write(bytes, to: path, chunk: chunk) == nil)
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))) == bytes)
        #expect(!FileManager.default.fileExists(atPath: path + AtomicFile.partialSuffix))
    }

    @Test("a missing folder, or a folder where the file should go: the reason, nothing replaced, no partial file left")
    func failure() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(AtomicFile.write([1, 2, 3], to: folder + "/none/file") == "No such file or directory")
        let taken = folder + "/taken"
        try FileManager.default.createDirectory(atPath: taken, withIntermediateDirectories: false)
        #expect(AtomicFile.write([1, 2, 3], to: taken) == "Is a directory")
        var isFolder: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: taken, isDirectory: &isFolder) && isFolder.boolValue)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["taken"])
    }
}
