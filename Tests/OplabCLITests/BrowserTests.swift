import Foundation
import Testing

/// The pages the lab draws, opened as a person would: in headless Chromium (Debian's
/// `chromium`, installed by `.ci/run`). Each page must load from disk with no console
/// message (no script error, no blocked network request) and hold the SVG elements it
/// promises. Without Chromium these tests are skipped, except under CI=true, where they
/// fail.
@Suite("Pages in headless Chromium", .enabled(if: Browser.path != nil || ProcessInfo.processInfo.environment["CI"] == "true"))
struct BrowserTests {
    @Test("a rail tournament's report.html loads without errors, under 2 MB, with both maps (36 cities, 80 railroads each)")
    func railReport() throws {
        let scratch = try Scratch("browser")
        defer { scratch.remove() }
        let config = try scratch.config(railConfig(blocks: 30, seed: 5, name: "page"))
        let run = try runArray(["tournament", config, "--out", scratch("out"), "--quiet"])
        try #require(run.status == 0, "\(run.stderr)")
        let page = scratch("out/report.html")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: page)[.size] as? Int)
        #expect(size < 2_000_000)
        let dom = try Browser.load(page)
        let cities = dom.count(of: "class=\"city\""), railroads = dom.count(of: "class=\"railroad\"")
        #expect(cities >= 72 && cities % 36 == 0, "\(cities) city marks")
        #expect(railroads >= 160 && railroads % 80 == 0, "\(railroads) railroad lines")
        for id in ["header", "ratings", "pairwise", "seats", "lengths", "end-reasons", "board", "footer"] {
            #expect(dom.contains("id=\"\(id)\""), "section \(id)")
        }
    }

    @Test("a Quortex tournament's report.html loads without errors and draws the 37-cell boards")
    func quortexReport() throws {
        let scratch = try Scratch("browser")
        defer { scratch.remove() }
        let config = try scratch.config(quortexConfig(name: "page", blocks: 30, seed: 5))
        let run = try runArray(["tournament", config, "--out", scratch("out"), "--quiet"])
        try #require(run.status == 0, "\(run.stderr)")
        let dom = try Browser.load(scratch("out/report.html"))
        let cells = dom.count(of: "class=\"cell\"")
        #expect(cells >= 74 && cells % 37 == 0, "\(cells) cells")
    }

    @Test("play rail --svg --html: both load without errors and show all 36 cities and 80 railroads; the page steps")
    func railReplay() throws {
        let scratch = try Scratch("browser")
        defer { scratch.remove() }
        let run = try runArray(["play", "rail", "--player", "heuristic", "--player", "shipped-cpu", "--seed", "4",
                                "--svg", scratch("final.svg"), "--html", scratch("replay.html")])
        try #require(run.status == 0, "\(run.stderr)")
        for file in ["final.svg", "replay.html"] {
            let dom = try Browser.load(scratch(file))
            #expect(dom.count(of: "class=\"city\"") == 36, "\(file)")
            #expect(dom.count(of: "class=\"railroad\"") == 80, "\(file)")
            if file == "replay.html" { #expect(dom.contains("data-step")) }
        }
    }

    @Test("play quortex --svg --html: both load without errors and show 37 cells with every placed tile's three channels")
    func quortexReplay() throws {
        let scratch = try Scratch("browser")
        defer { scratch.remove() }
        let run = try runArray(["play", "quortex", "--player", "reference", "--player", "random", "--seed", "4", "--json",
                                "--svg", scratch("final.svg"), "--html", scratch("replay.html")])
        try #require(run.status == 0, "\(run.stderr)")
        let tiles = run.stdout.matches(of: /"tiles_placed":(\d+)/).reduce(0) { $0 + Int($1.1)! }
        #expect(tiles > 0)
        for file in ["final.svg", "replay.html"] {
            let dom = try Browser.load(scratch(file))
            #expect(dom.count(of: "class=\"cell\"") == 37, "\(file)")
            #expect(dom.count(of: "class=\"tile\"") == tiles, "\(file)")
            #expect(dom.count(of: "class=\"channel\"") == 3 * tiles, "\(file)")
        }
    }

    @Test("play connect4 --svg --html: both load without errors with one disc per drop; a Connect Four report has no board section")
    func connectFourReplayAndReport() throws {
        let scratch = try Scratch("browser")
        defer { scratch.remove() }
        let run = try runArray(["play", "connect4", "--player", "random", "--player", "random", "--seed", "4", "--json",
                                "--svg", scratch("final.svg"), "--html", scratch("replay.html")])
        try #require(run.status == 0, "\(run.stderr)")
        let discs = run.stdout.matches(of: /"discs":(\d+)/).reduce(0) { $0 + Int($1.1)! }
        #expect(discs >= 7)
        for file in ["final.svg", "replay.html"] {
            let dom = try Browser.load(scratch(file))
            #expect(dom.count(of: "class=\"disc\"") == discs, "\(file)")
        }
        let config = try scratch.config("""
            name: page
            game: connect4
            seats: 2
            blocks: 10
            seed: 5
            threads: 1
            entrants:
              - {name: deep, strategy: "mcts(iterations=100)"}
              - {name: rnd, strategy: random}
            """)
        let tournament = try runArray(["tournament", config, "--out", scratch("out"), "--quiet"])
        try #require(tournament.status == 0, "\(tournament.stderr)")
        let dom = try Browser.load(scratch("out/report.html"))
        for id in ["header", "ratings", "pairwise", "seats", "lengths", "end-reasons", "footer"] {
            #expect(dom.contains("id=\"\(id)\""), "section \(id)")
        }
        #expect(!dom.contains("id=\"board\""))
    }
}

/// Headless Chromium, driven from the command line.
enum Browser {
    static let path: String? = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    struct PageError: Error, CustomStringConvertible {
        var description: String
    }

    /// Opens `file` and returns its DOM after load (scripts run).
    /// - Throws: when Chromium is missing, fails, or the page logs to the console (a
    ///   script error, a refused request).
    static func load(_ file: String) throws -> String {
        guard let path else { throw PageError(description: "chromium not found: install Debian's chromium package (scripts/setup.sh --with-browser)") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("oplab-chromium-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: profile) }
        process.arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--user-data-dir=\(profile)",
                             "--enable-logging=stderr", "--v=0", "--virtual-time-budget=2000", "--dump-dom",
                             URL(fileURLWithPath: file).absoluteString]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw PageError(description: "chromium exited \(process.terminationStatus) on \(file): \(stderr.suffix(2000))")
        }
        let console = stderr.split(separator: "\n").filter { $0.contains(":CONSOLE") }
        guard console.isEmpty else { throw PageError(description: "\(file) logged to the console:\n" + console.joined(separator: "\n")) }
        return String(decoding: stdout, as: UTF8.self)
    }
}

extension String {
    func count(of needle: String) -> Int { components(separatedBy: needle).count - 1 }
}
