/// Writes JSON into a byte buffer that keeps its capacity: how the player protocol's
/// messages are made without per-message allocation once the buffer has grown.
///
/// Commas are placed by the writer: ``key(_:)`` and every value write one when the
/// container already holds an element. Numbers are written in their shortest exact
/// form (integers in decimal, doubles by Swift's shortest round-trip description).
public struct JSONWriter: Sendable {
    public var bytes: [UInt8]
    /// Whether the next element is the first of its container (no comma before it).
    @usableFromInline var first = true

    public init(capacity: Int = 4096) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Empties the buffer, keeping its capacity.
    public mutating func reset() {
        bytes.removeAll(keepingCapacity: true)
        first = true
    }

    @inlinable mutating func separate() {
        if !first { bytes.append(UInt8(ascii: ",")) }
    }

    public mutating func beginObject() {
        separate()
        bytes.append(UInt8(ascii: "{"))
        first = true
    }

    public mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
        first = false
    }

    public mutating func beginArray() {
        separate()
        bytes.append(UInt8(ascii: "["))
        first = true
    }

    public mutating func endArray() {
        bytes.append(UInt8(ascii: "]"))
        first = false
    }

    /// A member's key (the value follows).
    public mutating func key(_ name: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
        first = true
    }

    /// A member's key given at run time (escaped).
    public mutating func key(_ name: String) {
        separate()
        appendString(name)
        bytes.append(UInt8(ascii: ":"))
        first = true
    }

    public mutating func value(_ n: Int) {
        separate()
        appendInteger(n)
        first = false
    }

    public mutating func value(_ b: Bool) {
        separate()
        if b {
            bytes.append(contentsOf: [UInt8(ascii: "t"), UInt8(ascii: "r"), UInt8(ascii: "u"), UInt8(ascii: "e")])
        } else {
            bytes.append(contentsOf: [UInt8(ascii: "f"), UInt8(ascii: "a"), UInt8(ascii: "l"), UInt8(ascii: "s"), UInt8(ascii: "e")])
        }
        first = false
    }

    /// A finite double (a non-finite one is written as `null`: JSON has no NaN).
    public mutating func value(_ x: Double) {
        separate()
        if x.isFinite {
            if abs(x) < 1e15, x == Double(Int(x)) { appendInteger(Int(x)) } else { bytes.append(contentsOf: Array(x.description.utf8)) }
        } else {
            appendNull()
        }
        first = false
    }

    public mutating func value(_ s: String) {
        separate()
        appendString(s)
        first = false
    }

    public mutating func null() {
        separate()
        appendNull()
        first = false
    }

    mutating func appendNull() {
        bytes.append(contentsOf: [UInt8(ascii: "n"), UInt8(ascii: "u"), UInt8(ascii: "l"), UInt8(ascii: "l")])
    }

    /// An integer, or `null` for a negative one (the games' tables write "none" so: a
    /// railroad without a twin, a cell side without a neighbour).
    public mutating func integerOrNull(_ n: Int) {
        if n < 0 { null() } else { value(n) }
    }

    /// Bytes that already form one complete JSON value (e.g. a cached object).
    public mutating func raw(_ value: [UInt8]) {
        separate()
        bytes.append(contentsOf: value)
        first = false
    }

    /// `key` then an integer value.
    public mutating func member(_ name: StaticString, _ n: Int) {
        key(name)
        value(n)
    }

    /// `key` then a string value.
    public mutating func member(_ name: StaticString, _ s: String) {
        key(name)
        value(s)
    }

    /// `key` then an array of integers.
    /// `"name":["a","b"]`.
    public mutating func member(_ name: StaticString, strings: [String]) {
        key(name)
        beginArray()
        for string in strings { value(string) }
        endArray()
    }

    /// `"name":[[...],...]`: `rows` arrays of `columns` cells each, a cell's integer or
    /// `null` where `cell` gives nil (a board's owners).
    public mutating func member(_ name: StaticString, rows: Int, columns: Int, _ cell: (_ row: Int, _ column: Int) -> Int?) {
        key(name)
        beginArray()
        for row in 0..<rows {
            beginArray()
            for column in 0..<columns { integerOrNull(cell(row, column) ?? -1) }
            endArray()
        }
        endArray()
    }

    public mutating func member<C: Collection>(_ name: StaticString, integers: C) where C.Element: BinaryInteger {
        key(name)
        beginArray()
        for n in integers { value(Int(n)) }
        endArray()
    }

    @inlinable mutating func appendInteger(_ n: Int) {
        if n == 0 { bytes.append(UInt8(ascii: "0")); return }
        var magnitude = n.magnitude
        if n < 0 { bytes.append(UInt8(ascii: "-")) }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { d in
            while magnitude > 0 {
                d[count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            }
            for i in stride(from: count - 1, through: 0, by: -1) { bytes.append(d[i]) }
        }
    }

    /// `s` as a JSON string: quotes, backslashes and control characters escaped, the
    /// rest as UTF-8.
    mutating func appendString(_ s: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in s.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case UInt8(ascii: "\n"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case UInt8(ascii: "\t"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case UInt8(ascii: "\r"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                          hex[Int(byte >> 4)], hex[Int(byte & 15)]])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}

/// How a game speaks the player protocol (`docs/protocol.md`): its `hello` objects and
/// its actions as JSON. Actions are public in every game here (a card drawn is public,
/// which card is not), so an action's object and text depend on the game alone, never
/// on a state: the same for every seat, and cacheable per action id.
public protocol ProtocolGame: Game where State.Observation: ProtocolObservation {
    /// `hello.rules`: every rule knob, resolved, as one object.
    func writeProtocolRules(to json: inout JSONWriter)
    /// `hello.setup`: the game's static data (the rail map with railroad indices, the
    /// Quortex board's cells).
    func writeProtocolSetup(to json: inout JSONWriter)
    /// The structured `action` object of `action` (one in `0..<actionSpaceSize`).
    func writeProtocolAction(_ action: Int, to json: inout JSONWriter)
    /// A readable name of `action`, e.g. `build Paris-Berlin (4 blue) paying blue`.
    func protocolText(of action: Int) -> String
}

extension ProtocolGame {
    /// The `hello` message of this game (the object, without the newline): what every
    /// process of a bot is sent first. `options` is the `options` object's bytes.
    public func writeHello(options: [UInt8], to w: inout JSONWriter) {
        w.beginObject()
        w.member("type", "hello")
        w.member("protocol", 1)
        w.member("game", Self.name)
        w.key("rules")
        writeProtocolRules(to: &w)
        w.member("seats", seatCount)
        w.key("options")
        w.raw(options)
        w.key("setup")
        writeProtocolSetup(to: &w)
        w.endObject()
    }
}

/// A seat's observation as the protocol's `turn.observation` object.
public protocol ProtocolObservation: GameObservation {
    /// Actions applied so far in the match (the `turn` message's `turn`).
    var turn: Int { get }
    /// Writes exactly what this seat may see, nothing of the hidden parts: two states
    /// that differ only there give the same bytes.
    func writeProtocolObservation(to json: inout JSONWriter)
}
