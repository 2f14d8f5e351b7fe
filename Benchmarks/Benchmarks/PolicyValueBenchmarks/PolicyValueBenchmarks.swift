// Positions per second of a policy-value network's forward pass, `PolicyValueNet.evaluate`,
// at batch sizes 1, 64 and 256 (self-play's batches across games are 60 to 100 rows; a
// play decision's are 1 to 16), for the network `oplab learn connect4` ships with
// (85-256x3r-7p-2v) and a Quortex-sized one (1055-256x2r-366p-2v: radius 4); and beside
// each, the bare `cblas_sgemm` products of the same layers (`BareSGEMM.layers(of:...)`).
// The ratio of the two rates is the fraction of a forward pass that is bare arithmetic.
//
// One iteration evaluates 16,384 positions; the custom metric `positions/s` is that count
// over the iteration's time. OpenBLAS is pinned to one thread, as in a learner's worker.
//
// Run from Benchmarks/: `swift package --disable-sandbox benchmark --target PolicyValueBenchmarks`.

import Benchmark
import Evaluators
import LabCore

let positionsPerIteration = 16_384
let positionsPerSecond = BenchmarkMetric.custom("positions/s", polarity: .prefersLarger, useScalingFactor: false)

let benchmarks: @Sendable () -> Void = {
    BLASThreads.pinToOne()
    let configuration = Benchmark.Configuration(
        metrics: [positionsPerSecond, .wallClock],
        warmupIterations: 2,
        maxDuration: .seconds(2),
        maxIterations: 100
    )
    let shapes = [PolicyValueShape(inputs: 85, width: 256, blocks: 3, actions: 7, seats: 2),
                  PolicyValueShape(inputs: 1055, width: 256, blocks: 2, actions: 366, seats: 2)]
    for shape in shapes {
        for batch in [1, 64, 256] { register(shape, batch: batch, configuration) }
    }
}

/// `SHAPE, batch B: evaluate` and `SHAPE, batch B: bare sgemm`, adjacent in the run.
func register(_ shape: PolicyValueShape, batch: Int, _ configuration: Benchmark.Configuration) {
    let net = PolicyValueNet(shape: shape, seed: 1)
    var rng = LabRandom(seed: 2)
    let input = (0..<(batch * shape.inputs)).map { _ in Float(rng.unit()) }
    var logits = [Float](repeating: 0, count: batch * shape.actions)
    var values = [Float](repeating: 0, count: batch * shape.seats)
    let workspace = PolicyValueWorkspace()
    let calls = positionsPerIteration / batch

    Benchmark("\(shape), batch \(batch): evaluate", configuration: configuration) { benchmark in
        let start = ContinuousClock.now
        for _ in 0..<calls { net.evaluate(input, batch: batch, logits: &logits, values: &values, workspace: workspace) }
        record(benchmark, since: start)
        blackHole(values[0])
    }
    Benchmark("\(shape), batch \(batch): bare sgemm", configuration: configuration) { benchmark in
        let start = ContinuousClock.now
        for _ in 0..<calls { BareSGEMM.layers(of: net, input, batch: batch, logits: &logits, values: &values, workspace: workspace) }
        record(benchmark, since: start)
        blackHole(values[0])
    }
}

/// Records `positionsPerIteration` over the time since `start` as positions per second.
func record(_ benchmark: Benchmark, since start: ContinuousClock.Instant) {
    let elapsed = start.duration(to: .now)
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    benchmark.measurement(positionsPerSecond, Int((Double(positionsPerIteration) / seconds).rounded()))
}
