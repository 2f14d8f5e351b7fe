import Foundation
import LabCore
import Testing
@testable import Reports

/// The page of a tuning's folder on hand-made files: numbers it cannot draw are refused.
@Suite("Tuning report")
struct TuningReportTests {
    static let state = """
        {"tool": "oplab", "version": "0.7.0", "identity": {"fields": [["game", "rail"], ["strategy", "planner"],
         ["param focus", "0.0..1.0:0.25"], ["method", "ntbea"], ["objective", "max"], ["seed", "11"]]},
         "status": "running", "iterations": 6, "measurements": 6, "measurementsDone": 2, "matches": 24, "iterationsDone": 2,
         "matchesDone": 8, "threads": 1, "started": "2026-01-02T03:04:05Z", "seconds": 1, "matchesThisSession": 8,
         "matchesPerSecond": 8}
        """

    static func page(measurements: String) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tuning-report-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: url) }
        try Data(state.utf8).write(to: url.appendingPathComponent("tune.json"))
        try Data(("measurement,iteration,probe,focus,matches,score_share,objective\n" + measurements).utf8)
            .write(to: url.appendingPathComponent("measurements.csv"))
        return try TuningReport.html(folder: url.path)
    }

    @Test("a tuning still searching draws its measurements")
    func drawsMeasurements() throws {
        let html = try Self.page(measurements: "1,1,point,0.5,4,0.75,0.75\n2,2,point,1,4,0.5,0.5\n")
        #expect(html.contains("In progress: the search is at iteration 2 of 6."))
    }

    @Test("a measurement's matches too big for a count is refused naming the file, line, column and range (it crashed the axis)")
    func hugeMatches() throws {
        let error = #expect(throws: InputError.self) { try Self.page(measurements: "1,1,point,0.5,1e20,0.75,0.75\n") }
        #expect(error?.message.hasSuffix("/measurements.csv:2: column 'matches': '1e20' is not a count (a whole number, 0 or more)") == true,
                "\(String(describing: error))")
        let over = #expect(throws: InputError.self) {
            try Self.page(measurements: (1...5).map { "\($0),\($0),point,0.5,999999999999999,0.75,0.75\n" }.joined())
        }
        #expect(over?.message.hasSuffix("/measurements.csv:6: column 'matches': the matches up to here add up to more than the "
            + "4503599627370496 a tuning can play") == true, "\(String(describing: over))")
        #expect(throws: InputError.self) { try Self.page(measurements: "1,1,point,0.5,-1e308,0.75,0.75\n") }
    }
}
