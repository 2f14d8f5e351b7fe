import LabCore
import Yams

/// A 1-based line and column in a config file.
struct SourcePosition: Hashable, Sendable {
    var line: Int
    var column: Int
}

extension SourcePosition {
    init(_ mark: Mark) {
        self.init(line: mark.line, column: mark.column)
    }
}

/// Where each node of a composed config is written, by field path, kept after the YAML tree is gone.
struct NodeLocations: Sendable {
    /// Position of the value at each path.
    private var values: [FieldPath: SourcePosition] = [:]
    /// Position of the key of each mapping entry, by the entry's path.
    private var keys: [FieldPath: SourcePosition] = [:]
    /// What was found at each path, for "expected ..., found ..." messages.
    private var found: [FieldPath: String] = [:]
    /// The first mapping key that is not a scalar (Yams decoding would skip it), with what it is.
    private(set) var complexKey: (SourcePosition, String)?

    init(root: Node) {
        record(root, at: FieldPath())
    }

    private mutating func record(_ node: Node, at path: FieldPath) {
        if let mark = node.mark { values[path] = SourcePosition(mark) }
        found[path] = Self.describe(node)
        switch node {
        case .mapping(let mapping):
            for (key, value) in mapping {
                guard let name = key.scalar?.string else {
                    if complexKey == nil { complexKey = (key.mark.map(SourcePosition.init) ?? SourcePosition(line: 1, column: 1), Self.describe(key)) }
                    continue
                }
                let entry = path.appending(.key(name))
                if let mark = key.mark { keys[entry] = SourcePosition(mark) }
                record(value, at: entry)
            }
        case .sequence(let sequence):
            for (index, item) in sequence.enumerated() {
                record(item, at: path.appending(.index(index)))
            }
        case .scalar, .alias:
            break
        }
    }

    /// How a node reads in "found ..." messages.
    static func describe(_ node: Node) -> String {
        switch node {
        case .scalar(let scalar):
            if node.null != nil {
                "an empty value"
            } else if scalar.style != .plain, !scalar.string.isEmpty, Resolver.default.resolveTag(of: Node(scalar.string)) != .str {
                "'\(scalar.string.excerpt())' (quoted, so text)"
            } else {
                "'\(scalar.string.excerpt())'"
            }
        case .mapping: "a mapping"
        case .sequence: "a list"
        case .alias: "an alias"
        }
    }

    /// "file:line:column" of the node at `path` or its nearest parent, else "file".
    func location(of path: FieldPath, file: String) -> String {
        var current: FieldPath? = path
        while let candidate = current {
            if let position = values[candidate] { return "\(file):\(position.line):\(position.column)" }
            current = candidate.parent
        }
        return file
    }

    /// "file:line:column" of the key of the mapping entry at `path`, else of its value.
    func keyLocation(of path: FieldPath, file: String) -> String {
        guard let position = keys[path] else { return location(of: path, file: file) }
        return "\(file):\(position.line):\(position.column)"
    }

    /// The message of a field problem, starting with its location.
    func error(_ error: ConfigFieldError, file: String) -> InputError {
        let path = error.path
        let field = path.components.isEmpty ? "" : "\(path): "
        switch error.problem {
        case .expected(let expected):
            let found = found[path] ?? "nothing"
            return InputError("\(location(of: path, file: file)): \(field)expected \(expected), found \(found)")
        case .invalid(let message):
            return InputError("\(location(of: path, file: file)): \(field)\(message)")
        case .unknownField(let key, let accepted):
            let location = keyLocation(of: path.appending(.key(key)), file: file)
            return InputError("\(location): \(field)unknown field '\(key.excerpt())'; accepted: \(accepted.joined(separator: ", "))")
        case .missingField(let key, let hint):
            let purpose = hint.map { " (\($0))" } ?? ""
            return InputError("\(location(of: path, file: file)): \(field)missing required field '\(key)'\(purpose)")
        }
    }
}
