#!/usr/bin/env python3
"""A random bot that records its conversation: every line it receives is appended to
$RECORD_DIR/received.jsonl and every line it writes to $RECORD_DIR/sent.jsonl (one file
per process would be tidier; the tests run one process at a time). Asks to follow."""
import json
import os
import random
import sys

folder = os.environ["RECORD_DIR"]
received = open(os.path.join(folder, "received.jsonl"), "a")
sent = open(os.path.join(folder, "sent.jsonl"), "a")


def reply(obj):
    line = json.dumps(obj)
    sent.write(line + "\n")
    sent.flush()
    print(line, flush=True)


rng = random.Random(0)
for line in sys.stdin:
    received.write(line)
    received.flush()
    message = json.loads(line)
    kind = message["type"]
    if kind == "hello":
        reply({"type": "ready", "name": "recording", "version": "1", "follow": True,
               "options": [{"name": "level", "type": "int", "default": 1, "min": 0, "max": 9},
                           {"name": "tag", "type": "string", "default": ""}]})
    elif kind == "start":
        rng = random.Random(int(message["seed"]))
    elif kind == "turn":
        reply({"type": "action", "id": rng.choice(message["legal"])["id"]})
    elif kind == "quit":
        break
