/// The flags a command offers for a results folder that already holds a run, so the
/// runner's errors advise only what the command takes: `tournament` offers both, `sprt`
/// only `--force` (a sequential test is not resumed: it starts over).
public struct FolderFlags: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// `--resume`: finish the run in the folder.
    public static let resume = FolderFlags(rawValue: 1)
    /// `--force`: replace the run in the folder.
    public static let force = FolderFlags(rawValue: 2)

    /// What to do about a folder that holds results:
    /// `pass --resume to finish that run or --force to replace it`.
    var existingRunAdvice: String {
        switch (contains(.resume), contains(.force)) {
        case (true, true): "pass --resume to finish that run or --force to replace it"
        case (true, false): "pass --resume to finish that run, or choose another folder"
        case (false, true): "pass --force to replace it, or choose another folder"
        case (false, false): "choose another folder"
        }
    }

    /// How to go on once a broken bot is fixed: `run again with --resume to continue`.
    var continueAdvice: String {
        contains(.resume) ? "run again with --resume to continue"
            : contains(.force) ? "run again with --force (this command starts the run over)" : "run again"
    }
}
