#!/usr/bin/env python3
"""Answers a well-formed action padded to a 2 MiB line at its second turn of every match
whose id is divisible by 3: `malformed`, a line over the protocol's 1 MiB."""
import sys

import faultlib


def huge(turn, choice):
    padding = "x" * (2 << 20)
    sys.stdout.write('{"type": "action", "id": %d, "padding": "%s"}\n' % (choice["id"], padding))
    sys.stdout.flush()


faultlib.run(huge)
