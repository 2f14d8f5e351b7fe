import Foundation
import LabCore
import Pictures
import Tournament

/// `report.html` of a tuning's folder: what was tuned and how, the verification's
/// verdicts, each parameter's trajectory over the matches played, the objective over the
/// matches, and the verification's table. Drawn from the folder's files alone
/// (`tune.json`, `tuning.csv`, `measurements.csv`, `verification.csv`), so the same
/// folder gives the same page.
public enum TuningReport {
    /// Writes `FOLDER/report.html` (atomically).
    /// - Throws: ``InputError`` naming the file that is missing or does not read.
    public static func write(folder: String) throws(InputError) {
        let page = try html(folder: folder)
        try Files.writeAtomically(page, to: folder + "/report.html")
    }

    /// Whether `folder` holds a tuning (its `tune.json`).
    public static func isTuning(_ folder: String) -> Bool {
        FileManager.default.fileExists(atPath: folder + "/" + TuningState.fileName)
    }

    /// The page.
    public static func html(folder: String) throws(InputError) -> String {
        let state = try TuningState.read(from: folder, advice: nil)
        let measurements = try CSVFile.read(folder + "/" + TuningJournal.fileName, expected: [])
        // A search still running (or killed) has no tuning.csv yet: its trajectory is the
        // points measured so far, each measurement an iteration of its own.
        let tuningPath = folder + "/tuning.csv"
        let trajectory = FileManager.default.fileExists(atPath: tuningPath)
            ? try Trajectory(tuning: try CSVFile.read(tuningPath, expected: []))
            : try Trajectory(measurements: measurements)
        let verificationPath = folder + "/verification.csv"
        let verification = FileManager.default.fileExists(atPath: verificationPath)
            ? try CSVFile.read(verificationPath, expected: []) : nil
        let identity = Dictionary(state.identity.fields.map { ($0[0], $0[1]) }, uniquingKeysWith: { a, _ in a })
        var out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        out += "<title>" + SVG.escape("Opponent Lab tuning: \(identity["strategy"] ?? "")") + "</title>\n"
        out += "<style>\n" + ReportPage.css + "</style>\n</head>\n<body>\n"
        out += "<h1>" + SVG.escape("Tuning \(identity["strategy"] ?? "") for \(identity["game"] ?? "")") + "</h1>\n"
        out += "<p class=\"question\">" + SVG.escape("\(identity["method"].map(methodName) ?? "") against \(identity["against"] ?? ""), "
            + "objective \(identity["objective"] ?? ""), \(NumberText.grouped(state.matchesDone)) matches in \(state.iterationsDone) iterations, "
            + "seed \(identity["seed"] ?? "")") + "</p>\n"
        if state.status != "complete" {
            out += "<p class=\"in-progress\">In progress: the search is at iteration \(state.iterationsDone) of \(state.iterations).</p>\n"
        }
        if let tuned = state.tuned {
            out += "<p>Tuned: <code>" + SVG.escape(tuned) + "</code>, from <code>" + SVG.escape(identity["start"] ?? "") + "</code>.</p>\n"
        }
        out += ReportPage.section("verification", "Verification",
                       "Is the tuned spec better than the start, and where does it land against the field? Seat-rotated tournaments "
                       + "with a seed of their own; 95 % intervals over blocks.",
                       try verification.map(verificationTable) ?? "<p>Not yet: the verification runs when the search is done.</p>")
        let x = trajectory.matches
        let tuned = tunedValues(folder: folder)
        for (k, name) in trajectory.parameters.enumerated() {
            let y = trajectory.values[k]
            let range = identity["param " + name].flatMap(Self.range)
            var series = [(name: name, y: y, colour: SVG.seatColour(k))]
            if let value = tuned[name] { series.append(("tuned: \(SVG.number(value, 4))", x.map { _ in value }, "#222")) }
            out += ReportPage.section("param-\(k)", "Parameter \(name)", "Where did the search take \(name) as the matches were played? "
                           + (identity["method"]?.hasPrefix("spsa") == true ? "SPSA's theta after each iteration." : "NTBEA's point at each iteration.")
                           + " The tuned value is the dark line.",
                           chart(x: x, series: series, low: range?.lowerBound, high: range?.upperBound,
                                 xLabel: "matches played", label: "\(name) over the matches played"))
        }
        let score = trajectory.score
        let measuredShare = try Trajectory.numbers(measurements, "score_share")
        let measuredX = try Trajectory.runningTotal(measurements, "matches")
        out += ReportPage.section("objective", "Objective", "How did the objective move as the search went on? Each iteration's score "
                       + "(the mean of its measurements; for a target, minus the distance to it), and its running mean over 10 iterations.",
                       chart(x: x, series: [("score", score, "#9bb7d4"), ("running mean", runningMean(score, 10), "#1f4e79")],
                             low: nil, high: nil, xLabel: "matches played", label: "objective over the matches played"))
        out += ReportPage.section("shares", "Measured score shares", "What did each measurement score against the field?",
                       chart(x: measuredX, series: [("score share", measuredShare, "#c0504d")], low: 0, high: 1, xLabel: "matches played",
                             label: "score share of each measurement", dots: true))
        out += "<footer><p>" + SVG.escape("Files: tuning.csv, measurements.csv, verification.csv, tuned.yaml, verify/*/ (tournament folders: "
            + "oplab report verify/tuned-vs-start). oplab \(state.version).") + "</p></footer>\n"
        out += "</body>\n</html>\n"
        return out
    }

    /// The tuned values from tuned.yaml's `parameters:` block (none before the search ends).
    static func tunedValues(folder: String) -> [String: Double] {
        guard let text = try? String(contentsOfFile: folder + "/tuned.yaml", encoding: .utf8) else { return [:] }
        var values: [String: Double] = [:]
        var inside = false
        for line in text.split(separator: "\n") {
            if line == "parameters:" { inside = true; continue }
            guard inside else { continue }
            guard line.hasPrefix("  "), !line.hasPrefix("  -"), let colon = line.firstIndex(of: ":") else { break }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces)
            if let v = Double(line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)) { values[name] = v }
        }
        return values
    }

    static func methodName(_ identity: String) -> String { identity.hasPrefix("spsa") ? "SPSA" : identity.hasPrefix("ntbea") ? "NTBEA" : identity }

    /// `0.0..1.0:0.1 integer` -> 0...1.
    static func range(_ text: String) -> ClosedRange<Double>? {
        let bounds = text.split(separator: " ")[0].split(separator: ":")[0].components(separatedBy: "..")
        guard bounds.count == 2, let lo = Double(bounds[0]), let hi = Double(bounds[1]), lo < hi else { return nil }
        return lo...hi
    }

    static func verificationTable(_ t: CSVFile) throws(InputError) -> String {
        var out = "<table>\n<tr>" + ["comparison", "entrant", "opponent", "matches", "score", "95 %", "Elo", "95 %"]
            .map { "<th>\($0)</th>" }.joined() + "</tr>\n"
        let names = ["comparison", "entrant", "opponent", "matches", "score", "score_low", "score_high", "elo", "elo_low", "elo_high"]
        var columns: [CSVFile.Column] = []
        for name in names { columns.append(try t.column(name)) }
        let opponent = columns[2]
        // The pooled `field` row says again what the one opponent's says when there is one.
        let opponents = Set(t.rows.map { $0.text(opponent) }.filter { $0 != "field" && $0 != "start" })
        for row in t.rows where !(opponents.count == 1 && row.text(opponent) == "field") {
            let f = columns.map(row.text)
            let cells = Array(f[0..<5]) + ["[\(f[5]), \(f[6])]", f[7], "[\(f[8]), \(f[9])]"]
            out += "<tr>" + cells.map { "<td>" + SVG.escape($0) + "</td>" }.joined() + "</tr>\n"
        }
        return out + "</table>"
    }

    static func runningMean(_ values: [Double], _ window: Int) -> [Double] {
        var out: [Double] = [], sum = 0.0, count = 0
        for (i, v) in values.enumerated() {
            if v.isFinite { sum += v; count += 1 }
            if i >= window, values[i - window].isFinite { sum -= values[i - window]; count -= 1 }
            out.append(count > 0 ? sum / Double(count) : .nan)
        }
        return out
    }

    /// A line chart (or dots) of one or more series over the same x values.
    static func chart(x: [Double], series: [(name: String, y: [Double], colour: String)], low: Double?, high: Double?,
                      xLabel: String, label: String, dots: Bool = false) -> String {
        let finite = series.flatMap(\.y).filter(\.isFinite)
        guard !x.isEmpty, !finite.isEmpty else { return "<p>No iterations yet.</p>" }
        let yLow = low ?? finite.min()!, yHigh = high ?? finite.max()!
        let yTicks = Charts.niceTicks(yLow, yHigh), xTicks = Charts.niceTicks(0, x.max()!)
        let (left, right, top, bottom) = (60.0, Charts.width - 20, 30.0, 230.0)
        let xs = Charts.Scale(xTicks.first!, xTicks.last!, left, right)
        let ys = Charts.Scale(yTicks.first!, yTicks.last!, bottom, top)
        var body = Charts.axisX(xTicks, scale: xs, top: top, bottom: bottom, label: xLabel) { NumberText.grouped(Int($0)) }
        for tick in yTicks {
            body += Charts.line(left, ys(tick), right, ys(tick), stroke: "#e4e4e4")
            body += Charts.text(left - 6, ys(tick) + 4, SVG.number(tick, 3), anchor: "end", size: 10)
        }
        body += Charts.legend(x: left, y: 12, series.map { ($0.name, $0.colour, 1) })
        for s in series {
            if dots {
                for (xi, yi) in zip(x, s.y) where yi.isFinite {
                    body += SVG.element("circle", [("cx", Charts.n(xs(xi))), ("cy", Charts.n(ys(yi))), ("r", "2"), ("fill", s.colour),
                                                   ("fill-opacity", "0.5")])
                }
            } else {
                let points = zip(x, s.y).filter { $0.1.isFinite }.map { "\(Charts.n(xs($0.0))),\(Charts.n(ys($0.1)))" }
                body += SVG.element("polyline", [("points", points.joined(separator: " ")), ("fill", "none"), ("stroke", s.colour),
                                                 ("stroke-width", "1.5")])
            }
        }
        return Charts.svg(height: bottom + 40, label: label, body)
    }

    /// Where the search stood iteration by iteration: tuning.csv's columns, or, before it
    /// exists, the journal's measurements (each an iteration of its own).
    struct Trajectory {
        var parameters: [String]
        /// Matches played by the end of each iteration.
        var matches: [Double]
        /// Per parameter, its value at each iteration.
        var values: [[Double]]
        /// Each iteration's objective.
        var score: [Double]

        /// From tuning.csv: `iteration, <parameters>, matches, score`.
        init(tuning t: CSVFile) throws(InputError) {
            parameters = Array(t.header.dropFirst().dropLast(2))
            matches = try Self.matches(t, "matches")
            score = try Self.numbers(t, "score")
            values = []
            for name in parameters { values.append(try Self.numbers(t, name)) }
        }

        /// From measurements.csv: `measurement, iteration, probe, <parameters>, matches,
        /// score_share, objective`.
        init(measurements t: CSVFile) throws(InputError) {
            parameters = Array(t.header.dropFirst(3).dropLast(3))
            matches = try Self.runningTotal(t, "matches")
            score = try Self.numbers(t, "objective")
            values = []
            for name in parameters { values.append(try Self.numbers(t, name)) }
        }

        /// Column `name` as numbers.
        static func numbers(_ t: CSVFile, _ name: String) throws(InputError) -> [Double] {
            let column = try t.column(name)
            var out: [Double] = []
            for row in t.rows { out.append(try row.double(column)) }
            return out
        }

        /// Column `name` as counts of matches (whole, 0 or more, below 10^15:
        /// ``CSVFile/Row/count(_:)``), so that the axis never meets a number it cannot print.
        static func matches(_ t: CSVFile, _ name: String) throws(InputError) -> [Double] {
            let column = try t.column(name)
            var out: [Double] = []
            for row in t.rows { out.append(Double(try row.count(column))) }
            return out
        }

        /// The running total of column `name`, a count of matches.
        static func runningTotal(_ t: CSVFile, _ name: String) throws(InputError) -> [Double] {
            var total = 0.0, totals: [Double] = []
            for (row, count) in zip(t.rows, try matches(t, name)) {
                total += count
                guard total <= Double(Schedule.maxMatches) else {
                    throw InputError("\(t.path):\(row.line): column '\(name)': the matches up to here add up to more than the "
                        + "\(Schedule.maxMatches) a tuning can play")
                }
                totals.append(total)
            }
            return totals
        }
    }
}
