import Foundation

/// How a benchmark starts its bot: the command's words, made in the benchmark's setup
/// inside its temporary folder (the C bot is compiled there).
struct BotCommand: Sendable {
    let words: @Sendable (_ folder: String) -> [String]

    /// Bots/minimal_bot.c, compiled with `cc -O2` into the folder (`clang`, which every
    /// Swift toolchain has, where there is no `cc`). Stops the run when there is neither
    /// or the compile fails, saying so.
    static func minimal(source: String) -> BotCommand {
        BotCommand { folder in
            let binary = folder + "/minimal_bot"
            let compiler = Process()
            compiler.executableURL = URL(fileURLWithPath: "/bin/sh")
            compiler.arguments = ["-c", "if command -v cc >/dev/null; then exec cc \"$@\"; elif command -v clang >/dev/null; then exec clang \"$@\"; else exit 127; fi",
                                  "sh", "-O2", "-o", binary, source]
            let errors = Pipe()
            compiler.standardOutput = FileHandle.nullDevice
            compiler.standardError = errors
            do {
                try compiler.run()
            } catch {
                fatalError("ProtocolBenchmarks: cannot run /bin/sh to find cc: \(error)")
            }
            let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            compiler.waitUntilExit()
            if compiler.terminationStatus == 127 {
                fatalError("ProtocolBenchmarks: no C compiler: neither `cc` nor `clang` is on PATH (install one, e.g. apt-get install gcc); "
                    + "the benchmark compiles \(source) with it")
            }
            guard compiler.terminationStatus == 0 else {
                fatalError("ProtocolBenchmarks: cc -O2 \(source) failed (status \(compiler.terminationStatus)):\n\(message)")
            }
            return [binary]
        }
    }

    /// examples/bots/random_bot.py under `python3` from PATH.
    static func python(script: String) -> BotCommand {
        BotCommand { _ in
            guard FileManager.default.fileExists(atPath: script) else {
                fatalError("ProtocolBenchmarks: \(script) not found")
            }
            return ["python3", script]
        }
    }
}

/// The main package's folder (this file is `<main>/Benchmarks/Benchmarks/ProtocolBenchmarks/...`).
func mainPackagePath(filePath: String = #filePath) -> String {
    URL(fileURLWithPath: filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
}
