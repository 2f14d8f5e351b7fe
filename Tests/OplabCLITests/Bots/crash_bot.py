#!/usr/bin/env python3
"""Exits (status 3) at its second turn of every match whose id is divisible by 3: a `crash`."""
import os
import sys

import faultlib


def crash(turn, choice):
    sys.stderr.flush()
    os._exit(3)


faultlib.run(crash)
