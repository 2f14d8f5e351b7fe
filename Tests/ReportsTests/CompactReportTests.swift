import Foundation
import LabCore
import Testing
import Tournament
@testable import Reports

/// The report of a compact results folder (`matches.csv.gz` for `matches.csv`): the same
/// page from the same rows, a torn last member left out as a torn last line is, a corrupt
/// member an error that names it.
@Suite("Tournament report of compact results")
struct CompactReportTests {
    /// ``ReportTests/base`` with its rows as gzip members: the header, then two rows a member.
    static func compactBase(tearingLast tear: Int = 0) -> [String: Data] {
        var files = ReportTests.base.mapValues { Data($0.utf8) }
        let lines = ReportTests.base["matches.csv"]!.split(separator: "\n").map { Array(($0 + "\n").utf8) }
        var members = GzipMember.compress(lines[0])
        for start in stride(from: 1, to: lines.count, by: 2) {
            members += GzipMember.compress(Array(lines[start..<min(start + 2, lines.count)].joined()))
        }
        files["matches.csv"] = nil
        files["matches.csv.gz"] = Data(members.dropLast(tear))
        return files
    }

    static func page(_ files: [String: Data]) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("report-compact-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: url) }
        for (name, data) in files { try data.write(to: url.appendingPathComponent(name)) }
        return try TournamentReport.html(directory: url.path, drawings: ReportTests.drawings)
    }

    /// The page without the lines of the files table, which name the file and its size.
    static func withoutFiles(_ page: String) -> [Substring] {
        page.split(separator: "\n").filter { !$0.contains("<code>matches.csv") }
    }

    @Test("a folder with matches.csv.gz draws the page of the same rows in matches.csv, listing matches.csv.gz")
    func samePage() throws {
        let plain = try ReportTests.page()
        let compact = try Self.page(Self.compactBase())
        #expect(Self.withoutFiles(compact) == Self.withoutFiles(plain))
        #expect(compact.contains("<code>matches.csv.gz</code>") && !compact.contains("<code>matches.csv</code>"))
    }

    @Test("a torn last member (a run still writing) is left out: the page counts the complete members' rows")
    func tornLastMember() throws {
        let running = ReportTests.base["run.json"]!.replacingOccurrences(of: "\"status\": \"complete\"", with: "\"status\": \"running\"")
        var files = ReportTests.base
        files["run.json"] = running
        // The last member held the last match (two rows): as if it were not written yet.
        files["matches.csv"] = ReportTests.matches([
            (0, "a", "win", "missions", 10), (1, "b", "loss", "missions", 10),
            (0, "b", "win", "missions", 10), (1, "a", "loss", "missions", 10),
            (0, "a", "win", "turn_cap", 12), (1, "c", "loss", "turn_cap", 12),
        ])
        let shorter = try ReportTests.page(files)
        var tornFiles = Self.compactBase(tearingLast: 5)
        tornFiles["run.json"] = Data(running.utf8)
        let torn = try Self.page(tornFiles)
        #expect(Self.withoutFiles(torn) == Self.withoutFiles(shorter))
    }

    @Test("a complete run whose last member is torn is refused: the files disagree, and --resume plays its blocks again")
    func tornMemberOfCompleteRun() throws {
        let error = #expect(throws: InputError.self) { try Self.page(Self.compactBase(tearingLast: 5)) }
        let message = error?.message ?? ""
        #expect(message.contains("/matches.csv.gz ends in a torn gzip member at byte "), "\(message)")
        #expect(message.contains("/run.json says the run is complete with 2 of 2 blocks: the files disagree; "
            + "`oplab tournament CONFIG --out "), "\(message)")
        #expect(message.contains(" --resume` (with the run's config) drops it and plays its blocks again"), "\(message)")
    }

    @Test("a corrupt member is an error naming the file and the member's byte offset")
    func corruptMember() throws {
        var files = Self.compactBase()
        var bytes = Array(files["matches.csv.gz"]!)
        bytes[bytes.count - 2] ^= 0xFF  // in the last member's length (ISIZE)
        files["matches.csv.gz"] = Data(bytes)
        let error = #expect(throws: InputError.self) { try Self.page(files) }
        #expect(error?.message.contains("matches.csv.gz: the gzip member at byte ") == true, "\(String(describing: error))")
        #expect(error?.message.contains("is damaged (incorrect length check)") == true, "\(String(describing: error))")
    }

    @Test("a folder with both matches.csv and matches.csv.gz is refused, naming both")
    func bothRefused() throws {
        var files = Self.compactBase()
        files["matches.csv"] = Data(ReportTests.base["matches.csv"]!.utf8)
        let error = #expect(throws: InputError.self) { try Self.page(files) }
        #expect(error?.message.contains("holds both matches.csv and matches.csv.gz") == true, "\(String(describing: error))")
    }
}
