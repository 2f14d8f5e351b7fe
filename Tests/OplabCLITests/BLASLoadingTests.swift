import Foundation
import Glibc
import Testing

/// OpenBLAS as the lab loads it (`Sources/CBLAS/loader.c`): at start-up, with one thread,
/// so that the library starts no pool of threads that spin in `sched_yield` (linked, it
/// started one thread a core less one, whatever the user's setting); the environment put
/// back; and without the library (or with `OPLAB_OPENBLAS` naming one that is not there)
/// everything but the learned players runs, and they refuse before writing anything. A
/// library's start-up is a process's: these launch the binary.
@Suite("OpenBLAS loading")
struct BLASLoadingTests {
    /// This process's environment with `changes` (a nil value removes the variable).
    static func environment(_ changes: [String: String?]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        for (name, value) in changes { environment[name] = value }
        return environment
    }

    @Test("OpenBLAS starts with one thread, whatever OPENBLAS_NUM_THREADS says, and names its kernel",
          arguments: [nil, "3"] as [String?])
    func oneThreadAtStartUp(setting: String?) throws {
        let run = try runProcess(try oplabBinary(), ["--version"], environment: Self.environment(["OPENBLAS_NUM_THREADS": setting]))
        let output = String(decoding: run.stdout, as: UTF8.self)
        #expect(run.status == 0)
        // (On a one-core machine a linked OpenBLAS also says 1: the check bites on two or more.)
        #expect(output.contains("; kernel ") && output.hasSuffix("; 1 thread\n"), "\(output)")
    }

    @Test("the environment the process started with is put back after loading")
    func environmentPutBack() throws {
        // The test process loaded OpenBLAS the same way at its start (it links the loader).
        let initial = try Data(contentsOf: URL(fileURLWithPath: "/proc/self/environ")).split(separator: 0)
            .map { String(decoding: $0, as: UTF8.self) }
        let started = initial.first { $0.hasPrefix("OPENBLAS_NUM_THREADS=") }.map { String($0.dropFirst("OPENBLAS_NUM_THREADS=".count)) }
        let now = getenv("OPENBLAS_NUM_THREADS").map { String(cString: $0) }
        #expect(now == started)
    }

    @Test("without the library, --version says why and exits 0; a learned player and learning refuse with the reason, and nothing is written")
    func missingLibrary() throws {
        let scratch = try Scratch("blas")
        defer { scratch.remove() }
        let missing = scratch("no-such-openblas.so")
        let environment = Self.environment(["OPLAB_OPENBLAS": missing])
        let version = try runProcess(try oplabBinary(), ["--version"], environment: environment)
        #expect(version.status == 0)
        #expect(String(decoding: version.stdout, as: UTF8.self).contains("BLAS: not loaded (\(missing)"))
        // A two-entrant Connect Four tournament: random against `second`.
        func tournament(_ second: String, name: String) throws -> String {
            try scratch.config("name: blas\ngame: connect4\nseats: 2\nentrants:\n  - {name: rnd, strategy: random}\n"
                               + "  - {name: second, strategy: \"\(second)\"}\nblocks: 2\nseed: 1\n", name: name)
        }
        let config = try tournament("alphazero", name: "learned.yaml")
        let run = try runProcess(try oplabBinary(), ["tournament", config, "--out", scratch("out"), "--quiet"], environment: environment)
        #expect(run.status == 2)
        #expect(run.stderr.contains("entrants[1].strategy") && run.stderr.contains("need OpenBLAS") && run.stderr.contains(missing),
                "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch("out")))
        // Learning is refused before its folder is made.
        let learn = try runProcess(try oplabBinary(), ["learn", "connect4", "--out", scratch("learn"), "--quiet"], environment: environment)
        #expect(learn.status == 2 && learn.stderr.contains("learn connect4: the learned players need OpenBLAS"), "\(learn.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch("learn")))
        // The same tournament without the learned player runs.
        let plain = try tournament("mcts(iterations=20)", name: "plain.yaml")
        let played = try runProcess(try oplabBinary(), ["tournament", plain, "--out", scratch("plain"), "--quiet"], environment: environment)
        #expect(played.status == 0, "\(played.stderr)")
    }
}
