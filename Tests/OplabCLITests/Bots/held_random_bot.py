#!/usr/bin/env python3
"""examples/bots/random_bot.py, unchanged in its play, that can be held.

While the file `hold` exists in the folder given as the first argument, the bot does not
answer a turn of match 2 or later (a block after the first, in a two-match-a-block duel):
so a test can kill the lab at a known point, with exactly the first block on disk, at any
machine speed. Without the file it plays exactly as random_bot.py (same seeds, same games).
While held it watches its input: the end of input (the lab is gone) ends it.

Standard library only; run from the package root (it loads examples/bots/random_bot.py).
"""
import importlib.util
import json
import os
import select
import sys

folder = sys.argv[1] if len(sys.argv) > 1 else "."
hold = os.path.join(folder, "hold")
source = sys.stdin


def held_lines():
    for line in source:
        message = json.loads(line)
        if message.get("type") == "turn" and int(message.get("match", 0)) >= 2:
            while os.path.exists(hold):
                readable, _, _ = select.select([source], [], [], 0.01)
                if readable:
                    return  # the request/reply protocol sends nothing while a turn is open: the end of input
        yield line


class HeldInput:
    def __iter__(self):
        return held_lines()


spec = importlib.util.spec_from_file_location("random_bot", "examples/bots/random_bot.py")
random_bot = importlib.util.module_from_spec(spec)
spec.loader.exec_module(random_bot)
sys.stdin = HeldInput()
random_bot.main()
