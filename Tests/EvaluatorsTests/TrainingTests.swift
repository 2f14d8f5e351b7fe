import Testing
import LabCore
@testable import Evaluators

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `Training.train`: learns, is reproducible, returns the best epoch.
@Suite("Training")
struct TrainingTests {
    /// `rows` rows of 4 inputs in -1..<1, labelled by `label`.
    static func dataset(rows: Int, seed: UInt64, label: (ArraySlice<Float>, inout LabRandom) -> Float) -> Dataset {
        var rng = LabRandom(seed: seed)
        var data = Dataset(inputs: 4)
        for _ in 0..<rows {
            let row = Reference.uniform(4, scale: 1, rng: &rng)
            let target = label(row[...], &rng)
            row.withUnsafeBufferPointer { data.append($0, target: target) }
        }
        return data
    }

    /// XOR of the signs of the first two inputs (the other two are noise): no linear
    /// model does better than chance, a hidden layer can.
    static func xor(rows: Int) -> Dataset {
        dataset(rows: rows, seed: 61) { row, _ in row[0] * row[1] > 0 ? 1 : 0 }
    }

    /// The held-out rows as `Training.train` documents them: a `LabRandom` seeded from
    /// `Seeds.derive(seed, 0x7261_696e)` shuffles the row numbers, and the first
    /// `validationFraction` of them (at most all but one) are held out. Restated here, so
    /// a change to the split breaks the best-epoch test below.
    static func split(rows: Int, settings: TrainingSettings) -> (validation: [Int], training: [Int]) {
        var rng = LabRandom(seed: Seeds.derive(settings.seed, 0x7261_696e))
        var order = Array(0..<rows)
        order.withUnsafeMutableBufferPointer { rng.shuffle($0) }
        let held = min(rows - 1, Int(Double(rows) * settings.validationFraction))
        return (Array(order[..<held]), Array(order[held...]))
    }

    @Test("Training learns XOR of two signs: validation loss far below the baseline, accuracy above 90%")
    func learnsXor() {
        let data = Self.xor(rows: 2_000)
        let settings = TrainingSettings(epochs: 30, batchSize: 32, learningRate: 1e-2, validationFraction: 0.2, seed: 1)
        let result = Training.train(MLP(shape: MLPShape(inputs: 4, hidden: [16, 8]), seed: 7), on: data, settings: settings)
        // Balanced labels: the baseline is about ln 2.
        #expect(abs(result.baselineLoss - log(2.0)) < 0.01)
        #expect(result.best.validationLoss < 0.4 * result.baselineLoss,
                "validation loss \(result.best.validationLoss), baseline \(result.baselineLoss)")
        #expect(result.best.validationAccuracy > 0.9, "accuracy \(result.best.validationAccuracy)")
        #expect(result.trainRows == 1_600 && result.validationRows == 400)
        #expect(result.epochs.last!.trainLoss < result.epochs.first!.trainLoss)
    }

    @Test("Same seed, same parameters; another seed, other parameters")
    func deterministic() {
        let data = Self.xor(rows: 300)
        let start = MLP(shape: MLPShape(inputs: 4, hidden: [8]), seed: 7)
        let settings = TrainingSettings(epochs: 3, batchSize: 16, learningRate: 1e-2, validationFraction: 0.2, seed: 5)
        let first = Training.train(start, on: data, settings: settings)
        let second = Training.train(start, on: data, settings: settings)
        #expect(first.model == second.model)
        #expect(first.epochs == second.epochs)
        var other = settings
        other.seed = 6
        #expect(Training.train(start, on: data, settings: other).model != first.model)
    }

    @Test("The returned model is the epoch with the lowest validation loss, and measure on the held-out rows reproduces it")
    func returnsBestEpoch() throws {
        // 80 rows with coin-flip labels and a wide net: it memorises the training rows,
        // so the held-out loss rises after the first epochs.
        let data = Self.dataset(rows: 80, seed: 71) { _, rng in rng.chance(0.5) ? 1 : 0 }
        let settings = TrainingSettings(epochs: 40, batchSize: 8, learningRate: 3e-2, validationFraction: 0.25, seed: 3)
        let result = Training.train(MLP(shape: MLPShape(inputs: 4, hidden: [32, 32]), seed: 8), on: data, settings: settings)

        let lowest = result.epochs.map(\.validationLoss).min()!
        #expect(result.best.validationLoss == lowest)
        #expect(result.best == result.epochs.first { $0.validationLoss == lowest })
        try #require(result.best.epoch < settings.epochs, "the last epoch was the best; the test checks nothing")

        let (validation, training) = Self.split(rows: data.count, settings: settings)
        #expect(result.validationRows == validation.count && result.trainRows == training.count)
        let measured = Training.measure(result.model, rows: validation, data: data)
        #expect(measured.loss == result.best.validationLoss)
        #expect(measured.accuracy == result.best.validationAccuracy)

        // The baseline: cross-entropy of the training rows' mean label.
        let mean = training.reduce(0.0) { $0 + Double(data.targets[$1]) } / Double(training.count)
        let baseline = training.reduce(0.0) { sum, r in
            let y = Double(data.targets[r])
            return sum - (y * log(mean) + (1 - y) * log(1 - mean))
        } / Double(training.count)
        #expect(abs(result.baselineLoss - baseline) < 1e-12)
    }

    @Test("Without held-out rows the last epoch is returned")
    func noValidationKeepsLastEpoch() {
        let data = Self.xor(rows: 100)
        let settings = TrainingSettings(epochs: 4, batchSize: 16, learningRate: 1e-2, validationFraction: 0, seed: 2)
        let result = Training.train(MLP(shape: MLPShape(inputs: 4, hidden: [8]), seed: 7), on: data, settings: settings)
        #expect(result.validationRows == 0 && result.trainRows == 100)
        #expect(result.best == result.epochs.last)
        #expect(result.epochs.count == 4)
    }

    @Test("measure: cross-entropy and the share of decided rows on the right side of 1/2")
    func measureCountsDecidedRows() {
        // No hidden layer, zero weights, bias 1: every output is σ(1) = 0.7310586.
        let model = MLP(shape: MLPShape(inputs: 4, hidden: []), parameters: [0, 0, 0, 0, 1])
        let labels: [Float] = [1, 0, 0.5, 1]
        var data = Dataset(inputs: 4)
        for t in labels { [Float](repeating: 0, count: 4).withUnsafeBufferPointer { data.append($0, target: t) } }
        let (loss, accuracy) = Training.measure(model, rows: [0, 1, 2, 3], data: data)
        // -ln σ(1) = 0.3132617, -ln(1 - σ(1)) = 1.3132617; t = 1/2 gives their mean 0.8132617.
        #expect(abs(loss - (0.3132617 * 2 + 1.3132617 + 0.8132617) / 4) < 1e-6)
        // Decided rows: 0, 1, 3; right: 0 and 3.
        #expect(abs(accuracy - 2.0 / 3.0) < 1e-12)
    }
}
