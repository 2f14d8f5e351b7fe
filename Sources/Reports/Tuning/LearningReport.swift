import Foundation
import LabCore
import Pictures
import Tournament

/// `report.html` of a learning's folder (`oplab learn`): the strength of the best model
/// against each anchor per generation with its 95 % interval, the gate's score, the
/// losses and the policy's entropy. Drawn from `generations.csv` and `learn.json` alone.
public enum LearningReport {
    /// Whether `folder` holds a learning (its `learn.json`).
    public static func isLearning(_ folder: String) -> Bool {
        FileManager.default.fileExists(atPath: folder + "/learn.json")
    }

    /// The page.
    public static func html(folder: String) throws(InputError) -> String {
        let table = try CSVFile.read(folder + "/generations.csv", expected: ["generation", "gate_score", "policy_loss", "value_loss"])
        let numbers = { (name: String) throws(InputError) -> [Double] in try TuningReport.Trajectory.numbers(table, name) }
        let generations = try numbers("generation")
        let record = (try? JSONSerialization.jsonObject(with: Data(BoundedFile.contents(folder + "/learn.json", limit: 1 << 20,
                                                                                         what: "the learning's record")))) as? [String: Any]
        let request = (record?["request"] as? [String]) ?? []
        let game = request.first?.replacingOccurrences(of: "game: ", with: "") ?? "?"
        let anchors = request.first { $0.hasPrefix("anchors: ") }.map { String($0.dropFirst(9)) }?
            .split(separator: ";").map(String.init).filter { !$0.isEmpty } ?? []
        var out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        out += "<title>" + SVG.escape("Opponent Lab learning: \(game)") + "</title>\n"
        out += "<style>\n" + ReportPage.css + "</style>\n</head>\n<body>\n"
        out += "<h1>" + SVG.escape("Learning \(game) by self-play") + "</h1>\n"
        out += "<p class=\"question\">" + SVG.escape(request.joined(separator: "; ")) + "</p>\n"
        if let status = record?["status"] as? String, status != "complete" {
            out += "<p class=\"in-progress\">In progress: " + SVG.escape("\(generations.count) generations done") + ".</p>\n"
        }
        for (k, anchor) in anchors.enumerated() where table.header.contains("anchor\(k + 1)_score") {
            let p = "anchor\(k + 1)_"
            out += ReportPage.section("anchor-\(k + 1)", "Against \(anchor)",
                                      "How strong is the best model so far? Its score against \(anchor) after each generation, "
                                      + "with the 95 % interval over blocks.",
                                      TuningReport.chart(x: generations, series: [("score", try numbers(p + "score"), "#1f4e79"),
                                                                                  ("low", try numbers(p + "low"), "#9bb7d4"),
                                                                                  ("high", try numbers(p + "high"), "#9bb7d4")],
                                                         low: 0, high: 1, xLabel: "generation", label: "score against \(anchor) per generation"))
        }
        // Without a gate (--gate-blocks 0) the gate's columns are empty: no section.
        let gate = try table.column("gate")
        let gated = table.rows.contains { $0.text(gate) != "ungated" }
        if gated {
            out += ReportPage.section("gate", "Gate", "Did each candidate beat the best? Its score with the 95 % interval; above 1/2 it replaced the best.",
                                  TuningReport.chart(x: generations, series: [("gate score", try numbers("gate_score"), "#c0504d"),
                                                                              ("low", try numbers("gate_low"), "#e6b9b8"),
                                                                              ("high", try numbers("gate_high"), "#e6b9b8")],
                                                     low: 0, high: 1, xLabel: "generation", label: "gate score per generation"))
        }
        out += ReportPage.section("losses", "Losses", "What did training fit? The policy's cross-entropy against the search's improved "
                                  + "policy, the value's against the final shares, and the policy's entropy (lower: more decided).",
                                  TuningReport.chart(x: generations, series: [("policy loss", try numbers("policy_loss"), "#1f4e79"),
                                                                              ("value loss", try numbers("value_loss"), "#c0504d"),
                                                                              ("policy entropy", try numbers("policy_entropy"), "#76923c")],
                                                     low: 0, high: nil, xLabel: "generation", label: "losses per generation"))
        out += "<footer><p>" + SVG.escape("Files: generations.csv, learn.json, best.model (alphazero(model=\(folder)/best.model)).") + "</p></footer>\n"
        out += "</body>\n</html>\n"
        return out
    }
}
