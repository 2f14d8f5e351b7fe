#!/usr/bin/env bash
# Our MCTS against OpenSpiel's C++ MCTSBot on Connect Four, in simulations per second,
# one core against one core.
#
#     Benchmarks/openspiel/compare_mcts.sh [--rounds 5] [--repeats 5] [--cpu 0] ...
#
# Environment: SCRATCH_PATH (SwiftPM build folder, default Benchmarks/.build), VENV
# (default Benchmarks/.venv-openspiel, git-ignored), SWIFT (default swift).
#
# What is measured, and why it is a fair match:
# - The same search on both sides: UCT with c = 1.4, one uniformly random rollout to the
#   end of the game per simulation (OpenSpiel: RandomRolloutEvaluator(n_rollouts=1);
#   ours: MCTSSettings.rolloutDepth = 42, more than any match has left), 2,000
#   simulations per search, a fresh tree for every search (OpenSpiel's MCTSBot.step
#   always builds one; ours runs with reuse = false), the visited tree growing by one
#   node per simulation on both (OpenSpiel makes a node's seven child records when it
#   first expands it, we make one node per simulation). OpenSpiel's bot runs with solve = False: its default MCTS-Solver backs proven
#   wins and losses up the tree, which plain UCT (and our MCTS) does not do, and which
#   changes how many rollouts a search plays out. Both pick the most visited root move.
# - The one difference: OpenSpiel backs up returns of -1/0/+1, we back up scores of
#   0/0.5/1, so the same c explores twice as much here as there (c = 1.4 here is
#   OpenSpiel's 2.8). The headline runs both at c = 1.4, as asked; a third series runs
#   ours at c / 2, the same exploration as OpenSpiel's (the same UCT choices from the
#   same statistics). It comes out a little slower: less exploration grows a deeper
#   tree, which costs more per selection.
# - The same positions, the same count: the opening and three early positions (given
#   as columns dropped, the same strings to both sides; the script checks OpenSpiel's
#   legal moves there match), each searched once untimed (warm-up) and then --repeats
#   times timed; a side's figure is all timed simulations over the timed searches' wall
#   time (process start, game loading and the warm-up are outside it).
# - One core each: both run pinned to the same CPU with taskset (when present), one
#   after the other, never at once. A round runs each side once in a fresh process; the
#   rounds alternate which side goes first, and each side's figure is the median over
#   the rounds, so drift in the machine's load falls on both alike.
# - OpenSpiel is the open-spiel 2.0.2 wheel from PyPI (its C++ MCTSBot and game, called
#   once per search through pyspiel: the Python overhead is one call per 2,000
#   simulations); ours is Benchmarks' ConnectFourMCTSRate, built in release mode as the
#   package-benchmark suites are.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bench="$(dirname "$here")"
venv="${VENV:-$bench/.venv-openspiel}"
scratch="${SCRATCH_PATH:-$bench/.build}"
swift="${SWIFT:-swift}"

if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
if ! "$venv/bin/python" -c 'from importlib.metadata import version; assert version("open_spiel") == "2.0.2"' 2>/dev/null; then
    "$venv/bin/pip" install --quiet "open-spiel==2.0.2"
fi

(cd "$bench" && "$swift" build -c release --product ConnectFourMCTSRate --scratch-path "$scratch" >&2)
tool="$scratch/release/ConnectFourMCTSRate"

exec "$venv/bin/python" "$here/compare_mcts.py" --swift-tool "$tool" "$@"
