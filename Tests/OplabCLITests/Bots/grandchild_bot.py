#!/usr/bin/env python3
"""Starts a child that sleeps 1000 s (in the bot's process group, which children inherit:
only the lab's kill of the group reaches it; its command line carries the bot's folder), then
plays like crash_bot.py: exits at its second turn of every match whose id is divisible
by 3, leaving the child behind."""
import os
import subprocess
import sys

import faultlib


def start_child():
    subprocess.Popen([sys.executable, "-c", "import time; time.sleep(1000)", faultlib.folder()],
                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def crash(turn, choice):
    sys.stderr.flush()
    os._exit(3)


faultlib.run(crash, on_hello=start_child)
