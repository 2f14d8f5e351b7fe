import CBLAS
import Foundation

/// Which OpenBLAS kernel runs: OpenBLAS picks one by CPU when it loads, and an old build on
/// a new CPU falls back to generic kernels several times slower (Debian's 0.3.21 did on
/// some machines). `oplab --version` and `learn.json` say which runs; ``warning`` says when
/// a generic one runs on a CPU with AVX2 or AVX-512, with the setting that fixes it.
public enum BLASKernel {
    /// The kernel's name, e.g. `Haswell`, `SkylakeX`, `Cooperlake`, `Prescott`.
    public static var coreName: String { text(openblas_get_corename) }

    /// OpenBLAS's build: version and options.
    public static var configuration: String { text(openblas_get_config) }

    /// What `query` answers, or `unknown` when it answers nothing or OpenBLAS is not loaded.
    private static func text(_ query: () -> UnsafeMutablePointer<CChar>?) -> String {
        guard BLASThreads.unavailable == nil, let text = query() else { return "unknown" }
        return String(cString: text)
    }

    /// `OpenBLAS 0.3.21 ...; kernel Cooperlake; 1 thread`, or why it is not loaded.
    public static func describe() -> String {
        if let reason = BLASThreads.unavailable { return "not loaded (\(reason))" }
        let threads = BLASThreads.current
        return "\(configuration); kernel \(coreName); \(threads) thread\(threads == 1 ? "" : "s")"
    }

    /// Kernels that use neither AVX2 nor AVX-512.
    static let generic: Set<String> = ["prescott", "core2", "penryn", "dunnington", "nehalem", "sandybridge", "atom", "katmai",
                                       "coppermine", "northwood", "banias", "generic", "barcelona", "opteron", "bobcat", "bulldozer"]

    /// A warning when a generic kernel runs on a CPU whose flags (from /proc/cpuinfo) say
    /// it has AVX2 or AVX-512; nil otherwise.
    public static var warning: String? { BLASThreads.unavailable == nil ? warning(coreName: coreName, cpuFlags: cpuFlags()) : nil }

    static func warning(coreName: String, cpuFlags: Set<String>) -> String? {
        guard generic.contains(coreName.lowercased()) else { return nil }
        let fix: String
        if cpuFlags.contains("avx512f") { fix = "SkylakeX" } else if cpuFlags.contains("avx2") { fix = "Haswell" } else { return nil }
        return "OpenBLAS runs its \(coreName) kernel on a CPU with \(fix == "SkylakeX" ? "AVX-512" : "AVX2"): products run several "
            + "times slower than they could; set OPENBLAS_CORETYPE=\(fix) (or install a newer OpenBLAS)"
    }

    /// The CPU's flags from /proc/cpuinfo (empty where it cannot be read).
    static func cpuFlags() -> Set<String> {
        guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("flags") }),
              let colon = line.firstIndex(of: ":") else { return [] }
        return Set(line[line.index(after: colon)...].split(separator: " ").map(String.init))
    }
}
