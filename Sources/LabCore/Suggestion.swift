/// "Did you mean" for names a user mistyped: subcommands, strategies, parameters, rule
/// knobs, games.
public enum Suggestion {
    /// The name among `candidates` nearest to `word`, if one is near enough to be what
    /// the user meant: the same name but for letter case (`turncap` -> `turnCap`), else
    /// the one at the smallest edit distance (insertions, deletions, substitutions and
    /// swaps of neighbouring letters, letter case ignored) when that distance is at most
    /// a third of the longer name's length (at least 1, at most 3), else the one name
    /// the word begins (`missionProb` -> `missionProbability`). Ties go to the earlier
    /// candidate.
    public static func nearest(to word: String, among candidates: [String]) -> String? {
        let lowered = word.lowercased()
        if let same = candidates.first(where: { $0.lowercased() == lowered }) { return same }
        let extending = candidates.filter { $0.lowercased().hasPrefix(lowered) }
        var best: (name: String, distance: Int)?
        let length = word.count, loweredLength = lowered.count
        for candidate in candidates {
            let limit = min(3, max(1, max(length, candidate.count) / 3))
            // Lengths further apart than the limit are further apart in distance too
            // (and a megabyte of input is not compared letter by letter).
            let other = candidate.lowercased()
            guard abs(loweredLength - other.count) <= limit else { continue }
            let d = distance(lowered, other)
            guard d <= limit else { continue }
            if best == nil || d < best!.distance { best = (candidate, d) }
        }
        if let best { return best.name }
        return length >= 3 && extending.count == 1 ? extending[0] : nil
    }

    /// ` (did you mean 'NAME'?)` for ``nearest(to:among:)``, or nothing.
    public static func didYouMean(_ word: String, among candidates: [String]) -> String {
        nearest(to: word, among: candidates).map { " (did you mean '\($0)'?)" } ?? ""
    }

    /// Optimal string alignment distance (Damerau-Levenshtein without repeated edits of
    /// one substring).
    /// - Complexity: O(m n) for names of m and n characters.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var d = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] { d = min(d, previous2[j - 2] + 1) }
                current[j] = d
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }
}
