import Foundation
import Testing

/// The command line asks the catalog about games rather than naming them: which game
/// takes a map, which trains, which draws its board.
@Suite("--map and board counts follow the game")
struct MapOptionCLITests {
    @Test("map check --game names the game whose map it is; a game without maps is refused with the ones that have them")
    func mapCheckGame() throws {
        let rail = try oplab("map", "check", "configs/maps/train-depot-europe.json", "--game", "rail")
        #expect(rail.status == 0 && rail.stdout.contains("36 cities"), "\(rail.stderr)")
        let quortex = try oplab("map", "check", "configs/maps/train-depot-europe.json", "--game", "quortex")
        #expect(quortex.status == 2)
        #expect(quortex.stderr.contains("error: --game quortex: the game takes no map; games with maps: rail"), "\(quortex.stderr)")
        let unknown = try oplab("map", "check", "configs/maps/train-depot-europe.json", "--game", "rial")
        #expect(unknown.status == 2 && unknown.stderr.contains("unknown game 'rial'"), "\(unknown.stderr)")
    }

    @Test("--map on a game without maps is refused in play, train and bot check, naming the games that have them")
    func mapOnMaplessGame() throws {
        let runs = [
            try oplab("play", "quortex", "--player", "random", "--player", "random", "--map", "configs/maps/train-depot-europe.json"),
            try oplab("train", "quortex", "--teacher", "random", "--matches", "10", "--out", "/tmp/never.model", "--map",
                      "configs/maps/train-depot-europe.json"),
            try oplab("bot", "check", "quortex", "python3 examples/bots/random_bot.py", "--map", "configs/maps/train-depot-europe.json"),
        ]
        for run in runs {
            #expect(run.status == 2)
            #expect(run.stderr.contains("error: --map: quortex has no map; games with maps: rail"), "\(run.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: "/tmp/never.model"))
    }

    @Test("a report names the run's board-count file in its file list only for the game that writes it")
    func reportBoardFileListed() throws {
        let scratch = try Scratch("neutral")
        let out = scratch.path + "/q"
        let config = scratch.path + "/q.yaml"
        try """
            name: q
            game: quortex
            seats: 2
            blocks: 2
            seed: 3
            threads: 1
            entrants:
              - {name: a, strategy: random}
              - {name: b, strategy: reference}
            """.write(toFile: config, atomically: true, encoding: .utf8)
        let run = try oplab("tournament", config, "--out", out, "--quiet")
        #expect(run.status == 0, "\(run.stderr)")
        let html = try String(contentsOfFile: out + "/report.html", encoding: .utf8)
        #expect(html.contains("<code>cells.csv</code>") && !html.contains("<code>railroads.csv</code>"))
        #expect(html.contains("id=\"board-placed\""))
    }
}
