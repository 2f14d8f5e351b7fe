import Foundation
import LabCore
@testable import oplab
import Testing

/// Runs the built `oplab` and captures its exit status and output.
struct Run {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// A fresh temporary folder for one test, removed by `remove()`.
struct Scratch {
    let path: String

    init(_ label: String = "cli") throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("oplab-\(label)-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// A path inside the folder (not created).
    func callAsFunction(_ name: String) -> String { path + "/" + name }

    /// Writes `yaml` to `name` in the folder and returns its path.
    func config(_ yaml: String, name: String = "config.yaml") throws -> String {
        let file = self(name)
        try yaml.write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

func oplabBinary() throws -> String {
    let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("oplab").path
    for candidate in [beside, packageRoot + "/.build/debug/oplab"] where FileManager.default.isExecutableFile(atPath: candidate) {
        return candidate
    }
    throw CLIUnavailable()
}

struct CLIUnavailable: Error {}

/// `oplab ARGUMENTS...` from the package root, run in-process (``OpLab/execute(_:)``):
/// what it printed and its exit status, without launching the binary.
func oplab(_ arguments: String...) throws -> Run { try runArray(arguments) }

@Suite("oplab command line")
struct CLITests {
    @Test("play --trace prints a whole match, the same bytes twice")
    func traceIsDeterministic() throws {
        let a = try oplab("play", "rail", "--player", "heuristic", "--player", "random", "--seed", "7", "--trace")
        let b = try oplab("play", "rail", "--player", "heuristic", "--player", "random", "--seed", "7", "--trace")
        #expect(a.status == 0)
        #expect(a.stdout == b.stdout)
        #expect(a.stdout.contains("T1 P0 "))
        #expect(a.stdout.contains("hand "))
        #expect(a.stdout.contains("end: "))
        #expect(a.stdout.contains("missions_completed"))
    }

    @Test("play --json prints one JSON object with places and figures per seat")
    func jsonResult() throws {
        let run = try oplab("play", "rail", "--player", "heuristic", "--player", "shipped-cpu", "--seed", "3", "--json")
        #expect(run.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(object["game"] as? String == "rail")
        let seats = try #require(object["seats"] as? [[String: Any]])
        #expect(seats.count == 2)
        #expect(Set(seats.compactMap { $0["place"] as? Int }).isSubset(of: [1, 2]))
        for key in ["missions_completed", "mission_points", "railroads", "cards_in_hand", "result"] {
            #expect(seats[0][key] != nil, "missing \(key)")
        }
        #expect(["missions", "deck_exhausted", "all_passed", "turn_cap"].contains(object["endReason"] as? String ?? ""))
    }

    @Test("Bad input exits 2 and names what was wrong and what is accepted",
          arguments: [
            (["play", "rail", "--player", "nobody", "--player", "random"], "available: random, heuristic, shipped-cpu"),
            (["play", "rail", "--player", "heuristic(missionProbability=x)", "--player", "random"], "missionProbability takes a number in 0...1"),
            (["play", "rail", "--player", "heuristic", "--player", "random", "--rule", "speed=9"], "accepted: initialHand, spentCards"),
            (["play", "rail", "--player", "heuristic", "--player", "random", "--rule", "turnCap=0"], "expected an integer in 1...1000000"),
            (["play", "rail"] + Array(repeating: ["--player", "random"], count: 5).flatMap { $0 }, "1 to 4 seats"),
            (["play", "rail", "--player", "random", "--player", "random", "--map", "Package.swift"], "not valid JSON"),
            (["play", "checkers", "--player", "random"], "available: rail, quortex"),
            (["play", "quortex", "--player", "reference"], "quortex takes 2 to 6 seats; got 1"),
            (["play", "quortex"] + Array(repeating: ["--player", "random"], count: 7).flatMap { $0 }, "quortex takes 2 to 6 seats; got 7"),
            (["play", "quortex", "--player", "random", "--player", "random", "--rule", "edges=1,1"], "an edge is repeated"),
            (["play", "quortex", "--player", "random", "--player", "random", "--rule", "edges=0,6"], "each edge must be an integer in 0...5"),
            (["play", "quortex", "--player", "random", "--player", "random", "--rule", "radius=0"], "expected an integer in 1...6"),
            (["play", "quortex", "--player", "random", "--player", "random", "--rule", "colour=red"], "accepted: radius, bag, edges"),
            (["play", "quortex", "--player", "heuristic", "--player", "random"], "available: random, reference"),
          ])
    func badInput(_ arguments: [String], _ expected: String) throws {
        let process = try runArray(arguments)
        #expect(process.status == 2)
        #expect(process.stderr.contains(expected), "stderr was: \(process.stderr)")
        #expect(process.stdout.isEmpty)
    }

    @Test("play quortex --trace shows every placement and the board, the same bytes twice")
    func quortexTrace() throws {
        let a = try oplab("play", "quortex", "--player", "reference", "--player", "random", "--seed", "3", "--trace")
        let b = try oplab("play", "quortex", "--player", "reference", "--player", "random", "--seed", "3", "--trace")
        #expect(a.status == 0)
        #expect(a.stdout == b.stdout)
        #expect(a.stdout.contains("T1 P0 ("))
        #expect(a.stdout.contains(" T"))
        #expect(a.stdout.contains("tiles_placed"))
        // 7 board rows per drawing, one drawing per placement plus the final one.
        let placements = a.stdout.split(separator: "\n").filter { $0.hasPrefix("T") }.count
        let boardRows = a.stdout.split(separator: "\n").filter { $0.hasPrefix("  ") && $0.allSatisfy { " .0123".contains($0) } }.count
        #expect(boardRows == 7 * (placements + 1))
    }

    @Test("solo players on opposite edges are allowed, with a warning")
    func opposedSoloWarning() throws {
        let run = try oplab("play", "quortex", "--player", "random", "--player", "random", "--rule", "edges=0,3")
        #expect(run.status == 0)
        #expect(run.stderr.contains("warning: P0 (edge 0) and P1 (edge 3) play alone on opposite edges"))
    }

    @Test("map check on the shipped map reports 36 cities and the documented length exceptions")
    func mapCheckShipped() throws {
        let run = try oplab("map", "check", "configs/maps/train-depot-europe.json")
        #expect(run.status == 0)
        #expect(run.stdout.contains("36 cities"))
        for pair in ["London-Paris", "Berlin-Warsaw", "Paris-Berlin"] {
            #expect(run.stdout.components(separatedBy: "info: ").filter { $0.contains(pair) }.count == 2, "\(pair)")
        }
    }

    @Test("map check on a broken map exits 2 with JSON paths")
    func mapCheckBroken() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("oplab-broken-\(UUID().uuidString).json")
        try Data(#"{"cities":[{"name":"A","lat":50,"lon":10},{"name":"B","lat":51,"lon":11},{"name":"C","lat":52,"lon":12}],"railroads":[{"from":"A","to":"B","length":1,"colour":"red"}]}"#.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let run = try oplab("map", "check", file.path)
        #expect(run.status == 2)
        #expect(run.stderr.contains("$.railroads: the map is not connected"))
    }
}

/// Runs `oplab` with `arguments` from `directory` (the package root unless a test says
/// otherwise): in-process (``OpLab/execute(_:)``, its output captured)
/// when `directory` is this process's current folder, else the built binary as a
/// process (what runs from another folder). What only a process shows (signals, kill -9,
/// a second writer, bots' processes, the browser) the tests launch themselves.
func runArray(_ arguments: [String], in directory: String = packageRoot) throws -> Run {
    let here = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).standardizedFileURL.path
    if URL(fileURLWithPath: directory).standardizedFileURL.path == here {
        let capture = Capture()
        let status = Diagnostics.$capture.withValue(capture) { OpLab.execute(arguments) }
        return Run(status: status, stdout: capture.stdout, stderr: capture.stderr)
    }
    let run = try runProcess(try oplabBinary(), arguments, in: directory)
    return Run(status: run.status, stdout: String(decoding: run.stdout, as: UTF8.self), stderr: run.stderr)
}

/// Runs `executable` with `arguments` from `directory` (with `environment` when given,
/// else this process's) and waits: its status, its stdout as bytes, its stderr as text.
func runProcess(_ executable: String, _ arguments: [String], in directory: String = packageRoot,
                environment: [String: String]? = nil) throws -> (status: Int32, stdout: Data, stderr: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.currentDirectoryURL = URL(fileURLWithPath: directory)
    if let environment { process.environment = environment }
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    let stderr = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, stdout, String(decoding: stderr, as: UTF8.self))
}
