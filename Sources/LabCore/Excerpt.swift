extension String {
    /// The text as an error message quotes it: whole when it has at most `limit`
    /// characters, else its first `limit` characters and how long it is,
    /// `99999999…(1000000 characters)`, so an error about a megabyte of input stays one
    /// short line. The part kept is also cut at `4 * limit` Unicode scalars (a character
    /// may hold many combining marks).
    public func excerpt(limit: Int = 40) -> String {
        var kept = 0
        var scalars = 0
        var end = startIndex
        for character in self {
            if kept == limit { break }
            let width = character.unicodeScalars.count
            guard scalars + width <= 4 * limit else { break }
            scalars += width
            kept += 1
            end = index(after: end)
        }
        guard end < endIndex else { return self }
        let total = count
        return self[..<end] + "… (\(total) character\(total == 1 ? "" : "s"))"
    }
}
