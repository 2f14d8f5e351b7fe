import Foundation
import LabCore
import Yams

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
        guard yaml.utf8.count <= YAMLGuard.maxBytes else { throw tooLarge(path, bytes: yaml.utf8.count) }
        try YAMLGuard.check(yaml, path: path)
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

    /// The file's text, or an error saying why it cannot be read: it must be a regular
    /// file (not a folder, a FIFO or a device such as /dev/zero) of at most
    /// ``YAMLGuard/maxBytes``, checked before it is read, and read no further than that.
    static func readText(_ path: String) throws(InputError) -> String {
        func failure(_ reason: String) -> InputError { InputError("cannot read config '\(path)': \(reason)") }
        let bytes: [UInt8]
        do { bytes = try BoundedFile.bytes(path, limit: YAMLGuard.maxBytes) } catch { throw failure(error.reason) }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw failure("not UTF-8 text") }
        return text
    }

    /// A config over ``YAMLGuard/maxBytes``, refused before it is parsed.
    static func tooLarge(_ path: String, bytes: Int) -> InputError {
        InputError("\(path): the config is \(bytes) bytes; a config may hold at most \(YAMLGuard.maxBytes) bytes (1 MiB), "
            + "and is a few kilobytes")
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
            let keys = duplicates.map { "'\($0.excerpt())'" }.joined(separator: ", ")
            let here = duplicates.count == 1 ? "first given here" : "the first '\(duplicates[0].excerpt())' is here"
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
