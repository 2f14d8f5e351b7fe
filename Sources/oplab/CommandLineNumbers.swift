import ArgumentParser
import Tournament

/// Numbers on the command line. Their options read the next word unconditionally, so
/// `--threads -1` reaches the command's own check ("expected ...") instead of being
/// taken for a flag and answered "Missing value"; a word that is no number at all is
/// refused here with what would be accepted.
enum CommandLineNumbers {
    /// The most worker threads a command accepts: far above any machine's cores, low
    /// enough that a typo (`--threads 20000`) is caught before it makes 20,000 table sets.
    static let maxThreads = RunOptions.maxThreads

    static func seed(_ text: String) throws -> UInt64 {
        guard let value = UInt64(text) else {
            throw ValidationError("expected a whole number in 0...\(UInt64.max)")
        }
        return value
    }

    static func integer(_ text: String) throws -> Int {
        guard let value = Int(text) else { throw ValidationError("expected a whole number") }
        return value
    }

    /// `nil`, or the error for a thread count outside 0...maxThreads (0: every core).
    static func checkThreads(_ threads: Int?) throws {
        guard let threads, !(0...maxThreads).contains(threads) else { return }
        throw ValidationError("--threads \(threads): expected 0 (every core) to \(maxThreads)")
    }
}
