import LabCatalog
import LabCore
import Testing
import Tournament

/// Refusals that name the right field: the config's seats, the --blocks that overrode a
/// file, a bot command that cannot start.
@Suite("Refusals blame the field at fault")
struct RefusalBlameTests {
    /// The error `body` throws; fails the test when it throws none.
    static func refusal<T>(_ body: () throws(InputError) -> T) -> String {
        do {
            _ = try body()
            Issue.record("expected the input to be refused")
            return ""
        } catch {
            return error.message
        }
    }

    @Test("a tournament of 1 seat is refused at the config's seats, though rail plays solitaire")
    func oneSeatTournament() throws {
        let yaml = "name: solo\ngame: rail\nseats: 1\nentrants:\n  - {name: a, strategy: heuristic}\n  - {name: b, strategy: random}\n"
        let document = try ConfigLoader.parse(yaml: yaml, path: "c.yaml")
        #expect(Self.refusal { () throws(InputError) in try Catalog.plan(document) }
            == "c.yaml:3:8: seats: rail seats 2-4 players in a tournament, not 1 (a match of 1 seat has no opponent, "
            + "so every match would count as a win; `oplab play` plays it)")
        let seven = try ConfigLoader.parse(yaml: yaml.replacingOccurrences(of: "seats: 1", with: "seats: 7"), path: "c.yaml")
        #expect(Self.refusal { () throws(InputError) in try Catalog.plan(seven) } == "c.yaml:3:8: seats: rail seats 2-4 players in a tournament, not 7")
        let rail = try Catalog.game(named: "rail")
        #expect(rail.seatRange == 1...4 && rail.tournamentSeats == 2...4)
    }

    @Test("an overridden blocks the schedule cannot number is blamed on --blocks, not on a line of the file")
    func overrideNamesTheFlag() throws {
        let yaml = "name: q\ngame: quortex\nentrants:\n  - {name: a, strategy: random}\n  - {name: b, strategy: random}\nblocks: 40\n"
        let document = try ConfigLoader.parse(yaml: yaml, path: "c.yaml").overriding(blocks: 99_999_999_999_999_999)
        #expect(Self.refusal { () throws(InputError) in try Catalog.plan(document) }
            == "--blocks 99999999999999999: 1 tables x 99999999999999999 blocks x 2 matches is more than the 4503599627370496 "
            + "matches (2^52) a run can number; expected blocks in 1...2251799813685248")
        // The file's own value is still blamed on its line.
        let written = try ConfigLoader.parse(yaml: yaml.replacingOccurrences(of: "blocks: 40", with: "blocks: 99999999999999999"), path: "c.yaml")
        #expect(Self.refusal { () throws(InputError) in try Catalog.plan(written) }.hasPrefix("c.yaml:6:9: blocks: blocks 99999999999999999: "))
    }

    @Test("bot check refuses a command with no program or an unclosed quote as bad input, before starting anything",
          arguments: [("", "command '': no program named"),
                      ("python3 \"x.py", "command 'python3 \"x.py': unterminated double quote")])
    func botCheckCommand(_ command: String, _ expected: String) throws {
        let check = BotCheck(game: try Catalog.game(named: "quortex"), command: command, seats: 2, matchesPerSeat: 1, timeoutMs: 100,
                             startupMs: 100, options: [], rules: [], mapPath: nil, seed: 1)
        #expect(Self.refusal { () throws(InputError) in try check.run() }.hasPrefix(expected))
    }
}
