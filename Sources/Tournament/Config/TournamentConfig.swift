import LabCore

/// A tournament as written in a config file: the game, who plays, the format and how many games.
///
/// Decoding checks every field on its own (types, ranges, unknown fields) and the fields
/// together (unique entrant names, the gauntlet candidate). Whether the game, its rule knobs,
/// the seat count and the strategies exist is for the catalog to check.
public struct TournamentConfig: Sendable, Equatable, Decodable {
    /// The tournament's name; 1-64 characters of `[A-Za-z0-9._-]`, not starting with `.`
    /// (it becomes a folder name).
    public var name: String
    /// The game to play: a name in the catalog (`oplab games` lists them).
    public var game: String
    /// Rule knob settings, in the order the file gives them.
    public var rules: [RuleSetting]
    /// The map file, for games that take one.
    public var map: String?
    /// Players per match.
    public var seats: Int
    /// Who plays; at least two, with distinct names.
    public var entrants: [Entrant]
    /// How entrants are paired into tables.
    public var format: TournamentFormat
    /// The entrant every table of a gauntlet includes.
    public var candidate: String?
    /// Seat-rotation blocks played per table.
    public var blocks: Int
    /// The seed every match's randomness derives from.
    public var seed: UInt64
    /// Worker threads; 0 means all cores.
    public var threads: Int
    /// Store the rows compact (`matches.csv.gz`) or as text; nil: compact when the run has
    /// more than ``MatchesFormat/compactAbove`` matches. Not part of the run's identity:
    /// the rows are the same bytes either way.
    public var compact: Bool?

    /// The values a config gets for the fields it leaves out.
    public struct Defaults: Sendable {
        /// No rule knobs set: the game's own defaults apply.
        public let rules: [RuleSetting] = []
        /// No map: the game's default map, if it has maps.
        public let map: String? = nil
        /// Two players per match.
        public let seats = 2
        /// Every entrant meets every other.
        public let format = TournamentFormat.roundRobin
        /// No candidate (round-robin has none).
        public let candidate: String? = nil
        /// Seat-rotation blocks per table.
        public let blocks = 100
        /// The seed.
        public let seed: UInt64 = 1
        /// All cores.
        public let threads = 0
        /// Compact above ``MatchesFormat/compactAbove`` matches.
        public let compact: Bool? = nil
    }

    /// The one place the defaults of optional fields are kept.
    public static let defaults = Defaults()

    /// Makes a config in code; the optional fields take ``defaults``. No checks are made.
    public init(
        name: String,
        game: String,
        rules: [RuleSetting] = TournamentConfig.defaults.rules,
        map: String? = TournamentConfig.defaults.map,
        seats: Int = TournamentConfig.defaults.seats,
        entrants: [Entrant],
        format: TournamentFormat = TournamentConfig.defaults.format,
        candidate: String? = TournamentConfig.defaults.candidate,
        blocks: Int = TournamentConfig.defaults.blocks,
        seed: UInt64 = TournamentConfig.defaults.seed,
        threads: Int = TournamentConfig.defaults.threads,
        compact: Bool? = TournamentConfig.defaults.compact
    ) {
        self.name = name
        self.game = game
        self.rules = rules
        self.map = map
        self.seats = seats
        self.entrants = entrants
        self.format = format
        self.candidate = candidate
        self.blocks = blocks
        self.seed = seed
        self.threads = threads
        self.compact = compact
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case name, game, rules, map, seats, entrants, format, candidate, blocks, seed, threads, compact
    }

    static let nameRule = "1 to 64 characters from A-Z a-z 0-9 . _ - not starting with '.'"

    /// The length of a name, in bytes of UTF-8, the run's and every entrant's: a name
    /// becomes a file's name (the run's folder, a bot's log), which the system limits.
    static let nameLength = 1...64

    /// Decodes and checks a config; a missing optional field, or one left empty, takes its default.
    public init(from decoder: any Decoder) throws {
        let d = Self.defaults
        let c = try decoder.fields(CodingKeys.self, expected: "a mapping of config fields")

        name = try c.required(String.self, .name, expected: Self.nameRule,
                              hint: "the tournament's name, used for its results folder")
        guard Self.isValidName(name) else { throw c.error(.name, .expected(Self.nameRule)) }

        game = try c.required(String.self, .game, expected: "a game name", hint: "the game to play; `oplab games` lists them")
        guard !game.trimmingSpaces.isEmpty else { throw c.error(.game, .expected("a game name")) }

        rules = try Self.decodeRules(c) ?? d.rules

        map = try c.optional(String.self, .map, expected: "a map file path") ?? d.map
        if let map, map.trimmingSpaces.isEmpty { throw c.error(.map, .expected("a map file path")) }

        seats = try c.optional(Int.self, .seats, expected: "an integer >= 1") ?? d.seats
        guard seats >= 1 else { throw c.error(.seats, .expected("an integer >= 1")) }

        entrants = try Self.decodeEntrants(c)

        let formats = TournamentFormat.allCases.map(\.rawValue).joined(separator: ", ")
        if let text = try c.optional(String.self, .format, expected: "one of \(formats)") {
            guard let format = TournamentFormat(rawValue: text) else { throw c.error(.format, .expected("one of \(formats)")) }
            self.format = format
        } else {
            format = d.format
        }

        candidate = try c.optional(String.self, .candidate, expected: "an entrant name") ?? d.candidate

        blocks = try c.optional(Int.self, .blocks, expected: "an integer >= 1") ?? d.blocks
        guard blocks >= 1 else { throw c.error(.blocks, .expected("an integer >= 1")) }

        seed = try c.optional(UInt64.self, .seed, expected: "an integer from 0 to \(UInt64.max)") ?? d.seed

        let threadsAccepted = "an integer in 0...\(RunOptions.maxThreads) (0 = all cores)"
        threads = try c.optional(Int.self, .threads, expected: threadsAccepted) ?? d.threads
        guard (0...RunOptions.maxThreads).contains(threads) else { throw c.error(.threads, .expected(threadsAccepted)) }

        compact = try c.optional(Bool.self, .compact, expected: "true or false") ?? d.compact

        try checkCandidate(c)
    }

    /// The `rules` mapping as settings in file order, or nil when the field is absent or empty.
    private static func decodeRules(_ c: KeyedDecodingContainer<CodingKeys>) throws -> [RuleSetting]? {
        guard c.contains(.rules), try !c.decodeNil(forKey: .rules) else { return nil }
        let knobs = try c.superDecoder(forKey: .rules)
            .mapping(expected: "a mapping of rule knob to value, e.g. {spentCards: discard}")
        let scalar = "a string, number or boolean"
        return try knobs.allKeys.map { key in
            // A quoted key that would read as a number or boolean unquoted is not found by its text.
            guard knobs.contains(key) else { throw knobs.error(key, .invalid("write this knob name without quotes or tags")) }
            guard let value = try knobs.optional(String.self, key, expected: scalar) else {
                throw knobs.error(key, .expected(scalar))
            }
            return RuleSetting(key: key.stringValue, value: value)
        }
    }

    /// The entrants list: at least two entrants with distinct names.
    private static func decodeEntrants(_ c: KeyedDecodingContainer<CodingKeys>) throws -> [Entrant] {
        let shape = "a list of entrants, each {name, strategy}"
        guard c.contains(.entrants) else {
            throw ConfigFieldError(FieldPath(codingPath: c.codingPath), .missingField("entrants", hint: shape))
        }
        guard try !c.decodeNil(forKey: .entrants) else { throw c.error(.entrants, .expected(shape)) }
        var list: any UnkeyedDecodingContainer
        do {
            list = try c.nestedUnkeyedContainer(forKey: .entrants)
        } catch DecodingError.typeMismatch {
            throw c.error(.entrants, .expected(shape))
        }
        let listPath = FieldPath(codingPath: list.codingPath)
        var entrants: [Entrant] = []
        var firstIndex: [String: Int] = [:]
        while !list.isAtEnd {
            let entrant = try list.decode(Entrant.self)
            let index = entrants.count
            if let first = firstIndex[entrant.name] {
                throw ConfigFieldError(listPath.appending(.index(index)).appending(.key("name")),
                                       .invalid("duplicate entrant name '\(entrant.name.excerpt())' (also entrants[\(first)].name); "
                                                + "each entrant needs its own name"))
            }
            firstIndex[entrant.name] = index
            entrants.append(entrant)
        }
        guard entrants.count >= 2 else {
            throw c.error(.entrants, .invalid("expected at least 2 entrants, found \(entrants.count)"))
        }
        return entrants
    }

    /// Checks that a gauntlet names a candidate among the entrants, and that only a gauntlet does.
    private func checkCandidate(_ c: KeyedDecodingContainer<CodingKeys>) throws {
        let names = entrants.map(\.name).joined(separator: ", ")
        switch (format, candidate) {
        case (.gauntlet, nil):
            throw c.error(.format, .invalid("gauntlet needs a candidate: add 'candidate: <entrant name>' with one of: \(names)"))
        case (.gauntlet, let candidate?):
            guard entrants.contains(where: { $0.name == candidate }) else {
                throw c.error(.candidate, .invalid("'\(candidate.excerpt())' is not an entrant; accepted: \(names)"))
            }
        case (.roundRobin, nil):
            break
        case (.roundRobin, _?):
            throw c.error(.candidate, .invalid("candidate applies only to format: gauntlet"))
        }
    }

    /// Whether `name` can be a folder name: 1-64 of `[A-Za-z0-9._-]`, not starting with `.`.
    static func isValidName(_ name: String) -> Bool {
        guard nameLength.contains(name.utf8.count), name.first != "." else { return false }
        return name.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
                true
            default:
                false
            }
        }
    }
}

/// One player of a tournament: a name for the results and the strategy it plays.
public struct Entrant: Sendable, Equatable, Decodable {
    /// The name results use; unique within a tournament.
    public var name: String
    /// A strategy spec such as `heuristic` or `mcts(iterations=800)`; the catalog resolves it.
    public var strategy: String

    /// Makes an entrant.
    public init(name: String, strategy: String) {
        self.name = name
        self.strategy = strategy
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case name, strategy
    }

    /// Decodes a `{name, strategy}` mapping; both fields are required and non-empty.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.fields(CodingKeys.self, expected: "a mapping {name, strategy}")
        let length = TournamentConfig.nameLength
        let nameRule = "an entrant name of \(length.lowerBound) to \(length.upperBound) characters "
            + "(\(length.upperBound) bytes in UTF-8) on one line (no control characters)"
        let strategyRule = "a strategy spec such as name or name(key=value, ...), on one line"
        name = try c.required(String.self, .name, expected: nameRule, hint: "the entrant's name in results")
        guard !name.trimmingSpaces.isEmpty, length.contains(name.utf8.count), !name.hasControlCharacters else {
            throw c.error(.name, .expected(nameRule))
        }
        strategy = try c.required(String.self, .strategy, expected: strategyRule, hint: "the strategy it plays, e.g. heuristic")
        guard !strategy.trimmingSpaces.isEmpty, !strategy.hasControlCharacters else { throw c.error(.strategy, .expected(strategyRule)) }
    }
}

/// How a tournament pairs entrants into tables.
public enum TournamentFormat: String, Sendable, Equatable, Decodable, CaseIterable {
    /// Every combination of entrants meets at a table.
    case roundRobin = "round-robin"
    /// Every table includes the candidate; the other seats go to the rest.
    case gauntlet
}

/// One rule knob setting from a config, e.g. `spentCards: discard`; the value is kept as text.
public struct RuleSetting: Sendable, Equatable {
    /// The knob's name.
    public var key: String
    /// The value as written (numbers and booleans as their text).
    public var value: String

    /// Makes a setting.
    public init(key: String, value: String) {
        self.key = key
        self.value = value
    }
}

extension String {
    /// Whether the text holds a line break, tab or other control character (a results
    /// file keeps one record per line).
    var hasControlCharacters: Bool { unicodeScalars.contains { $0.properties.generalCategory == .control } }
}
