// Positions per second of a value model's forward pass, `MLP.evaluate`, at batch sizes
// 1, 16, 256 and 4096, for the rail-sized (216-128-64-1: 80 railroads) and the Quortex-sized
// (671-128-64-1: radius 3) network; and beside each, the bare per-layer `cblas_sgemm` products of
// the same shapes (`BareSGEMM.layers`: no bias, no activation). Both turn into GFLOP/s
// as 2 × `MLPShape.multiplyAdds` × positions/s / 1e9; the gap between the two is what the
// evaluator adds to the arithmetic.
//
// One benchmark iteration evaluates 16,384 positions (16,384 / batch calls on the same
// input block); the custom metric `positions/s` is that count over the iteration's time.
// OpenBLAS is pinned to one thread, as in a tournament worker.
//
// Run from Benchmarks/: `swift package --disable-sandbox benchmark --target EvaluatorBenchmarks`.

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
    for shape in [MLPShape(inputs: 216, hidden: [128, 64]), MLPShape(inputs: 671, hidden: [128, 64])] {
        for batch in [1, 16, 256, 4_096] {
            register(shape, batch: batch, configuration)
        }
    }
}

/// `SHAPE, batch B: mlp evaluate` and `SHAPE, batch B: bare sgemm` (adjacent in the
/// name-sorted run, so the two run close together in time).
func register(_ shape: MLPShape, batch: Int, _ configuration: Benchmark.Configuration) {
    let model = MLP(shape: shape, seed: 1)
    var rng = LabRandom(seed: 2)
    let input = (0..<(batch * shape.inputs)).map { _ in Float(rng.unit()) }
    var output = [Float](repeating: 0, count: batch)
    let workspace = MLPWorkspace()
    let calls = positionsPerIteration / batch

    Benchmark("\(shape), batch \(batch): mlp evaluate", configuration: configuration) { benchmark in
        input.withUnsafeBufferPointer { x in
            output.withUnsafeMutableBufferPointer { y in
                let start = ContinuousClock.now
                for _ in 0..<calls {
                    model.evaluate(x.baseAddress!, batch: batch, into: y.baseAddress!, workspace: workspace)
                }
                record(benchmark, since: start)
            }
        }
        blackHole(output[batch - 1])
    }
    Benchmark("\(shape), batch \(batch): bare sgemm", configuration: configuration) { benchmark in
        input.withUnsafeBufferPointer { x in
            output.withUnsafeMutableBufferPointer { y in
                let start = ContinuousClock.now
                for _ in 0..<calls {
                    BareSGEMM.layers(of: model, x.baseAddress!, batch: batch, into: y.baseAddress!, workspace: workspace)
                }
                record(benchmark, since: start)
            }
        }
        blackHole(output[batch - 1])
    }
}

/// Records `positionsPerIteration` over the time since `start` as positions per second.
func record(_ benchmark: Benchmark, since start: ContinuousClock.Instant) {
    let elapsed = start.duration(to: .now)
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    benchmark.measurement(positionsPerSecond, Int((Double(positionsPerIteration) / seconds).rounded()))
}
