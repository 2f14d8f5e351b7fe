#!/usr/bin/env python3
"""A random bot for any game of Opponent Lab, over the player protocol (docs/protocol.md).

It reads only the envelope: each `turn` offers `legal` actions, and it answers one of
their ids, drawn from a generator seeded by the match's `seed`, so its play depends only
on what it is sent (same seeds, same games). Standard library only; logs to stderr.

Options (declared in `ready`, passed as `external(command=..., opt.NAME=VALUE)`):
  first_bias  float in [0, 1], default 0: chance of taking the first legal action
              instead of a random one (a crude, visible knob)
  verbose     bool, default false: log every decision to stderr
"""
import json
import random
import sys


def main():
    options = {"first_bias": 0.0, "verbose": False}
    rng = random.Random(0)
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "hello":
            options.update(message.get("options", {}))
            reply = {
                "type": "ready",
                "name": "random_bot.py",
                "version": "1.0",
                "follow": False,
                "options": [
                    {"name": "first_bias", "type": "float", "default": 0.0, "min": 0.0, "max": 1.0},
                    {"name": "verbose", "type": "bool", "default": False},
                ],
            }
            print(json.dumps(reply), flush=True)
        elif kind == "start":
            rng = random.Random(int(message["seed"]))
        elif kind == "turn":
            legal = message["legal"]
            if rng.random() < options["first_bias"]:
                choice = legal[0]
            else:
                choice = legal[rng.randrange(len(legal))]
            if options["verbose"]:
                print(f"match {message['match']} turn {message['turn']}: {choice['text']}", file=sys.stderr, flush=True)
            print(json.dumps({"type": "action", "id": choice["id"]}), flush=True)
        elif kind == "quit":
            return
        # played and end need no answer


if __name__ == "__main__":
    main()
