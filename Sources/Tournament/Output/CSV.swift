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
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
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
