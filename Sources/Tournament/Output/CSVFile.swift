import Foundation
import LabCore

/// A small CSV file of a results folder, read whole: its header and its rows with their
/// line numbers. Columns are found by name, so a file with extra or reordered columns
/// still reads; every error names the file, the line and the column.
package struct CSVFile {
    /// A column found in the header.
    package struct Column {
        package var name: String
        package var index: Int
    }

    /// One data row and where it is.
    package struct Row {
        package var path: String
        package var line: Int
        package var fields: [String]

        package func text(_ column: Column) -> String { fields[column.index] }

        package func double(_ column: Column) throws(InputError) -> Double {
            let text = fields[column.index]
            guard let value = Double(text), value.isFinite else {
                throw InputError("\(path):\(line): column '\(column.name)': '\(text)' is not a number")
            }
            return value
        }

        package func int(_ column: Column) throws(InputError) -> Int {
            let text = fields[column.index]
            guard let value = Int(text) else {
                throw InputError("\(path):\(line): column '\(column.name)': '\(text)' is not a whole number")
            }
            return value
        }

        /// A count: a whole number, or a decimal that is one ("200000.0", as pairwise.csv
        /// writes games), not negative.
        package func count(_ column: Column) throws(InputError) -> Int {
            let value = try double(column)
            guard value >= 0, value == value.rounded(), value < 1e15 else {
                throw InputError("\(path):\(line): column '\(column.name)': '\(fields[column.index])' is not a count (a whole number, 0 or more)")
            }
            return Int(value)
        }
    }

    package let path: String
    package let header: [String]
    package let rows: [Row]
    /// The columns the lab writes to this file, for error messages.
    package let expected: [String]

    /// Reads `path`.
    /// - Throws: when the file cannot be read, has no header, or a row is malformed or
    ///   has a different number of fields than the header.
    package static func read(_ path: String, expected: [String]) throws(InputError) -> CSVFile {
        guard let data = FileManager.default.contents(atPath: path) else { throw InputError("cannot read \(path)") }
        guard let text = String(data: data, encoding: .utf8) else { throw InputError("\(path): not UTF-8 text") }
        var header: [String]?
        var rows: [Row] = []
        var number = 0
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            let line = raw.hasSuffix("\r") ? raw.dropLast() : raw
            if line.isEmpty { continue }
            guard let fields = CSV.fields(line) else { throw InputError("\(path):\(number): a quoted field is not closed") }
            guard let columns = header else {
                header = fields
                continue
            }
            guard fields.count == columns.count else {
                throw InputError("\(path):\(number): \(fields.count) fields where the header has \(columns.count) (\(columns.joined(separator: ",")))")
            }
            rows.append(Row(path: path, line: number, fields: fields))
        }
        guard let header else {
            throw InputError("\(path): empty, without a header line; expected the columns \(expected.joined(separator: ","))")
        }
        return CSVFile(path: path, header: header, rows: rows, expected: expected)
    }

    /// The column called `name`.
    /// - Throws: naming the file and the column, and listing the columns expected.
    package func column(_ name: String) throws(InputError) -> Column {
        guard let index = header.firstIndex(of: name) else {
            throw InputError("\(path): no column '\(name)'; expected the columns \(expected.joined(separator: ","))")
        }
        return Column(name: name, index: index)
    }
}
