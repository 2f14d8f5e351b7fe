#!/usr/bin/env python3
"""Our MCTS against OpenSpiel's C++ MCTSBot on Connect Four: simulations per second,
one core against one core. Run it through compare_mcts.sh, which makes the venv and
builds our side; the method is described at the top of that script.

    compare_mcts.py --swift-tool PATH [--rounds 5] [--repeats 5] [--simulations 2000]
                    [--uct-c 1.4] [--seed 1] [--cpu 0]
    compare_mcts.py openspiel [--repeats 5] [--simulations 2000] [--uct-c 1.4] [--seed 1]
                    POSITION...       (one timed round of OpenSpiel, in this process)

A POSITION is the columns dropped from the opening, comma-separated, or - for the
opening itself: the same strings go to both sides.
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time

# The opening and three early positions (two, four and six discs in), every one with
# all seven columns open, so that both searches spread over the same seven root moves.
POSITIONS = ["-", "3,3", "3,3,2,4", "3,2,4,3,3,4"]


def moves_of(position):
    return [] if position == "-" else [int(c) for c in position.split(",")]


def openspiel_round(args):
    """One round of OpenSpiel: per position, an untimed warm-up search, then `repeats`
    timed ones (each MCTSBot.step builds a fresh tree); prints sims_per_s."""
    import pyspiel

    game = pyspiel.load_game("connect_four")
    timed = 0.0
    searches = 0
    checksum = 0
    for index, position in enumerate(args.positions):
        state = game.new_initial_state()
        heights = [0] * 7
        for column in moves_of(position):
            state.apply_action(column)
            heights[column] += 1
        # The same position as ours: OpenSpiel's action is the column, 0 on the left.
        expected = [c for c in range(7) if heights[c] < 6]
        if state.is_terminal() or state.legal_actions() != expected:
            sys.exit(f"position {position}: OpenSpiel's legal actions {state.legal_actions()} are not {expected}")
        evaluator = pyspiel.RandomRolloutEvaluator(1, args.seed + index)
        # uct_c, max_simulations, max_memory_mb, solve=False (plain UCT: no MCTS-Solver
        # backups of proven wins and losses, which our MCTS does not have), seed, verbose.
        bot = pyspiel.MCTSBot(game, evaluator, args.uct_c, args.simulations, 1000, False, args.seed + index, False)
        checksum += bot.step(state)  # warm-up, untimed
        start = time.perf_counter()
        for _ in range(args.repeats):
            checksum += bot.step(state)
        timed += time.perf_counter() - start
        searches += args.repeats
    total = searches * args.simulations
    print(f"searches {searches} simulations {total} seconds {timed:.4f} (moves chosen, summed: {checksum})")
    print(f"sims_per_s {total / timed:.1f}")


def run_side(command):
    """Runs one round of one side; returns (sims/s, its output)."""
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"{' '.join(command)} failed ({result.returncode}):\n{result.stdout}{result.stderr}")
    lines = result.stdout.strip().splitlines()
    if not lines or not lines[-1].startswith("sims_per_s "):
        sys.exit(f"{' '.join(command)}: no sims_per_s line in:\n{result.stdout}")
    return float(lines[-1].split()[1]), lines[0]


def compare(args):
    pin = ["taskset", "-c", str(args.cpu)] if shutil.which("taskset") else []
    if not pin:
        print("note: taskset not found; the sides run unpinned")
    common = ["--repeats", str(args.repeats), "--simulations", str(args.simulations), "--seed", str(args.seed)]
    openspiel = pin + [sys.executable, os.path.abspath(__file__), "openspiel", "--uct-c", str(args.uct_c)] + common + POSITIONS
    ours = pin + [args.swift_tool, "--exploration", str(args.uct_c)] + common + POSITIONS
    # OpenSpiel's returns are -1/0/+1, our scores 0/0.5/1: half the c is the same
    # exploration on our scale (the same UCT choices from the same statistics).
    scaled = pin + [args.swift_tool, "--exploration", str(args.uct_c / 2)] + common + POSITIONS
    import pyspiel  # noqa: F401  (fail here, before any timing, if it is missing)
    from importlib.metadata import version

    searches = len(POSITIONS) * args.repeats
    print(f"Connect Four MCTS, one core ({'CPU ' + str(args.cpu) if pin else 'unpinned'}): "
          f"{args.simulations} simulations per search, UCT c {args.uct_c}, one random rollout to the end per simulation, "
          f"fresh tree per search; {searches} timed searches per round ({len(POSITIONS)} positions x {args.repeats}: "
          f"{' | '.join(POSITIONS)}), {args.rounds} rounds alternating the order; ours also at c {args.uct_c / 2:g}")
    print(f"OpenSpiel {version('open_spiel')} C++ MCTSBot (solve=False) via pyspiel; ours: {args.swift_tool}")
    half = "ours c/2"
    rates = {"openspiel": [], "ours": [], half: []}
    for r in range(args.rounds):
        order = [("openspiel", openspiel), ("ours", ours), (half, scaled)]
        if r % 2 == 1:
            order.reverse()
        for name, command in order:
            rate, detail = run_side(command)
            rates[name].append(rate)
            print(f"round {r + 1} {name:>9}: {rate:10.1f} sims/s   ({detail})")
    theirs, mine, mine_half = (statistics.median(rates[k]) for k in ("openspiel", "ours", half))
    print(f"OpenSpiel MCTSBot, c {args.uct_c}: {theirs:.1f} sims/s (median of {args.rounds} rounds)")
    print(f"our MCTS, c {args.uct_c}:          {mine:.1f} sims/s (median of {args.rounds} rounds)")
    print(f"ratio ours/OpenSpiel: {mine / theirs:.3f}")
    print(f"our MCTS, c {args.uct_c / 2:g} (OpenSpiel's exploration on our 0..1 scale): {mine_half:.1f} sims/s, "
          f"ratio {mine_half / theirs:.3f}")


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "openspiel":
        parser = argparse.ArgumentParser(prog="compare_mcts.py openspiel")
        parser.add_argument("--repeats", type=int, default=5)
        parser.add_argument("--simulations", type=int, default=2000)
        parser.add_argument("--uct-c", type=float, default=1.4)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("positions", nargs="+")
        openspiel_round(parser.parse_args(sys.argv[2:]))
        return
    parser = argparse.ArgumentParser(prog="compare_mcts.py", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--swift-tool", required=True, help="the ConnectFourMCTSRate executable")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--repeats", type=int, default=5, help="timed searches per position and round")
    parser.add_argument("--simulations", type=int, default=2000)
    parser.add_argument("--uct-c", type=float, default=1.4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cpu", type=int, default=0, help="the core both sides are pinned to")
    compare(parser.parse_args())


if __name__ == "__main__":
    main()
