// MARK: - Field errors

/// A path to a field of a config, such as `entrants[2].strategy` or `rules.spentCards`.
struct FieldPath: Hashable, Sendable, CustomStringConvertible {
    enum Component: Hashable, Sendable {
        case key(String)
        case index(Int)
    }

    var components: [Component]

    init(_ components: [Component] = []) { self.components = components }

    /// The path of a decoder's coding path (keys with an integer value are list positions).
    init(codingPath: [any CodingKey]) {
        components = codingPath.map { key in key.intValue.map(Component.index) ?? .key(key.stringValue) }
    }

    /// Reads the notation of ``description``; an empty text is the top level.
    init(parsing text: String) {
        var components: [Component] = []
        var key = ""
        var index: String?
        func flushKey() {
            if !key.isEmpty { components.append(.key(key)) }
            key = ""
        }
        for character in text {
            if var digits = index {
                if character == "]" {
                    if let i = Int(digits) { components.append(.index(i)) } else { components.append(.key("[\(digits)]")) }
                    index = nil
                } else {
                    digits.append(character)
                    index = digits
                }
            } else if character == "." {
                flushKey()
            } else if character == "[" {
                flushKey()
                index = ""
            } else {
                key.append(character)
            }
        }
        if let digits = index { key += "[" + digits }
        flushKey()
        self.components = components
    }

    func appending(_ component: Component) -> FieldPath { FieldPath(components + [component]) }

    /// The enclosing path, or nil at the top level.
    var parent: FieldPath? { components.isEmpty ? nil : FieldPath(components.dropLast()) }

    var description: String {
        var text = ""
        for component in components {
            switch component {
            case .key(let key): text += (text.isEmpty ? "" : ".") + key.excerpt()
            case .index(let i): text += "[\(i)]"
            }
        }
        return text
    }
}

/// A problem found while decoding a config, at a field path; the loader adds the file location.
struct ConfigFieldError: Error {
    enum Problem {
        /// The value has the wrong type or is out of range; the loader adds what was found.
        case expected(String)
        /// Anything else, as a complete message.
        case invalid(String)
        /// A key the mapping at the path does not accept.
        case unknownField(String, accepted: [String])
        /// A required key missing from the mapping at the path, with what it is for.
        case missingField(String, hint: String?)
    }

    var path: FieldPath
    var problem: Problem

    init(_ path: FieldPath, _ problem: Problem) {
        self.path = path
        self.problem = problem
    }

    /// The same problem from a decoding error that escaped the field checks.
    init(_ error: DecodingError) {
        switch error {
        case .typeMismatch(let type, let context):
            let expected = type == Int.self || type == UInt64.self ? "an integer" : type == String.self ? "a string" : "\(type)"
            self.init(FieldPath(codingPath: context.codingPath), .expected(expected))
        case .valueNotFound(_, let context):
            self.init(FieldPath(codingPath: context.codingPath), .expected("a value"))
        case .keyNotFound(let key, let context):
            self.init(FieldPath(codingPath: context.codingPath), .missingField(key.stringValue, hint: nil))
        case .dataCorrupted(let context):
            self.init(FieldPath(codingPath: context.codingPath), .invalid(context.debugDescription))
        @unknown default:
            self.init(FieldPath(), .invalid("\(error)"))
        }
    }
}

// MARK: - Containers

/// A coding key for any mapping key (unknown fields, rule knobs).
struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }

    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

extension Decoder {
    /// The keyed container of a mapping, refusing keys that are not `Keys` cases.
    func fields<Keys: CodingKey & CaseIterable>(_ keys: Keys.Type, expected: String) throws -> KeyedDecodingContainer<Keys> {
        let all = try mapping(expected: expected)
        if let unknown = all.allKeys.first(where: { Keys(stringValue: $0.stringValue) == nil }) {
            throw ConfigFieldError(FieldPath(codingPath: codingPath),
                                   .unknownField(unknown.stringValue, accepted: Keys.allCases.map(\.stringValue)))
        }
        return try container(keyedBy: Keys.self)
    }

    /// The keyed container of any mapping, or an error saying what was `expected`.
    func mapping(expected: String) throws -> KeyedDecodingContainer<AnyKey> {
        do {
            return try container(keyedBy: AnyKey.self)
        } catch DecodingError.typeMismatch {
            throw ConfigFieldError(FieldPath(codingPath: codingPath), .expected(expected))
        }
    }
}

extension KeyedDecodingContainer {
    /// A problem with the field at `key`.
    func error(_ key: Key, _ problem: ConfigFieldError.Problem) -> ConfigFieldError {
        ConfigFieldError(FieldPath(codingPath: codingPath + [key]), problem)
    }

    /// The value at `key`, or nil when the key is absent or its value empty (null).
    func optional<T: Decodable>(_ type: T.Type, _ key: Key, expected: String) throws -> T? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        do {
            return try decode(type, forKey: key)
        } catch DecodingError.typeMismatch {
            throw error(key, .expected(expected))
        }
    }

    /// The value at `key`, which must be present and not empty.
    func required<T: Decodable>(_ type: T.Type, _ key: Key, expected: String, hint: String) throws -> T {
        guard contains(key) else {
            throw ConfigFieldError(FieldPath(codingPath: codingPath), .missingField(key.stringValue, hint: hint))
        }
        guard let value = try optional(type, key, expected: expected) else { throw error(key, .expected(expected)) }
        return value
    }
}
