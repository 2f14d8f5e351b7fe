/// A parsed JSON value: what the lab reads from a bot (`ready`, `action`) and what
/// `oplab bot check` validates.
public indirect enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    /// A number written without a fraction or exponent that fits in an Int.
    case integer(Int)
    case number(Double)
    case string(String)
    case array([JSONValue])
    /// Members in the order written (a repeated key keeps its first value for lookups).
    case object([(key: String, value: JSONValue)])

    public static func == (l: JSONValue, r: JSONValue) -> Bool {
        switch (l, r) {
        case (.null, .null): true
        case let (.bool(a), .bool(b)): a == b
        case let (.integer(a), .integer(b)): a == b
        case let (.number(a), .number(b)): a == b
        case let (.string(a), .string(b)): a == b
        case let (.array(a), .array(b)): a == b
        case let (.object(a), .object(b)): a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: false
        }
    }

    /// The member `key` of an object (nil for a missing key or a non-object).
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    public var string: String? { if case .string(let s) = self { s } else { nil } }
    public var integer: Int? { if case .integer(let n) = self { n } else { nil } }
    public var bool: Bool? { if case .bool(let b) = self { b } else { nil } }
    /// Any number, integer or not.
    public var double: Double? {
        switch self {
        case .integer(let n): Double(n)
        case .number(let x): x
        default: nil
        }
    }

    /// The JSON type's name, for messages: `object`, `string`, `integer`, ...
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .integer: "integer"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}

/// Parses one JSON text (RFC 8259) from bytes: strict (no comments, no trailing commas,
/// no NaN), UTF-8 checked, nesting at most ``maxDepth`` deep so a hostile line cannot
/// exhaust the stack. Errors say what was wrong and at which byte.
public struct JSONParser {
    public static let maxDepth = 128

    public struct Failure: Error, Sendable, CustomStringConvertible {
        public var message: String
        public var offset: Int
        public var description: String { "\(message) at byte \(offset + 1)" }
    }

    /// The value in `bytes`; whitespace around it is allowed, anything else is not.
    public static func parse<C: Collection<UInt8>>(_ bytes: C) throws(Failure) -> JSONValue {
        let array = Array(bytes)
        return try array.withUnsafeBufferPointer { (buffer) throws(Failure) -> JSONValue in
            var parser = JSONParser(bytes: buffer)
            parser.skipSpace()
            let value = try parser.value(depth: 0)
            parser.skipSpace()
            guard parser.i == buffer.count else { throw parser.fail("text after the value") }
            return value
        }
    }

    let bytes: UnsafeBufferPointer<UInt8>
    var i = 0

    func fail(_ message: String) -> Failure { Failure(message: message, offset: i) }

    mutating func skipSpace() {
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x09 || bytes[i] == 0x0A || bytes[i] == 0x0D { i += 1 }
    }

    mutating func value(depth: Int) throws(Failure) -> JSONValue {
        guard depth < Self.maxDepth else { throw fail("nesting deeper than \(Self.maxDepth)") }
        guard i < bytes.count else { throw fail("unexpected end") }
        switch bytes[i] {
        case UInt8(ascii: "{"):
            i += 1
            var members: [(key: String, value: JSONValue)] = []
            skipSpace()
            if i < bytes.count, bytes[i] == UInt8(ascii: "}") { i += 1; return .object(members) }
            while true {
                skipSpace()
                guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw fail("expected a string key") }
                let key = try string()
                skipSpace()
                guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw fail("expected ':'") }
                i += 1
                skipSpace()
                members.append((key, try value(depth: depth + 1)))
                skipSpace()
                guard i < bytes.count else { throw fail("unexpected end in an object") }
                if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                if bytes[i] == UInt8(ascii: "}") { i += 1; return .object(members) }
                throw fail("expected ',' or '}'")
            }
        case UInt8(ascii: "["):
            i += 1
            var elements: [JSONValue] = []
            skipSpace()
            if i < bytes.count, bytes[i] == UInt8(ascii: "]") { i += 1; return .array(elements) }
            while true {
                skipSpace()
                elements.append(try value(depth: depth + 1))
                skipSpace()
                guard i < bytes.count else { throw fail("unexpected end in an array") }
                if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                if bytes[i] == UInt8(ascii: "]") { i += 1; return .array(elements) }
                throw fail("expected ',' or ']'")
            }
        case UInt8(ascii: "\""):
            return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return try number()
        default:
            throw fail("unexpected character")
        }
    }

    mutating func literal(_ word: StaticString) throws(Failure) {
        let n = word.utf8CodeUnitCount
        guard i + n <= bytes.count else { throw fail("unexpected end") }
        for k in 0..<n where bytes[i + k] != word.utf8Start[k] { throw fail("unexpected character") }
        i += n
    }

    mutating func number() throws(Failure) -> JSONValue {
        let start = i
        if bytes[i] == UInt8(ascii: "-") { i += 1 }
        func digits(_ p: inout JSONParser) -> Int {
            let s = p.i
            while p.i < p.bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(p.bytes[p.i]) { p.i += 1 }
            return p.i - s
        }
        guard i < bytes.count else { throw fail("a number without digits") }
        if bytes[i] == UInt8(ascii: "0") {
            i += 1
        } else if digits(&self) == 0 {
            throw fail("a number without digits")
        }
        var integral = true
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            integral = false
            i += 1
            guard digits(&self) > 0 else { throw fail("no digits after '.'") }
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            integral = false
            i += 1
            if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            guard digits(&self) > 0 else { throw fail("no digits in the exponent") }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
        if integral, let n = Int(text) { return .integer(n) }
        guard let x = Double(text), x.isFinite else { throw fail("a number out of range") }
        return .number(x)
    }

    mutating func string() throws(Failure) -> String {
        i += 1
        var out: [UInt8] = []
        while true {
            guard i < bytes.count else { throw fail("unterminated string") }
            let b = bytes[i]
            if b == UInt8(ascii: "\"") { i += 1; break }
            if b < 0x20 { throw fail("a control character in a string") }
            if b != UInt8(ascii: "\\") { out.append(b); i += 1; continue }
            i += 1
            guard i < bytes.count else { throw fail("unterminated escape") }
            let e = bytes[i]
            i += 1
            switch e {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if (0xD800..<0xDC00).contains(scalar) {
                    guard i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else {
                        throw fail("a lone surrogate")
                    }
                    i += 2
                    let low = try hex4()
                    guard (0xDC00..<0xE000).contains(low) else { throw fail("a lone surrogate") }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00..<0xE000).contains(scalar) {
                    throw fail("a lone surrogate")
                }
                out.append(contentsOf: Array(String(Character(Unicode.Scalar(scalar)!)).utf8))
            default: throw fail("an unknown escape")
            }
        }
        guard let s = String(validating: out, as: UTF8.self) else { throw fail("a string that is not UTF-8") }
        return s
    }

    mutating func hex4() throws(Failure) -> UInt32 {
        guard i + 4 <= bytes.count else { throw fail("a short \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[i]
            let d: UInt8
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = b - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = b - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = b - UInt8(ascii: "A") + 10
            default: throw fail("a bad \\u escape")
            }
            v = v << 4 | UInt32(d)
            i += 1
        }
        return v
    }
}
