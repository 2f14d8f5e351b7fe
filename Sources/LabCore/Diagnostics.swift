import Foundation

/// Where the lab's lines for people go (notes, warnings, progress): stderr, or the sink
/// a caller binds for its task (the command line's in-process runs capture them this
/// way). A line written from a worker thread, outside the task, goes to stderr.
public enum Diagnostics {
    /// The calling task's sink, if it captures what would go to stderr.
    @TaskLocal public static var sink: (@Sendable (String) -> Void)?

    /// Writes `text` as it is (no newline added).
    public static func write(_ text: String) {
        if let sink { sink(text) } else { FileHandle.standardError.write(Data(text.utf8)) }
    }
}
