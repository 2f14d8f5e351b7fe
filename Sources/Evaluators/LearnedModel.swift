import Foundation
import LabCore

/// A policy-value model learned by self-play (``PolicyValueNet``) with what it was made
/// for: the game, its feature encoder's version and layout, and notes on how it was
/// trained (the command, generations, games, the gate's last verdict).
///
/// On disk, the lab's model layout (``ModelFileFormat``) with its own first line:
/// ```
/// oplab-policy-value 1
/// game: connect4
/// feature-version: 1
/// layout: 7x6
/// inputs: 85
/// width: 128
/// blocks: 2
/// actions: 7
/// seats: 2
/// parameters: 84233
/// checksum: fnv1a64:...
/// note.command: oplab learn connect4 --generations 12 ...
/// weights:
/// <parameters × 4 bytes>
/// ```
/// Reading refuses another format (a value model of `oplab train` included), a damaged or
/// truncated file, and sizes that do not add up; ``check(game:featureVersion:layout:inputs:actions:seats:file:)``
/// refuses a model made for another game, encoder or board.
public struct LearnedModel: Sendable, Equatable {
    public static let formatLine = "oplab-policy-value 1"

    public var game: String
    public var featureVersion: Int
    public var layout: String
    public var network: PolicyValueNet
    public var notes: [ValueModel.Note]

    public init(game: String, featureVersion: Int, layout: String, network: PolicyValueNet, notes: [ValueModel.Note] = []) {
        self.game = game
        self.featureVersion = featureVersion
        self.layout = layout
        self.network = network
        self.notes = notes
    }

    /// The note `key`, if any.
    public func note(_ key: String) -> String? { notes.first { $0.key == key }?.value }

    /// The note holding the σ scale (alphazero's `cscale`) the model's self-play searched with.
    public static let searchScaleNote = "search.cscale"
    /// The note saying the model was trained on its positions' symmetric images too
    /// (`oplab learn --symmetries`), so that play averages over them by default.
    public static let symmetricNote = "search.symmetric"

    /// Whether the model was trained on symmetric images: its ``symmetricNote``, or, for a
    /// file written before that note, its `learned-by` record of the request.
    public var learnedWithSymmetries: Bool {
        note(Self.symmetricNote) == "true" || note("learned-by")?.contains("; symmetries: true") == true
    }

    /// The file's bytes.
    public func encoded() -> [UInt8] {
        let s = network.shape
        let header = "\(Self.formatLine)\ngame: \(game)\nfeature-version: \(featureVersion)\nlayout: \(layout)\n"
            + "inputs: \(s.inputs)\nwidth: \(s.width)\nblocks: \(s.blocks)\nactions: \(s.actions)\nseats: \(s.seats)\n"
            + (s.actionFeatures > 0 ? "action-features: \(s.actionFeatures)\n" : "")
            + (s.contextualActions ? "action-weights: contextual\n" : "")
        return ModelFileFormat.encode(header: header, parameters: network.parameters, notes: notes)
    }

    /// Writes the model to `path` whole or not at all (a temporary file renamed over it).
    public func write(to path: String) throws(InputError) {
        if let reason = AtomicFile.write(encoded(), to: path) { throw InputError("cannot write \(path): \(reason)") }
    }

    /// Reads the model file at `path` (at most ``ValueModel/maxBytes``).
    public static func load(path: String) throws(InputError) -> LearnedModel {
        try decode(BoundedFile.contents(path, limit: ValueModel.maxBytes, what: "the model file"), file: path)
    }

    /// Parses a model file's bytes; `file` names it in errors.
    public static func decode(_ bytes: [UInt8], file: String) throws(InputError) -> LearnedModel {
        if bytes.starts(with: Array(ValueModel.formatLine.utf8)) {
            throw InputError("\(file): a value model of `oplab train` (\(ValueModel.formatLine)), not a policy-value model of `oplab learn`; "
                + "alphazero and policy play models that `oplab learn` writes")
        }
        let header = try ModelFileFormat.header(bytes, file: file, formatLine: formatLine,
                                                required: "game, feature-version, layout, inputs, width, blocks, actions, seats, parameters, checksum")
        let game = try header.field("game").value
        let version = try header.integer("feature-version", min: 1)
        let layout = try header.field("layout").value
        let inputs = try header.integer("inputs", min: 1, max: 1 << 20)
        let width = try header.integer("width", min: 1, max: 1 << 14)
        let blocks = try header.integer("blocks", min: 0, max: 64)
        let actions = try header.integer("actions", min: 1, max: 1 << 20)
        let seats = try header.integer("seats", min: 2, max: 6)
        // Optional: models without action features have no such line.
        let actionFeatures = header.fields.contains { $0.key == "action-features" }
            ? try header.integer("action-features", min: 1, max: 64) : 0
        guard actions * actionFeatures <= inputs else {
            throw InputError("\(file): \(actions) actions × \(actionFeatures) action features exceed the \(inputs) inputs")
        }
        // Optional too: `contextual` when the action features' weights read the trunk.
        let contextual = try header.fields.contains { $0.key == "action-weights" } ? header.choice("action-weights", among: ["contextual"]) : nil
        if contextual != nil && actionFeatures == 0 {
            throw InputError("\(file): action-weights: contextual needs action features (the header has no action-features line)")
        }
        let shape = PolicyValueShape(inputs: inputs, width: width, blocks: blocks, actions: actions, seats: seats, actionFeatures: actionFeatures,
                                     contextualActions: contextual != nil)
        try ModelFileFormat.checkLayers(shape.layers.map { ($0.fanIn, $0.fanOut) }, shape: shape.description, file: file)
        let count = try header.integer("parameters", min: 1)
        guard shape.parameterCount == count else {
            throw InputError("\(file): shape \(shape) has \(shape.parameterCount) parameters, but the header says parameters: \(count)")
        }
        let parameters = try header.weights(count: count)
        return LearnedModel(game: game, featureVersion: version, layout: layout, network: PolicyValueNet(shape: shape, parameters: parameters),
                            notes: header.notes)
    }

    /// Refuses a model made for another game, encoder version, layout, or action space,
    /// or one with fewer seats than the table.
    public func check(game expectedGame: String, featureVersion expectedVersion: Int, layout expectedLayout: String, inputs: Int,
                      actions: Int, seats: Int, file: String) throws(InputError) {
        guard game == expectedGame else { throw InputError("\(file): the model is for game '\(game)', not '\(expectedGame)'") }
        guard featureVersion == expectedVersion else {
            throw InputError("\(file): the model reads \(game) features version \(featureVersion); this build encodes version "
                + "\(expectedVersion) (learn it again with `oplab learn`)")
        }
        guard layout == expectedLayout else {
            throw InputError("\(file): the model was learned for layout '\(layout)'; this game's layout is '\(expectedLayout)' "
                + "(another map or board; learn it again)")
        }
        guard network.shape.inputs == inputs, network.shape.actions == actions else {
            throw InputError("\(file): the model takes \(network.shape.inputs) inputs and \(network.shape.actions) actions; "
                + "\(game) here has \(inputs) and \(actions)")
        }
        guard network.shape.seats == seats else {
            throw InputError("\(file): the model values \(network.shape.seats) seats; this table has \(seats)")
        }
    }
}
