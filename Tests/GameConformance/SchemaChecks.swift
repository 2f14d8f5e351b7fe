import Foundation

/// Sets of JSON lines checked against the JSON Schemas of one folder with python3's
/// `jsonschema` (Draft 2020-12), for the games' protocol tests: every line of a set must
/// get the verdict asked for. All sets are checked by one python3 process (its start and
/// the import of `jsonschema` cost more than most sets' validation).
public struct SchemaChecks {
    /// One set's verdict: whether each of its lines got the one asked for, and python's
    /// account of those that did not.
    public struct Outcome: CustomStringConvertible, Sendable {
        public let schema: String
        public let lines: Int
        public let valid: Bool
        public let passed: Bool
        public let output: String

        public var description: String {
            "\(schema).schema.json, \(lines) lines expected \(valid ? "valid" : "invalid") "
                + "(needs python3 with jsonschema 4.x): \(output.prefix(2000))"
        }
    }

    /// The folder of the schemas, `NAME.schema.json` each.
    public let schemas: URL
    private var sets: [(lines: [String], schema: String, valid: Bool)] = []

    public init(schemas: URL) {
        self.schemas = schemas
    }

    /// Adds `lines`, each to be checked against `NAME.schema.json` of the folder; `valid`
    /// says which verdict every line must get.
    public mutating func add(_ lines: [String], schema name: String, valid: Bool) {
        sets.append((lines, name, valid))
    }

    /// Writes each set into `folder` and validates them all in one python3 process.
    /// - Returns: one outcome a set, in the order they were added.
    public func run(in folder: URL) throws -> [Outcome] {
        var arguments: [String] = []
        for (n, set) in sets.enumerated() {
            let file = folder.appendingPathComponent("\(n)-\(set.schema)-\(UUID().uuidString).jsonl")
            try set.lines.joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)
            arguments += [schemas.appendingPathComponent("\(set.schema).schema.json").path, file.path, set.valid ? "valid" : "invalid"]
        }
        let python = try PythonScript.run(Self.script, arguments: arguments)
        let verdicts = python.status == 0 ? (try? JSONSerialization.jsonObject(with: Data(python.output.utf8))) as? [[String: Any]] : nil
        guard let verdicts, verdicts.count == sets.count else {
            let said = "python3 exited \(python.status): \(python.errors)\(python.output)"
            return sets.map { Outcome(schema: $0.schema, lines: $0.lines.count, valid: $0.valid, passed: false, output: said) }
        }
        return zip(sets, verdicts).map { set, verdict in
            Outcome(schema: set.schema, lines: set.lines.count, valid: set.valid,
                    passed: verdict["passed"] as? Bool == true, output: verdict["output"] as? String ?? "")
        }
    }

    /// Arguments: (SCHEMA FILE valid|invalid) triples; prints a JSON list, one
    /// `{"passed", "output"}` a triple.
    static let script = """
        import json, sys
        import jsonschema
        verdicts = []
        args = sys.argv[1:]
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
        print(json.dumps(verdicts))
        """
}
