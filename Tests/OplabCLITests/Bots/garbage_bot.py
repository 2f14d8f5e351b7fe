#!/usr/bin/env python3
"""Answers a line that is not JSON at its second turn of every match whose id is
divisible by 3: `malformed`."""
import faultlib


def garbage(turn, choice):
    print(f"I choose {choice['text']}", flush=True)


faultlib.run(garbage)
