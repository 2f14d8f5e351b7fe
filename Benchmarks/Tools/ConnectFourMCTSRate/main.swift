// ConnectFourMCTSRate: our MCTS on Connect Four, timed the way
// `openspiel/compare_mcts.py` times OpenSpiel's C++ MCTSBot, and printed as simulations
// per second (the last line, `sims_per_s N`, is what the script reads).
//
//     ConnectFourMCTSRate [--simulations 2000] [--exploration 1.4] [--repeats 10] [--seed 1]
//                         [--rollout-depth 42] POSITION...
//
// A POSITION is the columns dropped from the opening, comma-separated (`-` for the
// opening itself). Per position: one untimed warm-up search, then `repeats` timed
// searches of `simulations` simulations each, every one with a fresh tree (no reuse),
// a uniformly random rollout to the end per simulation (rolloutDepth 42), UCT with the
// given exploration constant. The figure is all timed simulations over all timed
// searches' time. Run it pinned to one core (`taskset -c 0`) for a one-core figure.
// `--rollout-depth` cuts the rollouts short (0: none, every leaf valued 0.5 by the
// game), which isolates what the tree itself costs per simulation.

import ConnectFour
import Foundation
import LabCore
import Search

struct Options {
    var simulations = 2_000
    var exploration = 1.4
    var repeats = 10
    var seed: UInt64 = 1
    var rolloutDepth = 42
    var positions: [[Int]] = []
}

func parse(_ arguments: [String]) -> Options {
    var options = Options()
    var rest = arguments[...]
    func value<T: LosslessStringConvertible>(_ name: String) -> T {
        guard let text = rest.popFirst(), let v = T(text) else { fail("\(name) needs a number") }
        return v
    }
    while let argument = rest.popFirst() {
        switch argument {
        case "--simulations": options.simulations = value(argument)
        case "--exploration": options.exploration = value(argument)
        case "--repeats": options.repeats = value(argument)
        case "--seed": options.seed = value(argument)
        case "--rollout-depth": options.rolloutDepth = value(argument)
        case "-": options.positions.append([])
        default:
            let columns = argument.split(separator: ",").map { Int($0) }
            guard columns.allSatisfy({ $0.map { (0..<7).contains($0) } ?? false }) else {
                fail("position '\(argument)': columns 0-6 separated by commas, or - for the opening")
            }
            options.positions.append(columns.map { $0! })
        }
    }
    if options.positions.isEmpty { options.positions = [[]] }
    guard options.simulations >= 1, options.repeats >= 1, options.exploration >= 0, options.rolloutDepth >= 0 else { fail("counts must be positive") }
    return options
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("ConnectFourMCTSRate: \(message)\n".utf8))
    exit(2)
}

let options = parse(Array(CommandLine.arguments.dropFirst()))
let game = ConnectFourGame()
let settings = MCTSSettings(iterations: options.simulations, exploration: options.exploration, rolloutDepth: options.rolloutDepth, reuse: false)
var timed: Duration = .zero
var searches = 0
var checksum = 0
for (index, moves) in options.positions.enumerated() {
    var state = game.newMatch(seed: 0)
    for column in moves {
        guard !state.isTerminal, state.height(of: column) < 6 else { fail("position \(moves): column \(column) cannot take a disc") }
        state.apply(column)
    }
    guard !state.isTerminal else { fail("position \(moves) is over") }
    var legal = ActionBuffer()
    state.legalActions(into: &legal)
    let observation = state.observation(for: state.currentSeat)
    let search = MCTS(StrategyContext(game: game, seat: state.currentSeat, seed: Seeds.derive(options.seed, UInt64(index))),
                      settings: settings)
    checksum &+= search.chooseAction(observation, legal: legal)  // warm-up, untimed
    let clock = ContinuousClock()
    let start = clock.now
    for _ in 0..<options.repeats { checksum &+= search.chooseAction(observation, legal: legal) }
    timed += start.duration(to: clock.now)
    searches += options.repeats
}
let seconds = Double(timed.components.seconds) + Double(timed.components.attoseconds) * 1e-18
let total = searches * options.simulations
print("searches \(searches) simulations \(total) seconds \(String(format: "%.4f", seconds)) (moves chosen, summed: \(checksum))")
print("sims_per_s \(String(format: "%.1f", Double(total) / seconds))")
