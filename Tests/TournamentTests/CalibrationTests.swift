import Testing
@testable import Tournament

/// The monotone search behind `oplab calibrate`, on synthetic win-rate curves whose
/// answers are known.
@Suite("Calibration search")
struct CalibrationTests {
    static func exact(_ rate: Double) -> WinRateMeasurement {
        WinRateMeasurement(winRate: rate, low: rate - 0.01, high: rate + 0.01, matches: 1000)
    }

    @Test("An increasing curve: each level's value lands near the value that gives its target")
    func increasing() {
        // Win rate 0.1 + 0.8 v on 0...1: target t at v = (t - 0.1) / 0.8.
        let levels = Calibration.search(targets: [0.2, 0.5, 0.8], range: 0...1, integer: false, probes: 12) { Self.exact(0.1 + 0.8 * $0) }
        for level in levels {
            #expect(abs(level.value - (level.target - 0.1) / 0.8) < 0.002, "\(level)")
            #expect(abs(level.measurement.winRate - level.target) < 0.002)
            #expect(!level.outOfRange)
        }
    }

    @Test("A decreasing curve (more noise, weaker play) is searched the other way")
    func decreasing() {
        // Win rate 0.9 - 0.85 e: target t at e = (0.9 - t) / 0.85.
        let levels = Calibration.search(targets: [0.1, 0.3, 0.6], range: 0...1, integer: false, probes: 12) { Self.exact(0.9 - 0.85 * $0) }
        for level in levels { #expect(abs(level.value - (0.9 - level.target) / 0.85) < 0.002, "\(level)") }
        #expect(levels.map(\.value) == levels.map(\.value).sorted(by: >), "stronger targets need less noise")
    }

    @Test("An integer knob probes integers only and finds the nearest one")
    func integerKnob() {
        var probed: [Double] = []
        let levels = Calibration.search(targets: [0.25, 0.6], range: 10...1000, integer: true, probes: 20) { v in
            probed.append(v)
            return Self.exact(v / 1000)
        }
        #expect(probed.allSatisfy { $0 == $0.rounded() })
        #expect(abs(levels[0].value - 250) <= 1 && abs(levels[1].value - 600) <= 1, "\(levels.map(\.value))")
    }

    @Test("Each value is measured once (probes are cached), and a target out of reach takes the nearest end")
    func cacheAndOutOfRange() {
        var calls: [Double: Int] = [:]
        let levels = Calibration.search(targets: [0.05, 0.5, 0.5, 0.95], range: 0...1, integer: false, probes: 6) { v in
            calls[v, default: 0] += 1
            return Self.exact(0.2 + 0.6 * v)
        }
        #expect(calls.values.allSatisfy { $0 == 1 }, "\(calls)")
        #expect(calls.count <= 2 + 6 * 2, "the repeated target reuses the first one's probes: \(calls.count)")
        #expect(levels[0].outOfRange && levels[0].value == 0)
        #expect(levels[3].outOfRange && levels[3].value == 1)
        #expect(!levels[1].outOfRange && levels[1].value == levels[2].value)
    }
}
