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
        field.utf8.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D }
    }

    /// Appends `field` (quoted when it needs to be) and a comma, or a newline after the
    /// last field of a row.
    static func append(_ field: String, to bytes: inout [UInt8], last: Bool = false) {
        if needsQuotes(field) { bytes += quote(field).utf8 } else { bytes += field.utf8 }
        bytes.append(last ? 0x0A : UInt8(ascii: ","))
    }

    /// Appends a number in decimal and a comma, or a newline after the last field.
    static func append<T: BinaryInteger>(_ value: T, to bytes: inout [UInt8], last: Bool = false) {
        var v = value
        if v < 0 {
            bytes.append(UInt8(ascii: "-"))
            v = 0 - v
        }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let count = withUnsafeMutableBytes(of: &digits) { raw in
            var n = 0
            repeat {
                raw[n] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: v % 10)
                v /= 10
                n += 1
            } while v != 0
            return n
        }
        withUnsafeBytes(of: &digits) { raw in
            for i in stride(from: count - 1, through: 0, by: -1) { bytes.append(raw[i]) }
        }
        bytes.append(last ? 0x0A : UInt8(ascii: ","))
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
