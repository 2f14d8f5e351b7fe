import LabCore
import Testing

@Suite("Quoting input in errors")
struct ExcerptTests {
    @Test("a value up to the limit is quoted whole; a longer one as its start and its length")
    func cutShort() {
        #expect("heuristic".excerpt() == "heuristic")
        #expect(String(repeating: "x", count: 40).excerpt() == String(repeating: "x", count: 40))
        let huge = String(repeating: "9", count: 1_000_000)
        #expect(huge.excerpt() == String(repeating: "9", count: 40) + "… (1000000 characters)")
        #expect(huge.excerpt(limit: 3) == "999… (1000000 characters)")
        #expect("".excerpt() == "")
    }

    @Test("a character of many combining marks counts once, and what is kept stays short")
    func combiningMarks() {
        let heavy = "e" + String(repeating: "\u{301}", count: 10_000)
        #expect(heavy.count == 1)
        #expect(heavy.excerpt(limit: 1) == "… (1 character)")
        #expect(("ab" + heavy).excerpt(limit: 5) == "ab… (3 characters)")
    }
}
