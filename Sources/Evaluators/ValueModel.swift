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
        return ModelFileFormat.encode(header: text, parameters: network.parameters, notes: notes)
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
        let header = try ModelFileFormat.header(bytes, file: file, formatLine: formatLine, required: "game, feature-version, layout, inputs, hidden, parameters, checksum")
        let game = try header.field("game").value
        let version = try header.integer("feature-version", min: 1)
        let layout = try header.field("layout").value
        let inputs = try header.integer("inputs", min: 1)
        let hiddenField = try header.field("hidden")
        var hidden: [Int] = []
        if !hiddenField.value.isEmpty {
            for part in hiddenField.value.split(separator: ",", omittingEmptySubsequences: false) {
                guard let width = Int(String(part).trimmingSpaces), width >= 1 else {
                    throw InputError("\(file):\(hiddenField.line): hidden: expected layer widths like 128,64, found '\(hiddenField.value)'")
                }
                hidden.append(width)
            }
        }
        let count = try header.integer("parameters", min: 1)
        // Widths from a damaged header can overflow the parameter count (and its byte
        // count): refuse them before `MLPShape` does that arithmetic and traps.
        let widths = [inputs] + hidden + [1]
        try ModelFileFormat.checkLayers(zip(widths, widths.dropFirst()).map { ($0, $1) }, shape: widths.map(String.init).joined(separator: "-"), file: file)
        let shape = MLPShape(inputs: inputs, hidden: hidden)
        guard shape.parameterCount == count else {
            throw InputError("\(file): shape \(shape) has \(shape.parameterCount) parameters, but the header says parameters: \(count)")
        }
        let parameters = try header.weights(count: count)
        return ValueModel(game: game, featureVersion: version, layout: layout, network: MLP(shape: shape, parameters: parameters), notes: header.notes)
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
}
