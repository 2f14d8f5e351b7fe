import LabCore

/// The layout every model file of the lab shares: a text header, one `key: value` per
/// line after a format line, `note.KEY: value` lines for how it was made, then
/// `weights:` and the parameters as little-endian float32, their FNV-1a checksum in the
/// header. Reading checks every line, the length of the weights (a truncated file is
/// refused), that each is finite, and their checksum.
enum ModelFileFormat {
    /// A parsed header: its fields with their line numbers, and where the weights start.
    struct Header {
        let file: String
        let bytes: [UInt8]
        let fields: [(key: String, value: String, line: Int)]
        let weightsOffset: Int
        let required: String

        func field(_ key: String) throws(InputError) -> (value: String, line: Int) {
            guard let f = fields.first(where: { $0.key == key }) else {
                throw InputError("\(file): header lacks '\(key):'; required: \(required)")
            }
            return (f.value, f.line)
        }

        func integer(_ key: String, min low: Int, max high: Int = Int.max) throws(InputError) -> Int {
            let f = try field(key)
            guard let v = Int(f.value), v >= low, v <= high else {
                let range = high == Int.max ? ">= \(low)" : "in \(low)...\(high)"
                throw InputError("\(file):\(f.line): \(key): expected an integer \(range), found '\(String(f.value.prefix(40)))'")
            }
            return v
        }

        /// The field `key`, which must be one of `accepted`.
        func choice(_ key: String, among accepted: [String]) throws(InputError) -> String {
            let f = try field(key)
            guard accepted.contains(f.value) else {
                throw InputError("\(file):\(f.line): \(key): expected \(accepted.joined(separator: " or ")), found '\(String(f.value.prefix(40)))'")
            }
            return f.value
        }

        var notes: [ValueModel.Note] {
            fields.filter { $0.key.hasPrefix("note.") }.map { ValueModel.Note(String($0.key.dropFirst(5)), $0.value) }
        }

        /// The `count` weights after the header, checked against its checksum.
        func weights(count: Int) throws(InputError) -> [Float] {
            let checksumField = try field("checksum")
            let available = bytes.count - weightsOffset
            guard available == count * 4 else {
                let what = available < count * 4 ? "truncated" : "longer than its header says"
                throw InputError("\(file): file is \(what): \(available) bytes of weights, expected \(count * 4) (\(count) float32 values)")
            }
            var parameters = [Float](repeating: 0, count: count)
            for i in 0..<count {
                var bits: UInt32 = 0
                for k in 0..<4 { bits |= UInt32(bytes[weightsOffset + i * 4 + k]) << (8 * k) }
                parameters[i] = Float(bitPattern: bits)
                guard parameters[i].isFinite else {
                    throw InputError("\(file): weight \(i) is not a finite number")
                }
            }
            let expected = "fnv1a64:" + hex(checksum(parameters))
            guard checksumField.value == expected else {
                throw InputError("\(file):\(checksumField.line): checksum mismatch: the header says \(String(checksumField.value.prefix(40))), "
                    + "the weights give \(expected) (the file is damaged)")
            }
            return parameters
        }
    }

    /// Reads the header of `bytes` (from `file`, for messages), whose first line must be
    /// `formatLine`; `required` lists the fields, for the message of a missing one.
    static func header(_ bytes: [UInt8], file: String, formatLine: String, required: String) throws(InputError) -> Header {
        var fields: [(key: String, value: String, line: Int)] = []
        var at = 0
        var line = 0
        var sawWeights = false
        while at < bytes.count {
            guard let end = bytes[at...].firstIndex(of: 0x0A) else { break }
            line += 1
            guard let text = String(validating: bytes[at..<end], as: UTF8.self) else {
                throw InputError("\(file):\(line): the header is not text; expected a model file written by oplab")
            }
            at = end + 1
            if line == 1 {
                guard text == formatLine else {
                    throw InputError("\(file):1: not a model file of this kind: expected the first line '\(formatLine)', found '\(text.prefix(40))'")
                }
                continue
            }
            if text == "weights:" { sawWeights = true; break }
            guard let colon = text.firstIndex(of: ":") else {
                throw InputError("\(file):\(line): expected 'key: value' or 'weights:', found '\(text.prefix(40))'")
            }
            fields.append((String(text[..<colon]).trimmingSpaces, String(text[text.index(after: colon)...]).trimmingSpaces, line))
        }
        guard !bytes.isEmpty else { throw InputError("\(file): empty file; expected a model file written by oplab") }
        guard line >= 1 else {
            throw InputError("\(file): not a model file: expected the first line '\(formatLine)'")
        }
        guard sawWeights else {
            throw InputError("\(file): truncated header: no 'weights:' line (the file ends at line \(line))")
        }
        return Header(file: file, bytes: bytes, fields: fields, weightsOffset: at, required: required)
    }

    /// Refuses layer sizes whose parameter count would overflow (a damaged header),
    /// before any shape does that arithmetic and traps.
    static func checkLayers(_ layers: [(Int, Int)], shape: String, file: String) throws(InputError) {
        var needed = 0
        for (fanIn, fanOut) in layers {
            let (weights, o1) = fanIn.multipliedReportingOverflow(by: fanOut)
            let (layer, o2) = weights.addingReportingOverflow(fanOut)
            let (sum, o3) = needed.addingReportingOverflow(layer)
            guard !(o1 || o2 || o3) && sum <= Int.max / 4 else {
                throw InputError("\(file): shape \(shape) is too large: its parameter count overflows (the header is damaged)")
            }
            needed = sum
        }
    }

    /// The file's bytes: `header` (the format line and the fields), the parameter count,
    /// the checksum, the notes, then the weights.
    static func encode(header: String, parameters: [Float], notes: [ValueModel.Note]) -> [UInt8] {
        var text = header
        text += "parameters: \(parameters.count)\n"
        text += "checksum: fnv1a64:\(hex(checksum(parameters)))\n"
        for note in notes {
            text += "note.\(note.key): \(note.value.replacingOccurrences(of: "\n", with: " "))\n"
        }
        text += "weights:\n"
        var bytes = Array(text.utf8)
        bytes.reserveCapacity(bytes.count + parameters.count * 4)
        for w in parameters {
            withUnsafeBytes(of: w.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
        }
        return bytes
    }

    /// FNV-1a 64 of the weights' little-endian bytes.
    static func checksum(_ parameters: [Float]) -> UInt64 {
        var h = FNV1a64()
        for w in parameters {
            var bits = w.bitPattern
            for _ in 0..<4 {
                h.add(UInt8(truncatingIfNeeded: bits))
                bits >>= 8
            }
        }
        return h.value
    }

    static func hex(_ v: UInt64) -> String {
        let s = String(v, radix: 16)
        return String(repeating: "0", count: 16 - s.count) + s
    }
}

extension ValueModel {
    static func checksum(_ parameters: [Float]) -> UInt64 { ModelFileFormat.checksum(parameters) }
    static func hex(_ v: UInt64) -> String { ModelFileFormat.hex(v) }
}
