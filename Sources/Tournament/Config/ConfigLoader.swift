import Foundation
import LabCore
import Yams

/// A loaded config with the file it came from and where each of its fields is written.
public struct ConfigDocument: Sendable {
    /// The file the config was read from, as given.
    public let path: String
    /// The checked config, its paths as written.
    public let config: TournamentConfig
    let locations: NodeLocations

    /// The folder the config file is in, as an absolute path.
    public var folder: String {
        URL(fileURLWithPath: path).absoluteURL.deletingLastPathComponent().standardizedFileURL.path
    }

    /// A path written in the config (`map:`, a strategy's model file): an absolute path as
    /// it is, a relative one in the config's ``folder`` (not the current folder), so a
    /// config works from any folder and names the same files from every one.
    public func resolve(_ written: String) -> String {
        guard !written.hasPrefix("/") else { return written }
        return URL(fileURLWithPath: written, relativeTo: URL(fileURLWithPath: folder, isDirectory: true)).standardizedFileURL.path
    }

    /// The "path:line:column" of the YAML node at a field path.
    ///
    /// Field paths read like `entrants[2].strategy`, `rules.spentCards` or `seats` (`""` is the
    /// top level). A field the file does not write falls back to its nearest written parent, and
    /// to just "path" when no position is known.
    public func location(of fieldPath: String) -> String {
        locations.location(of: FieldPath(parsing: fieldPath), file: path)
    }

    /// An error "<location>: <fieldPath>: <message>" for a check made after loading.
    ///
    /// The catalog uses this for what only it can check: unknown games, strategies and rule
    /// knobs, seat counts the game does not allow.
    public func error(at fieldPath: String, _ message: String) -> InputError {
        let field = FieldPath(parsing: fieldPath)
        return locations.error(ConfigFieldError(field, .invalid(message)), file: path)
    }
}

/// Reads tournament config files (YAML) into checked ``TournamentConfig`` values.
///
/// Every error is an ``InputError`` that starts with `file:line:column`, names the field
/// and says what would be accepted.
public enum ConfigLoader {
    /// Reads, parses and checks the config file at `path`.
    public static func load(path: String) throws(InputError) -> ConfigDocument {
        try parse(yaml: readText(path), path: path)
    }

    /// Parses and checks config text; `path` is used in messages only.
    public static func parse(yaml: String, path: String) throws(InputError) -> ConfigDocument {
        let composed: Node?
        do {
            composed = try compose(yaml: yaml)
        } catch let error as YamlError {
            throw syntaxError(error, file: path, yaml: yaml)
        } catch {
            throw InputError("\(path): YAML syntax error: \(error)")
        }
        let fields = "a mapping of config fields (at least name, game and entrants)"
        guard let root = composed, root.null == nil else {
            throw InputError("\(path): the config is empty; expected \(fields)")
        }
        let locations = NodeLocations(root: root)
        if let (position, found) = locations.complexKey {
            throw InputError("\(path):\(position.line):\(position.column): field names must be text, found \(found)")
        }
        guard case .mapping = root else {
            let found = NodeLocations.describe(root)
            throw InputError("\(locations.location(of: FieldPath(), file: path)): expected \(fields) at the top level, found \(found)")
        }
        do {
            let config = try YAMLDecoder().decode(TournamentConfig.self, from: root)
            return ConfigDocument(path: path, config: config, locations: locations)
        } catch let error as ConfigFieldError {
            throw locations.error(error, file: path)
        } catch let error as DecodingError {
            throw locations.error(ConfigFieldError(error), file: path)
        } catch {
            throw InputError("\(path): \(error)")
        }
    }

    /// The file's text, or an error saying why it cannot be read.
    static func readText(_ path: String) throws(InputError) -> String {
        func failure(_ reason: String) -> InputError { InputError("cannot read config '\(path)': \(reason)") }
        let files = FileManager.default
        var isDirectory: ObjCBool = false
        guard files.fileExists(atPath: path, isDirectory: &isDirectory) else { throw failure("no such file") }
        guard !isDirectory.boolValue else { throw failure("it is a directory") }
        guard files.isReadableFile(atPath: path) else { throw failure("permission denied") }
        guard let data = files.contents(atPath: path) else { throw failure("the file could not be read") }
        guard let text = String(data: data, encoding: .utf8) else { throw failure("not UTF-8 text") }
        return text
    }

    /// A Yams error as "path:line:column: YAML syntax error: problem".
    static func syntaxError(_ error: YamlError, file: String, yaml: String) -> InputError {
        func located(_ position: SourcePosition?, _ message: String) -> InputError {
            InputError("\(file)\(position.map { ":\($0.line):\($0.column)" } ?? ""): \(message)")
        }
        func syntax(_ context: YamlError.Context?, _ problem: String, _ mark: Mark) -> InputError {
            let within = context.map { " (\($0.text) at \($0.mark.line):\($0.mark.column))" } ?? ""
            return located(SourcePosition(mark), "YAML syntax error: \(problem)\(within)")
        }
        switch error {
        case let .scanner(context, problem, mark, _), let .parser(context, problem, mark, _),
             let .composer(context, problem, mark, _):
            return syntax(context, problem, mark)
        case let .reader(problem, offset, _, _):
            return located(offset.map { position(atCharacterOffset: $0, in: yaml) }, "YAML syntax error: \(problem)")
        case let .duplicatedKeysInMapping(duplicates, context):
            // Yams points at the first occurrence of the first duplicated key (the keys come sorted).
            let keys = duplicates.map { "'\($0)'" }.joined(separator: ", ")
            let here = duplicates.count == 1 ? "first given here" : "the first '\(duplicates[0])' is here"
            return located(SourcePosition(context.mark),
                           "duplicate \(duplicates.count == 1 ? "key" : "keys") \(keys) in one mapping (\(here)); "
                           + "each field may be given only once")
        default:
            return InputError("\(file): YAML error: \(error)")
        }
    }

    /// The 1-based line and column of a character offset into `text`.
    static func position(atCharacterOffset offset: Int, in text: String) -> SourcePosition {
        var line = 1
        var column = 1
        for character in text.prefix(offset) {
            if character.isNewline {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        return SourcePosition(line: line, column: column)
    }
}

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
                "'\(scalar.string)' (quoted, so text)"
            } else {
                "'\(scalar.string)'"
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
            return InputError("\(location): \(field)unknown field '\(key)'; accepted: \(accepted.joined(separator: ", "))")
        case .missingField(let key, let hint):
            let purpose = hint.map { " (\($0))" } ?? ""
            return InputError("\(location(of: path, file: file)): \(field)missing required field '\(key)'\(purpose)")
        }
    }
}
