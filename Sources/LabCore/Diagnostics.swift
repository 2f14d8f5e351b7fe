import Foundation
import Synchronization

/// Where the lab's lines for people go (notes, warnings, progress): stderr, or the
/// ``Capture`` a caller binds for its task (the command line's in-process runs, as its
/// tests make them, capture their output this way). A line written from a worker thread,
/// outside the task, goes to stderr.
public enum Diagnostics {
    /// The calling task's capture, if it keeps what would go to stdout and stderr.
    @TaskLocal public static var capture: Capture?

    /// Writes `text` as it is (no newline added) on stderr, or into the capture.
    public static func write(_ text: String) {
        if let capture { capture.append(err: text) } else { FileHandle.standardError.write(Data(text.utf8)) }
    }
}

/// What an in-process run printed: its standard output and standard error.
public final class Capture: Sendable {
    private let text = Mutex((out: "", err: ""))

    public init() {}

    public var stdout: String { text.withLock { $0.out } }
    public var stderr: String { text.withLock { $0.err } }

    public func append(out line: String) { text.withLock { $0.out += line } }
    public func append(err line: String) { text.withLock { $0.err += line } }
}
