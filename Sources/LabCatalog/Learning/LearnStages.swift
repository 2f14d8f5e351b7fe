import LabCore
import Players

/// A learning in stages (`oplab learn GAME --stages FILE`): one `oplab learn` run a stage,
/// each stage the flags of one run, written in FILE as on a command line. A shipped model
/// that comes from a warm start and rounds of expert iteration is then one command, and
/// one `--resume` goes on with whichever stage a kill interrupted.
///
/// The file: `#` starts a comment line, blank lines separate nothing, a line ending in `\`
/// goes on on the next (so a documented command pastes as it is), and words split as a
/// POSIX shell splits them. `{previous}` anywhere in a stage's words names the best model
/// of the stage before. The command gives each stage its folder, threads, resume, force and
/// quiet, so a stage may not give them itself; nor the game, which comes first on the
/// command line.
public struct LearnStages: Sendable, Equatable {
    public struct Stage: Sendable, Equatable {
        /// The line of the file where the stage starts.
        public let line: Int
        /// Its flags as written, `{previous}` not yet replaced.
        public let words: [String]

        /// Whether it reads the best model of the stage before.
        public var readsPrevious: Bool { words.contains { $0.contains(LearnStages.previous) } }
    }

    /// The placeholder for the stage before's best model.
    public static let previous = "{previous}"
    /// The flags the command gives every stage.
    public static let commandFlags = ["--out", "--threads", "--resume", "--force", "--quiet", "--stages", "--help", "-h", "--version"]

    public let file: String
    public let stages: [Stage]

    /// Reads and checks the stages file at `path`.
    public static func load(_ path: String) throws(InputError) -> LearnStages {
        let bytes = try BoundedFile.contents(path, limit: 1 << 20, what: "the stages file")
        guard let text = String(validating: bytes, as: UTF8.self) else { throw InputError("\(path): not UTF-8 text") }
        return try LearnStages(text: text, file: path)
    }

    /// The stages of `text`, errors naming `file` and the line.
    public init(text: String, file: String) throws(InputError) {
        self.file = file
        var stages: [Stage] = []
        var pending = "", start = 0
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var line = raw.hasSuffix("\r") ? String(raw.dropLast()) : String(raw)
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            if pending.isEmpty && (trimmed.isEmpty || trimmed.hasPrefix("#")) { continue }
            if pending.isEmpty { start = index + 1 }
            let continues = line.hasSuffix("\\")
            if continues { line.removeLast() }
            pending += " " + line
            guard !continues else { continue }
            stages.append(try Self.stage(pending, line: start, file: file, first: stages.isEmpty))
            pending = ""
        }
        if !pending.isEmpty { stages.append(try Self.stage(pending, line: start, file: file, first: stages.isEmpty)) }
        guard !stages.isEmpty else {
            throw InputError("\(file): no stages; each stage is a line of `oplab learn` flags (a line ending in \\ goes on on the next)")
        }
        self.stages = stages
    }

    private static func stage(_ text: String, line: Int, file: String, first: Bool) throws(InputError) -> Stage {
        let words: [String]
        do { words = try CommandWords.split(text) } catch { throw InputError("\(file):\(line): \(error.message)") }
        if let word = words.first, !word.hasPrefix("-") {
            throw InputError("\(file):\(line): '\(word.excerpt())': a stage gives flags only (the game comes first on the command line)")
        }
        if let flag = words.first(where: { word in commandFlags.contains { word == $0 || word.hasPrefix($0 + "=") } }) {
            throw InputError("\(file):\(line): \(flag.excerpt()): the command gives every stage \(commandFlags.prefix(6).joined(separator: ", ")); "
                + "a stage may not give them")
        }
        let stage = Stage(line: line, words: words)
        if first && stage.readsPrevious {
            throw InputError("\(file):\(line): \(previous) in the first stage: there is no stage before it")
        }
        return stage
    }

    /// Stage `k`'s folder inside the learning's `directory`.
    public static func folder(_ k: Int, in directory: String) -> String { directory + "/stage-\(k + 1)" }

    /// Stage `k`'s best model inside the learning's `directory`.
    public static func bestModel(_ k: Int, in directory: String) -> String { folder(k, in: directory) + "/" + LearnFolder.bestFile }

    /// Stage `k`'s flags, `{previous}` replaced by the best model of stage `k - 1`.
    public func words(_ k: Int, in directory: String) -> [String] {
        guard k > 0 else { return stages[k].words }
        return stages[k].words.map { $0.replacing(Self.previous, with: Self.bestModel(k - 1, in: directory)) }
    }

    /// Where stage `k` is written: `file:line`.
    public func location(_ k: Int) -> String { "\(file):\(stages[k].line)" }
}
