import Foundation
import LabCore
import Testing
@testable import Tournament

/// A fresh temporary folder for one test (created), removed by `remove()`.
private struct Sandbox {
    let path: String

    init() throws {
        path = ScriptedPlans.temporaryPath("untrusted")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func callAsFunction(_ name: String) -> String { path + "/" + name }

    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        try text.write(toFile: self(name), atomically: true, encoding: .utf8)
        return self(name)
    }

    /// Every name under the folder, recursively, sorted: the file system as it is.
    var listing: [String] { ((FileManager.default.subpaths(atPath: path)) ?? []).sorted() }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

@Suite("Output files: checked before anything is written")
struct OutputFileTests {
    @Test("a results folder's data files are refused whatever the command and --force; a page beside them is fine")
    func resultsData() throws {
        let box = try Sandbox()
        defer { box.remove() }
        try FileManager.default.createDirectory(atPath: box("res"), withIntermediateDirectories: true)
        try box.write("res/run.json", "{}")
        try box.write("res/matches.csv", "rows")
        for name in ["matches.csv", "run.json"] {
            let path = box("res/" + name)
            #expect(throws: InputError("--out \(path): cannot write the report: \(name) is data of the results folder \(box("res")), "
                + "which only the run that made it writes; choose a path outside it (a page, NAME.html, may go beside it)")) {
                try OutputPaths.checkFile(path, label: "--out \(path)", what: "the report", replacing: OutputPaths.htmlPage)
            }
            #expect(throws: InputError.self) {
                try OutputPaths.checkFile(path, label: "--out", what: "the model", replacing: .withForce(true))
            }
        }
        // summary.csv, not yet written, is still the folder's: refused before it exists too.
        #expect(throws: InputError.self) {
            try OutputPaths.checkFile(box("res/summary.csv"), label: "--out", what: "the ladder", replacing: .withForce(true))
        }
        try OutputPaths.checkFile(box("res/other.html"), label: "--out", what: "the report", replacing: OutputPaths.htmlPage)
        #expect(try String(contentsOfFile: box("res/matches.csv"), encoding: .utf8) == "rows")
    }

    @Test("an existing file is replaced only when it is of the kind written (an SVG, a page) or with --force")
    func replacing() throws {
        let box = try Sandbox()
        defer { box.remove() }
        let config = try box.write("c.yaml", "name: x\n")
        #expect(throws: InputError("--svg \(config): cannot write the SVG: \(config) exists and is not an SVG picture; oplab "
            + "replaces only an SVG picture it could have written, so choose another path or remove that file")) {
            try OutputPaths.checkFile(config, label: "--svg \(config)", what: "the SVG", replacing: OutputPaths.svgPicture)
        }
        let picture = try box.write("p.svg", "<?xml version=\"1.0\"?>\n<svg/>")
        try OutputPaths.checkFile(picture, label: "--svg", what: "the SVG", replacing: OutputPaths.svgPicture)
        let page = try box.write("p.html", "<!DOCTYPE html>\n<html></html>")
        try OutputPaths.checkFile(page, label: "--html", what: "the page", replacing: OutputPaths.htmlPage)
        #expect(throws: InputError("--out \(config) exists; pass --force to replace it")) {
            try OutputPaths.checkFile(config, label: "--out \(config)", what: "the ladder", replacing: .withForce(false))
        }
        try OutputPaths.checkFile(config, label: "--out", what: "the ladder", replacing: .withForce(true))
    }

    @Test("a command's own input is refused as its output, even with --force and by another name")
    func inputs() throws {
        let box = try Sandbox()
        defer { box.remove() }
        let map = try box.write("m.json", "{}")
        let sameFile = box.path + "/./m.json"
        #expect(throws: InputError("--out \(sameFile): cannot write the model: it is \(map), an input of this command; choose another path")) {
            try OutputPaths.checkFile(sameFile, label: "--out \(sameFile)", what: "the model", inputs: [map], replacing: .withForce(true))
        }
    }

    @Test("a folder, a missing folder, a file on the way, an empty path and a FIFO are each named")
    func whatThePathIs() throws {
        let box = try Sandbox()
        defer { box.remove() }
        try box.write("f", "x")
        #expect(mkfifo(box("pipe"), 0o600) == 0)
        let cases: [(String, String)] = [
            (box.path, "it is a folder"),
            (box("none/x.svg"), "the folder \(box("none")) does not exist"),
            (box("f/x.svg"), "\(box("f")) is a file, not a folder"),
            ("", "expected a file path, e.g. out/SVG"),
            (box("pipe"), "it is a FIFO"),
          ]
        for (path, reason) in cases {
            #expect(throws: InputError("--svg: cannot write the SVG: \(reason)")) {
                try OutputPaths.checkFile(path, label: "--svg", what: "the SVG", replacing: OutputPaths.svgPicture)
            }
        }
        // A one-character name in the current folder is an ordinary path.
        try OutputPaths.checkFile("d", label: "--svg d", what: "the SVG", replacing: OutputPaths.svgPicture)
    }
}

@Suite("Results folders: checked before the lock is taken or the folder made")
struct OutputFolderTests {
    private static func config(blocks: Int = 2) -> TournamentConfig {
        TournamentConfig(name: "t", game: "none", seats: 2, entrants: [Entrant(name: "a", strategy: "s"), Entrant(name: "b", strategy: "s")],
                         blocks: blocks)
    }

    /// Runs a scripted 2-entrant tournament into `folder`; the error it refuses with, if any.
    private static func run(into folder: String, force: Bool = false, resume: Bool = false) -> InputError? {
        do {
            let plan = try ScriptedPlans.headToHead(config(), firstWins: { $0 % 2 == 0 })
            _ = try TournamentRunner.run(plan, options: RunOptions(directory: folder, threads: 1, resume: resume, force: force, quiet: true))
            return nil
        } catch {
            return error
        }
    }

    @Test("a folder of other files is refused, with --force and --resume too, naming some of them; no lock file is left")
    func foreignFolder() throws {
        let box = try Sandbox()
        defer { box.remove() }
        try FileManager.default.createDirectory(atPath: box("other"), withIntermediateDirectories: true)
        for name in ["a.txt", "b.txt", "c.txt", "d.txt"] { try box.write("other/" + name, "hi") }
        let before = box.listing
        for (force, resume) in [(false, false), (true, false), (false, true)] {
            let error = try #require(Self.run(into: box("other"), force: force, resume: resume))
            #expect(error.message == "--out \(box("other")): \(box("other")) is a folder of other files ('a.txt', 'b.txt', 'c.txt' and 1 more), "
                + "not a results folder; results go into a new or empty folder or one that holds results already: choose another folder")
            #expect(box.listing == before)
        }
    }

    @Test("a file, a file on the way and another command's results are refused; nothing is made")
    func notAResultsFolder() throws {
        let box = try Sandbox()
        defer { box.remove() }
        try box.write("somefile", "x")
        try FileManager.default.createDirectory(atPath: box("tuning"), withIntermediateDirectories: true)
        try box.write("tuning/tune.json", "{}")
        let before = box.listing
        let cases: [(String, String)] = [
            (box("somefile"), "\(box("somefile")) is a file, not a folder; results go in a folder: choose another"),
            (box("somefile/sub"), "cannot make the folder \(box("somefile/sub")): \(box("somefile")) is a file, not a folder"),
            (box("tuning"), "\(box("tuning")) holds the results of another command (tune.json, not run.json); choose another folder"),
        ]
        for (folder, reason) in cases {
            #expect(Self.run(into: folder)?.message == "--out \(folder): " + reason)
            #expect(box.listing == before)
        }
    }

    @Test("the root folder is refused as a folder of other files, before any lock file is made in it")
    func root() {
        #expect(throws: InputError.self) {
            try OutputPaths.checkFolder("/", label: "--out /", record: RunRecord.fileName, ownFiles: TournamentRunner.files)
        }
        #expect(Self.run(into: "/")?.message.hasPrefix("--out /: / is a folder of other files (") == true)
        #expect(!FileManager.default.fileExists(atPath: "/" + ResultsLock.fileName))
    }

    @Test("a missing, an empty and a results folder pass; what a killed run left (no run.json) passes")
    func accepted() throws {
        let box = try Sandbox()
        defer { box.remove() }
        #expect(Self.run(into: box("new/deeper")) == nil)
        try FileManager.default.createDirectory(atPath: box("empty"), withIntermediateDirectories: true)
        #expect(Self.run(into: box("empty")) == nil)
        #expect(Self.run(into: box("new/deeper"), force: true) == nil)
        try FileManager.default.createDirectory(atPath: box("killed"), withIntermediateDirectories: true)
        try box.write("killed/matches.csv", "")
        try OutputPaths.checkFolder(box("killed"), label: "--out", record: RunRecord.fileName, ownFiles: TournamentRunner.files)
    }
}

@Suite("Configs held to limits before they are composed")
struct ConfigLimitTests {
    private static let tail = "game: g\nentrants:\n  - {name: a, strategy: random}\n  - {name: b, strategy: random}\n"

    /// Seven levels of nine aliases: 9^7 names once expanded, from eight lines.
    private static func bomb(asKey: Bool) -> String {
        var lines = ["a0: &a0 [\"x\",\"x\",\"x\",\"x\",\"x\",\"x\",\"x\",\"x\",\"x\"]"]
        for i in 1...7 { lines.append("a\(i): &a\(i) [" + Array(repeating: "*a\(i - 1)", count: 9).joined(separator: ",") + "]") }
        lines.append(asKey ? "k: {? *a7 : 1, ? *a7 : 2}" : "name: *a7")
        return lines.joined(separator: "\n") + "\n" + tail
    }

    @Test("an alias bomb is refused at the alias that passes 100,000 nodes, as a value and as a key (which Yams would hash)",
          arguments: [false, true])
    func aliasBomb(asKey: Bool) {
        #expect(throws: InputError("c.yaml:6:10: the alias *a4 takes the config past 100000 YAML nodes once its aliases are "
            + "expanded; anchors and aliases may repeat small parts only (a config is a few hundred nodes)")) {
            _ = try ConfigLoader.parse(yaml: Self.bomb(asKey: asKey), path: "c.yaml")
        }
    }

    @Test("small anchors and aliases still work")
    func smallAliases() throws {
        let yaml = "name: x\ngame: g\nentrants:\n  - {name: a, strategy: &s \"mcts(iterations=10)\"}\n  - {name: b, strategy: *s}\n"
        let document = try ConfigLoader.parse(yaml: yaml, path: "c.yaml")
        #expect(document.config.entrants.map(\.strategy) == ["mcts(iterations=10)", "mcts(iterations=10)"])
    }

    @Test("nesting past 64 levels is refused in our words, both under libyaml's own limit and past it", arguments: [65, 5_000])
    func deepNesting(depth: Int) throws {
        let yaml = "name: " + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "\n"
        let error = try #require(throws: InputError.self) { _ = try ConfigLoader.parse(yaml: yaml, path: "c.yaml") }
        #expect(error.message.hasSuffix(": the config nests sequences and mappings more than 64 deep; a config is a mapping of fields a few levels deep"))
        #expect(!error.message.contains("yaml_set_max_nest_level"))
    }

    @Test("a config over 1 MiB (10^6 nested sequences, a huge scalar) is refused before it is parsed, in memory and on disk")
    func tooLarge() throws {
        let nested = String(repeating: "[", count: 1_000_000) + String(repeating: "]", count: 1_000_000)
        #expect(throws: InputError("c.yaml: the config is 2000007 bytes; a config may hold at most 1048576 bytes (1 MiB), and is a few kilobytes")) {
            _ = try ConfigLoader.parse(yaml: "name: " + nested + "\n", path: "c.yaml")
        }
        let box = try Sandbox()
        defer { box.remove() }
        let path = box("big.yaml")
        #expect(FileManager.default.createFile(atPath: path, contents: Data("name: \"".utf8)))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: 1 << 30)
        try handle.close()
        #expect(throws: InputError("cannot read config '\(path)': it is larger than 1 MiB, the most it may hold")) {
            _ = try ConfigLoader.load(path: path)
        }
    }

    @Test("a config that is a FIFO or a device is refused without reading it")
    func notAFile() throws {
        let box = try Sandbox()
        defer { box.remove() }
        #expect(mkfifo(box("c.yaml"), 0o600) == 0)
        #expect(throws: InputError("cannot read config '\(box("c.yaml"))': it is a FIFO, not a file")) {
            _ = try ConfigLoader.load(path: box("c.yaml"))
        }
        #expect(throws: InputError("cannot read config '/dev/zero': it is a device, not a file")) {
            _ = try ConfigLoader.load(path: "/dev/zero")
        }
    }
}

@Suite("File errors in the system's words")
struct FileErrorTextTests {
    @Test("a Foundation error says what the system said, never NSCocoaErrorDomain")
    func reason() throws {
        let box = try Sandbox()
        defer { box.remove() }
        try box.write("f", "x")
        do {
            try FileManager.default.createDirectory(atPath: box("f/sub"), withIntermediateDirectories: true)
            Issue.record("a folder was made inside a file")
        } catch {
            #expect(!Files.reason(error).contains("NSCocoaErrorDomain"))
            #expect(!Files.reason(error).contains("could not be completed"))
        }
        #expect(throws: InputError("cannot make the folder \(box("f/sub")): \(box("f")) is a file, not a folder")) {
            try Files.makeFolder(box("f/sub"))
        }
        let posix = NSError(domain: NSCocoaErrorDomain, code: CocoaError.fileWriteUnknown.rawValue,
                            userInfo: [NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: Int(ENOSPC))])
        #expect(Files.reason(posix) == "No space left on device")
    }
}
