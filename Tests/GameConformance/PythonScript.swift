import Foundation

/// Runs `python3` (through `env`, so the first on the PATH) on a script given inline, for
/// the tests that check files with Python (JSON Schemas through `jsonschema`).
public enum PythonScript {
    /// Runs `script` with `arguments` and waits for it.
    /// - Returns: its exit status, its standard output and its standard error (kept in a
    ///   temporary file, so a long error cannot block the output's pipe).
    public static func run(_ script: String, arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
        let errorsFile = FileManager.default.temporaryDirectory.appendingPathComponent("oplab-python-\(UUID().uuidString).err")
        guard FileManager.default.createFile(atPath: errorsFile.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: errorsFile.path])
        }
        defer { try? FileManager.default.removeItem(at: errorsFile) }
        let errors = try FileHandle(forWritingTo: errorsFile)
        defer { try? errors.close() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let err = FileManager.default.contents(atPath: errorsFile.path) ?? Data()
        return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }
}
