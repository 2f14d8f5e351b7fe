extension TournamentConfig {
    /// Two entrants at a 2-seat table, seat-rotated: `matches` matches as whole blocks of
    /// 2 (one deal, seats swapped), rounded up. What `sprt` and each `calibrate` probe
    /// play; the plan checks it like any config.
    public static func headToHead(name: String, game: String, rules: [RuleSetting], map: String?, _ first: Entrant, _ second: Entrant,
                                  matches: Int, seed: UInt64, threads: Int) -> TournamentConfig {
        TournamentConfig(name: name, game: game, rules: rules, map: map, seats: 2, entrants: [first, second], format: .roundRobin,
                         blocks: (matches + 1) / 2, seed: seed, threads: threads)
    }
}
