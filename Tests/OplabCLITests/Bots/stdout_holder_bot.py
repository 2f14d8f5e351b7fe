#!/usr/bin/env python3
"""Starts a child that sleeps 1000 s holding the bot's standard output open (it inherits
it), then plays like crash_bot.py: exits at its second turn of every match whose id is
divisible by 3. The bot has exited, but its output does not end while the child lives."""
import os
import subprocess
import sys

import faultlib


def start_child():
    subprocess.Popen([sys.executable, "-c", "import time; time.sleep(1000)", faultlib.folder()],
                     stdin=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def crash(turn, choice):
    sys.stderr.flush()
    os._exit(3)


faultlib.run(crash, on_hello=start_child)
