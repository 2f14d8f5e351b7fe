/// A map file checked by the game that reads it, game-neutrally: what is wrong with it,
/// and, when it is usable, a few lines describing it.
public struct MapCheck: Sendable {
    /// A problem at a place in the file.
    public struct Finding: Sendable, Equatable {
        /// `error` (the map is unusable) or `warning` (usable, but questionable).
        public var severity: String
        /// Where in the file, e.g. a JSON path.
        public var path: String
        public var message: String

        public init(severity: String, path: String, message: String) {
            self.severity = severity
            self.path = path
            self.message = message
        }
    }

    /// Errors, then warnings, each in the order found.
    public var problems: [Finding]
    /// The map's name; nil when the map is not usable.
    public var name: String?
    /// What the map holds and how the check went, for a usable map.
    public var lines: [String]

    public init(problems: [Finding], name: String?, lines: [String]) {
        self.problems = problems
        self.name = name
        self.lines = lines
    }

    /// The number of errors.
    public var errorCount: Int { problems.filter { $0.severity == "error" }.count }
}
