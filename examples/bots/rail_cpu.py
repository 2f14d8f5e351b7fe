#!/usr/bin/env python3
"""The lab's documented rail CPU (`heuristic`) as a player-protocol bot.

A port of Sources/RailGame/Strategies/RailCPU.swift (rule book, "The documented CPU
heuristic"; SRS 4.5 and 6.1.6) that decides from the protocol's messages alone
(docs/protocol.md, docs/protocol/rail.md). On its turn, in this order:

1. if drawing a mission is legal (fewer than 2 mission slots used, a mission deck):
   draw one with probability `missionProbability` (default 0.7), else fall through;
2. if any railroad can be built: choose one uniformly among the buildable railroads
   (not among build actions: a grey railroad has one per colour that can pay) and pay a
   grey one with the colour held most (lowest on ties; rainbow if only rainbows);
3. if drawing a card is legal: draw a card;
4. else draw the mission step 1 passed over, if legal, or pass.

With `shipped=true` it plays the app's CPU as shipped (`shipped-cpu`) instead: build
first, else draw a mission, else a card, else pass.

Its random stream is `random.Random(int(seed))` from each match's `start` line.
Standard library only; the log goes to standard error.

    oplab play rail --player 'external(command="python3 examples/bots/rail_cpu.py")' \\
        --player heuristic
"""

import json
import random
import sys

NAME = "rail_cpu.py"
VERSION = "1.0"
# The non-rainbow card colours, in the lab's order (ties go to the first).
COLOURS = ("red", "blue", "yellow", "green", "black")
OPTIONS = [
    {"name": "missionProbability", "type": "float", "default": 0.7, "min": 0, "max": 1},
    {"name": "shipped", "type": "bool", "default": False},
]


def log(*parts):
    """One line on standard error (the bot's log)."""
    print(NAME + ":", *parts, file=sys.stderr, flush=True)


def send(message):
    """One JSON line on standard output, flushed."""
    sys.stdout.write(json.dumps(message, separators=(",", ":")) + "\n")
    sys.stdout.flush()


class RailCPU:
    """The heuristic's decision rule over `turn` messages."""

    def __init__(self):
        self.mission_probability = 0.7
        self.shipped = False
        self.grey = set()
        self.rng = random.Random(0)

    def hello(self, message):
        """Reads the options and which railroads are grey."""
        if message.get("game") != "rail":
            log("this bot plays rail, not", message.get("game"))
        options = message.get("options") or {}
        p = options.get("missionProbability", self.mission_probability)
        if isinstance(p, bool) or not isinstance(p, (int, float)) or not 0 <= p <= 1:
            log("missionProbability must be a number in 0...1; got", repr(p), "- keeping",
                self.mission_probability)
        else:
            self.mission_probability = float(p)
        shipped = options.get("shipped", self.shipped)
        if not isinstance(shipped, bool):
            log("shipped must be true or false; got", repr(shipped), "- keeping", self.shipped)
        else:
            self.shipped = shipped
        for name in options:
            if name not in ("missionProbability", "shipped"):
                log("ignoring unknown option", name)
        self.grey = {r["index"] for r in message["setup"]["railroads"] if r["colour"] == "grey"}
        log("missionProbability", self.mission_probability, "shipped", self.shipped)

    def start(self, message):
        """A new match: a new random stream from its seed."""
        self.rng = random.Random(int(message["seed"]))

    def choose(self, message):
        """The id of the action to play on this `turn` message."""
        card = mission = pass_ = None
        builds = []  # (railroad, [legal entries]) in the order of `legal`
        for entry in message["legal"]:
            kind = entry["action"]["kind"]
            if kind == "draw_card":
                card = entry["id"]
            elif kind == "draw_mission":
                mission = entry["id"]
            elif kind == "pass":
                pass_ = entry["id"]
            elif kind == "build":
                railroad = entry["action"]["railroad"]
                if builds and builds[-1][0] == railroad:
                    builds[-1][1].append(entry)
                else:
                    builds.append((railroad, [entry]))
        hand = message["observation"]["hand"]
        if self.shipped:
            order = (lambda: self.build(builds, hand), lambda: mission, lambda: card)
        else:
            if mission is not None and self.rng.random() < self.mission_probability:
                return mission
            order = (lambda: self.build(builds, hand), lambda: card, lambda: mission)
        for step in order:
            choice = step()
            if choice is not None:
                return choice
        if pass_ is None:
            log("turn", message.get("turn"), "offers nothing this bot knows; playing the first entry")
            return message["legal"][0]["id"]
        return pass_

    def build(self, builds, hand):
        """A build chosen uniformly among the buildable railroads, or None."""
        if not builds:
            return None
        railroad, entries = builds[self.rng.randrange(len(builds))]
        if railroad not in self.grey:
            return entries[0]["id"]
        pay = most_held_colour(hand)
        for entry in entries:
            if entry["action"]["pay"] == pay:
                return entry["id"]
        log("no build of grey railroad", railroad, "paying", pay, "is legal; paying", entries[0]["action"]["pay"])
        return entries[0]["id"]


def most_held_colour(hand):
    """The non-rainbow colour held most (the first on ties), or rainbow if none is held."""
    best, most = "rainbow", 0
    for colour in COLOURS:
        if hand[colour] > most:
            best, most = colour, hand[colour]
    return best


def main():
    bot = RailCPU()
    while True:
        line = sys.stdin.readline()
        if not line:
            return  # EOF: the lab has gone
        line = line.strip()
        if not line:
            continue
        try:
            message = json.loads(line)
            kind = message["type"]
            if kind == "hello":
                bot.hello(message)
                send({"type": "ready", "name": NAME, "version": VERSION, "follow": False, "options": OPTIONS})
            elif kind == "start":
                bot.start(message)
            elif kind == "turn":
                send({"type": "action", "id": bot.choose(message)})
            elif kind == "quit":
                return
            # `end` and `played` need nothing.
        except (ValueError, KeyError, TypeError) as error:
            log("cannot read", line[:200], "-", type(error).__name__, error)


if __name__ == "__main__":
    main()
