import Foundation
import LabCore

/// One finding of the map checker, with the JSON path it concerns.
public struct MapFinding: Sendable, Equatable, CustomStringConvertible {
    /// `error`: the map is refused. `warning`: the map loads, but breaks a rule of the
    /// rule book (a length off the distance rule). `info`: a documented exception.
    public enum Severity: String, Sendable { case error, warning, info }
    public var severity: Severity
    /// JSON path, e.g. `$.railroads[12].to`.
    public var path: String
    public var message: String

    public var description: String { "\(severity.rawValue): \(path): \(message)" }
}

/// The result of reading a map file: the map when it is valid, and every finding.
public struct MapCheckReport: Sendable {
    public var file: String
    public var findings: [MapFinding]
    public var map: RailMap?

    public var errors: [MapFinding] { findings.filter { $0.severity == .error } }
    public var warnings: [MapFinding] { findings.filter { $0.severity == .warning } }
    public var infos: [MapFinding] { findings.filter { $0.severity == .info } }
}

/// Reading and validating map files (`configs/maps/*.json`).
///
/// Top-level keys: `name` (optional), `cities` (`name`, `lat`, `lon`), `railroads`
/// (`from`, `to`, `length` 1...4, `colour` red|blue|yellow|green|black|grey) and
/// optionally `missions` (`from`, `to`, optional `points`, else the distance buckets).
public enum RailMapFile {
    /// The shipped map's file, relative to the package root. `oplab` carries a copy
    /// compiled in from it (``shippedData``), used when no map is given.
    public static let defaultPath = "configs/maps/train-depot-europe.json"

    /// How messages name the compiled-in shipped map.
    public static let shippedName = "the shipped map (\(defaultPath))"

    /// The shipped map's bytes, compiled in from ``defaultPath`` at build time.
    package static var shippedData: Data { Data(EmbeddedConfigs.trainDepotEurope.bytes) }

    /// Loads the valid map at `path`, or the shipped map when `path` is nil; throws an
    /// error listing every problem.
    public static func load(path: String?) throws(InputError) -> RailMap {
        let report = path.map(check(path:)) ?? check(data: shippedData, file: shippedName)
        guard let map = report.map else {
            let lines = report.errors.map { "  \($0.path): \($0.message)" }.joined(separator: "\n")
            throw InputError("\(path.map { "map \($0)" } ?? shippedName) is not valid:\n\(lines)")
        }
        return map
    }

    /// The most bytes a map file may hold (the shipped map is 8 KB).
    public static let maxBytes = 4 << 20

    /// Reads and validates a map file, collecting every error, warning and information.
    public static func check(path: String) -> MapCheckReport {
        let bytes: [UInt8]
        do {
            bytes = try BoundedFile.bytes(path, limit: maxBytes)
        } catch {
            return MapCheckReport(file: path, findings: [MapFinding(severity: .error, path: "$", message: "cannot read file '\(path)': \(error.reason)")],
                                  map: nil)
        }
        return check(data: Data(bytes), file: path)
    }

    /// Validates map JSON held in memory: the JSON, its top-level keys, the cities, the
    /// railroads, dual paths, the distance rule, connectivity and the missions, checked in
    /// that order, which is the order of the findings. The map comes back when no finding
    /// is an error; without a `name` it takes its file's name.
    public static func check(data: Data, file: String = "<memory>") -> MapCheckReport {
        var checker = MapChecker()
        guard let top = checker.parseTopLevel(data) else {
            return MapCheckReport(file: file, findings: checker.findings, map: nil)
        }
        checker.checkTopLevelKeys(top)
        checker.checkCities(top["cities"])
        checker.checkRailroads(top["railroads"])
        checker.checkDualPaths()
        checker.checkDistanceRule()
        checker.checkConnected()
        checker.checkMissions(top["missions"])
        let name = (top["name"] as? String) ?? URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
        return MapCheckReport(file: file, findings: checker.findings, map: checker.map(named: name))
    }
}
