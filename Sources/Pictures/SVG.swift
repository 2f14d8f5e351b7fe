import Foundation
import LabCore

/// Small building blocks for hand-written SVG and HTML: escaping, fixed-point numbers
/// (the same bytes on every machine), colour scales and the seat palette.
///
/// The lab's pages are self-contained: inline SVG and CSS, no network, no script
/// library (a replay page carries its own few lines of script).
public enum SVG {
    /// `text` with `&`, `<`, `>`, `"` and `'` escaped, for element content and
    /// attribute values alike.
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for c in text {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(c)
            }
        }
        return out
    }

    /// A coordinate or size with at most `digits` decimals, trailing zeros dropped
    /// ("12.5", "3", "-0.25"): deterministic and short.
    public static func number(_ x: Double, _ digits: Int = 2) -> String {
        guard x.isFinite else { return "0" }
        var text = String(format: "%.\(digits)f", x)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text == "-0" ? "0" : text
    }

    /// An element: `<name a="v" ...>content</name>`, or self-closed without content.
    /// Attribute values are escaped; content is not (it is markup already).
    public static func element(_ name: String, _ attributes: [(String, String)], _ content: String? = nil) -> String {
        var out = "<" + name
        for (key, value) in attributes { out += " \(key)=\"\(escape(value))\"" }
        guard let content else { return out + "/>" }
        return out + ">" + content + "</" + name + ">"
    }

    /// A `<title>` child: the tooltip a browser shows on hover.
    public static func title(_ text: String) -> String { "<title>" + escape(text) + "</title>" }

    /// Seat colours, seat 0 first: distinct for colour-blind readers (Okabe-Ito).
    public static let seatColours = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9"]

    /// The colour of seat (or entrant) `index`, cycling past six.
    public static func seatColour(_ index: Int) -> String { seatColours[((index % seatColours.count) + seatColours.count) % seatColours.count] }

    /// A sequential scale from pale to dark (viridis-like, light end first) for heat maps:
    /// `t` in [0, 1], clamped.
    public static func heat(_ t: Double) -> String {
        let stops: [(Double, Double, Double)] = [(253, 231, 37), (94, 201, 98), (33, 145, 140), (59, 82, 139), (68, 1, 84)]
        return interpolate(stops, t)
    }

    /// A diverging scale for win rates: 0 red, 0.5 near white, 1 blue; `t` clamped.
    public static func diverging(_ t: Double) -> String {
        let stops: [(Double, Double, Double)] = [(202, 0, 32), (244, 165, 130), (247, 247, 247), (146, 197, 222), (5, 113, 176)]
        return interpolate(stops, t)
    }

    /// Dark or light text, whichever reads on `fill` (a `#rrggbb` colour).
    public static func textColour(on fill: String) -> String {
        let hex = fill.dropFirst()
        guard hex.count == 6, let v = Int(hex, radix: 16) else { return "#000" }
        let r = Double((v >> 16) & 255), g = Double((v >> 8) & 255), b = Double(v & 255)
        return (0.299 * r + 0.587 * g + 0.114 * b) > 140 ? "#111" : "#fff"
    }

    static func interpolate(_ stops: [(Double, Double, Double)], _ t: Double) -> String {
        let x = min(1, max(0, t.isFinite ? t : 0)) * Double(stops.count - 1)
        let i = min(stops.count - 2, Int(x))
        let f = x - Double(i)
        func channel(_ a: Double, _ b: Double) -> Int { Int((a + (b - a) * f).rounded()) }
        let (a, b) = (stops[i], stops[i + 1])
        return "#" + [channel(a.0, b.0), channel(a.1, b.1), channel(a.2, b.2)].map { hex2($0) }.joined()
    }

    static func hex2(_ v: Int) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[(v >> 4) & 15], digits[v & 15]])
    }

    /// A count with thousands separators: 1,234,567.
    public static func grouped(_ value: Int) -> String { NumberText.grouped(value) }

    /// A count short enough for a board cell: 987, 1.2k, 12k, 3.4M.
    public static func short(_ count: Int) -> String {
        switch count {
        case ..<1000: String(count)
        case ..<10_000: String(format: "%.1f", Double(count) / 1000) + "k"
        case ..<1_000_000: String(count / 1000) + "k"
        default: String(format: "%.1f", Double(count) / 1_000_000) + "M"
        }
    }
}
