// The build tool behind Plugins/EmbedConfigs: writes a Swift file that carries files'
// bytes (base64 in string literals, which compile fast at any size), each with its length
// and FNV-1a 64 checksum so that a damaged copy is caught when it is read.
//
//   EmbedFiles OUTPUT.swift NAME PATH FILE [NAME PATH FILE ...]
//
// NAME is the Swift name, PATH how the file is named (from the package root), FILE where
// it is read.
import Foundation
import LabCore

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("EmbedFiles: error: \(message)\n".utf8))
    exit(1)
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard let output = arguments.first, (arguments.count - 1) % 3 == 0 else {
    fail("usage: EmbedFiles OUTPUT.swift NAME PATH FILE [NAME PATH FILE ...]")
}

var text = """
// Generated at build time by Plugins/EmbedConfigs from files under configs/; not in git.
// To change an embedded file, change it under configs/ and build again.
import LabCore

enum EmbeddedConfigs {

"""
for k in stride(from: 1, to: arguments.count, by: 3) {
    let (name, path, file) = (arguments[k], arguments[k + 1], arguments[k + 2])
    guard let data = FileManager.default.contents(atPath: file) else { fail("cannot read \(file) (for \(name))") }
    let encoded = data.base64EncodedString()
    var lines: [Substring] = []
    var start = encoded.startIndex
    while start < encoded.endIndex {
        let end = encoded.index(start, offsetBy: 100, limitedBy: encoded.endIndex) ?? encoded.endIndex
        lines.append(encoded[start..<end])
        start = end
    }
    text += """
        /// `\(path)`, \(data.count) bytes.
        static let \(name) = EmbeddedFile(path: "\(path)", count: \(data.count), checksum: 0x\(String(FNV1a64.hash(data), radix: 16)), base64: \"""
    \(lines.map { "    " + $0 }.joined(separator: "\n"))
        \""")

    """
}
var names: [String] = []
for k in stride(from: 1, to: arguments.count, by: 3) { names.append(arguments[k]) }
text += """
    /// Every file above.
    static let all: [EmbeddedFile] = [\(names.joined(separator: ", "))]
}

"""
do {
    // Written only when it changes, so an unchanged file rebuilds nothing.
    if FileManager.default.contents(atPath: output) != Data(text.utf8) {
        try Data(text.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
    }
} catch {
    fail("cannot write \(output): \(error)")
}
