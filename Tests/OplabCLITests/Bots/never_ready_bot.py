#!/usr/bin/env python3
"""Reads `hello`, logs a line, and never says `ready`: a failed handshake."""
import sys

for line in sys.stdin:
    print("never_ready_bot: still warming up, ready never comes", file=sys.stderr, flush=True)
