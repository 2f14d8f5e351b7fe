import Foundation

/// A file compiled into the program at build time (Plugins/EmbedConfigs): the shipped map
/// and models, so that `oplab` runs from any folder and when copied alone. Its bytes are
/// checked against the length and checksum recorded when it was embedded.
public struct EmbeddedFile: Sendable {
    /// The file it was compiled from, relative to the package root.
    public let path: String
    /// Its length in bytes and FNV-1a 64 checksum, as embedded.
    public let count: Int
    public let checksum: UInt64
    /// Its bytes, base64 (line breaks allowed).
    let base64: String

    public init(path: String, count: Int, checksum: UInt64, base64: String) {
        self.path = path
        self.count = count
        self.checksum = checksum
        self.base64 = base64
    }

    /// Why an embedded copy cannot be used.
    public struct Damaged: Error, CustomStringConvertible {
        public let description: String
    }

    /// The bytes, checked: a copy that is not base64, or whose length or checksum differs
    /// from what was embedded, is an error.
    public func decoded() throws(Damaged) -> [UInt8] {
        guard let data = Data(base64Encoded: base64, options: .ignoreUnknownCharacters) else {
            throw Damaged(description: "\(label) is damaged: its text is not base64")
        }
        let bytes = [UInt8](data)
        guard bytes.count == count else {
            throw Damaged(description: "\(label) is damaged: \(bytes.count) bytes, embedded as \(count)")
        }
        let found = FNV1a64.hash(bytes)
        guard found == checksum else {
            throw Damaged(description: "\(label) is damaged: checksum \(String(found, radix: 16)), embedded as \(String(checksum, radix: 16))")
        }
        return bytes
    }

    /// The bytes; a damaged copy stops the program with what is wrong (the program itself is
    /// broken, not its input: rebuild it).
    public var bytes: [UInt8] {
        do { return try decoded() } catch { fatalError("\(error); rebuild oplab") }
    }

    /// How messages name it.
    public var label: String { "the embedded copy of \(path)" }
}
