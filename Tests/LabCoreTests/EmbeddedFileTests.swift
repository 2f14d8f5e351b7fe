import Foundation
import LabCore
import Testing

@Suite("Embedded files")
struct EmbeddedFileTests {
    static let text = Array("a shipped file\n".utf8)

    /// An embedded copy of `text` as the build tool writes it: base64 in lines, its length
    /// and checksum.
    static func embedded(base64: String? = nil, count: Int? = nil, checksum: UInt64? = nil) -> EmbeddedFile {
        let encoded = Data(text).base64EncodedString()
        let folded = stride(from: 0, to: encoded.count, by: 8).map { start in
            let from = encoded.index(encoded.startIndex, offsetBy: start)
            return String(encoded[from..<(encoded.index(from, offsetBy: 8, limitedBy: encoded.endIndex) ?? encoded.endIndex)])
        }.joined(separator: "\n    ")
        return EmbeddedFile(path: "configs/x.txt", count: count ?? text.count, checksum: checksum ?? 0x444d_2eac_cf6e_e507,
                            base64: base64 ?? folded)
    }

    @Test("an intact copy, in lines, reads back as its bytes")
    func intact() throws {
        #expect(try Self.embedded().decoded() == Self.text)
        #expect(Self.embedded().label == "the embedded copy of configs/x.txt")
    }

    @Test("a damaged copy is an error naming the file and what is wrong", arguments: [
        (EmbeddedFileTests.embedded(base64: "YSBza!!!"), "its text is not base64"),
        (EmbeddedFileTests.embedded(count: 16), "15 bytes, embedded as 16"),
        (EmbeddedFileTests.embedded(checksum: 1), "checksum 444d2eaccf6ee507, embedded as 1"),
        (EmbeddedFileTests.embedded(base64: Data("a shipped filf\n".utf8).base64EncodedString()), "checksum"),
    ])
    func damaged(_ file: EmbeddedFile, _ message: String) {
        #expect {
            _ = try file.decoded()
        } throws: { error in
            "\(error)".contains("the embedded copy of configs/x.txt is damaged: ") && "\(error)".contains(message)
        }
    }
}
