#!/usr/bin/env python3
"""Sleeps 3 s before its answer at its second turn of every match whose id is divisible
by 3: a `timeout` against any `timeout=` well under that (the tests use 500 ms)."""
import time

import faultlib


def oversleep(turn, choice):
    time.sleep(3)
    faultlib.send({"type": "action", "id": choice["id"]})


faultlib.run(oversleep)
