import Foundation

/// Sets of JSON lines checked against JSON Schema files with python3's `jsonschema` (Draft
/// 2020-12), for the games' protocol tests: every line of a set must get the verdict asked
/// for. All sets are checked by one python3 process (its start and the import of
/// `jsonschema` cost more than most sets' validation).
public struct SchemaChecks {
    /// One set's verdict: whether each of its lines got the one asked for, and python's
    /// account of those that did not.
    public struct Outcome: CustomStringConvertible, Sendable {
        public let schema: URL
        public let lines: Int
        public let valid: Bool
        public let passed: Bool
        public let output: String

        public var description: String {
            "\(schema.lastPathComponent), \(lines) lines expected \(valid ? "valid" : "invalid") "
                + "(needs python3 with jsonschema 4.x): \(output.prefix(2000))"
        }
    }

    private var sets: [(lines: [String], schema: URL, valid: Bool)] = []

    public init() {}

    /// Adds `lines`, each to be checked against the schema at `schema`; `valid` says which
    /// verdict every line must get.
    public mutating func add(_ lines: [String], schema: URL, valid: Bool) {
        sets.append((lines, schema, valid))
    }

    /// Writes each set into `folder` and validates them all in one python3 process.
    /// - Returns: one outcome a set, in the order they were added.
    public func run(in folder: URL) throws -> [Outcome] {
        let verdictFile = folder.appendingPathComponent("verdicts-\(UUID().uuidString).json")
        var arguments = ["python3", "-c", Self.script, verdictFile.path]
        for (n, set) in sets.enumerated() {
            let file = folder.appendingPathComponent("\(n)-\(set.schema.deletingPathExtension().lastPathComponent)-\(UUID().uuidString).jsonl")
            try set.lines.joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)
            arguments += [set.schema.path, file.path, set.valid ? "valid" : "invalid"]
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let data = process.terminationStatus == 0 ? FileManager.default.contents(atPath: verdictFile.path) : nil
        let verdicts = data.flatMap { (try? JSONSerialization.jsonObject(with: $0)) as? [[String: Any]] }
        guard let verdicts, verdicts.count == sets.count else {
            return sets.map { Outcome(schema: $0.schema, lines: $0.lines.count, valid: $0.valid, passed: false, output: "python3 said: \(said)") }
        }
        return zip(sets, verdicts).map { set, verdict in
            Outcome(schema: set.schema, lines: set.lines.count, valid: set.valid,
                    passed: verdict["passed"] as? Bool == true, output: verdict["output"] as? String ?? "")
        }
    }

    /// Arguments: the verdicts' file, then (SCHEMA FILE valid|invalid) triples; writes a
    /// JSON list there, one `{"passed", "output"}` a triple.
    static let script = """
        import json, sys
        import jsonschema
        verdicts = []
        out, args = sys.argv[1], sys.argv[2:]
        for schema_path, path, verdict in zip(args[::3], args[1::3], args[2::3]):
            schema = json.load(open(schema_path))
            jsonschema.Draft202012Validator.check_schema(schema)
            validator = jsonschema.Draft202012Validator(schema)
            want = verdict == "valid"
            report = []
            for n, line in enumerate(open(path), 1):
                errors = list(validator.iter_errors(json.loads(line)))
                if bool(errors) == want:
                    report.append(f"line {n}: " + ("; ".join(f"{list(e.absolute_path)}: {e.message}" for e in errors[:3]) if errors else "accepted"))
            verdicts.append({"passed": not report, "output": "\\n".join(report)})
        with open(out, "w") as f:
            json.dump(verdicts, f)
        """
}
