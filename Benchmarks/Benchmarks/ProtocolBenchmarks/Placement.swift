import CPUAffinity
import Glibc

/// Where the lab's thread and its bots run. On one core they take turns: a round trip
/// is two context switches. On two, each message wakes the other core (on a virtual
/// machine, a halted virtual CPU), which costs far more. Left to the scheduler, a run
/// mixes the two as it moves the processes, so an unpinned figure changes from run to
/// run; pinned, each benchmark measures one of them.
enum Placement: Sendable, CustomStringConvertible {
    case oneCore, twoCores

    var description: String {
        switch self {
        case .oneCore: "one core"
        case .twoCores: "two cores"
        }
    }

    /// The placements this machine has room for.
    static var available: [Placement] { oplab_bench_cpu_count() >= 2 ? [.oneCore, .twoCores] : [.oneCore] }

    /// The CPUs of the lab's thread and of the bots: the first one or two the thread may
    /// use.
    func cpus() -> (lab: Int, bots: Int) {
        let mask = oplab_bench_thread_cpus()
        let allowed = (0..<64).filter { mask & (1 << UInt64($0)) != 0 }
        switch self {
        case .oneCore:
            guard let first = allowed.first else { fatalError("ProtocolBenchmarks: cannot read the thread's CPU affinity") }
            return (first, first)
        case .twoCores:
            guard allowed.count >= 2 else {
                fatalError("ProtocolBenchmarks: 'two cores' needs two CPUs; this thread may use \(allowed)")
            }
            return (allowed[0], allowed[1])
        }
    }
}

/// Runs `body` with the calling thread (and every process it starts) pinned to `cpu`,
/// then gives the thread its CPUs back.
func pinned<R>(to cpu: Int, _ body: () -> R) -> R {
    let saved = oplab_bench_thread_cpus()
    let rc = oplab_bench_pin_thread(1 << UInt64(cpu))
    guard rc == 0 else { fatalError("ProtocolBenchmarks: cannot pin the thread to CPU \(cpu): \(String(cString: strerror(rc)))") }
    defer { if saved != 0 { _ = oplab_bench_pin_thread(saved) } }
    return body()
}
