#!/usr/bin/env python3
"""Exits (status 3) at its first turn of every match, while the file `mended` is absent
from the folder given as its first argument: a bot for the forfeit-streak stop, fixed by
creating that file."""
import os
import sys

import faultlib


def crash(turn, choice):
    sys.stderr.flush()
    os._exit(3)


faultlib.run(crash, every=1, at_turn=1)
