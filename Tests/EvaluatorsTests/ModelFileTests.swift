import Foundation
import Testing
import LabCore
@testable import Evaluators

/// `ValueModel` files: a save-load round trip, and every kind of damage refused with a
/// message that says what is wrong.
@Suite("Model files")
struct ModelFileTests {
    static let shape = MLPShape(inputs: 6, hidden: [4, 3])

    static func model(_ shape: MLPShape = shape) -> ValueModel {
        ValueModel(game: "rail", featureVersion: 2, layout: "cities=36 railroads=80",
                   network: Reference.randomNetwork(shape, seed: 81),
                   notes: [.init("teacher", "heuristic"), .init("command", "oplab train --epochs 20")])
    }

    /// The header lines of `model`'s file (without `weights:`) and its weight bytes.
    static func parts(_ model: ValueModel = model()) -> (lines: [String], weights: [UInt8]) {
        let bytes = model.encoded()
        let marker = Array("\nweights:\n".utf8)
        let end = (0...(bytes.count - marker.count)).first { Array(bytes[$0..<($0 + marker.count)]) == marker }!
        let header = String(decoding: bytes[..<end], as: UTF8.self)
        return (header.split(separator: "\n").map(String.init), Array(bytes[(end + marker.count)...]))
    }

    static func file(_ lines: [String], weights: [UInt8], weightsLine: Bool = true) -> [UInt8] {
        Array((lines.joined(separator: "\n") + (weightsLine ? "\nweights:\n" : "\n")).utf8) + weights
    }

    /// The header with the line starting `key:` replaced by `replacement` (nil drops it).
    static func edited(_ key: String, _ replacement: String?) -> [UInt8] {
        let (lines, weights) = parts()
        precondition(lines.contains { $0.hasPrefix("\(key):") }, "no \(key) line")
        return file(lines.compactMap { $0.hasPrefix("\(key):") ? replacement : $0 }, weights: weights)
    }

    /// The message `decode` refuses `bytes` with, or nil if it reads them.
    static func refusal(_ bytes: [UInt8]) -> String? {
        do {
            _ = try ValueModel.decode(bytes, file: "bad.model")
            return nil
        } catch {
            return error.message
        }
    }

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("evaluators-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    // MARK: Round trip

    @Test("write(to:) then load(path:) gives the same model and the same outputs",
          arguments: [shape, MLPShape(inputs: 6, hidden: []), MLPShape(inputs: 6, hidden: [5])])
    func roundTrip(shape: MLPShape) throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let original = Self.model(shape)
        let path = directory.appendingPathComponent("models/m.model").path
        try original.write(to: path)
        try original.write(to: path)  // over an existing file
        let loaded = try ValueModel.load(path: path)
        #expect(loaded == original)
        #expect(loaded.note("teacher") == "heuristic" && loaded.note("command") == "oplab train --epochs 20")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("models").path) == ["m.model"])

        var rng = LabRandom(seed: 82)
        let batch = 17
        let input = Reference.uniform(batch * shape.inputs, scale: 1, rng: &rng)
        func outputs(_ model: ValueModel) -> [Float] {
            var out = [Float](repeating: 0, count: batch)
            input.withUnsafeBufferPointer { x in
                out.withUnsafeMutableBufferPointer { y in
                    model.network.evaluate(x.baseAddress!, batch: batch, into: y.baseAddress!, workspace: MLPWorkspace())
                }
            }
            return out
        }
        #expect(outputs(loaded) == outputs(original))
    }

    @Test("The header is the documented text, and the weights are little-endian float32")
    func headerLayout() {
        let model = Self.model()
        let (lines, weights) = Self.parts(model)
        #expect(Array(lines.prefix(7)) == ["oplab-model 1", "game: rail", "feature-version: 2", "layout: cities=36 railroads=80",
                                           "inputs: 6", "hidden: 4,3", "parameters: 47"])
        #expect(lines[7].hasPrefix("checksum: fnv1a64:") && lines[7].count == "checksum: fnv1a64:".count + 16)
        #expect(Array(lines.suffix(2)) == ["note.teacher: heuristic", "note.command: oplab train --epochs 20"])
        #expect(weights.count == 47 * 4)
        let first = UInt32(weights[0]) | UInt32(weights[1]) << 8 | UInt32(weights[2]) << 16 | UInt32(weights[3]) << 24
        #expect(Float(bitPattern: first) == model.network.parameters[0])
    }

    @Test("FNV-1a 64 over the little-endian bytes of the weights")
    func checksumIsFnv1a() {
        // FNV-1a 64 of no bytes is the offset basis; of four zero bytes, worked out with
        // h = (h ^ 0) · 0x100000001b3 four times from 0xcbf29ce484222325.
        #expect(ValueModel.checksum([]) == 0xcbf2_9ce4_8422_2325)
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in [0x00, 0x00, 0x80, 0x3f] as [UInt64] { h = (h ^ byte) &* 0x100_0000_01b3 }  // 1.0 = 0x3f800000
        #expect(ValueModel.checksum([1.0]) == h)
        #expect(ValueModel.checksum([1.0]) != ValueModel.checksum([-1.0]))
    }

    // MARK: Refusals

    @Test("Refused: wrong first line")
    func wrongFirstLine() throws {
        var (lines, weights) = Self.parts()
        lines[0] = "oplab-model 2"
        let message = try #require(Self.refusal(Self.file(lines, weights: weights)))
        #expect(message.hasPrefix("bad.model:1:") && message.contains("not a model file") && message.contains("'oplab-model 2'"))
    }

    @Test("Refused: no weights: line")
    func missingWeightsLine() throws {
        let (lines, _) = Self.parts()
        let message = try #require(Self.refusal(Self.file(lines, weights: [], weightsLine: false)))
        #expect(message.contains("no 'weights:' line"))
    }

    @Test("Refused: a required header field is missing",
          arguments: ["game", "feature-version", "layout", "inputs", "hidden", "parameters", "checksum"])
    func missingField(key: String) throws {
        let message = try #require(Self.refusal(Self.edited(key, nil)))
        #expect(message.contains("lacks '\(key):'"), "\(message)")
    }

    @Test("Refused: a header line without a colon")
    func lineWithoutColon() throws {
        let message = try #require(Self.refusal(Self.edited("layout", "layout cities=36")))
        #expect(message.hasPrefix("bad.model:4:") && message.contains("expected 'key: value'"))
    }

    @Test("Refused: an integer field that is not an integer or too small",
          arguments: [("inputs", "six", 5), ("inputs", "0", 5), ("feature-version", "1.5", 3), ("parameters", "-47", 7)])
    func notAnInteger(key: String, value: String, line: Int) throws {
        let message = try #require(Self.refusal(Self.edited(key, "\(key): \(value)")))
        #expect(message.hasPrefix("bad.model:\(line): \(key): expected an integer") && message.contains("'\(value)'"), "\(message)")
    }

    @Test("Refused: malformed hidden widths", arguments: ["4,,3", "4,x", "4,0", "4,-3", ","])
    func malformedHidden(value: String) throws {
        let message = try #require(Self.refusal(Self.edited("hidden", "hidden: \(value)")))
        #expect(message.hasPrefix("bad.model:6: hidden: expected layer widths") && message.contains("'\(value)'"), "\(message)")
    }

    @Test("Refused: the shape does not have the header's parameter count",
          arguments: [("inputs", "inputs: 7", "7-4-3-1 has 51 parameters"), ("hidden", "hidden: 4", "6-4-1 has 33 parameters"),
                      ("parameters", "parameters: 48", "6-4-3-1 has 47 parameters")])
    func wrongShape(key: String, line: String, fact: String) throws {
        let message = try #require(Self.refusal(Self.edited(key, line)))
        #expect(message.contains("shape \(fact)") && message.contains("the header says parameters:"), "\(message)")
    }

    @Test("Refused, not trapped: layer widths whose parameter count overflows",
          arguments: ["inputs: 9223372036854775807", "hidden: 4611686018427387904,4"])
    func hugeShape(line: String) throws {
        let key = String(line.prefix { $0 != ":" })
        let message = try #require(Self.refusal(Self.edited(key, line)))
        #expect(message.contains("too large"), "\(message)")
    }

    @Test("Refused: truncated weights", arguments: [1, 3, 4, 47 * 4])
    func truncated(cut: Int) throws {
        let bytes = Self.model().encoded()
        let message = try #require(Self.refusal(Array(bytes.dropLast(cut))))
        #expect(message.contains("truncated") && message.contains("\(47 * 4 - cut) bytes of weights, expected 188"), "\(message)")
    }

    @Test("Refused: bytes after the weights")
    func extraBytes() throws {
        let message = try #require(Self.refusal(Self.model().encoded() + [0]))
        #expect(message.contains("longer than its header says") && message.contains("189 bytes of weights, expected 188"))
    }

    @Test("Refused: a damaged weight byte fails the checksum")
    func corruptedWeight() throws {
        var bytes = Self.model().encoded()
        bytes[bytes.count - 50] ^= 0x01
        let message = try #require(Self.refusal(bytes))
        #expect(message.contains("checksum mismatch"), "\(message)")
    }

    @Test("Refused: a non-finite weight, even with a matching checksum", arguments: [Float.nan, .infinity, -.infinity])
    func nonFiniteWeight(value: Float) throws {
        var parameters = Self.model().network.parameters
        parameters[5] = value
        var (lines, weights) = Self.parts()
        let index = lines.firstIndex { $0.hasPrefix("checksum:") }!
        lines[index] = "checksum: fnv1a64:" + ValueModel.hex(ValueModel.checksum(parameters))
        withUnsafeBytes(of: value.bitPattern.littleEndian) { weights.replaceSubrange(20..<24, with: $0) }
        let message = try #require(Self.refusal(Self.file(lines, weights: weights)))
        #expect(message.contains("weight 5 is not a finite number"), "\(message)")
    }

    @Test("Refused: no such file")
    func missingFile() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("absent.model").path
        let error = try #require(throws: InputError.self) { try ValueModel.load(path: path) }
        #expect(error.message.hasPrefix(path) && error.message.contains("cannot read the model file"), "\(error.message)")
    }

    @Test("Refused: an empty file")
    func emptyFile() throws {
        let message = try #require(Self.refusal([]))
        #expect(message.contains("empty file"))
    }

    @Test("Refused: a file of one line without a newline is not a model file (not an empty one)")
    func oneLineFile() throws {
        let message = try #require(Self.refusal(Array("{\"cities\": []}".utf8)))
        #expect(message.contains("not a model file") && message.contains("oplab-model 1") && !message.contains("empty"), "\(message)")
    }

    // MARK: check

    @Test("check accepts the model's own game, version, layout and inputs")
    func checkAccepts() throws {
        try Self.model().check(game: "rail", featureVersion: 2, layout: "cities=36 railroads=80", inputs: 6, file: "m.model")
    }

    @Test("check refuses another game, feature version, layout or input count",
          arguments: [("quortex", 2, "cities=36 railroads=80", 6, "for game 'rail', not 'quortex'"),
                      ("rail", 3, "cities=36 railroads=80", 6, "features version 2; this build encodes version 3"),
                      ("rail", 2, "cities=40 railroads=80", 6, "layout 'cities=36 railroads=80'; this game's layout is 'cities=40 railroads=80'"),
                      ("rail", 2, "cities=36 railroads=80", 7, "takes 6 inputs; the rail encoder writes 7")])
    func checkRefuses(game: String, version: Int, layout: String, inputs: Int, fact: String) {
        do {
            try Self.model().check(game: game, featureVersion: version, layout: layout, inputs: inputs, file: "m.model")
            Issue.record("accepted a model for \(game) v\(version) \(layout) \(inputs)")
        } catch {
            #expect(error.message.hasPrefix("m.model: ") && error.message.contains(fact), "\(error.message)")
        }
    }
}
