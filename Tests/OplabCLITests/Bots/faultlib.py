"""The play shared by the fault suite's bots (Tests/OplabCLITests/ExternalBotCLITests.swift).

A bot plays like examples/bots/random_bot.py (a uniform choice among `legal`, from a
generator seeded by `start.seed`), except in the matches it breaks: those whose `match`
id is divisible by `every` (3 unless a bot says otherwise), at its `at_turn`-th turn of
the match (2: one action of its own is on the board). There it calls its fault, which
writes what the fault writes (or exits, or sleeps); the lab then forfeits the match and
kills the process. So a test knows from the match ids alone which matches are forfeited.

The bot's first argument is a folder: its processes carry it in their command line (the
tests find leftovers by it), and while the file `mended` exists there (read at `hello`)
the bot breaks nothing, which gives the same run intact.

Standard library only. Logs to standard error.
"""
import json
import os
import random
import sys


def send(message):
    print(json.dumps(message), flush=True)


def log(text):
    print(f"{os.path.basename(sys.argv[0])}: {text}", file=sys.stderr, flush=True)


def folder():
    return sys.argv[1] if len(sys.argv) > 1 else "."


def mended():
    return os.path.exists(os.path.join(folder(), "mended"))


def run(fault, every=3, at_turn=2, on_hello=None):
    """Plays until `quit` or the end of input. `fault(turn, choice)` is called instead of
    answering at the breaking turn; `on_hello()` before `ready`."""
    rng = random.Random(0)
    breaks = False
    breaking = False
    turns = 0
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "hello":
            breaks = not mended()
            if on_hello:
                on_hello()
            send({"type": "ready", "name": os.path.basename(sys.argv[0]), "version": "1"})
        elif kind == "start":
            rng = random.Random(int(message["seed"]))
            breaking = breaks and int(message["match"]) % every == 0
            turns = 0
        elif kind == "turn":
            turns += 1
            legal = message["legal"]
            choice = legal[rng.randrange(len(legal))]
            if breaking and turns == at_turn:
                log(f"breaking match {message['match']} at turn {message['turn']}")
                fault(message, choice)
            else:
                send({"type": "action", "id": choice["id"]})
        elif kind == "quit":
            return
