import LabCore

/// Where on the board a run's matches happened, counted per entrant and board element
/// (a stretch of track, a cell: whatever the game names).
///
/// The game names its board elements (at most 128) and, per count, a per-seat column of
/// `matches.csv` that holds the set of elements a seat marked in its match (what it
/// built, the cells it played, the cells of its winning line) as a
/// fixed-width hex number, bit i for element i. The harness counts them from those rows
/// alone, so a run, a resumed run and merged shards write the same file, one row per
/// (element, entrant).
public struct BoardCountsSpec: Sendable, Equatable {
    /// One count column of the file.
    public struct Count: Sendable, Equatable {
        /// The column in the counts file, e.g. `built`.
        public var name: String
        /// The per-seat column of `matches.csv` holding the element set, e.g. `built_cells`.
        public var column: String
        /// Count only seats that finished first (alone or tied).
        public var firstPlaceOnly: Bool

        public init(name: String, column: String, firstPlaceOnly: Bool = false) {
            self.name = name
            self.column = column
            self.firstPlaceOnly = firstPlaceOnly
        }
    }

    /// The file written beside the summaries, e.g. `cells.csv`.
    public var file: String
    /// What an element is called in errors, e.g. `cell`.
    public var elementName: String
    /// The columns describing an element (the first is its index), e.g.
    /// `cell, row, col`.
    public var elementColumns: [String]
    /// Per element, its describing fields (as many as `elementColumns`).
    public var elements: [[String]]
    public var counts: [Count]

    public init(file: String, elementName: String, elementColumns: [String], elements: [[String]], counts: [Count]) {
        precondition(elements.allSatisfy { $0.count == elementColumns.count }, "every element needs one field per column")
        precondition(elements.count <= Self.maxElements, "at most \(Self.maxElements) board elements")
        self.file = file
        self.elementName = elementName
        self.elementColumns = elementColumns
        self.elements = elements
        self.counts = counts
    }

    /// The file's header: the element's columns, `entrant`, then the counts.
    public var header: [String] { elementColumns + ["entrant"] + counts.map(\.name) }

    /// The most elements a board may have: a seat's marks are one 128-bit set.
    public static let maxElements = 128

    /// Hex digits of a mark column: one per four elements, so every value of a run has
    /// the same width.
    var hexDigits: Int { max(1, (elements.count + 3) / 4) }

    /// Appends `set` as `hexDigits` lowercase hex digits (bit i of the number: element
    /// i), then a comma, or a newline after the last field.
    /// - Complexity: O(hexDigits); no allocation beyond the buffer's growth.
    func appendHex(_ set: UInt128, to bytes: inout [UInt8], last: Bool) {
        for k in stride(from: hexDigits - 1, through: 0, by: -1) {
            let v = UInt8(truncatingIfNeeded: (set >> UInt128(4 * k)) & 0xF)
            bytes.append(v < 10 ? UInt8(ascii: "0") + v : UInt8(ascii: "a") + v - 10)
        }
        bytes.append(last ? 0x0A : UInt8(ascii: ","))
    }

    /// The element set a mark column holds: exactly `hexDigits` hex digits with no bit
    /// at or past the element count; nil otherwise.
    func elementSet(hex field: String) -> UInt128? {
        guard field.utf8.count == hexDigits else { return nil }
        var set: UInt128 = 0
        for byte in field.utf8 {
            let v: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): v = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): v = byte - UInt8(ascii: "a") + 10
            default: return nil
            }
            set = set << 4 | UInt128(v)
        }
        guard elements.count == Self.maxElements || set >> UInt128(elements.count) == 0 else { return nil }
        return set
    }

    /// What `elementSet(hex:)` accepts, for an error message.
    var accepted: String {
        "\(hexDigits) lowercase hex digits, bit i set when \(elementName) i is marked (\(elementName)s 0...\(elements.count - 1))"
    }
}

/// The running counts of a ``BoardCountsSpec``.
struct BoardCounts {
    let spec: BoardCountsSpec
    let entrants: Int
    /// `counts[c][element * entrants + entrant]`.
    var counts: [[Int]]

    init(spec: BoardCountsSpec, entrants: Int) {
        self.spec = spec
        self.entrants = entrants
        counts = spec.counts.map { _ in Array(repeating: 0, count: spec.elements.count * entrants) }
    }

    /// Adds one row's marks (`marks[c]`: the element set of count c).
    /// - Complexity: O(elements marked).
    mutating func add(_ marks: [UInt128], entrant: Int, place: Int) {
        for (c, count) in spec.counts.enumerated() where !count.firstPlaceOnly || place == 1 {
            // Through a pointer: `counts[c][i] += 1` checked both arrays' uniqueness for
            // every element (2,000 to 3,000 instructions a match).
            counts[c].withUnsafeMutableBufferPointer { counted in
                var set = marks[c]
                while set != 0 {
                    counted[set.trailingZeroBitCount &* entrants &+ entrant] &+= 1
                    set &= set &- 1
                }
            }
        }
    }

    /// The file: one row per (element, entrant), elements in order, entrants in config order.
    func file(entrantNames: [String]) -> String {
        var out = CSV.line(spec.header)
        for (e, fields) in spec.elements.enumerated() {
            for entrant in 0..<entrants {
                out += CSV.line(fields + [entrantNames[entrant]] + counts.map { String($0[e * entrants + entrant]) })
            }
        }
        return out
    }
}
