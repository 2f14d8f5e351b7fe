import Foundation

/// RFC 4180 CSV, one record per line: the lab writes no field with a line break, so a
/// line is a record and a torn last line is visible as a line without its newline.
///
/// Written by hand rather than with a CSV library: resume and merge need the byte offset
/// of every record (to cut a torn tail) and byte-identical output, which the readers on
/// offer do not expose.
public enum CSV {
    /// One record, fields quoted when they hold a comma, a quote or a line break, with
    /// the newline.
    public static func line(_ fields: [String]) -> String {
        var out = ""
        for (i, field) in fields.enumerated() {
            if i > 0 { out += "," }
            out += quote(field)
        }
        return out + "\n"
    }

    /// `field`, quoted (and inner quotes doubled) when it needs to be.
    public static func quote(_ field: String) -> String {
        guard needsQuotes(field) else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Whether `field` holds a comma, a quote or a line break (checked byte by byte:
    /// "\r\n" is one Character, so a Character test would miss it).
    static func needsQuotes(_ field: String) -> Bool {
        var field = field
        return field.withUTF8 { needsQuotes($0) }
    }

    @inline(__always)
    static func needsQuotes(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        utf8.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D }
    }

    /// Appends `field` (quoted when it needs to be) and a comma, or a newline after the
    /// last field of a row.
    static func append(_ field: String, to bytes: inout [UInt8], last: Bool = false) {
        // Read as contiguous UTF-8: appending a String's UTF8View went byte by byte.
        var field = field
        let plain = field.withUTF8 { utf8 in
            if needsQuotes(utf8) { return false }
            bytes.append(contentsOf: utf8)
            return true
        }
        if !plain { bytes += quote(field).utf8 }
        bytes.append(last ? 0x0A : UInt8(ascii: ","))
    }

    /// Appends a number in decimal and a comma, or a newline after the last field.
    static func append<T: BinaryInteger>(_ value: T, to bytes: inout [UInt8], last: Bool = false) {
        // The separator, the digits backwards and the sign go into scratch space, then
        // onto `bytes` in one append (an append a byte checked its capacity each time).
        var scratch: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &scratch) { raw in
            let out = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
            let end = raw.count
            precondition(value.bitWidth <= 128, "CSV.append takes integers of at most 128 bits")
            var i = end &- 1
            out[i] = last ? 0x0A : UInt8(ascii: ",")
            var v = value.magnitude
            repeat {
                i &-= 1
                out[i] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: v % 10)
                v /= 10
            } while v != 0
            if value < 0 {
                i &-= 1
                out[i] = UInt8(ascii: "-")
            }
            bytes.append(contentsOf: UnsafeBufferPointer(start: out + i, count: end &- i))
        }
    }

    /// The fields of one record (without its newline).
    /// - Returns: nil when a quoted field is not closed.
    public static func fields(_ line: Substring) -> [String]? {
        var fields: [String] = []
        var field = ""
        var quoted = false
        var atStart = true
        var chars = line.makeIterator()
        var pending: Character? = nil
        while let c = pending ?? chars.next() {
            pending = nil
            if quoted {
                if c == "\"" {
                    if let next = chars.next() {
                        if next == "\"" { field.append("\"") } else { quoted = false; pending = next }
                    } else {
                        quoted = false
                    }
                } else {
                    field.append(c)
                }
            } else if c == "," {
                fields.append(field)
                field = ""
                atStart = true
                continue
            } else if c == "\"" && atStart {
                quoted = true
            } else {
                field.append(c)
            }
            atStart = false
        }
        if quoted { return nil }
        fields.append(field)
        return fields
    }
}
