import LabCore

/// A command line split into words as a POSIX shell splits them (blanks separate words;
/// single quotes keep everything literally; double quotes keep all but `\"`, `\\`, `\$`
/// and `` \` ``; a backslash outside quotes keeps the next character), without running a
/// shell: no variables, globs, pipes or redirections (player protocol, "Transport").
public enum CommandWords {
    /// The words of `line`; an error for an empty line or an unterminated quote.
    public static func split(_ line: String) throws(InputError) -> [String] {
        var words: [String] = []
        var word = ""
        var inWord = false
        var chars = Array(line)[...]
        func fail(_ what: String) -> InputError {
            InputError("command '\(line.excerpt(limit: 120))': \(what); quote words as a POSIX shell would (\"...\", '...', \\)")
        }
        while let c = chars.popFirst() {
            switch c {
            case " ", "\t", "\n":
                if inWord { words.append(word); word = ""; inWord = false }
            case "'":
                inWord = true
                guard let end = chars.firstIndex(of: "'") else { throw fail("unterminated single quote") }
                word += chars[chars.startIndex..<end]
                chars = chars[(end + 1)...]
            case "\"":
                inWord = true
                var closed = false
                while let d = chars.popFirst() {
                    if d == "\"" { closed = true; break }
                    if d == "\\", let next = chars.first, "\"\\$`\n".contains(next) {
                        chars.removeFirst()
                        if next != "\n" { word.append(next) }
                    } else {
                        word.append(d)
                    }
                }
                guard closed else { throw fail("unterminated double quote") }
            case "\\":
                inWord = true
                guard let next = chars.popFirst() else { throw fail("a backslash at the end") }
                if next != "\n" { word.append(next) }
            default:
                inWord = true
                word.append(c)
            }
        }
        if inWord { words.append(word) }
        guard !words.isEmpty else { throw fail("no program named") }
        return words
    }

    /// `words` as a command line that ``split(_:)`` reads back: a word bare when it can be,
    /// else single-quoted.
    public static func join(_ words: [String]) -> String {
        words.map { word in
            let bare = !word.isEmpty && word.allSatisfy { $0.isLetter || $0.isNumber || "-_./=:,{}+@%".contains($0) }
            return bare ? word : "'" + word.replacing("'", with: "'\\''") + "'"
        }.joined(separator: " ")
    }
}
