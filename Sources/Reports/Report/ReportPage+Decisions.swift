import LabCore
import Pictures
import Tournament

extension ReportPage {
    /// How long each entrant thinks: decisions, seconds, mean and 99th percentile per
    /// decision, from `run.json` (clock figures: they vary from run to run).
    func decisionTimes() -> String {
        guard let times = run.decisionTimes, !times.isEmpty else { return "" }
        var content = "<table class=\"entrants\">\n<tr><th>entrant</th><th>strategy</th><th>decisions</th><th>seconds</th>"
            + "<th>mean per decision (µs)</th><th>p99 per decision (µs)</th></tr>\n"
        for t in times {
            let strategy = run.entrants.first { $0.name == t.entrant }?.strategy ?? ""
            let cells = [t.entrant, strategy, Charts.grouped(t.decisions), FixedPoint.text(t.seconds, digits: 2),
                         FixedPoint.text(t.meanMicroseconds, digits: 2), FixedPoint.text(t.p99Microseconds, digits: 2)]
            content += "<tr>" + cells.enumerated().map { k, cell in
                (k < 2 ? "<td>" : "<td class=\"number\">") + SVG.escape(cell) + "</td>"
            }.joined() + "</tr>\n"
        }
        content += "</table>"
        return section("decision-times", "Time per decision",
                       "How long does each entrant think? Wall-clock time of every decision on this machine (p99 within 1/16, "
                       + "from a log-scale histogram); it varies from run to run, so it lives in run.json, not the CSV files.",
                       content)
    }
}
