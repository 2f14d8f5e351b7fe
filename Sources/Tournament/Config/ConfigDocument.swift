import Foundation
import LabCore

/// A loaded config with the file it came from and where each of its fields is written.
public struct ConfigDocument: Sendable {
    /// The file the config was read from, as given.
    public let path: String
    /// The checked config, its paths as written.
    public let config: TournamentConfig
    let locations: NodeLocations
    /// The fields the command line set (``overriding(blocks:seed:)``), with the value given.
    var overrides: [String: String] = [:]

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

    /// An error "<location>: <fieldPath>: <message>" for a check made after loading, or
    /// "--FLAG VALUE: <message>" for a field the command line overrode.
    ///
    /// The catalog uses this for what only it can check: unknown games, strategies and rule
    /// knobs, seat counts the game does not allow, a run too long to number.
    public func error(at fieldPath: String, _ message: String) -> InputError {
        let field = FieldPath(parsing: fieldPath)
        if let flagged = overrideError(at: field, message) { return flagged }
        return locations.error(ConfigFieldError(field, .invalid(message)), file: path)
    }
}
