import Foundation

/// JSON lines checked against a JSON Schema file with python3's `jsonschema` (Draft
/// 2020-12), for the games' protocol tests: every line must get the verdict asked for.
public enum SchemaValidation {
    /// Writes `lines` into `folder` and validates each against the schema at `schema`;
    /// `valid` says which verdict every line must get.
    /// - Returns: whether every line got it, and python's account of those that did not.
    public static func check(_ lines: [String], schema: URL, in folder: URL, valid: Bool) throws -> (passed: Bool, output: String) {
        let file = folder.appendingPathComponent("\(schema.deletingPathExtension().lastPathComponent)-\(UUID().uuidString).jsonl")
        try lines.joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, schema.path, file.path, valid ? "valid" : "invalid"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus == 0, text)
    }

    static let script = """
        import json, sys
        import jsonschema
        schema = json.load(open(sys.argv[1]))
        jsonschema.Draft202012Validator.check_schema(schema)
        validator = jsonschema.Draft202012Validator(schema)
        want = sys.argv[3] == "valid"
        bad = 0
        for n, line in enumerate(open(sys.argv[2]), 1):
            errors = list(validator.iter_errors(json.loads(line)))
            if bool(errors) == want:
                bad += 1
                print(f"line {n}: " + ("; ".join(f"{list(e.absolute_path)}: {e.message}" for e in errors[:3]) if errors else "accepted"))
        sys.exit(1 if bad else 0)
        """
}
