import Foundation
import LabCore

/// A trained value model with what it was trained for: the game, the feature layout
/// (version and the layout key, e.g. the map's size) and free-form notes (teacher,
/// command, validation figures).
///
/// On disk (`configs/models/NAME.model`) a model is a short text header, one `key: value`
/// per line, then the weights as little-endian float32:
/// ```
/// oplab-model 1
/// game: rail
/// feature-version: 1
/// layout: cities=36 railroads=80
/// inputs: 214
/// hidden: 128,64
/// parameters: 35841
/// checksum: fnv1a64:5d1c0e2f9a7b3c41
/// note.teacher: heuristic
/// weights:
/// <parameters × 4 bytes>
/// ```
/// Reading checks every line, the shapes against the parameter count, the length of
/// the weights (a truncated file is refused) and their checksum.
public struct ValueModel: Sendable, Equatable {
    public static let formatLine = "oplab-model 1"

    public var game: String
    public var featureVersion: Int
    public var layout: String
    public var network: MLP
    /// `note.KEY: value` lines, in order.
    public var notes: [Note]

    public struct Note: Sendable, Equatable {
        public var key: String
        public var value: String
        public init(_ key: String, _ value: String) {
            self.key = key
            self.value = value
        }
    }

    public init(game: String, featureVersion: Int, layout: String, network: MLP, notes: [Note] = []) {
        self.game = game
        self.featureVersion = featureVersion
        self.layout = layout
        self.network = network
        self.notes = notes
    }

    /// The note `key`, if any.
    public func note(_ key: String) -> String? { notes.first { $0.key == key }?.value }

    // MARK: Writing

    /// The file's bytes.
    public func encoded() -> [UInt8] {
        var text = "\(Self.formatLine)\n"
        text += "game: \(game)\n"
        text += "feature-version: \(featureVersion)\n"
        text += "layout: \(layout)\n"
        text += "inputs: \(network.shape.inputs)\n"
        text += "hidden: \(network.shape.hidden.map(String.init).joined(separator: ","))\n"
        text += "parameters: \(network.parameters.count)\n"
        text += "checksum: fnv1a64:\(Self.hex(Self.checksum(network.parameters)))\n"
        for note in notes {
            text += "note.\(note.key): \(note.value.replacingOccurrences(of: "\n", with: " "))\n"
        }
        text += "weights:\n"
        var bytes = Array(text.utf8)
        bytes.reserveCapacity(bytes.count + network.parameters.count * 4)
        for w in network.parameters {
            withUnsafeBytes(of: w.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
        }
        return bytes
    }

    /// Writes the model to `path` (through a temporary file and a rename, so a reader
    /// never sees half a model).
    public func write(to path: String) throws {
        let url = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).partial")
        try Data(encoded()).write(to: temporary)
        if FileManager.default.fileExists(atPath: url.path) { try FileManager.default.removeItem(at: url) }
        try FileManager.default.moveItem(at: temporary, to: url)
    }

    // MARK: Reading

    /// The most bytes a model file may hold (the shipped ones are well under 1 MiB).
    public static let maxBytes = 64 << 20

    /// Reads the model file at `path`.
    public static func load(path: String) throws(InputError) -> ValueModel {
        try decode(BoundedFile.contents(path, limit: maxBytes, what: "the model file"), file: path)
    }

    /// Parses a model file's bytes; `file` names it in errors.
    public static func decode(_ bytes: [UInt8], file: String) throws(InputError) -> ValueModel {
        var fields: [(key: String, value: String, line: Int)] = []
        var at = 0
        var line = 0
        var sawWeights = false
        while at < bytes.count {
            guard let end = bytes[at...].firstIndex(of: 0x0A) else { break }
            line += 1
            guard let text = String(validating: bytes[at..<end], as: UTF8.self) else {
                throw InputError("\(file):\(line): the header is not text; expected a model file written by `oplab train`")
            }
            at = end + 1
            if line == 1 {
                guard text == formatLine else {
                    throw InputError("\(file):1: not a model file: expected the first line '\(formatLine)', found '\(text.prefix(40))'")
                }
                continue
            }
            if text == "weights:" { sawWeights = true; break }
            guard let colon = text.firstIndex(of: ":") else {
                throw InputError("\(file):\(line): expected 'key: value' or 'weights:', found '\(text.prefix(40))'")
            }
            fields.append((String(text[..<colon]).trimmingSpaces, String(text[text.index(after: colon)...]).trimmingSpaces, line))
        }
        guard !bytes.isEmpty else { throw InputError("\(file): empty file; expected a model file written by `oplab train`") }
        guard line >= 1 else {
            throw InputError("\(file): not a model file: expected the first line '\(formatLine)'")
        }
        guard sawWeights else {
            throw InputError("\(file): truncated header: no 'weights:' line (the file ends at line \(line))")
        }
        func field(_ key: String) throws(InputError) -> (value: String, line: Int) {
            guard let f = fields.first(where: { $0.key == key }) else {
                throw InputError("\(file): header lacks '\(key):'; required: game, feature-version, layout, inputs, hidden, parameters, checksum")
            }
            return (f.value, f.line)
        }
        func integer(_ key: String, min low: Int) throws(InputError) -> Int {
            let f = try field(key)
            guard let v = Int(f.value), v >= low else {
                throw InputError("\(file):\(f.line): \(key): expected an integer >= \(low), found '\(f.value)'")
            }
            return v
        }
        let game = try field("game").value
        let version = try integer("feature-version", min: 1)
        let layout = try field("layout").value
        let inputs = try integer("inputs", min: 1)
        let hiddenField = try field("hidden")
        var hidden: [Int] = []
        if !hiddenField.value.isEmpty {
            for part in hiddenField.value.split(separator: ",", omittingEmptySubsequences: false) {
                guard let width = Int(String(part).trimmingSpaces), width >= 1 else {
                    throw InputError("\(file):\(hiddenField.line): hidden: expected layer widths like 128,64, found '\(hiddenField.value)'")
                }
                hidden.append(width)
            }
        }
        let count = try integer("parameters", min: 1)
        // Widths from a damaged header can overflow the parameter count (and its byte
        // count): refuse them before `MLPShape` does that arithmetic and traps.
        let widths = [inputs] + hidden + [1]
        var needed = 0
        for l in 0..<(widths.count - 1) {
            let (weights, o1) = widths[l].multipliedReportingOverflow(by: widths[l + 1])
            let (layer, o2) = weights.addingReportingOverflow(widths[l + 1])
            let (sum, o3) = needed.addingReportingOverflow(layer)
            guard !(o1 || o2 || o3) && sum <= Int.max / 4 else {
                throw InputError("\(file): shape \(widths.map(String.init).joined(separator: "-")) is too large: its parameter count overflows (the header is damaged)")
            }
            needed = sum
        }
        let shape = MLPShape(inputs: inputs, hidden: hidden)
        guard shape.parameterCount == count else {
            throw InputError("\(file): shape \(shape) has \(shape.parameterCount) parameters, but the header says parameters: \(count)")
        }
        let checksumField = try field("checksum")
        let available = bytes.count - at
        guard available == count * 4 else {
            let what = available < count * 4 ? "truncated" : "longer than its header says"
            throw InputError("\(file): file is \(what): \(available) bytes of weights, expected \(count * 4) (\(count) float32 values)")
        }
        var parameters = [Float](repeating: 0, count: count)
        for i in 0..<count {
            var bits: UInt32 = 0
            for k in 0..<4 { bits |= UInt32(bytes[at + i * 4 + k]) << (8 * k) }
            parameters[i] = Float(bitPattern: bits)
            guard parameters[i].isFinite else {
                throw InputError("\(file): weight \(i) is not a finite number")
            }
        }
        let expected = "fnv1a64:" + hex(checksum(parameters))
        guard checksumField.value == expected else {
            throw InputError("\(file):\(checksumField.line): checksum mismatch: the header says \(checksumField.value), the weights give \(expected) (the file is damaged)")
        }
        let notes = fields.filter { $0.key.hasPrefix("note.") }.map { Note(String($0.key.dropFirst(5)), $0.value) }
        return ValueModel(game: game, featureVersion: version, layout: layout, network: MLP(shape: shape, parameters: parameters), notes: notes)
    }

    /// Refuses a model made for another game, feature version or layout.
    public func check(game expectedGame: String, featureVersion expectedVersion: Int, layout expectedLayout: String, inputs expectedInputs: Int, file: String) throws(InputError) {
        guard game == expectedGame else {
            throw InputError("\(file): the model is for game '\(game)', not '\(expectedGame)'")
        }
        guard featureVersion == expectedVersion else {
            throw InputError("\(file): the model reads \(game) features version \(featureVersion); this build encodes version \(expectedVersion) (retrain it with `oplab train`)")
        }
        guard layout == expectedLayout else {
            throw InputError("\(file): the model was trained for layout '\(layout)'; this game's layout is '\(expectedLayout)' (another map or board size; retrain it)")
        }
        guard network.shape.inputs == expectedInputs else {
            throw InputError("\(file): the model takes \(network.shape.inputs) inputs; the \(game) encoder writes \(expectedInputs)")
        }
    }

    static func checksum(_ parameters: [Float]) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for w in parameters {
            var bits = w.bitPattern
            for _ in 0..<4 {
                h = (h ^ UInt64(bits & 0xFF)) &* 0x100_0000_01b3
                bits >>= 8
            }
        }
        return h
    }

    static func hex(_ v: UInt64) -> String {
        let s = String(v, radix: 16)
        return String(repeating: "0", count: 16 - s.count) + s
    }
}
